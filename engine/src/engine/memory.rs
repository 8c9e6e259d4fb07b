//! How much memory the table may take.

use super::options::{DEFAULT_HASH_MB, MAX_HASH_MB};

/// The largest table the machine can hold comfortably: three quarters of
/// the available memory (Linux), else [`MAX_HASH_MB`].
pub fn max_hash_mb() -> usize {
    let available = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("MemAvailable:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<usize>().ok())
        });
    match available {
        Some(kb) => (kb / 1024 * 3 / 4).clamp(DEFAULT_HASH_MB, MAX_HASH_MB),
        None => MAX_HASH_MB,
    }
}
