//! The readers on real files (engine/tests/data/games, sources in its
//! README) and on made-up text; every prefix of the real files is read
//! without a panic.

use super::*;

fn data(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/data/games/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn one(name: &str) -> Game {
    let games = read_games(&data(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(games.len(), 1, "{name}");
    games.into_iter().next().expect("one game")
}

fn iccs(moves: &[Move]) -> Vec<String> {
    moves.iter().map(ToString::to_string).collect()
}

fn line_lengths(g: &Game) -> Vec<usize> {
    g.lines().iter().map(Vec::len).collect()
}

const ALL: [&str; 9] = [
    "xqf10-endgame-variations.xqf",
    "xqf11-endgame.xqf",
    "xqf12-endgame-variations.xqf",
    "xqf13-hu-ronghua-tao-hanming-1998.xqf",
    "xqf13-opening-variations.xqf",
    "xqf18-endgame-variations.xqf",
    "eleeye-sample.xqf",
    "eleeye-sample.pgn",
    "dhtmlxq-wxf-116.html",
];

#[test]
fn xqf_every_version_as_cchess_reads_it() {
    // Lines and starts as the cchess package (the cross-check's oracle)
    // reads these files.
    let g = one("xqf10-endgame-variations.xqf");
    assert_eq!(g.format, Format::Xqf);
    assert_eq!(
        g.start.to_fen(),
        "4k4/2PP2P2/9/9/9/9/2p4cc/1N2B4/4A4/4KA3 b - - 0 1"
    );
    assert_eq!(line_lengths(&g), [31, 26, 21]);
    assert_eq!(iccs(&g.main_line())[..4], ["i3i0", "e2g0", "h3h0", "e0d0"]);
    assert_eq!(g.tag("Event"), Some("炮高卒巧胜马三兵单缺象"));
    assert_eq!(g.tag("Result"), Some("0-1"));

    let g = one("xqf11-endgame.xqf");
    assert_eq!(line_lengths(&g), [21]);
    assert_eq!(
        g.start.to_fen(),
        "Nr2kc3/4a3n/2R3n2/4RN3/9/9/7C1/9/3p1pr2/4K4 w - - 0 1"
    );

    let g = one("xqf12-endgame-variations.xqf");
    assert_eq!(line_lengths(&g), [21, 9, 10]);
    assert_eq!(
        g.start.to_fen(),
        "4kab2/4a4/4b4/4P4/9/9/9/9/3K5/7C1 w - - 0 1"
    );

    let g = one("xqf13-hu-ronghua-tao-hanming-1998.xqf");
    assert_eq!(g.start.to_fen(), Position::startpos().to_fen());
    assert_eq!(line_lengths(&g), [41]);
    assert_eq!(iccs(&g.main_line())[..4], ["c3c4", "c9e7", "b2d2", "g6g5"]);
    assert_eq!(g.tag("Red"), Some("上海胡荣华"));
    assert_eq!(g.tag("Black"), Some("吉林陶汉明"));
    assert_eq!(g.tag("Event"), Some("第十八届“五羊杯”象棋冠军赛"));
    assert_eq!(g.tag("Title"), Some("挺兵对飞象"));
    assert_eq!(g.tag("Result"), Some("1/2-1/2"));
    assert_eq!(g.tag("FEN"), None);

    let g = one("xqf13-opening-variations.xqf");
    assert_eq!(line_lengths(&g), [32, 30, 27, 26, 32, 24, 28]);

    let g = one("xqf18-endgame-variations.xqf");
    assert_eq!(line_lengths(&g), [23, 21]);
    assert_eq!(
        g.start.to_fen(),
        "2P3c2/3Pak1Cr/2n1b1n2/9/4P4/9/2R5r/2Rp1C3/4p4/3K1p3 w - - 0 1"
    );
    for name in ALL {
        assert!(one(name).problems.is_empty(), "{name}");
    }
}

#[test]
fn the_same_game_as_xqf_and_as_pgn() {
    // ElephantEye ships one game as both SAMPLE.XQF (version 18) and
    // SAMPLE.PGN (GBK, Chinese moves, comments, a FEN tag).
    let x = one("eleeye-sample.xqf");
    let p = one("eleeye-sample.pgn");
    assert_eq!(p.format, Format::Pgn);
    assert_eq!(x.main_line(), p.main_line());
    assert_eq!(x.main_line().len(), 75);
    assert_eq!(x.start.to_fen(), p.start.to_fen());
    assert_eq!(
        p.start.to_fen(),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/1C5C1/9/RN2K2NR w - - 0 1"
    );
    assert_eq!(p.tag("Red"), Some("许银川"));
    assert_eq!(x.tag("Red"), Some("许银川"));
    assert_eq!(p.tag("Result"), Some("1-0"));
    let comment = |g: &Game| g.comment.clone().unwrap_or_default();
    for g in [&x, &p] {
        assert!(
            comment(g).starts_with("象棋让九子原属茶余饭后的娱乐"),
            "{}",
            comment(g)
        );
        // The comment after the second move, in both; none after the first.
        let main = g.main_nodes();
        assert_eq!(g.nodes[main[0]].comment, None);
        let second = g.nodes[main[1]].comment.clone().unwrap_or_default();
        assert!(second.starts_with("红方首着架中炮必走之着"), "{second}");
    }
}

#[test]
fn dhtmlxq_from_a_web_page() {
    let g = one("dhtmlxq-wxf-116.html");
    assert_eq!(g.format, Format::DhtmlXq);
    assert_eq!(line_lengths(&g), [85]);
    assert_eq!(iccs(&g.main_line())[..4], ["g0e2", "h7f7", "h0g2", "h9g7"]);
    assert_eq!(g.tag("Red"), Some("DING Wa Chong"));
    assert_eq!(g.tag("Black"), Some("SCHAEFER Nobert"));
    assert_eq!(g.tag("Result"), Some("1-0"));
    assert_eq!(g.tag("Event"), Some("World Xiangqi Championships"));
}

#[test]
fn dhtmlxq_variations_comments_and_a_start() {
    let text = "<div>[DhtmlXQ]\n[DhtmlXQ_title]t[/DhtmlXQ_title]\n\
        [DhtmlXQ_movelist]774772427967706289798081[/DhtmlXQ_movelist]\n\
        [DhtmlXQ_move_0_2_1]12427967102289790010[/DhtmlXQ_move_0_2_1]\n\
        [DhtmlXQ_comment0]before[/DhtmlXQ_comment0]\n\
        [DhtmlXQ_comment1]center cannon[/DhtmlXQ_comment1]\n\
        [DhtmlXQ_comment1_3]in the variation[/DhtmlXQ_comment1_3]\n\
        [DhtmlXQ_result]黑胜[/DhtmlXQ_result]\n[/DhtmlXQ]</div>";
    let games = read_games(text.as_bytes()).expect("reads");
    let g = &games[0];
    let lines: Vec<Vec<String>> = g.lines().iter().map(|l| iccs(l)).collect();
    assert_eq!(
        lines,
        [
            vec!["h2e2", "h7e7", "h0g2", "h9g7", "i0h0", "i9i8"],
            vec!["h2e2", "b7e7", "h0g2", "b9c7", "i0h0", "a9b9"],
        ]
    );
    assert_eq!(g.comment.as_deref(), Some("before"));
    assert_eq!(
        g.nodes[g.first[0]].comment.as_deref(),
        Some("center cannon")
    );
    let variation = g.nodes[g.first[0]].children[1];
    let third = g.nodes[variation].children[0];
    assert_eq!(g.nodes[third].comment.as_deref(), Some("in the variation"));
    assert_eq!(g.tag("Result"), Some("0-1"));

    // A start of its own: Red's king (the fifth piece) on d0 (39), Black's
    // (the 21st) on e9 (40); the kings may not face each other.
    let binit = format!(
        "{}39{}40{}",
        "99".repeat(4),
        "99".repeat(15),
        "99".repeat(11)
    );
    let page = |binit: &str| {
        format!("[DhtmlXQ][DhtmlXQ_binit]{binit}[/DhtmlXQ_binit][DhtmlXQ_movelist]3949[/DhtmlXQ_movelist][/DhtmlXQ]")
    };
    let g = &read_games(page(&binit).as_bytes()).expect("reads")[0];
    assert_eq!(g.start.to_fen(), "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    assert_eq!(
        g.problems,
        ["line 1: line 0, ply 1 (Red): 3949 (d0e0) is not a legal move here"]
    );
    assert_eq!(
        read_games(page(&format!("{binit}99")).as_bytes())
            .map(|_| ())
            .map_err(|e| e.to_string()),
        Err("line 1: [DhtmlXQ_binit]: 66 digits where 64 belong".to_string())
    );
}

#[test]
fn pgn_variations_comments_and_several_games() {
    let text = "[Event \"one\"]\n[Format \"ICCS\"]\n\n\
        {start} 1. H2-E2 {cannon} (1. b2e2 h9g7 (1... b9c7) 2. h0g2) 1... h9g7 $1\n\
        2. h0g2! i9h9 ; to the end of the line\n\
        % an escape line\n3. i0h0 1-0\n\n\
        [Event \"two\"]\n[FEN \"3k5/9/9/9/9/9/9/9/4R4/4K4 w\"]\n\
        1. 车五平六# 1-0\n\
        1. 炮二平五 马８进７ *\n";
    let games = read_games(text.as_bytes()).expect("reads");
    assert_eq!(games.len(), 3);
    let g = &games[0];
    let lines: Vec<Vec<String>> = g.lines().iter().map(|l| iccs(l)).collect();
    assert_eq!(
        lines,
        [
            vec!["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"],
            vec!["b2e2", "h9g7", "h0g2"],
            vec!["b2e2", "b9c7"],
        ]
    );
    assert_eq!(g.comment.as_deref(), Some("start"));
    assert_eq!(g.nodes[g.first[0]].comment.as_deref(), Some("cannon"));
    assert_eq!(g.tag("Result"), Some("1-0"));
    assert_eq!(g.tag("Event"), Some("one"));
    let g = &games[1];
    assert_eq!(g.tag("Event"), Some("two"));
    assert_eq!(iccs(&g.main_line()), ["e1d1"]);
    // Movetext after a result is a game of its own.
    assert_eq!(iccs(&games[2].main_line()), ["h2e2", "h9g7"]);
    assert_eq!(games[2].tag("Result"), Some("*"));
}

#[test]
fn an_illegal_move_ends_its_line_with_a_message() {
    let text = "[Event \"x\"]\n1. h2e2 (1. h0g2 b0b9 i9h9) 1... h9g7\n2. 炮二平五 (2. h0g2) i9h9\n";
    let g = &read_games(text.as_bytes()).expect("reads")[0];
    assert_eq!(iccs(&g.main_line()), ["h2e2", "h9g7"]);
    assert_eq!(
        g.problems,
        [
            "line 2: ply 2 (Black): 'b0b9' is not a legal move in this position",
            "line 3: ply 3 (Red): '炮二平五': the side to move has no such piece there",
        ]
    );
    // The variation kept its legal first move; the variation after the
    // illegal move is skipped with the rest of its line.
    let lines: Vec<Vec<String>> = g.lines().iter().map(|l| iccs(l)).collect();
    assert_eq!(lines, [vec!["h2e2", "h9g7"], vec!["h0g2"]]);
    // WXF is read (wxf_tests.rs); text in none of the notations is not.
    let text = "1. h2e2 C2.5 zz99\n";
    let g = &read_games(text.as_bytes()).expect("reads")[0];
    assert_eq!(iccs(&g.main_line()), ["h2e2", "b7e7"]);
    assert_eq!(
        g.problems,
        ["line 1: ply 3 (Red): 'zz99' is not a move in ICCS (h2e2, H2-E2), WXF (C2.5) or Chinese \
          notation (炮二平五)"]
    );
}

#[test]
fn bad_text_is_one_message_with_its_line() {
    let err = |text: &str| {
        read_games(text.as_bytes())
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    assert_eq!(
        err("[Event \"x\"]\n1. h2e2 {never closed\nh9g7\n"),
        Err("line 2: a comment opened with '{' here is never closed".into())
    );
    assert_eq!(
        err("1. h2e2 h9g7\n2. h0g2 )\n"),
        Err("line 2: ')' closes no variation".into())
    );
    assert_eq!(
        err("1. h2e2\n(1. b2e2 h9g7\n"),
        Err("line 2: a variation opened with '(' here is never closed".into())
    );
    assert_eq!(
        err("[Event \"x\"\n1. h2e2\n"),
        Err("line 1: the tag '[Event \"x\"' is not closed with ']' on its line".into())
    );
    assert_eq!(
        err("[FEN \"4k4/9/9/9/9/9/9/9/9/9 w\"]\n1. h2e2\n"),
        Err("line 1: the game's FEN tag '4k4/9/9/9/9/9/9/9/9/9 w' cannot be played: Red has no king".into())
    );
    assert_eq!(
        err("[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]\n"),
        Err("line 1: the [DhtmlXQ] block opened here is never closed with [/DhtmlXQ]".into())
    );
    assert_eq!(
        err("[DhtmlXQ]\n[DhtmlXQ_movelist]774[/DhtmlXQ_movelist][/DhtmlXQ]"),
        Err("line 2: [DhtmlXQ_movelist] is not groups of four digits".into())
    );
}

#[test]
fn bad_xqf_is_one_message_with_its_byte() {
    let full = data("xqf10-endgame-variations.xqf");
    let err = |bytes: &[u8]| read_games(bytes).map(|_| ()).map_err(|e| e.to_string());
    assert_eq!(
        err(&full[..600]),
        Err("byte 600: the file ends inside the 1024-byte XQF header (600 bytes)".into())
    );
    assert_eq!(
        err(&full[..1026]),
        Err("byte 1026: the file ends inside a move record that begins at byte 1024".into())
    );
    assert_eq!(
        err(&full[..1030]),
        Err("byte 1030: the file ends inside a comment length that begins at byte 1028".into())
    );
    // Two pieces on one point.
    let mut twice = full.clone();
    twice[0x10..0x30].copy_from_slice(&[0u8; 32]);
    assert_eq!(
        err(&twice),
        Err("byte 16: the start position puts two pieces ('R' and 'N') on a0".into())
    );
}

#[test]
fn every_prefix_and_corruption_reads_or_fails_without_a_panic() {
    for name in ALL {
        let full = data(name);
        for end in 0..full.len() {
            let _ = read_games(&full[..end]);
        }
        // Every byte changed in turn (a fixed pattern, so the test repeats).
        for at in 0..full.len() {
            let mut bad = full.clone();
            bad[at] = bad[at].wrapping_add(0x5b);
            let _ = read_games(&bad);
        }
    }
}

#[test]
fn moves_in_either_notation() {
    let pos = Position::startpos();
    for text in ["h2e2", "H2E2", "H2-E2", "h2-e2", "炮二平五", "炮2平5"] {
        assert_eq!(
            parse_move_text(&pos, text).map(|m| m.to_string()),
            Ok("h2e2".to_string()),
            "{text}"
        );
    }
    assert!(parse_move_text(&pos, "h2-e3").is_err());
}
