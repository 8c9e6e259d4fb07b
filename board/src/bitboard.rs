//! A set of points as a 90-bit bitboard in a `u128`.

use crate::{Color, File, Rank, Square, FILES, SQUARES};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of board points; bit `i` is the point with index `i`.
///
/// Bits 90..128 are always zero: every constructor and operation keeps them
/// clear (`!` masks them off), so counts and emptiness tests are exact.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub(crate) u128);

const ALL_BITS: u128 = (1u128 << SQUARES) - 1;

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 90 points.
    pub const FULL: Bitboard = Bitboard(ALL_BITS);

    /// The set holding `sq` only.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        // One u64 shift and a choice of half: cheaper on x86-64 than a u128
        // shift by a variable amount (see `has`).
        let i = sq.index();
        let bit = 1u64 << (i & 63);
        Bitboard(if i < 64 {
            bit as u128
        } else {
            (bit as u128) << 64
        })
    }

    /// The raw bits (bit `i` = point `i`).
    #[inline]
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// The set with these raw bits; bits past 89 are dropped.
    #[inline]
    pub const fn from_bits(bits: u128) -> Bitboard {
        Bitboard(bits & ALL_BITS)
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set is not empty.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Whether the set holds `sq`.
    #[inline]
    pub const fn has(self, sq: Square) -> bool {
        // Pick the 64-bit half first: a u128 shift by a variable amount is a
        // double-word shift plus a select on x86-64, a u64 shift is one
        // instruction.
        let i = sq.index();
        let half = if i < 64 {
            self.0 as u64
        } else {
            (self.0 >> 64) as u64
        };
        half >> (i & 63) & 1 != 0
    }

    /// Number of points in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set holds more than one point.
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest-indexed point, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(
                self.0.trailing_zeros() as usize
            ))
        }
    }

    /// The highest-indexed point, if any.
    #[inline]
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(
                127 - self.0.leading_zeros() as usize,
            ))
        }
    }

    /// The set with `sq` added.
    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | Bitboard::from_square(sq).0)
    }

    /// The set with `sq` removed.
    #[inline]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !Bitboard::from_square(sq).0)
    }

    /// Union, usable in constant expressions.
    #[inline]
    pub const fn union(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 | other.0)
    }

    /// All points of `file`.
    pub const fn file(file: File) -> Bitboard {
        Bitboard(FILE_A << file.index())
    }

    /// All points of `rank`.
    pub const fn rank(rank: Rank) -> Bitboard {
        Bitboard(0x1FF << (rank.index() * FILES))
    }

    /// The nine points of `color`'s palace.
    pub const fn palace(color: Color) -> Bitboard {
        match color {
            Color::Red => Bitboard(PALACE_RED),
            Color::Black => Bitboard(PALACE_RED << (7 * FILES)),
        }
    }

    /// The 45 points on `color`'s side of the river.
    pub const fn own_half(color: Color) -> Bitboard {
        match color {
            Color::Red => Bitboard(HALF_RED),
            Color::Black => Bitboard(HALF_RED << (5 * FILES)),
        }
    }
}

/// File `a`: bits 0, 9, 18, ..., 81.
const FILE_A: u128 = {
    let mut bits = 0u128;
    let mut r = 0;
    while r < 10 {
        bits |= 1u128 << (r * FILES);
        r += 1;
    }
    bits
};
const PALACE_RED: u128 = (0b111 << 3) | (0b111 << 12) | (0b111 << 21);
const HALF_RED: u128 = (1u128 << (5 * FILES)) - 1;

/// Iterates the points of a set from the lowest index up.
///
/// The set is kept as its two 64-bit halves: a bit scan and clearing the
/// lowest bit take one or two instructions on a `u64`, but several (with a
/// carry between the halves) on a `u128`, and this loop runs for every
/// generated move.
#[derive(Clone)]
pub struct Squares {
    low: u64,
    high: u64,
}

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.low != 0 {
            let sq = Square::from_index_unchecked(self.low.trailing_zeros() as usize);
            self.low &= self.low - 1;
            Some(sq)
        } else if self.high != 0 {
            let sq = Square::from_index_unchecked(64 + self.high.trailing_zeros() as usize);
            self.high &= self.high - 1;
            Some(sq)
        } else {
            None
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.low.count_ones() + self.high.count_ones()) as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;

    #[inline]
    fn into_iter(self) -> Squares {
        Squares {
            low: self.0 as u64,
            high: (self.0 >> 64) as u64,
        }
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

macro_rules! bit_op {
    ($trait:ident, $fn:ident, $assign_trait:ident, $assign_fn:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $fn(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_fn(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & ALL_BITS)
    }
}

impl fmt::Debug for Bitboard {
    /// Draws the set as a 10×9 grid, rank 9 at the top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for rank in Rank::ALL.iter().rev() {
            for file in File::ALL {
                let c = if self.has(Square::new(file, *rank)) {
                    'x'
                } else {
                    '.'
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_have_the_right_sizes() {
        for c in Color::ALL {
            assert_eq!(Bitboard::palace(c).count(), 9);
            assert_eq!(Bitboard::own_half(c).count(), 45);
            for sq in Bitboard::palace(c) {
                assert!(sq.in_palace(c));
            }
            for sq in Bitboard::own_half(c) {
                assert!(sq.on_own_side(c));
            }
        }
        for f in File::ALL {
            assert_eq!(Bitboard::file(f).count(), 10);
        }
        for r in Rank::ALL {
            assert_eq!(Bitboard::rank(r).count(), 9);
        }
        assert_eq!(Bitboard::FULL.count(), 90);
        assert_eq!((!Bitboard::EMPTY), Bitboard::FULL);
    }

    #[test]
    fn iteration_visits_each_point_in_order() {
        let set: Bitboard = [0usize, 17, 63, 64, 89]
            .iter()
            .filter_map(|&i| Square::from_index(i))
            .collect();
        let seen: Vec<usize> = set.into_iter().map(Square::index).collect();
        assert_eq!(seen, vec![0, 17, 63, 64, 89]);
        assert_eq!(set.first().map(Square::index), Some(0));
        assert_eq!(set.last().map(Square::index), Some(89));
        assert!(set.more_than_one());
    }
}
