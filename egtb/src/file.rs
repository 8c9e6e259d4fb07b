//! The table file: a header, then the values compressed.
//!
//! ```text
//! magic     8 bytes  "SHUAIEGT"
//! version   u16      FORMAT_VERSION
//! name      u8 length, then the ending's name in ASCII (e.g. "KRKAA")
//! entries   u64      number of indices (must match the ending's layout)
//! values    u32      CRC-32 of the values as little-endian u16s
//! payload   u64      length of the compressed values in bytes
//! header    u32      CRC-32 of every header byte before this field
//! data      payload bytes
//! ```
//!
//! All numbers little-endian. The compression is run-length coding of the
//! `u16` values with LEB128 numbers, written here rather than taken from a
//! crate: the values come in long runs (illegal placements, draws, equal
//! distances along a rook's file), a run costs two or three bytes, and the
//! decoder is thirty lines that can be checked by reading. Tokens:
//! `varint(len << 1 | 1), varint(value)` for `len` copies of a value, and
//! `varint(len << 1), len × varint(value)` for values written as they are.

use crate::index::Layout;
use crate::material::Material;
use crate::table::Table;
use std::fmt;
use std::path::Path;

/// The first bytes of every table file.
pub const MAGIC: &[u8; 8] = b"SHUAIEGT";
/// The version of the layout and coding this crate reads and writes.
pub const FORMAT_VERSION: u16 = 1;
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

/// The bytes of a table file.
pub fn encode(table: &Table) -> Vec<u8> {
    let name = table.material().to_string();
    let payload = compress(&table.values);
    let mut out = Vec::with_capacity(payload.len() + 64);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.push(name.len() as u8);
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(&(table.values.len() as u64).to_le_bytes());
    out.extend_from_slice(&values_crc(&table.values).to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    let header_crc = crc32(&out);
    out.extend_from_slice(&header_crc.to_le_bytes());
    out.extend_from_slice(&payload);
    out
}

/// A cursor over the header bytes.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let s = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(s)
    }

    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N)?.try_into().ok()
    }
}

/// Reads a table from the bytes of a file. `expected`, when given, is the
/// ending the file must hold. `source` names the file in messages.
pub fn decode(bytes: &[u8], expected: Option<Material>, source: &str) -> Result<Table, FileError> {
    let bad = |why: &str| FileError::Bad(format!("{source}: {why}"));
    let short = || bad("the file is cut short");
    let mut r = Reader { bytes, at: 0 };
    if r.take(MAGIC.len()).ok_or_else(short)? != MAGIC {
        return Err(bad("not a Shuai endgame table (wrong magic bytes)"));
    }
    let version = u16::from_le_bytes(r.array().ok_or_else(short)?);
    if version != FORMAT_VERSION {
        return Err(bad(&format!(
            "format version {version}, this program reads version {FORMAT_VERSION}"
        )));
    }
    let name_len = r.take(1).ok_or_else(short)?[0] as usize;
    let name = r.take(name_len).ok_or_else(short)?;
    let entries = u64::from_le_bytes(r.array().ok_or_else(short)?);
    let values_crc_given = u32::from_le_bytes(r.array().ok_or_else(short)?);
    let payload_len = u64::from_le_bytes(r.array().ok_or_else(short)?);
    let header_end = r.at;
    let header_crc_given = u32::from_le_bytes(r.array().ok_or_else(short)?);
    if crc32(&bytes[..header_end]) != header_crc_given {
        return Err(bad("the header is damaged (checksum mismatch)"));
    }
    let name = std::str::from_utf8(name).map_err(|_| bad("the ending name is not text"))?;
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
    let payload = usize::try_from(payload_len)
        .ok()
        .and_then(|len| r.take(len))
        .ok_or_else(short)?;
    if r.at != bytes.len() {
        return Err(bad("unexpected bytes after the data"));
    }
    let values = decompress(payload, layout.size())
        .ok_or_else(|| bad("the data is damaged (does not decode)"))?;
    if values_crc(&values) != values_crc_given {
        return Err(bad("the data is damaged (checksum mismatch)"));
    }
    Ok(Table { layout, values })
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

    /// Where the first read of a table goes (ignored: a timing).
    /// `EGTB_FILE=/path/KRAEKAE.egtb cargo test --release -p shuai-egtb
    /// --lib first_read -- --ignored --nocapture` prints milliseconds for
    /// the whole load, the file read, the run-length decoding and the
    /// checksum: the best of seven, by the wall clock and by this thread's
    /// time on a CPU (Linux's schedstat, which leaves out waiting for the
    /// CPU on a busy machine but is updated only every few milliseconds).
    /// It fails without `EGTB_FILE`, and when a step timed does not give
    /// the table back (each is checked once against the decoded file).
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
        let payload = &bytes[bytes.len() - compress(&table.values).len()..];
        let material = table.material();
        let dir = path.parent().unwrap_or(Path::new("."));
        // What is timed must be what a probe reads: the same values.
        assert_eq!(load(dir, material).unwrap().values, table.values);
        assert_eq!(decompress(payload, entries).as_ref(), Some(&table.values));
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
        let whole = best(&mut || drop(std::hint::black_box(load(dir, material).unwrap())));
        let read = best(&mut || drop(std::hint::black_box(std::fs::read(&path).unwrap())));
        let unpack = best(&mut || drop(std::hint::black_box(decompress(payload, entries))));
        let check = best(&mut || {
            std::hint::black_box(values_crc(&table.values));
        });
        // The floor under the decoding: memory for the values, written
        // once (the first touch of each page costs a page fault).
        let fill = best(&mut || drop(std::hint::black_box(vec![0x5555u16; entries])));
        eprintln!(
            "{material}: {entries} entries, {} bytes; ms wall/CPU: load {whole} = read {read} \
             + run-length decoding {unpack} + checksum {check}; writing {entries} values \
             alone {fill}",
            bytes.len()
        );
    }
}
