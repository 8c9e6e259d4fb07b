//! Helpers for the network's tests: a random network and random games.

use super::features::KingBuckets;
use super::network::{Network, HIDDEN};

#[path = "../../tests/common/mod.rs"]
pub(crate) mod common;

pub(crate) use common::Rng;

/// A one-bucket network with small pseudo-random parameters (the same
/// for the same seed).
pub(crate) fn random_network(seed: u64) -> Network {
    random_bucketed_network(seed, 1)
}

/// A network of `buckets` output buckets with small pseudo-random
/// parameters (the same for the same seed; with one bucket, those of
/// [`random_network`]).
pub(crate) fn random_bucketed_network(seed: u64, buckets: usize) -> Network {
    random_king_network(seed, KingBuckets::NONE, buckets)
}

/// A network with king buckets `king` and `buckets` output buckets, with
/// small pseudo-random parameters (the same for the same seed; with
/// [`KingBuckets::NONE`], those of [`random_bucketed_network`]).
pub(crate) fn random_king_network(seed: u64, king: KingBuckets, buckets: usize) -> Network {
    let mut rng = Rng::new(seed);
    let mut next = move |range: i32| (rng.next_u64() % (2 * range as u64 + 1)) as i32 - range;
    let ft_weights = (0..king.inputs() * HIDDEN)
        .map(|_| next(160) as i16)
        .collect();
    let ft_bias = (0..HIDDEN).map(|_| next(400) as i16).collect();
    // Output weights as the trainer's ±1.98 clip allows at QB = 4096.
    let out_weights = (0..buckets * 2 * HIDDEN)
        .map(|_| next(8110) as i16)
        .collect();
    let out_bias = (0..buckets).map(|_| next(1_000_000)).collect();
    Network::from_parts_with_king_buckets(
        king,
        ft_weights,
        ft_bias,
        out_weights,
        out_bias,
        "random test network",
    )
    .expect("parameters of the right sizes")
}
