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

    /// The embedded network's evaluations, pinned: the reference and the
    /// incremental path over the benchmark's 400 sample positions and
    /// along a random game from each, hashed. Any change to the inference
    /// (a feature index, a rounding, the file reader) that alters even
    /// one evaluation of the embedded network changes the hash.
    #[test]
    fn the_embedded_network_evaluates_as_pinned() {
        use crate::nnue::test_support::{common, Rng};
        use crate::nnue::Change;
        let net = default_network();
        let mut h = crate::fnv1a(std::iter::empty());
        let mut mix = |v: i32| {
            for b in v.to_le_bytes() {
                h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
            }
        };
        let mut rng = Rng::new(5);
        let mut sum = 0i64;
        for pos in common::sample_positions(400) {
            let e = net.evaluate(&pos);
            sum += i64::from(e);
            mix(e);
            let mut pos = pos;
            let mut acc = Accumulator::new(net, &pos);
            for _ in 0..6 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves.as_slice()[rng.index(moves.len())];
                let mut child = Accumulator::default();
                child.update(&acc, net, &Change::of_move(&pos, m).unwrap());
                pos.make_move(m);
                acc = child;
                mix(evaluate(net, &acc, pos.side_to_move()));
            }
        }
        assert_eq!((h, sum), (0xda64_cb14_34c9_e359, 5918), "{h:#018x} {sum}");
    }

    #[test]
    fn the_embedded_network_is_trained() {
        // A random network has no idea that a rook is worth much; the
        // trained one gives the side with an extra rook a clear lead, from
        // either side's point of view.
        let net = default_network();
        let no_black_rook = Position::from_fen(
            "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        )
        .unwrap();
        let no_red_rook = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR b - - 0 1",
        )
        .unwrap();
        let (a, b) = (net.evaluate(&no_black_rook), net.evaluate(&no_red_rook));
        assert!(a > 300 && b > 300, "{a} {b}");
        let start = net.evaluate(&Position::startpos());
        assert!(start.abs() < 100, "{start}");
    }
}
