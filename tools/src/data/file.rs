//! Files of training positions: the binary format (a header, then
//! [`RECORD_SIZE`]-byte records) and the text format (`FEN;result;score`
//! lines, a blank line after each game).
//!
//! # Binary header (little-endian)
//!
//! | bytes | content |
//! |-------|---------|
//! | 0..8   | magic `SHUAIPOS` |
//! | 8..12  | format version, `u32` ([`VERSION`]) |
//! | 12..16 | record size, `u32` (32) |
//! | 16..20 | header length in bytes, `u32`: the first record starts here (a multiple of 32) |
//! | 20..24 | reserved, 0 |
//! | 24..32 | complete games whose records are in the file, `u64` (0 when unknown, e.g. after `data shuffle`) |
//! | 32..40 | records belonging to those games, `u64` |
//! | 40..48 | reserved, 0 |
//! | 48..   | a note, UTF-8 text (how the file was made), padded with zero bytes |
//!
//! `datagen` writes each game's records as the game finishes, then updates
//! the two counters: after an interruption the counters say where the last
//! complete game ends, and `--resume` cuts the file there.

use super::packed::{Outcome, PackedPosition, RECORD_SIZE};
use crate::datagen::{format_result, parse_line};
use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::Path;

/// The first 8 bytes of a binary file.
pub const MAGIC: &[u8; 8] = b"SHUAIPOS";
/// The format version this code writes and reads.
pub const VERSION: u32 = 1;
/// Bytes of the header before the note.
pub const HEADER_FIXED: usize = 48;
const GAMES_AT: u64 = 24;

/// The two file formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The binary format: a header and 32-byte records.
    Binary,
    /// `FEN;result;score` lines, a blank line after each game.
    Text,
}

impl Format {
    /// The format a file name implies: `.bin` is binary, anything else text.
    pub fn from_path(path: &Path) -> Format {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("bin") => Format::Binary,
            _ => Format::Text,
        }
    }

    /// `binary` or `text`.
    pub fn parse(s: &str) -> Result<Format, String> {
        match s {
            "binary" | "bin" => Ok(Format::Binary),
            "text" | "txt" => Ok(Format::Text),
            _ => Err(format!("format {s:?}: expected binary or text")),
        }
    }

    /// The format given, or else the one the file name implies.
    pub fn or_from_path(given: Option<Format>, path: &Path) -> Format {
        given.unwrap_or_else(|| Format::from_path(path))
    }
}

/// The header of a binary file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Format version.
    pub version: u32,
    /// Bytes before the first record.
    pub header_len: u64,
    /// Complete games recorded (0 when unknown).
    pub games: u64,
    /// Records of those games.
    pub records: u64,
    /// How the file was made.
    pub note: String,
}

fn io_err(path: &Path, what: &str, e: std::io::Error) -> String {
    format!("cannot {what} {}: {e}", path.display())
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut w = [0u8; 4];
    w.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(w)
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(w)
}

/// Reads up to `buf.len()` bytes, fewer only at the end of the file.
fn read_full(f: &mut File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match f.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Reads the header of an open file at its start; `Ok(None)` when the
/// file does not start with the magic (a text file).
fn read_header_from(f: &mut File, path: &Path) -> Result<Option<Header>, String> {
    let mut fixed = [0u8; HEADER_FIXED];
    let n = read_full(f, &mut fixed).map_err(|e| io_err(path, "read", e))?;
    if n < MAGIC.len() || &fixed[..MAGIC.len()] != MAGIC {
        return Ok(None);
    }
    if n < HEADER_FIXED {
        return Err(format!(
            "{}: binary header cut short ({n} of {HEADER_FIXED} bytes)",
            path.display()
        ));
    }
    let version = u32_at(&fixed, 8);
    if version != VERSION {
        return Err(format!(
            "{}: format version {version}, this build reads version {VERSION}",
            path.display()
        ));
    }
    let record_size = u32_at(&fixed, 12);
    if record_size as usize != RECORD_SIZE {
        return Err(format!(
            "{}: record size {record_size}, expected {RECORD_SIZE}",
            path.display()
        ));
    }
    let header_len = u32_at(&fixed, 16) as u64;
    if header_len < HEADER_FIXED as u64 || header_len > 1 << 20 {
        return Err(format!(
            "{}: header length {header_len} out of range",
            path.display()
        ));
    }
    let mut note = vec![0u8; header_len as usize - HEADER_FIXED];
    let got = read_full(f, &mut note).map_err(|e| io_err(path, "read", e))?;
    if got < note.len() {
        return Err(format!("{}: header cut short", path.display()));
    }
    let end = note.iter().position(|&b| b == 0).unwrap_or(note.len());
    let note = String::from_utf8_lossy(&note[..end]).into_owned();
    Ok(Some(Header {
        version,
        header_len,
        games: u64_at(&fixed, 24),
        records: u64_at(&fixed, 32),
        note,
    }))
}

/// The header of a binary file, `Ok(None)` for a text file.
pub fn read_header(path: &Path) -> Result<Option<Header>, String> {
    let mut f = File::open(path).map_err(|e| io_err(path, "open", e))?;
    read_header_from(&mut f, path)
}

/// All records of a file: the binary format, or text lines
/// `FEN;result;score` (told apart by the magic). A truncated final binary
/// record is ignored with a warning on stderr; a record that is not one
/// `PackedPosition::pack` could write is an error naming it.
pub fn read_positions(path: &Path) -> Result<Vec<PackedPosition>, String> {
    let mut f = File::open(path).map_err(|e| io_err(path, "open", e))?;
    let Some(header) = read_header_from(&mut f, path)? else {
        drop(f);
        let text = std::fs::read_to_string(path).map_err(|e| io_err(path, "read", e))?;
        return parse_text(&text).map_err(|e| format!("{}: {e}", path.display()));
    };
    let len = f.metadata().map_err(|e| io_err(path, "read", e))?.len();
    let body = len.saturating_sub(header.header_len);
    let n = (body / RECORD_SIZE as u64) as usize;
    let tail = body % RECORD_SIZE as u64;
    if tail != 0 {
        eprintln!(
            "warning: {}: ignoring a truncated final record ({tail} of {RECORD_SIZE} bytes)",
            path.display()
        );
    }
    let mut out = Vec::with_capacity(n);
    // Big reads straight from the file: a few hundred system calls for ten
    // million records, one copy into the result.
    let mut buf = vec![0u8; RECORD_SIZE << 15];
    while out.len() < n {
        let want = ((n - out.len()) * RECORD_SIZE).min(buf.len());
        let got = read_full(&mut f, &mut buf[..want]).map_err(|e| io_err(path, "read", e))?;
        if got < want {
            return Err(format!("{}: file shrank while being read", path.display()));
        }
        for c in buf[..want].chunks_exact(RECORD_SIZE) {
            let mut b = [0u8; RECORD_SIZE];
            b.copy_from_slice(c);
            let p = PackedPosition::from_bytes(b);
            p.validate()
                .map_err(|e| format!("{}: record {}: {e}", path.display(), out.len()))?;
            out.push(p);
        }
    }
    Ok(out)
}

/// Records from text lines `FEN;result;score`; a blank line ends a game
/// (the record before it gets the "last position of its game" flag); `#`
/// lines are comments.
pub fn parse_text(text: &str) -> Result<Vec<PackedPosition>, String> {
    let mut out: Vec<PackedPosition> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() {
            if let Some(last) = out.last_mut() {
                last.set_last_in_game(true);
            }
            continue;
        }
        if t.starts_with('#') {
            continue;
        }
        let at = |e: String| format!("line {}: {e}", i + 1);
        let d = parse_line(t).map_err(at)?;
        let score = d
            .red_score
            .ok_or_else(|| at("no score (FEN;result;score lines are needed)".into()))?;
        let score =
            i16::try_from(score).map_err(|_| at(format!("score {score} out of i16 range")))?;
        let outcome = Outcome::from_red_points(d.result)
            .ok_or_else(|| at(format!("result {} is not 0, 0.5 or 1", d.result)))?;
        out.push(PackedPosition::pack(&d.pos, score, outcome).map_err(|e| at(e.to_string()))?);
    }
    Ok(out)
}

/// The text line of a record, `FEN;result;score`.
pub fn text_line(p: &PackedPosition) -> Result<String, String> {
    let pos = p.to_position()?;
    Ok(format!(
        "{};{};{}",
        pos.to_fen(),
        format_result(p.outcome().red_points() as f64),
        p.red_score()
    ))
}

/// Writes records as text lines, a blank line after each record flagged
/// last of its game.
pub fn write_text(out: &mut impl Write, records: &[PackedPosition]) -> Result<(), String> {
    for p in records {
        let line = text_line(p)?;
        writeln!(out, "{line}").map_err(|e| e.to_string())?;
        if p.last_in_game() {
            writeln!(out).map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// Writes `records` to `path` in `format` (a binary file gets `note` in
/// its header and, as its game count, the number of records flagged last
/// of their game).
pub fn write_positions(
    path: &Path,
    records: &[PackedPosition],
    format: Format,
    note: &str,
) -> Result<(), String> {
    match format {
        Format::Text => {
            let f = File::create(path).map_err(|e| io_err(path, "create", e))?;
            let mut w = BufWriter::new(f);
            write_text(&mut w, records).map_err(|e| format!("{}: {e}", path.display()))?;
            w.flush().map_err(|e| io_err(path, "write", e))
        }
        Format::Binary => {
            let mut w = PositionWriter::create(path, note)?;
            let games = records.iter().filter(|p| p.last_in_game()).count() as u64;
            for chunk in records.chunks(1 << 16) {
                for p in chunk {
                    w.push(*p);
                }
                w.write_pending()?;
            }
            w.set_counts(games, records.len() as u64)
        }
    }
}

/// Appends records to a binary file, a game at a time: records are
/// buffered by [`PositionWriter::push`] and written, with the header's
/// counters updated, by [`PositionWriter::end_game`].
pub struct PositionWriter {
    file: File,
    path: std::path::PathBuf,
    pending: Vec<u8>,
    pending_records: u64,
    header: Header,
    written: u64,
}

impl PositionWriter {
    /// Creates (or truncates) `path` and writes a header holding `note`.
    pub fn create(path: &Path, note: &str) -> Result<PositionWriter, String> {
        let mut file = File::create(path).map_err(|e| io_err(path, "create", e))?;
        let header_len = (HEADER_FIXED + note.len()).div_ceil(RECORD_SIZE) * RECORD_SIZE;
        let mut head = vec![0u8; header_len];
        head[..8].copy_from_slice(MAGIC);
        head[8..12].copy_from_slice(&VERSION.to_le_bytes());
        head[12..16].copy_from_slice(&(RECORD_SIZE as u32).to_le_bytes());
        head[16..20].copy_from_slice(&(header_len as u32).to_le_bytes());
        head[HEADER_FIXED..HEADER_FIXED + note.len()].copy_from_slice(note.as_bytes());
        file.write_all(&head)
            .map_err(|e| io_err(path, "write", e))?;
        Ok(PositionWriter {
            file,
            path: path.to_path_buf(),
            pending: Vec::new(),
            pending_records: 0,
            header: Header {
                version: VERSION,
                header_len: header_len as u64,
                games: 0,
                records: 0,
                note: note.to_string(),
            },
            written: 0,
        })
    }

    /// Opens an existing binary file to continue it: everything after the
    /// last complete game (as the header's counters say) is cut off.
    pub fn resume(path: &Path) -> Result<PositionWriter, String> {
        let mut file = File::options()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|e| io_err(path, "open", e))?;
        let header = read_header_from(&mut file, path)?
            .ok_or_else(|| format!("{}: not a binary positions file", path.display()))?;
        let keep = header.header_len + header.records * RECORD_SIZE as u64;
        let len = file.metadata().map_err(|e| io_err(path, "read", e))?.len();
        if len < keep {
            return Err(format!(
                "{}: the header counts {} records but the file holds only {}",
                path.display(),
                header.records,
                len.saturating_sub(header.header_len) / RECORD_SIZE as u64
            ));
        }
        if header.records > 0 {
            let mut last = [0u8; RECORD_SIZE];
            file.seek(SeekFrom::Start(keep - RECORD_SIZE as u64))
                .and_then(|_| file.read_exact(&mut last))
                .map_err(|e| io_err(path, "read", e))?;
            if !PackedPosition::from_bytes(last).last_in_game() {
                return Err(format!(
                    "{}: record {} should end a game but is not flagged so; not resuming",
                    path.display(),
                    header.records - 1
                ));
            }
        }
        file.set_len(keep)
            .map_err(|e| io_err(path, "truncate", e))?;
        file.seek(SeekFrom::End(0))
            .map_err(|e| io_err(path, "seek in", e))?;
        Ok(PositionWriter {
            file,
            path: path.to_path_buf(),
            pending: Vec::new(),
            pending_records: 0,
            written: header.records,
            header,
        })
    }

    /// Complete games in the file.
    pub fn games(&self) -> u64 {
        self.header.games
    }

    /// Records of those games.
    pub fn records(&self) -> u64 {
        self.header.records
    }

    /// The header's note.
    pub fn note(&self) -> &str {
        &self.header.note
    }

    /// Buffers a record of the current game.
    pub fn push(&mut self, p: PackedPosition) {
        self.pending.extend_from_slice(p.as_bytes());
        self.pending_records += 1;
    }

    /// Writes the buffered records (without changing the header).
    fn write_pending(&mut self) -> Result<(), String> {
        self.file
            .write_all(&self.pending)
            .map_err(|e| io_err(&self.path, "write", e))?;
        self.written += self.pending_records;
        self.pending.clear();
        self.pending_records = 0;
        Ok(())
    }

    /// Sets the header's counters (the records must be written).
    fn set_counts(&mut self, games: u64, records: u64) -> Result<(), String> {
        let mut b = [0u8; 16];
        b[..8].copy_from_slice(&games.to_le_bytes());
        b[8..].copy_from_slice(&records.to_le_bytes());
        self.file
            .seek(SeekFrom::Start(GAMES_AT))
            .and_then(|_| self.file.write_all(&b))
            .and_then(|_| self.file.seek(SeekFrom::End(0)).map(|_| ()))
            .map_err(|e| io_err(&self.path, "write", e))?;
        self.header.games = games;
        self.header.records = records;
        Ok(())
    }

    /// Ends the current game: flags its last record (if it has any) as the
    /// last of its game, writes its records, then counts it in the header.
    pub fn end_game(&mut self) -> Result<(), String> {
        if self.pending_records > 0 {
            let i = self.pending.len() - RECORD_SIZE;
            self.pending[i + RECORD_SIZE - 1] |= 1;
        }
        self.write_pending()?;
        self.set_counts(self.header.games + 1, self.written)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shuai_board::Position;

    fn tmp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("shuai-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    fn sample(n: usize) -> Vec<PackedPosition> {
        let mut pos = Position::startpos();
        let mut out = Vec::new();
        for i in 0..n {
            let moves = pos.legal_moves();
            pos.make_move(moves.as_slice()[i % moves.len()]);
            out.push(PackedPosition::pack(&pos, i as i16 * 7 - 20, Outcome::Draw).unwrap());
        }
        out
    }

    #[test]
    fn binary_write_then_read() {
        let path = tmp("wr.bin");
        let mut w = PositionWriter::create(&path, "test note").unwrap();
        let recs = sample(5);
        for p in &recs[..3] {
            w.push(*p);
        }
        w.end_game().unwrap();
        w.end_game().unwrap(); // a game with no positions
        for p in &recs[3..] {
            w.push(*p);
        }
        w.end_game().unwrap();
        drop(w);
        let h = read_header(&path).unwrap().unwrap();
        assert_eq!((h.games, h.records, h.header_len), (3, 5, 64));
        assert_eq!(h.note, "test note");
        let back = read_positions(&path).unwrap();
        assert_eq!(back.len(), 5);
        let flags: Vec<bool> = back.iter().map(|p| p.last_in_game()).collect();
        assert_eq!(flags, [false, false, true, false, true]);
        for (a, b) in back.iter().zip(&recs) {
            assert_eq!(a.red_score(), b.red_score());
        }
        assert_eq!(
            std::fs::metadata(&path).unwrap().len(),
            64 + 5 * RECORD_SIZE as u64
        );
    }

    #[test]
    fn truncated_record_is_ignored_and_resume_cuts_the_tail() {
        let path = tmp("trunc.bin");
        let recs = sample(4);
        let mut w = PositionWriter::create(&path, "").unwrap();
        w.push(recs[0]);
        w.push(recs[1]);
        w.end_game().unwrap();
        drop(w);
        // An interrupted game: one whole record and half of another.
        let mut f = File::options().append(true).open(&path).unwrap();
        f.write_all(recs[2].as_bytes()).unwrap();
        f.write_all(&recs[3].as_bytes()[..10]).unwrap();
        drop(f);
        assert_eq!(read_positions(&path).unwrap().len(), 3);
        let mut w = PositionWriter::resume(&path).unwrap();
        assert_eq!((w.games(), w.records()), (1, 2));
        w.push(recs[3]);
        w.end_game().unwrap();
        drop(w);
        let back = read_positions(&path).unwrap();
        assert_eq!(back.len(), 3);
        assert_eq!(back[2].red_score(), recs[3].red_score());
        assert!(back[2].last_in_game());
    }

    #[test]
    fn text_round_trip_and_auto_detection() {
        let mut recs = sample(4);
        recs[1].set_last_in_game(true);
        recs[3].set_last_in_game(true);
        let mut text = Vec::new();
        write_text(&mut text, &recs).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert_eq!(text.lines().count(), 6);
        assert_eq!(text.lines().nth(2), Some(""));
        let path = tmp("t.txt");
        std::fs::write(&path, &text).unwrap();
        assert_eq!(read_positions(&path).unwrap(), recs);
        let bin = tmp("t.bin");
        write_positions(&bin, &recs, Format::Binary, "n").unwrap();
        assert_eq!(read_positions(&bin).unwrap(), recs);
        assert_eq!(read_header(&bin).unwrap().unwrap().games, 2);
    }

    #[test]
    fn bad_input_gives_errors() {
        let path = tmp("bad.txt");
        std::fs::write(&path, "not a fen;0.5;3\n").unwrap();
        let e = read_positions(&path).unwrap_err();
        assert!(e.contains("line 1"), "{e}");
        std::fs::write(&path, format!("{};0.5\n", shuai_board::START_FEN)).unwrap();
        assert!(read_positions(&path).unwrap_err().contains("no score"));
        std::fs::write(&path, format!("{};0.5;40000\n", shuai_board::START_FEN)).unwrap();
        assert!(read_positions(&path).unwrap_err().contains("out of i16"));
        let bin = tmp("bad.bin");
        let mut head = vec![0u8; 64];
        head[..8].copy_from_slice(MAGIC);
        head[8..12].copy_from_slice(&2u32.to_le_bytes());
        std::fs::write(&bin, &head).unwrap();
        assert!(read_positions(&bin).unwrap_err().contains("version 2"));
        std::fs::write(&bin, &head[..20]).unwrap();
        assert!(read_positions(&bin).unwrap_err().contains("cut short"));
        // A corrupt record.
        let mut w = PositionWriter::create(&bin, "").unwrap();
        w.push(PackedPosition::from_bytes([0xff; RECORD_SIZE]));
        w.end_game().unwrap();
        drop(w);
        assert!(read_positions(&bin).unwrap_err().contains("record 0"));
        assert!(read_positions(&tmp("missing.bin")).is_err());
    }
}
