//! End-to-end: `shuai review` reads a game file, prints a line per move
//! and a summary per side, writes the PGN and the graph; a bad file is one
//! message with its place.

#[path = "protocol_harness/mod.rs"]
mod harness;

fn data(name: &str) -> String {
    format!(
        "{}/engine/tests/data/games/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn reviews_an_encrypted_xqf_endgame() {
    let dir = std::env::temp_dir().join(format!("shuai-review-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (pgn, svg) = (dir.join("out.pgn"), dir.join("out.svg"));
    let file = data("xqf11-endgame.xqf");
    let (code, out, err) = harness::run_shuai(&[
        "review",
        &file,
        "--depth",
        "3",
        "--pgn",
        pgn.to_str().expect("utf-8 path"),
        "--graph",
        svg.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].contains("(XQF game 1 of 1): 21 moves from Nr2kc3/4a3n/"),
        "{}",
        lines[0]
    );
    assert_eq!(lines[1], "Searching 22 positions, depth 3, 1 thread.");
    // The header, 21 moves, a blank line, two summaries.
    assert!(lines[2].starts_with("move   played"));
    assert!(
        lines[3].starts_with("1.     车五进二(e6e8)"),
        "{}",
        lines[3]
    );
    assert!(lines[23].starts_with("11.    "), "{}", lines[23]);
    assert!(
        lines[25].starts_with("Red: 11 moves, average loss"),
        "{}",
        lines[25]
    );
    assert!(out.contains("\nBlack: 10 moves, average loss"), "{out}");
    assert!(err.contains("22/22 positions"), "{err}");
    let pgn = std::fs::read_to_string(&pgn).expect("PGN written");
    assert!(pgn.contains("[FEN \"Nr2kc3/4a3n/2R3n2/4RN3/9/9/7C1/9/3p1pr2/4K4 w - - 0 1\"]"));
    assert!(pgn.starts_with("[Event \"适情雅趣126士马如云\"]"), "{pgn}");
    let svg = std::fs::read_to_string(&svg).expect("graph written");
    assert!(svg.starts_with("<svg ") && svg.trim_end().ends_with("</svg>"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_file_or_game_number_is_one_message() {
    let dir = std::env::temp_dir().join(format!("shuai-review-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let cut = dir.join("cut.xqf");
    let full = std::fs::read(data("xqf11-endgame.xqf")).expect("test file");
    std::fs::write(&cut, &full[..1030]).expect("write");
    let cut = cut.to_str().expect("utf-8 path");
    let (code, out, err) = harness::run_shuai(&["review", cut, "--depth", "1"]);
    assert_eq!(code, 2);
    assert_eq!(out, "");
    assert_eq!(
        err.trim_end(),
        format!("shuai review: {cut}: byte 1030: the file ends inside a move record that begins at byte 1028")
    );
    let file = data("xqf11-endgame.xqf");
    let (code, _, err) = harness::run_shuai(&["review", &file, "--game", "2", "--depth", "1"]);
    assert_eq!(code, 2);
    assert_eq!(
        err.trim_end(),
        format!("shuai review: {file}: there is no game 2 (the file holds 1)")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_wxf_game_is_reviewed_named_and_written_in_iccs() {
    let dir = std::env::temp_dir().join(format!("shuai-review-wxf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (game, pgn) = (dir.join("wxf.pgn"), dir.join("out.pgn"));
    // 炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 兵七进一 卒7进1 马八进九
    // 卒3进1 炮八平七: the five-seven cannons against the screen horses
    // with Black's 3rd pawn forward, ECCO C70.
    std::fs::write(
        &game,
        "[Format \"WXF\"]\n1. C2.5 H8+7 2. H2+3 R9.8 3. R1.2 H2+3 4. P7+1 P7+1 5. H8+9 P3+1 6. C8.7 *\n",
    )
    .expect("write");
    let (code, out, err) = harness::run_shuai(&[
        "review",
        game.to_str().expect("utf-8 path"),
        "--depth",
        "1",
        "--pgn",
        pgn.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("(PGN game 1 of 1): 11 moves from the start"),
        "{out}"
    );
    assert!(
        out.contains("\nOpening (ECCO): C70 五七炮对屏风马进３卒\nRed: 6 moves"),
        "{out}"
    );
    let pgn = std::fs::read_to_string(&pgn).expect("PGN written");
    assert!(
        pgn.contains("[Format \"ICCS\"]\n[ECCO \"C70\"]\n[Opening \"五七炮对屏风马进３卒\"]\n"),
        "{pgn}"
    );
    assert!(pgn.contains("\n1. h2e2 {炮二平五 "), "{pgn}");
    // (Lines wrap at 80 columns, so the move and its comment may part.)
    assert!(
        pgn.contains("5. b0a2") && pgn.contains("{马八进九 "),
        "{pgn}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
