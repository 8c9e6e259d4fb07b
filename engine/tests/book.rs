//! The opening-book formats: small books written by our own writers, read
//! back; the published start-position keys; mirrored positions; colliding
//! keys; damaged files. `ELEPHANTEYE_BOOK=/path/BOOK.DAT cargo test
//! --release -p shuai-engine --test book -- --ignored` also reads the book
//! ElephantEye ships.

use shuai_board::{Move, Position};
use shuai_engine::book::{
    elephanteye_lock, obk_key, Book, BookEntry, BookError, BookFormat, BookMove, ElephantEyeWriter,
    SqliteFormat, SqliteWriter,
};
use std::path::PathBuf;

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shuai-book-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
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

fn listed(moves: &[BookMove]) -> Vec<(String, u32)> {
    moves.iter().map(|m| (m.mv.to_string(), m.weight)).collect()
}

fn pairs(list: &[(&str, u32)]) -> Vec<(String, u32)> {
    list.iter().map(|&(m, w)| (m.to_string(), w)).collect()
}

#[test]
fn start_position_keys_are_the_published_ones() {
    let start = Position::startpos();
    assert_eq!(elephanteye_lock(&start), 0x0526_56D5);
    assert_eq!(obk_key(&start), 7_101_337_512_282_506_414);
    // The side to move is part of both keys.
    let black = Position::from_fen(&start.to_fen().replace(" w ", " b ")).unwrap();
    assert_ne!(elephanteye_lock(&black), elephanteye_lock(&start));
    assert_ne!(obk_key(&black), obk_key(&start));
}

#[test]
fn elephanteye_book_written_and_read_back() {
    let dir = scratch("ee");
    let path = dir.join("BOOK.DAT");
    let start = Position::startpos();
    let after = game("h2e2");
    let mut w = ElephantEyeWriter::new();
    w.add(&start, mv("h2e2"), 30);
    w.add(&start, mv("b0c2"), 10);
    w.add(&start, mv("h2e2"), 5); // added to the first
    w.add(&after, mv("h9g7"), 7);
    w.write(&path).unwrap();
    // The start position is symmetric: its moves are stored both ways
    // round, so the file has 2 + 2 + 1 records.
    assert_eq!(std::fs::metadata(&path).unwrap().len(), 5 * 8);

    let book = Book::open(&path).unwrap();
    assert_eq!(book.format(), BookFormat::ElephantEye);
    let moves = book.probe(&start).unwrap();
    assert_eq!(
        listed(&moves),
        pairs(&[("b2e2", 35), ("h2e2", 35), ("b0c2", 10), ("h0g2", 10)])
    );
    assert!(moves.iter().all(|m| m.score.is_none() && m.wins.is_none()));
    assert_eq!(listed(&book.probe(&after).unwrap()), pairs(&[("h9g7", 7)]));
    assert!(book.probe(&game("h2e2 h9g7")).unwrap().is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn elephanteye_finds_a_position_stored_under_its_mirror() {
    let dir = scratch("ee-mirror");
    let path = dir.join("BOOK.DAT");
    // After h2e2 (cannon to the centre from the right) and its mirror
    // b2e2, the two positions are each other's mirror: one is stored.
    let right = game("h2e2");
    let left = game("b2e2");
    let mut w = ElephantEyeWriter::new();
    w.add(&right, mv("h9g7"), 9);
    w.add(&right, mv("b9c7"), 4);
    w.write(&path).unwrap();
    assert_eq!(std::fs::metadata(&path).unwrap().len(), 2 * 8);
    let book = Book::open(&path).unwrap();
    assert_eq!(
        listed(&book.probe(&right).unwrap()),
        pairs(&[("h9g7", 9), ("b9c7", 4)])
    );
    assert_eq!(
        listed(&book.probe(&left).unwrap()),
        pairs(&[("b9c7", 9), ("h9g7", 4)])
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn elephanteye_drops_moves_that_are_not_legal_here() {
    let dir = scratch("ee-collision");
    let path = dir.join("BOOK.DAT");
    let start = Position::startpos();
    let lock = elephanteye_lock(&start);
    let mut w = ElephantEyeWriter::new();
    w.add(&start, mv("c3c4"), 3);
    // Another position's moves under the same 32-bit lock: a cannon move
    // from an empty point, a move onto the board's edge (x = 2, off the
    // 9 files) and a black move.
    w.add_raw(lock, 0x77 | 0x57 << 8, 50); // e5e7 (empty e5)
    w.add_raw(lock, 0x33 | 0x32 << 8, 50); // a9 to off the board
    w.add_raw(lock, 0x3A | 0x58 << 8, 50); // h9g7, Black's move
    w.write(&path).unwrap();
    let book = Book::open(&path).unwrap();
    assert_eq!(
        listed(&book.probe(&start).unwrap()),
        pairs(&[("c3c4", 3), ("g3g4", 3)])
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn damaged_and_missing_files_are_errors() {
    let dir = scratch("bad");
    let missing = dir.join("missing.dat");
    assert!(matches!(Book::open(&missing), Err(BookError::Io(..))));
    let odd = dir.join("odd.dat");
    std::fs::write(&odd, [1u8; 12]).unwrap();
    let e = Book::open(&odd).unwrap_err();
    assert!(matches!(e, BookError::Corrupt(..)), "{e}");
    assert!(e.to_string().contains("12 bytes"), "{e}");
    let unsorted = dir.join("unsorted.dat");
    let mut bytes = Vec::new();
    for lock in [5u32, 3] {
        bytes.extend_from_slice(&lock.to_le_bytes());
        bytes.extend_from_slice(&[0; 4]);
    }
    std::fs::write(&unsorted, bytes).unwrap();
    let e = Book::open(&unsorted).unwrap_err();
    assert!(e.to_string().contains("not sorted"), "{e}");
    let empty = dir.join("empty.dat");
    std::fs::write(&empty, []).unwrap();
    assert!(matches!(Book::open(&empty), Err(BookError::Corrupt(..))));
    // A SQLite file that is cut short, and one without a book table.
    let obk = dir.join("book.obk");
    let mut w = SqliteWriter::new(SqliteFormat::Obk);
    w.add(&Position::startpos(), mv("h2e2"), BookEntry::default());
    w.write(&obk).unwrap();
    let whole = std::fs::read(&obk).unwrap();
    let cut = dir.join("cut.obk");
    std::fs::write(&cut, &whole[..100]).unwrap();
    let e = Book::open(&cut).unwrap_err();
    assert!(matches!(e, BookError::Corrupt(..)), "{e}");
    let other = dir.join("other.obk");
    rusqlite_free_table(&other);
    let e = Book::open(&other).unwrap_err();
    assert!(e.to_string().contains("bhobk"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Regression (issue 50, the `book_sqlite` fuzz target): a book whose
/// columns hold text that is not UTF-8 made rusqlite panic in the probe.
/// Such a value is no number: the row keeps what it can (a move without a
/// score), a row whose move is unreadable is dropped.
#[test]
fn sqlite_books_with_text_that_is_not_utf8_are_read_without_a_panic() {
    let dir = scratch("not-utf8");
    let path = dir.join("book.obk");
    let start = Position::startpos();
    let mut w = SqliteWriter::new(SqliteFormat::Obk);
    let scored = |score| BookEntry {
        score,
        ..BookEntry::default()
    };
    w.add(&start, mv("h2e2"), scored(40));
    w.add(&start, mv("c3c4"), scored(25));
    w.write(&path).unwrap();
    let conn = rusqlite::Connection::open(&path).unwrap();
    let damaged = conn
        .execute(
            "UPDATE bhobk SET vscore = CAST(X'3140FF' AS TEXT), vwin = '7' WHERE vscore = 40",
            [],
        )
        .unwrap();
    assert_eq!(damaged, 1);
    let unreadable = conn
        .execute(
            "UPDATE bhobk SET vmove = CAST(X'FFFE' AS TEXT) WHERE vscore = 25",
            [],
        )
        .unwrap();
    assert_eq!(unreadable, 1);
    drop(conn);
    let book = Book::open(&path).unwrap();
    let moves = book.probe(&start).unwrap();
    // h2e2 and its mirror b2e2: no score, so weighed by their results
    // (the text "7" still read as a number: 7 wins, weight 14); c3c4 and
    // g3g4 dropped.
    assert_eq!(listed(&moves), pairs(&[("b2e2", 14), ("h2e2", 14)]));
    assert_eq!((moves[1].score, moves[1].wins), (None, Some(7)));
    drop(book);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A SQLite database without a book table.
fn rusqlite_free_table(path: &std::path::Path) {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.execute_batch("CREATE TABLE games (id INTEGER); INSERT INTO games VALUES (1);")
        .unwrap();
}

fn sqlite_book_round_trip(format: SqliteFormat, expected: BookFormat, file: &str) {
    let dir = scratch(file);
    let path = dir.join(file);
    let start = Position::startpos();
    let after = game("h2e2");
    let mut w = SqliteWriter::new(format);
    let e = |score, wins, draws, losses| BookEntry {
        score,
        wins,
        draws,
        losses,
    };
    w.add(&start, mv("h2e2"), e(40, 10, 5, 2));
    w.add(&start, mv("c3c4"), e(25, 4, 3, 1));
    w.add(&start, mv("b0c2"), e(-5, 0, 1, 3)); // a bad move: weight 0
                                               // Unscored moves: weighed by their results.
    w.add(&after, mv("h9g7"), e(0, 3, 2, 0));
    w.add(&after, mv("b9c7"), e(0, 1, 1, 0));
    // A position with neither scores nor results: equal weights.
    let third = game("h2e2 h9g7");
    w.add(&third, mv("h0g2"), e(0, 0, 0, 0));
    w.add(&third, mv("i0i1"), e(0, 0, 0, 0));
    w.write(&path).unwrap();

    let book = Book::open(&path).unwrap();
    assert_eq!(book.format(), expected);
    // The start position is its own mirror, so its moves are found
    // mirrored too (as the GUIs find them).
    let moves = book.probe(&start).unwrap();
    assert_eq!(
        listed(&moves),
        pairs(&[
            ("b2e2", 40),
            ("h2e2", 40),
            ("c3c4", 25),
            ("g3g4", 25),
            ("b0c2", 0),
            ("h0g2", 0)
        ])
    );
    assert_eq!(
        (
            moves[1].score,
            moves[1].wins,
            moves[1].draws,
            moves[1].losses
        ),
        (Some(40), Some(10), Some(5), Some(2))
    );
    assert_eq!(moves[5].score, Some(-5));
    assert_eq!(
        listed(&book.probe(&after).unwrap()),
        pairs(&[("h9g7", 8), ("b9c7", 3)])
    );
    assert_eq!(
        listed(&book.probe(&third).unwrap()),
        pairs(&[("i0i1", 1), ("h0g2", 1)])
    );
    // The mirror of "after" (b2e2) finds the same moves mirrored.
    assert_eq!(
        listed(&book.probe(&game("b2e2")).unwrap()),
        pairs(&[("b9c7", 8), ("h9g7", 3)])
    );
    assert!(book.probe(&game("c3c4")).unwrap().is_empty());
    // Windows removes no file that is still open (SQLite keeps it).
    drop(book);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn obk_book_written_and_read_back() {
    sqlite_book_round_trip(SqliteFormat::Obk, BookFormat::Obk, "book.obk");
}

#[test]
fn pfbook_written_and_read_back() {
    sqlite_book_round_trip(SqliteFormat::PfBook, BookFormat::PfBook, "book.pfBook");
}

#[test]
fn sqlite_books_drop_colliding_rows_and_read_negative_keys() {
    for format in [SqliteFormat::Obk, SqliteFormat::PfBook] {
        let dir = scratch(&format!("{format:?}-collision"));
        let path = dir.join("book");
        // Black to move after h2e2: find a position with a negative key,
        // so the REAL spelling BHGUI uses for them is exercised.
        let candidates = [
            "h2e2", "b2e2", "c3c4", "g3g4", "h0g2", "b0c2", "a3a4", "i3i4",
        ];
        let pos = candidates
            .iter()
            .map(|m| game(m))
            .find(|p| obk_key(p) < 0)
            .expect("some opening move leads to a negative key");
        let reply = pos.legal_moves()[0];
        let mut w = SqliteWriter::new(format);
        w.add(
            &pos,
            reply,
            BookEntry {
                score: 12,
                ..BookEntry::default()
            },
        );
        // A red move (illegal for Black) and an off-board move under the
        // same key.
        w.add_raw(obk_key(&pos), 0xCB << 8 | 0xBB, BookEntry::default());
        w.add_raw(obk_key(&pos), 0x33 << 8 | 0x30, BookEntry::default());
        w.write(&path).unwrap();
        let book = Book::open(&path).unwrap();
        let moves = book.probe(&pos).unwrap();
        assert_eq!(listed(&moves), vec![(reply.to_string(), 12)], "{format:?}");
        // Windows removes no file that is still open (SQLite keeps it).
        drop(book);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn a_book_is_shared_between_threads() {
    fn is_sync<T: Send + Sync>() {}
    is_sync::<Book>();
}

/// The book ElephantEye ships (xqbase/eleeye, BOOK/BOOK.DAT): set
/// `ELEPHANTEYE_BOOK` to its path.
#[test]
#[ignore]
fn shipped_elephanteye_book() {
    let Ok(path) = std::env::var("ELEPHANTEYE_BOOK") else {
        panic!("set ELEPHANTEYE_BOOK to the path of ElephantEye's BOOK.DAT");
    };
    assert_eq!(std::fs::metadata(&path).unwrap().len(), 12_081 * 8);
    let book = Book::open(&path).unwrap();
    let moves = book.probe(&Position::startpos()).unwrap();
    let mut got = listed(&moves);
    got.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    assert_eq!(
        got,
        pairs(&[
            ("b2e2", 1473),
            ("h2e2", 1473),
            ("c3c4", 546),
            ("g3g4", 546),
            ("c0e2", 311),
            ("g0e2", 311),
            ("b0c2", 89),
            ("h0g2", 89),
            ("b2f2", 42),
            ("h2d2", 42),
            ("b2d2", 37),
            ("h2f2", 37),
            ("b0a2", 18),
            ("h0i2", 18),
            ("b2g2", 2),
            ("h2c2", 2),
        ])
    );
    // Black's answers to the central cannon, and to its mirror.
    let replies = book.probe(&game("h2e2")).unwrap();
    assert!(!replies.is_empty());
    let mirrored = book.probe(&game("b2e2")).unwrap();
    assert_eq!(replies.len(), mirrored.len());
    for (a, b) in replies.iter().zip(&mirrored) {
        assert_eq!(a.weight, b.weight);
    }
}
