//! XQF, XQStudio's game format (象棋演播室), every version: 1.0 (plain)
//! and 1.1 on (encrypted).
//!
//! The layout, as ElephantEye's `XQFTOOLS/XQF.TXT` documents it and its
//! `xqf2pgn.cpp` reads it (github.com/xqbase/eleeye):
//!
//! * a 1024-byte header: `XQ`, the version byte (10 for 1.0, 11 to 18
//!   later), the key bytes (3 to 15), the 32 piece places (`0x10`: Red's
//!   R N B A K A B N R C C P P P P P, then Black's; a place is
//!   `file × 10 + rank` from Red's lower left, 90 or more for a piece off
//!   the board), the result (`0x33`), the kind of record (`0x40`) and
//!   length-prefixed GBK strings (title `0x50`, event `0xD0`, date
//!   `0x110`, site `0x120`, Red `0x130`, Black `0x140`, time rule `0x150`,
//!   annotator `0x1D0`, author `0x1E0`);
//! * from `0x400` the move records in pre-order: a record is `from + 24`,
//!   `to + 32`, a flag byte and a spare byte, then the comment. The first
//!   record stands for the start position and carries its comment.
//!
//! Version 1.0 follows every record with a 4-byte comment length; a flag
//! byte with a high nibble means a next move follows, a low nibble that an
//! alternative to this move follows this move's subtree. From 1.1 on, flag
//! `0x80` is the next move, `0x40` the alternative, `0x20` a comment (its
//! length follows), and everything from `0x400` on is encrypted: each byte
//! less a key stream of 32 bytes (the mask text below AND-ed with four key
//! bytes) taken in turn; the squares less keys of their own, the comment
//! length less another; from version 1.2 on the piece places are also
//! rotated.

use super::{Format, Game, Place, ReadError};
use shuai_board::{Color, Move, Position, Square};

/// The header's size: move records start here.
const HEADER: usize = 0x400;

/// The text the key stream is made from.
const STREAM_MASK: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";

/// The decryption keys of a version 1.1 or later file (all zero before).
#[derive(Clone, Copy, Debug, Default)]
struct Keys {
    pieces: u8,
    from: u8,
    to: u8,
    comment: u32,
    stream: [u8; 32],
}

/// `(54·b² + 221)·factor`, the key schedule's step, in bytes.
fn key_step(b: u8, factor: u8) -> u8 {
    let b = u32::from(b);
    ((b * b * 54 + 221) * u32::from(factor)) as u8
}

fn keys(header: &[u8]) -> Keys {
    let pieces = key_step(header[13], header[13]);
    let from = key_step(header[14], pieces);
    let to = key_step(header[15], from);
    let comment = (u32::from(header[12]) * 256 + u32::from(header[13])) % 32000 + 767;
    let mask = header[3];
    let mut stream = [0u8; 32];
    for (i, s) in stream.iter_mut().enumerate() {
        let key = header[8 + i % 4] | (header[12 + i % 4] & mask);
        *s = key & STREAM_MASK[i];
    }
    Keys {
        pieces,
        from,
        to,
        comment,
        stream,
    }
}

/// A length-prefixed string of the header: GBK text, at most `size − 1`
/// bytes.
fn header_string(header: &[u8], at: usize, size: usize) -> String {
    let len = usize::from(header[at]).min(size - 1);
    let bytes = &header[at + 1..at + 1 + len];
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    super::decode_gb(&bytes[..end]).trim().to_string()
}

/// A square from an XQF place (`file × 10 + rank`), if on the board.
fn square(place: u8) -> Option<Square> {
    if place < 90 {
        Square::from_coords(i32::from(place / 10), i32::from(place % 10))
    } else {
        None
    }
}

/// One move record as read.
#[derive(Debug)]
struct Record {
    /// Where the record starts.
    at: usize,
    from: u8,
    to: u8,
    next: bool,
    alternative: bool,
    comment: Option<String>,
    parent: Option<usize>,
    children: Vec<usize>,
}

/// Reads the records after the header, decrypting.
struct Records<'a> {
    data: &'a [u8],
    at: usize,
    version: u8,
    keys: Keys,
}

impl Records<'_> {
    fn bytes<const N: usize>(&mut self, what: &str) -> Result<[u8; N], ReadError> {
        let end = self.at + N;
        let Some(raw) = self.data.get(self.at..end) else {
            return Err(ReadError::at(
                Place::Byte(self.data.len()),
                format!(
                    "the file ends inside {what} that begins at byte {}",
                    self.at
                ),
            ));
        };
        let mut out = [0u8; N];
        for (i, (o, &b)) in out.iter_mut().zip(raw).enumerate() {
            *o = b.wrapping_sub(self.keys.stream[(self.at + i - HEADER) % 32]);
        }
        self.at = end;
        Ok(out)
    }

    /// The next record, without its place in the tree.
    fn record(&mut self) -> Result<Record, ReadError> {
        let at = self.at;
        let [from, to, flags, _] = self.bytes::<4>("a move record")?;
        let encrypted = self.version > 10;
        let (next, alternative, has_comment) = if encrypted {
            (flags & 0x80 != 0, flags & 0x40 != 0, flags & 0x20 != 0)
        } else {
            (flags & 0xf0 != 0, flags & 0x0f != 0, true)
        };
        let mut comment = None;
        if has_comment {
            let length_at = self.at;
            let raw = u32::from_le_bytes(self.bytes::<4>("a comment length")?);
            let length = if encrypted {
                raw.wrapping_sub(self.keys.comment)
            } else {
                raw
            };
            // A negative length (as the 32-bit integer it is) counts as none.
            if length > 0 && length < 0x8000_0000 {
                let left = self.data.len() - self.at;
                if length as usize > left {
                    return Err(ReadError::at(
                        Place::Byte(length_at),
                        format!(
                            "a comment of {length} bytes is announced, but only {left} bytes \
                             are left in the file"
                        ),
                    ));
                }
                let text: Vec<u8> = (0..length as usize)
                    .map(|i| {
                        let b = self.data[self.at + i];
                        b.wrapping_sub(self.keys.stream[(self.at + i - HEADER) % 32])
                    })
                    .collect();
                self.at += length as usize;
                let text = super::decode_gb(&text);
                let text = text.trim_end_matches('\0').trim();
                comment = (!text.is_empty()).then(|| text.to_string());
            }
        }
        Ok(Record {
            at,
            from: from.wrapping_sub(24).wrapping_sub(self.keys.from),
            to: to.wrapping_sub(32).wrapping_sub(self.keys.to),
            next,
            alternative,
            comment,
            parent: None,
            children: Vec::new(),
        })
    }
}

/// Reads an XQF file.
pub(super) fn read(data: &[u8]) -> Result<Game, ReadError> {
    if !data.starts_with(b"XQ") {
        return Err(ReadError::at(
            Place::Byte(0),
            "not an XQF file (it does not begin with 'XQ')",
        ));
    }
    if data.len() < HEADER {
        return Err(ReadError::at(
            Place::Byte(data.len()),
            format!(
                "the file ends inside the {HEADER}-byte XQF header ({} bytes)",
                data.len()
            ),
        ));
    }
    let header = &data[..HEADER];
    let version = header[2];
    let keys = if version > 10 {
        keys(header)
    } else {
        Keys::default()
    };

    // The pieces.
    let mut places = [0u8; 32];
    for (i, &b) in header[0x10..0x30].iter().enumerate() {
        let slot = if version >= 12 {
            (usize::from(keys.pieces) + 1 + i) % 32
        } else {
            i
        };
        places[slot] = b.wrapping_sub(keys.pieces);
    }
    let squares: Vec<Option<Square>> = places.iter().map(|&p| square(p)).collect();
    let board = super::place_pieces(&squares)
        .map_err(|e| ReadError::at(Place::Byte(0x10), format!("the start position puts {e}")))?;

    // The records, as a tree.
    let mut reader = Records {
        data,
        at: HEADER,
        version,
        keys,
    };
    let root = reader.record()?;
    let mut records: Vec<Record> = Vec::new();
    if root.next {
        // Parents still owed an alternative (a sibling of their child),
        // deepest last: pre-order puts a move's subtree before its
        // alternative.
        let mut owed: Vec<Option<usize>> = Vec::new();
        let mut parent: Option<usize> = None;
        loop {
            let mut record = reader.record()?;
            let index = records.len();
            record.parent = parent;
            let (next, alternative) = (record.next, record.alternative);
            records.push(record);
            if let Some(p) = parent {
                records[p].children.push(index);
            }
            if alternative {
                owed.push(parent);
            }
            if next {
                parent = Some(index);
            } else if let Some(p) = owed.pop() {
                parent = p;
            } else {
                break;
            }
        }
    }
    let first: Vec<usize> = (0..records.len())
        .filter(|&i| records[i].parent.is_none())
        .collect();

    // Red moves first unless the first move is Black's.
    let black_first = first.first().is_some_and(|&i| {
        square(records[i].from)
            .and_then(|sq| board[sq.rank().index()][sq.file().index()])
            .is_some_and(|c| c.is_ascii_lowercase())
    });
    let fen = super::board_fen(&board, if black_first { 'b' } else { 'w' });
    let start = crate::fen::read_fen(&fen)
        .map(|(pos, _)| pos)
        .map_err(|e| {
            ReadError::at(
                Place::Byte(0x10),
                format!("the start position ({fen}) cannot be played: {e}"),
            )
        })?;

    let mut game = Game::new(Format::Xqf, start.clone());
    game.comment = root.comment;
    let title = header_string(header, 0x50, 64);
    let event = header_string(header, 0xd0, 64);
    game.set_tag("Event", if event.is_empty() { &title } else { &event });
    if !event.is_empty() {
        game.set_tag("Title", &title);
    }
    for (name, at, size) in [
        ("Date", 0x110, 16),
        ("Site", 0x120, 16),
        ("Red", 0x130, 16),
        ("Black", 0x140, 16),
        ("TimeControl", 0x150, 64),
        ("RedTime", 0x190, 16),
        ("BlackTime", 0x1a0, 16),
        ("Annotator", 0x1d0, 16),
        ("Author", 0x1e0, 16),
    ] {
        game.set_tag(name, &header_string(header, at, size));
    }
    let result = match header[0x33] {
        1 => "1-0",
        2 => "0-1",
        3 | 4 => "1/2-1/2",
        _ => "*",
    };
    game.set_tag("Result", result);
    if fen_differs_from_start(&game.start) {
        game.set_tag("FEN", &game.start.to_fen());
    }

    // Play the tree, cutting each line at its first move that cannot be
    // played.
    let mut stack: Vec<(usize, Option<usize>, Position, usize)> = first
        .iter()
        .rev()
        .map(|&i| (i, None, start.clone(), 0))
        .collect();
    while let Some((i, parent, mut pos, ply)) = stack.pop() {
        let record = &records[i];
        let mv = match (square(record.from), square(record.to)) {
            (Some(from), Some(to)) if from != to => Move::new(from, to),
            _ => {
                game.problems.push(format!(
                    "byte {}: ply {}: the move record's squares ({}, {}) are not a move",
                    record.at,
                    ply + 1,
                    record.from,
                    record.to
                ));
                continue;
            }
        };
        if !pos.is_legal(mv) {
            let side = match pos.side_to_move() {
                Color::Red => "Red",
                Color::Black => "Black",
            };
            game.problems.push(format!(
                "byte {}: ply {} ({side}): {mv} is not a legal move here",
                record.at,
                ply + 1
            ));
            continue;
        }
        let node = game.add(parent, mv);
        game.nodes[node].comment = record.comment.clone();
        pos.make_move(mv);
        for &child in record.children.iter().rev() {
            stack.push((child, Some(node), pos.clone(), ply + 1));
        }
    }
    Ok(game)
}

/// Whether `pos` is not the standard start (with Red to move).
fn fen_differs_from_start(pos: &Position) -> bool {
    pos.to_fen() != Position::startpos().to_fen()
}
