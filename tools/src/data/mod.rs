//! Training data for the neural-network evaluation: the 32-byte packed
//! position record ([`PackedPosition`]), the binary and text files that
//! hold them ([`read_positions`], [`PositionWriter`]) and the `data`
//! subcommands' operations (statistics, conversion, shuffling, splitting by
//! game, deduplication).

mod file;
mod ops;
mod packed;

pub use file::{
    parse_text, read_header, read_positions, text_line, write_positions, write_text, Format,
    Header, PositionWriter, HEADER_FIXED, MAGIC, VERSION,
};
pub use ops::{dedup, games, shuffle, split_by_game, Stats, SCORE_BUCKETS};
pub use packed::{Outcome, PackError, PackedPosition, MAX_PIECES, RECORD_SIZE};
