//! `shuai-tools book build` and `book openings` from the command line:
//! a book written from games and read back by the engine, messages (not
//! panics) for bad input, and the old `book --input …` form still working.

use shuai_board::Position;
use shuai_engine::book::Book;
use std::path::PathBuf;
mod common;
use common::tools;

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shuai-book-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Fails with a message on stderr that contains `expected`, and no panic.
fn fails_saying(args: &[&str], expected: &str) {
    fails_with(args, 1, expected);
}

/// Exits with `code` and a message on stderr that contains `expected`.
fn fails_with(args: &[&str], code: i32, expected: &str) {
    let out = tools(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} succeeded");
    assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(err.contains(expected), "{args:?}: {err}");
}

#[test]
fn builds_a_book_the_engine_reads() {
    let pgn = tmp("games.pgn");
    let games = "[Result \"1-0\"]\n1. h2e2 h9g7 2. h0g2 1-0\n\n\
                 [Result \"1-0\"]\n1. 炮二平五 马8进7 2. 马二进三 1-0\n\n\
                 [Result \"0-1\"]\n1. h2e2 h7e7 0-1\n\n\
                 [Result \"1-0\"]\n1. h2e2 zzzz 1-0\n";
    std::fs::write(&pgn, games).unwrap();
    let obk = tmp("games.obk");
    let out = tools(&[
        "book",
        "build",
        pgn.to_str().unwrap(),
        "--out",
        obk.to_str().unwrap(),
        "--min-games",
        "2",
        "--depth",
        "0",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("skipped game 4 (line 10): move 2"), "{err}");
    assert!(err.contains("3 games read (1 skipped)"), "{err}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("3 positions, 3 moves"), "{stdout}");
    let book = Book::open(&obk).unwrap();
    let start: Vec<_> = book
        .probe(&Position::startpos())
        .unwrap()
        .iter()
        .map(|m| (m.mv.to_string(), m.wins, m.draws, m.losses))
        .collect();
    // h2e2 and its mirror b2e2 (the start position is symmetric).
    assert_eq!(
        start,
        [
            ("b2e2".to_string(), Some(2), Some(0), Some(1)),
            ("h2e2".to_string(), Some(2), Some(0), Some(1))
        ]
    );
}

#[test]
fn bad_input_gets_a_message() {
    let obk = tmp("bad.obk");
    let out = obk.to_str().unwrap();
    fails_saying(
        &["book", "build", "/nonexistent/games.pgn", "--out", out],
        "cannot read /nonexistent/games.pgn",
    );
    let cases: [(&str, &[u8], &str); 4] = [
        ("empty.pgn", b"", "no games in it"),
        (
            "illegal.pgn",
            b"[Result \"1-0\"]\n1. h2e2 h2e3 1-0\n",
            "no usable game in it; game 1 (line 1): move 2: 'h2e3' is not a legal move",
        ),
        (
            "gbk.pgn",
            b"[Result \"1-0\"]\n1. \xc5\xda\xb6\xfe 1-0\n",
            "not UTF-8",
        ),
        (
            "report.json",
            b"{\"games\": 1}",
            "without a \"games\" array",
        ),
    ];
    for (name, text, expected) in cases {
        let path = tmp(name);
        std::fs::write(&path, text).unwrap();
        fails_saying(
            &["book", "build", path.to_str().unwrap(), "--out", out],
            expected,
        );
    }
    // Bare `book`: clap's help, which names the subcommands.
    fails_with(&["book"], 2, "build");
}

#[test]
fn the_old_openings_form_still_works() {
    let input = tmp("positions.epd");
    std::fs::write(
        &input,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\n",
    )
    .unwrap();
    for (i, form) in [&["book"][..], &["book", "openings"][..]]
        .iter()
        .enumerate()
    {
        let out = tmp(&format!("openings{i}.epd"));
        let mut args = form.to_vec();
        args.extend([
            "--input",
            input.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--depth",
            "2",
            "--margin",
            "1000",
        ]);
        let r = tools(&args);
        assert!(
            r.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&r.stderr)
        );
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(text.contains("book openings --input"), "{text}");
        assert_eq!(text.lines().filter(|l| !l.starts_with('#')).count(), 1);
    }
}

#[test]
fn the_shipped_book_opens() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/books/shuai.obk");
    let book = Book::open(&path).unwrap();
    assert_eq!(book.format(), shuai_engine::book::BookFormat::Obk);
    let start = book.probe(&Position::startpos()).unwrap();
    assert!(start.len() >= 2, "{start:?}");
    assert!(start
        .iter()
        .all(|m| m.weight > 0 && m.wins.is_some() && m.draws.is_some() && m.losses.is_some()));
}
