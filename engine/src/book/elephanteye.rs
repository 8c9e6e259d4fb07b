//! ElephantEye's `BOOK.DAT`: no header, then 8-byte little-endian records
//! `{u32 lock; u16 move; u16 weight}` sorted by `lock`.
//!
//! `lock` is the `dwLock1` word of ElephantEye's Zobrist triple: the
//! numbers come from RC4 keyed with four zero bytes, drawn as the side's
//! triple first, then one triple per piece 0–13 and square 0–255 (each
//! triple `dwKey, dwLock0, dwLock1`); the side's number is XORed in when
//! Black is to move. `move = from | to << 8` on the 16×16 board. A position
//! is stored under itself or its mirror, whichever lock is smaller (both
//! when equal), as ElephantEye's MAKEBOOK does. Written from the format as
//! described in xqbase/eleeye (base/rc4prng.h, eleeye/pregen.cpp,
//! eleeye/book.cpp, BOOK/MAKEBOOK.CPP); no code is taken from there.

use super::{board_key, from_square16, mirror_move, square16, BookError, BookMove};
use shuai_board::{Color, Move, Position};
use std::path::Path;
use std::sync::OnceLock;

/// The `dwLock1` words: the side's, then `[piece * 256 + square]`.
struct Locks {
    side: u32,
    pieces: Vec<u32>,
}

/// ElephantEye's RC4 generator (the standard cipher's key schedule and
/// output bytes).
struct Rc4 {
    s: [u8; 256],
    i: u8,
    j: u8,
}

impl Rc4 {
    fn new(key: &[u8]) -> Rc4 {
        let mut s = [0u8; 256];
        for (i, v) in s.iter_mut().enumerate() {
            *v = i as u8;
        }
        let mut j = 0u8;
        for i in 0..256 {
            j = j.wrapping_add(s[i]).wrapping_add(key[i % key.len()]);
            s.swap(i, usize::from(j));
        }
        Rc4 { s, i: 0, j: 0 }
    }

    fn byte(&mut self) -> u8 {
        self.i = self.i.wrapping_add(1);
        self.j = self.j.wrapping_add(self.s[usize::from(self.i)]);
        self.s.swap(usize::from(self.i), usize::from(self.j));
        let k = self.s[usize::from(self.i)].wrapping_add(self.s[usize::from(self.j)]);
        self.s[usize::from(k)]
    }

    /// Four bytes, the first the lowest (ElephantEye fills a little-endian
    /// word byte by byte).
    fn word(&mut self) -> u32 {
        u32::from_le_bytes([self.byte(), self.byte(), self.byte(), self.byte()])
    }

    /// A `(dwKey, dwLock0, dwLock1)` triple's last word (the others are
    /// drawn only to keep the stream in step).
    fn lock1(&mut self) -> u32 {
        self.word();
        self.word();
        self.word()
    }
}

fn locks() -> &'static Locks {
    static LOCKS: OnceLock<Locks> = OnceLock::new();
    LOCKS.get_or_init(|| {
        let mut rc4 = Rc4::new(&[0, 0, 0, 0]);
        let side = rc4.lock1();
        let pieces = (0..14 * 256).map(|_| rc4.lock1()).collect();
        Locks { side, pieces }
    })
}

fn lock_of(pos: &Position, mirrored: bool) -> u32 {
    let l = locks();
    let key = board_key(pos, mirrored, |piece, sq| l.pieces[piece * 256 + sq]);
    match pos.side_to_move() {
        Color::Red => key,
        Color::Black => key ^ l.side,
    }
}

/// The ElephantEye book lock of `pos` (the start position's is
/// `0x052656D5`).
pub fn lock(pos: &Position) -> u32 {
    lock_of(pos, false)
}

fn encode(m: Move, mirrored: bool) -> u16 {
    let from = square16(m.from(), mirrored) as u16;
    let to = square16(m.to(), mirrored) as u16;
    from | to << 8
}

fn decode(mv: u16) -> Option<Move> {
    Some(Move::new(
        from_square16(mv & 0xFF)?,
        from_square16(mv >> 8)?,
    ))
}

/// A book read into memory.
pub(super) struct Reader {
    /// `(lock, move, weight)`, sorted by lock.
    records: Vec<(u32, u16, u16)>,
}

impl Reader {
    pub(super) fn open(path: &Path) -> Result<Reader, BookError> {
        let bytes = std::fs::read(path).map_err(|e| BookError::Io(path.to_path_buf(), e))?;
        let corrupt = |why: String| BookError::Corrupt(path.to_path_buf(), why);
        if bytes.is_empty() {
            return Err(corrupt("the file is empty".into()));
        }
        if bytes.len() % 8 != 0 {
            return Err(corrupt(format!(
                "{} bytes is not a whole number of 8-byte ElephantEye records",
                bytes.len()
            )));
        }
        let records: Vec<(u32, u16, u16)> = bytes
            .chunks_exact(8)
            .map(|r| {
                (
                    u32::from_le_bytes([r[0], r[1], r[2], r[3]]),
                    u16::from_le_bytes([r[4], r[5]]),
                    u16::from_le_bytes([r[6], r[7]]),
                )
            })
            .collect();
        // The lookup is a binary search: an unsorted file would silently
        // lose moves, so it is refused instead.
        if let Some(i) = records.windows(2).position(|w| w[0].0 > w[1].0) {
            return Err(corrupt(format!(
                "records are not sorted by position (record {} of {}): not an ElephantEye book",
                i + 2,
                records.len()
            )));
        }
        log::info!(
            "ElephantEye book {}: {} records",
            path.display(),
            records.len()
        );
        Ok(Reader { records })
    }

    /// The moves stored under `pos` (or its mirror), as stored: under the
    /// mirror they are the mirror's moves. Undecodable moves are dropped.
    pub(super) fn moves(&self, pos: &Position, mirrored: bool) -> Vec<BookMove> {
        let lock = lock_of(pos, mirrored);
        let start = self.records.partition_point(|r| r.0 < lock);
        self.records[start..]
            .iter()
            .take_while(|r| r.0 == lock)
            .filter_map(|&(_, mv, weight)| {
                Some(BookMove {
                    mv: decode(mv)?,
                    weight: u32::from(weight),
                    score: None,
                    wins: None,
                    draws: None,
                    losses: None,
                })
            })
            .collect()
    }
}

/// Writes ElephantEye books (for tests and tools): positions are stored
/// under the smaller of their own and their mirror's lock, weights of a
/// repeated position and move added up.
#[derive(Debug, Default)]
pub struct ElephantEyeWriter {
    records: Vec<(u32, u16, u16)>,
}

impl ElephantEyeWriter {
    /// An empty book.
    pub fn new() -> ElephantEyeWriter {
        ElephantEyeWriter::default()
    }

    /// Adds `mv` (legal in `pos`) with `weight`.
    pub fn add(&mut self, pos: &Position, mv: Move, weight: u16) {
        let (own, mirror) = (lock_of(pos, false), lock_of(pos, true));
        if own <= mirror {
            self.add_raw(own, encode(mv, false), weight);
        }
        if mirror <= own {
            // `encode` of the mirrored move on the mirrored board is the
            // mirror position's own move.
            self.add_raw(mirror, encode(mirror_move(mv), false), weight);
        }
    }

    /// Adds a record as it is stored: a lock and a 16×16 move
    /// (`from | to << 8`). For tests of collisions and damaged records.
    pub fn add_raw(&mut self, lock: u32, mv: u16, weight: u16) {
        match self.records.iter_mut().find(|r| r.0 == lock && r.1 == mv) {
            Some(r) => r.2 = r.2.saturating_add(weight),
            None => self.records.push((lock, mv, weight)),
        }
    }

    /// The records, sorted by lock, as the file holds them.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut records = self.records.clone();
        records.sort();
        records
            .iter()
            .flat_map(|&(lock, mv, weight)| {
                let mut r = [0u8; 8];
                r[..4].copy_from_slice(&lock.to_le_bytes());
                r[4..6].copy_from_slice(&mv.to_le_bytes());
                r[6..].copy_from_slice(&weight.to_le_bytes());
                r
            })
            .collect()
    }

    /// Writes the book to `path`.
    pub fn write(&self, path: impl AsRef<Path>) -> std::io::Result<()> {
        std::fs::write(path, self.to_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rc4_matches_the_standard_cipher() {
        // RFC 6229's first test vector: key 01 02 03 04 05.
        let mut rc4 = Rc4::new(&[1, 2, 3, 4, 5]);
        let first: Vec<u8> = (0..8).map(|_| rc4.byte()).collect();
        assert_eq!(first, [0xb2, 0x39, 0x63, 0x05, 0xf0, 0x3d, 0xc0, 0x27]);
    }

    #[test]
    fn moves_round_trip() {
        let m = shuai_board::parse_iccs("h2e2").unwrap();
        let encoded = encode(m, false);
        // h2 = x 10, y 10; e2 = x 7, y 10.
        assert_eq!(encoded, 0xAA | 0xA7 << 8);
        assert_eq!(decode(encoded), Some(m));
        assert_eq!(decode(0x0000), None);
    }
}
