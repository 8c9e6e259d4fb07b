//! The soak harness and the long analysis against the scripted fake
//! engine (`shuai-tools fake-engine`): a clean engine gives a clean tally
//! and a log that resumes; an engine that stops answering `isready`, plays
//! an illegal move, crashes or falls silent is caught and reported with
//! the lines that led to it.

use shuai_tools::analysis::{run_analysis, AnalysisConfig};
use shuai_tools::openings::{parse_text, shuffled, DEFAULT_BOOK};
use shuai_tools::soak::operator::Limits;
use shuai_tools::soak::{run_soak, SoakConfig, Tally};
use shuai_tools::spec::{EngineSpec, Protocol};
use shuai_tools::tc::Limit;
use std::path::PathBuf;
use std::time::Duration;

const EXE: &str = env!("CARGO_BIN_EXE_shuai-tools");

fn fake(name: &str, args: &str) -> EngineSpec {
    let mut a = vec!["fake-engine".to_string()];
    a.extend(args.split_whitespace().map(str::to_string));
    EngineSpec {
        name: name.into(),
        cmd: EXE.into(),
        args: a,
        dir: None,
        proto: Protocol::Uci,
        options: Vec::new(),
        depth: None,
        nodes: None,
    }
}

fn log_path(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("shuai-soak-{name}-{}.jsonl", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

fn config(tested: &str, games: usize, tc: &str, log: PathBuf) -> SoakConfig {
    SoakConfig {
        engine: fake("tested", tested),
        opponent: fake("opponent", ""),
        clocks: vec![Limit::parse_tc(tc).unwrap()],
        games,
        seed: 5,
        log,
        max_threads: 4,
        max_hash_mb: 64,
        ponder: true,
        limits: Limits {
            isready: Duration::from_millis(500),
            stop_grace: Duration::from_millis(300),
            margin: Duration::from_millis(100),
        },
        openings: shuffled(parse_text(DEFAULT_BOOK).unwrap(), 5),
        max_plies: 30,
        progress: false,
    }
}

/// The log's incidents of `kind`.
fn incidents(log: &PathBuf, kind: &str) -> Vec<serde_json::Value> {
    std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["type"] == "incident" && v["kind"] == kind)
        .collect()
}

fn sent(t: &Tally, kind: &str) -> u64 {
    t.interjections.get(kind).copied().unwrap_or(0)
}

#[test]
fn clean_engine_gives_a_clean_tally_and_the_log_resumes() {
    let log = log_path("clean");
    let t = run_soak(&config("--think 15", 3, "1+0.01", log.clone())).unwrap();
    assert_eq!(t.failures(), 0, "{}", t.summary());
    assert_eq!(t.games, 3);
    assert_eq!(t.clocks["1+0.01"].time_losses, 0);
    assert!(sent(&t, "isready") > 0, "{}", t.summary());
    assert!(sent(&t, "go_ponder") > 0, "{}", t.summary());
    assert!(sent(&t, "setoption") >= 6, "{}", t.summary());
    let t2 = run_soak(&config("--think 15", 4, "1+0.01", log.clone())).unwrap();
    assert_eq!(t2.games, 4);
    assert!(t2.interjections["isready"] >= t.interjections["isready"]);
    let text = std::fs::read_to_string(&log).unwrap();
    assert_eq!(text.matches("\"type\":\"start\"").count(), 2);
    assert_eq!(text.matches("\"type\":\"game\"").count(), 4);
    let _ = std::fs::remove_file(&log);
}

#[test]
fn engine_deaf_to_isready_is_a_hang() {
    let log = log_path("deaf");
    let t = run_soak(&config("--mode deaf --after 1", 2, "1+0.01", log.clone())).unwrap();
    assert!(t.hangs >= 1, "{}", t.summary());
    let hangs = incidents(&log, "hang");
    assert!(!hangs.is_empty());
    let what = hangs[0]["what"].as_str().unwrap();
    assert!(what.contains("isready"), "{what}");
    let transcript = hangs[0]["transcript"].as_array().unwrap();
    assert!(
        transcript
            .iter()
            .any(|l| l.as_str().unwrap().ends_with("> isready")),
        "{transcript:?}"
    );
    let _ = std::fs::remove_file(&log);
}

#[test]
fn illegal_move_is_flagged() {
    let log = log_path("illegal");
    let t = run_soak(&config(
        "--mode illegal --after 3",
        2,
        "1+0.01",
        log.clone(),
    ))
    .unwrap();
    assert!(t.illegal_moves >= 1, "{}", t.summary());
    let what = incidents(&log, "illegal_move")[0]["what"].to_string();
    assert!(what.contains("e0e5"), "{what}");
    let _ = std::fs::remove_file(&log);
}

#[test]
fn crash_is_counted_and_the_engine_restarted() {
    let log = log_path("crash");
    let t = run_soak(&config("--mode crash --after 2", 2, "1+0.01", log.clone())).unwrap();
    assert_eq!(t.games, 2);
    assert!(t.crashes >= 2, "{}", t.summary());
    let _ = std::fs::remove_file(&log);
}

#[test]
fn silent_engine_is_a_hang() {
    let log = log_path("silent");
    let t = run_soak(&config(
        "--mode silent --after 2",
        1,
        "0.3+0.01",
        log.clone(),
    ))
    .unwrap();
    assert!(t.hangs >= 1, "{}", t.summary());
    let _ = std::fs::remove_file(&log);
}

#[test]
fn long_analysis_samples_memory_and_times_stop() {
    let cfg = AnalysisConfig {
        engine: fake("fake", ""),
        threads: 1,
        hash_mb: 1,
        duration: Duration::from_millis(900),
        every: Duration::from_millis(300),
        position: "position startpos".into(),
        log: None,
        isready_limit: Duration::from_millis(500),
        stop_limit: Duration::from_millis(500),
    };
    let mut seen = 0;
    let r = run_analysis(&cfg, &mut |_| seen += 1).unwrap();
    assert_eq!(r.samples.len(), 3);
    assert_eq!(seen, 3);
    assert!(r.failures.is_empty(), "{:?}", r.failures);
    assert!(r.stop_ms.is_some());
    assert!(r.samples.iter().all(|s| s.isready_ms.is_some()));
    if cfg!(target_os = "linux") {
        assert!(r.samples.iter().all(|s| s.rss_kb.is_some()));
    }
    assert!(r.summary().contains("resident memory"));
}
