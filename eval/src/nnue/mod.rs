//! The neural-network evaluation (NNUE): an efficiently updatable network
//! over piece-on-point features, trained by `shuai-tools train` from
//! Shuai's own games.
//!
//! - [`features`]: which inputs a position switches on, optionally by
//!   the own king's point ([`KingBuckets`]).
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
//! In instructions per call (callgrind, the benchmark's 400 sample
//! positions, AVX2; `examples/nnue_cost.rs` says how to repeat it): the
//! embedded network, and a network of six mirrored king buckets
//! (`random:mirrored6`; the cost does not depend on the weights),
//! December 2026:
//!
//! | operation | no king buckets | 6 king buckets |
//! |---|---|---|
//! | refresh, both perspectives (about 22 pieces) | 2,530 | 2,550 |
//! | update for a quiet move (not the king's), both perspectives | 230 | 304 |
//! | update for a capture, both perspectives | 323 | 392 |
//! | update for a king move (with buckets: one side recomputed) | 230 | 1,680 |
//! | output layer (rounded SCReLU and dot product) | 340 | 340 |
//! | the hand-written evaluation, for comparison | 2,520 | |
//!
//! A refresh sums each chunk of 128 values over all the rows in
//! registers ([`Accumulator::refresh`]); it cost 3,850 when it added one
//! row at a time through memory (the same build measured the updates and
//! the output layer as above). With king buckets an update also copies
//! and changes the board the accumulator carries (about 70 instructions),
//! and a king move that changes its side's bucket or mirroring recomputes
//! that side from it. Stockfish keeps a cache of accumulators per king
//! bucket ("finny tables") to make that recomputation an update from the
//! cached board; it would need a cache per search thread, which the
//! accumulator alone cannot hold, and is not done.
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
pub use features::{
    active_features, active_features_with, feature_index, KingBuckets, View, INPUTS,
    MAX_KING_BUCKETS, PALACE_POINTS,
};
pub use network::{
    output_bucket, squared_activation, Network, NetworkError, NetworkParts, FORMAT_VERSION,
    FORMAT_VERSION_KING_BUCKETS, FORMAT_VERSION_ONE_BUCKET, HIDDEN, MAX_HIDDEN, MAX_OUTPUT_BUCKETS,
    OUTPUT_SCALE, QB, QFT, SCALE, SQUARE_DIVISOR,
};
