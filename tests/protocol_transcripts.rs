//! Replayed command transcripts in the exact form each GUI or tool sends
//! (protocol.md §2.14 and §3): the xqbase league simulator, XiangQi Wizard,
//! UCI2WB in UCCI mode, the xqbase test harness, a Pikafish-style UCI GUI
//! and the cutechess xiangqi fork. Each checks the replies the tool relies
//! on.

#[path = "protocol_harness/mod.rs"]
mod harness;

use harness::*;
use shuai_board::Position;
use std::time::Duration;

/// UCCILEAG: option lines, then per move a FEN after the last capture with
/// the moves since, optional banmoves, `go [draw] time … increment …
/// opptime … oppincrement …`; `quit` waits for `bye`.
#[test]
fn xqbase_league_simulator() {
    let mut e = Engine::start();
    e.send("ucci");
    let hello = e.expect("ucciok");
    // The league sends usemillisec only if it saw the option announced.
    assert!(hello.iter().any(|l| l.starts_with("option usemillisec ")));
    for l in [
        "setoption promotion false",
        "setoption ponder false",
        "setoption newgame",
        "setoption usemillisec true",
        "setoption hashsize 32",
        "setoption threads 1",
    ] {
        e.send(l);
    }
    // Moves after the last capture (here: none yet) from the start FEN.
    e.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2 h9g7");
    e.send("go time 3000 increment 100 opptime 3000 oppincrement 100");
    let lines = e.search_result();
    check_search(&start_after("h2e2 h9g7"), &lines);
    // A banned repetition move, then a draw offer.
    e.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2 h9g7");
    let banned = field(lines.last().unwrap(), "bestmove")
        .unwrap()
        .to_string();
    e.send(&format!("banmoves {banned}"));
    e.send("go draw time 2900 increment 100 opptime 3000 oppincrement 100");
    let lines = e.search_result();
    let best = check_search(&start_after("h2e2 h9g7"), &lines);
    assert_ne!(best, banned);
    // Not a drawn position: no draw accepted.
    assert!(!lines.last().unwrap().contains(" draw"));
    e.send("quit");
    let (status, rest) = e.wait_exit(Duration::from_secs(2));
    assert!(status.success());
    assert_eq!(rest, ["bye"]);
}

/// XiangQi Wizard: book and hash settings, `go ponder time … increment`,
/// `ponderhit`, `go depth`, `stop`, `quit`.
#[test]
fn xiangqi_wizard() {
    let mut e = Engine::start();
    e.send("ucci");
    e.expect("ucciok");
    for l in [
        "setoption usebook true",
        "setoption bookfiles BOOK.DAT",
        "setoption hashsize 16",
        "setoption threads 1",
        "setoption newgame",
    ] {
        e.send(l);
    }
    // Book files are read at the first `go` that uses them.
    assert!(e.sync().is_empty());
    e.send("position startpos moves h2e2");
    e.send("go ponder time 1500 increment 0");
    assert_eq!(finals(&e.quiet_for(Duration::from_millis(200))), 0);
    e.send("ponderhit");
    let lines = e.search_result();
    check_search(&start_after("h2e2"), &lines);
    // XQWizard shows "info depth D score S pv …" with an integer score.
    for l in lines.iter().filter(|l| l.starts_with("info depth")) {
        field(l, "score").unwrap().parse::<i32>().unwrap();
    }
    e.send("position startpos moves h2e2 h9g7");
    e.send("go time 1500 movestogo 20");
    // The first timed `go` reads the book: there is no BOOK.DAT here, so
    // one message, and the engine plays on by search.
    let lines = e.search_result();
    let book_lines: Vec<&String> = lines.iter().filter(|l| l.contains("BOOK.DAT")).collect();
    assert_eq!(book_lines.len(), 1, "{lines:?}");
    assert!(
        book_lines[0].starts_with("info message cannot read book BOOK.DAT: "),
        "{lines:?}"
    );
    check_search(&start_after("h2e2 h9g7"), &lines);
    e.send("position startpos moves h2e2 h9g7 h0g2");
    e.send("go depth 4");
    check_search(&start_after("h2e2 h9g7 h0g2"), &e.search_result());
    e.send("stop");
    assert_eq!(e.sync(), ["nobestmove"]);
    e.send("quit");
    assert_eq!(e.wait_exit(Duration::from_secs(2)).1, ["bye"]);
}

/// UCI2WB `-x`: `isready` before a game, `setoption newgame`, a FEN ending
/// in `- - 0 1 moves`, clocks as `go time T opptime O movestogo N
/// oppincrement I increment I depth D` (increment after oppincrement),
/// `go ponder` and `ponderhit draw`.
#[test]
fn uci2wb_in_ucci_mode() {
    let mut e = Engine::start();
    e.send("ucci");
    let hello = e.expect("ucciok");
    // Announced default true: UCI2WB sends nothing and uses milliseconds.
    assert!(hello.contains(&"option usemillisec type check default true".to_string()));
    e.send("setoption hashsize 16");
    e.send("isready");
    e.expect("readyok");
    e.send("setoption newgame");
    e.send(
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves",
    );
    e.send("go time 60000 opptime 60000 movestogo 40 oppincrement 0 increment 0 depth 3");
    check_search(&Position::startpos(), &e.search_result());
    // Ponder in a dead-drawn ending, the opponent offers a draw with the
    // ponderhit.
    e.send("position fen 3akab2/9/4b4/9/9/9/9/4B4/4A4/3AK1B2 w - - 0 1 moves");
    e.send("go ponder time 2000 opptime 2000 increment 0 oppincrement 0");
    assert_eq!(finals(&e.quiet_for(Duration::from_millis(200))), 0);
    e.send("ponderhit draw");
    let last = e.search_result().pop().unwrap();
    assert!(
        last.starts_with("bestmove ") && last.ends_with(" draw"),
        "{last}"
    );
    // Fixed time per move arrives as movetime in the current unit.
    e.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2 h9g7");
    e.send("go movetime 200");
    check_search(&start_after("h2e2 h9g7"), &e.search_result());
    e.send("quit");
    assert_eq!(e.wait_exit(Duration::from_secs(2)).1, ["bye"]);
}

/// uccitest (xqbase's harness): init lines, a FEN with ` - - 0 1`, a fixed
/// depth, `stop` on timeout, `quit`.
#[test]
fn xqbase_uccitest() {
    let mut e = Engine::start();
    e.send("ucci");
    e.expect("ucciok");
    e.send("setoption usebook off");
    e.send("setoption newgame");
    e.send("position fen r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 0 1");
    e.send("go depth 4");
    let root = Position::from_fen(
        "r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 0 1",
    )
    .unwrap();
    check_search(&root, &e.search_result());
    e.send("stop");
    assert_eq!(e.sync(), ["nobestmove"]);
    e.send("quit");
    assert_eq!(e.wait_exit(Duration::from_secs(2)).1, ["bye"]);
}

/// A Pikafish-style UCI GUI (Sharkchess, BHWS): options by name, the game
/// as `position startpos moves …`, clocks as wtime/btime.
#[test]
fn pikafish_style_uci_gui() {
    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok");
    for l in [
        "setoption name Threads value 2",
        "setoption name Hash value 32",
        "setoption name Ponder value false",
        "setoption name MultiPV value 1",
        "setoption name Move Overhead value 10",
        "setoption name Sixty Move Rule value true",
        "setoption name Repetition Rule value AsianRule",
        "setoption name Skill Level value 20",
        "ucinewgame",
    ] {
        e.send(l);
    }
    assert!(e.sync().is_empty());
    e.send("position startpos moves h2e2 h9g7 h0g2 i9h9");
    e.send("go wtime 5000 btime 5000 winc 100 binc 100");
    check_search(&start_after("h2e2 h9g7 h0g2 i9h9"), &e.search_result());
    e.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2 h9g7 h0g2 i9h9 i0h0");
    e.send("go wtime 4800 btime 4900 winc 100 binc 100");
    check_search(&start_after("h2e2 h9g7 h0g2 i9h9 i0h0"), &e.search_result());
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(2)).1.is_empty());
}

/// The cutechess xiangqi fork: reads the variants from the UCI_Variant
/// combo, sends `UCI_Variant xiangqi` and squares with ranks 1–10.
#[test]
fn cutechess_xiangqi_fork() {
    let mut e = Engine::start();
    e.send("uci");
    let hello = e.expect("uciok");
    assert!(
        hello
            .iter()
            .any(|l| l.starts_with("option name UCI_Variant type combo")
                && l.contains(" var xiangqi"))
    );
    e.send("isready");
    e.expect("readyok");
    e.send("setoption name UCI_Variant value xiangqi");
    e.send("ucinewgame");
    e.send("position startpos moves h3e3");
    e.send("isready");
    e.expect("readyok");
    e.send("go wtime 3000 btime 3000 winc 100 binc 100");
    let lines = e.search_result();
    let best = field(lines.last().unwrap(), "bestmove")
        .unwrap()
        .to_string();
    // Black's move in ranks 1-10: its ranks are 6..10 or so, never 0.
    assert!(!best.contains('0') || best.contains("10"), "{best}");
    e.send(&format!("position startpos moves h3e3 {best}"));
    let lines = e.sync();
    assert!(lines.is_empty(), "{lines:?}");
    e.send("quit");
    e.wait_exit(Duration::from_secs(2));
}
