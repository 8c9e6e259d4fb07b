//! The accumulator: the feature transformer's output for both
//! perspectives of one position, kept up to date move by move.
//!
//! A move changes at most three features per perspective (the moved
//! piece leaves one point and reaches another; a captured piece leaves),
//! so a child's accumulator is its parent's minus two or three weight rows
//! plus one: a few hundred instructions instead of the 32-odd rows a
//! refresh adds. Xiangqi has no castling or promotion, so without king
//! buckets no move ever needs a refresh.
//!
//! With king buckets ([`super::KingBuckets`]) a perspective's features
//! depend on its own king's point: a king move that changes that side's
//! [`View`] (its bucket or its mirroring) recomputes that side's
//! accumulator, and every other move, the other side's half of a king
//! move included, is updated as above with the bucketed indices. The
//! recomputation needs the whole board, which [`Accumulator::update`] is
//! not given (the search updates lazily, several plies at once, holding
//! only the last position), so an accumulator of a king-bucketed network
//! carries the board along: 90 bytes and an occupancy set, copied and
//! changed by two points with each update. A network without king buckets
//! never touches them.
//!
//! The accumulator also keeps the number of pieces besides the kings,
//! which picks the network's output bucket: a capture takes one off, so
//! evaluating never has to count the board. (Counting the occupied points
//! at every evaluation, with no popcount instruction on the baseline
//! x86-64 target, made the output layer about 50 instructions dearer than
//! this, callgrind.)

use super::features::{feature_index, View, INPUTS};
use super::network::{pieces_besides_kings, Network, HIDDEN};
use super::simd;
use shuai_board::{Color, Move, Piece, PieceKind, Position, Square, SQUARES};
use std::fmt;

/// One perspective's values, aligned for 256-bit loads and stores.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(32))]
struct Half([i16; HIDDEN]);

/// The board as a king-bucketed network's accumulator keeps it: enough to
/// recompute one perspective after a king move.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Board {
    /// The occupied points, bit `i % 64` of word `i / 64` for point `i`, to
    /// visit the pieces without scanning 90 points. Two words rather than
    /// a [`Bitboard`]: setting and clearing a bit of a `u128` at a
    /// variable point costs about three times the instructions, and every
    /// update does it twice.
    occupied: [u64; 2],
    /// By point: 0 for an empty point, else [`Piece::index`] + 1.
    pieces: [u8; SQUARES],
}

/// The pieces by [`Piece::index`], to turn a [`Board`] code back into a
/// piece.
const PIECES_BY_INDEX: [Piece; 14] = {
    let mut t = [Piece::new(Color::Red, PieceKind::King); 14];
    let mut i = 0;
    while i < 14 {
        let color = if i < 7 { Color::Red } else { Color::Black };
        t[i] = Piece::new(color, PieceKind::ALL[i % 7]);
        i += 1;
    }
    t
};

impl Default for Board {
    /// The empty board.
    fn default() -> Board {
        Board {
            occupied: [0; 2],
            pieces: [0; SQUARES],
        }
    }
}

impl Board {
    /// Plays `change` on the board.
    #[inline]
    fn apply(&mut self, change: &Change) {
        let (from, to) = (change.from.index(), change.to.index());
        // `& 1`: a point is below 90, so its word is 0 or 1 (and the
        // compiler needs no bounds check).
        self.occupied[(from >> 6) & 1] &= !(1 << (from & 63));
        self.occupied[(to >> 6) & 1] |= 1 << (to & 63);
        self.pieces[from] = 0;
        self.pieces[to] = change.piece.index() as u8 + 1;
    }

    /// Calls `f` with each piece and its point, in the order of the points.
    #[inline]
    fn for_each(&self, mut f: impl FnMut(Piece, Square)) {
        for (w, &word) in self.occupied.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let i = 64 * w + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let code = usize::from(self.pieces.get(i).copied().unwrap_or(0));
                if let (Some(sq), true) = (Square::from_index(i), code != 0) {
                    f(PIECES_BY_INDEX[(code - 1) % 14], sq);
                }
            }
        }
    }
}

/// The active features of one perspective, collected so that
/// [`simd::sum_rows`] can add their rows in one pass.
struct Features {
    /// Room for a piece on every point (no position has more than 32,
    /// but a made-up board should not panic).
    list: [u16; SQUARES],
    len: usize,
}

impl Features {
    #[inline(always)]
    fn new() -> Features {
        Features {
            list: [0; SQUARES],
            len: 0,
        }
    }

    #[inline(always)]
    fn push(&mut self, f: usize) {
        if let Some(slot) = self.list.get_mut(self.len) {
            // Every feature index is below 9 × 1260 < 2^16.
            *slot = f as u16;
            self.len += 1;
        }
    }

    #[inline(always)]
    fn as_slice(&self) -> &[u16] {
        &self.list[..self.len.min(SQUARES)]
    }
}

/// Both perspectives' accumulators of one position (Red's and Black's),
/// as [`Network::refresh`] computes them, and the position's number of
/// pieces besides the kings.
///
/// For a network with king buckets it also keeps each perspective's
/// [`View`] and the board (see the module's notes); for a network without,
/// those stay as [`Accumulator::refresh`] left them (empty), so that two
/// accumulators of the same network compare equal exactly when their
/// values and piece counts do.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Accumulator {
    /// Indexed by [`Color::index`].
    halves: [Half; 2],
    /// Pieces on the board besides the two kings (0 to 30): they choose
    /// the output bucket.
    pieces: u8,
    /// King buckets only: how each perspective reads the board, by
    /// [`Color::index`].
    views: [View; 2],
    /// King buckets only: the position's board.
    board: Board,
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
            views: [View::default(); 2],
            board: Board::default(),
        }
    }
}

/// Whether feature `f` is a king (of either side), from its index
/// `bucket × INPUTS + (relation × 7 + kind) × 90 + point`.
fn is_king_feature(f: usize) -> bool {
    (f % INPUTS / SQUARES) % 7 == PieceKind::King.index()
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
        // One pass over the board for both perspectives' features (and,
        // with king buckets, the board the accumulator keeps): the pass
        // costs as much as adding the rows, callgrind.
        let views = Color::ALL.map(|p| net.view(p, pos.king_square(p)));
        let mut features = [Features::new(), Features::new()];
        let mut board = Board::default();
        for sq in pos.occupied() {
            if let Some(piece) = pos.piece_at(sq) {
                features[0].push(views[0].index(piece, sq));
                features[1].push(views[1].index(piece, sq));
                board.pieces[sq.index()] = piece.index() as u8 + 1;
            }
        }
        if net.king.is_none() {
            self.views = [View::default(); 2];
            self.board = Board::default();
        } else {
            let bits = pos.occupied().bits();
            board.occupied = [bits as u64, (bits >> 64) as u64];
            self.views = views;
            self.board = board;
        }
        for p in Color::ALL {
            simd::sum_rows(
                &mut self.halves[p.index()].0,
                &net.ft_bias,
                &net.ft_weights,
                features[p.index()].as_slice(),
            );
        }
    }

    /// Recomputes `perspective`'s values of a king-bucketed network from
    /// the board and view the accumulator holds. Kept out of line: inlined
    /// into [`Accumulator::update`], it made every update dearer (about 50
    /// instructions more for a quiet move, callgrind) to speed up the rare
    /// king move.
    #[inline(never)]
    fn refresh_half(&mut self, net: &Network, perspective: Color) {
        let i = perspective.index();
        let view = self.views[i];
        let mut features = Features::new();
        self.board
            .for_each(|piece, sq| features.push(view.index(piece, sq)));
        simd::sum_rows(
            &mut self.halves[i].0,
            &net.ft_bias,
            &net.ft_weights,
            features.as_slice(),
        );
    }

    /// How `perspective` reads the board: its king bucket and mirroring
    /// ([`View::default`] for a network without king buckets).
    pub fn view(&self, perspective: Color) -> View {
        self.views[perspective.index()]
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
    /// from the position of `parent`. With king buckets, a king move that
    /// changes its side's view recomputes that side's values.
    #[inline]
    pub fn update(&mut self, parent: &Accumulator, net: &Network, change: &Change) {
        // No legal move captures a king, so a capture is one piece fewer
        // (saturating, so a made-up change cannot wrap the count).
        self.pieces = parent
            .pieces
            .saturating_sub(u8::from(change.captured.is_some()));
        if !net.king.is_none() {
            self.update_king_buckets(parent, net, change);
            return;
        }
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

    /// [`Accumulator::update`] for a network with king buckets (the piece
    /// count already set).
    fn update_king_buckets(&mut self, parent: &Accumulator, net: &Network, change: &Change) {
        self.board = parent.board;
        self.board.apply(change);
        self.views = parent.views;
        let mover = change.piece.color();
        if change.piece.kind() == PieceKind::King {
            self.views[mover.index()] = net.view(mover, change.to);
        }
        for p in Color::ALL {
            let view = self.views[p.index()];
            if view != parent.views[p.index()] {
                self.refresh_half(net, p);
                continue;
            }
            let out = &mut self.halves[p.index()].0;
            let parent = &parent.halves[p.index()].0;
            let row = |piece, sq| &net.ft_weights[view.index(piece, sq)];
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
    /// calling it for both perspectives counts them once). The features
    /// are indices into the network's feature transformer (bucketed, for
    /// a king-bucketed network); the view and board a king-bucketed
    /// network's accumulator keeps are copied from `parent` unchanged, so
    /// [`Accumulator::update`] after this call needs a `parent` whose
    /// board it describes.
    ///
    /// # Panics
    /// Panics if a feature is not below the network's feature count
    /// ([`INPUTS`] times its king buckets).
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
        self.views = parent.views;
        self.board = parent.board;
        let i = perspective.index();
        let half = &mut self.halves[i].0;
        *half = parent.halves[i].0;
        let inputs = net.ft_weights.len();
        for &f in removed {
            assert!(f < inputs, "feature {f} out of range");
            simd::sub(half, &net.ft_weights[f]);
        }
        for &f in added {
            assert!(f < inputs, "feature {f} out of range");
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
    use crate::nnue::network::Row;
    use crate::nnue::test_support::{
        common, random_bucketed_network, random_king_network, random_network, Rng,
    };
    use crate::nnue::KingBuckets;

    /// A random game from the start position (captures preferred half the
    /// time, so the board empties out), as its moves.
    fn random_game(rng: &mut Rng) -> Vec<Move> {
        random_game_with_kings(rng, 0)
    }

    /// [`random_game`] with a king move, when one is legal, `king_moves`
    /// times in 8 (so the kings visit their whole palaces).
    fn random_game_with_kings(rng: &mut Rng, king_moves: usize) -> Vec<Move> {
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        for _ in 0..150 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let kings: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| pos.piece_at(m.from()).map(|p| p.kind()) == Some(PieceKind::King))
                .collect();
            let captures = pos.legal_captures();
            // `king_moves > 0` first: with none asked for, the games are
            // those of the generator's draws before king moves existed.
            let m = if king_moves > 0 && !kings.is_empty() && rng.index(8) < king_moves {
                kings[rng.index(kings.len())]
            } else if !captures.is_empty() && rng.index(2) == 0 {
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
            random_king_network(6, KingBuckets::MIRRORED_6, 8),
            random_king_network(7, KingBuckets::POINTS_9, 1),
        ];
        let mut rng = Rng::new(17);
        let mut checked = 0;
        let mut buckets_seen = [false; 8];
        for _ in 0..8 {
            let mut pos = Position::startpos();
            for m in random_game_with_kings(&mut rng, 2) {
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

    /// The child of `change` from `parent` (whose position is `pos`,
    /// before the move), checked against a refresh of the position after
    /// it; returns whether the update recomputed a perspective (a king
    /// move that changed its view).
    fn check_child(net: &Network, parent: &Accumulator, pos: &mut Position, m: Move) -> bool {
        let change = Change::of_move(pos, m).unwrap();
        let mut child = Accumulator::default();
        child.update(parent, net, &change);
        pos.make_move(m);
        let fresh = Accumulator::new(net, pos);
        assert_eq!(child, fresh, "{} after {m}", pos.to_fen());
        assert_eq!(
            evaluate(net, &child, pos.side_to_move()),
            net.evaluate(pos),
            "{}",
            pos.to_fen()
        );
        pos.unmake_move();
        Color::ALL
            .into_iter()
            .any(|p| child.view(p) != parent.view(p))
    }

    /// With king buckets, at every node of random games that move the
    /// kings often: the child of every capture, every king move and some
    /// quiet moves equals a refresh (a king move that changes its side's
    /// bucket or mirroring recomputes that side; the other side's half is
    /// updated), and so do the accumulators kept on a stack while the
    /// game is taken back. Four layouts: six mirrored buckets, nine
    /// unmirrored, three by rank, and one mirrored bucket (a king move
    /// between d and e changes nothing, between e and f only the
    /// mirroring).
    #[test]
    fn incremental_updates_equal_a_refresh_with_king_buckets() {
        let one_mirrored = KingBuckets::new([0; 9], true).unwrap();
        let layouts = [
            KingBuckets::MIRRORED_6,
            KingBuckets::POINTS_9,
            KingBuckets::MIRRORED_3,
            one_mirrored,
        ];
        let mut rng = Rng::new(41);
        for (n, king) in layouts.into_iter().enumerate() {
            let net = random_king_network(50 + n as u64, king, 4);
            let (mut refreshed, mut kept, mut captures) = (0, 0, 0);
            let mut views_seen = std::collections::HashSet::new();
            for _ in 0..3 {
                let mut pos = Position::startpos();
                let mut stack = vec![Accumulator::new(&net, &pos)];
                for game_move in random_game_with_kings(&mut rng, 3) {
                    let parent = *stack.last().unwrap();
                    for p in Color::ALL {
                        assert_eq!(parent.view(p), net.view(p, pos.king_square(p)));
                        views_seen.insert(parent.view(p));
                    }
                    for &m in pos.legal_moves().iter() {
                        let piece = pos.piece_at(m.from()).unwrap();
                        let capture = pos.piece_at(m.to()).is_some();
                        let king_move = piece.kind() == PieceKind::King;
                        if !capture && !king_move && m != game_move && rng.index(8) != 0 {
                            continue;
                        }
                        let changed = check_child(&net, &parent, &mut pos, m);
                        assert!(king_move || !changed, "only a king move changes a view");
                        match (king_move, changed) {
                            (true, true) => refreshed += 1,
                            (true, false) => kept += 1,
                            _ => captures += usize::from(capture),
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
            }
            let name = king.name();
            assert!(
                refreshed > 100 && captures > 100,
                "{name}: {refreshed} {captures}"
            );
            // Six mirrored buckets: every king move changes the view;
            // with one mirrored bucket, d <-> e moves do not.
            if king == KingBuckets::MIRRORED_6 || king == KingBuckets::POINTS_9 {
                assert_eq!(kept, 0, "{name}");
            }
            if king == one_mirrored || king == KingBuckets::MIRRORED_3 {
                assert!(kept > 20, "{name}: {kept}");
            }
            // Both perspectives, every bucket, mirrored or not where the
            // layout mirrors.
            let want = 2 * (king.count() + if king.mirrored() { 1 } else { 0 });
            assert!(views_seen.len() >= want, "{name}: {views_seen:?}");
        }
    }

    /// The network that scores the left-right mirror of every position as
    /// `net` scores the position: each feature row moved to the feature of
    /// the mirrored piece in the view of the mirrored king. With mirrored
    /// layouts a king on d or f already reads the board the same either
    /// way, so only the rows of a king on e move; with `POINTS_9` the
    /// buckets of d and f swap too. Built point by point through
    /// [`KingBuckets::view`], checking that no row is asked to be two
    /// things.
    fn mirrored_network(net: &Network) -> Network {
        let king = net.king_buckets();
        let mut rows: Vec<Option<Row>> = vec![None; net.ft_weights.len()];
        for k in Square::all().filter(|s| s.in_palace(Color::Red)) {
            let (from, to) = (king.view(Color::Red, k), king.view(Color::Red, k.mirror()));
            for piece in Color::ALL
                .into_iter()
                .flat_map(|c| PieceKind::ALL.map(|k| Piece::new(c, k)))
            {
                for sq in Square::all() {
                    let row = net.ft_weights[from.index(piece, sq)];
                    let slot = &mut rows[to.index(piece, sq.mirror())];
                    assert!(
                        slot.is_none_or(|r| r == row),
                        "a row asked to be two things"
                    );
                    *slot = Some(row);
                }
            }
        }
        let ft: Vec<i16> = rows.iter().flat_map(|r| r.unwrap().0).collect();
        let out: Vec<i16> = net.out_weights.iter().flatten().flat_map(|r| r.0).collect();
        Network::from_parts_with_king_buckets(
            king,
            ft,
            net.ft_bias.0.to_vec(),
            out,
            net.out_bias.clone(),
            "mirrored",
        )
        .unwrap()
    }

    /// A position mirrored left to right (file a <-> i) evaluates as the
    /// position does with the mirrored network, by refresh and along the
    /// mirrored game by updates; with mirrored buckets, a position whose
    /// kings both stand off file e evaluates the same as its mirror with
    /// the network itself (each side mirrors the board onto file d), and
    /// with a king on e it does not.
    #[test]
    fn a_mirrored_position_evaluates_identically_with_the_mirrored_network() {
        let mut rng = Rng::new(43);
        for (n, king) in [
            KingBuckets::MIRRORED_6,
            KingBuckets::POINTS_9,
            KingBuckets::NONE,
        ]
        .into_iter()
        .enumerate()
        {
            let net = random_king_network(60 + n as u64, king, 4);
            let twin = mirrored_network(&net);
            assert_ne!(twin.hash(), net.hash());
            let (mut off_centre, mut centre_differs) = (0, 0);
            let mut pos = Position::startpos();
            let mut mirror = Position::startpos();
            let mut accs = (
                Accumulator::new(&net, &pos),
                Accumulator::new(&twin, &mirror),
            );
            for m in random_game_with_kings(&mut rng, 3) {
                let mm = mirror.parse_move(&mirror_move(&m.to_string())).unwrap();
                let mut next = (Accumulator::default(), Accumulator::default());
                next.0
                    .update(&accs.0, &net, &Change::of_move(&pos, m).unwrap());
                next.1
                    .update(&accs.1, &twin, &Change::of_move(&mirror, mm).unwrap());
                pos.make_move(m);
                mirror.make_move(mm);
                accs = next;
                let fen = pos.to_fen();
                let flipped = Position::from_fen(&common::mirror(&fen)).unwrap();
                let board =
                    |p: &Position| p.to_fen().split(' ').take(2).collect::<Vec<_>>().join(" ");
                assert_eq!(board(&flipped), board(&mirror), "{fen}");
                let e = net.evaluate(&pos);
                assert_eq!(twin.evaluate(&mirror), e, "{fen}");
                let stm = pos.side_to_move();
                assert_eq!(evaluate(&net, &accs.0, stm), e, "{fen}");
                assert_eq!(evaluate(&twin, &accs.1, stm), e, "{fen}");
                if king == KingBuckets::MIRRORED_6 {
                    let on_e = |p: &Position, c| p.king_square(c).file().index() == 4;
                    if !on_e(&pos, Color::Red) && !on_e(&pos, Color::Black) {
                        assert_eq!(net.evaluate(&mirror), e, "{fen}");
                        off_centre += 1;
                    } else if net.evaluate(&mirror) != e {
                        centre_differs += 1;
                    }
                }
            }
            if king == KingBuckets::MIRRORED_6 {
                assert!(
                    off_centre > 10 && centre_differs > 10,
                    "{off_centre} {centre_differs}"
                );
            }
        }
    }

    /// A move in coordinates (`h2e2`) mirrored left to right (`b2e2`).
    fn mirror_move(m: &str) -> String {
        m.chars()
            .map(|c| match c {
                'a'..='i' => (b'a' + b'i' - c as u8) as char,
                _ => c,
            })
            .collect()
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
