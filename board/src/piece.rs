//! Sides, piece kinds and pieces.

use std::fmt;
use std::ops::Not;

/// A side: Red moves first and sits on ranks 0–4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Color {
    /// The side that moves first (upper-case letters in FEN).
    Red = 0,
    /// The second side (lower-case letters in FEN).
    Black = 1,
}

impl Color {
    /// Both sides, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// Index 0 (Red) or 1 (Black).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    #[inline]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// The rank step that means "forward" for this side.
    #[inline]
    pub const fn forward(self) -> i32 {
        match self {
            Color::Red => 1,
            Color::Black => -1,
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.opponent()
    }
}

/// The seven kinds of Xiangqi pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PieceKind {
    /// 帅/将: one step orthogonally inside the palace.
    King = 0,
    /// 仕/士: one step diagonally inside the palace.
    Advisor = 1,
    /// 相/象: two steps diagonally, blocked at the eye, never across the river.
    Elephant = 2,
    /// 马: one step orthogonally then one diagonally, blocked at the leg.
    Horse = 3,
    /// 车: any distance orthogonally.
    Rook = 4,
    /// 炮: moves like a rook, captures by jumping exactly one screen.
    Cannon = 5,
    /// 兵/卒: one step forward; sideways too after crossing the river.
    Pawn = 6,
}

impl PieceKind {
    /// All kinds in index order.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::King,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Rook,
        PieceKind::Cannon,
        PieceKind::Pawn,
    ];

    /// Index 0..7.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The most pieces of this kind one side can have.
    pub const fn max_count(self) -> u32 {
        match self {
            PieceKind::King => 1,
            PieceKind::Pawn => 5,
            _ => 2,
        }
    }

    /// The FEN letter (upper case; Red's spelling).
    pub const fn letter(self) -> char {
        match self {
            PieceKind::King => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Horse => 'N',
            PieceKind::Rook => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Pawn => 'P',
        }
    }

    /// The kind named by a FEN letter of either case, accepting the `H`
    /// (horse) and `E` (elephant) aliases.
    pub const fn from_letter(c: char) -> Option<PieceKind> {
        match c.to_ascii_uppercase() {
            'K' => Some(PieceKind::King),
            'A' => Some(PieceKind::Advisor),
            'B' | 'E' => Some(PieceKind::Elephant),
            'N' | 'H' => Some(PieceKind::Horse),
            'R' => Some(PieceKind::Rook),
            'C' => Some(PieceKind::Cannon),
            'P' => Some(PieceKind::Pawn),
            _ => None,
        }
    }

    /// Whether the kind moves along lines (rook or cannon).
    #[inline]
    pub const fn is_slider(self) -> bool {
        matches!(self, PieceKind::Rook | PieceKind::Cannon)
    }
}

/// `KIND_OF[piece index]`: the kind of each piece, padded to 16 entries
/// (14 and 15 are never piece indices).
const KIND_OF: [PieceKind; 16] = {
    let mut table = [PieceKind::King; 16];
    let mut i = 0;
    while i < Piece::COUNT {
        table[i] = PieceKind::ALL[i % 7];
        i += 1;
    }
    table
};

/// A piece: a kind and a side, packed in one byte (`color * 7 + kind`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Piece(u8);

impl Piece {
    /// Number of distinct pieces (7 kinds × 2 sides).
    pub const COUNT: usize = 14;

    /// The piece of `color` and `kind`.
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece(color as u8 * 7 + kind as u8)
    }

    /// Index 0..14, Red's kinds first.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The side owning the piece.
    #[inline]
    pub const fn color(self) -> Color {
        if self.0 < 7 {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// The kind of the piece.
    #[inline]
    pub const fn kind(self) -> PieceKind {
        // A table lookup rather than `index % 7`, which costs a multiply
        // and shifts; masking to 16 entries lets the compiler drop the
        // bounds check. This runs for nearly every move the search looks at.
        KIND_OF[(self.0 & 15) as usize]
    }

    /// The FEN letter: upper case for Red, lower case for Black.
    pub const fn fen_char(self) -> char {
        let c = self.kind().letter();
        match self.color() {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// The piece named by a FEN letter (aliases `H`/`E` accepted).
    pub const fn from_fen_char(c: char) -> Option<Piece> {
        let Some(kind) = PieceKind::from_letter(c) else {
            return None;
        };
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        Some(Piece::new(color, kind))
    }

    /// The Chinese character people read for this piece (simplified forms,
    /// with the distinct Red and Black names: 帅/将, 仕/士, 相/象, 兵/卒).
    pub const fn chinese_char(self) -> char {
        match (self.color(), self.kind()) {
            (Color::Red, PieceKind::King) => '帅',
            (Color::Black, PieceKind::King) => '将',
            (Color::Red, PieceKind::Advisor) => '仕',
            (Color::Black, PieceKind::Advisor) => '士',
            (Color::Red, PieceKind::Elephant) => '相',
            (Color::Black, PieceKind::Elephant) => '象',
            (_, PieceKind::Horse) => '马',
            (_, PieceKind::Rook) => '车',
            (_, PieceKind::Cannon) => '炮',
            (Color::Red, PieceKind::Pawn) => '兵',
            (Color::Black, PieceKind::Pawn) => '卒',
        }
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen_char())
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen_char())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_packing_round_trips() {
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let p = Piece::new(color, kind);
                assert_eq!((p.color(), p.kind()), (color, kind));
                assert_eq!(Piece::from_fen_char(p.fen_char()), Some(p));
            }
        }
    }

    #[test]
    fn fen_aliases() {
        assert_eq!(
            Piece::from_fen_char('H'),
            Some(Piece::new(Color::Red, PieceKind::Horse))
        );
        assert_eq!(
            Piece::from_fen_char('e'),
            Some(Piece::new(Color::Black, PieceKind::Elephant))
        );
        assert_eq!(Piece::from_fen_char('x'), None);
    }
}
