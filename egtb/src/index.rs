//! Compact position indexing per ending.
//!
//! An index is a mixed-radix number with one digit per *group* of pieces:
//!
//! * the two kings together: 45 values. Each king has its 9 palace points
//!   (81 pairs); left-right symmetry maps every pair with Red's king on
//!   files f–i, or on file e with Black's king on files f–i, onto a pair
//!   with both kings on files a–e, leaving 27 + 18 = 45 pairs. When both
//!   kings stand on file e the position and its mirror image share the
//!   king digit, so both are in the index and the smaller index is the
//!   canonical one (the other entry is marked "not a position");
//! * one digit per (colour, kind) with pieces: the set of their points as a
//!   combination of the points that kind may stand on (advisor 5,
//!   elephant 7, pawn 55: files a, c, e, g, i on its own river ranks and all
//!   45 points across the river; rook, horse, cannon 90). Two advisors are
//!   one of C(5,2) = 10 sets, not 25 ordered pairs;
//! * the side to move, the lowest digit.
//!
//! Placements with two pieces on one point, or with the side not to move
//! in check, keep their slot and are marked "not a position": checking
//! them out costs a byte each and keeps the index arithmetic trivial.

use crate::material::{Material, KINDS};
use shuai_board::{Color, File, Piece, PieceKind, Position, PositionBuffer, Rank, Square, SQUARES};

/// A filler point for fixed-size arrays.
const A0: Square = Square::new(File::ALL[0], Rank::ALL[0]);

/// Most non-king pieces of one colour and kind a table indexes (pawns).
const MAX_GROUP: usize = 5;
/// Most pieces a table's position has.
pub(crate) const MAX_PIECES: usize = 32;

/// Most points a kind may stand on (rook, horse, cannon: the whole board).
const MAX_POINTS: usize = SQUARES;

/// C(n, k) for every `n <= MAX_POINTS` and `k <= MAX_GROUP`, built at
/// compile time by Pascal's rule: ranking and unranking a group's points
/// are the generator's innermost arithmetic, and a table look-up is far
/// cheaper than the products and divisions of the formula.
const BINOMIAL: [[usize; MAX_GROUP + 1]; MAX_POINTS + 1] = {
    let mut table = [[0usize; MAX_GROUP + 1]; MAX_POINTS + 1];
    let mut n = 0;
    while n <= MAX_POINTS {
        table[n][0] = 1;
        let mut k = 1;
        while k <= MAX_GROUP {
            if n > 0 {
                table[n][k] = table[n - 1][k - 1] + table[n - 1][k];
            }
            k += 1;
        }
        n += 1;
    }
    table
};

/// The binomial coefficient C(n, k) for the small numbers used here
/// (`n <= 90`, `k <= 5`; zero when `k > n`).
#[inline]
fn binomial(n: usize, k: usize) -> usize {
    BINOMIAL[n][k]
}

/// The points a piece of `color` and `kind` may stand on in a table.
/// Pawns are narrower than the FEN parser's rule: before the river a pawn
/// can only be on its starting files, since it moves only forward there.
pub fn points(color: Color, kind: PieceKind) -> Vec<Square> {
    let piece = Piece::new(color, kind);
    let all = shuai_board::legal_points(piece);
    all.into_iter()
        .filter(|sq| {
            kind != PieceKind::Pawn || !sq.on_own_side(color) || sq.file().index() % 2 == 0
        })
        .collect()
}

/// One digit of the index: the pieces of one colour and kind.
#[derive(Clone)]
struct Group {
    piece: Piece,
    count: usize,
    /// The points this kind may stand on, in board order.
    points: Vec<Square>,
    /// A point's position in `points`, `u8::MAX` where the kind cannot stand.
    slot: [u8; SQUARES],
    /// C(points, count).
    size: usize,
}

impl Group {
    fn new(piece: Piece, count: usize) -> Group {
        let points = points(piece.color(), piece.kind());
        let mut slot = [u8::MAX; SQUARES];
        for (i, sq) in points.iter().enumerate() {
            slot[sq.index()] = i as u8;
        }
        let size = binomial(points.len(), count);
        Group {
            piece,
            count,
            points,
            slot,
            size,
        }
    }

    /// The rank of a set of slots (sorted ascending) among all sets of
    /// `count` slots: the combinatorial number system. Slots are bytes
    /// (a kind has at most 90 points) so that the generator's copies of a
    /// position's slots stay small.
    #[inline]
    fn rank(&self, slots: &[u8]) -> usize {
        slots
            .iter()
            .enumerate()
            .map(|(i, &s)| binomial(s as usize, i + 1))
            .sum()
    }

    /// The slots of rank `r`, ascending, into `out[..count]`.
    fn unrank(&self, mut r: usize, out: &mut [u8]) {
        // The highest slot first: the largest s with C(s, i) <= r, found
        // by bisection (C(s, i) grows with s), below the previous slot.
        let mut above = self.points.len();
        for i in (1..=self.count).rev() {
            let s = if i == 1 {
                r
            } else {
                // C(lo, i) <= r < C(hi, i) throughout.
                let (mut lo, mut hi) = (i - 1, above);
                while hi - lo > 1 {
                    let mid = (lo + hi) / 2;
                    if binomial(mid, i) <= r {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
                lo
            };
            r -= binomial(s, i);
            // Below `points.len()`, at most 90.
            out[i - 1] = s as u8;
            above = s;
        }
    }
}

/// A position's index taken apart, so that the index after a quiet move
/// of any piece but a king costs one group's rank rather than a whole
/// encoding: the generator visits the thirty-odd children of every
/// position, and in most of them the kings have not moved, so neither
/// the king digit nor the orientation changes.
pub(crate) struct QuietChildren<'a> {
    layout: &'a Layout,
    /// The orientations the index is read in: the kings' own, and, when
    /// both kings stand on file e, the mirror image as well (the smaller
    /// index of the two stands for the position).
    mirrors: [bool; 2],
    orientations: usize,
    /// Per orientation: the index without the side to move.
    base: [usize; 2],
    /// Per orientation and group: the pieces' slots, ascending.
    slots: [[[u8; MAX_GROUP]; 12]; 2],
    /// Per orientation and group: the group's digit.
    digits: [[usize; 12]; 2],
    /// The group of the piece on each point (`u8::MAX`: a king or none).
    group_at: [u8; SQUARES],
    /// The side to move after a move.
    child_side: Color,
}

impl QuietChildren<'_> {
    /// Whether the piece on `from` is one [`QuietChildren::after`] can
    /// move: any piece of the table but a king.
    #[inline]
    pub(crate) fn covers(&self, from: Square) -> bool {
        self.group_at[from.index()] != u8::MAX
    }

    /// The index of the position after the piece on `from` (which
    /// [`QuietChildren::covers`]) moves to the empty point `to` and the
    /// turn passes: what `encode` gives for that position. The move is not
    /// checked for legality.
    pub(crate) fn after(&self, from: Square, to: Square) -> Option<usize> {
        let g = self.group_at[from.index()] as usize;
        let layout = self.layout;
        let group = &layout.groups[g];
        let mut best = usize::MAX;
        for o in 0..self.orientations {
            let orient = |sq: Square| if self.mirrors[o] { sq.mirror() } else { sq };
            let (old, new) = (
                group.slot[orient(from).index()],
                group.slot[orient(to).index()],
            );
            if new == u8::MAX {
                return None;
            }
            let digit = if group.count == 1 {
                new as usize
            } else {
                let mut slots = self.slots[o][g];
                let slots = &mut slots[..group.count];
                for s in slots.iter_mut() {
                    if *s == old {
                        *s = new;
                    }
                }
                slots.sort_unstable();
                group.rank(slots)
            };
            let index =
                self.base[o] - self.digits[o][g] * layout.strides[g] + digit * layout.strides[g];
            best = best.min(index);
        }
        Some(best * 2 + self.child_side.index())
    }
}

/// A king pair digit: which points, and whether a position with these
/// kings must be mirrored to reach it.
#[derive(Clone, Copy)]
struct KingSlot {
    digit: u8,
    mirror: bool,
    /// Both kings on file e: the mirror image has the same digit.
    symmetric: bool,
}

/// The index of one ending.
#[derive(Clone)]
pub struct Layout {
    material: Material,
    groups: Vec<Group>,
    /// King pair digit by (Red king point, Black king point), by board index.
    king_slots: Vec<Option<KingSlot>>,
    /// The king points of each digit.
    king_pairs: Vec<(Square, Square)>,
    /// What one unit of each group's digit is worth in the index without
    /// its side-to-move digit: the product of the later groups' sizes.
    strides: Vec<usize>,
    size: usize,
}

/// A decoded index: the pieces and the side to move.
#[derive(Clone, Copy)]
pub(crate) struct Placement {
    pub pieces: [(Piece, Square); MAX_PIECES],
    pub len: usize,
    pub side: Color,
}

impl Placement {
    pub fn pieces(&self) -> &[(Piece, Square)] {
        &self.pieces[..self.len]
    }
}

impl Layout {
    /// The index of `material` in the orientation given.
    pub fn new(material: Material) -> Layout {
        let mut groups = Vec::new();
        for color in Color::ALL {
            for kind in KINDS {
                let n = material.count(color, kind) as usize;
                if n > 0 {
                    groups.push(Group::new(Piece::new(color, kind), n));
                }
            }
        }
        let mut king_slots = vec![None; SQUARES * SQUARES];
        let mut king_pairs = Vec::new();
        let red = points(Color::Red, PieceKind::King);
        let black = points(Color::Black, PieceKind::King);
        for &r in &red {
            for &b in &black {
                let (rf, bf) = (r.file().index(), b.file().index());
                if rf < 4 || (rf == 4 && bf <= 4) {
                    let digit = king_pairs.len() as u8;
                    king_pairs.push((r, b));
                    let symmetric = rf == 4 && bf == 4;
                    king_slots[r.index() * SQUARES + b.index()] = Some(KingSlot {
                        digit,
                        mirror: false,
                        symmetric,
                    });
                    if !symmetric {
                        king_slots[r.mirror().index() * SQUARES + b.mirror().index()] =
                            Some(KingSlot {
                                digit,
                                mirror: true,
                                symmetric,
                            });
                    }
                }
            }
        }
        // Checked: the largest endings (all 32 pieces) have more indices
        // than a usize holds, and a table file may name any ending. Such
        // a layout has size usize::MAX, which the generator and the file
        // reader refuse (their limit is far below), and is never indexed.
        let size = groups
            .iter()
            .try_fold(king_pairs.len() * 2, |n, g| n.checked_mul(g.size))
            .unwrap_or(usize::MAX);
        let strides = (0..groups.len())
            .map(|g| {
                groups[g + 1..]
                    .iter()
                    .fold(1usize, |n, h| n.saturating_mul(h.size))
            })
            .collect();
        Layout {
            material,
            groups,
            king_slots,
            king_pairs,
            strides,
            size,
        }
    }

    /// The ending.
    pub fn material(&self) -> Material {
        self.material
    }

    /// Number of indices (positions and non-positions); `usize::MAX` for
    /// an ending too large to index.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The values of the lowest index digit above the side to move (the
    /// last group's, or 1 for bare kings): entries this many apart with
    /// the same side to move differ in one step of the next digit, the
    /// "row above" the block coder predicts from.
    pub(crate) fn row(&self) -> usize {
        self.groups.last().map_or(1, |g| g.size)
    }

    /// Entries with the same side to move between a placement and the
    /// one a step of the third-lowest digit earlier (the two lowest
    /// groups' sizes multiplied), the "plane above" the block coder of
    /// format version 3 also predicts from; `usize::MAX` when the index
    /// has fewer than two groups (the king pair is then that digit, and
    /// a step of it rarely keeps a value).
    pub(crate) fn plane(&self) -> usize {
        match self.groups.as_slice() {
            [.., a, b] => a.size.saturating_mul(b.size),
            _ => usize::MAX,
        }
    }

    /// The index of `pos`, whose material must be this layout's (after
    /// swapping colours when `swap`: then Black's pieces are read as Red's
    /// on the point rotated by half a turn). `None` when a piece stands
    /// where the index has no point for it (a composed pawn behind its
    /// starting rank, say) or the material differs.
    pub fn encode(&self, pos: &Position, swap: bool) -> Option<usize> {
        let orient = |sq: Square| if swap { sq.flip() } else { sq };
        let real = |c: Color| if swap { !c } else { c };
        let kings = (
            orient(pos.king_square(real(Color::Red))),
            orient(pos.king_square(real(Color::Black))),
        );
        let side = if swap {
            !pos.side_to_move()
        } else {
            pos.side_to_move()
        };
        let mut points = [[A0; MAX_GROUP]; 12];
        for (g, group) in self.groups.iter().enumerate() {
            let bb = pos.pieces(real(group.piece.color()), group.piece.kind());
            if bb.count() as usize != group.count {
                return None;
            }
            for (i, sq) in bb.into_iter().enumerate() {
                points[g][i] = orient(sq);
            }
        }
        let ks = self.king_slots[kings.0.index() * SQUARES + kings.1.index()]?;
        let raw = |mirror: bool| self.raw_index(ks.digit, &points, side, mirror);
        if ks.symmetric {
            Some(raw(false)?.min(raw(true)?))
        } else {
            raw(ks.mirror)
        }
    }

    fn raw_index(
        &self,
        king_digit: u8,
        points: &[[Square; MAX_GROUP]; 12],
        side: Color,
        mirror: bool,
    ) -> Option<usize> {
        let mut index = king_digit as usize;
        for (g, group) in self.groups.iter().enumerate() {
            let mut slots = [0u8; MAX_GROUP];
            for (i, &sq) in points[g][..group.count].iter().enumerate() {
                let sq = if mirror { sq.mirror() } else { sq };
                let s = group.slot[sq.index()];
                if s == u8::MAX {
                    return None;
                }
                slots[i] = s;
            }
            let slots = &mut slots[..group.count];
            slots.sort_unstable();
            index = index * group.size + group.rank(slots);
        }
        Some(index * 2 + side.index())
    }

    /// The index of `pos` taken apart for [`QuietChildren::after`], or
    /// `None` when `encode(pos, false)` would be `None`.
    pub(crate) fn quiet_children(&self, pos: &Position) -> Option<QuietChildren<'_>> {
        let red_king = pos.king_square(Color::Red);
        let black_king = pos.king_square(Color::Black);
        let ks = self.king_slots[red_king.index() * SQUARES + black_king.index()]?;
        let mut children = QuietChildren {
            layout: self,
            mirrors: [ks.mirror, true],
            orientations: if ks.symmetric { 2 } else { 1 },
            base: [ks.digit as usize; 2],
            slots: [[[0; MAX_GROUP]; 12]; 2],
            digits: [[0; 12]; 2],
            group_at: [u8::MAX; SQUARES],
            child_side: !pos.side_to_move(),
        };
        for (g, group) in self.groups.iter().enumerate() {
            let bb = pos.pieces(group.piece.color(), group.piece.kind());
            if bb.count() as usize != group.count {
                return None;
            }
            for sq in bb {
                children.group_at[sq.index()] = g as u8;
            }
        }
        for o in 0..children.orientations {
            let mirror = children.mirrors[o];
            let mut base = children.base[o];
            for (g, group) in self.groups.iter().enumerate() {
                let slots = &mut children.slots[o][g][..group.count];
                let bb = pos.pieces(group.piece.color(), group.piece.kind());
                for (slot, sq) in slots.iter_mut().zip(bb) {
                    let sq = if mirror { sq.mirror() } else { sq };
                    *slot = group.slot[sq.index()];
                    if *slot == u8::MAX {
                        return None;
                    }
                }
                slots.sort_unstable();
                let digit = group.rank(slots);
                children.digits[o][g] = digit;
                base = base * group.size + digit;
            }
            children.base[o] = base;
        }
        Some(children)
    }

    /// The pieces of `index` (kings first) and the side to move, or `None`
    /// when the index is a duplicate of a smaller one (both kings on file e
    /// and the mirror image has the smaller index) or out of range.
    pub(crate) fn decode(&self, index: usize) -> Option<Placement> {
        if index >= self.size {
            return None;
        }
        let side = if index % 2 == 0 {
            Color::Red
        } else {
            Color::Black
        };
        let mut rest = index / 2;
        let mut digits = [0usize; 12];
        for (g, group) in self.groups.iter().enumerate().rev() {
            digits[g] = rest % group.size;
            rest /= group.size;
        }
        let (rk, bk) = self.king_pairs[rest];
        let mut placement = Placement {
            pieces: [(Piece::new(Color::Red, PieceKind::King), rk); MAX_PIECES],
            len: 2,
            side,
        };
        placement.pieces[1] = (Piece::new(Color::Black, PieceKind::King), bk);
        for (g, group) in self.groups.iter().enumerate() {
            let mut slots = [0u8; MAX_GROUP];
            group.unrank(digits[g], &mut slots[..group.count]);
            for &s in &slots[..group.count] {
                placement.pieces[placement.len] = (group.piece, group.points[s as usize]);
                placement.len += 1;
            }
        }
        if rk.file().index() == 4 && bk.file().index() == 4 {
            // Both orientations share this king digit: only the smaller
            // index stands for the position.
            let mut points = [[rk; MAX_GROUP]; 12];
            let mut at = 2;
            for (row, group) in points.iter_mut().zip(&self.groups) {
                for point in &mut row[..group.count] {
                    *point = placement.pieces[at].1;
                    at += 1;
                }
            }
            let mirrored = self.raw_index(rest as u8, &points, side, true)?;
            if mirrored < index {
                return None;
            }
        }
        Some(placement)
    }

    /// The position of `index`, or `None` when the index stands for no
    /// legal position (two pieces on a point, the side not to move in
    /// check, a duplicate of a smaller index).
    pub fn position(&self, index: usize) -> Option<Position> {
        let p = self.decode(index)?;
        Position::from_pieces(p.pieces(), p.side).ok()
    }

    /// [`Layout::position`] built in `buffer`, which keeps its memory from
    /// one position to the next: the generator's way through millions.
    pub fn position_in<'b>(
        &self,
        index: usize,
        buffer: &'b mut PositionBuffer,
    ) -> Option<&'b mut Position> {
        let p = self.decode(index)?;
        buffer.set(p.pieces(), p.side).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn point_counts() {
        for c in Color::ALL {
            assert_eq!(points(c, PieceKind::King).len(), 9);
            assert_eq!(points(c, PieceKind::Advisor).len(), 5);
            assert_eq!(points(c, PieceKind::Elephant).len(), 7);
            assert_eq!(points(c, PieceKind::Pawn).len(), 55);
            assert_eq!(points(c, PieceKind::Rook).len(), 90);
        }
    }

    #[test]
    fn sizes() {
        let size = |name: &str| Layout::new(Material::parse(name).unwrap()).size();
        assert_eq!(size("KK"), 45 * 2);
        assert_eq!(size("KRK"), 45 * 90 * 2);
        assert_eq!(size("KPK"), 45 * 55 * 2);
        assert_eq!(size("KHKAA"), 45 * 90 * 10 * 2);
        assert_eq!(size("KRAAEEKAAEE"), 45 * 90 * 10 * 21 * 10 * 21 * 2);
    }

    #[test]
    fn binomial_table_matches_the_formula() {
        for n in 0..=MAX_POINTS {
            for k in 0..=MAX_GROUP {
                // C(n, k) = n! / (k! (n - k)!), as a running product.
                let formula = if k > n {
                    0
                } else {
                    (0..k).fold(1usize, |acc, i| acc * (n - i) / (i + 1))
                };
                assert_eq!(binomial(n, k), formula, "C({n}, {k})");
            }
        }
        assert_eq!(binomial(90, 5), 43_949_268);
    }

    #[test]
    fn combinations_round_trip() {
        let groups = [
            (PieceKind::Pawn, 1),
            (PieceKind::Pawn, 2),
            (PieceKind::Pawn, 3),
            (PieceKind::Pawn, 5),
            (PieceKind::Rook, 1),
            (PieceKind::Rook, 2),
            (PieceKind::Advisor, 2),
            (PieceKind::Elephant, 2),
        ];
        for (kind, count) in groups {
            let g = Group::new(Piece::new(Color::Red, kind), count);
            assert_eq!(g.size, binomial(g.points.len(), count));
            let mut slots = [0u8; MAX_GROUP];
            let slots = &mut slots[..count];
            for r in 0..g.size {
                g.unrank(r, slots);
                assert!(slots.windows(2).all(|w| w[0] < w[1]), "{kind:?} {r}");
                assert!((slots[count - 1] as usize) < g.points.len());
                assert_eq!(g.rank(slots), r, "{kind:?} x{count}");
            }
        }
    }

    #[test]
    fn quiet_children_match_the_full_encoding() {
        // Groups of one and of several pieces, mirrored and symmetric
        // king pairs: every quiet move but a king's, in a sample of every
        // ending's positions.
        let mut all_symmetric = 0;
        for name in ["KRK", "KHKA", "KCAKE", "KPPKA", "KRAAKEE", "KAAEEKH"] {
            let layout = Layout::new(Material::parse(name).unwrap());
            let step = (layout.size() / 20_000).max(1) | 1;
            let (mut checked, mut symmetric) = (0, 0);
            for i in (0..layout.size()).step_by(step) {
                let Some(mut pos) = layout.position(i) else {
                    continue;
                };
                let children = layout.quiet_children(&pos).unwrap();
                symmetric += usize::from(children.orientations == 2);
                for &m in pos.legal_moves().as_slice() {
                    if pos.piece_at(m.to()).is_some() || !children.covers(m.from()) {
                        continue;
                    }
                    pos.make_move(m);
                    let full = layout.encode(&pos, false);
                    pos.unmake_move();
                    assert_eq!(children.after(m.from(), m.to()), full, "{name} {i} {m}");
                    checked += 1;
                }
            }
            assert!(
                checked > 20_000 && symmetric > 0,
                "{name}: {checked} {symmetric}"
            );
            all_symmetric += symmetric;
        }
        assert!(all_symmetric > 1000, "{all_symmetric}");
    }

    #[test]
    fn every_index_round_trips() {
        for name in ["KRK", "KHKA", "KCAKE", "KPKAE"] {
            let layout = Layout::new(Material::parse(name).unwrap());
            let mut positions = 0;
            for i in 0..layout.size() {
                if let Some(pos) = layout.position(i) {
                    positions += 1;
                    assert_eq!(layout.encode(&pos, false), Some(i), "{name} {i}");
                    // The mirror image is the same entry.
                    let mirror: Vec<_> = Square::all()
                        .filter_map(|sq| pos.piece_at(sq).map(|p| (p, sq.mirror())))
                        .collect();
                    let m = Position::from_pieces(&mirror, pos.side_to_move()).unwrap();
                    assert_eq!(layout.encode(&m, false), Some(i));
                }
            }
            assert!(positions > layout.size() / 3, "{name}: {positions}");
        }
    }

    #[test]
    fn the_two_sides_to_move_share_a_placement() {
        // The generator decodes each even index once for the odd one after
        // it: the same pieces, or both no placement (the duplicate test of
        // kings on file e does not depend on the side to move).
        for name in ["KRK", "KCAKE", "KPPKA"] {
            let layout = Layout::new(Material::parse(name).unwrap());
            let mut duplicates = 0;
            for i in (0..layout.size()).step_by(2) {
                let (red, black) = (layout.decode(i), layout.decode(i + 1));
                assert_eq!(red.is_none(), black.is_none(), "{name} {i}");
                if let (Some(r), Some(b)) = (red, black) {
                    assert_eq!(r.pieces(), b.pieces(), "{name} {i}");
                    assert_eq!((r.side, b.side), (Color::Red, Color::Black));
                } else {
                    duplicates += 1;
                }
            }
            assert!(duplicates > 0, "{name}");
        }
    }

    #[test]
    fn a_buffer_builds_the_positions_a_layout_builds() {
        let layout = Layout::new(Material::parse("KCAKE").unwrap());
        let mut buffer = PositionBuffer::new();
        let mut positions = 0;
        for i in 0..layout.size() {
            let fresh = layout.position(i);
            let reused = layout.position_in(i, &mut buffer);
            assert_eq!(fresh.is_some(), reused.is_some(), "{i}");
            if let (Some(f), Some(r)) = (fresh, reused) {
                assert_eq!((f.to_fen(), f.key()), (r.to_fen(), r.key()), "{i}");
                positions += 1;
            }
        }
        assert!(positions > layout.size() / 3, "{positions}");
    }
}
