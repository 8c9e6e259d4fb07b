//! `datagen` writing files: binary and text output game by game, the same
//! bytes whatever the threads, and `--resume` after an interruption.

use shuai_tools::data::{read_header, read_positions, Format, RECORD_SIZE};
use shuai_tools::datagen::{self, generate, DatagenConfig};
use std::io::Write;
use std::path::PathBuf;

fn tiny(games: usize, threads: usize) -> DatagenConfig {
    DatagenConfig {
        games,
        nodes: 300,
        threads,
        seed: 5,
        hash_mb: 1,
        max_plies: 60,
        ..DatagenConfig::default()
    }
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shuai-datagen-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn binary_output_matches_the_games_whatever_the_threads() {
    let games = datagen::run(&tiny(4, 1), &|_, _| {});
    let a = tmp("a.bin");
    let b = tmp("b.bin");
    let mut calls = 0;
    let s = generate(&tiny(4, 2), &a, Format::Binary, false, &mut |_| calls += 1).unwrap();
    generate(&tiny(4, 1), &b, Format::Binary, false, &mut |_| {}).unwrap();
    assert_eq!(calls, 4);
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let total: usize = games.iter().map(|g| g.positions.len()).sum();
    assert_eq!(s.games, 4);
    assert_eq!(s.positions, total);
    assert_eq!(s.wdl.iter().sum::<usize>(), 4);
    assert_eq!(s.failed, 0);
    let h = read_header(&a).unwrap().unwrap();
    assert_eq!((h.games, h.records), (4, total as u64));
    assert_eq!(h.note, tiny(4, 2).describe());
    let recs = read_positions(&a).unwrap();
    assert_eq!(recs.len(), total);
    let mut i = 0;
    for g in &games {
        for (k, kept) in g.positions.iter().enumerate() {
            let r = &recs[i];
            assert_eq!(r.to_position().unwrap().to_fen(), kept.fen);
            assert_eq!(r.red_score() as i32, kept.red_score);
            assert_eq!(r.outcome().red_points() as f64, g.result);
            assert_eq!(r.last_in_game(), k + 1 == g.positions.len());
            i += 1;
        }
    }
}

#[test]
fn text_output_is_the_lines_with_a_blank_line_per_game() {
    let games = datagen::run(&tiny(3, 1), &|_, _| {});
    let t = tmp("a.txt");
    generate(&tiny(3, 2), &t, Format::Text, false, &mut |_| {}).unwrap();
    let mut expected = String::new();
    for g in &games {
        for l in g.lines() {
            expected += &l;
            expected += "\n";
        }
        expected += "\n";
    }
    let text = std::fs::read_to_string(&t).unwrap();
    assert_eq!(text, expected);
    assert_eq!(datagen::text_games(&text), (3, text.len()));
    // Text and binary hold the same records.
    let b = tmp("t.bin");
    generate(&tiny(3, 1), &b, Format::Binary, false, &mut |_| {}).unwrap();
    assert_eq!(read_positions(&t).unwrap(), read_positions(&b).unwrap());
}

#[test]
fn an_interrupted_run_resumes_to_the_same_bytes() {
    let whole = tmp("whole.bin");
    generate(&tiny(5, 2), &whole, Format::Binary, false, &mut |_| {}).unwrap();
    let part = tmp("part.bin");
    generate(&tiny(2, 2), &part, Format::Binary, false, &mut |_| {}).unwrap();
    // The interruption: records of a game written but not yet counted in
    // the header, and half a record.
    let extra = read_positions(&whole).unwrap()[..3].to_vec();
    let mut f = std::fs::File::options().append(true).open(&part).unwrap();
    for r in &extra {
        f.write_all(r.as_bytes()).unwrap();
    }
    f.write_all(&[7u8; RECORD_SIZE / 2]).unwrap();
    drop(f);
    let s = generate(&tiny(5, 1), &part, Format::Binary, true, &mut |_| {}).unwrap();
    assert_eq!((s.resumed_games, s.games), (2, 3));
    assert_eq!(
        std::fs::read(&part).unwrap(),
        std::fs::read(&whole).unwrap()
    );
    // Resuming a finished file plays nothing and changes nothing.
    let s = generate(&tiny(5, 2), &part, Format::Binary, true, &mut |_| {}).unwrap();
    assert_eq!((s.resumed_games, s.games), (5, 0));
    assert_eq!(
        std::fs::read(&part).unwrap(),
        std::fs::read(&whole).unwrap()
    );
    // Other settings are refused.
    let other = DatagenConfig {
        nodes: 301,
        ..tiny(6, 1)
    };
    let e = generate(&other, &part, Format::Binary, true, &mut |_| {}).unwrap_err();
    assert!(e.contains("other settings"), "{e}");
}

#[test]
fn an_interrupted_text_run_resumes_to_the_same_text() {
    let whole = tmp("whole.txt");
    generate(&tiny(4, 2), &whole, Format::Text, false, &mut |_| {}).unwrap();
    let part = tmp("part.txt");
    generate(&tiny(1, 1), &part, Format::Text, false, &mut |_| {}).unwrap();
    let mut f = std::fs::File::options().append(true).open(&part).unwrap();
    f.write_all(b"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAK")
        .unwrap();
    drop(f);
    generate(&tiny(4, 2), &part, Format::Text, true, &mut |_| {}).unwrap();
    assert_eq!(
        std::fs::read_to_string(&part).unwrap(),
        std::fs::read_to_string(&whole).unwrap()
    );
    // A file without game boundaries is not cut.
    let old = tmp("old.txt");
    std::fs::write(&old, format!("{};0.5;3\n", shuai_board::START_FEN)).unwrap();
    assert!(generate(&tiny(2, 1), &old, Format::Text, true, &mut |_| {}).is_err());
    assert_eq!(std::fs::read_to_string(&old).unwrap().lines().count(), 1);
}

#[test]
fn a_network_plays_its_own_games_and_is_named_in_the_header() {
    let net = shuai_eval::nnue::shared_default_network();
    let with = DatagenConfig {
        network: Some(net.clone()),
        ..tiny(2, 1)
    };
    assert_eq!(
        with.describe(),
        format!("{} network={:016x}", tiny(2, 1).describe(), net.hash())
    );
    // The network's scores, not the hand-written evaluation's, label the
    // positions (with any network other than the hand-written evaluation
    // the two runs' first scores differ).
    let a = datagen::run(&with, &|_, _| {});
    let b = datagen::run(&tiny(2, 1), &|_, _| {});
    let first = |g: &[datagen::GameRecord]| g[0].positions[0].red_score;
    assert_ne!(first(&a), first(&b));
}

/// A game the program fails on (a panic) becomes an empty game that says
/// why, so a long run goes on; a game that plays is passed through.
#[test]
fn a_game_that_panics_becomes_an_empty_game_with_the_reason() {
    let failed = datagen::guarded(|| panic!("both kings are always on the board"));
    assert_eq!(
        failed.failure.as_deref(),
        Some("both kings are always on the board")
    );
    assert!(failed.positions.is_empty());
    assert_eq!(failed.plies, 0);
    let cfg = tiny(1, 1);
    let played = datagen::guarded(|| datagen::play_game(&cfg, 0));
    assert_eq!(played, datagen::play_game(&cfg, 0));
    assert_eq!(played.failure, None);
    assert!(!played.positions.is_empty());
    let code = 7;
    let formatted = datagen::guarded(|| panic!("code {code}"));
    assert_eq!(formatted.failure.as_deref(), Some("code 7"));
}
