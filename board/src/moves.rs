//! Moves and fixed-capacity move lists.

use crate::Square;
use std::fmt;
use std::mem::MaybeUninit;

/// A move from one point to another, packed in 16 bits (`from | to << 7`).
///
/// Xiangqi has no promotions, castling or en passant, so two points say it
/// all. A move carries no piece: the position it is played in knows that.
/// `Move::NULL` (from = to = a0) is the "pass" used by null-move search.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Move(u16);

impl Move {
    /// The null move (a pass).
    pub const NULL: Move = Move(0);

    /// The move from `from` to `to`.
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 7)
    }

    /// The point the piece leaves.
    #[inline]
    pub const fn from(self) -> Square {
        Square::from_index_unchecked((self.0 & 0x7F) as usize)
    }

    /// The point the piece arrives on.
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked((self.0 >> 7) as usize)
    }

    /// Whether this is the null move.
    #[inline]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// The packed 16-bit form (for transposition tables).
    #[inline]
    pub const fn to_u16(self) -> u16 {
        self.0
    }

    /// Unpacks a 16-bit form; `None` if it does not name two board points.
    /// A move read back this way must still be checked for legality.
    #[inline]
    pub const fn from_u16(bits: u16) -> Option<Move> {
        let (from, to) = ((bits & 0x7F) as usize, (bits >> 7) as usize);
        if from < crate::SQUARES && to < crate::SQUARES && bits >> 14 == 0 {
            Some(Move(bits))
        } else {
            None
        }
    }
}

impl fmt::Display for Move {
    /// ICCS text such as `h2e2`; the null move prints as `0000`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            f.write_str("0000")
        } else {
            write!(f, "{}{}", self.from(), self.to())
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The most moves a list can hold. No reachable Xiangqi position has more
/// than about 120 legal moves (two rooks and two cannons on open lines
/// account for at most 68 of them).
pub const MAX_MOVES: usize = 128;

/// A list of moves on the stack, filled by the move generator.
///
/// The slots past `len` are left uninitialised: a search makes a few lists
/// per node and most hold far fewer than [`MAX_MOVES`] moves, so filling
/// all 256 bytes on creation was measurable (about 1% of a search's
/// instructions went to that `memset`).
#[derive(Clone)]
pub struct MoveList {
    /// Invariant: `moves[..len]` are initialised.
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub const fn new() -> MoveList {
        // Built from an uninitialised `MoveList` with only `len` written:
        // the plain `MoveList { moves: [MaybeUninit::uninit(); _], len: 0 }`
        // is compiled (rustc 1.93 and later, an LLVM regression, rust-lang
        // issue 152541) into a memset of the whole list.
        let mut list = MaybeUninit::<MoveList>::uninit();
        let ptr = list.as_mut_ptr();
        // SAFETY: `ptr` points to a properly aligned, writable `MoveList`,
        // and `addr_of_mut!` takes the field's address without making a
        // reference to uninitialised memory. After the write, every field
        // is valid: `len` holds 0, and `moves` is an array of `MaybeUninit`,
        // which is valid uninitialised; so `assume_init` is sound, and the
        // invariant (`moves[..0]` initialised) holds trivially.
        unsafe {
            std::ptr::addr_of_mut!((*ptr).len).write(0);
            list.assume_init()
        }
    }

    /// Appends a move.
    ///
    /// # Panics
    /// Panics if the list is full, which a position of at most 16 pieces per
    /// side cannot cause.
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = MaybeUninit::new(m);
        self.len += 1;
    }

    /// Number of moves.
    #[inline]
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the list holds `m`.
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        let init = &self.moves[..self.len];
        // SAFETY: `moves[..len]` are initialised (the type's invariant: only
        // `push` raises `len`, after writing the slot, and `truncate`,
        // `retain` and `clear` only lower it), and `MaybeUninit<Move>` has
        // the same size, alignment and layout as `Move`.
        unsafe { &*(init as *const [MaybeUninit<Move>] as *const [Move]) }
    }

    /// The moves as a mutable slice (for ordering in place).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        let init = &mut self.moves[..self.len];
        // SAFETY: as in `as_slice`; the slice only gives access to the
        // initialised slots, and writes through it store whole `Move`s, so
        // they stay initialised.
        unsafe { &mut *(init as *mut [MaybeUninit<Move>] as *mut [Move]) }
    }

    /// Keeps only the moves for which `keep` is true, preserving order.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let moves = self.as_mut_slice();
        let mut kept = 0;
        for i in 0..moves.len() {
            let m = moves[i];
            if keep(m) {
                moves[kept] = m;
                kept += 1;
            }
        }
        self.len = kept;
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the first `len` moves (no effect if the list is shorter).
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips() {
        for from in Square::all() {
            for to in Square::all() {
                let m = Move::new(from, to);
                assert_eq!((m.from(), m.to()), (from, to));
                assert_eq!(Move::from_u16(m.to_u16()), Some(m));
            }
        }
        assert_eq!(Move::from_u16(0x7F), None);
        assert_eq!(Move::NULL.to_string(), "0000");
    }

    #[test]
    fn list_retain_keeps_order() {
        let mut list = MoveList::new();
        for i in 1..10 {
            let sq = Square::from_index(i).unwrap();
            list.push(Move::new(sq, sq));
        }
        list.retain(|m| m.from().index() % 2 == 0);
        let kept: Vec<usize> = list.iter().map(|m| m.from().index()).collect();
        assert_eq!(kept, vec![2, 4, 6, 8]);
    }
}
