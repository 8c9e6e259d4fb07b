//! How much memory the hash table may take.

#[cfg(not(target_family = "wasm"))]
use super::options::{DEFAULT_HASH_MB, MAX_HASH_MB};

/// The largest hash table the machine can hold comfortably: three quarters of
/// the available memory, else [`MAX_HASH_MB`] where it cannot be read.
///
/// The available memory comes from `sysinfo`, so the clamp holds on
/// Windows and macOS as on Linux (it was read from `/proc/meminfo`, and on
/// Windows a `Hash` larger than memory could abort the engine instead of
/// drawing a message). On Linux a cgroup's limit (a container) counts too.
///
/// In WebAssembly (a browser page) it is [`WASM_MAX_HASH_MB`]: a 32-bit
/// memory holds 4 GiB at most, and a page should not take much of it.
#[cfg(not(target_family = "wasm"))]
pub fn max_hash_mb() -> usize {
    available_bytes().map_or(MAX_HASH_MB, |bytes| {
        let mb = usize::try_from(bytes / (1 << 20)).unwrap_or(usize::MAX);
        (mb / 4 * 3).clamp(DEFAULT_HASH_MB, MAX_HASH_MB)
    })
}

/// Bytes of memory a new allocation can take without swapping, if the
/// system says.
#[cfg(not(target_family = "wasm"))]
fn available_bytes() -> Option<u64> {
    if !sysinfo::IS_SUPPORTED_SYSTEM {
        return None;
    }
    let mut system = sysinfo::System::new();
    system.refresh_memory_specifics(sysinfo::MemoryRefreshKind::nothing().with_ram());
    // sysinfo reports 0 when it could not read the figure; that is no
    // reason to refuse every table larger than the default.
    let machine = Some(system.available_memory()).filter(|&b| b > 0)?;
    // A container's limit counts only where it is one: lower than the
    // machine's memory (sysinfo asserts the total was read before).
    let total = system.total_memory();
    let container = (total > 0)
        .then(|| system.cgroup_limits())
        .flatten()
        .filter(|c| c.total_memory < total)
        .map(|c| c.free_memory);
    Some(container.map_or(machine, |c| machine.min(c)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_lies_between_the_default_and_the_maximum() {
        let cap = max_hash_mb();
        assert!((DEFAULT_HASH_MB..=MAX_HASH_MB).contains(&cap), "{cap}");
    }

    #[test]
    fn this_system_reports_its_memory() {
        // Linux, Windows and macOS all do; a `None` here would mean the
        // clamp silently fell back to the maximum.
        assert!(available_bytes().is_some_and(|b| b > 0));
    }
}

/// The largest hash table in a WebAssembly build (MB).
#[cfg(target_family = "wasm")]
pub const WASM_MAX_HASH_MB: usize = 256;

/// The largest hash table in a WebAssembly build: [`WASM_MAX_HASH_MB`].
#[cfg(target_family = "wasm")]
pub fn max_hash_mb() -> usize {
    WASM_MAX_HASH_MB
}
