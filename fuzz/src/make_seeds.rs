//! Writes the seed corpus of every target into `fuzz/seeds/<target>/`,
//! with the readers' own writers (run from `fuzz/`, after `cargo +nightly
//! fuzz build -s none`: `target/x86_64-unknown-linux-gnu/release/make_seeds`).
//! The seeds are small valid files, so the fuzzer starts inside each
//! format rather than at its magic bytes.
//!
//! It is written as a fuzz target only so that it links under cargo-fuzz's
//! flags (its coverage instrumentation needs libFuzzer's runtime): the
//! seeds are written in the target's `init`, which then exits.
#![no_main]
// The init block exits, so the body after it is never reached.
#![allow(unreachable_code)]

use shuai_board::{Move, Position};
use shuai_engine::book::{BookEntry, ElephantEyeWriter, SqliteFormat, SqliteWriter};
use shuai_eval::nnue::features::KingBuckets;
use shuai_eval::nnue::network::{Network, HIDDEN};
use std::path::Path;

fn put(target: &str, name: &str, bytes: &[u8]) {
    let dir = Path::new("seeds").join(target);
    std::fs::create_dir_all(&dir).expect("make the seed directory");
    std::fs::write(dir.join(name), bytes).expect("write a seed");
}

/// The book lines: each position of `book_positions` with two moves.
fn book_moves() -> Vec<(Position, Move)> {
    let mut out = Vec::new();
    for pos in shuai_fuzz::book_positions() {
        let moves: Vec<Move> = pos.legal_moves().iter().copied().take(2).collect();
        for m in moves {
            out.push((pos.clone(), m));
        }
    }
    out
}

fn books() {
    let mut ee = ElephantEyeWriter::new();
    for (i, (pos, m)) in book_moves().into_iter().enumerate() {
        ee.add(&pos, m, 10 + i as u16);
    }
    put("book_elephanteye", "small.dat", &ee.to_bytes());
    for (format, name) in [
        (SqliteFormat::Obk, "small.obk"),
        (SqliteFormat::PfBook, "small.pfBook"),
    ] {
        let mut w = SqliteWriter::new(format);
        for (i, (pos, m)) in book_moves().into_iter().enumerate() {
            let entry = BookEntry {
                score: i as i32 - 2,
                wins: 3,
                draws: 1,
                losses: i as u32,
            };
            w.add(&pos, m, entry);
        }
        let path = std::env::temp_dir().join(format!("shuai-seed-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        w.write(&path).expect("write a SQLite book");
        put(
            "book_sqlite",
            name,
            &std::fs::read(&path).expect("read it back"),
        );
        let _ = std::fs::remove_file(&path);
    }
}

fn egtb() {
    for name in ["KK", "KPK", "KAKA"] {
        let material = shuai_egtb::Material::parse(name).expect("a material");
        let set = shuai_egtb::generate_set(material, &mut |_, _| {}).expect("a small table");
        let table = set.get(&material).expect("the table generated");
        // The first byte is the target's mode: 0 as it is, 1 with the
        // header checksum kept right.
        for mode in [0u8, 1] {
            let mut bytes = vec![mode];
            bytes.extend_from_slice(&shuai_egtb::file::encode(table));
            put("egtb", &format!("{name}-{mode}.egtb"), &bytes);
        }
    }
}

fn nnue() {
    // The header and the first parameter bytes of a network of each
    // format version (2: one output bucket, 3: several, 4: king buckets).
    for (king, buckets, name) in [
        (KingBuckets::NONE, 1, "v2"),
        (KingBuckets::NONE, 4, "v3"),
        (KingBuckets::MIRRORED_3, 2, "v4"),
    ] {
        let net = Network::from_parts_with_king_buckets(
            king,
            vec![1; king.inputs() * HIDDEN],
            vec![2; HIDDEN],
            vec![3; 2 * HIDDEN * buckets],
            vec![4; buckets],
            "seed network",
        )
        .expect("a network");
        let bytes = net.to_bytes();
        // Enough for every header (the longest, version 4's, is 108 bytes
        // with this description) and some parameters after it.
        put("nnue", &format!("{name}-head.nnue"), &bytes[..256]);
    }
}

fn games() {
    let dir = Path::new("../engine/tests/data/games");
    for entry in std::fs::read_dir(dir).expect("the test games") {
        let path = entry.expect("a directory entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        let target = match path.extension().and_then(|e| e.to_str()) {
            Some("xqf") => "game_xqf",
            Some("pgn") => "game_pgn",
            Some("html") => "game_dhtmlxq",
            _ => continue,
        };
        put(
            target,
            &name,
            &std::fs::read(&path).expect("read a test game"),
        );
    }
}

libfuzzer_sys::fuzz_target!(
    init: {
        books();
        egtb();
        nnue();
        games();
        std::process::exit(0);
    },
    |_data: &[u8]| {}
);
