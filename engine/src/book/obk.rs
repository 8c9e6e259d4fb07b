//! BHGUI `.obk` and Pengfei `.pfBook` books: SQLite databases with one
//! table (`bhobk` or `pfBook`) of columns `vkey vmove vscore vwin vdraw
//! vlost vvalid vmemo vindex`.
//!
//! `vkey` is a signed 64-bit Zobrist key with the numbers of
//! [`super::obk_keys`] over ElephantEye's 16×16 board, the side's number
//! XORed in when Red is to move; `vmove = from << 8 | to` (the reverse of
//! ElephantEye's order). Only rows with `vvalid = 1` count. BHGUI files
//! keep negative keys as the REAL whose bits are the key (the Java GUI
//! sojourners/public-Xiangqi looks them up that way, BhOpenBook.java), so
//! both spellings are looked up and written that way.
//!
//! The connection is not `Sync` (SQLite handles are used by one thread at
//! a time); it sits behind a mutex so a [`super::Book`] can be shared.

#[cfg(not(target_family = "wasm"))]
use super::from_square16;
use super::{board_key, obk_keys, square16, BookError, BookFormat, BookMove};
#[cfg(not(target_family = "wasm"))]
use rusqlite::types::{Value, ValueRef};
#[cfg(not(target_family = "wasm"))]
use rusqlite::{params, Connection, OpenFlags};
use shuai_board::{Color, Move, Position};
use std::path::Path;
#[cfg(not(target_family = "wasm"))]
use std::path::PathBuf;
#[cfg(not(target_family = "wasm"))]
use std::sync::Mutex;

fn key_of(pos: &Position, mirrored: bool) -> i64 {
    let key = board_key(pos, mirrored, |piece, sq| {
        obk_keys::PIECES[piece * 256 + sq]
    });
    let key = match pos.side_to_move() {
        Color::Red => key ^ obk_keys::PLAYER,
        Color::Black => key,
    };
    key as i64
}

/// The `.obk`/`.pfBook` key of `pos` (the start position's is
/// 7101337512282506414).
pub fn key(pos: &Position) -> i64 {
    key_of(pos, false)
}

/// The REAL spelling of a negative BHGUI key, when it has one: a NaN
/// would be stored as NULL by SQLite, so such keys stay integers.
#[cfg(not(target_family = "wasm"))]
fn real_spelling(key: i64) -> Option<f64> {
    let real = f64::from_bits(key as u64);
    (key < 0 && !real.is_nan()).then_some(real)
}

/// Which of the two SQLite layouts a file uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SqliteFormat {
    /// BHGUI `.obk`: table `bhobk`.
    Obk,
    /// Pengfei `.pfBook`: table `pfBook`.
    PfBook,
}

#[cfg(not(target_family = "wasm"))]
impl SqliteFormat {
    fn table(self) -> &'static str {
        match self {
            SqliteFormat::Obk => "bhobk",
            SqliteFormat::PfBook => "pfBook",
        }
    }
}

/// A value as a whole number, whatever SQLite type it was stored as
/// (GUIs differ); text that is not UTF-8 or not a number is no number.
/// Read as a [`ValueRef`]: rusqlite's owned `Value` panics on text that is
/// not UTF-8, which a damaged book holds (found by the `book_sqlite` fuzz
/// target).
#[cfg(not(target_family = "wasm"))]
fn int_of(v: ValueRef<'_>) -> Option<i64> {
    match v {
        ValueRef::Integer(i) => Some(i),
        ValueRef::Real(r) if r.is_finite() => Some(r as i64),
        ValueRef::Text(t) => std::str::from_utf8(t).ok()?.trim().parse().ok(),
        _ => None,
    }
}

/// An opened SQLite book.
#[cfg(not(target_family = "wasm"))]
pub(super) struct Reader {
    path: PathBuf,
    format: SqliteFormat,
    conn: Mutex<Connection>,
}

#[cfg(not(target_family = "wasm"))]
impl Reader {
    pub(super) fn open(path: &Path) -> Result<Reader, BookError> {
        let corrupt = |why: String| BookError::Corrupt(path.to_path_buf(), why);
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| corrupt(format!("cannot open the SQLite database: {e}")))?;
        let tables: Vec<String> = conn
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
            .and_then(|mut s| {
                s.query_map([], |r| r.get::<_, String>(0))?
                    .collect::<Result<Vec<_>, _>>()
            })
            .map_err(|e| corrupt(format!("cannot read the SQLite database: {e}")))?;
        let has = |name: &str| tables.iter().any(|t| t.eq_ignore_ascii_case(name));
        let format = if has("bhobk") {
            SqliteFormat::Obk
        } else if has("pfBook") {
            SqliteFormat::PfBook
        } else {
            return Err(corrupt(
                "a SQLite database without a bhobk (BHGUI) or pfBook (Pengfei) table".into(),
            ));
        };
        let reader = Reader {
            path: path.to_path_buf(),
            format,
            conn: Mutex::new(conn),
        };
        // Prepares the lookup once, so a table without the expected
        // columns is refused now rather than at the first probe.
        reader.rows(0, None)?;
        log::info!("{} book {}", reader.format(), path.display());
        Ok(reader)
    }

    pub(super) fn format(&self) -> BookFormat {
        match self.format {
            SqliteFormat::Obk => BookFormat::Obk,
            SqliteFormat::PfBook => BookFormat::PfBook,
        }
    }

    fn rows(&self, key: i64, real: Option<f64>) -> Result<Vec<[Option<i64>; 5]>, BookError> {
        let sql = format!(
            "SELECT vmove, vscore, vwin, vdraw, vlost FROM {} \
             WHERE (vkey = ?1 OR vkey = ?2) AND vvalid = 1",
            self.format.table()
        );
        let conn = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        let real = real.map_or(Value::Null, Value::Real);
        let result = conn.prepare_cached(&sql).and_then(|mut s| {
            s.query_map(params![key, real], |r| {
                let mut row = [None; 5];
                for (i, v) in row.iter_mut().enumerate() {
                    *v = int_of(r.get_ref(i)?);
                }
                Ok(row)
            })?
            .collect::<Result<Vec<_>, _>>()
        });
        result.map_err(|e| {
            BookError::Corrupt(self.path.clone(), format!("cannot look a position up: {e}"))
        })
    }

    /// The moves stored under `pos` (or its mirror), as stored. The weight
    /// is the score when positive; [`fill_weights`] completes it once all
    /// of a position's moves are known.
    pub(super) fn moves(&self, pos: &Position, mirrored: bool) -> Result<Vec<BookMove>, BookError> {
        let key = key_of(pos, mirrored);
        let real = match self.format {
            SqliteFormat::Obk => real_spelling(key),
            SqliteFormat::PfBook => None,
        };
        let count = |v: Option<i64>| v.map(|n| n.clamp(0, i64::from(u32::MAX)) as u32);
        Ok(self
            .rows(key, real)?
            .into_iter()
            .filter_map(|[vmove, vscore, vwin, vdraw, vlost]| {
                let vmove = u16::try_from(vmove?).ok()?;
                let mv = Move::new(from_square16(vmove >> 8)?, from_square16(vmove & 0xFF)?);
                let score =
                    vscore.map(|s| s.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32);
                Some(BookMove {
                    mv,
                    weight: score.map_or(0, |s| s.max(0) as u32),
                    score,
                    wins: count(vwin),
                    draws: count(vdraw),
                    losses: count(vlost),
                })
            })
            .collect())
    }
}

/// WebAssembly builds read no SQLite books (the bundled SQLite is C code
/// that `wasm32-unknown-unknown` cannot compile, and a browser page has no
/// files): opening one says so, and the engine plays on by search.
#[cfg(target_family = "wasm")]
pub(super) struct Reader {
    never: std::convert::Infallible,
}

#[cfg(target_family = "wasm")]
impl Reader {
    pub(super) fn open(path: &Path) -> Result<Reader, BookError> {
        Err(BookError::Corrupt(
            path.to_path_buf(),
            "SQLite books (.obk, .pfBook) are not read by the WebAssembly build".into(),
        ))
    }

    pub(super) fn format(&self) -> BookFormat {
        match self.never {}
    }

    pub(super) fn moves(&self, _: &Position, _: bool) -> Result<Vec<BookMove>, BookError> {
        match self.never {}
    }
}

/// When no move of a position has a positive score, weighs the moves by
/// their results instead (two per win, one per draw), and equally when
/// there are none: a book of unscored moves is still a book.
pub(super) fn fill_weights(moves: &mut [BookMove]) {
    if moves.iter().any(|m| m.weight > 0) {
        return;
    }
    for m in moves.iter_mut() {
        m.weight = m
            .wins
            .unwrap_or(0)
            .saturating_mul(2)
            .saturating_add(m.draws.unwrap_or(0));
    }
    if moves.iter().all(|m| m.weight == 0) {
        for m in moves.iter_mut() {
            m.weight = 1;
        }
    }
}

/// What a SQLite book says of one move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BookEntry {
    /// `vscore`: the move's score (its weight when positive).
    pub score: i32,
    /// `vwin`: games won by the side playing the move.
    pub wins: u32,
    /// `vdraw`: games drawn.
    pub draws: u32,
    /// `vlost`: games lost.
    pub losses: u32,
}

/// Writes `.obk` and `.pfBook` books (for tests and tools). Positions are
/// stored as given (readers also look up the mirror).
#[derive(Debug)]
pub struct SqliteWriter {
    #[cfg_attr(target_family = "wasm", allow(dead_code))]
    format: SqliteFormat,
    rows: Vec<(i64, u16, BookEntry)>,
}

impl SqliteWriter {
    /// An empty book of `format`.
    pub fn new(format: SqliteFormat) -> SqliteWriter {
        SqliteWriter {
            format,
            rows: Vec::new(),
        }
    }

    /// Adds `mv` (legal in `pos`) with what is known of it.
    pub fn add(&mut self, pos: &Position, mv: Move, entry: BookEntry) {
        let from = square16(mv.from(), false) as u16;
        let to = square16(mv.to(), false) as u16;
        self.add_raw(key(pos), from << 8 | to, entry);
    }

    /// Adds a row as it is stored: a key and a 16×16 move
    /// (`from << 8 | to`). For tests of collisions and damaged rows.
    pub fn add_raw(&mut self, key: i64, vmove: u16, entry: BookEntry) {
        self.rows.push((key, vmove, entry));
    }

    /// Writes the book to `path` (replacing any file there). Not in
    /// WebAssembly builds, which have neither files nor SQLite.
    #[cfg(not(target_family = "wasm"))]
    pub fn write(&self, path: impl AsRef<Path>) -> Result<(), rusqlite::Error> {
        let path = path.as_ref();
        if path.exists() {
            std::fs::remove_file(path)
                .map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?;
        }
        let mut conn = Connection::open(path)?;
        let table = self.format.table();
        conn.execute_batch(&format!(
            "CREATE TABLE {table} (vkey INTEGER, vmove INTEGER, vscore INTEGER, \
             vwin INTEGER, vdraw INTEGER, vlost INTEGER, vvalid INTEGER, vmemo TEXT, \
             vindex INTEGER);
             CREATE INDEX {table}_vkey ON {table} (vkey);"
        ))?;
        let tx = conn.transaction()?;
        {
            let mut insert = tx.prepare(&format!(
                "INSERT INTO {table} (vkey, vmove, vscore, vwin, vdraw, vlost, vvalid, vmemo, vindex) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1, NULL, ?7)"
            ))?;
            for (i, &(key, vmove, e)) in self.rows.iter().enumerate() {
                let stored = match (self.format, real_spelling(key)) {
                    (SqliteFormat::Obk, Some(real)) => Value::Real(real),
                    _ => Value::Integer(key),
                };
                insert.execute(params![
                    stored, vmove, e.score, e.wins, e.draws, e.losses, i as i64
                ])?;
            }
        }
        tx.commit()
    }
}
