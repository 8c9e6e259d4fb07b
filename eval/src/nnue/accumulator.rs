//! The accumulator: the feature transformer's output for both
//! perspectives of one position, kept up to date move by move.
//!
//! A move changes at most three features per perspective (the moved
//! piece leaves one point and reaches another; a captured piece leaves),
//! so a child's accumulator is its parent's minus two or three weight rows
//! plus one: a few hundred instructions instead of the 32-odd rows a
//! refresh adds. Xiangqi has no castling or promotion, and the features do
//! not depend on the king's point, so no move ever needs a refresh.
//!
//! The accumulator also keeps the number of pieces besides the kings,
//! which picks the network's output bucket: a capture takes one off, so
//! evaluating never has to count the board. (Counting the occupied points
//! at every evaluation, with no popcount instruction on the baseline
//! x86-64 target, made the output layer about 50 instructions dearer than
//! this, callgrind.)

use super::features::{active_features, feature_index, INPUTS};
use super::network::{pieces_besides_kings, Network, HIDDEN};
use super::simd;
use shuai_board::{Color, Move, Piece, PieceKind, Position, Square, SQUARES};
use std::fmt;

/// One perspective's values, aligned for 256-bit loads and stores.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(32))]
struct Half([i16; HIDDEN]);

/// Both perspectives' accumulators of one position (Red's and Black's),
/// as [`Network::refresh`] computes them, and the position's number of
/// pieces besides the kings.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Accumulator {
    /// Indexed by [`Color::index`].
    halves: [Half; 2],
    /// Pieces on the board besides the two kings (0 to 30): they choose
    /// the output bucket.
    pieces: u8,
}

impl fmt::Debug for Accumulator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Accumulator")
            .field("red", &&self.halves[0].0[..4])
            .field("black", &&self.halves[1].0[..4])
            .field("pieces", &self.pieces)
            .finish_non_exhaustive()
    }
}

impl Default for Accumulator {
    /// All zeros: a placeholder to be refreshed or updated before use.
    fn default() -> Accumulator {
        Accumulator {
            halves: [Half([0; HIDDEN]); 2],
            pieces: 0,
        }
    }
}

/// Whether feature `f` is a king (of either side), from its index
/// `(relation × 7 + kind) × 90 + point`.
fn is_king_feature(f: usize) -> bool {
    (f / SQUARES) % 7 == PieceKind::King.index()
}

impl Accumulator {
    /// The accumulators of `pos`, computed from scratch.
    pub fn new(net: &Network, pos: &Position) -> Accumulator {
        let mut acc = Accumulator::default();
        acc.refresh(net, pos);
        acc
    }

    /// Recomputes both perspectives from scratch for `pos`.
    pub fn refresh(&mut self, net: &Network, pos: &Position) {
        self.pieces = pieces_besides_kings(pos);
        for p in Color::ALL {
            let half = &mut self.halves[p.index()].0;
            *half = net.ft_bias.0;
            for f in active_features(pos, p) {
                simd::add(half, &net.ft_weights[f]);
            }
        }
    }

    /// The values seen from `perspective`.
    pub fn values(&self, perspective: Color) -> &[i16; HIDDEN] {
        &self.halves[perspective.index()].0
    }

    /// The position's pieces besides the two kings, which choose the
    /// output bucket ([`Network::bucket_of`] counts the same from a
    /// position).
    pub fn pieces(&self) -> u8 {
        self.pieces
    }

    /// Sets `self` to the accumulators of the position `change` leads to
    /// from the position of `parent`.
    #[inline]
    pub fn update(&mut self, parent: &Accumulator, net: &Network, change: &Change) {
        // No legal move captures a king, so a capture is one piece fewer
        // (saturating, so a made-up change cannot wrap the count).
        self.pieces = parent
            .pieces
            .saturating_sub(u8::from(change.captured.is_some()));
        for p in Color::ALL {
            let out = &mut self.halves[p.index()].0;
            let parent = &parent.halves[p.index()].0;
            let row = |piece, sq| &net.ft_weights[feature_index(p, piece, sq)];
            let from = row(change.piece, change.from);
            let to = row(change.piece, change.to);
            match change.captured {
                None => simd::sub_add(out, parent, from, to),
                Some(c) => simd::sub_sub_add(out, parent, from, row(c, change.to), to),
            }
        }
    }

    /// Sets `perspective`'s values to `parent`'s with the features
    /// `removed` switched off and `added` switched on (any numbers of
    /// each; [`Accumulator::update`] is the faster path for a move), and
    /// the piece count to `parent`'s with the pieces added and removed (so
    /// calling it for both perspectives counts them once).
    ///
    /// # Panics
    /// Panics if a feature is not below [`INPUTS`].
    pub fn update_features(
        &mut self,
        parent: &Accumulator,
        net: &Network,
        perspective: Color,
        removed: &[usize],
        added: &[usize],
    ) {
        let non_kings = |fs: &[usize]| fs.iter().filter(|&&f| !is_king_feature(f)).count();
        let pieces = usize::from(parent.pieces) + non_kings(added);
        self.pieces = pieces.saturating_sub(non_kings(removed)).min(255) as u8;
        let i = perspective.index();
        let half = &mut self.halves[i].0;
        *half = parent.halves[i].0;
        for &f in removed {
            assert!(f < INPUTS, "feature {f} out of range");
            simd::sub(half, &net.ft_weights[f]);
        }
        for &f in added {
            assert!(f < INPUTS, "feature {f} out of range");
            simd::add(half, &net.ft_weights[f]);
        }
    }
}

/// The network's evaluation of the position whose accumulators are `acc`,
/// in centipawns from `side_to_move`'s point of view: the same number as
/// [`Network::evaluate`], without recomputing the accumulators. The
/// output bucket comes from the piece count the accumulator keeps.
#[inline]
pub fn evaluate(net: &Network, acc: &Accumulator, side_to_move: Color) -> i32 {
    let bucket = net.bucket_for(acc.pieces);
    let sum = simd::screlu_dot(
        acc.values(side_to_move),
        acc.values(side_to_move.opponent()),
        &net.out_weights[bucket],
    );
    net.scale_output(sum, bucket)
}

/// What a move changes on the board, enough to update an accumulator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    /// The piece that moves.
    pub piece: Piece,
    /// Where it stood.
    pub from: Square,
    /// Where it goes.
    pub to: Square,
    /// The piece standing on `to` before the move, if any.
    pub captured: Option<Piece>,
}

impl Change {
    /// The change `m` would make in `pos` (before it is played); `None`
    /// when no piece stands on its from point.
    pub fn of_move(pos: &Position, m: Move) -> Option<Change> {
        Some(Change {
            piece: pos.piece_at(m.from())?,
            from: m.from(),
            to: m.to(),
            captured: pos.piece_at(m.to()),
        })
    }

    /// The change the last move played in `pos` made; `None` when no move
    /// was played or the last was a null move.
    pub fn last_move(pos: &Position) -> Option<Change> {
        let m = pos.last_move().filter(|m| !m.is_null())?;
        Some(Change {
            piece: pos.piece_at(m.to())?,
            from: m.from(),
            to: m.to(),
            captured: pos.last_captured(),
        })
    }

    /// The features the move switches off and on from `perspective`: the
    /// moved piece on `from` (and the captured piece) off, the moved piece
    /// on `to` on.
    pub fn features(&self, perspective: Color) -> (Vec<usize>, [usize; 1]) {
        let mut removed = vec![feature_index(perspective, self.piece, self.from)];
        removed.extend(
            self.captured
                .map(|c| feature_index(perspective, c, self.to)),
        );
        (removed, [feature_index(perspective, self.piece, self.to)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::test_support::{random_bucketed_network, random_network, Rng};

    /// A random game from the start position (captures preferred half the
    /// time, so the board empties out), as its moves.
    fn random_game(rng: &mut Rng) -> Vec<Move> {
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        for _ in 0..150 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let captures = pos.legal_captures();
            let m = if !captures.is_empty() && rng.index(2) == 0 {
                captures.as_slice()[rng.index(captures.len())]
            } else {
                legal.as_slice()[rng.index(legal.len())]
            };
            pos.make_move(m);
            moves.push(m);
        }
        moves
    }

    /// A network whose output weights use the whole i16 range.
    fn wide_output_network() -> Network {
        let net = random_network(21);
        let mut out: Vec<i16> = net.out_weights[0].iter().flat_map(|r| r.0).collect();
        out[3] = i16::MAX;
        out[HIDDEN + 5] = i16::MIN;
        let ft: Vec<i16> = net.ft_weights.iter().flat_map(|r| r.0).collect();
        Network::from_parts(ft, net.ft_bias.0.to_vec(), out, net.out_bias, "wide").unwrap()
    }

    #[test]
    fn fast_evaluation_equals_the_reference() {
        // One bucket, the widest weights, and eight buckets (the random
        // games empty the board, so every bucket's row is read).
        let nets = [
            random_network(1),
            random_network(2),
            wide_output_network(),
            random_bucketed_network(3, 8),
        ];
        let mut rng = Rng::new(17);
        let mut checked = 0;
        let mut buckets_seen = [false; 8];
        for _ in 0..8 {
            let mut pos = Position::startpos();
            for m in random_game(&mut rng) {
                pos.make_move(m);
                for net in &nets {
                    let acc = Accumulator::new(net, &pos);
                    for p in Color::ALL {
                        assert_eq!(acc.values(p), &net.refresh(&pos, p));
                    }
                    let stm = pos.side_to_move();
                    let bucket = net.bucket_of(&pos);
                    let generic = simd::screlu_dot_generic(
                        acc.values(stm),
                        acc.values(stm.opponent()),
                        &net.out_weights[bucket],
                    );
                    assert_eq!(bucket, net.bucket_for(acc.pieces()));
                    let fast = evaluate(net, &acc, stm);
                    assert_eq!(fast, net.scale_output(generic, bucket), "{}", pos.to_fen());
                    assert_eq!(fast, net.evaluate(&pos), "{}", pos.to_fen());
                    if net.buckets() == 8 {
                        buckets_seen[bucket] = true;
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{checked}");
        assert_eq!(buckets_seen, [true; 8]);
    }

    /// At every node of random games, the child of every capture and of
    /// some quiet moves (made and unmade), and the game's own move, updated
    /// from the parent equal a refresh; so do the accumulators kept on a
    /// stack while the game is taken back move by move.
    #[test]
    fn incremental_updates_equal_a_refresh_at_every_node() {
        // Eight output buckets: a capture's child is evaluated with the
        // bucket of its own material, not its parent's.
        let net = random_bucketed_network(4, 8);
        let mut rng = Rng::new(29);
        let (mut quiets, mut captures) = (0, 0);
        for _ in 0..8 {
            let mut pos = Position::startpos();
            let mut stack = vec![Accumulator::new(&net, &pos)];
            for game_move in random_game(&mut rng) {
                let parent = *stack.last().unwrap();
                for &m in pos.legal_moves().iter() {
                    let change = Change::of_move(&pos, m).unwrap();
                    if change.captured.is_none() && m != game_move && rng.index(8) != 0 {
                        continue;
                    }
                    let mut child = Accumulator::default();
                    child.update(&parent, &net, &change);
                    pos.make_move(m);
                    assert_eq!(Change::last_move(&pos), Some(change));
                    let fresh = Accumulator::new(&net, &pos);
                    assert_eq!(child, fresh, "{} after {m}", pos.to_fen());
                    let mut by_features = Accumulator::default();
                    for p in Color::ALL {
                        let (removed, added) = change.features(p);
                        assert_eq!(removed.len(), 1 + usize::from(change.captured.is_some()));
                        by_features.update_features(&parent, &net, p, &removed, &added);
                    }
                    assert_eq!(by_features, fresh);
                    assert_eq!(
                        evaluate(&net, &child, pos.side_to_move()),
                        net.evaluate(&pos)
                    );
                    pos.unmake_move();
                    match change.captured {
                        Some(_) => captures += 1,
                        None => quiets += 1,
                    }
                }
                let mut child = Accumulator::default();
                child.update(&parent, &net, &Change::of_move(&pos, game_move).unwrap());
                pos.make_move(game_move);
                stack.push(child);
            }
            while pos.ply_count() > 0 {
                assert_eq!(*stack.last().unwrap(), Accumulator::new(&net, &pos));
                pos.unmake_move();
                stack.pop();
            }
            assert_eq!(stack, [Accumulator::new(&net, &pos)]);
        }
        assert!(captures > 400 && quiets > 2000, "{captures} {quiets}");
    }
}
