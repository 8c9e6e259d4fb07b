//! Playing from opening books through the protocols: the exact lines of a
//! book move, and the moves a book must not play (banned, outside
//! `searchmoves`, repeating the game), the searches that never use a book,
//! the book depth, and a book that cannot be read.

use shuai_board::{Move, Position};
use shuai_engine::book::{BookEntry, ElephantEyeWriter, SqliteFormat, SqliteWriter};
use shuai_engine::engine::{Engine, GoParams, Listener, Outcome};
use shuai_engine::protocol::SharedOutput as Shared;
use shuai_search::{Event, Limits};
use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Runs a transcript; returns the lines after the handshake, without the
/// search's `info depth`/`info time` lines when `quiet`.
fn talk(input: &str) -> Vec<String> {
    let out = Shared::default();
    shuai_engine::protocol::run(Cursor::new(input.as_bytes().to_vec()), out.clone()).unwrap();
    let bytes = out.0.lock().unwrap().clone();
    let text = String::from_utf8(bytes).unwrap();
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let after = lines
        .iter()
        .position(|l| l == "uciok" || l == "ucciok")
        .map_or(0, |i| i + 1);
    lines[after..].to_vec()
}

/// Lines other than a search's progress reports.
fn without_search_info(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| {
            let progress = ["info depth", "info time", "info currmove", "info nodes"]
                .iter()
                .any(|p| l.starts_with(p));
            !progress || l.starts_with("info depth 0 ")
        })
        .cloned()
        .collect()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shuai-bookplay-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The system's own words for opening `missing` (Linux and Windows word a
/// missing file differently), so the test holds on both.
fn not_found(missing: &std::path::Path) -> String {
    match std::fs::File::open(missing) {
        Ok(_) => panic!("{} exists", missing.display()),
        Err(e) => e.to_string(),
    }
}

fn game(moves: &str) -> Position {
    let mut pos = Position::startpos();
    for m in moves.split_whitespace() {
        let m = pos.parse_move(m).unwrap();
        pos.make_move(m);
    }
    pos
}

fn mv(text: &str) -> Move {
    shuai_board::parse_iccs(text).unwrap()
}

/// An ElephantEye book: after c3c4, Black's h9g7 (7) and b9c7 (3); after
/// c3c4 h9g7, Red's h0g2 (4).
fn small_book(dir: &Path) -> PathBuf {
    let path = dir.join("small.dat");
    let mut w = ElephantEyeWriter::new();
    w.add(&game("c3c4"), mv("h9g7"), 7);
    w.add(&game("c3c4"), mv("b9c7"), 3);
    w.add(&game("c3c4 h9g7"), mv("h0g2"), 4);
    w.write(&path).unwrap();
    path
}

fn uci_with(book: &Path, extra: &str) -> String {
    format!(
        "uci\nsetoption name OwnBook value true\nsetoption name Book File value {}\nsetoption name Best Book Move value true\n{extra}",
        book.display()
    )
}

fn ucci_with(book: &Path, extra: &str) -> String {
    format!(
        "ucci\nsetoption usebook true\nsetoption bookfiles {}\nsetoption bestbookmove true\n{extra}",
        book.display()
    )
}

#[test]
fn a_book_move_is_answered_at_once_in_uci() {
    let dir = scratch("uci");
    let book = small_book(&dir);
    let out = talk(&uci_with(
        &book,
        "position startpos moves c3c4\ngo wtime 60000 btime 60000\n",
    ));
    assert_eq!(
        out,
        [
            "info string book move h9g7 weight 7 of 10 (2 moves) in small.dat",
            "bestmove h9g7 ponder h0g2",
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_book_move_is_answered_at_once_in_ucci() {
    let dir = scratch("ucci");
    let book = small_book(&dir);
    let out = talk(&ucci_with(
        &book,
        "position startpos moves c3c4\ngo time 60000 increment 0\nquit\n",
    ));
    assert_eq!(out.len(), 5, "{out:?}");
    assert_eq!(out[0], "info depth 0 score 0 pv h9g7");
    assert_eq!(
        out[1],
        "info message book move h9g7 weight 7 of 10 (2 moves) in small.dat"
    );
    assert!(
        out[2].starts_with("info time ") && out[2].ends_with(" nodes 0"),
        "{out:?}"
    );
    assert_eq!(&out[3..], ["bestmove h9g7 ponder h0g2", "bye"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_book_position_is_found_from_its_mirror() {
    let dir = scratch("mirror");
    let book = small_book(&dir);
    // g3g4 is the mirror of c3c4: the book's moves come back mirrored.
    let out = talk(&uci_with(
        &book,
        "position startpos moves g3g4\ngo movetime 1000\n",
    ));
    assert_eq!(
        out,
        [
            "info string book move b9c7 weight 7 of 10 (2 moves) in small.dat",
            "bestmove b9c7 ponder b0c2",
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn banned_moves_and_searchmoves_are_respected() {
    let dir = scratch("banned");
    let book = small_book(&dir);
    let out = talk(&ucci_with(
        &book,
        "position startpos moves c3c4\nbanmoves h9g7\ngo time 60000\n",
    ));
    let out = without_search_info(&out);
    assert_eq!(
        out,
        [
            "info depth 0 score 0 pv b9c7",
            "info message book move b9c7 weight 3 of 3 (1 move) in small.dat",
            "bestmove b9c7",
            "bye",
        ]
    );
    let out = talk(&uci_with(
        &book,
        "position startpos moves c3c4\ngo movetime 1000 searchmoves b9c7\n",
    ));
    assert_eq!(
        out,
        [
            "info string book move b9c7 weight 3 of 3 (1 move) in small.dat",
            "bestmove b9c7",
        ]
    );
    // Every book move banned: the engine searches (and plays neither).
    let out = talk(&ucci_with(
        &book,
        "position startpos moves c3c4\nbanmoves h9g7 b9c7\ngo time 200\n",
    ));
    let last = &out[out.len() - 2];
    assert!(last.starts_with("bestmove "), "{out:?}");
    assert!(!last.contains("h9g7") && !last.contains("b9c7"), "{out:?}");
    assert!(!out.iter().any(|l| l.contains("book move")), "{out:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_book_move_that_repeats_the_game_is_skipped() {
    let dir = scratch("repeat");
    let book = small_book(&dir);
    // The horses went out and back: h9g7 would bring back the position
    // after c3c4 h9g7.
    let out = talk(&uci_with(
        &book,
        "position startpos moves c3c4 h9g7 h0g2 g7h9 g2h0\ngo movetime 1000\n",
    ));
    assert_eq!(
        out,
        [
            "info string book move b9c7 weight 3 of 3 (1 move) in small.dat",
            "bestmove b9c7",
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn analysis_pondering_and_fixed_searches_never_use_the_book() {
    let dir = scratch("searches");
    let book = small_book(&dir);
    for go in [
        "go infinite\nstop\n",
        "go depth 2\n",
        "go nodes 2000\n",
        "go mate 2\n",
        "go ponder wtime 1000 btime 1000\nstop\n",
    ] {
        let out = talk(&uci_with(
            &book,
            &format!("position startpos moves c3c4\n{go}"),
        ));
        assert!(!out.iter().any(|l| l.contains("book")), "{go:?}: {out:?}");
        assert!(
            out.last().unwrap().starts_with("bestmove "),
            "{go:?}: {out:?}"
        );
    }
    // Switched off, or beyond the book depth: a search.
    let off = talk(&format!(
        "uci\nsetoption name Book File value {}\nposition startpos moves c3c4\ngo movetime 100\n",
        book.display()
    ));
    assert!(!off.iter().any(|l| l.contains("book")), "{off:?}");
    let shallow = talk(&uci_with(
        &book,
        "setoption name Book Depth value 1\nposition startpos moves c3c4\ngo movetime 100\n",
    ));
    assert!(!shallow.iter().any(|l| l.contains("book")), "{shallow:?}");
    let deep = talk(&uci_with(
        &book,
        "setoption name Book Depth value 2\nposition startpos moves c3c4\ngo movetime 100\n",
    ));
    assert!(deep[0].contains("book move h9g7"), "{deep:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bad_book_gets_one_message_and_the_engine_searches() {
    let dir = scratch("bad");
    let missing = dir.join("missing.dat");
    let out = talk(&ucci_with(
        &missing,
        "position startpos\ngo time 200\nposition startpos moves h2e2\ngo time 200\n",
    ));
    let messages: Vec<&String> = out
        .iter()
        .filter(|l| l.starts_with("info message"))
        .collect();
    assert_eq!(
        messages,
        [&format!(
            "info message cannot read book {}: {}; playing without it",
            missing.display(),
            not_found(&missing)
        )]
    );
    assert_eq!(
        out.iter().filter(|l| l.starts_with("bestmove ")).count(),
        2,
        "{out:?}"
    );
    assert!(
        out.iter().any(|l| l.starts_with("info depth 1 ")),
        "{out:?}"
    );

    let corrupt = dir.join("corrupt.dat");
    std::fs::write(&corrupt, [7u8; 12]).unwrap();
    let small = small_book(&dir);
    // The damaged book is reported; the good one after it still plays.
    let spec = format!("{};{}", corrupt.display(), small.display());
    let out = talk(&format!(
        "uci\nsetoption name OwnBook value true\nsetoption name Book File value {spec}\nsetoption name Best Book Move value true\nposition startpos moves c3c4\ngo movetime 1000\n"
    ));
    assert_eq!(
        out,
        [
            format!(
                "info string {} is not a usable book: 12 bytes is not a whole number of 8-byte ElephantEye records; playing without it",
                corrupt.display()
            ),
            "info string book move h9g7 weight 7 of 10 (2 moves) in small.dat".to_string(),
            "bestmove h9g7 ponder h0g2".to_string(),
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sqlite_books_play_and_show_their_results() {
    let dir = scratch("sqlite");
    let path = dir.join("book.obk");
    let mut w = SqliteWriter::new(SqliteFormat::Obk);
    let entry = |score, wins, draws, losses| BookEntry {
        score,
        wins,
        draws,
        losses,
    };
    w.add(&game("c3c4"), mv("h9g7"), entry(30, 12, 6, 2));
    w.add(&game("c3c4"), mv("c6c5"), entry(10, 3, 3, 3));
    w.write(&path).unwrap();
    let out = talk(&uci_with(
        &path,
        "position startpos moves c3c4\ngo movetime 1000\n",
    ));
    assert_eq!(
        out,
        [
            "info string book move h9g7 weight 30 of 40 (2 moves) in book.obk, won 12 drawn 6 lost 2",
            "bestmove h9g7",
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Collects outcomes.
#[derive(Default)]
struct Sink(Mutex<Vec<Outcome>>);

impl Listener for Sink {
    fn info(&self, _: &Event) {}
    fn best_move(&self, o: &Outcome) {
        self.0.lock().unwrap().push(o.clone());
    }
}

#[test]
fn book_moves_are_chosen_by_weight() {
    let dir = scratch("weights");
    let book = small_book(&dir);
    let mut e = Engine::new();
    e.set_seed(28);
    let mut opts = e.options().clone();
    opts.use_book = true;
    opts.book_files = book.display().to_string();
    e.set_options(opts);
    e.set_position(game("c3c4"));
    let timed = GoParams {
        limits: Limits {
            movetime: Some(Duration::from_millis(50)),
            ..Limits::default()
        },
        ..GoParams::default()
    };
    let sink = Arc::new(Sink::default());
    for _ in 0..200 {
        e.go(timed.clone(), sink.clone());
        e.wait();
    }
    let played = sink.0.lock().unwrap();
    assert_eq!(played.len(), 200);
    let horse = played
        .iter()
        .filter(|o| o.best_move == Some(mv("h9g7")))
        .count();
    let other = played
        .iter()
        .filter(|o| o.best_move == Some(mv("b9c7")))
        .count();
    assert_eq!(horse + other, 200, "only book moves");
    // 7 : 3 expected: 140 of 200, well inside 110..170.
    assert!((110..=170).contains(&horse), "h9g7 {horse} times of 200");
    assert!(played.iter().all(|o| o.nodes == 0 && o.depth == 0));
    std::fs::remove_dir_all(&dir).unwrap();
}
