//! Two threads add to one counter without synchronisation: a data race
//! that ThreadSanitizer must report (see Cargo.toml).

use std::cell::UnsafeCell;

struct Racy(UnsafeCell<u64>);

// SAFETY: it is not: sharing this between threads is the data race this
// program exists to make.
unsafe impl Sync for Racy {}

static COUNTER: Racy = Racy(UnsafeCell::new(0));

fn main() {
    let threads: Vec<_> = (0..2)
        .map(|_| {
            std::thread::spawn(|| {
                for _ in 0..1000 {
                    // SAFETY: none; the unsynchronised write is the point.
                    unsafe { *COUNTER.0.get() += 1 }
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("a thread panicked");
    }
    // SAFETY: both writers have been joined.
    println!("{}", unsafe { *COUNTER.0.get() });
}
