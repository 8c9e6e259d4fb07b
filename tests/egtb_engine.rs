//! End-to-end: the endgame tables through the real binary. `EGTB Path` /
//! `Use EGTB` (UCCI `egtbpaths` / `useegtb`) in protocol sessions, and
//! `shuai egtb probe` and `shuai analyze --egtb` at the terminal.
//!
//! The tables (rook against king and advisor, `KRKA`, with the endings
//! its captures lead to) are generated into a temporary directory: the
//! real ones are not in the repository.

#[path = "protocol_harness/mod.rs"]
mod harness;

use harness::*;
use shuai_board::Position;
use shuai_egtb::{Material, TableSet, Value};
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// Red mates in 3 (5 plies): `KRKA`.
const WON: &str = "4ka3/9/9/9/9/9/9/9/9/R2K5 w";

/// The generated tables: in memory, and the directory they were written
/// to (left behind in the temporary directory, a few kilobytes, as the
/// engines of several tests read it at once).
fn tables() -> &'static (TableSet, String) {
    static TABLES: OnceLock<(TableSet, String)> = OnceLock::new();
    TABLES.get_or_init(|| {
        let dir: PathBuf =
            std::env::temp_dir().join(format!("shuai-egtb-engine-{}", std::process::id()));
        let set = shuai_egtb::generate_into(Material::parse("KRKA").unwrap(), &dir).unwrap();
        (set, dir.to_string_lossy().into_owned())
    })
}

/// What the option message says about the generated tables.
fn found(dir: &str) -> String {
    format!("4 endgame tables (up to 4 pieces) in {dir}")
}

/// The value of `fen` and the table's line from it, in ICCS.
fn table_line(fen: &str) -> (Value, Vec<String>) {
    let (set, _) = tables();
    let pos = Position::from_fen(fen).unwrap();
    let line = shuai_egtb::line_with(&pos, 100, |p| set.probe(p));
    (
        set.probe(&pos).unwrap(),
        line.iter().map(|m| m.to_string()).collect(),
    )
}

#[test]
fn uci_session_with_tables() {
    let (_, dir) = tables();
    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok");
    e.send(&format!("setoption name EGTB Path value {dir}"));
    assert_eq!(
        e.sync(),
        [format!("info string setoption EGTB Path: {}", found(dir))]
    );
    // A directory that does not exist: one line, the tables stay.
    e.send(&format!("setoption name EGTB Path value {dir}/nowhere"));
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with(&format!(
            "info string setoption EGTB Path: cannot read the directory {dir}/nowhere: "
        )) && lines[0].ends_with(&format!("; keeping {}", found(dir))),
        "{}",
        lines[0]
    );
    // The root is in a table: its move and mate at once.
    let (value, line) = table_line(WON);
    assert_eq!(value, Value::Win(5));
    e.send(&format!("position fen {WON}"));
    e.send("go depth 12");
    let lines = e.search_result();
    let info = lines
        .iter()
        .rfind(|l| l.contains(" pv "))
        .expect("an info line");
    let head = format!(
        "info depth 1 seldepth 5 multipv 1 score mate 3 nodes 0 nps 0 hashfull 0 tbhits {} time ",
        1 + Position::from_fen(WON).unwrap().legal_moves().len()
    );
    assert!(info.starts_with(&head), "{info}");
    assert_eq!(pv(info), line);
    assert_eq!(
        lines.last().unwrap(),
        &format!("bestmove {} ponder {}", line[0], line[1])
    );
    // Off: searched as without tables, no `tbhits`.
    e.send("setoption name Use EGTB value false");
    e.send("go depth 3");
    let lines = e.search_result();
    assert!(lines.iter().all(|l| !l.contains("tbhits")), "{lines:?}");
    assert!(e.sync().is_empty());
}

#[test]
fn ucci_session_with_tables() {
    let (_, dir) = tables();
    let mut e = Engine::start();
    e.send("ucci");
    e.expect("ucciok");
    e.send(&format!("setoption egtbpaths {dir}"));
    assert_eq!(
        e.sync(),
        [format!("info message setoption egtbpaths: {}", found(dir))]
    );
    e.send("setoption egtbpaths /nonexistent/shuai/tables");
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("info message setoption egtbpaths: cannot read the directory"));
    // Rook and king against king and two advisors (no table): the rook
    // takes an advisor into KRKA, which the tree scores from the table.
    e.send("position fen 4ka3/9/3a5/9/9/9/9/9/9/3R1K3 w");
    e.send("go depth 4");
    let lines = e.search_result();
    let info = lines.iter().rfind(|l| l.contains(" pv ")).unwrap();
    let hits: u64 = field(info, "tbhits").unwrap().parse().unwrap();
    let score: i32 = field(info, "score").unwrap().parse().unwrap();
    assert!(hits > 0 && score > 9800, "{info}");
    assert_eq!(
        lines.last().unwrap().split_whitespace().nth(1),
        Some("d0d7")
    );
    e.send("setoption useegtb off");
    e.send("go depth 3");
    let lines = e.search_result();
    assert!(lines.iter().all(|l| !l.contains("tbhits")), "{lines:?}");
}

#[test]
fn a_damaged_table_is_reported_once() {
    let dir = std::env::temp_dir().join(format!("shuai-egtb-damaged-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("KRK.egtb"), b"SHUAIEGT and then nothing").unwrap();
    let dir = dir.to_string_lossy().into_owned();
    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok");
    e.send(&format!("setoption name EGTB Path value {dir}"));
    assert_eq!(
        e.sync(),
        [format!(
            "info string setoption EGTB Path: 1 endgame table (up to 3 pieces) in {dir}"
        )]
    );
    e.send("position fen 3k5/9/9/9/9/9/9/9/9/R3K4 w");
    for reports in [1, 0] {
        e.send("go depth 2");
        let lines = e.search_result();
        let damaged: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info string ") && l.ends_with("; probing without it"))
            .collect();
        assert_eq!(damaged.len(), reports, "{lines:?}");
        assert!(lines.last().unwrap().starts_with("bestmove "));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `shuai ARGS` with `SHUAI_EGTB` unset: exit code, stdout, stderr.
fn shuai(args: &[&str]) -> (i32, String, String) {
    run_shuai(args)
}

#[test]
fn egtb_probe_prints_the_result_and_the_line() {
    let (_, dir) = tables();
    let (code, out, err) = shuai(&["egtb", "probe", WON, "--egtb", dir]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        "ending: KRKA\n\
         to move: Red\n\
         result: win, mate in 3 (5 plies)\n\
         line: 车九进八(a0a8) 士6进5(f9e8) 帅六平五(d0e0) 将5平4(e9d9) 车九平五(a8e8)\n"
    );
    // Black to move there loses; ASCII moves only.
    let lost = WON.replace(" w", " b");
    let (code, out, _) = shuai(&["egtb", "probe", &lost, "--egtb", dir, "--ascii"]);
    assert_eq!(code, 0);
    let (value, line) = table_line(&lost);
    assert_eq!(
        out,
        format!(
            "ending: KRKA\nto move: Black\nresult: {value}\nline: {}\n",
            line.join(" ")
        )
    );
}

#[test]
fn egtb_probe_explains_what_it_cannot_answer() {
    let (_, dir) = tables();
    // Not covered: exit 1, one line on stderr.
    let (code, out, err) = shuai(&["egtb", "probe", "--egtb", dir]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(
        err.starts_with("shuai egtb probe: the ending ")
            && err.contains(" is not in the tables in "),
        "{err}"
    );
    // A bad FEN, no tables given, a missing directory: exit 2.
    let (code, out, err) = shuai(&["egtb", "probe", "4k4/9/9 w", "--egtb", dir]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.starts_with("shuai egtb probe: invalid FEN '4k4/9/9 w': "),
        "{err}"
    );
    let (code, _, err) = shuai(&["egtb", "probe", WON]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "shuai egtb probe: no tables given: use --egtb DIR or set SHUAI_EGTB\n"
    );
    let (code, _, err) = shuai(&["egtb", "probe", WON, "--egtb", "/nonexistent/shuai"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("shuai egtb probe: cannot read the directory /nonexistent/shuai"));
    // The environment variable names the directory too.
    let out = Command::new(env!("CARGO_BIN_EXE_shuai"))
        .args(["egtb", "probe", WON])
        .env("SHUAI_EGTB", dir)
        .output()
        .unwrap();
    assert!(out.status.success());
}

#[test]
fn analyze_shows_the_tablebase_line() {
    let (_, dir) = tables();
    let (code, out, _) = shuai(&["analyze", WON, "--depth", "3", "--egtb", dir, "--ascii"]);
    assert_eq!(code, 0);
    assert!(
        out.lines()
            .any(|l| l == "tablebase: win, mate in 3 (5 plies)"),
        "{out}"
    );
    assert!(out.contains("Best move a0a8"), "{out}");
}

/// `EGTB Cache` (UCCI `egtbcache`): a budget in MiB is taken without a
/// word, a bad value gets one line and the last good value stays, and the
/// tables are probed as before under the smallest budget.
#[test]
fn the_table_cache_option_takes_megabytes() {
    let (_, dir) = tables();
    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok");
    e.send(&format!("setoption name EGTB Path value {dir}"));
    assert_eq!(e.sync().len(), 1);
    e.send("setoption name EGTB Cache value 1");
    assert!(e.sync().is_empty());
    e.send("setoption name EGTB Cache value lots");
    assert_eq!(
        e.sync(),
        ["info string setoption EGTB Cache: needs a whole number, got 'lots'; value unchanged"]
    );
    e.send("setoption name EGTB Cache value 100000");
    assert_eq!(
        e.sync(),
        ["info string setoption EGTB Cache: 100000 is outside 1..65536; using 65536"]
    );
    e.send("setoption name EGTB Cache value 1");
    let (_, line) = table_line(WON);
    e.send(&format!("position fen {WON}"));
    e.send("go depth 12");
    let lines = e.search_result();
    assert_eq!(
        lines.last().unwrap(),
        &format!("bestmove {} ponder {}", line[0], line[1])
    );
    assert!(e.sync().is_empty());

    // UCCI: the same option under its one-word name.
    let mut e = Engine::start();
    e.send("ucci");
    e.expect("ucciok");
    e.send("setoption egtbcache 1");
    assert!(e.sync().is_empty());
    e.send("setoption egtbcache -");
    assert_eq!(
        e.sync(),
        ["info message setoption egtbcache: needs a whole number, got '-'; value unchanged"]
    );
}
