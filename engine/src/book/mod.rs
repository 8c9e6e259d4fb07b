//! Opening books in the formats Xiangqi players already have: ElephantEye's
//! `BOOK.DAT`, BHGUI's `.obk` and Pengfei's `.pfBook`.
//!
//! All three key a position by a Zobrist hash over ElephantEye's 16×16
//! board (files a–i are x = 3..11, ranks 9..0 are y = 3..12) and store a
//! position under itself or its left-right mirror only, so [`Book::probe`]
//! looks up both and mirrors the moves found under the mirror back. Keys
//! collide (ElephantEye's are only 32 bits), so every move found is checked
//! for legality and dropped when illegal.
//!
//! ```no_run
//! use shuai_engine::book::Book;
//! use shuai_board::Position;
//! let book = Book::open("BOOK.DAT")?;
//! for m in book.probe(&Position::startpos())? {
//!     println!("{} {}", m.mv, m.weight);
//! }
//! # Ok::<(), shuai_engine::book::BookError>(())
//! ```

mod elephanteye;
mod obk;
mod obk_keys;

pub use elephanteye::{lock as elephanteye_lock, ElephantEyeWriter};
pub use obk::{key as obk_key, BookEntry, SqliteFormat, SqliteWriter};

use shuai_board::{Move, Position, Square};
use std::fmt;
use std::path::{Path, PathBuf};

/// One move a book gives for a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move (legal in the probed position).
    pub mv: Move,
    /// How often to play it relative to the position's other book moves;
    /// 0 means never by choice.
    pub weight: u32,
    /// The score the book gives the move (`.obk`/`.pfBook`; `None` in
    /// ElephantEye books).
    pub score: Option<i32>,
    /// Games won after the move, by the side playing it (`.obk`/`.pfBook`).
    pub wins: Option<u32>,
    /// Games drawn after the move.
    pub draws: Option<u32>,
    /// Games lost after the move.
    pub losses: Option<u32>,
}

/// Why a book could not be read.
#[derive(Debug)]
pub enum BookError {
    /// The file could not be opened or read.
    Io(PathBuf, std::io::Error),
    /// The file is not a book in any format we read, or is damaged.
    Corrupt(PathBuf, String),
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io(path, e) => write!(f, "cannot read book {}: {e}", path.display()),
            BookError::Corrupt(path, why) => {
                write!(f, "{} is not a usable book: {why}", path.display())
            }
        }
    }
}

impl std::error::Error for BookError {}

/// The format of an opened book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookFormat {
    /// ElephantEye `BOOK.DAT`.
    ElephantEye,
    /// BHGUI `.obk` (SQLite, table `bhobk`).
    Obk,
    /// Pengfei `.pfBook` (SQLite, table `pfBook`).
    PfBook,
}

impl fmt::Display for BookFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BookFormat::ElephantEye => "ElephantEye",
            BookFormat::Obk => "BHGUI obk",
            BookFormat::PfBook => "Pengfei pfBook",
        })
    }
}

enum Inner {
    ElephantEye(elephanteye::Reader),
    Sqlite(obk::Reader),
}

/// An opened book. The format is recognised from the contents (SQLite
/// files start with their magic; anything else must be a well-formed
/// ElephantEye book), not from the file name.
pub struct Book {
    path: PathBuf,
    inner: Inner,
}

impl fmt::Debug for Book {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Book")
            .field("path", &self.path)
            .field("format", &self.format())
            .finish()
    }
}

/// The first bytes of every SQLite 3 database.
const SQLITE_MAGIC: &[u8] = b"SQLite format 3\0";

impl Book {
    /// Opens a book and checks that it is one: an ElephantEye book is read
    /// whole (it is small: 8 bytes a move), a SQLite book is opened
    /// read-only and its table checked.
    pub fn open(path: impl AsRef<Path>) -> Result<Book, BookError> {
        let path = path.as_ref().to_path_buf();
        let mut head = [0u8; 16];
        let n = {
            let mut file =
                std::fs::File::open(&path).map_err(|e| BookError::Io(path.clone(), e))?;
            read_up_to(&mut file, &mut head).map_err(|e| BookError::Io(path.clone(), e))?
        };
        let inner = if n == SQLITE_MAGIC.len() && head == SQLITE_MAGIC {
            Inner::Sqlite(obk::Reader::open(&path)?)
        } else {
            Inner::ElephantEye(elephanteye::Reader::open(&path)?)
        };
        Ok(Book { path, inner })
    }

    /// The file the book was read from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The book's format.
    pub fn format(&self) -> BookFormat {
        match &self.inner {
            Inner::ElephantEye(_) => BookFormat::ElephantEye,
            Inner::Sqlite(r) => r.format(),
        }
    }

    /// The book moves of `pos` (found under the position or its mirror),
    /// legal ones only, heaviest first (ties in move order). A move found
    /// both ways (a symmetric position) is listed once.
    pub fn probe(&self, pos: &Position) -> Result<Vec<BookMove>, BookError> {
        let mut found: Vec<BookMove> = Vec::new();
        for mirrored in [false, true] {
            let raw = match &self.inner {
                Inner::ElephantEye(r) => r.moves(pos, mirrored),
                Inner::Sqlite(r) => r.moves(pos, mirrored)?,
            };
            for mut m in raw {
                if mirrored {
                    m.mv = mirror_move(m.mv);
                }
                if !pos.is_legal(m.mv) {
                    // Another position's move under a colliding key.
                    continue;
                }
                match found.iter_mut().find(|f| f.mv == m.mv) {
                    Some(f) if f.weight >= m.weight => {}
                    Some(f) => *f = m,
                    None => found.push(m),
                }
            }
        }
        if let Inner::Sqlite(_) = &self.inner {
            obk::fill_weights(&mut found);
        }
        found.sort_by(|a, b| b.weight.cmp(&a.weight).then(a.mv.cmp(&b.mv)));
        Ok(found)
    }
}

/// Reads until `buf` is full or the file ends; returns the bytes read.
fn read_up_to(r: &mut impl std::io::Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// A point on ElephantEye's 16×16 board, `(y << 4) | x`; `mirrored` reads
/// the board left to right reversed.
pub(crate) fn square16(sq: Square, mirrored: bool) -> usize {
    let file = sq.file().index();
    let file = if mirrored { 8 - file } else { file };
    let y = 12 - sq.rank().index();
    (y << 4) | (file + 3)
}

/// The point of a 16×16 index, if it lies on the 9×10 board.
pub(crate) fn from_square16(sq: u16) -> Option<Square> {
    let (x, y) = (i32::from(sq & 15), i32::from(sq >> 4));
    if sq > 0xFF {
        return None;
    }
    Square::from_coords(x - 3, 12 - y)
}

/// The move mirrored left to right: what a move becomes when its position
/// is looked up (or stored) under the position's mirror.
pub fn mirror_move(m: Move) -> Move {
    Move::new(m.from().mirror(), m.to().mirror())
}

/// The Zobrist key of `pos` over the 16×16 board: each piece's number from
/// `table(piece 0..14, square16)` XORed together. Shared by both key
/// schemes (they differ in their numbers and in which side's turn is
/// marked).
pub(crate) fn board_key<T>(pos: &Position, mirrored: bool, table: impl Fn(usize, usize) -> T) -> T
where
    T: std::ops::BitXor<Output = T> + Default,
{
    let mut key = T::default();
    for sq in pos.occupied() {
        if let Some(piece) = pos.piece_at(sq) {
            key = key ^ table(piece.index(), square16(sq, mirrored));
        }
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_of_the_16_by_16_board() {
        let a9: Square = "a9".parse().unwrap();
        let i0: Square = "i0".parse().unwrap();
        assert_eq!(square16(a9, false), 0x33);
        assert_eq!(square16(i0, false), 0xCB);
        assert_eq!(square16(i0, true), 0xC3);
        assert_eq!(from_square16(0x33), Some(a9));
        assert_eq!(from_square16(0xCB), Some(i0));
        assert_eq!(from_square16(0x32), None);
        assert_eq!(from_square16(0xD3), None);
        assert_eq!(from_square16(0x133), None);
    }
}
