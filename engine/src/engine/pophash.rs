//! The answer to UCCI's `probe` command (`pophash`): what the engine
//! knows of a position, from the hash table or from the running search's
//! main line.

use super::PopHash;
use shuai_board::Position;
use shuai_search::Info;

/// What the hash table holds for `pos`, if anything.
pub(super) fn from_hash_table(
    tt: &shuai_search::TranspositionTable,
    pos: &Position,
) -> Option<PopHash> {
    use shuai_search::Bound;
    let hit = tt.probe(pos.key(), 0)?;
    let mut result = PopHash {
        best_move: hit.mv.filter(|&m| pos.is_legal(m)),
        ..PopHash::default()
    };
    if hit.depth >= 0 {
        if matches!(hit.bound, Bound::Lower | Bound::Exact) {
            result.lower = Some((hit.score, hit.depth));
        }
        if matches!(hit.bound, Bound::Upper | Bound::Exact) {
            result.upper = Some((hit.score, hit.depth));
        }
    }
    Some(result)
}

/// `probe` during a search: walk the latest main line from the root.
pub(super) fn from_main_line(root: &Position, info: &Info, target: &Position) -> PopHash {
    let mut p = root.clone();
    let key = target.key();
    for (i, &m) in info.pv.iter().enumerate() {
        if p.key() == key {
            let sign = if i % 2 == 0 { 1 } else { -1 };
            let depth = info.depth as i32 - i as i32;
            let bound = (sign * info.score, depth.max(0));
            return PopHash {
                best_move: Some(m),
                lower: (i == 0).then_some(bound),
                upper: (i == 0).then_some(bound),
            };
        }
        if !p.is_legal(m) {
            break;
        }
        p.make_move(m);
    }
    PopHash::default()
}
