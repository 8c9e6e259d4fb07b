//! The entropy coder of the block format: an adaptive binary range coder
//! over a small model of table values.
//!
//! A block's values are coded in a fixed order: the positions with Red to
//! move (even indices), then those with Black to move (odd), so that
//! neighbours in the stream differ in one piece's point and mostly share a
//! value. Each value is a *rank* into the table's symbol list (its codes,
//! most frequent first), coded as
//!
//! 1. one bit "the same as the previous value", its probability
//!    conditioned on how long the run so far is, on whether the value one
//!    row back (the same point of every piece but the lowest index
//!    digit's, one step of the next digit earlier) equals the previous
//!    one and the one before it, and, for Black to move, on whether Red's
//!    value at the same placement changed there (1.8% fewer bytes on the
//!    132 tables of the 108 one-attacker endings);
//! 2. if not, and the value one row back differs from the previous one,
//!    one bit "the same as the value one row back";
//! 3. (format version 3) if neither, and the value one *plane* back (one
//!    step of the third-lowest index digit earlier: in most endings the
//!    attacker one point back, the two lower digits being defenders)
//!    differs from both, one bit "the same as the value one plane back";
//! 4. if none of these, the rank as a binary tree of adaptive bits (as
//!    many levels as the table's symbols need, at most 16); in version 3
//!    one tree for each of the previous value's first three ranks and one
//!    for the rest.
//!
//! Steps 3 and 4's contexts cut the 27 rook endings of issue 48 (26 of
//! them with their capture tables, 1,448,404 bytes in version 2) by 11%
//! (1,289,465 bytes): of their 5.6 M positions, 1.6 M differ from both the
//! previous value and the one a row back, and cost 44% of the bytes.
//!
//! A "don't care" entry (an index that is not a position) is coded as the
//! previous value, which step 1 makes almost free: about half the entries
//! of a table are such.
//!
//! The bit coder is the classic carry-less range coder with a cache byte
//! (as in LZMA, rewritten here from the description): 32-bit range,
//! probabilities of 15 bits moved a 16th of the way after each bit (5% fewer
//! bytes than a 32nd; a mean of a fast and a slow estimate did worse). Every
//! probability starts at one half at the start of each block, so a block
//! decodes alone. Written here rather than taken from a crate: the crate
//! depends only on `board`, and the coder is about a hundred lines whose
//! every step can be checked by reading.

/// Bits of a probability.
const PROB_BITS: u32 = 15;
/// One half.
const PROB_INIT: u16 = 1 << (PROB_BITS - 1);
/// A probability moves by its distance to 0 or 1 shifted by this.
const MOVE_BITS: u32 = 4;
/// The range is renormalised (a byte shifted out) below this.
const TOP: u32 = 1 << 24;

/// Rank trees of version 3, chosen by the previous value's rank.
const TREES: usize = 4;

/// How a table's blocks are coded: the strides of the neighbours the
/// model predicts from, and which model (the file's format version).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Coding {
    /// Entries of one side to move between a value and the one a row back.
    pub row: usize,
    /// Entries of one side to move between a value and the one a plane
    /// back (`usize::MAX` when the index has no third digit); `None` in
    /// format version 2, whose model has neither the plane step nor more
    /// than one rank tree.
    pub plane: Option<usize>,
}

impl Coding {
    /// The rank tree to use after a value of rank `prev`.
    #[inline]
    fn tree(&self, prev: u16) -> usize {
        match self.plane {
            Some(_) => usize::from(prev).min(TREES - 1),
            None => 0,
        }
    }
}

/// Run-length classes of the first bit's context.
const RUN_CLASSES: usize = 8;

/// The class of a run of `n` equal values so far.
#[inline]
fn run_class(n: u32) -> usize {
    match n {
        0..=3 => n as usize,
        4..=7 => 4,
        8..=31 => 5,
        32..=255 => 6,
        _ => 7,
    }
}

/// Levels of the rank tree for `symbols` distinct values (0 for one).
fn tree_depth(symbols: usize) -> u32 {
    usize::BITS - symbols.saturating_sub(1).leading_zeros()
}

struct Encoder {
    low: u64,
    range: u32,
    cache: u8,
    cache_size: u64,
    out: Vec<u8>,
}

impl Encoder {
    fn new() -> Encoder {
        Encoder {
            low: 0,
            range: u32::MAX,
            cache: 0,
            cache_size: 1,
            out: Vec::new(),
        }
    }

    /// Writes the top byte of `low` once it can no longer change (a carry
    /// may still reach a run of 0xFF bytes, held back as `cache_size`).
    fn shift_low(&mut self) {
        if (self.low as u32) < 0xFF00_0000 || (self.low >> 32) != 0 {
            let carry = (self.low >> 32) as u8;
            let mut byte = self.cache;
            loop {
                self.out.push(byte.wrapping_add(carry));
                byte = 0xFF;
                self.cache_size -= 1;
                if self.cache_size == 0 {
                    break;
                }
            }
            self.cache = (self.low >> 24) as u8;
        }
        self.cache_size += 1;
        self.low = (self.low & 0x00FF_FFFF) << 8;
    }

    fn bit(&mut self, prob: &mut u16, bit: bool) {
        let bound = (self.range >> PROB_BITS) * u32::from(*prob);
        if bit {
            self.low += u64::from(bound);
            self.range -= bound;
            *prob -= *prob >> MOVE_BITS;
        } else {
            self.range = bound;
            *prob += ((1 << PROB_BITS) - *prob) >> MOVE_BITS;
        }
        while self.range < TOP {
            self.range <<= 8;
            self.shift_low();
        }
    }

    fn finish(mut self) -> Vec<u8> {
        for _ in 0..5 {
            self.shift_low();
        }
        // The first byte out is the initial cache, always 0: not stored.
        self.out.remove(0);
        self.out
    }
}

struct Decoder<'a> {
    range: u32,
    code: u32,
    data: &'a [u8],
    at: usize,
}

impl<'a> Decoder<'a> {
    fn new(data: &'a [u8]) -> Decoder<'a> {
        let mut d = Decoder {
            range: u32::MAX,
            code: 0,
            data,
            at: 0,
        };
        for _ in 0..4 {
            d.code = (d.code << 8) | u32::from(d.byte());
        }
        d
    }

    /// The next byte; zeros past the end (a damaged block then decodes to
    /// some values, which the block's checksum has already refused).
    #[inline]
    fn byte(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    #[inline]
    fn bit(&mut self, prob: &mut u16) -> bool {
        let bound = (self.range >> PROB_BITS) * u32::from(*prob);
        let bit = if self.code < bound {
            self.range = bound;
            *prob += ((1 << PROB_BITS) - *prob) >> MOVE_BITS;
            false
        } else {
            self.code -= bound;
            self.range -= bound;
            *prob -= *prob >> MOVE_BITS;
            true
        };
        while self.range < TOP {
            self.range <<= 8;
            self.code = (self.code << 8) | u32::from(self.byte());
        }
        bit
    }

    /// Whether the decoder read exactly the bytes the encoder wrote (a
    /// block whose data was cut or padded does not end where it should).
    fn at_end(&self) -> bool {
        self.at == self.data.len()
    }
}

/// The adaptive probabilities of one block.
struct Model {
    same: [u16; RUN_CLASSES * 8],
    up: [u16; RUN_CLASSES * 2],
    plane: [u16; 2],
    /// The rank trees the coding uses ([`Coding::tree`]), `1 << depth`
    /// nodes each (node 0 unused).
    tree: Vec<u16>,
    depth: u32,
}

impl Model {
    fn new(symbols: usize, coding: Coding) -> Model {
        let depth = tree_depth(symbols);
        let trees = if coding.plane.is_some() { TREES } else { 1 };
        Model {
            same: [PROB_INIT; RUN_CLASSES * 8],
            up: [PROB_INIT; RUN_CLASSES * 2],
            plane: [PROB_INIT; 2],
            tree: vec![PROB_INIT; trees << depth],
            depth,
        }
    }
}

/// The order in which a block of `len` entries is coded: the even
/// positions of the block, then the odd ones (the block starts at an even
/// index, so these are Red to move, then Black).
#[inline]
fn stream_order(len: usize) -> impl Iterator<Item = usize> {
    (0..len).step_by(2).chain((1..len).step_by(2))
}

/// Where the value one row back is in the stream: `row` entries of the
/// same side to move earlier, in the same half of the block.
#[inline]
fn row_back(t: usize, half_start: usize, row: usize) -> Option<usize> {
    t.checked_sub(row).filter(|&u| u >= half_start)
}

/// The values one row back (`up`) and the one before it (`up_left`) of
/// stream position `t`, `prev` where the half-block has none.
#[inline]
fn neighbours(stream: &[u16], t: usize, half_start: usize, row: usize, prev: u16) -> (u16, u16) {
    let up = row_back(t, half_start, row).map_or(prev, |u| stream[u]);
    let up_left = row_back(t, half_start, row + 1).map_or(prev, |u| stream[u]);
    (up, up_left)
}

/// The value one plane back of stream position `t` when the model has a
/// plane step and that value is a new candidate (neither `prev` nor `up`).
#[inline]
fn plane_candidate(
    stream: &[u16],
    t: usize,
    half_start: usize,
    coding: Coding,
    prev: u16,
    up: u16,
) -> Option<u16> {
    let u = row_back(t, half_start, coding.plane?)?;
    Some(stream[u]).filter(|&v| v != prev && v != up)
}

/// Whether, in the second half of a block (Black to move), the first
/// half's value at the same placement equals the one before it: where
/// Red's values change along the stream, Black's mostly do too. `true` in
/// the first half, which has nothing to look at.
#[inline]
fn other_steady(stream: &[u16], t: usize, evens: usize) -> bool {
    match t.checked_sub(evens + 1) {
        Some(u) => stream[u] == stream[u + 1],
        None => true,
    }
}

/// Codes one block. `ranks[i]` is the rank of entry `i`, `None` for a
/// don't-care entry (not a position). `symbols` is the number of ranks.
pub(crate) fn encode(ranks: &[Option<u16>], symbols: usize, coding: Coding) -> Vec<u8> {
    let row = coding.row;
    let mut enc = Encoder::new();
    let mut m = Model::new(symbols, coding);
    let mut stream: Vec<u16> = Vec::with_capacity(ranks.len());
    let evens = ranks.len().div_ceil(2);
    let (mut prev, mut run) = (0u16, 0u32);
    for (t, i) in stream_order(ranks.len()).enumerate() {
        let half_start = if t < evens { 0 } else { evens };
        if t == half_start {
            (prev, run) = (0, 0);
        }
        let (up, up_left) = neighbours(&stream, t, half_start, row, prev);
        let sym = ranks[i].unwrap_or(prev);
        let class = run_class(run);
        let ctx = class * 8
            + usize::from(up == prev) * 4
            + usize::from(up_left == up) * 2
            + usize::from(other_steady(&stream, t, evens));
        enc.bit(&mut m.same[ctx], sym == prev);
        if sym != prev {
            let mut coded = false;
            if up != prev {
                coded = sym == up;
                enc.bit(&mut m.up[class * 2 + usize::from(up_left == prev)], coded);
            }
            if !coded {
                if let Some(plane) = plane_candidate(&stream, t, half_start, coding, prev, up) {
                    coded = sym == plane;
                    enc.bit(&mut m.plane[usize::from(class > 0)], coded);
                }
            }
            if !coded {
                let tree = coding.tree(prev) << m.depth;
                let mut node = 1usize;
                for level in (0..m.depth).rev() {
                    let b = (sym >> level) & 1 == 1;
                    enc.bit(&mut m.tree[tree + node], b);
                    node = node * 2 + usize::from(b);
                }
            }
            run = 0;
        } else {
            run = run.saturating_add(1);
        }
        stream.push(sym);
        prev = sym;
    }
    enc.finish()
}

/// Decodes a block of `len` entries into `out` (cleared first), each a
/// code looked up in `codes` by rank. `None` when the data does not end
/// where the coding does, or codes a rank outside `codes`.
pub(crate) fn decode(
    data: &[u8],
    len: usize,
    codes: &[u16],
    coding: Coding,
    out: &mut Vec<u16>,
) -> Option<()> {
    let row = coding.row;
    let mut dec = Decoder::new(data);
    let mut m = Model::new(codes.len(), coding);
    out.clear();
    out.resize(len, 0);
    let mut stream: Vec<u16> = Vec::with_capacity(len);
    let evens = len.div_ceil(2);
    let (mut prev, mut run) = (0u16, 0u32);
    for (t, i) in stream_order(len).enumerate() {
        let half_start = if t < evens { 0 } else { evens };
        if t == half_start {
            (prev, run) = (0, 0);
        }
        let (up, up_left) = neighbours(&stream, t, half_start, row, prev);
        let class = run_class(run);
        let ctx = class * 8
            + usize::from(up == prev) * 4
            + usize::from(up_left == up) * 2
            + usize::from(other_steady(&stream, t, evens));
        let sym = if dec.bit(&mut m.same[ctx]) {
            run = run.saturating_add(1);
            prev
        } else {
            run = 0;
            let plane = || plane_candidate(&stream, t, half_start, coding, prev, up);
            if up != prev && dec.bit(&mut m.up[class * 2 + usize::from(up_left == prev)]) {
                up
            } else if let Some(v) =
                plane().filter(|_| dec.bit(&mut m.plane[usize::from(class > 0)]))
            {
                v
            } else {
                let tree = coding.tree(prev) << m.depth;
                let mut node = 1usize;
                for _ in 0..m.depth {
                    node = node * 2 + usize::from(dec.bit(&mut m.tree[tree + node]));
                }
                (node - (1 << m.depth)) as u16
            }
        };
        out[i] = *codes.get(usize::from(sym))?;
        stream.push(sym);
        prev = sym;
    }
    dec.at_end().then_some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pseudo-random stream of ranks with runs, rows and don't-cares.
    fn sample(len: usize, symbols: u16, seed: u64) -> Vec<Option<u16>> {
        let mut x = seed;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut v = Vec::with_capacity(len);
        let mut cur = 0u16;
        for _ in 0..len {
            let r = next();
            if r % 7 == 0 {
                cur = (next() % u64::from(symbols)) as u16;
            }
            v.push(if r % 5 == 1 { None } else { Some(cur) });
        }
        v
    }

    /// Decoded values equal the values coded at every position, and the
    /// don't-care ones decode to some value of the table.
    #[test]
    fn blocks_round_trip() {
        let cases = [(1, 1, 1), (2, 3, 1), (4097, 17, 10), (8192, 300, 90)];
        for ((len, symbols, row), plane) in cases
            .into_iter()
            .flat_map(|c| [None, Some(c.2 * 7), Some(usize::MAX)].map(|p| (c, p)))
        {
            let coding = Coding { row, plane };
            let ranks = sample(len, symbols, len as u64 + 1);
            let codes: Vec<u16> = (0..symbols).map(|s| 1000 + s).collect();
            let data = encode(&ranks, codes.len(), coding);
            let mut out = Vec::new();
            decode(&data, len, &codes, coding, &mut out).unwrap();
            assert_eq!(out.len(), len);
            for (i, r) in ranks.iter().enumerate() {
                match r {
                    Some(r) => assert_eq!(out[i], codes[usize::from(*r)], "{len} {i}"),
                    None => assert!(codes.contains(&out[i])),
                }
            }
            // A cut block does not decode to its length's end.
            if data.len() > 1 {
                assert!(decode(&data[..data.len() - 1], len, &codes, coding, &mut out).is_none());
            }
        }
    }

    /// Long runs cost far less than a bit an entry; a block with one
    /// value, a few bytes.
    #[test]
    fn runs_are_cheap() {
        let ranks: Vec<Option<u16>> = (0..16384)
            .map(|i| {
                if i % 3 == 0 {
                    None
                } else {
                    Some((i / 4000) as u16)
                }
            })
            .collect();
        let coding = Coding {
            row: 10,
            plane: Some(70),
        };
        let data = encode(&ranks, 5, coding);
        assert!(data.len() < 100, "{} bytes", data.len());
        let flat = encode(&vec![Some(0); 16384], 1, coding);
        assert!(flat.len() <= 24, "{} bytes", flat.len());
    }

    /// Garbage and damaged blocks decode to an error or to some values of
    /// the table, never a panic, and take no longer than the block's
    /// length.
    #[test]
    fn damaged_blocks_never_panic() {
        let ranks = sample(3000, 40, 9);
        let codes: Vec<u16> = (0..40).map(|s| 2 + s).collect();
        let coding = Coding {
            row: 21,
            plane: Some(21 * 5),
        };
        let data = encode(&ranks, codes.len(), coding);
        let mut out = Vec::new();
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for k in 0..300 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mut d = data.clone();
            let at = (x as usize) % d.len();
            d[at] ^= (x >> 32) as u8 | 1;
            d.truncate(d.len() - k % 3);
            if decode(&d, ranks.len(), &codes, coding, &mut out).is_some() {
                assert!(out.iter().all(|c| codes.contains(c)));
            }
            let garbage: Vec<u8> = (0..k).map(|i| (x >> (i % 57)) as u8).collect();
            if decode(&garbage, 3000, &codes, coding, &mut out).is_some() {
                assert_eq!(out.len(), 3000);
            }
        }
    }

    /// A stream whose values repeat a plane back (each plane a copy of the
    /// one before with a few changes) costs less with the plane step, and
    /// decodes the same under either model.
    #[test]
    fn the_plane_step_pays_where_planes_repeat() {
        let (row, plane) = (7, 7 * 5);
        let first = sample(plane, 50, 3);
        let ranks: Vec<Option<u16>> = (0..16384)
            .map(|i| {
                if i % 97 == 5 {
                    Some(1)
                } else {
                    first[(i / 2) % plane]
                }
            })
            .collect();
        let codes: Vec<u16> = (0..50).collect();
        let v2 = Coding { row, plane: None };
        let v3 = Coding {
            row,
            plane: Some(plane),
        };
        let (old, new) = (encode(&ranks, 50, v2), encode(&ranks, 50, v3));
        assert!(
            new.len() * 10 < old.len() * 9,
            "{} against {}",
            new.len(),
            old.len()
        );
        let mut out = Vec::new();
        for (coding, data) in [(v2, &old), (v3, &new)] {
            decode(data, ranks.len(), &codes, coding, &mut out).unwrap();
            for (i, r) in ranks.iter().enumerate() {
                if let Some(r) = r {
                    assert_eq!(out[i], *r, "{i}");
                }
            }
        }
    }

    #[test]
    fn depth_of_the_rank_tree() {
        assert_eq!(
            [1, 2, 3, 4, 5, 256, 257].map(tree_depth),
            [0, 1, 2, 2, 3, 8, 9]
        );
    }
}
