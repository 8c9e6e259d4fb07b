//! Endgame tablebases for Shuai: every position of an ending with its
//! value for the side to move (win, draw or loss, and the distance to
//! mate), generated here by retrograde analysis.
//!
//! ```
//! use shuai_egtb::{generate_set, Material, Value};
//! use shuai_board::Position;
//! let tables = generate_set(Material::parse("KRK").unwrap(), &mut |_, _| {}).unwrap();
//! // Rook against the bare king: a0-a8 leaves Black's king on d9 no move
//! // (e9 faces Red's king, d8 is the rook's), and stalemate loses.
//! let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w").unwrap();
//! assert_eq!(tables.probe(&pos), Some(Value::Win(1)));
//! assert_eq!(tables.best_move(&pos).unwrap().0.to_string(), "a0a8");
//! ```
//!
//! # Endings and orientation
//!
//! An ending is its [`Material`], named like `KRKAA` (Red's pieces from
//! its `K`, then Black's). A table is stored for one orientation, with the
//! stronger side as Red; a position with the colours the other way round
//! is looked up rotated by half a turn with the colours swapped.
//!
//! # Indexing
//!
//! See [`index`]: a king-pair digit that folds the left-right mirror image
//! (45 values for 81 king pairs), one digit per colour and kind giving the
//! *set* of points its pieces stand on among the points that kind can reach
//! (advisor 5, elephant 7, pawn 55, others 90), and the side to move.
//!
//! # Values and distances
//!
//! Distances are in plies to mate with best play: the winner mates as soon
//! as it can, the loser delays as long as it can. A position with no legal
//! move is lost (checkmate and stalemate alike, as Xiangqi has it).
//! Captures lead into the tables of smaller endings, which are generated
//! first ([`Material::closure`]); endings with no attacking piece on either
//! side are generated like any other rather than assumed drawn.
//!
//! # Method
//!
//! Retrograde analysis by distance: mates (no legal move) are distance 0;
//! a position with a move to a position lost at distance `d` is won at
//! `d + 1` (found by taking moves back from each newly lost position); a
//! position all of whose moves lead to won positions is lost at one more
//! than its longest defence (each position keeps a count of its distinct
//! successor positions still open, and taking moves back from a newly won
//! position counts it down). Taking a move back is checked with the
//! board's own legality test (`Position::is_legal`) on the position before
//! the move, so the predecessors are exactly the positions whose legal
//! moves lead here. Captures are not taken back: they lead out of the
//! ending, and their values are read from the smaller tables at the start.
//! Each level is processed in parallel (rayon). Memory: 3 bytes per index
//! while generating, 2 while a whole table is held (a probe holds only
//! blocks).
//!
//! # Cycles and the repetition rules
//!
//! What remains after the retrograde analysis is every position from which
//! neither side can force mate: its best play repeats forever. A repeated
//! position is not a draw by itself in Xiangqi; the rule books judge the
//! moves of the cycle. The tables apply exactly one of those rulings, the
//! one both the Chinese Xiangqi Association's rules and the Asian (AXF)
//! rules give the same way:
//!
//! * **Perpetual check loses.** When one side checks on every move of a
//!   cycle and the other side does not, the checking side must deviate or
//!   lose. So a side that can avoid mate only by checking forever loses.
//!   The tables find these positions by the method of the [`rule`] module
//!   and store them as [`Value::WinByRule`] / [`Value::LossByRule`], with
//!   no distance to mate (none exists: the game is decided by the ruling).
//!   The winner's strategy there never checks inside the cycle, so the
//!   cycle is not a mutual perpetual check (which both books call a draw).
//!   The search for these positions is conservative: a win by the rule
//!   that needs the winner to check now and then inside the cycle is not
//!   found and stays a draw.
//! * **Every other cycle is a draw in the tables.** Here the books differ,
//!   and the tables decide for neither (the differences are the policy of
//!   `shuai_board::rules`, file `board/src/rules/book.rs`): perpetual
//!   *chase* (长捉) loses in both, but the Chinese book also forbids
//!   perpetual mate threats (长杀) and "one check, one chase", lets a
//!   chase move between several pieces and counts defenders (a piece with
//!   too few defenders can be chased), while the Asian book allows mate
//!   threats and "one check, one chase", needs the same piece chased every
//!   move, lets any real defender protect, and lets the king and pawns
//!   chase for ever. A draw in a table therefore means: neither side can
//!   force mate, nor force the other into a perpetual check. A side that
//!   can hold such a draw *only* by perpetual chase or mate threat could
//!   lose under one book or both; the tables do not claim otherwise, and a
//!   referee must judge such a game from its moves. In the stage-1 endings
//!   (one attacking piece) the defending side has no piece that can give
//!   check, so the rule can decide a position only once both sides have an
//!   attacking piece (rook against horse, `KRKH`, is the smallest such
//!   ending with results by the rule; `docs/tables.md` has the figures).
//! * **The natural-move limit** (60 moves without a capture in both books,
//!   with checks counted differently) is not applied: a mate distance is
//!   the distance with best play, and a long one can exceed what the limit
//!   leaves in a game. The engine must compare the two.
//! * **History** is not part of a position: a table value is the value of
//!   the position with no earlier repetitions.
//!
//! A win or loss with a distance never depends on a repetition (the
//! distance strictly falls along best play), so it holds under both books.
//!
//! # Files
//!
//! See [`file`]: a header with the ending's name, the format version, the
//! entry count, the table's distinct values and an index of blocks with a
//! CRC-32 each, then the values in blocks of 32,768 entries, each coded on
//! its own by an adaptive range coder (the entries that are not positions
//! stored as whatever codes cheapest). A damaged or foreign file or block
//! is refused with a message. [`Tablebase`] probes the files in place: it
//! reads a file's header and index when the file is first probed, then
//! only the block a probe needs, kept in a cache within a memory budget.
//! Files of the first, run-length format are still read.

#![warn(missing_docs)]

mod block;
mod children;
pub mod file;
mod gen;
pub mod index;
pub mod material;
mod probe;
mod progress;
pub mod rule;
mod table;
mod value;
pub mod verify;

pub use gen::{generate, GenError};
pub use material::{stage1, stage2, Material, MaterialError};
pub use probe::{
    best_move_among, best_move_with, line_with, CacheStats, Tablebase, DEFAULT_CACHE_MB,
};
pub use progress::GenProgress;
pub use table::{Census, Table, TableSet};
pub use value::{Value, Wdl};

/// Generates `material` and every ending its captures lead to, smallest
/// first, all in memory (for tests and small endings; the tools write each
/// table to disk as it is done).
pub fn generate_set(
    material: Material,
    progress: &mut dyn FnMut(Material, GenProgress),
) -> Result<TableSet, GenError> {
    let mut set = TableSet::new();
    for m in material.closure() {
        let table = generate(m, &set, &mut |p| progress(m, p))?;
        set.insert(std::sync::Arc::new(table));
    }
    Ok(set)
}

/// Generates `material` and the endings its captures lead to, as
/// [`generate_set`] does, and writes every table to `dir` (created if
/// needed): a directory of tables for tests and small endings.
pub fn generate_into(material: Material, dir: &std::path::Path) -> Result<TableSet, String> {
    let set = generate_set(material, &mut |_, _| {}).map_err(|e| e.to_string())?;
    for m in material.closure() {
        if let Some(t) = set.get(&m) {
            file::save(t, dir).map_err(|e| e.to_string())?;
        }
    }
    Ok(set)
}
