//! The tablebase probes in place within a memory budget: a probe reads and
//! decodes only its position's block, cached blocks stay within the budget
//! (but for one block larger than the whole budget), the least recently
//! used go first, a dropped block is read again with the same values, a
//! damaged file or block is reported once, and files of the old
//! run-length format are still probed (whole, as one block). Tables of
//! `KRKAA` and the endings its captures lead to are written to a
//! temporary directory.

use shuai_board::{Position, Rng};
use shuai_egtb::file::{self, BLOCK_ENTRIES};
use shuai_egtb::{Material, TableSet, Tablebase};
use std::path::PathBuf;
use std::sync::OnceLock;

/// The generated tables in memory and the directory they were written to
/// (left in the temporary directory for the tests of this file to share).
fn tables() -> &'static (TableSet, PathBuf) {
    static TABLES: OnceLock<(TableSet, PathBuf)> = OnceLock::new();
    TABLES.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("shuai-egtb-cache-{}", std::process::id()));
        let set = shuai_egtb::generate_into(material("KRKAA"), &dir).unwrap();
        (set, dir)
    })
}

fn material(name: &str) -> Material {
    Material::parse(name).unwrap()
}

/// Entries of the table of `name`.
fn entries(name: &str) -> usize {
    tables().0.get(&material(name)).unwrap().len()
}

/// Bytes block `b` of the table of `name` takes in the cache.
fn block_size(name: &str, b: usize) -> usize {
    2 * BLOCK_ENTRIES.min(entries(name) - b * BLOCK_ENTRIES)
}

/// A position of ending `name` in block `b` whose table has a value.
fn position_in(name: &str, b: usize) -> Position {
    let t = tables().0.get(&material(name)).unwrap();
    (b * BLOCK_ENTRIES..t.len())
        .find_map(|i| t.value_at(i).and(t.layout().position(i)))
        .unwrap()
}

/// A position of ending `name` whose table has a value.
fn position(name: &str, seed: u64) -> Position {
    let t = tables().0.get(&material(name)).unwrap();
    let mut rng = Rng::new(seed);
    loop {
        let i = rng.below(t.len() as u64) as usize;
        if let (Some(p), Some(_)) = (t.layout().position(i), t.value_at(i)) {
            return p;
        }
    }
}

/// Probes `p` and checks the value against the tables in memory.
fn probe_at(tb: &Tablebase, p: &Position) {
    let value = tb.probe(p);
    assert!(value.is_some(), "{}", p.to_fen());
    assert_eq!(value, tables().0.probe(p), "{}", p.to_fen());
}

fn loaded(tb: &Tablebase) -> Vec<String> {
    tb.cache_stats()
        .tables
        .iter()
        .map(|m| m.to_string())
        .collect()
}

#[test]
fn a_probe_reads_one_block_of_two_bytes_an_entry() {
    let (_, dir) = tables();
    let tb = Tablebase::open(dir);
    tb.open_table(material("KRKAA")).unwrap();
    assert_eq!(tb.cache_stats().blocks, 0, "opening reads no block");
    probe_at(&tb, &position_in("KRK", 0));
    let stats = tb.cache_stats();
    assert_eq!((stats.blocks, stats.bytes), (1, 2 * 8_100));
    // KRKAA: 81,000 entries in blocks of 32,768; the last holds 15,464.
    assert_eq!((entries("KRKAA"), BLOCK_ENTRIES), (81_000, 32_768));
    probe_at(&tb, &position_in("KRKAA", 2));
    let stats = tb.cache_stats();
    assert_eq!((stats.blocks, stats.bytes), (2, 2 * 8_100 + 2 * 15_464));
    probe_at(&tb, &position_in("KRKAA", 1));
    assert_eq!(tb.cache_stats().bytes, 2 * 8_100 + 2 * 15_464 + 2 * 32_768);
    assert_eq!(tb.cache_stats().loads, 3);
}

#[test]
fn the_least_recently_used_block_is_dropped_first() {
    let (_, dir) = tables();
    let tb = Tablebase::open(dir);
    let budget = block_size("KRKA", 0) + block_size("KRK", 0);
    tb.set_budget(budget);
    probe_at(&tb, &position_in("KRK", 0));
    probe_at(&tb, &position_in("KRKA", 0));
    assert_eq!(loaded(&tb), ["KRK", "KRKA"]);
    assert_eq!(tb.cache_stats().bytes, budget);
    // KRK used again: KRKA's block is now the least recently used, and
    // goes when a third block needs room.
    probe_at(&tb, &position_in("KRK", 0));
    assert_eq!(loaded(&tb), ["KRKA", "KRK"]);
    probe_at(&tb, &position_in("KAAK", 0));
    let stats = tb.cache_stats();
    assert_eq!(loaded(&tb), ["KRK", "KAAK"]);
    assert_eq!((stats.loads, stats.evictions), (3, 1));
    assert!(stats.bytes <= budget);
    // KRKA's block is read again, with the same values; KRK's (now the
    // least recently used) makes room.
    probe_at(&tb, &position_in("KRKA", 0));
    let stats = tb.cache_stats();
    assert_eq!(loaded(&tb), ["KAAK", "KRKA"]);
    assert_eq!((stats.loads, stats.evictions), (4, 2));
    assert_eq!(stats.bytes, block_size("KAAK", 0) + block_size("KRKA", 0));
    // A smaller budget drops the oldest at once.
    tb.set_budget(block_size("KRKA", 0));
    assert_eq!(loaded(&tb), ["KRKA"]);
    assert!(tb.take_errors().is_empty());
}

#[test]
fn a_block_larger_than_the_budget_is_held_alone() {
    let (_, dir) = tables();
    let tb = Tablebase::open(dir);
    tb.set_budget(1000);
    probe_at(&tb, &position_in("KRK", 0));
    probe_at(&tb, &position_in("KRKAA", 2));
    let stats = tb.cache_stats();
    assert_eq!(loaded(&tb), ["KRKAA"]);
    assert_eq!(stats.bytes, block_size("KRKAA", 2));
    assert!(stats.bytes > stats.budget);
    // The next block read drops it.
    probe_at(&tb, &position_in("KRK", 0));
    assert_eq!(loaded(&tb), ["KRK"]);
    assert_eq!(tb.cache_stats().evictions, 2);
}

/// A whole table read through the tablebase has every value of the
/// generated one and leaves the block cache alone.
#[test]
fn a_whole_table_is_read_apart_from_the_cache() {
    let (set, dir) = tables();
    let tb = Tablebase::open(dir);
    tb.set_budget(block_size("KRK", 0));
    let held = tb.table(material("KRKA")).unwrap();
    assert_eq!(tb.cache_stats().blocks, 0);
    probe_at(&tb, &position_in("KRK", 0));
    probe_at(&tb, &position_in("KRKAA", 0));
    let t = set.get(&material("KRKA")).unwrap();
    assert_eq!(held.len(), t.len());
    assert!((0..t.len()).all(|i| held.value_at(i) == t.value_at(i)));
}

/// Many probes of every table with a budget of about a third of their
/// blocks: after each one the cache is within the budget (or holds one
/// block), and every value is the table's.
#[test]
fn probes_under_a_small_budget_keep_within_it_and_give_the_same_values() {
    let (set, dir) = tables();
    let tb = Tablebase::open(dir);
    let endings = tb.endings();
    let total: usize = endings.iter().map(|m| 2 * set.get(m).unwrap().len()).sum();
    tb.set_budget(total / 3);
    let mut rng = Rng::new(30);
    for k in 0..3000 {
        let m = endings[rng.below(endings.len() as u64) as usize].to_string();
        let p = position(&m, k);
        assert_eq!(tb.probe(&p), set.probe(&p), "{m} {}", p.to_fen());
        let stats = tb.cache_stats();
        assert!(
            stats.bytes <= stats.budget || stats.blocks == 1,
            "{stats:?}"
        );
    }
    let stats = tb.cache_stats();
    assert!(stats.evictions > 100, "{stats:?}");
    assert!(tb.take_errors().is_empty());
}

/// Two threads probing while the cache keeps dropping and reading blocks
/// (a budget of one small block) get the tables' values every time.
#[test]
fn threads_probing_through_evictions_get_the_same_values() {
    let (set, dir) = tables();
    let tb = Tablebase::open(dir);
    tb.set_budget(block_size("KRK", 0));
    let endings = tb.endings();
    std::thread::scope(|s| {
        for seed in [1, 2] {
            let (tb, endings) = (&tb, &endings);
            s.spawn(move || {
                let mut rng = Rng::new(seed);
                for k in 0..400 {
                    let m = endings[rng.below(endings.len() as u64) as usize].to_string();
                    let p = position(&m, k);
                    assert_eq!(tb.probe(&p), set.probe(&p), "{m} {}", p.to_fen());
                }
            });
        }
    });
    assert!(tb.cache_stats().loads > 20);
    assert!(tb.take_errors().is_empty());
}

/// A copy of some of the tables in a directory of its own.
fn copy_of(names: &[&str], tag: &str) -> PathBuf {
    let (_, dir) = tables();
    let copy = std::env::temp_dir().join(format!("shuai-egtb-cache-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&copy).unwrap();
    for name in names {
        let file = format!("{name}.egtb");
        std::fs::copy(dir.join(&file), copy.join(&file)).unwrap();
    }
    copy
}

/// A damaged file is reported once however often the cache churns.
#[test]
fn a_damaged_file_is_reported_once_under_a_small_budget() {
    let copy = copy_of(&["KRK", "KRKA"], "bad");
    std::fs::write(copy.join("KK.egtb"), b"SHUAIEGT garbage").unwrap();
    let tb = Tablebase::open(&copy);
    tb.set_budget(1);
    let kings = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w").unwrap();
    for _ in 0..5 {
        assert_eq!(tb.probe(&kings), None);
        probe_at(&tb, &position("KRK", 1));
        probe_at(&tb, &position("KRKA", 1));
    }
    let errors = tb.take_errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("KK.egtb"), "{errors:?}");
    std::fs::remove_dir_all(&copy).unwrap();
}

/// A flipped byte in one block's data: the file opens (its header is
/// sound), the probe that needs the block gets no value and one message
/// naming the block, and the other tables are probed as before.
#[test]
fn a_damaged_block_is_reported_once() {
    let copy = copy_of(&["KRK", "KRKA"], "block");
    let path = copy.join("KRKA.egtb");
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.len() - 10;
    bytes[at] ^= 0x04;
    std::fs::write(&path, &bytes).unwrap();
    let tb = Tablebase::open(&copy);
    tb.open_table(material("KRKA")).unwrap();
    let last = entries("KRKA") / BLOCK_ENTRIES;
    for _ in 0..3 {
        assert_eq!(tb.probe(&position_in("KRKA", last)), None);
        probe_at(&tb, &position("KRK", 1));
    }
    let errors = tb.take_errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains("KRKA.egtb") && errors[0].contains(&format!("block {last}")),
        "{errors:?}"
    );
    std::fs::remove_dir_all(&copy).unwrap();
}

/// A file of the run-length format (version 1) is probed too: read whole,
/// as one block of all its entries.
#[test]
fn an_old_run_length_file_is_probed_whole() {
    let (set, _) = tables();
    let copy = copy_of(&["KRK"], "old");
    let t = set.get(&material("KRKA")).unwrap();
    std::fs::write(copy.join("KRKA.egtb"), file::encode_run_length(t)).unwrap();
    let tb = Tablebase::open(&copy);
    for k in 0..50 {
        let p = position("KRKA", k);
        assert_eq!(tb.probe(&p), set.probe(&p), "{}", p.to_fen());
    }
    let stats = tb.cache_stats();
    assert_eq!((stats.blocks, stats.bytes, stats.loads), (1, 2 * 40_500, 1));
    assert!(tb.take_errors().is_empty());
    std::fs::remove_dir_all(&copy).unwrap();
}
