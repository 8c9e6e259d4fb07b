//! The edge cases of protocol.md §9 not covered elsewhere, one test each,
//! named after their item (the others: §9.1 `go_during_*`, §9.2/§9.3
//! `isready_and_position_during_a_search`, §9.4 `stop_when_idle_*`, §9.6
//! `mated_*` and `banmoves_*`, §9.7/§9.8/§9.15 `bad_input_*`, §9.11
//! `ponder_*`, §9.16 `time_units_follow_usemillisec`, §9.17/§9.20
//! `sloppy_input_is_tolerated`, §9.18/§9.19 `quit_*`, §9.23
//! `fen_forms_are_accepted`, all in `protocol_ucci.rs` and
//! `protocol_uci.rs`).

#[path = "protocol_harness/mod.rs"]
mod harness;

use harness::*;
use shuai_board::Position;
use std::time::Duration;

/// Red mates in one (Rf7-d7; the red king covers the e-file).
const MATE_IN_ONE: &str = "3k5/9/5R3/9/9/9/9/9/9/4K4 w";

fn start(handshake: &str) -> Engine {
    let mut e = Engine::start();
    e.send(handshake);
    e.expect(if handshake == "ucci" {
        "ucciok"
    } else {
        "uciok"
    });
    e
}

/// §9.2: `banmoves` during a search waits for it, then applies.
#[test]
fn s9_2_banmoves_during_a_search_waits() {
    let mut e = start("ucci");
    e.send("position startpos");
    e.send("go depth 3");
    let first = check_search(&Position::startpos(), &e.search_result());
    e.send("go infinite");
    e.send(&format!("banmoves {first}"));
    std::thread::sleep(Duration::from_millis(100));
    e.send("stop");
    check_search(&Position::startpos(), &e.search_result());
    e.send("go depth 3");
    let after = check_search(&Position::startpos(), &e.search_result());
    assert_ne!(after, first);
}

/// §9.5: `stop` right after `go` still gives a legal move.
#[test]
fn s9_5_stop_immediately_after_go() {
    for proto in ["ucci", "uci"] {
        let mut e = start(proto);
        for go in ["go infinite", "go depth 40", "go wtime 100000 btime 100000"] {
            e.send("position startpos moves h2e2");
            e.send(go);
            e.send("stop");
            check_search(&start_after("h2e2"), &e.search_result());
        }
    }
}

/// §9.9 and §9.10: the FEN is taken as the position after the last
/// capture and the moves since are its history; a root that already
/// repeated still gets a best move (the GUI adjudicates).
#[test]
fn s9_9_and_s9_10_repetition_history_in_the_moves() {
    let mut e = start("ucci");
    let shuffle = "b0c2 b9c7 c2b0 c7b9 b0c2 b9c7 c2b0 c7b9";
    e.send(&format!("position startpos moves {shuffle}"));
    e.send("go depth 4");
    let root = start_after(shuffle);
    assert_eq!(root.key(), Position::startpos().key());
    check_search(&root, &e.search_result());
}

/// §9.12: an infinite or ponder search that finds a mate keeps waiting.
#[test]
fn s9_12_infinite_and_ponder_wait_even_after_mate() {
    let mut e = start("uci");
    e.send(&format!("position fen {MATE_IN_ONE}"));
    e.send("go infinite");
    let lines = e.quiet_for(Duration::from_millis(400));
    assert_eq!(finals(&lines), 0, "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains(" score mate 1 ")),
        "{lines:?}"
    );
    e.send("stop");
    let best = check_search(
        &Position::from_fen(MATE_IN_ONE).unwrap(),
        &e.search_result(),
    );
    assert_eq!(best, "f7d7");
    e.send("go ponder depth 2");
    assert_eq!(finals(&e.quiet_for(Duration::from_millis(300))), 0);
    e.send("ponderhit");
    assert_eq!(e.search_result().last().unwrap(), "bestmove f7d7");
}

/// §9.13: `go depth 0` answers with a move in both protocols.
#[test]
fn s9_13_depth_zero_still_moves() {
    for proto in ["ucci", "uci"] {
        let mut e = start(proto);
        e.send("position startpos");
        e.send("go depth 0");
        check_search(&Position::startpos(), &e.search_result());
    }
}

/// §9.14: a bare `go` searches (it ends by itself after a node budget, or
/// on `stop`).
#[test]
fn s9_14_bare_go_searches() {
    let mut e = start("ucci");
    e.send("position startpos");
    e.send("go");
    let lines = e.until(REPLY, |l| l.starts_with("info depth 3 ") || is_final(l));
    if !is_final(lines.last().unwrap()) {
        e.send("stop");
        check_search(&Position::startpos(), &e.search_result());
    }
}

/// §9.21: repeated `hashsize`/`threads` settings are idempotent.
#[test]
fn s9_21_repeated_hash_and_threads() {
    let mut e = start("ucci");
    for mb in [1, 8, 1, 8, 16, 16, 16] {
        e.send(&format!("setoption hashsize {mb}"));
        e.send(&format!("setoption threads {}", 1 + mb % 2));
    }
    assert!(e.sync().is_empty());
    e.send("position startpos");
    e.send("go depth 3");
    check_search(&Position::startpos(), &e.search_result());
}

/// §9.22: very long move lists (1600 plies, ElephantEye's buffer size).
#[test]
fn s9_22_very_long_move_lists() {
    let mut e = start("ucci");
    let mut moves = String::new();
    for _ in 0..400 {
        moves.push_str(" b0c2 b9c7 c2b0 c7b9");
    }
    e.send(&format!("position startpos moves{moves}"));
    e.send("go depth 2");
    check_search(&Position::startpos(), &e.search_result());
    e.send("d");
    let lines = e.sync();
    assert!(lines
        .last()
        .unwrap()
        .starts_with(&format!("Fen: {}", &shuai_board::START_FEN[..60])));
}

/// §9.24: 1-based squares from a GUI that did not set UCI_Variant are
/// reported, not fatal.
#[test]
fn s9_24_one_based_squares_without_uci_variant() {
    let mut e = start("uci");
    e.send("position startpos moves h3e3");
    assert_eq!(
        e.sync(),
        ["info string move 1 of the list: 'h3e3' is not a legal move in this position; position set up to the move before it"]
    );
    e.send("position startpos moves a10a9");
    let lines = e.sync();
    assert_eq!(lines.len(), 1);
    assert!(
        lines[0].contains("'a10a9' is not a move in ICCS form"),
        "{lines:?}"
    );
    e.send("go depth 1");
    check_search(&Position::startpos(), &e.search_result());
}
