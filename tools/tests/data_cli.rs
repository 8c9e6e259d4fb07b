//! `shuai-tools data …` on small known files.

mod common;
use shuai_board::Position;
use shuai_tools::data::{
    games, read_header, read_positions, write_positions, Format, Outcome, PackedPosition,
};
use std::path::PathBuf;

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shuai-data-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The standard output of `shuai-tools args`, which must succeed.
fn tools(args: &[&str]) -> String {
    String::from_utf8(common::tools_ok(args).stdout).unwrap()
}

/// A game: the positions along a fixed line from the start.
fn game(plies: usize, first_move: usize, outcome: Outcome) -> Vec<PackedPosition> {
    let mut pos = Position::startpos();
    let mut out = Vec::new();
    for i in 0..plies {
        let moves = pos.legal_moves();
        let k = if i == 0 { first_move } else { i * 5 };
        pos.make_move(moves.as_slice()[k % moves.len()]);
        out.push(PackedPosition::pack(&pos, 30 * i as i16 - 45, outcome).unwrap());
    }
    out.last_mut().unwrap().set_last_in_game(true);
    out
}

/// Three games, 4 + 3 + 5 positions; the second repeats the first's first
/// three positions, the third starts with another move and repeats none.
fn known() -> Vec<PackedPosition> {
    [
        game(4, 0, Outcome::RedWins),
        game(3, 0, Outcome::Draw),
        game(5, 1, Outcome::BlackWins),
    ]
    .concat()
}

#[test]
fn dedup_reports_and_drops_the_repeats() {
    let input = tmp("dup.bin");
    write_positions(&input, &known(), Format::Binary, "known").unwrap();
    let out = tmp("dedup.bin");
    let text = tools(&[
        "data",
        "dedup",
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(text.contains("3 of 12 positions were repeats"), "{text}");
    let kept = read_positions(&out).unwrap();
    assert_eq!(kept.len(), 9);
    assert_eq!(games(&kept).len(), 2);
    assert_eq!(read_header(&out).unwrap().unwrap().games, 2);
    // The same records in two files (text and binary) give the same result.
    let (p1, p2) = (tmp("dup1.bin"), tmp("dup2.txt"));
    write_positions(&p1, &known()[..4], Format::Binary, "").unwrap();
    write_positions(&p2, &known()[4..], Format::Text, "").unwrap();
    let out2 = tmp("dedup2.bin");
    let text = tools(&[
        "data",
        "dedup",
        p1.to_str().unwrap(),
        p2.to_str().unwrap(),
        "--out",
        out2.to_str().unwrap(),
    ]);
    assert!(text.contains("3 of 12 positions were repeats"), "{text}");
    assert_eq!(read_positions(&out2).unwrap(), kept);
}

#[test]
fn convert_round_trips_exactly() {
    let bin = tmp("c.bin");
    write_positions(&bin, &known(), Format::Binary, "known").unwrap();
    let txt = tmp("c.txt");
    let bin2 = tmp("c2.bin");
    let txt2 = tmp("c2.txt");
    tools(&[
        "data",
        "convert",
        bin.to_str().unwrap(),
        txt.to_str().unwrap(),
    ]);
    tools(&[
        "data",
        "convert",
        txt.to_str().unwrap(),
        bin2.to_str().unwrap(),
    ]);
    tools(&[
        "data",
        "convert",
        bin2.to_str().unwrap(),
        txt2.to_str().unwrap(),
    ]);
    assert_eq!(read_positions(&bin2).unwrap(), known());
    let t = std::fs::read_to_string(&txt).unwrap();
    assert_eq!(t, std::fs::read_to_string(&txt2).unwrap());
    assert_eq!(t.lines().count(), 12 + 3);
    // The binary records are byte for byte the same (the notes differ).
    let a = std::fs::read(&bin).unwrap();
    let b = std::fs::read(&bin2).unwrap();
    assert_eq!(a[a.len() - 12 * 32..], b[b.len() - 12 * 32..]);
    // --format overrides the name.
    let forced = tmp("forced.txt");
    tools(&[
        "data",
        "convert",
        txt.to_str().unwrap(),
        forced.to_str().unwrap(),
        "--format",
        "binary",
    ]);
    assert!(read_header(&forced).unwrap().is_some());
}

#[test]
fn split_keeps_games_whole() {
    let mut recs = Vec::new();
    for g in 0..10 {
        recs.extend(game(2 + g % 3, g, Outcome::Draw));
    }
    let input = tmp("s.bin");
    write_positions(&input, &recs, Format::Binary, "").unwrap();
    let (train, valid) = (tmp("train.bin"), tmp("valid.bin"));
    let text = tools(&[
        "data",
        "split",
        input.to_str().unwrap(),
        "--train",
        train.to_str().unwrap(),
        "--valid",
        valid.to_str().unwrap(),
        "--valid-fraction",
        "0.3",
        "--seed",
        "4",
    ]);
    assert!(
        text.contains("10 games: 7 for training, 3 for validation"),
        "{text}"
    );
    let t = read_positions(&train).unwrap();
    let v = read_positions(&valid).unwrap();
    assert_eq!(t.len() + v.len(), recs.len());
    let whole: Vec<&[PackedPosition]> = games(&recs).into_iter().map(|r| &recs[r]).collect();
    for part in [&t, &v] {
        for r in games(part) {
            assert!(whole.contains(&&part[r]), "a game was cut");
        }
    }
}

#[test]
fn shuffle_is_a_seeded_permutation_of_the_inputs() {
    let a = tmp("sh_a.bin");
    let b = tmp("sh_b.txt");
    let k = known();
    write_positions(&a, &k[..7], Format::Binary, "").unwrap();
    write_positions(&b, &k[7..], Format::Text, "").unwrap();
    let o1 = tmp("sh1.bin");
    let o2 = tmp("sh2.bin");
    for o in [&o1, &o2] {
        tools(&[
            "data",
            "shuffle",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "--out",
            o.to_str().unwrap(),
            "--seed",
            "3",
        ]);
    }
    let s1 = read_positions(&o1).unwrap();
    assert_eq!(s1, read_positions(&o2).unwrap());
    assert_ne!(s1, k);
    let mut x: Vec<[u8; 32]> = s1.iter().map(|p| *p.as_bytes()).collect();
    let mut y: Vec<[u8; 32]> = k.iter().map(|p| *p.as_bytes()).collect();
    x.sort();
    y.sort();
    assert_eq!(x, y);
}

#[test]
fn stats_on_a_known_file() {
    let f = tmp("st.bin");
    write_positions(&f, &known(), Format::Binary, "known file").unwrap();
    let text = tools(&["data", "stats", f.to_str().unwrap()]);
    // Scores -45, -15, 15, 45, 75 by ply: 4 + 3 + 5 positions, Black to
    // move after odd plies (2 + 2 + 3 of them).
    assert!(
        text.contains("header: 3 games, 12 records; known file"),
        "{text}"
    );
    assert!(text.contains("positions        12\n"), "{text}");
    assert!(text.contains("games            3 "), "{text}");
    assert!(
        text.contains("Red wins 4 (33.3%), draws 3 (25.0%), Black wins 5 (41.7%)"),
        "{text}"
    );
    assert!(
        text.contains("Red wins 1 (33.3%), draws 1 (33.3%), Black wins 1 (33.3%)"),
        "{text}"
    );
    assert!(
        text.contains("side to move     Red 5 (41.7%), Black 7 (58.3%)"),
        "{text}"
    );
    // |score| sum: (45+15+15+45) + (45+15+15) + (45+15+15+45+75) = 390.
    assert!(text.contains("mean |score|     32.5 cp"), "{text}");
    assert!(text.contains("-50..50         11  91.7%"), "{text}");
}

#[test]
fn bad_files_give_clear_errors() {
    let f = tmp("bad.txt");
    std::fs::write(&f, "garbage\n").unwrap();
    let out = common::tools(&["data", "stats", f.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.txt: line 1"), "{err}");
}
