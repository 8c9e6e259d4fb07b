//! The neural-network evaluation (NNUE): an efficiently updatable network
//! over piece-on-point features, trained by `shuai-tools train` from
//! Shuai's own games.
//!
//! - [`features`]: which inputs a position switches on.
//! - [`network`]: the quantised network, its arithmetic and file format.
//! - [`accumulator`]: the fast path: accumulators updated move by move
//!   ([`Accumulator::update`]) and evaluated with AVX2 when the processor
//!   has it ([`evaluate`]); bit for bit the reference
//!   [`Network::evaluate`].
//! - [`default_network`]: the network built into the engine
//!   (`eval/nets/default.nnue`).

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
pub use network::{Network, NetworkError, HIDDEN, QA, QB, SCALE};
