//! End-to-end: `shuai analyze` draws the board exactly as the golden files
//! in `tests/golden/` say (colour, plain Chinese, ASCII), prints one
//! well-formed line per completed depth, stops on Enter and on Ctrl-C, and
//! reports bad input without crashing. `UPDATE_GOLDEN=1 cargo test --release
//! --test terminal_analyze` rewrites the golden files after a deliberate
//! change.

mod terminal_support;

use shuai_board::{Move, Position};
use terminal_support::{golden, shuai, Run};

/// A middlegame reached by twelve plies (Red to move, a black cannon
/// deep in Red's camp, pieces on both edge files).
const MIDGAME: &str = "1rbakabr1/9/c1n3n2/p1p1p1p1p/9/2P6/P3P1PcP/1CN1C1N2/9/1RBAKABR1 w - - 12 7";

/// The board and the side-to-move line: everything before the search.
fn board_part(run: &Run) -> String {
    let mut text = String::new();
    for line in run.out.lines() {
        text.push_str(line);
        text.push('\n');
        if line.contains(" to move   FEN ") {
            return text;
        }
    }
    run.check(false, "no side-to-move line");
    unreachable!()
}

#[test]
fn board_golden_files() {
    let cases: [(&str, &[&str]); 6] = [
        ("board_startpos_color.txt", &["--color", "always"]),
        ("board_startpos_plain.txt", &["--color", "never"]),
        ("board_startpos_ascii.txt", &["--ascii", "--color", "never"]),
        (
            "board_moves_color.txt",
            &["--moves", "h2e2", "马8进7", "--color", "always"],
        ),
        ("board_midgame_plain.txt", &[MIDGAME, "--color", "never"]),
        (
            "board_midgame_ascii_color.txt",
            &[MIDGAME, "--ascii", "--color", "always"],
        ),
    ];
    for (name, extra) in cases {
        let mut args = vec!["analyze", "--depth", "1"];
        args.extend_from_slice(extra);
        let run = shuai(&args, "");
        run.check(run.code == 0, name);
        golden(name, &board_part(&run));
    }
}

#[test]
fn colour_goes_to_pieces_only_when_asked() {
    let plain = shuai(&["analyze", "--depth", "1"], "");
    // Standard output is a pipe here: `auto` means no colour.
    plain.check(!plain.out.contains('\x1b'), "escapes on a pipe");
    let coloured = shuai(&["analyze", "--depth", "1", "--color", "always"], "");
    coloured.check(
        coloured.out.contains("\x1b[1;31;47m帅\x1b[0m")
            && coloured.out.contains("\x1b[1;30;47m将\x1b[0m"),
        "red and black kings in colour",
    );
}

/// Checks one per-depth line and returns its depth.
fn check_depth_line(run: &Run, pos: &Position, line: &str) -> u32 {
    let fail = |why: &str| -> ! {
        run.check(false, &format!("{why}: {line:?}"));
        unreachable!()
    };
    let (depth, rest) = line
        .trim_start()
        .split_once('/')
        .unwrap_or_else(|| fail("no d/sd"));
    let depth: u32 = depth.parse().unwrap_or_else(|_| fail("depth"));
    let (seldepth, rest) = rest.split_once(' ').unwrap_or_else(|| fail("seldepth"));
    let seldepth: u32 = seldepth.parse().unwrap_or_else(|_| fail("seldepth"));
    if seldepth < depth.min(2) {
        fail("seldepth below depth");
    }
    let (score, rest) = rest.split_once("  W").unwrap_or_else(|| fail("no W/D/L"));
    let score = score.trim();
    let score_ok = score == "0"
        || (score.starts_with(['+', '-']) && score[1..].parse::<u32>().is_ok())
        || score
            .strip_prefix("mate in ")
            .is_some_and(|n| n.parse::<u32>().is_ok())
        || score
            .strip_prefix("mated in ")
            .is_some_and(|n| n.parse::<u32>().is_ok());
    if !score_ok {
        fail("score");
    }
    // "W 27% D 55% L 18%      1.8k  704.5k  0.003s  马八进七(b0c2) …"
    let words: Vec<&str> = rest.split_whitespace().collect();
    let pct = |w: &str| w.strip_suffix('%').and_then(|n| n.parse::<u32>().ok());
    let (w, d, l) = match (
        pct(words[0]),
        words[1],
        pct(words[2]),
        words[3],
        pct(words[4]),
    ) {
        (Some(w), "D", Some(d), "L", Some(l)) => (w, d, l),
        _ => fail("W/D/L"),
    };
    if w + d + l != 100 {
        fail("W/D/L do not add up");
    }
    let count_ok = |w: &str| {
        let n = w.trim_end_matches(['k', 'M', 'G']);
        n.parse::<f64>().is_ok()
    };
    if !count_ok(words[5]) || !count_ok(words[6]) {
        fail("nodes/nps");
    }
    if !words[7].ends_with('s') || words[7].trim_end_matches('s').parse::<f64>().is_err() {
        fail("time");
    }
    // The main line: 炮二平五(h2e2) 马8进7(h9g7) …, each legal in turn and
    // the Chinese naming the ICCS move.
    let mut p = pos.clone();
    let pv = &words[8..];
    if pv.is_empty() {
        fail("empty main line");
    }
    for word in pv {
        let (chinese, iccs) = word
            .strip_suffix(')')
            .and_then(|w| w.split_once('('))
            .unwrap_or_else(|| fail("move not written as 中文(iccs)"));
        let m: Move = p
            .parse_move(iccs)
            .unwrap_or_else(|_| fail("illegal PV move"));
        if p.parse_chinese(chinese) != Ok(m) || p.to_chinese(m) != chinese {
            fail("Chinese and ICCS disagree");
        }
        p.make_move(m);
    }
    depth
}

#[test]
fn depth_lines_are_well_formed_and_reach_depth_4() {
    let run = shuai(&["analyze", "startpos", "--depth", "4"], "");
    run.check(run.code == 0, "exit code");
    let lines: Vec<&str> = run.out.lines().collect();
    let header = lines
        .iter()
        .position(|l| l.starts_with("depth"))
        .unwrap_or_else(|| panic!("no header\n{}", run.out));
    run.check(
        lines[header].contains("score")
            && lines[header].contains("win/draw/loss")
            && lines[header].contains("nodes")
            && lines[header].contains("nps")
            && lines[header].contains("time"),
        "header names the columns",
    );
    let pos = Position::startpos();
    let depths: Vec<u32> = lines[header + 1..]
        .iter()
        .take_while(|l| !l.starts_with("Best move"))
        .map(|l| check_depth_line(&run, &pos, l))
        .collect();
    run.check(depths == [1, 2, 3, 4], "one line per depth 1..=4");
    let best = lines
        .iter()
        .find(|l| l.starts_with("Best move "))
        .unwrap_or_else(|| panic!("no best move\n{}", run.out));
    run.check(best.contains("depth 4"), "best move at depth 4");
    run.check(
        lines.iter().any(|l| l.starts_with("Main line ")),
        "main line",
    );
    // Not a terminal: no live line, no escapes.
    run.check(
        !run.err.contains('\r') && !run.out.contains('\x1b'),
        "quiet",
    );
}

#[test]
fn multipv_and_black_to_move() {
    let run = shuai(
        &[
            "analyze",
            "startpos",
            "moves",
            "h2e2",
            "--depth",
            "3",
            "--multipv",
            "3",
        ],
        "",
    );
    run.check(run.code == 0, "exit code");
    run.check(run.out.contains("Black to move"), "side to move");
    run.check(run.out.contains("scores for Black"), "score viewpoint");
    let rows: Vec<&str> = run
        .out
        .lines()
        .filter(|l| l.contains(" #1 ") || l.contains(" #2 ") || l.contains(" #3 "))
        .collect();
    run.check(rows.len() == 9, "three lines at each of three depths");
    // Black's moves are written with Black's digits.
    run.check(
        rows.iter()
            .all(|r| r.contains(['1', '2', '3', '4', '5', '6', '7', '8', '9'])),
        "digits",
    );
}

#[test]
fn ascii_lines_use_iccs_only() {
    let run = shuai(&["analyze", "--depth", "2", "--ascii"], "");
    run.check(run.code == 0, "exit code");
    run.check(run.out.is_ascii(), "nothing but ASCII");
    let best = run
        .out
        .lines()
        .find(|l| l.starts_with("Best move "))
        .unwrap();
    let mv = best.split_whitespace().nth(2).unwrap();
    run.check(Position::startpos().parse_move(mv).is_ok(), "an ICCS move");
}

#[test]
fn enter_stops_an_infinite_search() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_shuai"))
        .args(["analyze", "--infinite"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut seen = String::new();
    // Wait for depth 3 to complete, then press Enter.
    loop {
        let mut line = String::new();
        assert!(out.read_line(&mut line).unwrap() > 0, "{seen}");
        seen.push_str(&line);
        if line.trim_start().starts_with("3/") {
            break;
        }
    }
    stdin.write_all(b"\n").unwrap();
    stdin.flush().unwrap();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "{seen}{rest}");
    assert!(
        rest.contains("Stopped.") && rest.contains("Best move "),
        "{rest}"
    );
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_the_search_and_prints_the_best_line() {
    use std::io::{BufRead, BufReader, Read};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_shuai"))
        .args(["analyze", "--infinite"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    loop {
        let mut line = String::new();
        assert!(out.read_line(&mut line).unwrap() > 0);
        if line.trim_start().starts_with("2/") {
            break;
        }
    }
    let pid = child.id().to_string();
    let kill = Command::new("kill").args(["-INT", &pid]).status().unwrap();
    assert!(kill.success());
    let mut rest = String::new();
    out.read_to_string(&mut rest).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{rest}");
    assert!(
        rest.contains("Stopped.") && rest.contains("Best move "),
        "{rest}"
    );
}

#[test]
fn a_finished_game_is_judged_not_searched() {
    let run = shuai(
        &["analyze", "1R2k4/R8/9/9/9/9/9/9/9/3K5 b", "--depth", "3"],
        "",
    );
    run.check(run.code == 0, "exit code");
    run.check(
        run.out
            .contains("Game over: checkmate. Black is checkmated; Black loses."),
        "mate announced",
    );
    run.check(!run.out.contains("Best move"), "no search");
}

#[test]
fn bad_input_is_reported_not_crashed_on() {
    for (args, words) in [
        (&["analyze", "not/a/fen w"][..], "invalid FEN"),
        (&["analyze", "--moves", "h2e2", "h2e3"][..], "h2e3"),
        (&["analyze", "--moves", "炮二平十"][..], "炮二平十"),
        (&["analyze", "--depth", "0"][..], "depth"),
        (
            &["analyze", "--depth", "3", "--nodes", "5"][..],
            "cannot be used",
        ),
        (&["play", "--fen", "9/9/9 w"][..], "invalid FEN"),
        (&["play", "--side", "green"][..], "green"),
    ] {
        let run = shuai(args, "");
        run.check(run.code == 2, &format!("{args:?}: exit code 2"));
        run.check(run.err.contains(words), &format!("{args:?}: says {words}"));
        run.check(!run.err.contains("panicked"), "no panic");
    }
}

#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    use std::io::{BufRead, BufReader, Read};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_shuai"))
        .args(["analyze", "--movetime", "3000"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    drop(out);
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    assert!(
        status.success() && !err.contains("panicked"),
        "{status:?} {err}"
    );
}

#[test]
fn help_lists_every_command() {
    let run = shuai(&["--help"], "");
    run.check(run.code == 0, "exit code");
    for cmd in ["analyze", "play", "eval", "perft", "bench", "judge"] {
        run.check(run.out.contains(&format!("  {cmd}")), cmd);
    }
    for cmd in ["analyze", "play"] {
        let run = shuai(&[cmd, "--help"], "");
        run.check(run.code == 0 && run.out.contains("Usage: shuai"), cmd);
    }
}
