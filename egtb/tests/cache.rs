//! The tablebase's memory budget: loaded tables stay within it (but for
//! one table larger than the whole budget), the least recently used go
//! first, a dropped table is read again with the same values, and an
//! `Arc` a caller holds outlives the drop. Tables of `KRKAA` and the
//! endings its captures lead to are written to a temporary directory.

use shuai_board::{Position, Rng};
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

/// Bytes the table of `name` takes in memory.
fn size(name: &str) -> usize {
    tables().0.get(&material(name)).unwrap().bytes()
}

/// A position of ending `name` whose table has a value, with that value
/// from the tables generated in memory.
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

/// Probes a position of `name` and checks the value against the tables in
/// memory.
fn probe(tb: &Tablebase, name: &str) {
    let p = position(name, 1);
    let value = tb.probe(&p);
    assert!(value.is_some(), "{name}");
    assert_eq!(value, tables().0.probe(&p), "{name} {}", p.to_fen());
}

fn loaded(tb: &Tablebase) -> Vec<String> {
    tb.cache_stats()
        .tables
        .iter()
        .map(|m| m.to_string())
        .collect()
}

#[test]
fn table_sizes_are_two_bytes_an_entry() {
    // 45 king pairs × 90 rook points × 10 pairs of advisor points × 2.
    assert_eq!(size("KRKAA"), 2 * 81_000);
    assert_eq!(size("KRKA"), 2 * 40_500);
    assert_eq!(size("KRK"), 2 * 8_100);
}

#[test]
fn the_least_recently_used_table_is_dropped_first() {
    let (_, dir) = tables();
    let tb = Tablebase::open(dir);
    let budget = size("KRKA") + size("KRK");
    tb.set_budget(budget);
    probe(&tb, "KRK");
    probe(&tb, "KRKA");
    assert_eq!(loaded(&tb), ["KRK", "KRKA"]);
    assert_eq!(tb.cache_stats().bytes, budget);
    // KRK used again: KRKA is now the least recently used, and goes when
    // a third table needs room.
    probe(&tb, "KRK");
    assert_eq!(loaded(&tb), ["KRKA", "KRK"]);
    probe(&tb, "KAAK");
    let stats = tb.cache_stats();
    assert_eq!(loaded(&tb), ["KRK", "KAAK"]);
    assert_eq!((stats.loads, stats.evictions), (3, 1));
    assert!(stats.bytes <= budget);
    // KRKA is read again, with the same values; KRK (now the least
    // recently used) makes room.
    probe(&tb, "KRKA");
    let stats = tb.cache_stats();
    assert_eq!(loaded(&tb), ["KAAK", "KRKA"]);
    assert_eq!((stats.loads, stats.evictions), (4, 2));
    assert_eq!(stats.bytes, size("KAAK") + size("KRKA"));
    // A smaller budget drops the oldest at once.
    tb.set_budget(size("KRKA"));
    assert_eq!(loaded(&tb), ["KRKA"]);
    assert!(tb.take_errors().is_empty());
}

#[test]
fn a_table_larger_than_the_budget_is_loaded_alone() {
    let (_, dir) = tables();
    let tb = Tablebase::open(dir);
    tb.set_budget(size("KRKA"));
    probe(&tb, "KRK");
    probe(&tb, "KRKAA");
    let stats = tb.cache_stats();
    assert_eq!(loaded(&tb), ["KRKAA"]);
    assert_eq!(stats.bytes, size("KRKAA"));
    assert!(stats.bytes > stats.budget);
    // The next table read drops it.
    probe(&tb, "KRK");
    assert_eq!(loaded(&tb), ["KRK"]);
    assert_eq!(tb.cache_stats().evictions, 2);
}

#[test]
fn a_table_held_by_a_caller_outlives_its_drop() {
    let (set, dir) = tables();
    let tb = Tablebase::open(dir);
    tb.set_budget(size("KRKA"));
    let held = tb.table(material("KRKA")).unwrap();
    probe(&tb, "KRK");
    probe(&tb, "KRKAA");
    assert_eq!(loaded(&tb), ["KRKAA"]);
    let t = set.get(&material("KRKA")).unwrap();
    assert_eq!(held.len(), t.len());
    assert!((0..t.len()).all(|i| held.value_at(i) == t.value_at(i)));
}

/// Many probes of every table with a budget of about a third of them:
/// after each one the cache is within the budget (or holds one table),
/// and every value is the table's.
#[test]
fn probes_under_a_small_budget_keep_within_it_and_give_the_same_values() {
    let (set, dir) = tables();
    let tb = Tablebase::open(dir);
    let endings = tb.endings();
    let total: usize = endings.iter().map(|m| set.get(m).unwrap().bytes()).sum();
    tb.set_budget(total / 3);
    let mut rng = Rng::new(30);
    for k in 0..3000 {
        let m = endings[rng.below(endings.len() as u64) as usize].to_string();
        let p = position(&m, k);
        assert_eq!(tb.probe(&p), set.probe(&p), "{m} {}", p.to_fen());
        let stats = tb.cache_stats();
        assert!(
            stats.bytes <= stats.budget || stats.tables.len() == 1,
            "{stats:?}"
        );
    }
    let stats = tb.cache_stats();
    assert!(stats.evictions > 100, "{stats:?}");
    assert!(tb.take_errors().is_empty());
}

/// Two threads probing while the cache keeps dropping and reading tables
/// (a budget of one small table) get the tables' values every time.
#[test]
fn threads_probing_through_evictions_get_the_same_values() {
    let (set, dir) = tables();
    let tb = Tablebase::open(dir);
    tb.set_budget(size("KRK"));
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

/// A damaged file is reported once however often the cache churns.
#[test]
fn a_damaged_file_is_reported_once_under_a_small_budget() {
    let (_, dir) = tables();
    let copy = std::env::temp_dir().join(format!("shuai-egtb-cache-bad-{}", std::process::id()));
    std::fs::create_dir_all(&copy).unwrap();
    for name in ["KRK", "KRKA"] {
        let file = format!("{name}.egtb");
        std::fs::copy(dir.join(&file), copy.join(&file)).unwrap();
    }
    std::fs::write(copy.join("KK.egtb"), b"SHUAIEGT garbage").unwrap();
    let tb = Tablebase::open(&copy);
    tb.set_budget(1);
    let kings = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w").unwrap();
    for _ in 0..5 {
        assert_eq!(tb.probe(&kings), None);
        probe(&tb, "KRK");
        probe(&tb, "KRKA");
    }
    let errors = tb.take_errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("KK.egtb"), "{errors:?}");
    std::fs::remove_dir_all(&copy).unwrap();
}
