//! End-to-end: scripted `shuai play` sessions with standard input piped:
//! mates announced with the winner, stalemate (a loss in Xiangqi), a
//! perpetual-check verdict, checks, undo/hint/fen, bad input survived, and
//! moves read and echoed in Chinese notation and ICCS on the tricky cases
//! (前/后, three and four pawns on a file, Black's digits, advisors and
//! elephants keeping their file, horses).

mod terminal_support;

use terminal_support::{shuai, Run};

/// `shuai play` with a quick engine, no colour, and `input` typed.
fn play(extra: &[&str], input: &str) -> Run {
    let mut args = vec!["play", "--movetime", "50", "--color", "never"];
    args.extend_from_slice(extra);
    let run = shuai(&args, input);
    run.check(run.code == 0, "play exits cleanly");
    run.check(!run.err.contains("panicked"), "no panic");
    run
}

#[test]
fn red_mates_in_two_and_the_mate_is_announced() {
    // Red rooks on a7 and b6 against a bare king: 车九进一 leaves Black
    // only 将5平6, then 车八进三 mates along the top rank.
    let run = play(
        &["--side", "red", "--fen", "4k4/9/R8/1R7/9/9/9/9/9/3K5 w"],
        "车九进一\n车八进三\nquit\n",
    );
    run.check(
        run.out.contains("You (Red) played 车九进一(a7a8)"),
        "first move",
    );
    run.check(
        run.out.contains("Shuai (Black) played 将5平6(e9f9)"),
        "the forced reply",
    );
    run.check(run.out.contains("You (Red) played 车八进三(b6b9)"), "mate");
    run.check(
        run.out.contains(
            "Game over: checkmate. Black is checkmated; Black loses.\nRed wins — you win! (1-0)",
        ),
        "announcement",
    );
    // The board was redrawn after each of the three moves (and at the start).
    run.check(run.out.matches("   九  八  七").count() == 4, "four boards");
    run.check(run.out.trim_end().ends_with("Bye."), "goodbye");
}

#[test]
fn the_engine_mates_the_human() {
    let run = play(
        &["--side", "black", "--fen", "4k4/R8/1R7/9/9/9/9/9/9/3K5 w"],
        "quit\n",
    );
    run.check(
        run.out.contains("Shuai (Red) played 车八进二(b7b9)"),
        "the mate",
    );
    run.check(
        run.out.contains(
            "Game over: checkmate. Black is checkmated; Black loses.\nRed wins — Shuai wins. (1-0)",
        ),
        "announcement",
    );
}

#[test]
fn stalemate_loses() {
    // After 车九进一 the bare black king has no move and is not in check.
    let run = play(
        &["--fen", "4k4/9/R8/9/9/9/9/9/5R3/3K5 w"],
        "a7a8\nh2h3\nquit\n",
    );
    run.check(
        run.out.contains("Game over: stalemate (no legal move). Black has no legal move (stalemate, 困毙: a loss in Xiangqi); Black loses.\nRed wins — you win! (1-0)"),
        "stalemate announced as a loss",
    );
    run.check(
        run.err.contains("The game is over"),
        "no move after the end",
    );
}

#[test]
fn perpetual_check_is_judged_with_its_reason() {
    let run = play(
        &[
            "--side",
            "black",
            "--fen",
            "9/3kc4/3a5/3P5/9/4p4/9/4K4/9/3C5 w",
            "--moves",
            "d6e6 e4d4 e6d6 d4e4 d6e6 e4d4 e6d6",
        ],
        "卒4平5\nquit\n",
    );
    run.check(
        run.out.contains("You (Black) played 卒4平5(d4e4)"),
        "the move",
    );
    run.check(
        run.out.contains("Game over: perpetual check by Black.")
            && run.out.contains("Black loses")
            && run.out.contains("Red wins — Shuai wins. (1-0)"),
        "verdict and reason",
    );
    run.check(!run.out.contains("Check!"), "the verdict, not a check");
}

#[test]
fn checks_undo_hint_fen_and_bad_input() {
    let run = play(
        &["--fen", "4k4/9/R8/1R7/9/9/9/9/9/3K5 w"],
        "车八进三\nundo\nundo\nfen\nhint\nxyz\n车一进一\nh2h3\nmoves\nquit\n",
    );
    run.check(
        run.out.contains("Check! (将军) Black must answer."),
        "check",
    );
    run.check(
        run.out.contains("Took back 车八进三(b6b9) "),
        "undo both plies",
    );
    run.check(
        run.err.contains("Cannot undo: nothing to undo."),
        "second undo",
    );
    run.check(run.out.contains("4k4/9/R8/1R7/9/9/9/9/9/3K5 w"), "fen");
    run.check(run.out.contains("Hint: "), "hint");
    run.check(run.err.contains("'xyz'"), "xyz rejected");
    run.check(run.err.contains("车一进一"), "no rook on file 一");
    run.check(run.err.contains("h2h3"), "no piece on h2");
    run.check(
        run.out.contains("车九进一(a7a8)"),
        "moves lists the legal moves",
    );
    run.check(
        run.out.trim_end().ends_with("Bye."),
        "still playing to the end",
    );
}

#[test]
fn input_that_is_not_utf8_is_survived() {
    // 炮二 in GBK, as a terminal set to that encoding would send it.
    let run = terminal_support::shuai_bytes(
        &["play", "--movetime", "20", "--color", "never"],
        b"\xc5\xda\xb6\xfe\xc6\xbd\xce\xe5\nh2e2\nquit\n",
    );
    run.check(run.code == 0, "exit code");
    run.check(run.err.contains("not UTF-8"), "said why");
    run.check(
        run.out.contains("You (Red) played 炮二平五(h2e2)"),
        "went on",
    );
}

#[test]
fn end_of_input_ends_the_game() {
    let run = play(&[], "");
    run.check(run.out.trim_end().ends_with("Bye."), "bye");
}

/// Plays one move typed as `typed` from `fen` (for the side to move) and
/// expects the echo `echo` (Chinese with ICCS in brackets).
fn echo(side: &str, fen: &str, typed: &str, echo: &str) {
    let run = play(&["--side", side, "--fen", fen], &format!("{typed}\nquit\n"));
    let side = if side == "red" { "Red" } else { "Black" };
    run.check(
        run.out.contains(&format!("You ({side}) played {echo}\n")),
        &format!("{typed} -> {echo}"),
    );
}

#[test]
fn front_and_rear_rooks() {
    let fen = "3k5/9/9/9/9/9/7R1/9/7R1/4K4 w";
    echo("red", fen, "前车进一", "前车进一(h3h4)");
    echo("red", fen, "h1h2", "后车进一(h1h2)");
    echo("red", fen, "后车平四", "后车平四(h1f1)");
}

#[test]
fn three_and_four_pawns_on_a_file() {
    let three = "3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w";
    echo("red", three, "中兵平四", "中兵平四(e6f6)");
    echo("red", three, "e7d7", "前兵平六(e7d7)");
    echo("red", three, "后兵平六", "后兵平六(e5d5)");
    let four = "3k5/4P4/4P4/4P4/4P4/9/9/9/9/5K3 w";
    echo("red", four, "二兵平四", "二兵平四(e7f7)");
    echo("red", four, "e5d5", "四兵平六(e5d5)");
}

#[test]
fn black_writes_digits_and_counts_from_its_own_right() {
    let start_black = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b";
    echo("black", start_black, "马8进7", "马8进7(h9g7)");
    echo("black", start_black, "h7e7", "炮8平5(h7e7)");
    echo("black", start_black, "卒3进1", "卒3进1(c6c5)");
    // Two black horses on Black's file 3: the one nearer Red is in front.
    let horses = "4k4/9/2n6/9/2n6/9/9/9/9/3K5 b";
    echo("black", horses, "后马进4", "后马进4(c7d5)");
    echo("black", horses, "c5b3", "前马进2(c5b3)");
}

#[test]
fn advisors_and_elephants_keep_their_file() {
    let fen = "3k5/9/9/9/9/2B6/9/3A5/9/2BAK4 w";
    echo("red", fen, "仕六退五", "仕六退五(d2e1)");
    echo("red", fen, "d0e1", "仕六进五(d0e1)");
    echo("red", fen, "相七退五", "相七退五(c4e2)");
    echo("red", fen, "c0e2", "相七进五(c0e2)");
    let start_black = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b";
    echo("black", start_black, "士4进5", "士4进5(d9e8)");
    echo("black", start_black, "g9e7", "象7进5(g9e7)");
}

#[test]
fn horses_from_the_start() {
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
    echo("red", start, "马二进三", "马二进三(h0g2)");
    echo("red", start, "b0c2", "马八进七(b0c2)");
    echo("red", start, "H2E2", "炮二平五(h2e2)");
}

#[test]
fn a_weakened_level_plays_legal_moves_and_says_its_strength() {
    let run = play(&["--level", "0"], "h2e2\nh0g2\ni0h0\nquit\n");
    run.check(
        run.out
            .contains("Shuai (帅) plays Black at level 0.0 (about 808 Elo)"),
        "the level is announced",
    );
    run.check(
        run.out.matches("Shuai (Black) played ").count() == 3,
        "one reply to each of the three moves",
    );
    let run = play(&["--elo", "1469"], "quit\n");
    run.check(
        run.out.contains("at level 7.0 (about 1469 Elo)"),
        "an Elo between two measured levels",
    );
    let bad = shuai(&["play", "--level", "21"], "");
    bad.check(bad.code == 2, "a level above 20 is refused");
    let both = shuai(&["play", "--level", "3", "--elo", "1500"], "");
    both.check(both.code == 2, "level and Elo together are refused");
}
