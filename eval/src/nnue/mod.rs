//! The neural-network evaluation (NNUE): an efficiently updatable network
//! over piece-on-point features, trained by `shuai-tools train` from
//! Shuai's own games.
//!
//! - [`features`]: which inputs a position switches on.
//! - [`network`]: the quantised network, its arithmetic and file format
//!   (with output buckets by material, [`output_bucket`]).
//! - [`accumulator`]: the fast path: accumulators updated move by move
//!   ([`Accumulator::update`]) and evaluated with AVX2 when the processor
//!   has it ([`evaluate`]); bit for bit the reference
//!   [`Network::evaluate`].
//! - [`default_network`]: the network built into the engine
//!   (`eval/nets/default.nnue`).
//!
//! # Speed
//!
//! In instructions per call (callgrind, the embedded network, the
//! benchmark's 400 sample positions, AVX2; `examples/nnue_cost.rs` says
//! how to repeat it), December 2026:
//!
//! | operation | instructions |
//! |---|---|
//! | refresh, both perspectives (about 22 pieces) | 3,780 |
//! | update for a quiet move, both perspectives | 225 |
//! | update for a capture, both perspectives | 320 |
//! | output layer (rounded SCReLU and dot product) | 279 |
//! | the hand-written evaluation, for comparison | 2,460 |
//!
//! Output buckets (format version 3) cost a table lookup on the piece
//! count the accumulator keeps: callgrind, the embedded network, about 17
//! instructions more for the output layer and 6 to 8 more for an update
//! than before buckets, whatever the number of buckets.
//!
//! In the search (`shuai bench 7`, the placeholder network) an evaluation
//! with the network costs about 660 instructions all told (1.2 lazy
//! updates per evaluation, the output layer and the bookkeeping), a
//! quarter of the hand-written one; the search's cost per node falls from
//! 6,690 to 4,630 instructions.

pub mod accumulator;
mod embedded;
pub mod features;
pub mod network;
mod simd;
#[cfg(test)]
pub(crate) mod test_support;

pub use accumulator::{evaluate, Accumulator, Change};
pub use embedded::{default_network, shared_default_network, DEFAULT_NETWORK_BYTES};
pub use features::{active_features, feature_index, INPUTS};
pub use network::{
    output_bucket, squared_activation, Network, NetworkError, HIDDEN, MAX_OUTPUT_BUCKETS,
    OUTPUT_SCALE, QB, QFT, SCALE, SQUARE_DIVISOR,
};
