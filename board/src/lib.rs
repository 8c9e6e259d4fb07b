//! The rules of Xiangqi (Chinese chess) for the Shuai engine: points,
//! pieces, 90-point bitboards, FEN, Zobrist keys, legal move generation,
//! make/unmake, attacks, static exchange evaluation and move notation.
//!
//! This crate depends on nothing but `std`, so search, engine and tools all
//! share one implementation of the rules.
//!
//! ```
//! use shuai_board::{perft, Position};
//! let mut pos = Position::startpos();
//! assert_eq!(pos.legal_moves().len(), 44);
//! assert_eq!(perft(&mut pos, 2), 1920);
//! ```

#![warn(missing_docs)]

pub mod attacks;
mod bitboard;
mod chinese;
mod fen;
mod iccs;
mod movegen;
mod moves;
mod perft;
mod piece;
mod position;
pub mod rng;
pub mod rules;
mod see;
mod square;
mod zobrist;

pub use bitboard::{Bitboard, Squares};
pub use chinese::ChineseNotationError;
pub use fen::{legal_points, FenError, PositionBuffer, START_FEN};
pub use iccs::{parse_iccs, MoveParseError};
pub use movegen::GenKind;
pub use moves::{Move, MoveList, MAX_MOVES};
pub use perft::{perft, perft_divide, perft_divide_until};
pub use piece::{Color, Piece, PieceKind};
pub use position::{KingShield, Position};
pub use rng::Rng;
pub use see::{see_value, SEE_VALUES};
pub use square::{File, Rank, Square, FILES, RANKS, SQUARES};
pub use zobrist::{piece_key, side_key};
