//! The endgame tables in the search: table values as search scores, and
//! what the root does when its position is in a table.
//!
//! Inside the tree a node reached by a capture into an ending with a table
//! is scored from the table and not searched further (`worker/node.rs`,
//! and `worker/quiescence.rs` for the captures quiescence tries).
//! At the root, a won or lost position is answered from the table alone
//! (the move that keeps the result with the best distance), and a drawn
//! one is searched among the moves that keep the draw.

use crate::score::{limit_mate, mate_in, mated_in, DRAW, MAX_PLY, TB_WIN};
use shuai_board::{Move, Position};
use shuai_egtb::{Tablebase, Value, Wdl};

/// The search score of a table value at a node `ply` plies from the root,
/// with `plies_left` before the natural-move limit draws the game.
///
/// A mate the table proves is the mate score of its distance (so the
/// search compares it with the mates it finds itself, and the root shows
/// `mate N`), an unproven win when it needs more plies than the limit
/// leaves (as for mates read from the transposition table). A result by
/// the perpetual-check rule has no distance: [`TB_WIN`] less the ply,
/// above every evaluation and below every mate. A draw is a draw.
pub(crate) fn score(value: Value, ply: usize, plies_left: u32) -> i32 {
    match value {
        Value::Draw => DRAW,
        Value::Win(n) => limit_mate(mate_in(ply + usize::from(n)), ply, plies_left),
        Value::Loss(n) => limit_mate(mated_in(ply + usize::from(n)), ply, plies_left),
        Value::WinByRule(_) => TB_WIN - ply as i32,
        Value::LossByRule(_) => -(TB_WIN - ply as i32),
    }
}

/// What the root does with the tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RootPlan {
    /// The table decides: play `mv`, which keeps the root's result with
    /// the best distance; `score` is the root's value and `pv` the table's
    /// line from the root.
    Decided { mv: Move, score: i32, pv: Vec<Move> },
    /// Search only `moves` (those that keep the root's result); report
    /// `score` instead of the search's own when it is given (a draw: the
    /// search only chooses among drawing moves, its scores say nothing
    /// about the result).
    Restrict {
        moves: Vec<Move>,
        score: Option<i32>,
    },
}

/// How the root `pos` (with `moves` allowed) should use `tb`, and how many
/// probes hit; `None` when the root's ending has no table. `plies_left`:
/// plies before the natural-move limit, which a table mate must fit in to
/// be answered from the table (a longer one is searched among the winning
/// moves, as the table cannot know about captures that reset the count).
pub(crate) fn root_plan(
    pos: &Position,
    moves: &[Move],
    tb: &Tablebase,
    plies_left: u32,
) -> Option<(RootPlan, u64)> {
    let value = tb.probe(pos)?;
    let mut hits = 1;
    let mut p = pos.clone();
    let children: Vec<(Move, Option<Value>)> = moves
        .iter()
        .map(|&m| {
            p.make_move(m);
            let child = tb.probe(&p);
            p.unmake_move();
            hits += u64::from(child.is_some());
            (m, child)
        })
        .collect();
    let fits = value
        .mate_plies()
        .is_none_or(|n| u32::from(n) <= plies_left);
    if value.wdl() != Wdl::Draw && fits {
        let probe = |q: &Position| tb.probe(q);
        if let Some((mv, child)) = shuai_egtb::best_move_among(pos, moves, probe) {
            // The root's score from the child's: the same as the root's
            // value unless the best move is banned.
            let score = -self::score(child, 1, plies_left.saturating_sub(1));
            let mut after = pos.clone();
            after.make_move(mv);
            let mut pv = vec![mv];
            pv.extend(tb.line(&after, MAX_PLY - 1));
            return Some((RootPlan::Decided { mv, score, pv }, hits));
        }
    }
    // Keep the moves that do not hand the opponent a better result than
    // the root's (and those the tables cannot judge).
    let keeps = |child: Option<Value>| match (value.wdl(), child.map(Value::wdl)) {
        (_, None) => true,
        (Wdl::Win, Some(c)) => c == Wdl::Loss,
        (Wdl::Draw, Some(c)) => c != Wdl::Win,
        (Wdl::Loss, Some(_)) => true,
    };
    let kept: Vec<Move> = children
        .iter()
        .filter(|(_, c)| keeps(*c))
        .map(|&(m, _)| m)
        .collect();
    if kept.is_empty() {
        return None;
    }
    let score = (value == Value::Draw).then_some(DRAW);
    Some((RootPlan::Restrict { moves: kept, score }, hits))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{is_mate, UNPROVEN_WIN};

    #[test]
    fn table_values_as_scores() {
        assert_eq!(score(Value::Win(7), 2, 120), mate_in(9));
        assert_eq!(score(Value::Loss(6), 3, 120), mated_in(9));
        assert_eq!(score(Value::Win(7), 2, 6), UNPROVEN_WIN);
        assert_eq!(score(Value::Draw, 5, 120), DRAW);
        let rule = score(Value::WinByRule(3), 4, 120);
        assert_eq!(rule, TB_WIN - 4);
        assert!(!is_mate(rule) && rule < UNPROVEN_WIN);
        assert_eq!(score(Value::LossByRule(2), 4, 120), -rule);
    }

    /// A drawn root keeps only its drawing moves (and reports 0); a won
    /// one is answered with the table's best move.
    #[test]
    fn root_plans() {
        let dir = std::env::temp_dir().join(format!("shuai-search-plan-{}", std::process::id()));
        let m = shuai_egtb::Material::parse("KRKA").unwrap();
        shuai_egtb::generate_into(m, &dir).unwrap();
        let tb = Tablebase::open(&dir);
        // Black to move: the advisor or the king takes the rook (a draw);
        // any other move loses.
        let pos = Position::from_fen("3ak4/4R4/9/9/9/9/9/9/9/3K5 b").unwrap();
        let moves = pos.legal_moves().as_slice().to_vec();
        let takes = ["d9e8", "e9e8"].map(|m| pos.parse_move(m).unwrap());
        assert_eq!(tb.probe(&pos), Some(Value::Draw));
        let (plan, hits) = root_plan(&pos, &moves, &tb, 120).unwrap();
        assert_eq!(
            plan,
            RootPlan::Restrict {
                moves: takes.to_vec(),
                score: Some(DRAW)
            }
        );
        assert_eq!(hits, 1 + moves.len() as u64);
        // Red to move wins: the table's move, nothing searched.
        let red = Position::from_fen("3ak4/9/9/9/9/9/9/9/9/R2K5 w").unwrap();
        let moves = red.legal_moves().as_slice().to_vec();
        let (best, _) = tb.best_move(&red).unwrap();
        let Some((RootPlan::Decided { mv, score, pv }, _)) = root_plan(&red, &moves, &tb, 120)
        else {
            panic!("decided");
        };
        let Some(Value::Win(n)) = tb.probe(&red) else {
            panic!("a win");
        };
        assert_eq!(
            (mv, score, pv.len()),
            (best, mate_in(usize::from(n)), usize::from(n))
        );
        // Too long for the plies left before the natural-move limit: the
        // winning moves are searched instead.
        let plan = root_plan(&red, &moves, &tb, u32::from(n) - 1).unwrap().0;
        assert!(matches!(plan, RootPlan::Restrict { score: None, .. }));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
