//! What a probe costs (ignored: timings, not checks). `cargo test
//! --release -p shuai-egtb --test timing -- --ignored --nocapture` prints
//! CPU nanoseconds per probe on one thread and on two, over positions
//! drawn from every table of `KRKAA`'s closure in turn (so consecutive
//! probes mostly hit different tables, as the captures of a search do):
//! with every block cached, and with a budget of one byte, so that each
//! probe reads and decodes its block from the file. With `EGTB_DIR` and
//! `EGTB_ENDING` set, `open_cost` prints the milliseconds of opening that
//! table for probing and of its first probe.

use shuai_board::{Position, Rng};
use shuai_egtb::{Material, Tablebase};
use std::time::Instant;

/// Positions of every table of the closure, shuffled.
fn positions(dir: &std::path::Path, material: Material, count: usize) -> Vec<Position> {
    let tb = Tablebase::open(dir);
    let tables: Vec<_> = material
        .closure()
        .into_iter()
        .filter_map(|m| tb.table(m))
        .collect();
    let mut rng = Rng::new(7);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let t = &tables[out.len() % tables.len()];
        let i = (rng.next_u64() % t.len() as u64) as usize;
        if let (Some(p), Some(_)) = (t.layout().position(i), t.value_at(i)) {
            out.push(p);
        }
    }
    out
}

/// Nanoseconds this thread has run on a CPU (Linux's schedstat), so that
/// time spent waiting for the CPU on a busy machine is not counted; the
/// wall clock where that is not available.
fn cpu_ns(start: Instant) -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| start.elapsed().as_nanos() as u64)
}

/// Probes every position `rounds` times on each of `threads` threads
/// (sharing one tablebase); CPU nanoseconds per probe (the mean over the
/// threads), and how many probes found a value.
fn time_probes(
    tb: &Tablebase,
    positions: &[Position],
    rounds: usize,
    threads: usize,
) -> (f64, u64) {
    let start = Instant::now();
    let per_thread: Vec<(u64, u64)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let before = cpu_ns(start);
                    let mut found = 0u64;
                    for _ in 0..rounds {
                        for p in positions {
                            found += u64::from(tb.probe(p).is_some());
                        }
                    }
                    (cpu_ns(start) - before, found)
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or((0, 0)))
            .collect()
    });
    let probes = (positions.len() * rounds * threads) as f64;
    let ns: u64 = per_thread.iter().map(|&(ns, _)| ns).sum();
    (ns as f64 / probes, per_thread.iter().map(|&(_, f)| f).sum())
}

#[test]
#[ignore]
fn probe_cost() {
    let dir = std::env::temp_dir().join(format!("shuai-egtb-timing-{}", std::process::id()));
    let material = Material::parse("KRKAA").unwrap();
    shuai_egtb::generate_into(material, &dir).unwrap();
    let positions = positions(&dir, material, 20_000);
    let tb = Tablebase::open(&dir);
    // Every table read before timing.
    let (_, found) = time_probes(&tb, &positions, 1, 1);
    assert_eq!(found, positions.len() as u64);
    for threads in [1, 2] {
        let mut best = f64::MAX;
        for _ in 0..5 {
            let (ns, found) = time_probes(&tb, &positions, 50, threads);
            assert_eq!(found, (positions.len() * 50 * threads) as u64);
            best = best.min(ns);
        }
        eprintln!(
            "{threads} thread(s): {best:.1} ns per probe, blocks cached (best of 5, {} tables)",
            tb.len()
        );
    }
    // Every probe a miss: a budget of one byte keeps only the last block
    // read, and consecutive positions are of different tables.
    tb.set_budget(1);
    let few = &positions[..2000];
    let mut best = f64::MAX;
    for _ in 0..5 {
        let loads = tb.cache_stats().loads;
        let (ns, found) = time_probes(&tb, few, 1, 1);
        assert_eq!(found, few.len() as u64);
        assert!(tb.cache_stats().loads - loads > few.len() as u64 * 9 / 10);
        best = best.min(ns);
    }
    eprintln!("1 thread: {best:.0} ns per probe, each block read and decoded (best of 5)");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Milliseconds (wall clock) of opening the table `EGTB_ENDING` of the
/// directory `EGTB_DIR` for probing (its header and block index), and of
/// its first probe (one block read and decoded): the best of seven, each
/// on a fresh `Tablebase` (the file itself is in the page cache after the
/// first run).
#[test]
#[ignore]
fn open_cost() {
    let (Some(dir), Some(name)) = (
        std::env::var_os("EGTB_DIR"),
        std::env::var("EGTB_ENDING").ok(),
    ) else {
        panic!("set EGTB_DIR and EGTB_ENDING to time opening a table");
    };
    let dir = std::path::PathBuf::from(dir);
    let material = Material::parse(&name).unwrap().canonical().0;
    let table = Tablebase::open(&dir).table(material).unwrap();
    let i = (0..table.len())
        .find(|&i| table.value_at(i).is_some())
        .unwrap();
    let pos = table.layout().position(i).unwrap();
    let (mut open_ms, mut probe_ms) = (f64::MAX, f64::MAX);
    for _ in 0..7 {
        let tb = Tablebase::open(&dir);
        let t = Instant::now();
        tb.open_table(material).unwrap();
        open_ms = open_ms.min(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        assert_eq!(tb.probe(&pos), table.value_at(i));
        probe_ms = probe_ms.min(t.elapsed().as_secs_f64() * 1e3);
    }
    let size = std::fs::metadata(dir.join(format!("{material}.egtb")))
        .unwrap()
        .len();
    eprintln!(
        "{material}: {} entries, {size} bytes; open {open_ms:.2} ms, first probe {probe_ms:.2} ms",
        table.len()
    );
}
