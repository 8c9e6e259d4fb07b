//! The neural-network evaluation (NNUE): an efficiently updatable network
//! over piece-on-point features, trained by `shuai-tools train` from
//! Shuai's own games.
//!
//! - [`features`]: which inputs a position switches on.
//! - [`network`]: the quantised network, its arithmetic and file format.

pub mod features;
pub mod network;

pub use features::{active_features, feature_index, INPUTS};
pub use network::{activation, Network, NetworkError, FT_SHIFT, HIDDEN, QA, QB, QFT, SCALE};
