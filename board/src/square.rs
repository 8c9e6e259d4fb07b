//! Files, ranks and the 90 points of the board.
//!
//! Points are numbered rank-major from Red's side: `a0` is 0, `i0` is 8,
//! `a1` is 9 and `i9` is 89. Files run `a`–`i` from Red's left, ranks `0`–`9`
//! from Red's back rank, exactly as in ICCS/UCCI coordinates.

use crate::Color;
use std::fmt;

/// Number of files (columns) on the board.
pub const FILES: usize = 9;
/// Number of ranks (rows) on the board.
pub const RANKS: usize = 10;
/// Number of points on the board.
pub const SQUARES: usize = FILES * RANKS;

/// A file, `a` (0) to `i` (8), counted from Red's left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct File(u8);

impl File {
    /// All nine files from `a` to `i`.
    pub const ALL: [File; FILES] = [
        File(0),
        File(1),
        File(2),
        File(3),
        File(4),
        File(5),
        File(6),
        File(7),
        File(8),
    ];

    /// The file with index `index` (0 = `a`), or `None` when out of range.
    #[inline]
    pub const fn new(index: u8) -> Option<File> {
        if (index as usize) < FILES {
            Some(File(index))
        } else {
            None
        }
    }

    /// Index 0..9 of the file.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file from its ICCS letter (`a`–`i`, either case).
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='i' => Some(File(c as u8 - b'a')),
            'A'..='I' => Some(File(c as u8 - b'A')),
            _ => None,
        }
    }

    /// The ICCS letter of the file.
    pub const fn to_char(self) -> char {
        (b'a' + self.0) as char
    }

    /// The file as numbered in Chinese notation by `color` (1..=9), counted
    /// right to left from that side's own point of view.
    pub const fn chinese_number(self, color: Color) -> u8 {
        match color {
            Color::Red => 9 - self.0,
            Color::Black => self.0 + 1,
        }
    }

    /// The file that `color` calls `number` (1..=9) in Chinese notation.
    pub const fn from_chinese_number(number: u8, color: Color) -> Option<File> {
        if number < 1 || number > 9 {
            return None;
        }
        Some(match color {
            Color::Red => File(9 - number),
            Color::Black => File(number - 1),
        })
    }
}

/// A rank, `0` (Red's back rank) to `9` (Black's back rank).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(u8);

impl Rank {
    /// All ten ranks from 0 to 9.
    pub const ALL: [Rank; RANKS] = [
        Rank(0),
        Rank(1),
        Rank(2),
        Rank(3),
        Rank(4),
        Rank(5),
        Rank(6),
        Rank(7),
        Rank(8),
        Rank(9),
    ];

    /// The rank with index `index` (0..=9), or `None` when out of range.
    #[inline]
    pub const fn new(index: u8) -> Option<Rank> {
        if (index as usize) < RANKS {
            Some(Rank(index))
        } else {
            None
        }
    }

    /// Index 0..10 of the rank.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The rank from its ICCS digit (`0`–`9`).
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '0'..='9' => Some(Rank(c as u8 - b'0')),
            _ => None,
        }
    }

    /// The ICCS digit of the rank.
    pub const fn to_char(self) -> char {
        (b'0' + self.0) as char
    }

    /// The rank seen from `color`'s side: 0 is that side's back rank.
    #[inline]
    pub const fn relative_to(self, color: Color) -> u8 {
        match color {
            Color::Red => self.0,
            Color::Black => 9 - self.0,
        }
    }
}

/// One of the 90 points of the board.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The point at `file` and `rank`.
    #[inline]
    pub const fn new(file: File, rank: Rank) -> Square {
        Square(rank.0 * FILES as u8 + file.0)
    }

    /// The point with index `index` (0..90), or `None` when out of range.
    #[inline]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < SQUARES {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The point with index `index`, which the caller guarantees is < 90.
    ///
    /// Used on hot paths where the index comes from a bitboard of the board.
    #[inline]
    pub(crate) const fn from_index_unchecked(index: usize) -> Square {
        debug_assert!(index < SQUARES);
        Square(index as u8)
    }

    /// The point at file index `file` and rank index `rank`, if on the board.
    #[inline]
    pub const fn from_coords(file: i32, rank: i32) -> Option<Square> {
        if file >= 0 && file < FILES as i32 && rank >= 0 && rank < RANKS as i32 {
            Some(Square((rank * FILES as i32 + file) as u8))
        } else {
            None
        }
    }

    /// Index 0..90 of the point.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file of the point.
    #[inline]
    pub const fn file(self) -> File {
        File(self.0 % FILES as u8)
    }

    /// The rank of the point.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank(self.0 / FILES as u8)
    }

    /// The point `df` files and `dr` ranks away, if it is on the board.
    #[inline]
    pub const fn offset(self, df: i32, dr: i32) -> Option<Square> {
        Square::from_coords(self.file().0 as i32 + df, self.rank().0 as i32 + dr)
    }

    /// The point mirrored through the centre (what Black sees where Red sees this).
    #[inline]
    pub const fn flip(self) -> Square {
        Square(SQUARES as u8 - 1 - self.0)
    }

    /// The point mirrored left to right (file `a` ↔ `i`).
    #[inline]
    pub const fn mirror(self) -> Square {
        Square::new(File(8 - self.file().0), self.rank())
    }

    /// Whether the point lies in `color`'s palace (files d–f, its three back ranks).
    #[inline]
    pub const fn in_palace(self, color: Color) -> bool {
        let f = self.file().0;
        let r = self.rank().relative_to(color);
        f >= 3 && f <= 5 && r <= 2
    }

    /// Whether the point lies on `color`'s own side of the river.
    #[inline]
    pub const fn on_own_side(self, color: Color) -> bool {
        self.rank().relative_to(color) <= 4
    }

    /// All 90 points in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().to_char(), self.rank().to_char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::str::FromStr for Square {
    type Err = ();

    /// Parses an ICCS point such as `h2`.
    fn from_str(s: &str) -> Result<Square, ()> {
        let mut chars = s.chars();
        let (Some(f), Some(r), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(());
        };
        match (File::from_char(f), Rank::from_char(r)) {
            (Some(f), Some(r)) => Ok(Square::new(f, r)),
            _ => Err(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::new(sq.file(), sq.rank()), sq);
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert_eq!("a0".parse::<Square>().map(Square::index), Ok(0));
        assert_eq!("i9".parse::<Square>().map(Square::index), Ok(89));
        assert_eq!("h2".parse::<Square>().map(Square::index), Ok(25));
        assert!("j0".parse::<Square>().is_err());
        assert!("a10".parse::<Square>().is_err());
    }

    #[test]
    fn palace_and_river() {
        let e0: Square = "e0".parse().unwrap();
        let e9: Square = "e9".parse().unwrap();
        assert!(e0.in_palace(Color::Red) && !e0.in_palace(Color::Black));
        assert!(e9.in_palace(Color::Black) && !e9.in_palace(Color::Red));
        assert_eq!(Square::all().filter(|s| s.in_palace(Color::Red)).count(), 9);
        let e4: Square = "e4".parse().unwrap();
        assert!(e4.on_own_side(Color::Red) && !e4.on_own_side(Color::Black));
    }

    #[test]
    fn chinese_file_numbers() {
        let h = File::from_char('h').unwrap();
        assert_eq!(h.chinese_number(Color::Red), 2);
        assert_eq!(h.chinese_number(Color::Black), 8);
        for f in File::ALL {
            for c in [Color::Red, Color::Black] {
                assert_eq!(File::from_chinese_number(f.chinese_number(c), c), Some(f));
            }
        }
    }
}
