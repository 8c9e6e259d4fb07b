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
use shuai_board::{Color, File, Piece, PieceKind, Position, Rank, Square, SQUARES};

/// A filler point for fixed-size arrays.
const A0: Square = Square::new(File::ALL[0], Rank::ALL[0]);

/// Most non-king pieces of one colour and kind a table indexes (pawns).
const MAX_GROUP: usize = 5;
/// Most pieces a table's position has.
pub(crate) const MAX_PIECES: usize = 32;

/// The binomial coefficient C(n, k) for the small numbers used here.
fn binomial(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
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
    /// `count` slots: the combinatorial number system.
    fn rank(&self, slots: &[usize]) -> usize {
        slots
            .iter()
            .enumerate()
            .map(|(i, &s)| binomial(s, i + 1))
            .sum()
    }

    /// The slots of rank `r`, ascending, into `out[..count]`.
    fn unrank(&self, mut r: usize, out: &mut [usize]) {
        for i in (1..=self.count).rev() {
            // The largest s with C(s, i) <= r.
            let mut s = i - 1;
            while binomial(s + 1, i) <= r {
                s += 1;
            }
            r -= binomial(s, i);
            out[i - 1] = s;
        }
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
        let size = king_pairs.len() * groups.iter().map(|g| g.size).product::<usize>() * 2;
        Layout {
            material,
            groups,
            king_slots,
            king_pairs,
            size,
        }
    }

    /// The ending.
    pub fn material(&self) -> Material {
        self.material
    }

    /// Number of indices (positions and non-positions).
    pub fn size(&self) -> usize {
        self.size
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
            let mut slots = [0usize; MAX_GROUP];
            for (i, &sq) in points[g][..group.count].iter().enumerate() {
                let sq = if mirror { sq.mirror() } else { sq };
                let s = group.slot[sq.index()];
                if s == u8::MAX {
                    return None;
                }
                slots[i] = s as usize;
            }
            let slots = &mut slots[..group.count];
            slots.sort_unstable();
            index = index * group.size + group.rank(slots);
        }
        Some(index * 2 + side.index())
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
            let mut slots = [0usize; MAX_GROUP];
            group.unrank(digits[g], &mut slots[..group.count]);
            for &s in &slots[..group.count] {
                placement.pieces[placement.len] = (group.piece, group.points[s]);
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
    fn combinations_round_trip() {
        let g = Group::new(Piece::new(Color::Red, PieceKind::Pawn), 3);
        assert_eq!(g.size, binomial(55, 3));
        let mut slots = [0usize; 3];
        for r in 0..g.size {
            g.unrank(r, &mut slots);
            assert!(slots[0] < slots[1] && slots[1] < slots[2]);
            assert_eq!(g.rank(&slots), r);
        }
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
}
