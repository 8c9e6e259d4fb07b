//! The search with endgame tables: a root in a table plays the table's
//! move with its score, a drawn root keeps the draw, a capture into a
//! covered ending is scored from the table (and counted in `tbhits`), in
//! the main search and in quiescence, and
//! the search without tables never contradicts a table's win or loss.
//!
//! The tables are generated here, into a temporary directory (the real
//! ones are not in the repository): rook against king and advisor
//! (`KRKA`) and pawn against king (`KPK`), with the endings their
//! captures lead to, well under a second in a release build.

use shuai_board::{Move, Position, Rng};
use shuai_egtb::{Material, TableSet, Tablebase, Value};
use shuai_search::score::{is_mate, mate_in, DisplayScore, MATE_BOUND};
use shuai_search::{Control, Event, Info, Limits, SearchResult, Searcher};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

/// The generated `KRKA` tables: in memory (to compare with) and opened
/// from their directory (as the engine would).
fn tables() -> &'static (TableSet, Arc<Tablebase>) {
    static TABLES: OnceLock<(TableSet, Arc<Tablebase>)> = OnceLock::new();
    TABLES.get_or_init(|| {
        let dir: PathBuf =
            std::env::temp_dir().join(format!("shuai-search-egtb-{}", std::process::id()));
        let mut set = TableSet::new();
        for name in ["KRKA", "KPK"] {
            let m = Material::parse(name).unwrap();
            let part = shuai_egtb::generate_into(m, &dir).unwrap();
            for sub in m.closure() {
                set.insert(Arc::clone(part.get(&sub).unwrap()));
            }
        }
        let tb = Tablebase::open_dirs(&[&dir]).unwrap();
        assert_eq!(tb.len(), 5, "KK, KAK, KRK, KRKA, KPK");
        // Opened: the files are read on first use and kept, so the
        // directory can go (the tests then need no cleaning up).
        for m in tb.endings() {
            tb.load(m).unwrap();
        }
        let _ = std::fs::remove_dir_all(&dir);
        (set, Arc::new(tb))
    })
}

/// Searches `pos` with or without the tables, returning the result and
/// every completed iteration's report.
fn search(pos: &Position, limits: Limits, with_tables: bool) -> (SearchResult, Vec<Info>) {
    let mut s = Searcher::new(8);
    if with_tables {
        s.set_tablebase(Some(Arc::clone(&tables().1)));
    }
    let infos = Mutex::new(Vec::new());
    let r = s.search(pos, &limits, &Control::new(), &|e| {
        if let Event::Iteration(i) = e {
            infos.lock().unwrap().push(i.clone());
        }
    });
    (r, infos.into_inner().unwrap())
}

/// The value of the position `m` leads to (for the side to move there).
fn child_value(set: &TableSet, pos: &Position, m: Move) -> Option<Value> {
    let mut p = pos.clone();
    p.make_move(m);
    set.probe(&p)
}

#[test]
fn a_won_root_plays_the_table_move_and_reports_its_mate() {
    let (set, _) = tables();
    // Red mates in 3 (5 plies): rook to a8, then the king takes the file.
    let pos = Position::from_fen("4ka3/9/9/9/9/9/9/9/9/R2K5 w").unwrap();
    let Some(Value::Win(n)) = set.probe(&pos) else {
        panic!("a table win");
    };
    assert_eq!(n, 5);
    let (r, infos) = search(&pos, Limits::depth(10), true);
    let best = r.best_move.unwrap();
    // The move keeps the win with the shortest mate.
    assert_eq!(child_value(set, &pos, best), Some(Value::Loss(n - 1)));
    assert_eq!(r.score, mate_in(n as usize));
    assert_eq!(DisplayScore::from_score(r.score), DisplayScore::Mate(3));
    // One report: the table's line to mate, at once, without a search.
    let [info] = &infos[..] else {
        panic!("one report: {infos:?}");
    };
    assert_eq!((info.depth, info.nodes, info.score), (1, 0, mate_in(5)));
    assert_eq!(info.pv.len(), 5);
    assert_eq!(info.pv[0], best);
    // The root and each of its children were looked up.
    let moves = pos.legal_moves().len() as u64;
    assert_eq!(info.tbhits, Some(1 + moves));
    // Played out, the line mates: no legal move at its end.
    let mut end = pos.clone();
    for &m in &info.pv {
        end.make_move(m);
    }
    assert!(!end.has_legal_move());
}

#[test]
fn a_lost_root_defends_longest() {
    let (set, _) = tables();
    let pos = Position::from_fen("4ka3/9/9/9/9/9/9/9/9/R2K5 b").unwrap();
    let Some(Value::Loss(n)) = set.probe(&pos) else {
        panic!("a table loss");
    };
    let (r, _) = search(&pos, Limits::depth(6), true);
    let best = r.best_move.unwrap();
    assert_eq!(child_value(set, &pos, best), Some(Value::Win(n - 1)));
    assert_eq!(r.score, -mate_in(n as usize));
}

/// The first position of `ending` (by index) that is a draw and has no
/// capture (which could lead into a dead draw any search sees).
fn drawn_without_captures(set: &TableSet, ending: &str) -> Position {
    let t = set.get(&Material::parse(ending).unwrap()).unwrap();
    (0..t.len())
        .filter(|&i| t.value_at(i) == Some(Value::Draw))
        .filter_map(|i| t.layout().position(i))
        .find(|p| {
            p.legal_moves()
                .iter()
                .all(|&m| p.piece_at(m.to()).is_none())
        })
        .expect("such a draw")
}

#[test]
fn a_drawn_root_keeps_the_draw_and_reports_zero() {
    let (set, _) = tables();
    // Pawn against bare king: the search sees a pawn up, the table a
    // draw. (That only drawing moves are searched is checked in the
    // crate: in these small endings a drawn position with a losing move
    // always has a capture that any search finds.)
    let pos = drawn_without_captures(set, "KPK");
    let (_, plain) = search(&pos, Limits::depth(5), false);
    assert!(
        plain.iter().all(|i| i.score != 0),
        "the search alone sees no draw"
    );
    let (r, infos) = search(&pos, Limits::depth(5), true);
    let best = r.best_move.unwrap();
    assert_eq!(
        child_value(set, &pos, best),
        Some(Value::Draw),
        "{}",
        pos.to_fen()
    );
    assert_eq!(r.score, 0);
    assert_eq!(infos.len(), 5, "searched to depth 5");
    assert!(infos.iter().all(|i| i.score == 0 && i.tbhits.is_some()));
}

#[test]
fn a_capture_into_a_covered_ending_is_scored_from_the_table() {
    // Rook and king against king and two advisors (no table): the rook
    // takes the advisor on d7 and KRKA is a table win.
    let pos = Position::from_fen("4ka3/9/3a5/9/9/9/9/9/9/3R1K3 w").unwrap();
    let (set, tb) = tables();
    assert_eq!(tb.probe(&pos), None);
    let capture = pos.parse_move("d0d7").unwrap();
    let Some(Value::Loss(n)) = child_value(set, &pos, capture) else {
        panic!("the capture wins");
    };
    let (r, infos) = search(&pos, Limits::depth(4), true);
    let last = infos.last().unwrap();
    assert!(last.tbhits.is_some_and(|h| h > 0), "{last:?}");
    // The table's mate after the capture, at most (a faster one found by
    // search is also a mate).
    assert_eq!(r.best_move, Some(capture));
    assert!(r.score >= mate_in(1 + n as usize), "{}", r.score);
    // Without tables: no `tbhits` at all, and no such proof at depth 4.
    let (plain, infos) = search(&pos, Limits::depth(4), false);
    assert!(infos.iter().all(|i| i.tbhits.is_none()));
    assert!(plain.score < MATE_BOUND);
}

#[test]
fn quiescence_scores_a_capture_into_a_covered_ending_from_the_table() {
    // The same capture one ply from the root: at depth 1 the position
    // after it is a quiescence node, which probes too.
    let pos = Position::from_fen("4ka3/9/3a5/9/9/9/9/9/9/3R1K3 w").unwrap();
    let (set, _) = tables();
    let capture = pos.parse_move("d0d7").unwrap();
    let Some(Value::Loss(n)) = child_value(set, &pos, capture) else {
        panic!("the capture wins");
    };
    let (r, infos) = search(&pos, Limits::depth(1), true);
    assert_eq!(infos.len(), 1);
    assert!(infos[0].tbhits.is_some_and(|h| h > 0), "{:?}", infos[0]);
    assert_eq!(r.best_move, Some(capture));
    assert_eq!(r.score, mate_in(1 + n as usize));
    let (plain, _) = search(&pos, Limits::depth(1), false);
    assert!(plain.score < MATE_BOUND);
}

/// Searches `count` sampled decisive `KRKA` positions with mates of at
/// most `max_plies` without tables, `extra` plies deeper than the mate,
/// and checks that no score contradicts the table: a mate score has the
/// table's sign, and so does any other score. Returns how many of the
/// searches found the mate.
fn search_agrees_with_the_table(count: usize, max_plies: u16, extra: u32) -> usize {
    let (set, _) = tables();
    let t = set.get(&Material::parse("KRKA").unwrap()).unwrap();
    let mut rng = Rng::new(30);
    let (mut sampled, mut mates) = (0, 0);
    while sampled < count {
        let i = (rng.next_u64() % t.len() as u64) as usize;
        let (Some(pos), Some(value)) = (t.layout().position(i), t.value_at(i)) else {
            continue;
        };
        let (sign, n) = match value {
            Value::Win(n) if (1..=max_plies).contains(&n) => (1, n),
            Value::Loss(n) if (2..=max_plies).contains(&n) => (-1, n),
            _ => continue,
        };
        sampled += 1;
        let (r, _) = search(&pos, Limits::depth(u32::from(n) + extra), false);
        assert_eq!(
            r.score.signum(),
            sign,
            "{} is {value:?}, the search says {}",
            pos.to_fen(),
            r.score
        );
        if is_mate(r.score) {
            mates += 1;
        }
    }
    mates
}

/// The proof item: the search, given time, never contradicts a
/// table win or loss on sampled positions.
#[test]
fn the_search_never_contradicts_a_table_result() {
    let mates = search_agrees_with_the_table(30, 7, 1);
    assert!(mates >= 15, "only {mates} of 30 mates found");
}

/// The same on more positions and longer mates:
/// `cargo test --release -p shuai-search --test tablebase -- --ignored --nocapture`.
#[test]
#[ignore]
fn the_search_never_contradicts_a_table_result_at_length() {
    let mates = search_agrees_with_the_table(3000, 40, 2);
    eprintln!("{mates} of 3000 mates found");
}

/// The proof item on the written tables (`EGTB_DIR=/path/to/tables cargo
/// test --release -p shuai-search --test tablebase -- --ignored
/// --nocapture`): positions sampled from every table in the directory,
/// searched without tables to depth 8. A mate the search finds must be
/// the table's result (same side, and not in a table draw).
#[test]
#[ignore]
fn the_search_never_contradicts_the_written_tables() {
    let Some(dir) = std::env::var_os("EGTB_DIR") else {
        panic!("set EGTB_DIR to a directory of written tables to check them");
    };
    let tb = Tablebase::open_dirs(&[PathBuf::from(dir)]).unwrap();
    let mut rng = Rng::new(30);
    let (mut searched, mut mates, mut decisive) = (0, 0, 0);
    for m in tb.endings() {
        let Some(t) = tb.table(m) else { continue };
        let mut here = 0;
        for _ in 0..2000 {
            if here == 10 {
                break;
            }
            let i = (rng.next_u64() % t.len() as u64) as usize;
            let (Some(pos), Some(value)) = (t.layout().position(i), t.value_at(i)) else {
                continue;
            };
            here += 1;
            let (r, _) = search(&pos, Limits::depth(8), false);
            searched += 1;
            decisive += usize::from(value != Value::Draw);
            if is_mate(r.score) {
                mates += 1;
                let agrees = match value.wdl() {
                    shuai_egtb::Wdl::Win => r.score > 0,
                    shuai_egtb::Wdl::Loss => r.score < 0,
                    shuai_egtb::Wdl::Draw => false,
                };
                assert!(
                    agrees,
                    "{m} {}: table {value:?}, search {}",
                    pos.to_fen(),
                    r.score
                );
            }
        }
    }
    assert!(tb.take_errors().is_empty());
    assert!(searched > 0, "no table in EGTB_DIR");
    eprintln!(
        "{} tables, {searched} positions ({decisive} won or lost), {mates} mates found, none contradicting",
        tb.len()
    );
}
