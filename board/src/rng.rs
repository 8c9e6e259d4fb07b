//! The project's one random number generator (SplitMix64): Zobrist keys,
//! test data, the engine's move choice, match openings, training data
//! order and network initialisation all draw from it.
//!
//! Matches, data and networks must be reproducible from a seed on every
//! platform and with every dependency version, so the project carries its
//! own generator instead of relying on an external crate's stream. It lives
//! in the board crate because every other crate depends on it.

/// One step of SplitMix64 from `state`: the next state and the value. A
/// `const fn`, so tables built at compile time (the Zobrist keys) use the
/// same generator.
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// SplitMix64: 64 bits of state, passes BigCrush, and one seed gives the
/// same stream everywhere.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// A generator seeded from the clock and the process id (for play,
    /// where every game should differ).
    ///
    /// On WebAssembly, which has neither (both panic there), it is a fixed
    /// seed: the host seeds the engine itself (`Engine::set_seed`).
    #[cfg(not(target_family = "wasm"))]
    pub fn from_clock() -> Rng {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        Rng::new(nanos ^ u64::from(std::process::id()).rotate_left(32))
    }

    /// A generator seeded from the clock and the process id (for play,
    /// where every game should differ).
    ///
    /// On WebAssembly, which has neither (both panic there), it is a fixed
    /// seed: the host seeds the engine itself (`Engine::set_seed`).
    #[cfg(target_family = "wasm")]
    pub fn from_clock() -> Rng {
        Rng::new(0x5348_5541_4900_0001)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let (state, value) = splitmix64(self.state);
        self.state = state;
        value
    }

    /// A uniform integer in `0..n` (`n > 0`), without modulo bias.
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "Rng::below(0)");
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % n;
            }
        }
    }

    /// A uniform index in `0..n` (`n > 0`).
    pub fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }

    /// A uniform element of `items` (not empty).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.index(items.len())]
    }

    /// A uniform float in `[0, 1)` (24 random bits).
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Shuffles `items` in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_stream() {
        // Reference values of SplitMix64 from seed 0.
        let mut r = Rng::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn shuffle_is_a_permutation_and_reproducible() {
        let mut a: Vec<u32> = (0..100).collect();
        let mut b = a.clone();
        Rng::new(7).shuffle(&mut a);
        Rng::new(7).shuffle(&mut b);
        assert_eq!(a, b);
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, (0..100).collect::<Vec<_>>());
        assert_ne!(a, sorted);
    }
}
