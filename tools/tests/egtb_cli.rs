//! `shuai-tools egtb gen`, `egtb verify`, `egtb sample`, `egtb dump` and `egtb census`
//! on small endings: the files, the summary, resuming, a damaged file
//! generated again, positions drawn by value, and positions listed with
//! their values.

mod common;
use common::tools_ok as tools;
use shuai_board::Position;
use shuai_egtb::{Tablebase, Value};
use std::path::PathBuf;
use std::process::Output;

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("shuai-egtb-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The endings the summary lists (its first column).
fn generated(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .skip(1)
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect()
}

#[test]
fn gen_resumes_and_verify_passes() {
    let d = dir("gen");
    let ds = d.to_str().unwrap();
    let first = tools(&["egtb", "gen", "KPKA", "--out", ds, "--threads", "1"]);
    // KPKA and all it captures into, smallest first.
    assert_eq!(generated(&first), ["KK", "KAK", "KPK", "KPKA"]);
    let summary = String::from_utf8_lossy(&first.stdout).to_string();
    let kpk: Vec<&str> = summary
        .lines()
        .find(|l| l.starts_with("KPK\t"))
        .unwrap()
        .split('\t')
        .collect();
    // entries, positions, wins, draws, losses.
    assert_eq!(kpk[1..6], ["4950", "2961", "1215", "489", "1257"]);
    // The cost of each ending: wall and CPU seconds, and its own peak
    // memory (the process's, started afresh for each ending), read from
    // /proc on Linux.
    let header: Vec<&str> = summary.lines().next().unwrap().split('\t').collect();
    assert_eq!(header[10..], ["seconds", "cpu_seconds", "peak_mb"]);
    assert_eq!(kpk.len(), header.len());
    if cfg!(target_os = "linux") {
        let cpu: f64 = kpk[11].parse().unwrap();
        let peak: u64 = kpk[12].parse().unwrap();
        assert!((0.0..60.0).contains(&cpu), "{cpu}");
        assert!(peak > 0, "{peak}");
    }
    for name in ["KK", "KAK", "KPK", "KPKA"] {
        assert!(d.join(format!("{name}.egtb")).exists());
    }
    // A second run has nothing to do.
    let again = tools(&["egtb", "gen", "KPKA", "--out", ds, "--threads", "1"]);
    assert!(generated(&again).is_empty());
    // A damaged file is reported and made again.
    let kpk_file = d.join("KPK.egtb");
    let mut bytes = std::fs::read(&kpk_file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&kpk_file, bytes).unwrap();
    let repaired = tools(&["egtb", "gen", "KPKA", "--out", ds, "--threads", "1"]);
    assert_eq!(generated(&repaired), ["KPK"]);
    assert!(String::from_utf8_lossy(&repaired.stderr).contains("damaged"));
    let v = tools(&["egtb", "verify", "KPK,KPKA", "--dir", ds, "--sample", "0"]);
    let text = String::from_utf8_lossy(&v.stdout);
    assert!(
        text.contains("KPK: 2961 positions checked, 0 by rule skipped, 0 wrong"),
        "{text}"
    );
    assert!(text.contains("KPKA: 13521 positions checked"), "{text}");
    sample_draws_positions_of_the_wanted_value(&d);
    dump_lists_positions_with_their_values(&d);
    std::fs::remove_dir_all(&d).unwrap();
}

/// `egtb sample` on the KPK and KPKA files `dir` holds: every position
/// printed has the wanted value by the tables, one seed gives one list,
/// and a value an ending does not have is an error, not an endless loop.
fn sample_draws_positions_of_the_wanted_value(dir: &std::path::Path) {
    let ds = dir.to_str().unwrap();
    let draw = |args: &[&str]| {
        let mut all = vec!["egtb", "sample", "KPK,KPKA", "--dir", ds];
        all.extend_from_slice(args);
        let out = tools(&all);
        String::from_utf8(out.stdout).unwrap()
    };
    let tb = Tablebase::open(dir);
    let wins_args = "--count 20 --value win --min-plies 9 --seed 7";
    let wins_args: Vec<&str> = wins_args.split(' ').collect();
    let wins = draw(&wins_args);
    assert_eq!(wins.lines().count(), 20, "{wins}");
    for fen in wins.lines() {
        let pos = Position::from_fen(fen).unwrap();
        let v = tb.probe(&pos).unwrap();
        assert!(matches!(v, Value::Win(n) if n >= 9), "{fen}: {v:?}");
    }
    assert_eq!(wins, draw(&wins_args));
    let draws = draw(&["--count", "10", "--value", "draw", "--seed", "8"]);
    for fen in draws.lines() {
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(tb.probe(&pos), Some(Value::Draw), "{fen}");
    }
    // KPK's longest mate is 20 plies.
    let none = common::tools(&[
        "egtb",
        "sample",
        "KPK",
        "--dir",
        ds,
        "--value",
        "win",
        "--min-plies",
        "21",
    ]);
    assert!(!none.status.success());
    let err = String::from_utf8_lossy(&none.stderr);
    assert!(
        err.contains("only 0 of 100 positions found (an ending gave none"),
        "{err}"
    );
}

/// `egtb dump` on the KPK file `dir` holds: every legal position once,
/// with the value the tables give it; a sample is that many distinct
/// positions, the same for the same seed.
fn dump_lists_positions_with_their_values(dir: &std::path::Path) {
    let ds = dir.to_str().unwrap();
    let dump = |args: &[&str]| {
        let mut all = vec!["egtb", "dump", "KPK", "--dir", ds];
        all.extend_from_slice(args);
        String::from_utf8(tools(&all).stdout).unwrap()
    };
    let tb = Tablebase::open(dir);
    let text = |v: Value| match v {
        Value::Draw => "draw".to_string(),
        Value::Win(n) => format!("win {n}"),
        Value::Loss(n) => format!("loss {n}"),
        other => panic!("KPK has no result by rule: {other:?}"),
    };
    let every = dump(&[]);
    let mut fens = std::collections::HashSet::new();
    let mut counts = [0usize; 3];
    for line in every.lines() {
        let (fen, value) = line.split_once('\t').unwrap();
        let v = tb.probe(&Position::from_fen(fen).unwrap()).unwrap();
        assert_eq!(value, text(v), "{fen}");
        counts[match v {
            Value::Win(_) => 0,
            Value::Draw => 1,
            _ => 2,
        }] += 1;
        assert!(fens.insert(fen.to_string()), "{fen} twice");
    }
    // The census of `egtb gen` above: 2961 positions, 1215 won, 489
    // drawn, 1257 lost.
    assert_eq!(counts, [1215, 489, 1257]);
    let sample = dump(&["--sample", "100", "--seed", "3"]);
    assert_eq!(sample.lines().count(), 100);
    let distinct: std::collections::HashSet<&str> = sample.lines().collect();
    assert_eq!(distinct.len(), 100);
    assert!(sample.lines().all(|l| every.lines().any(|e| e == l)));
    assert_eq!(sample, dump(&["--sample", "100", "--seed", "3"]));
    assert_ne!(sample, dump(&["--sample", "100", "--seed", "4"]));
}

/// `--max-memory`: an ending whose generation would hold more is skipped,
/// and so is every ending that captures into it; within the bound all is
/// made.
#[test]
fn gen_keeps_within_max_memory() {
    let d = dir("memory");
    let ds = d.to_str().unwrap();
    let args = ["egtb", "gen", "KRKA", "--out", ds, "--threads", "1"];
    // Each ending needs at least a (rounded-up) megabyte.
    let none = tools(&[&args[..], &["--max-memory", "0"]].concat());
    assert!(generated(&none).is_empty());
    let err = String::from_utf8_lossy(&none.stderr).to_string();
    assert!(
        err.contains("KK: needs about 1 MB, over the 0 MB allowed; skipped"),
        "{err}"
    );
    assert!(
        err.contains("KRKA: a table it captures into is missing; skipped"),
        "{err}"
    );
    // KRKA: 40500 entries, 3 bytes each, and KRK and KAK to read.
    let all = tools(&[&args[..], &["--max-memory", "1"]].concat());
    assert_eq!(generated(&all), ["KK", "KAK", "KRK", "KRKA"]);
    std::fs::remove_dir_all(&d).unwrap();
}

/// `egtb gen stage2` under `--max-entries`: the stage-2 endings that fit
/// and only what they capture into, then `verify stage2` over the files.
#[test]
fn gen_stage2_makes_what_fits_and_what_it_needs() {
    let d = dir("stage2");
    let ds = d.to_str().unwrap();
    let args = ["egtb", "gen", "stage2", "--out", ds, "--threads", "1"];
    let out = tools(&[&args[..], &["--max-entries", "200000"]].concat());
    // Two pawns against the bare king is the only one under 200000
    // entries (133650); it captures into KPK, which captures into KK.
    assert_eq!(generated(&out), ["KK", "KPK", "KPPK"]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("1475 of 1476 endings over --max-entries")
    );
    let summary = String::from_utf8_lossy(&out.stdout).to_string();
    let kppk: Vec<&str> = summary
        .lines()
        .find(|l| l.starts_with("KPPK\t"))
        .unwrap()
        .split('\t')
        .collect();
    // entries, positions, wins, draws, losses, rule wins and losses, longest.
    assert_eq!(
        kppk[1..9],
        ["133650", "77478", "35445", "2025", "40008", "0", "0", "20"]
    );
    let v = tools(&["egtb", "verify", "stage2", "--dir", ds, "--sample", "0"]);
    let text = String::from_utf8_lossy(&v.stdout);
    assert_eq!(
        text.trim(),
        "KPPK: 77478 positions checked, 0 by rule skipped, 0 wrong"
    );
    std::fs::remove_dir_all(&d).unwrap();
}

/// `egtb convert` rewrites a run-length file (version 1) in the block
/// format with the same values, leaves a current file as it is, and
/// reports both sizes.
#[test]
fn convert_rewrites_old_files_in_the_block_format() {
    use shuai_egtb::{file, Material};
    let d = dir("convert");
    let ds = d.to_str().unwrap();
    tools(&["egtb", "gen", "KRKA", "--out", ds, "--threads", "1"]);
    let m = Material::parse("KRKA").unwrap();
    let path = d.join("KRKA.egtb");
    let current = std::fs::read(&path).unwrap();
    let table = file::decode(&current, Some(m), "KRKA").unwrap();
    let old = file::encode_run_length(&table);
    std::fs::write(&path, &old).unwrap();
    let out = tools(&["egtb", "convert", "KRKA", "--dir", ds]);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let row: Vec<&str> = text
        .lines()
        .find(|l| l.starts_with("KRKA\t"))
        .unwrap()
        .split('\t')
        .collect();
    assert_eq!(
        row,
        [
            "KRKA",
            "40500",
            &old.len().to_string(),
            &current.len().to_string(),
            &old.len().to_string()
        ]
    );
    // The same bytes as written by gen: the format is byte-stable.
    assert_eq!(std::fs::read(&path).unwrap(), current);
    assert_eq!(&current[8..10], &file::FORMAT_VERSION.to_le_bytes());
    let again = tools(&["egtb", "convert", "KRKA", "--dir", ds]);
    assert!(String::from_utf8_lossy(&again.stderr).contains("4 tables"));
    let _ = std::fs::remove_dir_all(&d);
}

/// `egtb census` counts, per game, the ending at the first position with
/// at most two attackers and where it settles, leaving out games set up
/// within the tables, and ranks them by either count.
#[test]
fn census_ranks_the_endings_games_reach() {
    let d = dir("census");
    std::fs::create_dir_all(&d).unwrap();
    let pgn = d.join("games.pgn");
    // 1: the rook takes the rook with check (rook and horse against an
    // advisor), the advisor takes it back (horse against advisor), a quiet
    // king move. 2: an opening, no ending. 3: set up in KRKA, left out.
    std::fs::write(
        &pgn,
        "[Event \"a\"]\n[FEN \"3rk4/4a4/9/9/9/9/9/9/9/3R1K1N1 w - - 0 1\"]\n\n\
         1. D0-D9 E8-D9 2. F0-F1 *\n\n\
         [Event \"b\"]\n\n1. h2e2 h9g7 2. h0g2 *\n\n\
         [Event \"c\"]\n[FEN \"4k4/4a4/9/9/9/9/9/9/9/R2K5 w - - 0 1\"]\n\n1. a0a8 *\n",
    )
    .unwrap();
    let p = pgn.to_str().unwrap();
    let rows = |out: &Output| -> Vec<String> {
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect()
    };
    let krhka = shuai_egtb::index::Layout::new(shuai_egtb::Material::parse("KRHKA").unwrap())
        .size()
        .to_string();
    let out = rows(&tools(&["egtb", "census", p]));
    assert_eq!(
        out[0],
        "# 3 games from 1 file(s), 0 from training data; 1 started within the tables' \
         material (left out); 1 of 2 others reached it (50.0%)"
    );
    assert_eq!(
        out[1],
        "rank\tending\tentered\tshare\tsettled\tstage\tentries\tgenerated"
    );
    assert_eq!(out[2], format!("1\tKRHKA\t1\t100.0%\t0\t2\t{krhka}\tyes"));
    assert_eq!(out[3], "2\tKHKA\t0\t0.0%\t1\t1\t40500\tyes");
    assert_eq!(out.len(), 4);
    // Ranked by where the games settle; stage-2 tables over --max-entries
    // count as not generated.
    let out = rows(&tools(&[
        "egtb",
        "census",
        p,
        "--by",
        "settled",
        "--max-entries",
        "1000",
    ]));
    assert_eq!(out[2], "1\tKHKA\t0\t100.0%\t1\t1\t40500\tyes");
    assert_eq!(out[3], format!("2\tKRHKA\t1\t0.0%\t0\t2\t{krhka}\tno"));
    // By attackers only: one line per set of attackers.
    let out = rows(&tools(&["egtb", "census", p, "--attackers-only"]));
    assert_eq!(out[2], "1\tKRHK\t1\t100.0%\t0\t2\t-\t100%");
    assert_eq!(out[3], "2\tKHK\t0\t0.0%\t1\t1\t-\t-");
    let _ = std::fs::remove_dir_all(&d);
}
