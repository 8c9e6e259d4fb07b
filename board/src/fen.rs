//! FEN text in and out, with validation that names the problem.

use crate::{
    Bitboard, Color, File, Piece, PieceKind, Position, Rank, Square, FILES, MAX_MOVES, RANKS,
};
use std::fmt;

/// The standard starting position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Why a FEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The text has no placement field.
    Empty,
    /// The placement does not have 10 ranks separated by `/`.
    WrongRankCount(usize),
    /// A rank (ICCS number 0–9) does not cover exactly 9 files.
    WrongFileCount {
        /// The rank, as an ICCS rank number.
        rank: usize,
        /// How many files the text covered.
        files: usize,
    },
    /// A character that is neither a piece letter nor a digit 1–9.
    UnknownPiece(char),
    /// The side to move is not `w`, `r` or `b`.
    BadSide(String),
    /// A move counter is not a number.
    BadCounter(String),
    /// More fields than a FEN has.
    TrailingText(String),
    /// A side has no king.
    MissingKing(Color),
    /// More pieces of one kind than a side starts with.
    TooMany {
        /// The offending piece (colour and kind).
        piece: Piece,
        /// How many the FEN has.
        count: u32,
    },
    /// A king outside its palace.
    KingOutsidePalace(Square),
    /// An advisor or elephant on a point it can never reach.
    UnreachablePoint {
        /// The piece.
        piece: Piece,
        /// Where the FEN put it.
        square: Square,
    },
    /// An advisor outside its own palace or an elephant across the river:
    /// refused even in a composition, because there it could attack the
    /// enemy king, which the check test never looks for (see
    /// `Position::king_attackers`).
    OutsideItsHalf {
        /// The piece.
        piece: Piece,
        /// Where the FEN put it.
        square: Square,
    },
    /// A pawn behind its starting rank.
    PawnBehindStart(Square),
    /// The side that is not to move is in check (its king could be taken),
    /// including kings facing each other on an open file.
    OpponentInCheck(Color),
    /// A composed position with so many pieces that one side could have
    /// more moves than a move list holds.
    TooManyPieces(Color),
    /// Two pieces given on one point ([`Position::from_pieces`]).
    SharedPoint(Square),
}

impl FenError {
    /// Whether a composed position may break this rule and still be
    /// played and judged ([`Position::from_fen_lenient`] accepts it with a
    /// warning): a pawn behind its starting rank, an advisor or elephant
    /// off its points, more pieces of a kind than a set has.
    pub fn is_composition_only(&self) -> bool {
        matches!(
            self,
            FenError::TooMany { .. }
                | FenError::UnreachablePoint { .. }
                | FenError::PawnBehindStart(_)
        )
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |c: &Color| match c {
            Color::Red => "Red",
            Color::Black => "Black",
        };
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::WrongRankCount(n) => write!(f, "FEN has {n} ranks, expected 10"),
            FenError::WrongFileCount { rank, files } => {
                write!(f, "FEN rank {rank} covers {files} files, expected 9")
            }
            FenError::UnknownPiece(c) => write!(f, "unknown piece letter '{c}' in FEN"),
            FenError::BadSide(s) => write!(f, "side to move '{s}' is not w, r or b"),
            FenError::BadCounter(s) => write!(f, "move counter '{s}' is not a number"),
            FenError::TrailingText(s) => write!(f, "unexpected text after FEN: '{s}'"),
            FenError::MissingKing(c) => write!(f, "{} has no king", side(c)),
            FenError::TooMany { piece, count } => write!(
                f,
                "{} has {count} pieces '{}', at most {} allowed",
                side(&piece.color()),
                piece.fen_char(),
                piece.kind().max_count()
            ),
            FenError::KingOutsidePalace(sq) => write!(f, "king on {sq} is outside its palace"),
            FenError::UnreachablePoint { piece, square } => write!(
                f,
                "piece '{}' on {square} stands on a point it can never reach",
                piece.fen_char()
            ),
            FenError::OutsideItsHalf { piece, square } => {
                let (name, place) = match piece.kind() {
                    PieceKind::Advisor => ("advisor", "outside its palace"),
                    _ => ("elephant", "across the river"),
                };
                write!(f, "{name} '{}' on {square} is {place}", piece.fen_char())
            }
            FenError::PawnBehindStart(sq) => write!(f, "pawn on {sq} is behind its starting rank"),
            FenError::TooManyPieces(c) => write!(
                f,
                "{} has more pieces than the engine can generate moves for",
                side(c)
            ),
            FenError::OpponentInCheck(c) => {
                write!(f, "{} is not to move but its king is attacked", side(c))
            }
            FenError::SharedPoint(sq) => write!(f, "two pieces on {sq}"),
        }
    }
}

impl std::error::Error for FenError {}

/// Whether `piece` can ever stand on `sq` by the rules of movement.
fn reachable(piece: Piece, sq: Square) -> Result<(), FenError> {
    let color = piece.color();
    let (file, rank) = (sq.file().index(), sq.rank().relative_to(color));
    let ok = match piece.kind() {
        PieceKind::King => {
            if !sq.in_palace(color) {
                return Err(FenError::KingOutsidePalace(sq));
            }
            true
        }
        // The five points of the palace's diagonals.
        PieceKind::Advisor => {
            if !sq.in_palace(color) {
                return Err(FenError::OutsideItsHalf { piece, square: sq });
            }
            (file + rank as usize) % 2 == 1
        }
        // Seven points: files a, c, e, g, i on ranks 0, 2, 4 (relative) where
        // the file and rank steps match.
        PieceKind::Elephant => {
            if rank > 4 {
                return Err(FenError::OutsideItsHalf { piece, square: sq });
            }
            rank % 2 == 0 && file % 2 == 0 && (file / 2 + rank as usize / 2) % 2 == 1
        }
        PieceKind::Pawn => {
            if rank < 3 {
                return Err(FenError::PawnBehindStart(sq));
            }
            true
        }
        _ => true,
    };
    if ok {
        Ok(())
    } else {
        Err(FenError::UnreachablePoint { piece, square: sq })
    }
}

/// The most moves a piece of `kind` can have: a bound on the move list a
/// composed position needs.
fn most_moves(kind: PieceKind) -> usize {
    match kind {
        PieceKind::Rook | PieceKind::Cannon => 17,
        PieceKind::Horse => 8,
        PieceKind::King | PieceKind::Advisor | PieceKind::Elephant => 4,
        PieceKind::Pawn => 3,
    }
}

impl Position {
    /// Parses a FEN. The fields after the side to move are optional; `H`/`E`
    /// are read as horse/elephant; `w` or `r` mean Red to move. Placements
    /// no game can reach are refused; see [`Position::from_fen_lenient`]
    /// for composed positions.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::parse_fen(fen, false).map(|(pos, _)| pos)
    }

    /// Parses a FEN of a composed problem or study: a placement a game
    /// cannot reach but the engine can play (a pawn behind its starting
    /// rank, an advisor or elephant off its points, more pieces of a kind
    /// than a set has) is accepted, each such point returned as a warning
    /// ([`FenError::is_composition_only`]). Still refused: malformed text,
    /// a missing king, a king or an advisor outside its palace, an elephant
    /// across the river, the side not to move in check, and more pieces
    /// than a move list can hold.
    pub fn from_fen_lenient(fen: &str) -> Result<(Position, Vec<FenError>), FenError> {
        Position::parse_fen(fen, true)
    }

    fn parse_fen(fen: &str, lenient: bool) -> Result<(Position, Vec<FenError>), FenError> {
        let mut warnings = Vec::new();
        let mut tolerate = |e: FenError| {
            if lenient && e.is_composition_only() {
                warnings.push(e);
                Ok(())
            } else {
                Err(e)
            }
        };
        let mut fields = fen.split_whitespace();
        let placement = fields.next().ok_or(FenError::Empty)?;
        let rows: Vec<&str> = placement.split('/').collect();
        if rows.len() != RANKS {
            return Err(FenError::WrongRankCount(rows.len()));
        }
        let mut pos = Position::empty();
        let mut counts = [0u32; Piece::COUNT];
        for (i, row) in rows.iter().enumerate() {
            let rank_index = RANKS - 1 - i;
            let mut file = 0usize;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10).filter(|d| (1..=9).contains(d)) {
                    file += d as usize;
                    continue;
                }
                let piece = Piece::from_fen_char(c).ok_or(FenError::UnknownPiece(c))?;
                if file >= FILES {
                    file += 1;
                    continue; // reported as a wrong file count below
                }
                let sq = Square::new(
                    File::new(file as u8).expect("file < 9"),
                    Rank::new(rank_index as u8).expect("rank < 10"),
                );
                if let Err(e) = reachable(piece, sq) {
                    tolerate(e)?;
                }
                counts[piece.index()] += 1;
                if counts[piece.index()] == piece.kind().max_count() + 1 {
                    tolerate(FenError::TooMany {
                        piece,
                        count: counts[piece.index()],
                    })?;
                }
                pos.put(piece, sq);
                file += 1;
            }
            if file != FILES {
                return Err(FenError::WrongFileCount {
                    rank: rank_index,
                    files: file,
                });
            }
        }
        for color in Color::ALL {
            if pos.pieces(color, PieceKind::King).is_empty() {
                return Err(FenError::MissingKing(color));
            }
            let bound: usize = PieceKind::ALL
                .iter()
                .map(|&k| pos.pieces(color, k).count() as usize * most_moves(k))
                .sum();
            if bound > MAX_MOVES {
                return Err(FenError::TooManyPieces(color));
            }
        }
        let side = match fields.next() {
            None | Some("w" | "r" | "W" | "R" | "red") => Color::Red,
            Some("b" | "B" | "black") => Color::Black,
            Some(s) => return Err(FenError::BadSide(s.to_string())),
        };
        pos.set_side_to_move(side);
        // Castling and en-passant fields: always "-" in Xiangqi; tolerated.
        let _castling = fields.next();
        let _en_passant = fields.next();
        let mut counter = |default: u16| -> Result<u16, FenError> {
            match fields.next() {
                None => Ok(default),
                Some(s) => s
                    .parse::<u16>()
                    .map_err(|_| FenError::BadCounter(s.to_string())),
            }
        };
        let halfmove = counter(0)?;
        let fullmove = counter(1)?;
        if let Some(extra) = fields.next() {
            return Err(FenError::TrailingText(extra.to_string()));
        }
        pos.set_counters(halfmove, fullmove);
        if pos.king_attacked(!side) {
            return Err(FenError::OpponentInCheck(!side));
        }
        debug_assert_eq!(pos.key(), pos.compute_key());
        Ok((pos, warnings))
    }

    /// A position from a list of pieces and the side to move, counters at
    /// zero and no history: for tools that enumerate positions (endgame
    /// tables), where writing and parsing a FEN per position would cost
    /// more than the work done on it. The same placements as
    /// [`Position::from_fen`] are refused, and two pieces on one point.
    pub fn from_pieces(pieces: &[(Piece, Square)], side: Color) -> Result<Position, FenError> {
        // No preallocated history: a generator builds millions of these and
        // plays a move or two on each.
        let mut pos = Position::empty_without_history();
        pos.place(pieces, side)?;
        Ok(pos)
    }

    /// Fills an empty board as [`Position::from_pieces`] describes; a
    /// refusal may leave it half filled.
    fn place(&mut self, pieces: &[(Piece, Square)], side: Color) -> Result<(), FenError> {
        let mut counts = [0u32; Piece::COUNT];
        for &(piece, sq) in pieces {
            reachable(piece, sq)?;
            if self.piece_at(sq).is_some() {
                return Err(FenError::SharedPoint(sq));
            }
            counts[piece.index()] += 1;
            if counts[piece.index()] > piece.kind().max_count() {
                return Err(FenError::TooMany {
                    piece,
                    count: counts[piece.index()],
                });
            }
            self.put(piece, sq);
        }
        for color in Color::ALL {
            if self.pieces(color, PieceKind::King).is_empty() {
                return Err(FenError::MissingKing(color));
            }
        }
        // The piece limits above keep every side within a move list.
        self.set_side_to_move(side);
        if self.king_attacked(!side) {
            return Err(FenError::OpponentInCheck(!side));
        }
        Ok(())
    }

    /// The FEN of the position (side `w` or `b`, counters included).
    pub fn to_fen(&self) -> String {
        let mut out = String::with_capacity(96);
        for rank in Rank::ALL.iter().rev() {
            let mut empty = 0;
            for file in File::ALL {
                match self.piece_at(Square::new(file, *rank)) {
                    Some(p) => {
                        if empty > 0 {
                            out.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        out.push(p.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
            if rank.index() > 0 {
                out.push('/');
            }
        }
        let side = match self.side_to_move() {
            Color::Red => 'w',
            Color::Black => 'b',
        };
        out.push_str(&format!(
            " {side} - - {} {}",
            self.halfmove_clock(),
            self.fullmove_number()
        ));
        out
    }
}

/// One position rebuilt in place from piece lists, for tools that
/// enumerate millions of them (endgame tables): unlike
/// [`Position::from_pieces`], which builds a new position whose history
/// allocates on its first move, it keeps the memory of its history from
/// one position to the next, so the enumeration allocates nothing per
/// position. The position is only handed out when the pieces made one.
/// The buffer itself is a pointer, cheap to move: parallel iterators move
/// their per-job state with every item (`rayon`'s `map_init`), and moving
/// a whole position each time cost more than building it.
#[derive(Clone, Debug)]
pub struct PositionBuffer {
    pos: Box<Position>,
}

impl PositionBuffer {
    /// A buffer with room for a few moves of history.
    pub fn new() -> PositionBuffer {
        PositionBuffer {
            pos: Box::new(Position::empty_with_history_capacity(8)),
        }
    }

    /// The position [`Position::from_pieces`] would build from `pieces`
    /// and `side`, with no history, or why there is none (the same
    /// refusals). The position before is gone either way.
    pub fn set(
        &mut self,
        pieces: &[(Piece, Square)],
        side: Color,
    ) -> Result<&mut Position, FenError> {
        self.pos.clear();
        match self.pos.place(pieces, side) {
            Ok(()) => Ok(&mut self.pos),
            Err(e) => {
                // Half filled, and not a position: emptied until the next
                // `set`, which can only hand out a whole one.
                self.pos.clear();
                Err(e)
            }
        }
    }
}

impl Default for PositionBuffer {
    fn default() -> PositionBuffer {
        PositionBuffer::new()
    }
}

impl std::str::FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}

/// All points a piece of `piece`'s kind and colour may ever occupy.
pub fn legal_points(piece: Piece) -> Bitboard {
    Square::all()
        .filter(|&sq| reachable(piece, sq).is_ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_buffer_builds_what_from_pieces_builds() {
        let start = Position::from_fen(START_FEN).unwrap();
        let pieces: Vec<(Piece, Square)> = start
            .occupied()
            .into_iter()
            .map(|sq| (start.piece_at(sq).unwrap(), sq))
            .collect();
        let king = |c, sq: &str| (Piece::new(c, PieceKind::King), sq.parse().unwrap());
        // Kings on different files (on one file they would face each other).
        let kings = vec![king(Color::Red, "d0"), king(Color::Black, "e9")];
        let mut buffer = PositionBuffer::new();
        for (placement, side) in [
            (&kings, Color::Black),
            (&pieces, Color::Red),
            (&kings, Color::Red),
        ] {
            let fresh = Position::from_pieces(placement, side).unwrap();
            let pos = buffer.set(placement, side).unwrap();
            assert_eq!(pos.to_fen(), fresh.to_fen());
            assert_eq!(pos.key(), fresh.key());
            assert_eq!(pos.key(), pos.compute_key());
            assert_eq!(pos.ply_count(), 0);
            // A move played: its history must not reach the next position.
            let m = pos.legal_moves().as_slice()[0];
            pos.make_move(m);
        }
        // Refusals: the kings facing each other (Black's is attacked with
        // Red to move), two pieces on one point (found after the first
        // was placed); a good placement after them is whole again.
        let facing = [king(Color::Red, "e0"), king(Color::Black, "e9")];
        assert_eq!(
            buffer.set(&facing, Color::Red).err(),
            Some(FenError::OpponentInCheck(Color::Black))
        );
        let shared = [king(Color::Red, "e0"), king(Color::Red, "e0")];
        assert!(matches!(
            buffer.set(&shared, Color::Red),
            Err(FenError::SharedPoint(_))
        ));
        let pos = buffer.set(&kings, Color::Red).unwrap();
        assert_eq!(pos.to_fen(), "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
        assert_eq!(pos.key(), pos.compute_key());
    }

    #[test]
    fn start_position_round_trips() {
        let pos = Position::from_fen(START_FEN).unwrap();
        assert_eq!(pos.to_fen(), START_FEN);
        assert_eq!(pos.occupied().count(), 32);
    }

    #[test]
    fn reachable_point_counts() {
        let count = |c, k| legal_points(Piece::new(c, k)).count();
        for c in Color::ALL {
            assert_eq!(count(c, PieceKind::King), 9);
            assert_eq!(count(c, PieceKind::Advisor), 5);
            assert_eq!(count(c, PieceKind::Elephant), 7);
            assert_eq!(count(c, PieceKind::Pawn), 63);
            assert_eq!(count(c, PieceKind::Rook), 90);
        }
    }
}
