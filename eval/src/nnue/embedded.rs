//! The network built into the engine: `eval/nets/default.nnue`, embedded
//! at compile time and parsed on first use.

use super::network::Network;
use std::sync::{Arc, OnceLock};

/// The bytes of `eval/nets/default.nnue`.
pub static DEFAULT_NETWORK_BYTES: &[u8] = include_bytes!("../../nets/default.nnue");

static DEFAULT: OnceLock<Arc<Network>> = OnceLock::new();

/// The embedded network, parsed once (the first call takes about a
/// millisecond).
///
/// # Panics
/// Never in a tested build: the file is part of the source, and the
/// tests parse it.
pub fn default_network() -> &'static Network {
    shared_default_network_ref()
}

/// The embedded network as a shared handle, for holders of an
/// `Arc<Network>` such as the searcher (no copy: the same network each
/// time).
pub fn shared_default_network() -> Arc<Network> {
    Arc::clone(shared_default_network_ref())
}

fn shared_default_network_ref() -> &'static Arc<Network> {
    DEFAULT.get_or_init(|| {
        let net = Network::from_bytes(DEFAULT_NETWORK_BYTES)
            .unwrap_or_else(|e| panic!("eval/nets/default.nnue is not a valid network: {e}"));
        Arc::new(net)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::test_support::random_network;
    use crate::nnue::{evaluate, Accumulator};
    use shuai_board::Position;

    #[test]
    fn the_embedded_network_is_valid() {
        let net = default_network();
        assert_eq!(net.to_bytes(), DEFAULT_NETWORK_BYTES);
        assert!(!net.description().is_empty());
        assert!(std::ptr::eq(net, default_network()));
        assert!(std::ptr::eq(net, &*shared_default_network()));
        let pos = Position::startpos();
        let acc = Accumulator::new(net, &pos);
        assert_eq!(evaluate(net, &acc, pos.side_to_move()), net.evaluate(&pos));
    }

    /// Writes the placeholder network: small random weights, not trained,
    /// so that everything builds and runs until `shuai-tools train`
    /// delivers a real one. `cargo test -p shuai-eval -- --ignored
    /// write_placeholder_network` rewrites `eval/nets/default.nnue`.
    #[test]
    #[ignore = "writes eval/nets/default.nnue"]
    fn write_placeholder_network() {
        let net = random_network(0x5348_5541_4931);
        let net = Network::from_parts(
            net.ft_weights.iter().flat_map(|r| r.0).collect(),
            net.ft_bias.0.to_vec(),
            net.out_weights.iter().flat_map(|r| r.0).collect(),
            net.out_bias,
            "PLACEHOLDER: small random weights, not trained (written by \
             eval/src/nnue/embedded.rs, write_placeholder_network); \
             (1260->256)x2->SCReLU->1",
        )
        .expect("parameters of the right sizes");
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/nets/default.nnue");
        std::fs::write(path, net.to_bytes()).expect("eval/nets is writable");
    }
}
