//! End-to-end UCI sessions with the real binary: the Pikafish dialect
//! (ranks 0–9), Cyclone bare `fen`/`startpos` lines, and ranks 1–10 after
//! `UCI_Variant xiangqi` (protocol.md §3 and §11).

#[path = "protocol_harness/mod.rs"]
mod harness;

use harness::*;
use shuai_board::Position;
use std::time::Duration;

const MATED: &str = "3k5/9/3R1R3/9/9/9/9/9/9/4K4 b";

fn uci() -> (Engine, Vec<String>) {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.expect("uciok");
    (e, lines)
}

/// §11.2, §3.1: identification and parseable option lines.
#[test]
fn handshake_lists_uci_options() {
    let (mut e, lines) = uci();
    assert_eq!(lines[0], "id name Shuai 0.1.0");
    assert_eq!(lines[1], "id author the Shuai developers");
    let names: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("option name "))
        .map(|r| r.split(" type ").next().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "Threads",
            "Hash",
            "Clear Hash",
            "Ponder",
            "MultiPV",
            "Move Overhead",
            "Natural Move Limit",
            "OwnBook",
            "Book File",
            "Best Book Move",
            "Book Depth",
            "WeightsFile",
            "EvalFile",
            "Use NNUE",
            "Repetition Rules",
            "Idle",
            "Pruning",
            "Knowledge",
            "Randomness",
            "Style",
            "Skill Level",
            "UCI_LimitStrength",
            "UCI_Elo",
            "UCI_ShowWDL",
            "UCI_Variant",
            "EGTB Path",
            "Use EGTB",
            "EGTB Cache"
        ]
    );
    assert!(
        lines.contains(&"option name Skill Level type spin default 20 min 0 max 20".to_string())
    );
    assert!(lines.contains(&"option name UCI_LimitStrength type check default false".to_string()));
    assert!(lines.contains(&"option name Hash type spin default 16 min 1 max 65536".to_string()));
    assert!(lines.contains(
        &"option name Natural Move Limit type spin default 120 min 2 max 1000".to_string()
    ));
    assert!(lines
        .contains(&"option name UCI_Variant type combo default xiangqi var xiangqi".to_string()));
    assert!(lines.contains(
        &"option name Repetition Rules type combo default chinese var chinese var asian"
            .to_string()
    ));
    assert_eq!(lines.last().unwrap(), "uciok");
    assert!(e.sync().is_empty());
}

/// §3.6, §11.18: UCI info lines carry `score cp`, seldepth, multipv,
/// nodes, nps, hashfull, time and a legal PV.
#[test]
fn go_depth_prints_uci_info() {
    let (mut e, _) = uci();
    e.send("position startpos moves h2e2 h7e7");
    e.send("go depth 5");
    let lines = e.search_result();
    check_search(&start_after("h2e2 h7e7"), &lines);
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 5);
    for (i, l) in infos.iter().enumerate() {
        assert!(
            l.starts_with(&format!("info depth {} seldepth ", i + 1)),
            "{l}"
        );
        assert!(l.contains(" multipv 1 score cp "), "{l}");
        for key in ["nodes", "nps", "hashfull", "time"] {
            field(l, key).unwrap().parse::<u64>().unwrap();
        }
    }
    assert!(e.quiet_for(Duration::from_millis(200)).is_empty());
    assert!(infos.iter().all(|l| !l.contains(" wdl ")));
    // UCI_ShowWDL: every line carries the chances, per mille, after the
    // score; they add up to 1000.
    e.send("setoption name UCI_ShowWDL value true");
    e.send("go depth 3");
    let lines = e.search_result();
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 3);
    for l in infos {
        let at = l.find(" wdl ").unwrap_or_else(|| panic!("{l}"));
        assert!(l[..at].contains(" score cp "), "{l}");
        let w: Vec<u32> = l[at + 5..]
            .split_whitespace()
            .take(3)
            .map(|n| n.parse().unwrap())
            .collect();
        assert_eq!(w.iter().sum::<u32>(), 1000, "{l}");
    }
}

/// A forced mate shows as `score mate N`.
#[test]
fn mate_scores_in_moves() {
    let (mut e, _) = uci();
    // Red mates in one: Rf7-d7 (the red king covers the e-file).
    e.send("position fen 3k5/9/5R3/9/9/9/9/9/9/4K4 w");
    e.send("go depth 4");
    let lines = e.search_result();
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(last_info.contains(" score mate 1 "), "{last_info}");
    e.send("go mate 1");
    let lines = e.search_result();
    assert!(
        lines.iter().any(|l| l.contains(" score mate 1 ")),
        "{lines:?}"
    );
}

/// §3.5: infinite until stop; isready during the search; exactly one
/// bestmove; stop answered quickly.
#[test]
fn infinite_isready_stop() {
    let (mut e, _) = uci();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(150));
    let lines = e.sync();
    assert_eq!(finals(&lines), 0);
    // How soon a stop is seen is pinned by the search's own tests (in
    // nodes, not milliseconds); here, that it is answered once.
    e.send("stop");
    let lines = e.search_result();
    check_search(&Position::startpos(), &lines);
    assert_eq!(finals(&e.quiet_for(Duration::from_millis(200))), 0);
    // A stray stop in UCI is ignored.
    e.send("stop");
    assert!(e.sync().is_empty());
}

/// §3.5, §3.7: ponder, ponderhit, and ponder followed by stop.
#[test]
fn ponder_then_ponderhit_or_stop() {
    let (mut e, _) = uci();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves h2e2 h9g7");
    e.send("go ponder wtime 2000 btime 2000 winc 0 binc 0");
    assert_eq!(finals(&e.quiet_for(Duration::from_millis(300))), 0);
    e.send("ponderhit");
    check_search(&start_after("h2e2 h9g7"), &e.search_result());
    e.send("go ponder wtime 60000 btime 60000");
    assert_eq!(finals(&e.quiet_for(Duration::from_millis(300))), 0);
    e.send("stop");
    check_search(&start_after("h2e2 h9g7"), &e.search_result());
    assert!(e.sync().is_empty());
}

/// §9.1: `go` during a search: two best moves, no deadlock.
#[test]
fn go_during_a_search() {
    let (mut e, _) = uci();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("go depth 2");
    check_search(&Position::startpos(), &e.search_result());
    check_search(&Position::startpos(), &e.search_result());
    e.send("go movetime 100");
    e.send("go movetime 100");
    e.send("go depth 1");
    for _ in 0..3 {
        check_search(&Position::startpos(), &e.search_result());
    }
    assert_eq!(finals(&e.quiet_for(Duration::from_millis(300))), 0);
}

/// Clocks, movetime and nodes all end the search by themselves.
#[test]
fn time_and_node_limits() {
    let (mut e, _) = uci();
    e.send("position startpos moves h2e2");
    // Every search below ends by itself (`search_result` waits for
    // `bestmove` and fails if none comes): a clock or a movetime that
    // were ignored would search on until `stop`. How much of the clock a
    // search may take is the time manager's (its unit tests in
    // search/src/time.rs), not measured here: a wall-clock bound fails on
    // a loaded machine. The node limit is exact, so it is checked.
    for (go, most_nodes) in [
        ("go wtime 3000 btime 3000 winc 50 binc 50", None),
        ("go btime 1000 wtime 1000 movestogo 1", None),
        ("go movetime 200", None),
        ("go nodes 20000", Some(20_000)),
        ("go wtime 0 btime 0", None),
        ("go wtime -100 btime 5000", None),
    ] {
        e.send(go);
        let lines = e.search_result();
        if let Some(most) = most_nodes {
            let summary = &lines[lines.len() - 2];
            let nodes: u64 = field(summary, "nodes").unwrap().parse().unwrap();
            assert!(
                nodes > most / 2 && nodes <= most,
                "{go}: {nodes} nodes ({summary})"
            );
        }
        check_search(&start_after("h2e2"), &lines);
    }
}

/// §11.12, §3.6: a mated root answers `info depth 0 score mate 0` and
/// `bestmove (none)`.
#[test]
fn mated_root_answers_none() {
    let (mut e, _) = uci();
    e.send(&format!("position fen {MATED}"));
    e.send("go depth 3");
    assert_eq!(
        e.search_result(),
        ["info depth 0 score mate 0", "bestmove (none)"]
    );
    e.send("go infinite");
    assert_eq!(finals(&e.quiet_for(Duration::from_millis(200))), 0);
    e.send("stop");
    assert_eq!(e.search_result().last().unwrap(), "bestmove (none)");
}

/// §3.4: the Cyclone dialect — bare `fen` and `startpos` lines, no
/// handshake reply to `ucicyclone`.
#[test]
fn cyclone_lines() {
    let mut e = Engine::start();
    e.send("fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r moves h2e2");
    e.send("go depth 2");
    check_search(&start_after("h2e2"), &e.search_result());
    e.send("startpos moves h2e2 h9g7");
    e.send("go depth 2");
    check_search(&start_after("h2e2 h9g7"), &e.search_result());
    e.send("ucicyclone");
    e.send("fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w moves h2e2");
    assert!(e.sync().is_empty());
}

/// §4: ranks 1–10 only after `UCI_Variant xiangqi`, both ways.
#[test]
fn one_based_ranks_after_uci_variant() {
    let (mut e, _) = uci();
    e.send("setoption name UCI_Variant value xiangqi");
    e.send("ucinewgame");
    e.send("position startpos moves h3e3 h10g8");
    e.send("d");
    let lines = e.sync();
    assert!(
        lines
            .last()
            .unwrap()
            .starts_with("Fen: rnbakab1r/9/1c4nc1/"),
        "{lines:?}"
    );
    e.send("go depth 3");
    let lines = e.search_result();
    let last = lines.last().unwrap();
    let best = field(last, "bestmove").unwrap();
    // Convert back to ranks 0-9 and check legality.
    let zero = to_zero_based(best);
    play_legal(&start_after("h2e2 h9g7"), &[zero]);
    for l in lines.iter().filter(|l| l.contains(" pv ")) {
        let moves: Vec<String> = pv(l).iter().map(|m| to_zero_based(m)).collect();
        play_legal(&start_after("h2e2 h9g7"), &moves);
    }
    // A red rook on the back rank: "a1" in this notation is a0.
    e.send("position startpos moves a1a2");
    e.send("d");
    let lines = e.sync();
    assert!(
        lines
            .last()
            .unwrap()
            .starts_with("Fen: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/R8/1NBAKABNR b"),
        "{lines:?}"
    );
    // A new `uci` handshake returns to ranks 0-9.
    e.send("uci");
    e.expect("uciok");
    e.send("position startpos moves h2e2");
    e.send("d");
    let lines = e.sync();
    assert!(lines
        .last()
        .unwrap()
        .starts_with("Fen: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b"));
}

/// A GUI that sets UCI_Variant but keeps sending ranks 0-9 is detected.
#[test]
fn zero_based_moves_after_uci_variant_are_detected() {
    let (mut e, _) = uci();
    e.send("setoption name UCI_Variant value xiangqi");
    e.send("position startpos moves h2e2 h9g7");
    let lines = e.sync();
    assert_eq!(lines.len(), 1);
    assert!(
        lines[0].starts_with("info string the moves use ranks 0-9"),
        "{lines:?}"
    );
    e.send("go depth 2");
    check_search(&start_after("h2e2 h9g7"), &e.search_result());
}

fn to_zero_based(m: &str) -> String {
    let mut out = String::new();
    let mut digits = String::new();
    for c in m.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
        } else {
            if !digits.is_empty() {
                out.push_str(&(digits.parse::<u32>().unwrap() - 1).to_string());
                digits.clear();
            }
            out.push(c);
        }
    }
    out.push_str(&(digits.parse::<u32>().unwrap() - 1).to_string());
    out
}

/// MultiPV prints several lines per depth; searchmoves restricts the root.
#[test]
fn multipv_and_searchmoves() {
    let (mut e, _) = uci();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    e.send("go depth 3");
    let lines = e.search_result();
    for k in 1..=3 {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info depth 3 ") && l.contains(&format!(" multipv {k} "))),
            "{lines:?}"
        );
    }
    check_search(&Position::startpos(), &lines);
    e.send("setoption name MultiPV value 1");
    e.send("go depth 3 searchmoves a3a4 i3i4");
    let best = check_search(&Position::startpos(), &e.search_result());
    assert!(best == "a3a4" || best == "i3i4", "{best}");
}

/// §3.2: names case-insensitive, values with spaces, buttons, legacy
/// options silent, unknown ones and unreadable files reported once.
#[test]
fn setoption_forms() {
    let (mut e, _) = uci();
    for line in [
        "setoption name threads value 2",
        "setoption name HASH value 8",
        "setoption name Clear Hash",
        "setoption name Move Overhead value 50",
        "setoption name Natural Move Limit value 100",
        "setoption name Book File value /no such dir/book.dat",
        "setoption name Skill Level value 20",
        "setoption name Sixty Move Rule value true",
        "setoption name Repetition Rule value AsianRule",
        "setoption name EvalFile value pikafish.nnue",
        "setoption name UCI_ShowWDL value false",
        "ucinewgame",
    ] {
        e.send(line);
    }
    let lines = e.sync();
    // The system's own words for a missing file (Linux and Windows word it
    // differently), so the test holds on both.
    let not_found = match std::fs::File::open("pikafish.nnue") {
        Ok(_) => panic!("pikafish.nnue exists in the working directory"),
        Err(e) => e.to_string(),
    };
    assert_eq!(
        lines,
        [
            // (Book files are read at the first `go` that uses them.)
            // A Pikafish network is no Shuai network: one line, and the
            // embedded network stays.
            format!("info string setoption EvalFile: cannot read pikafish.nnue: {not_found}; keeping the embedded network"),
        ]
    );
    e.send("setoption name No Such Thing value 3");
    assert_eq!(
        e.sync(),
        ["info string unknown option 'No Such Thing'; ignored"]
    );
    e.send("position startpos");
    e.send("go depth 3");
    check_search(&Position::startpos(), &e.search_result());
}

/// `WeightsFile` plays with a tuned table: here one that gives the side to
/// move a huge tempo bonus, so after any first move the opponent (to move)
/// is "winning" and the depth-1 score drops by that bonus. A file that
/// cannot be read is reported and the last good weights stay in force.
#[test]
fn weights_file_changes_the_evaluation() {
    let dir = std::env::temp_dir().join(format!("shuai-uci-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("tempo.txt");
    std::fs::write(&file, "# test\ntempo.mg 900\ntempo.eg 900\n").unwrap();
    let (mut e, _) = uci();
    // Weights are the hand-written evaluation's: switch the network off.
    e.send("setoption name Use NNUE value false");
    let built_in = depth1_score(&mut e);
    assert!(built_in.abs() < 100, "{built_in}");
    e.send(&format!(
        "setoption name WeightsFile value {}",
        file.display()
    ));
    assert_eq!(e.sync(), Vec::<String>::new());
    let tuned = depth1_score(&mut e);
    assert!(tuned < built_in - 300, "{built_in} -> {tuned}");

    let missing = dir.join("missing.txt");
    e.send(&format!(
        "setoption name WeightsFile value {}",
        missing.display()
    ));
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with(&format!(
            "info string setoption WeightsFile: cannot read {}",
            missing.display()
        )) && lines[0].ends_with(&format!("; keeping {}", file.display())),
        "{lines:?}"
    );
    assert_eq!(depth1_score(&mut e), tuned);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `EvalFile` loads a network and `Use NNUE` plays with it: here one
/// that scores every position +300 for the side to move, so the depth-1
/// score is exactly -300. A file that cannot be read gets one `info
/// string` and the last good network stays; `<empty>` is the embedded one.
#[test]
fn eval_file_and_use_nnue_change_the_evaluation() {
    let dir = std::env::temp_dir().join(format!("shuai-uci-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("constant.nnue");
    write_constant_network(&file, 300);
    let (mut e, lines) = uci();
    assert!(lines.contains(&"option name Use NNUE type check default true".to_string()));
    assert!(lines.contains(&"option name EvalFile type string default <empty>".to_string()));
    let default = depth1_score(&mut e);
    e.send("setoption name Use NNUE value false");
    assert_eq!(e.sync(), Vec::<String>::new());
    let built_in = depth1_score(&mut e);
    assert_ne!(default, built_in, "the network is on by default");
    e.send(&format!("setoption name EvalFile value {}", file.display()));
    assert_eq!(e.sync(), Vec::<String>::new());
    assert_eq!(
        depth1_score(&mut e),
        built_in,
        "loading a file does not switch it on"
    );
    e.send("setoption name Use NNUE value true");
    assert_eq!(e.sync(), Vec::<String>::new());
    assert_eq!(depth1_score(&mut e), -300);

    let missing = dir.join("missing.nnue");
    e.send(&format!(
        "setoption name EvalFile value {}",
        missing.display()
    ));
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with(&format!(
            "info string setoption EvalFile: cannot read {}",
            missing.display()
        )) && lines[0].ends_with(&format!("; keeping {}", file.display())),
        "{lines:?}"
    );
    assert_eq!(depth1_score(&mut e), -300);
    e.send("setoption name EvalFile value <empty>");
    assert_eq!(e.sync(), Vec::<String>::new());
    let embedded = depth1_score(&mut e);
    assert_eq!(embedded, default);
    e.send("setoption name Use NNUE value false");
    assert_eq!(depth1_score(&mut e), built_in);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Bad input in UCI: `info string`, never an exit.
#[test]
fn bad_input_in_uci() {
    let (mut e, _) = uci();
    e.send("position fen 9/9/9/9/9/9/9/9/9/9 w");
    e.send("position startpos moves h2e2 e9e7");
    e.send("go wtime");
    e.send("stop");
    e.send("bogus");
    let lines = e.until(REPLY, |l| l.starts_with("info string unknown command"));
    let strings: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string"))
        .collect();
    assert_eq!(strings.len(), 4, "{lines:?}");
    assert!(strings[0].starts_with("info string invalid FEN"));
    assert!(strings[1].starts_with("info string move 2 of the list: 'e9e7'"));
    assert_eq!(strings[2], "info string go wtime needs a number; ignored");
    assert_eq!(finals(&lines), 1);
    assert!(e.alive());
}

/// §3.7, §8: `quit` exits without a reply; EOF during a search stops it,
/// prints its one `bestmove` and exits.
#[test]
fn quit_and_eof_in_uci() {
    let (mut e, _) = uci();
    e.send("quit");
    let (status, rest) = e.wait_exit(Duration::from_secs(2));
    assert!(status.success() && rest.is_empty(), "{rest:?}");
    let (mut e, _) = uci();
    let rest = e.end_input_during_search();
    assert!(
        rest.last().is_some_and(|l| l.starts_with("bestmove ")),
        "{rest:?}"
    );
}

/// Strength levels: `Skill Level` and `UCI_LimitStrength` + `UCI_Elo` cap
/// the search's nodes (64 at level 0, searched with 8 lines to choose
/// from), and the move is still legal; an Elo outside the table's range
/// is clamped with a message.
#[test]
fn skill_level_and_elo_weaken_the_search() {
    let (mut e, _) = uci();
    e.send("setoption name Skill Level value 0");
    e.send("position startpos moves h2e2 h9g7");
    e.send("go wtime 60000 btime 60000");
    let lines = e.expect_prefix("bestmove");
    check_search(&start_after("h2e2 h9g7"), &lines);
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    let nodes: u64 = field(last_info, "nodes").unwrap().parse().unwrap();
    assert!(nodes < 64 + 16, "{last_info}");
    // The user's MultiPV (1) is what is shown, not the level's 8 lines.
    assert!(
        lines.iter().all(|l| !l.contains(" multipv 2 ")),
        "{lines:?}"
    );
    e.send("setoption name Skill Level value 20");
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 100");
    assert_eq!(
        e.sync(),
        ["info string setoption UCI_Elo: 100 is outside 808..3031; using 808"]
    );
    e.send("go depth 30");
    let lines = e.expect_prefix("bestmove");
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(field(last_info, "nodes").unwrap().parse::<u64>().unwrap() < 80);
    e.send("setoption name UCI_LimitStrength value false");
    e.send("go depth 3");
    let lines = e.expect_prefix("bestmove");
    assert!(lines.iter().any(|l| l.starts_with("info depth 3 ")));
}

/// The total line of the protocol's `bench 4` (`<nodes> nodes <nps> nps`).
fn protocol_bench_nodes(e: &mut Engine) -> u64 {
    e.send("bench 4");
    let lines = e.until(Duration::from_secs(120), |l| l.ends_with(" nps"));
    let total = lines.last().unwrap();
    let nodes: u64 = total.split(' ').next().unwrap().parse().unwrap();
    let positions = lines
        .iter()
        .filter(|l| l.starts_with("info string bench position "))
        .count();
    assert_eq!(positions, 50, "{lines:?}");
    nodes
}

/// `shuai bench 4` (with `--hce` for the hand-written evaluation): its
/// node total.
fn cli_bench_nodes(hce: bool) -> u64 {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_shuai"));
    cmd.args(["bench", "4"]);
    if hce {
        cmd.arg("--hce");
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    stdout.split(' ').next().unwrap().parse().unwrap()
}

/// The protocol's `bench` searches with the evaluation the engine plays
/// with: the default gives `shuai bench`'s signature, and `Use NNUE`
/// false gives `shuai bench --hce`'s (it once always used the embedded
/// network and the default constants, whatever the options said).
#[test]
fn protocol_bench_uses_the_engines_evaluation() {
    let (mut e, _) = uci();
    let network = protocol_bench_nodes(&mut e);
    assert_eq!(network, cli_bench_nodes(false));
    e.send("setoption name Use NNUE value false");
    let hce = protocol_bench_nodes(&mut e);
    assert_eq!(hce, cli_bench_nodes(true));
    assert_ne!(network, hce);
}
