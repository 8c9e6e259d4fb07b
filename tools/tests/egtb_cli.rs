//! `shuai-tools egtb gen` and `egtb verify` on small endings: the files,
//! the summary, resuming, and a damaged file generated again.

mod common;
use common::tools_ok as tools;
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
    std::fs::remove_dir_all(&d).unwrap();
}
