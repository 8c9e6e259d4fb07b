//! End-to-end: the `shuai` binary's perft, from the command line and from
//! the protocol loop, prints exact counts in the Stockfish format.

use std::io::Write;
use std::process::{Command, Stdio};

fn shuai() -> Command {
    Command::new(env!("CARGO_BIN_EXE_shuai"))
}

#[test]
fn perft_subcommand_prints_the_split_and_total() {
    let out = shuai().args(["perft", "3"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines.len(),
        44 + 2,
        "44 root moves, a blank line, the total"
    );
    assert!(lines.iter().all(|l| l.is_empty() || l.contains(": ")));
    assert_eq!(lines.last(), Some(&"Nodes searched: 79666"));
    let sum: u64 = lines[..44]
        .iter()
        .map(|l| l.split_once(": ").unwrap().1.parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 79666);
}

#[test]
fn perft_subcommand_with_fen_and_moves() {
    let out = shuai()
        .args([
            "perft",
            "2",
            "--fen",
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.ends_with("Nodes searched: 1128\n"), "{text}");
    let out = shuai()
        .args(["perft", "1", "--moves", "h2e2 h9g7"])
        .output()
        .unwrap();
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .ends_with("\nNodes searched: 35\n"));
}

#[test]
fn perft_subcommand_rejects_bad_input_clearly() {
    let out = shuai()
        .args(["perft", "2", "--fen", "xyz"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("invalid FEN: FEN has 1 ranks, expected 10"),
        "{err}"
    );
}

#[test]
fn protocol_loop_answers_uci_position_and_go_perft() {
    let mut child = shuai()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"uci\r\nposition startpos moves h2e2 h9g7\r\ngo perft 1\r\nquit\r\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("\nuciok\n"));
    assert!(text.ends_with("\n\nNodes searched: 35\n"), "{text}");
}
