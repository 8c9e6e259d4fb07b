//! `shuai-tools suite`: TSV verdict files judged by the rules code, and an
//! EPD suite run against Shuai.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

mod common;
use common::shuai_binary;

const EXE: &str = env!("CARGO_BIN_EXE_shuai-tools");

fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn tmp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("shuai-tools-suite-{}-{name}", std::process::id()))
}

/// The 31 reference cases are Fairy-Stockfish's verdicts, which follow the
/// Asian rules: all agree under `--rules asian`. Under the Chinese rules
/// (the default) four differ, each by a rule of the Chinese book: 28.12
/// (fsf-1164: a chase of several pieces is forbidden too), the three-move
/// mate threat (fsf-1187), and 细则2 (fsf-1193, fsf-1195: a chase created
/// by blocking or removing a defender).
#[test]
fn repetition_cases_are_judged_by_the_rules_code() {
    let out = Command::new(EXE)
        .args(["suite", &data("repetition-cases.tsv")])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Solved 27/31"), "{stdout}");
    for (id, difference) in [
        ("fsf-1164", "expected win, got draw"),
        (
            "fsf-1187",
            "expected draw, got loss (perpetual mate threat by Black)",
        ),
        ("fsf-1193", "expected win, got draw"),
        ("fsf-1195", "expected win, got draw"),
    ] {
        assert!(
            stdout.contains(&format!("{id}: {difference}")),
            "{id}: {stdout}"
        );
    }
    let json = tmp("rep.json");
    let out = Command::new(EXE)
        .args([
            "suite",
            &data("repetition-cases.tsv"),
            "--rules",
            "asian",
            "--json",
        ])
        .arg(&json)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("Solved 31/31"), "{stdout}");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["total"], 31);
    assert_eq!(v["solved"], 31);
    assert_eq!(v["results"][0]["kind"], "verdict");
    let _ = std::fs::remove_file(json);
}

#[test]
fn wrong_verdict_is_listed() {
    let tsv = tmp("bad.tsv");
    let line = std::fs::read_to_string(data("repetition-cases.tsv"))
        .unwrap()
        .lines()
        .find(|l| l.starts_with("fsf-1174\t"))
        .unwrap()
        .replace("\twin\t", "\tdraw\t");
    std::fs::write(&tsv, line + "\n").unwrap();
    let out = Command::new(EXE).arg("suite").arg(&tsv).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Solved 0/1"), "{stdout}");
    assert!(
        stdout.contains("expected draw, got win (perpetual check by Black)"),
        "{stdout}"
    );
    let _ = std::fs::remove_file(tsv);
}

#[test]
fn epd_suite_against_shuai() {
    let shuai = shuai_binary();
    let json = tmp("epd.json");
    let out = Command::new(EXE)
        .args(["suite", &data("mini-suite.epd"), "--depth", "6", "--engine"])
        .arg(format!("name=shuai,cmd={},proto=uci", shuai.display()))
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    // Everything but the deliberately wrong best move.
    assert!(stdout.contains("Solved 3/4"), "{stdout}");
    assert!(stdout.contains("start-wrong-bm"), "{stdout}");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let r = &v["results"];
    assert_eq!(r[0]["kind"], "dm");
    assert_eq!(r[0]["solved"], true);
    assert!(r[0]["time_ms"].is_u64());
    assert_eq!(r[1]["expected"], "bm b7b9");
    assert_eq!(r[2]["kind"], "am");
    assert_eq!(r[3]["solved"], false);
    let _ = std::fs::remove_file(json);
}
