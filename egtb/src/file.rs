//! The table file: a header with a block index, then the values in
//! blocks, each compressed on its own (format version 3, written; version
//! 2, the same layout with a simpler model in the coder, still read), or
//! the run-length format of the first tables (version 1, still read).
//!
//! ```text
//! magic     8 bytes  "SHUAIEGT"
//! version   u16      FORMAT_VERSION (3; 2 is read too)
//! name      u8 length, then the ending's name in ASCII (e.g. "KRKAA")
//! entries   u64      number of indices (must match the ending's layout)
//! block     u32      entries per block (BLOCK_ENTRIES; the last may hold fewer)
//! symbols   u16      number of distinct values, then that many u16 codes,
//!                    most frequent first: a value is coded as its rank here
//! index     per block: u32 length in bytes, u32 CRC-32 of those bytes
//! header    u32      CRC-32 of every byte before this field
//! data      the blocks, one after another
//! ```
//!
//! All numbers little-endian. Each block is coded by the adaptive range
//! coder of [`crate::block`], written here rather than taken from a crate;
//! an index that is not a position (two pieces on a point, the side not to
//! move in check, a mirror duplicate) is "don't care": the coder stores
//! whatever is cheapest there, so a table read back holds some value at
//! those indices, and [`Table::value_at`] asks the layout whether an index
//! is a position. A probe reads the header and index once (a table's
//! opening, milliseconds) and then only the block it needs, checked by its
//! CRC ([`BlockFile`]). The same table always gives the same bytes.
//!
//! Version 1 is a shorter header (magic, version, name, entries, CRC-32 of
//! the values as little-endian `u16`s, payload length, header CRC) and the
//! values run-length coded with LEB128 numbers: `varint(len << 1 | 1),
//! varint(value)` for `len` copies of a value, `varint(len << 1), len ×
//! varint(value)` for values written as they are. `shuai-tools egtb
//! convert` rewrites version 1 and 2 files in version 3.

use crate::index::Layout;
use crate::material::Material;
use crate::table::Table;
use crate::value::code;
use std::fmt;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// The first bytes of every table file.
pub const MAGIC: &[u8; 8] = b"SHUAIEGT";
/// The version this crate writes: the block format, with the plane step
/// and per-rank trees in the coder's model ([`crate::block`]).
pub const FORMAT_VERSION: u16 = 3;
/// The block format of the first block files (5 December 2026), still
/// read: the same layout, the coder's model without the plane step.
pub const BLOCK_V2_VERSION: u16 = 2;
/// The run-length format of the first tables, still read.
pub const RUN_LENGTH_VERSION: u16 = 1;
/// Entries a block of the block format holds (the last may hold fewer),
/// 64 KiB decoded: a probe that misses the cache decodes one block, and a
/// bigger block compresses better (the coder's probabilities start afresh
/// in each). Seven tables of the 108 one-attacker endings (`KREKAEE`,
/// `KRAKAE`, `KHEKAAEE`, `KCAKAAEE`, `KPEKAAEE`, `KHKAEE`, `KRKAA`, 7.27 MB
/// run-length coded), 2026-12-05: 1,354,336 bytes in blocks of 16,384 and
/// 1,276,161 in blocks of 65,536 (probabilities moved a 32nd), 1,286,645
/// in blocks of 32,768 with the 16th the coder uses.
pub const BLOCK_ENTRIES: usize = 32768;
/// The largest block size a file may declare: a bound on what one block
/// read allocates, whatever the file says.
const MAX_BLOCK_ENTRIES: usize = 1 << 20;
/// The file name extension of tables.
pub const EXTENSION: &str = "egtb";

/// The most indices a table file may have: the generator's limit (its
/// work lists keep indices as `u32`), so no table it made is larger.
pub const MAX_ENTRIES: usize = u32::MAX as usize;

/// Runs shorter than this are written as literals.
const MIN_RUN: usize = 3;

/// Why a table file was refused.
#[derive(Debug)]
pub enum FileError {
    /// The file could not be read or written.
    Io(String),
    /// The file is not a table of the kind expected, or it is damaged;
    /// the text says what was wrong.
    Bad(String),
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Io(s) | FileError::Bad(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for FileError {}

/// The file name of an ending's table (`KRKAA.egtb`).
pub fn file_name(material: &Material) -> String {
    format!("{material}.{EXTENSION}")
}

/// The reflected CRC-32 (IEEE) polynomial.
const CRC_POLY: u32 = 0xEDB8_8320;

/// Lookup tables for the CRC eight bytes at a time ("slicing by 8"):
/// `CRC_TABLES[0][b]` is the CRC step of one byte `b`, and
/// `CRC_TABLES[k][b]` that of `b` followed by `k` zero bytes. The
/// checksum of the values was nine tenths of a table's first read with
/// the bit-by-bit loop (96 of 108 ms for the 9.9 million entries of
/// `KRAEKAE`); this way it takes 8 ms.
static CRC_TABLES: [[u32; 256]; 8] = crc_tables();

const fn crc_tables() -> [[u32; 256]; 8] {
    let mut t = [[0u32; 256]; 8];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut bit = 0;
        while bit < 8 {
            c = (c >> 1) ^ (CRC_POLY & (c & 1).wrapping_neg());
            bit += 1;
        }
        t[0][i] = c;
        i += 1;
    }
    let mut k = 1;
    while k < 8 {
        let mut i = 0;
        while i < 256 {
            let prev = t[k - 1][i];
            t[k][i] = (prev >> 8) ^ t[0][(prev & 0xFF) as usize];
            i += 1;
        }
        k += 1;
    }
    t
}

/// The running CRC `crc` (not inverted) after one byte.
#[inline]
fn crc_byte(crc: u32, b: u8) -> u32 {
    (crc >> 8) ^ CRC_TABLES[0][((crc ^ u32::from(b)) & 0xFF) as usize]
}

/// The running CRC after eight bytes, given as two little-endian words
/// (`lo` already combined with the CRC so far).
#[inline]
fn crc_eight(lo: u32, hi: u32) -> u32 {
    let t = &CRC_TABLES;
    t[7][(lo & 0xFF) as usize]
        ^ t[6][((lo >> 8) & 0xFF) as usize]
        ^ t[5][((lo >> 16) & 0xFF) as usize]
        ^ t[4][(lo >> 24) as usize]
        ^ t[3][(hi & 0xFF) as usize]
        ^ t[2][((hi >> 8) & 0xFF) as usize]
        ^ t[1][((hi >> 16) & 0xFF) as usize]
        ^ t[0][(hi >> 24) as usize]
}

/// CRC-32 (IEEE, reflected, as in zip and PNG).
pub(crate) fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let lo = u32::from_le_bytes([w[0], w[1], w[2], w[3]]) ^ crc;
        let hi = u32::from_le_bytes([w[4], w[5], w[6], w[7]]);
        crc = crc_eight(lo, hi);
    }
    for &b in words.remainder() {
        crc = crc_byte(crc, b);
    }
    !crc
}

/// CRC-32 of `values` as little-endian `u16`s (the file's checksum of the
/// values), four values at a time without making the bytes.
fn values_crc(values: &[u16]) -> u32 {
    let mut crc = !0u32;
    let mut quads = values.chunks_exact(4);
    for q in &mut quads {
        let lo = (u32::from(q[0]) | u32::from(q[1]) << 16) ^ crc;
        let hi = u32::from(q[2]) | u32::from(q[3]) << 16;
        crc = crc_eight(lo, hi);
    }
    for v in quads.remainder() {
        for b in v.to_le_bytes() {
            crc = crc_byte(crc, b);
        }
    }
    !crc
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Reads a LEB128 number at `*at`, moving past it.
#[inline]
fn get_varint(data: &[u8], at: &mut usize) -> Option<u64> {
    // One byte is by far the most common (run lengths below 64, values
    // below 128): no loop for it.
    let first = *data.get(*at)?;
    *at += 1;
    if first < 0x80 {
        return Some(u64::from(first));
    }
    let mut v = u64::from(first & 0x7F);
    let mut shift = 7;
    while shift < 64 {
        let b = *data.get(*at)?;
        *at += 1;
        v |= u64::from(b & 0x7F) << shift;
        if b & 0x80 == 0 {
            return Some(v);
        }
        shift += 7;
    }
    None
}

/// The run-length coding of `values`.
pub(crate) fn compress(values: &[u16]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    let mut literal_start = 0;
    let flush = |out: &mut Vec<u8>, from: usize, to: usize| {
        if to > from {
            put_varint(out, ((to - from) as u64) << 1);
            for &v in &values[from..to] {
                put_varint(out, u64::from(v));
            }
        }
    };
    while i < values.len() {
        let mut j = i + 1;
        while j < values.len() && values[j] == values[i] {
            j += 1;
        }
        if j - i >= MIN_RUN {
            flush(&mut out, literal_start, i);
            put_varint(&mut out, ((j - i) as u64) << 1 | 1);
            put_varint(&mut out, u64::from(values[i]));
            literal_start = j;
        }
        i = j;
    }
    flush(&mut out, literal_start, values.len());
    out
}

/// Decodes exactly `entries` values, `None` if the data does not code
/// exactly that many.
pub(crate) fn decompress(data: &[u8], entries: usize) -> Option<Vec<u16>> {
    let mut out = Vec::with_capacity(entries);
    let mut at = 0;
    while at < data.len() {
        let token = get_varint(data, &mut at)?;
        let len = usize::try_from(token >> 1).ok()?;
        if len > entries - out.len() {
            return None;
        }
        if token & 1 == 1 {
            let v = u16::try_from(get_varint(data, &mut at)?).ok()?;
            out.resize(out.len() + len, v);
        } else {
            for _ in 0..len {
                out.push(u16::try_from(get_varint(data, &mut at)?).ok()?);
            }
        }
    }
    (out.len() == entries).then_some(out)
}

/// The block coder's model for a table of `layout` in format `version`
/// (2 or 3): the strides of its row and plane contexts.
fn coding_of(layout: &Layout, version: u16) -> crate::block::Coding {
    crate::block::Coding {
        row: layout.row(),
        plane: (version >= FORMAT_VERSION).then(|| layout.plane()),
    }
}

/// The bytes of a table file in the block format ([`FORMAT_VERSION`]).
///
/// The symbol list holds the codes of the table's positions, most
/// frequent first (ties: the smaller code first), so the same table always
/// gives the same bytes; the entries that are not positions are coded as
/// "don't care" ([`crate::block`]).
pub fn encode(table: &Table) -> Vec<u8> {
    encode_block_version(table, FORMAT_VERSION)
}

/// The bytes of a table file in block format `version`: [`FORMAT_VERSION`]
/// or [`BLOCK_V2_VERSION`] (which this crate reads but no longer writes;
/// for tests of the older reader and size comparisons).
///
/// # Panics
/// On any other version (a caller's mistake, not the input's).
pub fn encode_block_version(table: &Table, version: u16) -> Vec<u8> {
    use rayon::prelude::*;
    assert!(
        version == FORMAT_VERSION || version == BLOCK_V2_VERSION,
        "block format {version} is not written"
    );
    let exact = table.exact_codes();
    let mut counts: std::collections::BTreeMap<u16, u64> = std::collections::BTreeMap::new();
    for &c in exact.iter().filter(|&&c| c != code::NONE) {
        *counts.entry(c).or_default() += 1;
    }
    let mut symbols: Vec<(u64, u16)> = counts.into_iter().map(|(c, n)| (n, c)).collect();
    symbols.sort_by_key(|&(n, c)| (std::cmp::Reverse(n), c));
    let mut codes: Vec<u16> = symbols.into_iter().map(|(_, c)| c).collect();
    if codes.is_empty() {
        // No position at all: one symbol, never looked up.
        codes.push(code::NONE);
    }
    let mut rank_of = vec![0u16; usize::from(u16::MAX) + 1];
    for (r, &c) in codes.iter().enumerate() {
        rank_of[usize::from(c)] = r as u16;
    }
    let coding = coding_of(&table.layout, version);
    let blocks: Vec<Vec<u8>> = exact
        .par_chunks(BLOCK_ENTRIES)
        .map(|chunk| {
            let ranks: Vec<Option<u16>> = chunk
                .iter()
                .map(|&c| (c != code::NONE).then(|| rank_of[usize::from(c)]))
                .collect();
            crate::block::encode(&ranks, codes.len(), coding)
        })
        .collect();
    let name = table.material().to_string();
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&version.to_le_bytes());
    out.push(name.len() as u8);
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(&(exact.len() as u64).to_le_bytes());
    out.extend_from_slice(&(BLOCK_ENTRIES as u32).to_le_bytes());
    out.extend_from_slice(&(codes.len() as u16).to_le_bytes());
    for c in &codes {
        out.extend_from_slice(&c.to_le_bytes());
    }
    for b in &blocks {
        out.extend_from_slice(&(b.len() as u32).to_le_bytes());
        out.extend_from_slice(&crc32(b).to_le_bytes());
    }
    let header_crc = crc32(&out);
    out.extend_from_slice(&header_crc.to_le_bytes());
    for b in &blocks {
        out.extend_from_slice(b);
    }
    out
}

/// The bytes of a table file in the run-length format of version 1, which
/// this crate still reads (for tests of the conversion, and to compare
/// sizes).
pub fn encode_run_length(table: &Table) -> Vec<u8> {
    let exact = table.exact_codes();
    let name = table.material().to_string();
    let payload = compress(&exact);
    let mut out = Vec::with_capacity(payload.len() + 64);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&RUN_LENGTH_VERSION.to_le_bytes());
    out.push(name.len() as u8);
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(&(exact.len() as u64).to_le_bytes());
    out.extend_from_slice(&values_crc(&exact).to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    let header_crc = crc32(&out);
    out.extend_from_slice(&header_crc.to_le_bytes());
    out.extend_from_slice(&payload);
    out
}

/// Reads header fields from a file or a byte slice, keeping every byte
/// read for the header's checksum.
struct Reader<'a, R: Read> {
    inner: R,
    seen: Vec<u8>,
    short: &'a dyn Fn() -> FileError,
}

impl<R: Read> Reader<'_, R> {
    /// The next `n` bytes (`n` is always bounded by the caller: a field's
    /// size, or a count checked against the ending's layout first).
    fn take(&mut self, n: usize) -> Result<&[u8], FileError> {
        let at = self.seen.len();
        self.seen.resize(at + n, 0);
        match self.inner.read_exact(&mut self.seen[at..]) {
            Ok(()) => Ok(&self.seen[at..]),
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Err((self.short)()),
            Err(e) => Err(FileError::Io(e.to_string())),
        }
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], FileError> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N)?);
        Ok(a)
    }

    fn u16(&mut self) -> Result<u16, FileError> {
        self.array().map(u16::from_le_bytes)
    }

    fn u32(&mut self) -> Result<u32, FileError> {
        self.array().map(u32::from_le_bytes)
    }

    fn u64(&mut self) -> Result<u64, FileError> {
        self.array().map(u64::from_le_bytes)
    }
}

/// What a table file starts with: its format version and ending.
struct Start {
    version: u16,
    layout: Layout,
}

/// Reads magic, version, name and entry count, checking them (the header
/// checksum, which covers more, is checked by the caller).
fn read_start<R: Read>(
    r: &mut Reader<'_, R>,
    expected: Option<Material>,
    bad: &dyn Fn(&str) -> FileError,
) -> Result<Start, FileError> {
    if r.take(MAGIC.len())? != MAGIC {
        return Err(bad("not a Shuai endgame table (wrong magic bytes)"));
    }
    let version = r.u16()?;
    if ![FORMAT_VERSION, BLOCK_V2_VERSION, RUN_LENGTH_VERSION].contains(&version) {
        return Err(bad(&format!(
            "format version {version}, this program reads versions {RUN_LENGTH_VERSION} \
             to {FORMAT_VERSION}"
        )));
    }
    let name_len = usize::from(r.take(1)?[0]);
    let name = r.take(name_len)?.to_vec();
    let entries = r.u64()?;
    let name = std::str::from_utf8(&name).map_err(|_| bad("the ending name is not text"))?;
    let material = Material::parse(name).map_err(|e| bad(&e.to_string()))?;
    if let Some(m) = expected {
        if m != material {
            return Err(bad(&format!("holds {material}, expected {m}")));
        }
    }
    let layout = Layout::new(material);
    // Refused before anything is allocated for the values: a name of a
    // larger ending (up to all 32 pieces, more indices than a usize holds)
    // would otherwise ask for any amount of memory.
    if layout.size() > MAX_ENTRIES {
        return Err(bad(&format!(
            "{material} has {} indices, more than the {MAX_ENTRIES} of the largest table \
             this program makes",
            if layout.size() == usize::MAX {
                "too many".to_string()
            } else {
                layout.size().to_string()
            }
        )));
    }
    if entries != layout.size() as u64 {
        return Err(bad(&format!(
            "{entries} entries, the {material} index has {}",
            layout.size()
        )));
    }
    Ok(Start { version, layout })
}

/// The header of a block-format file past its start: how to find, check
/// and decode each block.
pub(crate) struct Blocks {
    /// Entries per block (the last block may be shorter).
    block: usize,
    /// The codes of the symbols, by rank.
    codes: Vec<u16>,
    /// The coder's model and the strides of its contexts.
    coding: crate::block::Coding,
    /// Where each block starts in the file, and where the last one ends.
    offsets: Vec<u64>,
    /// The CRC-32 of each block's bytes.
    crcs: Vec<u32>,
    /// Entries of the table.
    entries: usize,
}

impl Blocks {
    /// Reads the rest of a block-format header (version 2 or 3) and
    /// checks its checksum. `file_len` bounds the index read (a damaged
    /// block size must not make a huge allocation before the checksum is
    /// seen).
    fn read<R: Read>(
        r: &mut Reader<'_, R>,
        layout: &Layout,
        version: u16,
        file_len: u64,
        bad: &dyn Fn(&str) -> FileError,
    ) -> Result<Blocks, FileError> {
        let entries = layout.size();
        let block = r.u32()? as usize;
        if block < 2 || !block.is_power_of_two() || block > MAX_BLOCK_ENTRIES {
            return Err(bad(&format!(
                "{block} entries a block is not a valid block size"
            )));
        }
        let symbols = usize::from(r.u16()?);
        if symbols == 0 {
            return Err(bad("no symbols"));
        }
        let codes: Vec<u16> = r
            .take(symbols * 2)?
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        let count = entries.div_ceil(block);
        if count as u64 * 8 > file_len {
            return Err((r.short)());
        }
        let index = r.take(count * 8)?.to_vec();
        let header_end = r.seen.len() as u64;
        let crc_given = r.u32()?;
        if crc32(&r.seen[..header_end as usize]) != crc_given {
            return Err(bad("the header is damaged (checksum mismatch)"));
        }
        let mut offsets = Vec::with_capacity(count + 1);
        let mut crcs = Vec::with_capacity(count);
        let mut at = header_end + 4;
        for e in index.chunks_exact(8) {
            offsets.push(at);
            at += u64::from(u32::from_le_bytes([e[0], e[1], e[2], e[3]]));
            crcs.push(u32::from_le_bytes([e[4], e[5], e[6], e[7]]));
        }
        offsets.push(at);
        Ok(Blocks {
            block,
            codes,
            coding: coding_of(layout, version),
            offsets,
            crcs,
            entries,
        })
    }

    /// The file's length as the header gives it.
    fn file_len(&self) -> u64 {
        self.offsets.last().copied().unwrap_or(0)
    }

    /// How many blocks.
    fn count(&self) -> usize {
        self.crcs.len()
    }

    /// The entries of block `b`.
    fn entries_of(&self, b: usize) -> usize {
        self.block.min(self.entries - b * self.block)
    }

    /// The byte range of block `b` in the file.
    fn range(&self, b: usize) -> (u64, usize) {
        let (from, to) = (self.offsets[b], self.offsets[b + 1]);
        (from, (to - from) as usize)
    }

    /// Checks and decodes block `b` from its bytes into `out`.
    fn decode(
        &self,
        b: usize,
        data: &[u8],
        out: &mut Vec<u16>,
        bad: &dyn Fn(&str) -> FileError,
    ) -> Result<(), FileError> {
        if crc32(data) != self.crcs[b] {
            return Err(bad(&format!("block {b} is damaged (checksum mismatch)")));
        }
        crate::block::decode(data, self.entries_of(b), &self.codes, self.coding, out)
            .ok_or_else(|| bad(&format!("block {b} is damaged (does not decode)")))
    }
}

/// Reads a table from the bytes of a file (either format version).
/// `expected`, when given, is the ending the file must hold. `source`
/// names the file in messages.
pub fn decode(bytes: &[u8], expected: Option<Material>, source: &str) -> Result<Table, FileError> {
    use rayon::prelude::*;
    let bad = |why: &str| FileError::Bad(format!("{source}: {why}"));
    let short = || bad("the file is cut short");
    let mut r = Reader {
        inner: bytes,
        seen: Vec::new(),
        short: &short,
    };
    let start = read_start(&mut r, expected, &bad)?;
    if start.version == RUN_LENGTH_VERSION {
        return decode_run_length(bytes, r, start, &bad);
    }
    let blocks = Blocks::read(
        &mut r,
        &start.layout,
        start.version,
        bytes.len() as u64,
        &bad,
    )?;
    match (bytes.len() as u64).cmp(&blocks.file_len()) {
        std::cmp::Ordering::Less => return Err(short()),
        std::cmp::Ordering::Greater => return Err(bad("unexpected bytes after the data")),
        std::cmp::Ordering::Equal => {}
    }
    let mut values = vec![0u16; start.layout.size()];
    values
        .par_chunks_mut(blocks.block)
        .enumerate()
        .try_for_each(|(b, chunk)| {
            let (from, len) = blocks.range(b);
            let data = &bytes[from as usize..from as usize + len];
            let mut out = Vec::new();
            blocks.decode(b, data, &mut out, &bad)?;
            chunk.copy_from_slice(&out);
            Ok(())
        })?;
    Ok(Table {
        layout: start.layout,
        values,
        dont_care: true,
    })
}

/// The rest of a version-1 (run-length) file.
fn decode_run_length(
    bytes: &[u8],
    mut r: Reader<'_, &[u8]>,
    start: Start,
    bad: &dyn Fn(&str) -> FileError,
) -> Result<Table, FileError> {
    let values_crc_given = r.u32()?;
    let payload_len = r.u64()?;
    let header_end = r.seen.len();
    let header_crc_given = r.u32()?;
    if crc32(&r.seen[..header_end]) != header_crc_given {
        return Err(bad("the header is damaged (checksum mismatch)"));
    }
    let at = r.seen.len();
    let payload = usize::try_from(payload_len)
        .ok()
        .and_then(|len| bytes.get(at..at.checked_add(len)?))
        .ok_or_else(|| bad("the file is cut short"))?;
    if at + payload.len() != bytes.len() {
        return Err(bad("unexpected bytes after the data"));
    }
    let values = decompress(payload, start.layout.size())
        .ok_or_else(|| bad("the data is damaged (does not decode)"))?;
    if values_crc(&values) != values_crc_given {
        return Err(bad("the data is damaged (checksum mismatch)"));
    }
    Ok(Table {
        layout: start.layout,
        values,
        dont_care: false,
    })
}

/// A table file opened for probing in place: its header and block index
/// are read, its blocks are read one at a time when asked for.
///
/// The file stays open (one handle per opened table, which a search opens
/// only as it meets their endings): a file replaced or removed meanwhile
/// is still read as it was when opened. A block-format file is read a
/// block at a time; a run-length file of version 1 has no blocks and is
/// read whole, as one block of all its entries.
pub struct BlockFile {
    path: PathBuf,
    material: Material,
    blocks: Option<Blocks>,
    entries: usize,
    /// The open file; reads seek, so one at a time.
    file: std::sync::Mutex<std::fs::File>,
}

impl BlockFile {
    /// Opens the table of `material` in `dir`: reads and checks the header
    /// and the block index, and checks the file's length against them.
    pub fn open(dir: &Path, material: Material) -> Result<BlockFile, FileError> {
        let path = dir.join(file_name(&material));
        let source = path.display().to_string();
        let bad = |why: &str| FileError::Bad(format!("{source}: {why}"));
        let short = || bad("the file is cut short");
        let io = |e: std::io::Error| FileError::Io(format!("{source}: {e}"));
        let file = std::fs::File::open(&path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        let mut r = Reader {
            inner: std::io::BufReader::with_capacity(1 << 16, &file),
            seen: Vec::new(),
            short: &short,
        };
        let start = read_start(&mut r, Some(material), &bad)?;
        let entries = start.layout.size();
        let blocks = if start.version == RUN_LENGTH_VERSION {
            None
        } else {
            let blocks = Blocks::read(&mut r, &start.layout, start.version, len, &bad)?;
            match len.cmp(&blocks.file_len()) {
                std::cmp::Ordering::Less => return Err(short()),
                std::cmp::Ordering::Greater => return Err(bad("unexpected bytes after the data")),
                std::cmp::Ordering::Equal => {}
            }
            Some(blocks)
        };
        drop(r);
        Ok(BlockFile {
            path,
            material,
            blocks,
            entries,
            file: std::sync::Mutex::new(file),
        })
    }

    /// The ending.
    pub fn material(&self) -> Material {
        self.material
    }

    /// Entries of the table.
    pub fn entries(&self) -> usize {
        self.entries
    }

    /// Entries per block (all of them for a run-length file; otherwise a
    /// power of two).
    pub fn block_entries(&self) -> usize {
        self.blocks.as_ref().map_or(self.entries, |b| b.block)
    }

    /// How many blocks.
    pub fn blocks(&self) -> usize {
        self.blocks.as_ref().map_or(1, Blocks::count)
    }

    /// Bytes of the header and block index kept in memory.
    pub fn header_bytes(&self) -> usize {
        self.blocks.as_ref().map_or(0, |b| {
            b.codes.len() * 2 + b.offsets.len() * 8 + b.crcs.len() * 4
        })
    }

    /// The stored codes of block `b` (entries `b * block_entries()` on),
    /// read from the file and checked; a non-position holds any value.
    pub fn read_block(&self, b: usize) -> Result<Vec<u16>, FileError> {
        let source = self.path.display().to_string();
        let bad = |why: &str| FileError::Bad(format!("{source}: {why}"));
        let io = |e: std::io::Error| FileError::Io(format!("{source}: {e}"));
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        let Some(blocks) = &self.blocks else {
            if b != 0 {
                return Err(bad(&format!("no block {b}")));
            }
            let mut bytes = Vec::new();
            file.seek(SeekFrom::Start(0)).map_err(io)?;
            file.read_to_end(&mut bytes).map_err(io)?;
            return decode(&bytes, Some(self.material), &source).map(|t| t.values);
        };
        if b >= blocks.count() {
            return Err(bad(&format!("no block {b}")));
        }
        let (from, len) = blocks.range(b);
        file.seek(SeekFrom::Start(from)).map_err(io)?;
        let mut data = vec![0u8; len];
        file.read_exact(&mut data).map_err(|e| {
            if e.kind() == std::io::ErrorKind::UnexpectedEof {
                bad("the file is cut short")
            } else {
                io(e)
            }
        })?;
        drop(file);
        let mut out = Vec::new();
        blocks.decode(b, &data, &mut out, &bad)?;
        Ok(out)
    }
}

/// Writes `table` to `dir`, through a temporary file renamed into place
/// so an interrupted write never leaves a file that looks finished.
pub fn save(table: &Table, dir: &Path) -> Result<std::path::PathBuf, FileError> {
    let io = |e: std::io::Error, p: &Path| FileError::Io(format!("{}: {e}", p.display()));
    std::fs::create_dir_all(dir).map_err(|e| io(e, dir))?;
    let path = dir.join(file_name(&table.material()));
    let tmp = path.with_extension(format!("{EXTENSION}.part"));
    std::fs::write(&tmp, encode(table)).map_err(|e| io(e, &tmp))?;
    std::fs::rename(&tmp, &path).map_err(|e| io(e, &path))?;
    Ok(path)
}

/// Reads the table of `material` from `dir`.
pub fn load(dir: &Path, material: Material) -> Result<Table, FileError> {
    let path = dir.join(file_name(&material));
    let bytes =
        std::fs::read(&path).map_err(|e| FileError::Io(format!("{}: {e}", path.display())))?;
    decode(&bytes, Some(material), &path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_of_known_text() {
        // The standard check value of CRC-32/ISO-HDLC.
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    /// The table-driven CRC against the bit-by-bit definition, for every
    /// length up to 40 (so every remainder of the eight-byte steps), and
    /// the values' CRC against the CRC of their bytes.
    #[test]
    fn crc_by_tables_is_the_crc() {
        let bitwise = |bytes: &[u8]| {
            let mut crc = !0u32;
            for &b in bytes {
                crc ^= u32::from(b);
                for _ in 0..8 {
                    crc = (crc >> 1) ^ (CRC_POLY & (crc & 1).wrapping_neg());
                }
            }
            !crc
        };
        let bytes: Vec<u8> = (0..40u32).map(|i| (i * 37 + 11) as u8).collect();
        for n in 0..=bytes.len() {
            assert_eq!(crc32(&bytes[..n]), bitwise(&bytes[..n]), "{n} bytes");
        }
        let values: Vec<u16> = (0..23u32).map(|i| (i * 40_503 + 7) as u16).collect();
        for n in 0..=values.len() {
            let le: Vec<u8> = values[..n].iter().flat_map(|v| v.to_le_bytes()).collect();
            assert_eq!(values_crc(&values[..n]), bitwise(&le), "{n} values");
        }
    }

    #[test]
    fn coding_round_trips() {
        let values: Vec<u16> = (0..5000u32)
            .map(|i| {
                if i % 700 < 500 {
                    1
                } else {
                    (i % 13) as u16 * 300
                }
            })
            .collect();
        let packed = compress(&values);
        assert!(packed.len() < values.len());
        assert_eq!(decompress(&packed, values.len()), Some(values.clone()));
        assert_eq!(decompress(&packed, values.len() + 1), None);
        assert_eq!(decompress(&packed[..packed.len() - 1], values.len()), None);
    }

    /// What reading a whole table costs (ignored: a timing).
    /// `EGTB_FILE=/path/KRAEKAE.egtb cargo test --release -p shuai-egtb
    /// --lib first_read -- --ignored --nocapture` prints milliseconds for
    /// decoding the table from the bytes of the block format and from
    /// those of the run-length format (made from it), and for the
    /// run-length decoding and the checksum alone: the best of seven, by
    /// the wall clock and by this thread's time on a CPU (Linux's
    /// schedstat, which leaves out waiting for the CPU on a busy machine
    /// but is updated only every few milliseconds). It fails without
    /// `EGTB_FILE`, and when a step timed does not give the table back.
    #[test]
    #[ignore]
    fn first_read_cost() {
        use std::time::Instant;
        let Some(path) = std::env::var_os("EGTB_FILE") else {
            panic!("set EGTB_FILE to the path of a table file to time its first read");
        };
        let path = std::path::PathBuf::from(path);
        let cpu = || {
            std::fs::read_to_string("/proc/thread-self/schedstat")
                .ok()
                .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
                .unwrap_or(0)
        };
        // The best (wall, CPU) milliseconds of seven runs of `f`.
        let best = |f: &mut dyn FnMut()| {
            let (mut wall, mut on_cpu) = (f64::MAX, f64::MAX);
            for _ in 0..7 {
                let (t, c) = (Instant::now(), cpu());
                f();
                wall = wall.min(t.elapsed().as_secs_f64() * 1e3);
                on_cpu = on_cpu.min((cpu() - c) as f64 / 1e6);
            }
            format!("{wall:.1}/{on_cpu:.1}")
        };
        let bytes = std::fs::read(&path).unwrap();
        let table = decode(&bytes, None, "timing").unwrap();
        let entries = table.len();
        let blocks = encode(&table);
        let old = encode_run_length(&table);
        let exact = table.exact_codes().into_owned();
        let payload = &old[old.len() - compress(&exact).len()..];
        // What is timed must give the table back.
        assert_eq!(decode(&blocks, None, "t").unwrap().values, table.values);
        assert_eq!(decode(&old, None, "t").unwrap().values, exact);
        assert_eq!(decompress(payload, entries).as_ref(), Some(&exact));
        let block = best(&mut || drop(std::hint::black_box(decode(&blocks, None, "t"))));
        let whole = best(&mut || drop(std::hint::black_box(decode(&old, None, "t"))));
        let unpack = best(&mut || drop(std::hint::black_box(decompress(payload, entries))));
        let check = best(&mut || {
            std::hint::black_box(values_crc(&exact));
        });
        eprintln!(
            "{}: {entries} entries; ms wall/CPU: block format ({} bytes) {block}; run-length \
             format ({} bytes) {whole} = run-length decoding {unpack} + checksum {check}",
            table.material(),
            blocks.len(),
            old.len()
        );
    }
}

#[cfg(test)]
mod sizes {
    use super::*;

    /// The block-format bytes of tables already written (ignored: a
    /// measurement). `EGTB_DIR=DIR EGTB_ENDINGS=KREKAEE,KRAKAE cargo test
    /// --release -p shuai-egtb --lib sizes -- --ignored --nocapture` prints
    /// each table's bytes now and as the files hold them, and the
    /// milliseconds of coding.
    #[test]
    #[ignore]
    fn block_sizes_of_written_tables() {
        let (Some(dir), Ok(names)) = (std::env::var_os("EGTB_DIR"), std::env::var("EGTB_ENDINGS"))
        else {
            panic!("set EGTB_DIR and EGTB_ENDINGS");
        };
        let dir = std::path::PathBuf::from(dir);
        let (mut before, mut after) = (0, 0);
        let start = std::time::Instant::now();
        for name in names.split(',') {
            let m = Material::parse(name).unwrap().canonical().0;
            let old = std::fs::read(dir.join(file_name(&m))).unwrap();
            let t = decode(&old, Some(m), name).unwrap();
            let new = encode(&t);
            eprintln!("{m}: {} -> {}", old.len(), new.len());
            // Run-length copies (exact, read without the coder) for trying
            // coder changes on.
            if let Some(out) = std::env::var_os("EGTB_RL_OUT") {
                let out = std::path::PathBuf::from(out).join(file_name(&m));
                std::fs::write(out, encode_run_length(&t)).unwrap();
            }
            before += old.len();
            after += new.len();
        }
        eprintln!(
            "total {before} -> {after} ({:.1} s)",
            start.elapsed().as_secs_f64()
        );
    }
}
