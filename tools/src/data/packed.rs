//! One training position in 32 bytes.
//!
//! # Layout (little-endian)
//!
//! | bytes  | content |
//! |--------|---------|
//! | 0..12  | a 96-bit word `w`: bits 0..90 are the occupancy (bit `i` = point `i` = `rank*9+file`, as `Square::index`); bit 90 the side to move (0 Red, 1 Black); bits 91..93 the outcome (`Outcome as u8`: 0 Black wins, 1 draw, 2 Red wins); bits 93..96 the low 3 bits of the full-move number |
//! | 12..28 | 32 four-bit piece codes (`Piece::index()`, 0..14: `color*7 + kind`), one per occupied point in point order: the `k`-th occupied point's code is in byte `12 + k/2`, low nibble for even `k`, high nibble for odd `k`; unused nibbles are 0 |
//! | 28..30 | the search score, `i16` centipawns, from Red's point of view |
//! | 30     | the halfmove clock (plies without a capture), saturating at 255 |
//! | 31     | flags: bit 0 "last position of its game"; bits 1..8 the high 7 bits of the full-move number |
//!
//! A Xiangqi position has at most 32 pieces, so every legal position fits.
//! The full-move number (10 bits, saturating at 1023) is kept only so that
//! FEN text survives a round trip through the binary format.

use shuai_board::{Color, Piece, PieceKind, Position, Square, SQUARES};
use std::fmt;

/// Game outcome from Red's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Black won.
    BlackWins = 0,
    /// A draw.
    Draw = 1,
    /// Red won.
    RedWins = 2,
}

impl Outcome {
    /// Red's points: 0.0, 0.5 or 1.0.
    pub fn red_points(self) -> f32 {
        match self {
            Outcome::BlackWins => 0.0,
            Outcome::Draw => 0.5,
            Outcome::RedWins => 1.0,
        }
    }

    /// The outcome worth `p` points to Red (0, 0.5 or 1; anything else is
    /// `None`).
    pub fn from_red_points(p: f64) -> Option<Outcome> {
        if p == 0.0 {
            Some(Outcome::BlackWins)
        } else if p == 0.5 {
            Some(Outcome::Draw)
        } else if p == 1.0 {
            Some(Outcome::RedWins)
        } else {
            None
        }
    }

    /// The outcome with code `c` (`Outcome as u8`).
    fn from_code(c: u8) -> Option<Outcome> {
        match c {
            0 => Some(Outcome::BlackWins),
            1 => Some(Outcome::Draw),
            2 => Some(Outcome::RedWins),
            _ => None,
        }
    }
}

/// Bytes per record.
pub const RECORD_SIZE: usize = 32;

/// Most pieces a record can hold.
pub const MAX_PIECES: usize = 32;

const OCC_BITS: u128 = (1u128 << SQUARES) - 1;
const SIDE_BIT: u32 = 90;
const OUTCOME_SHIFT: u32 = 91;
const FULLMOVE_LOW_SHIFT: u32 = 93;
const PIECES_AT: usize = 12;
const SCORE_AT: usize = 28;
const CLOCK_AT: usize = 30;
const FLAGS_AT: usize = 31;
const LAST_IN_GAME: u8 = 1;
/// The largest full-move number a record keeps.
const MAX_FULLMOVE: u16 = 1023;
/// Bit 0 of every nibble.
const NIBBLE_LOW_BITS: u128 = 0x1111_1111_1111_1111_1111_1111_1111_1111;

/// Piece of each 4-bit code; 14 and 15 are not pieces.
const PIECE_OF_CODE: [Option<Piece>; 16] = {
    let mut t = [None; 16];
    let mut i = 0;
    while i < 14 {
        let color = if i < 7 { Color::Red } else { Color::Black };
        t[i] = Some(Piece::new(color, PieceKind::ALL[i % 7]));
        i += 1;
    }
    t
};

/// Why a position could not be packed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PackError {
    /// More than [`MAX_PIECES`] pieces on the board.
    TooManyPieces(usize),
}

impl fmt::Display for PackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PackError::TooManyPieces(n) => {
                write!(
                    f,
                    "{n} pieces on the board, a record holds at most {MAX_PIECES}"
                )
            }
        }
    }
}

impl std::error::Error for PackError {}

/// One training position in [`RECORD_SIZE`] (= 32) bytes; see the module
/// documentation for the layout.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct PackedPosition {
    bytes: [u8; RECORD_SIZE],
}

impl fmt::Debug for PackedPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_position() {
            Ok(p) => write!(
                f,
                "PackedPosition({}; {:?}; {}{})",
                p.to_fen(),
                self.outcome(),
                self.red_score(),
                if self.last_in_game() { "; last" } else { "" }
            ),
            Err(e) => write!(f, "PackedPosition(invalid: {e}; {:?})", self.bytes),
        }
    }
}

impl PackedPosition {
    /// Packs `pos` with its search score (centipawns, Red's view) and its
    /// game's outcome. The "last position of its game" flag is clear; the
    /// halfmove clock saturates at 255, the full-move number at 1023.
    pub fn pack(
        pos: &Position,
        red_score: i16,
        outcome: Outcome,
    ) -> Result<PackedPosition, PackError> {
        let occ = pos.occupied();
        let n = occ.count() as usize;
        if n > MAX_PIECES {
            return Err(PackError::TooManyPieces(n));
        }
        let mut bytes = [0u8; RECORD_SIZE];
        for (k, sq) in occ.into_iter().enumerate() {
            let code = pos.piece_at(sq).map_or(0, |p| p.index() as u8);
            bytes[PIECES_AT + k / 2] |= code << (4 * (k % 2));
        }
        let fullmove = pos.fullmove_number().min(MAX_FULLMOVE);
        let side = (pos.side_to_move() == Color::Black) as u128;
        let word = (occ.bits() & OCC_BITS)
            | side << SIDE_BIT
            | (outcome as u128) << OUTCOME_SHIFT
            | ((fullmove & 7) as u128) << FULLMOVE_LOW_SHIFT;
        bytes[..PIECES_AT].copy_from_slice(&word.to_le_bytes()[..PIECES_AT]);
        bytes[SCORE_AT..SCORE_AT + 2].copy_from_slice(&red_score.to_le_bytes());
        bytes[CLOCK_AT] = pos.halfmove_clock().min(255) as u8;
        bytes[FLAGS_AT] = ((fullmove >> 3) as u8) << 1;
        Ok(PackedPosition { bytes })
    }

    /// The 96-bit word of bytes 0..12.
    #[inline]
    fn word(&self) -> u128 {
        let mut w = [0u8; 16];
        w[..PIECES_AT].copy_from_slice(&self.bytes[..PIECES_AT]);
        u128::from_le_bytes(w)
    }

    /// The occupied points as raw bits (bit `i` = point `i`).
    #[inline]
    pub fn occupancy(&self) -> u128 {
        self.word() & OCC_BITS
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        if self.bytes[11] >> (SIDE_BIT - 88) & 1 == 0 {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// The search score of the position, centipawns, from Red's point of
    /// view.
    #[inline]
    pub fn red_score(&self) -> i16 {
        i16::from_le_bytes([self.bytes[SCORE_AT], self.bytes[SCORE_AT + 1]])
    }

    /// The game's outcome from Red's point of view (a corrupt code reads as
    /// a draw; [`PackedPosition::validate`] reports it).
    #[inline]
    pub fn outcome(&self) -> Outcome {
        Outcome::from_code(self.outcome_code()).unwrap_or(Outcome::Draw)
    }

    fn outcome_code(&self) -> u8 {
        self.bytes[11] >> (OUTCOME_SHIFT - 88) & 3
    }

    /// Plies without a capture before the position, saturating at 255.
    #[inline]
    pub fn halfmove_clock(&self) -> u8 {
        self.bytes[CLOCK_AT]
    }

    /// The full-move number of the position, saturating at 1023.
    pub fn fullmove_number(&self) -> u16 {
        let low = (self.bytes[11] >> (FULLMOVE_LOW_SHIFT - 88)) as u16 & 7;
        let high = (self.bytes[FLAGS_AT] >> 1) as u16;
        high << 3 | low
    }

    /// Whether this is the last position written for its game.
    #[inline]
    pub fn last_in_game(&self) -> bool {
        self.bytes[FLAGS_AT] & LAST_IN_GAME != 0
    }

    /// Sets or clears the "last position of its game" flag.
    pub fn set_last_in_game(&mut self, last: bool) {
        if last {
            self.bytes[FLAGS_AT] |= LAST_IN_GAME;
        } else {
            self.bytes[FLAGS_AT] &= !LAST_IN_GAME;
        }
    }

    /// Number of pieces on the board.
    #[inline]
    pub fn piece_count(&self) -> usize {
        self.occupancy().count_ones() as usize
    }

    /// Calls `f` with every piece and its point, in point order, without
    /// building a `Position` (no allocation). Only the first 32 occupied
    /// points of a corrupt record are visited, and points whose code is not
    /// a piece are skipped ([`PackedPosition::validate`] reports both).
    #[inline]
    pub fn for_each_piece(&self, mut f: impl FnMut(Piece, Square)) {
        let mut occ = self.occupancy();
        let codes = u128::from_le_bytes(
            self.bytes[PIECES_AT..PIECES_AT + 16]
                .try_into()
                .unwrap_or([0; 16]),
        );
        let mut k = 0;
        while occ != 0 && k < MAX_PIECES {
            let i = occ.trailing_zeros() as usize;
            occ &= occ - 1;
            let code = (codes >> (4 * k)) as usize & 15;
            if let (Some(p), Some(sq)) = (PIECE_OF_CODE[code], Square::from_index(i)) {
                f(p, sq);
            }
            k += 1;
        }
    }

    /// Checks that the record is one `pack` could have written: at most 32
    /// pieces, piece codes in range, unused nibbles zero, a valid outcome.
    /// (Whether the position obeys the rules is `to_position`'s business.)
    pub fn validate(&self) -> Result<(), String> {
        let n = self.piece_count();
        if n > MAX_PIECES {
            return Err(format!("{n} occupied points, at most {MAX_PIECES}"));
        }
        if self.outcome_code() > 2 {
            return Err(format!("outcome code {} (0..=2)", self.outcome_code()));
        }
        let codes = u128::from_le_bytes(
            self.bytes[PIECES_AT..PIECES_AT + 16]
                .try_into()
                .unwrap_or([0; 16]),
        );
        // Bit 0 of a nibble of `high` is set when its code is 14 or 15.
        let high = codes >> 1 & codes >> 2 & codes >> 3 & NIBBLE_LOW_BITS;
        let used = if n == MAX_PIECES {
            u128::MAX
        } else {
            (1u128 << (4 * n)) - 1
        };
        if high & used != 0 {
            let k = (high & used).trailing_zeros() / 4;
            return Err(format!("piece code {} (0..14)", codes >> (4 * k) & 15));
        }
        if codes & !used != 0 {
            return Err(format!(
                "unused piece slot {} is not zero",
                (codes & !used).trailing_zeros() / 4
            ));
        }
        Ok(())
    }

    /// The position (history empty), or why the record is not a legal
    /// position.
    pub fn to_position(&self) -> Result<Position, String> {
        self.validate()?;
        let mut board: [Option<Piece>; SQUARES] = [None; SQUARES];
        self.for_each_piece(|p, sq| board[sq.index()] = Some(p));
        let mut fen = String::with_capacity(96);
        for rank in (0..10).rev() {
            let mut empty = 0u8;
            for file in 0..9 {
                match board[rank * 9 + file] {
                    Some(p) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(p.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        let side = match self.side_to_move() {
            Color::Red => 'w',
            Color::Black => 'b',
        };
        fen.push_str(&format!(
            " {side} - - {} {}",
            self.halfmove_clock(),
            self.fullmove_number().max(1)
        ));
        Position::from_fen(&fen).map_err(|e| format!("record is not a legal position ({e}): {fen}"))
    }

    /// The 32 bytes.
    #[inline]
    pub fn as_bytes(&self) -> &[u8; RECORD_SIZE] {
        &self.bytes
    }

    /// The record with these bytes (not checked: see
    /// [`PackedPosition::validate`]).
    #[inline]
    pub fn from_bytes(b: [u8; RECORD_SIZE]) -> PackedPosition {
        PackedPosition { bytes: b }
    }

    /// Identity of the placement and side to move (the bytes without score,
    /// outcome, clocks and flags), for deduplication.
    pub fn placement_key(&self) -> [u8; PIECES_AT + 16] {
        let mut k = [0u8; PIECES_AT + 16];
        k.copy_from_slice(&self.bytes[..PIECES_AT + 16]);
        // Keep the occupancy and the side bit; drop outcome and full-move bits.
        k[11] &= 0b0000_0111;
        k
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shuai_board::Rng;

    /// Positions from random games from the start position, seeded.
    fn random_positions(n: usize, seed: u64) -> Vec<Position> {
        let mut rng = Rng::new(seed);
        let mut out = Vec::new();
        while out.len() < n {
            let mut pos = Position::startpos();
            for _ in 0..rng.below(150) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.make_move(moves.as_slice()[rng.below(moves.len() as u64) as usize]);
            }
            out.push(pos);
        }
        out
    }

    #[test]
    fn round_trip_on_random_games() {
        let mut rng = Rng::new(3);
        for pos in random_positions(500, 17) {
            let score = rng.next_u64() as i16;
            let outcome =
                [Outcome::BlackWins, Outcome::Draw, Outcome::RedWins][rng.below(3) as usize];
            let p = PackedPosition::pack(&pos, score, outcome).unwrap();
            p.validate().unwrap();
            assert_eq!(p.side_to_move(), pos.side_to_move());
            assert_eq!(p.red_score(), score);
            assert_eq!(p.outcome(), outcome);
            assert_eq!(p.halfmove_clock() as u16, pos.halfmove_clock().min(255));
            assert_eq!(p.fullmove_number(), pos.fullmove_number());
            assert_eq!(p.piece_count(), pos.occupied().count() as usize);
            assert!(!p.last_in_game());
            let back = p.to_position().unwrap();
            assert_eq!(back.to_fen(), pos.to_fen());
            let mut seen = Vec::new();
            p.for_each_piece(|pc, sq| seen.push((pc, sq)));
            let expected: Vec<(Piece, Square)> = pos
                .occupied()
                .into_iter()
                .map(|sq| (pos.piece_at(sq).unwrap(), sq))
                .collect();
            assert_eq!(seen, expected);
            assert_eq!(PackedPosition::from_bytes(*p.as_bytes()), p);
        }
    }

    #[test]
    fn start_position_bytes() {
        let p = PackedPosition::pack(&Position::startpos(), -3, Outcome::RedWins).unwrap();
        let b = p.as_bytes();
        // Rank 0 full (bits 0..9), cannons b2 h2 (bits 19, 25), pawns on
        // rank 3 (27, 29, 31, 33, 35).
        assert_eq!(b[0], 0xff);
        assert_eq!(b[1] & 1, 1);
        // Red rook (code 4) then Red horse (code 3) on a0, b0.
        assert_eq!(b[12], 0x34);
        assert_eq!(&b[28..30], &(-3i16).to_le_bytes());
        assert_eq!(b[30], 0);
        // Full-move 1: low bits 1, high bits 0; outcome 2; Red to move.
        // Bits 90..96: side 0, outcome 0b10, full-move low bits 0b001.
        assert_eq!(b[11] >> 2, (0b001 << 3) | (0b10 << 1));
        assert_eq!(b[31], 0);
        assert_eq!(p.piece_count(), 32);
    }

    #[test]
    fn edge_values() {
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 b - - 300 1500").unwrap();
        for score in [i16::MIN, -1, 0, 1, i16::MAX] {
            let mut p = PackedPosition::pack(&pos, score, Outcome::BlackWins).unwrap();
            assert_eq!(p.red_score(), score);
            assert_eq!(p.halfmove_clock(), 255);
            assert_eq!(p.fullmove_number(), 1023);
            assert_eq!(p.side_to_move(), Color::Black);
            assert_eq!(p.outcome(), Outcome::BlackWins);
            assert_eq!(p.piece_count(), 2);
            p.set_last_in_game(true);
            assert!(p.last_in_game());
            assert_eq!(p.fullmove_number(), 1023);
            assert_eq!(
                p.to_position().unwrap().to_fen(),
                "3k5/9/9/9/9/9/9/9/9/4K4 b - - 255 1023"
            );
            p.set_last_in_game(false);
            assert!(!p.last_in_game());
        }
    }

    #[test]
    fn outcome_points() {
        for o in [Outcome::BlackWins, Outcome::Draw, Outcome::RedWins] {
            assert_eq!(Outcome::from_red_points(o.red_points() as f64), Some(o));
        }
        assert_eq!(Outcome::from_red_points(0.25), None);
        assert_eq!(Outcome::RedWins.red_points(), 1.0);
    }

    #[test]
    fn corrupt_records_are_reported() {
        let good = PackedPosition::pack(&Position::startpos(), 0, Outcome::Draw).unwrap();
        let mut b = *good.as_bytes();
        b[12] = 0xf4; // second piece code 15
        assert!(PackedPosition::from_bytes(b).validate().is_err());
        assert!(PackedPosition::from_bytes(b).to_position().is_err());
        let mut b = *good.as_bytes();
        b[11] |= 0b11 << 3; // outcome 3
        assert!(PackedPosition::from_bytes(b).validate().is_err());
        // A record with no kings is not a position.
        let empty = PackedPosition::from_bytes([0; RECORD_SIZE]);
        assert!(empty.validate().is_ok());
        assert!(empty.to_position().is_err());
        let mut n = 0;
        empty.for_each_piece(|_, _| n += 1);
        assert_eq!(n, 0);
    }

    #[test]
    fn placement_key_ignores_score_outcome_and_clocks() {
        let pos = Position::startpos();
        let a = PackedPosition::pack(&pos, 10, Outcome::Draw).unwrap();
        let other = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 7 40",
        )
        .unwrap();
        let mut b = PackedPosition::pack(&other, -50, Outcome::RedWins).unwrap();
        b.set_last_in_game(true);
        assert_eq!(a.placement_key(), b.placement_key());
        let black = Position::from_fen(&pos.to_fen().replace(" w ", " b ")).unwrap();
        let c = PackedPosition::pack(&black, 10, Outcome::Draw).unwrap();
        assert_ne!(a.placement_key(), c.placement_key());
    }
}
