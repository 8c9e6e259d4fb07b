//! The quantised network and its file format.
//!
//! # Architecture (format versions 3 and 4)
//!
//! `(1260 → HIDDEN) × 2 → SCReLU → 1`, with one output row per *output
//! bucket*: one feature transformer shared by both perspectives turns
//! the active features ([`super::features`]) into an accumulator of
//! [`HIDDEN`] values per side; the side to move's accumulator and then
//! the other side's, each value clipped to `0..=1` and squared (SCReLU),
//! are weighted into one output by the row of the position's bucket.
//!
//! The bucket is chosen by material: [`output_bucket`] of the number of
//! pieces other than the two kings (0 to 30), in equal steps. An opening
//! and a rook ending ask different questions of the same accumulator (what
//! a loose pawn or an exposed king is worth changes as pieces come off);
//! separate output rows let the network answer them separately at the
//! cost of one index. A network with one bucket is the architecture of
//! format version 2 exactly.
//!
//! A network may also have *king buckets* (format version 4,
//! [`KingBuckets`]): `(k × 1260 → HIDDEN) × 2`, one set of feature weights
//! per bucket of the perspective's own king's point, the board mirrored
//! for a king on file f. Only the feature transformer grows; the
//! accumulators, the output layer and the arithmetic below are the same.
//!
//! Integer arithmetic, with the float network of the trainer scaled by
//! [`QFT`] (feature transformer) and [`QB`] (output weights):
//!
//! ```text
//! acc[p][j] = ft_bias[j] + Σ_{f active for p} ft_weights[f][j]     (i16, scale QFT = 1020)
//! x_i       = clamp(concat(acc[stm], acc[other])_i, 0, QFT)
//! u_i       = ((x_i² >> 4) + 128) >> 8                            (0..=254: x_i² / 4096, rounded)
//! b         = output_bucket(pieces other than the kings, buckets)
//! out       = Σ_i u_i · out_weights[b][i] + out_bias[b]            (i32)
//! eval      = out · SCALE / OUTPUT_SCALE                           (centipawns, side to move)
//! ```
//!
//! `u` is the squared activation `clamp(a, 0, 1)²` at scale
//! `QFT² / 4096 ≈ 254`, rounded once; the output weights then have all
//! the precision of 16 bits (`QB` = 4096) and `OUTPUT_SCALE = QFT² · QB /
//! 4096 = 1,040,400`. With AVX2 that is a shift, an unsigned high
//! multiply, an add and a shift for 16 values, then `madd` with the
//! weights: every product and pair sum is exact, and the trainer's clips
//! (feature weights ±0.97, output weights ±1.98) keep the sum of 512 terms
//! below 2³¹ and every accumulator (33 rows: 32 pieces and the bias,
//! `33 · 0.97 · 1020 < 32767`) inside i16. The largest rounding error left
//! is `u`'s, ±0.5 of its 254 steps per unit: a mean
//! difference of about 2 centipawns from the float network, against about
//! 10 when the activation itself was rounded to 0..=255 and the weights to
//! 1/64 (format version 1).
//!
//! The float network it comes from computes `o = Σ clamp(a,0,1)² · w + b`
//! and predicts the side to move's winning chance as `sigmoid(o)`; the
//! engine's score is `SCALE · o`, so `SCALE = 400` matches the logistic
//! scale of the hand-written evaluation (`tools/README.md`, `tune`).
//!
//! # File format
//!
//! Little-endian throughout:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `SHUAINNU` |
//! | 4 | format version, 3 (or 2 or 4, see below) |
//! | 4 × 7 | inputs per king bucket (1260), hidden size, output buckets `n` (1 to 31), QFT, the squared activation's divisor (4096), QB, SCALE |
//! | 4 × 11 | version 4 only: king buckets `k` (1 to 9), mirrored (0 or 1), the bucket of each palace point (9 values, [`KingBuckets::map`]) |
//! | 8 | FNV-1a 64 hash of the parameter bytes that follow the description |
//! | 4 | description length (at most 4096) |
//! | … | description, UTF-8: architecture and how the network was made |
//! | 2 × k × 1260 × hidden | feature weights, i16, feature by feature (bucket by bucket; `k` = 1 before version 4) |
//! | 2 × hidden | feature biases, i16 |
//! | n × 2 × 2 × hidden | output weights, i16, bucket by bucket: the side to move's half first |
//! | n × 4 | output biases, i32, bucket by bucket |
//!
//! Version 2 is the same layout with exactly one bucket. A one-bucket
//! network is still written as version 2, so the files every earlier
//! build reads (the embedded network among them) keep their bytes and
//! hashes; a version-3 file with one bucket reads as the same network.
//! Likewise a network without king buckets ([`KingBuckets::NONE`]) is
//! written as version 2 or 3, and a version-4 file whose layout is
//! `NONE` reads as the same network as those.
//!
//! The header names the architecture, so a file made for another hidden
//! size or version is refused with a message that says so, and the hash
//! catches a damaged file.

use super::features::{active_features, active_features_with, KingBuckets, View, INPUTS};
use crate::fnv1a;
use shuai_board::Position;
use std::fmt;

/// Accumulator size per perspective.
pub const HIDDEN: usize = 256;
/// Scale of the feature transformer's weights and biases: an
/// accumulator value of `QFT` is an activation of 1.
pub const QFT: i32 = 1020;
/// The squared activation is `x² / SQUARE_DIVISOR` (rounded), `0..=254`.
pub const SQUARE_DIVISOR: i32 = 4096;
/// Scale of the output weights.
pub const QB: i32 = 4096;
/// Scale of the output sum and bias: `QFT² · QB / SQUARE_DIVISOR`.
pub const OUTPUT_SCALE: i64 = (QFT as i64) * (QFT as i64) * (QB as i64) / (SQUARE_DIVISOR as i64);
/// Centipawns per unit of the float network's output.
pub const SCALE: i32 = 400;
/// Version of the file format and architecture this build writes for a
/// network with more than one output bucket.
pub const FORMAT_VERSION: u32 = 3;
/// The earlier version this build still reads and writes for a
/// one-bucket network: [`FORMAT_VERSION`]'s layout with one bucket.
pub const FORMAT_VERSION_ONE_BUCKET: u32 = 2;
/// The version this build writes for a network with king buckets:
/// [`FORMAT_VERSION`]'s with the king-bucket layout in the header.
pub const FORMAT_VERSION_KING_BUCKETS: u32 = 4;
/// The first eight bytes of a network file.
pub const MAGIC: [u8; 8] = *b"SHUAINNU";
/// Most output buckets a network may have: one per possible number of
/// pieces other than the kings (0 to 30); more could never be used.
pub const MAX_OUTPUT_BUCKETS: usize = 31;

/// The header's architecture fields for `buckets` output buckets and
/// `hidden` accumulator values, in file order: inputs, hidden size,
/// output buckets, QFT, the squared activation's divisor, QB, SCALE.
const fn architecture_fields(buckets: usize, hidden: usize) -> [u32; 7] {
    [
        INPUTS as u32,
        hidden as u32,
        buckets as u32,
        QFT as u32,
        SQUARE_DIVISOR as u32,
        QB as u32,
        SCALE as u32,
    ]
}

/// Longest description accepted.
pub const MAX_DESCRIPTION: usize = 4096;

/// The output bucket of a position with `pieces` pieces besides the two
/// kings, for a network of `buckets` buckets: `pieces · buckets / 31`, so
/// the 31 possible counts (0 to 30) fall into `buckets` runs of equal
/// length (with 8 buckets, four counts each, the last three). The
/// trainer and the engine both call it, so they cannot disagree; a count
/// above 30 (no legal position has one) goes to the last bucket.
#[inline]
pub fn output_bucket(pieces: usize, buckets: usize) -> usize {
    (pieces * buckets / MAX_OUTPUT_BUCKETS).min(buckets.saturating_sub(1))
}

/// The number of pieces on `pos` besides the two kings (every `Position`
/// has both, so the occupied points less two).
pub(crate) fn pieces_besides_kings(pos: &Position) -> u8 {
    pos.occupied().count().saturating_sub(2).min(255) as u8
}

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkError(pub String);

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NetworkError {}

/// `HIDDEN` values aligned to a cache line: one feature's weights, the
/// biases, or half of the output weights, so that 256-bit loads of them
/// never straddle two lines.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(64))]
pub(crate) struct Row(pub(crate) [i16; HIDDEN]);

impl Row {
    fn from_slice(values: &[i16]) -> Row {
        let mut row = Row([0; HIDDEN]);
        row.0.copy_from_slice(values);
        row
    }
}

/// A network's integer parameters, laid out as
/// [`Network::from_parts_with_king_buckets`] takes them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkParts {
    /// How the own king's point picks the feature set.
    pub king: KingBuckets,
    /// The accumulator size (`hidden` below): [`HIDDEN`] for a network
    /// this build runs, any size in a file read by
    /// [`NetworkParts::from_bytes`].
    pub hidden: usize,
    /// `king.count() × INPUTS × hidden` feature weights at scale [`QFT`],
    /// bucket by bucket, feature by feature.
    pub ft_weights: Vec<i16>,
    /// `hidden` feature biases at scale [`QFT`].
    pub ft_bias: Vec<i16>,
    /// `2 · hidden` output weights per output bucket at scale [`QB`], the
    /// side to move's half first.
    pub out_weights: Vec<i16>,
    /// One output bias per output bucket at scale [`OUTPUT_SCALE`].
    pub out_bias: Vec<i32>,
}

impl NetworkParts {
    /// Reads a network file of any hidden size (1 to [`MAX_HIDDEN`]) with
    /// every other check [`Network::from_bytes`] makes: what a trainer
    /// starts a wider network from. Returns the parameters and the
    /// file's description.
    pub fn from_bytes(bytes: &[u8]) -> Result<(NetworkParts, String), NetworkError> {
        parse(bytes, None)
    }
}

/// A quantised network, ready to evaluate.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// How the own king's point picks the feature set.
    pub(crate) king: KingBuckets,
    /// `king.count() × INPUTS` rows, feature by feature.
    pub(crate) ft_weights: Vec<Row>,
    pub(crate) ft_bias: Row,
    /// One pair of rows per output bucket: the side to move's half, then
    /// the other's.
    pub(crate) out_weights: Vec<[Row; 2]>,
    /// One per output bucket.
    pub(crate) out_bias: Vec<i32>,
    /// [`output_bucket`] of every piece count, looked up: the search asks
    /// at every evaluation.
    bucket_by_pieces: [u8; 256],
    description: String,
    hash: u64,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network({:016x}, {:?})", self.hash, self.description)
    }
}

/// Bytes of the parameters of a network with `buckets` output buckets,
/// `king_buckets` king buckets and `hidden` accumulator values. (A
/// file's header may name any hidden size up to [`MAX_HIDDEN`]; the
/// product stays far inside `usize` for every one of them.)
const fn parameter_len(buckets: usize, king_buckets: usize, hidden: usize) -> usize {
    2 * (king_buckets * INPUTS + 1) * hidden + buckets * (2 * 2 * hidden + 4)
}

/// Largest hidden size [`NetworkParts::from_bytes`] accepts from a
/// file's header: far above any network worth running, low enough that
/// no header can make the expected file length overflow.
pub const MAX_HIDDEN: usize = 4096;

impl Network {
    /// A network without king buckets from its parameters (as a trainer
    /// quantises them) and a description of how it was made. The number
    /// of output biases is the number of output buckets (1 to
    /// [`MAX_OUTPUT_BUCKETS`]); the output weights are `2 · HIDDEN` per
    /// bucket, bucket by bucket.
    pub fn from_parts(
        ft_weights: Vec<i16>,
        ft_bias: Vec<i16>,
        out_weights: Vec<i16>,
        out_bias: Vec<i32>,
        description: &str,
    ) -> Result<Network, NetworkError> {
        Network::from_parts_with_king_buckets(
            KingBuckets::NONE,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
            description,
        )
    }

    /// [`Network::from_parts`] for a network whose features are chosen by
    /// `king`: `king.count() × INPUTS × HIDDEN` feature weights, bucket by
    /// bucket.
    pub fn from_parts_with_king_buckets(
        king: KingBuckets,
        ft_weights: Vec<i16>,
        ft_bias: Vec<i16>,
        out_weights: Vec<i16>,
        out_bias: Vec<i32>,
        description: &str,
    ) -> Result<Network, NetworkError> {
        let check = |what: &str, len: usize, want: usize| {
            if len == want {
                Ok(())
            } else {
                Err(NetworkError(format!(
                    "{what}: {len} values, expected {want}"
                )))
            }
        };
        let buckets = out_bias.len();
        if !(1..=MAX_OUTPUT_BUCKETS).contains(&buckets) {
            return Err(NetworkError(format!(
                "{buckets} output buckets, 1 to {MAX_OUTPUT_BUCKETS} allowed"
            )));
        }
        check("feature weights", ft_weights.len(), king.inputs() * HIDDEN)?;
        check("feature biases", ft_bias.len(), HIDDEN)?;
        check("output weights", out_weights.len(), buckets * 2 * HIDDEN)?;
        if description.len() > MAX_DESCRIPTION {
            return Err(NetworkError(format!(
                "description of {} bytes, at most {MAX_DESCRIPTION}",
                description.len()
            )));
        }
        let mut net = Network {
            king,
            ft_weights: ft_weights
                .chunks_exact(HIDDEN)
                .map(Row::from_slice)
                .collect(),
            ft_bias: Row::from_slice(&ft_bias),
            out_weights: out_weights
                .chunks_exact(2 * HIDDEN)
                .map(|w| [Row::from_slice(&w[..HIDDEN]), Row::from_slice(&w[HIDDEN..])])
                .collect(),
            bucket_by_pieces: std::array::from_fn(|n| output_bucket(n, buckets) as u8),
            out_bias,
            description: description.to_string(),
            hash: 0,
        };
        net.hash = fnv1a(net.parameter_bytes());
        Ok(net)
    }

    /// What the file says about the network: architecture, data, training.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The hash of the parameters, as stored in the file header.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The number of output buckets (1 to [`MAX_OUTPUT_BUCKETS`]).
    pub fn buckets(&self) -> usize {
        self.out_bias.len()
    }

    /// How the network's features depend on the own king's point
    /// ([`KingBuckets::NONE`] for a network without king buckets).
    pub fn king_buckets(&self) -> KingBuckets {
        self.king
    }

    /// How `perspective` reads the board when its own king stands on
    /// `own_king` ([`KingBuckets::view`] of the network's layout).
    #[inline]
    pub fn view(&self, perspective: shuai_board::Color, own_king: shuai_board::Square) -> View {
        self.king.view(perspective, own_king)
    }

    /// One line naming the network's architecture, e.g.
    /// `(1260->256)x2->SCReLU->1` or, with king buckets,
    /// `(6x1260->256)x2->SCReLU->1, 6 king buckets 0,1,0/2,3,2/4,5,4 mirrored`.
    pub fn architecture(&self) -> String {
        Network::architecture_with(&self.king, self.buckets())
    }

    /// The architecture line of a network with `buckets` output buckets:
    /// `(1260->256)x2->SCReLU->1` for one (as before buckets existed),
    /// `(1260->256)x2->SCReLU->1, 8 output buckets by material` for more.
    pub fn architecture_for(buckets: usize) -> String {
        Network::architecture_with(&KingBuckets::NONE, buckets)
    }

    /// The architecture line of a network with king buckets `king` and
    /// `buckets` output buckets: [`Network::architecture_for`] without
    /// king buckets; with them the input count reads `kx1260` and the
    /// layout is named (e.g. `(6x1260->256)x2->SCReLU->1, 6 king buckets
    /// 0,1,0/2,3,2/4,5,4 mirrored, 8 output buckets by material`).
    pub fn architecture_with(king: &KingBuckets, buckets: usize) -> String {
        let mut line = if king.is_none() {
            format!("({INPUTS}->{HIDDEN})x2->SCReLU->1")
        } else {
            format!(
                "({}x{INPUTS}->{HIDDEN})x2->SCReLU->1, {}",
                king.count(),
                king.name()
            )
        };
        if buckets != 1 {
            line += &format!(", {buckets} output buckets by material");
        }
        line
    }

    /// The output bucket `pos` is evaluated with: by its pieces other than
    /// the two kings.
    pub fn bucket_of(&self, pos: &Position) -> usize {
        self.bucket_for(pieces_besides_kings(pos))
    }

    /// The output bucket of a position with `pieces` pieces besides the
    /// kings ([`output_bucket`], from a table).
    #[inline]
    pub fn bucket_for(&self, pieces: u8) -> usize {
        usize::from(self.bucket_by_pieces[usize::from(pieces)])
    }

    /// The parameters as [`Network::from_parts_with_king_buckets`] takes
    /// them: what a trainer starts from when it continues from this
    /// network.
    pub fn parts(&self) -> NetworkParts {
        NetworkParts {
            king: self.king,
            hidden: HIDDEN,
            ft_weights: self.ft_weights.iter().flat_map(|r| r.0).collect(),
            ft_bias: self.ft_bias.0.to_vec(),
            out_weights: self
                .out_weights
                .iter()
                .flatten()
                .flat_map(|r| r.0)
                .collect(),
            out_bias: self.out_bias.clone(),
        }
    }

    fn parameter_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(parameter_len(self.buckets(), self.king.count(), HIDDEN));
        let rows = self
            .ft_weights
            .iter()
            .chain([&self.ft_bias])
            .chain(self.out_weights.iter().flatten());
        for v in rows.flat_map(|row| &row.0) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for b in &self.out_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out
    }

    /// The network as a file: version 4 with king buckets; without, version
    /// 2 for one output bucket (what earlier builds read), version 3 for
    /// more.
    pub fn to_bytes(&self) -> Vec<u8> {
        let version = if !self.king.is_none() {
            FORMAT_VERSION_KING_BUCKETS
        } else if self.buckets() == 1 {
            FORMAT_VERSION_ONE_BUCKET
        } else {
            FORMAT_VERSION
        };
        let mut out = Vec::new();
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&version.to_le_bytes());
        for v in architecture_fields(self.buckets(), HIDDEN) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        if version == FORMAT_VERSION_KING_BUCKETS {
            out.extend_from_slice(&(self.king.count() as u32).to_le_bytes());
            out.extend_from_slice(&u32::from(self.king.mirrored()).to_le_bytes());
            for b in self.king.map() {
                out.extend_from_slice(&u32::from(b).to_le_bytes());
            }
        }
        out.extend_from_slice(&self.hash.to_le_bytes());
        out.extend_from_slice(&(self.description.len() as u32).to_le_bytes());
        out.extend_from_slice(self.description.as_bytes());
        out.extend_from_slice(&self.parameter_bytes());
        out
    }

    /// Reads a network file (version 2, 3 or 4); a file for another
    /// architecture (a hidden size other than [`HIDDEN`] among them), a
    /// damaged or truncated file is refused with a message that says why.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let (p, description) = parse(bytes, Some(HIDDEN))?;
        Network::from_parts_with_king_buckets(
            p.king,
            p.ft_weights,
            p.ft_bias,
            p.out_weights,
            p.out_bias,
            &description,
        )
    }

    /// The accumulator of `pos` from `perspective`, computed from scratch.
    pub fn refresh(&self, pos: &Position, perspective: shuai_board::Color) -> [i16; HIDDEN] {
        let mut acc = self.ft_bias.0;
        let mut add = |f: usize| {
            for (a, w) in acc.iter_mut().zip(&self.ft_weights[f].0) {
                *a = a.wrapping_add(*w);
            }
        };
        if self.king.is_none() {
            active_features(pos, perspective).for_each(&mut add);
        } else {
            active_features_with(pos, perspective, &self.king).for_each(&mut add);
        }
        acc
    }

    /// The output for the two accumulators, side to move's first, with
    /// output bucket `bucket`, in centipawns from the side to move's point
    /// of view.
    ///
    /// # Panics
    /// Panics if `bucket` is not below [`Network::buckets`].
    pub fn output(&self, us: &[i16; HIDDEN], them: &[i16; HIDDEN], bucket: usize) -> i32 {
        let mut sum: i32 = 0;
        let [w_us, w_them] = &self.out_weights[bucket];
        for (x, w) in us.iter().chain(them).zip(w_us.0.iter().chain(&w_them.0)) {
            // Wrapping, as the fast path's lanes do; the trainer's clips
            // keep a real network's sum far inside i32.
            sum = sum.wrapping_add(squared_activation(*x) * i32::from(*w));
        }
        self.scale_output(sum, bucket)
    }

    /// The last step of [`Network::output`], shared with the fast path:
    /// `Σ v² · w` plus `bucket`'s bias, to centipawns.
    #[inline]
    pub(crate) fn scale_output(&self, sum: i32, bucket: usize) -> i32 {
        // In i64: a file's output bias is any i32, and `out · SCALE`
        // overflows i32 beyond ~131,000 cp; the search clamps far below.
        let out = i64::from(sum) + i64::from(self.out_bias[bucket]);
        (out * i64::from(SCALE) / OUTPUT_SCALE).clamp(-1_000_000, 1_000_000) as i32
    }

    /// The network's evaluation of `pos` in centipawns from the side to
    /// move's point of view, computed from scratch (the reference the
    /// incremental path is tested against).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let stm = pos.side_to_move();
        let us = self.refresh(pos, stm);
        let them = self.refresh(pos, stm.opponent());
        self.output(&us, &them, self.bucket_of(pos))
    }
}

/// Reads a network file's parameters and description: version 2, 3 or
/// 4, with the hidden size `hidden` if given, else any size from 1 to
/// [`MAX_HIDDEN`]. Every check of [`Network::from_bytes`] but the hidden
/// size is made either way (magic, header, length, hash).
fn parse(bytes: &[u8], hidden: Option<usize>) -> Result<(NetworkParts, String), NetworkError> {
    let mut r = Reader { bytes, at: 0 };
    if r.take(8)? != MAGIC {
        return Err(NetworkError(
            "not a Shuai network file (no SHUAINNU magic)".into(),
        ));
    }
    let version = r.u32()?;
    if ![
        FORMAT_VERSION_ONE_BUCKET,
        FORMAT_VERSION,
        FORMAT_VERSION_KING_BUCKETS,
    ]
    .contains(&version)
    {
        return Err(NetworkError(format!(
            "network format version {version}; this build reads versions \
             {FORMAT_VERSION_ONE_BUCKET}, {FORMAT_VERSION} and \
             {FORMAT_VERSION_KING_BUCKETS}"
        )));
    }
    let mut header = [0u32; 7];
    for h in header.iter_mut() {
        *h = r.u32()?;
    }
    let buckets = header[2] as usize;
    let file_hidden = header[1] as usize;
    let hidden_ok = match hidden {
        Some(want) => file_hidden == want,
        None => (1..=MAX_HIDDEN).contains(&file_hidden),
    };
    let buckets_allowed = if version == FORMAT_VERSION_ONE_BUCKET {
        1..=1
    } else {
        1..=MAX_OUTPUT_BUCKETS
    };
    if header != architecture_fields(buckets, file_hidden)
        || !hidden_ok
        || !buckets_allowed.contains(&buckets)
    {
        return Err(NetworkError(format!(
            "version-{version} network for inputs {}, hidden {}, buckets {}, QFT {}, \
             square divisor {}, QB {}, scale {}; this build runs {} with 1 to \
             {MAX_OUTPUT_BUCKETS} output buckets (version 2: 1){}",
            header[0],
            header[1],
            header[2],
            header[3],
            header[4],
            header[5],
            header[6],
            Network::architecture_for(1),
            if hidden.is_none() {
                format!(" and reads hidden sizes 1 to {MAX_HIDDEN}")
            } else {
                String::new()
            }
        )));
    }
    let king = if version == FORMAT_VERSION_KING_BUCKETS {
        let count = r.u32()?;
        let mirror = r.u32()?;
        let mut map = [0u8; super::features::PALACE_POINTS];
        for m in map.iter_mut() {
            // An entry too large for a byte is refused below as one
            // too large for a bucket.
            *m = u8::try_from(r.u32()?).unwrap_or(u8::MAX);
        }
        let layout = if mirror > 1 {
            Err(format!("mirror flag {mirror}, 0 or 1 allowed"))
        } else {
            KingBuckets::new(map, mirror == 1)
        };
        match layout {
            Ok(k) if k.count() as u32 == count => k,
            Ok(k) => {
                return Err(NetworkError(format!(
                    "the header counts {count} king buckets, its table {}",
                    k.count()
                )))
            }
            Err(e) => return Err(NetworkError(format!("king buckets: {e}"))),
        }
    } else {
        KingBuckets::NONE
    };
    let hash = r.u64()?;
    let len = r.u32()? as usize;
    if len > MAX_DESCRIPTION {
        return Err(NetworkError(format!(
            "description of {len} bytes, at most {MAX_DESCRIPTION}"
        )));
    }
    let description = std::str::from_utf8(r.take(len)?)
        .map_err(|_| NetworkError("description is not UTF-8".into()))?
        .to_string();
    let params = &bytes[r.at..];
    let want_len = parameter_len(buckets, king.count(), file_hidden);
    if params.len() != want_len {
        return Err(NetworkError(format!(
            "{} parameter bytes, expected {want_len} (truncated or padded file)",
            params.len()
        )));
    }
    if fnv1a(params.iter().copied()) != hash {
        return Err(NetworkError(format!(
            "parameter hash {:016x} does not match the header's {hash:016x} (damaged file)",
            fnv1a(params.iter().copied())
        )));
    }
    let (weights, biases) = params.split_at(params.len() - 4 * buckets);
    let mut i16s = weights
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]));
    let ft_weights: Vec<i16> = i16s.by_ref().take(king.inputs() * file_hidden).collect();
    let ft_bias: Vec<i16> = i16s.by_ref().take(file_hidden).collect();
    let out_weights: Vec<i16> = i16s.collect();
    let out_bias = biases
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let parts = NetworkParts {
        king,
        hidden: file_hidden,
        ft_weights,
        ft_bias,
        out_weights,
        out_bias,
    };
    Ok((parts, description))
}

/// The squared activation of an accumulator value, `clamp(x, 0, QFT)² /
/// 4096` rounded: `0..=254`.
#[inline(always)]
pub fn squared_activation(x: i16) -> i32 {
    let x = i32::from(x).clamp(0, QFT);
    (((x * x) >> 4) + 128) >> 8
}

/// A cursor over the file's bytes that reports truncation.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], NetworkError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| {
            NetworkError(format!(
                "file ends inside the header ({} bytes)",
                self.bytes.len()
            ))
        })?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u32(&mut self) -> Result<u32, NetworkError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u64(&mut self) -> Result<u64, NetworkError> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::test_support::{random_bucketed_network, random_king_network, random_network};

    /// The format version a file's header names.
    fn version(bytes: &[u8]) -> u32 {
        u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]])
    }

    #[test]
    fn file_round_trip() {
        let header = 8 + 32 + 8 + 4 + "random test network".len();
        let net = random_network(7);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), header + 2 * (INPUTS + 3) * HIDDEN + 4);
        assert_eq!(version(&bytes), 2, "one bucket: version 2, as before");
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back, net);
        assert_eq!(back.description(), "random test network");
        assert_eq!(back.buckets(), 1);
    }

    #[test]
    fn multi_bucket_file_round_trip() {
        let net = random_bucketed_network(7, 8);
        let bytes = net.to_bytes();
        let header = 8 + 32 + 8 + 4 + "random test network".len();
        assert_eq!(
            bytes.len(),
            header + 2 * (INPUTS + 1) * HIDDEN + 8 * (2 * 2 * HIDDEN + 4)
        );
        assert_eq!(version(&bytes), 3);
        assert_eq!(bytes[20..24], 8u32.to_le_bytes(), "the bucket count");
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back, net);
        assert_eq!(back.buckets(), 8);
        assert_eq!(back.hash(), net.hash());
        assert_eq!(
            back.architecture(),
            "(1260->256)x2->SCReLU->1, 8 output buckets by material"
        );
        // The same feature transformer as the one-bucket network of the
        // same seed, different output layers.
        let one = random_network(7);
        assert!(one.ft_weights == net.ft_weights && one.ft_bias == net.ft_bias);
        assert_ne!(one.hash(), net.hash());
        for pos in [
            Position::startpos(),
            Position::from_fen("3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 w - - 0 1").unwrap(),
        ] {
            assert_eq!(back.evaluate(&pos), net.evaluate(&pos));
        }
    }

    #[test]
    fn version_2_and_version_3_one_bucket_files_are_the_same_network() {
        // Version 3 with one bucket is version 2's layout: the same bytes
        // but for the version. Both read as the same network and give the
        // same evaluations; written again, it is version 2.
        let v2 = random_network(13).to_bytes();
        let mut v3 = v2.clone();
        v3[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        let (a, b) = (
            Network::from_bytes(&v2).unwrap(),
            Network::from_bytes(&v3).unwrap(),
        );
        assert_eq!(a, b);
        assert_eq!(b.to_bytes(), v2);
        let mut pos = Position::startpos();
        for m in ["h2h9", "i9h9", "b2b9", "a9b9", "h0g2"] {
            assert_eq!(a.evaluate(&pos), b.evaluate(&pos), "{}", pos.to_fen());
            pos.make_move(pos.parse_move(m).unwrap());
        }
        assert_eq!(a.evaluate(&pos), b.evaluate(&pos));
    }

    #[test]
    fn king_bucket_file_round_trip() {
        let net = random_king_network(7, KingBuckets::MIRRORED_6, 8);
        let bytes = net.to_bytes();
        let header = 8 + 32 + 44 + 8 + 4 + "random test network".len();
        assert_eq!(
            bytes.len(),
            header + 2 * (6 * INPUTS + 1) * HIDDEN + 8 * (2 * 2 * HIDDEN + 4)
        );
        assert_eq!(version(&bytes), 4);
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap());
        // After the seven architecture fields: 6 buckets, mirrored, the map.
        assert_eq!(u32_at(12), 1260, "inputs per king bucket");
        assert_eq!((u32_at(40), u32_at(44)), (6, 1));
        let map: Vec<u32> = (0..9).map(|i| u32_at(48 + 4 * i)).collect();
        assert_eq!(map, [0, 1, 0, 2, 3, 2, 4, 5, 4]);
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back, net);
        assert_eq!(back.king_buckets(), KingBuckets::MIRRORED_6);
        assert_eq!(back.hash(), net.hash());
        assert_eq!(
            back.architecture(),
            "(6x1260->256)x2->SCReLU->1, 6 king buckets 0,1,0/2,3,2/4,5,4 mirrored, \
             8 output buckets by material"
        );
        assert_eq!(
            random_king_network(1, KingBuckets::POINTS_9, 1).architecture(),
            "(9x1260->256)x2->SCReLU->1, 9 king buckets 0,1,2/3,4,5/6,7,8"
        );
        let pos = Position::from_fen("3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 w - - 0 1").unwrap();
        assert_eq!(back.evaluate(&pos), net.evaluate(&pos));
        // The same parameters without king buckets would be another
        // network: the header's layout is part of the hash's context.
        let none = random_king_network(7, KingBuckets::NONE, 8);
        assert_ne!(none.evaluate(&pos), net.evaluate(&pos));
    }

    #[test]
    fn parts_rebuild_the_network() {
        for net in [
            random_network(5),
            random_bucketed_network(5, 8),
            random_king_network(5, KingBuckets::MIRRORED_6, 2),
        ] {
            let p = net.parts();
            assert_eq!(p.ft_weights.len(), net.king.count() * INPUTS * HIDDEN);
            assert_eq!(p.out_weights.len(), net.buckets() * 2 * HIDDEN);
            let back = Network::from_parts_with_king_buckets(
                p.king,
                p.ft_weights,
                p.ft_bias,
                p.out_weights,
                p.out_bias,
                net.description(),
            )
            .unwrap();
            assert_eq!(back, net);
            assert_eq!(back.to_bytes(), net.to_bytes());
        }
    }

    #[test]
    fn a_version_4_file_without_king_buckets_is_the_version_3_network() {
        // Version 4 with the layout NONE is version 3 plus 44 header bytes:
        // it reads as the same network, written again as version 3 (or 2).
        for buckets in [1, 8] {
            let net = random_bucketed_network(17, buckets);
            let old = net.to_bytes();
            let mut v4 = old[..40].to_vec();
            v4[8..12].copy_from_slice(&FORMAT_VERSION_KING_BUCKETS.to_le_bytes());
            for v in [1u32, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] {
                v4.extend_from_slice(&v.to_le_bytes());
            }
            v4.extend_from_slice(&old[40..]);
            let back = Network::from_bytes(&v4).unwrap();
            assert_eq!(back, net);
            assert_eq!(back.to_bytes(), old);
        }
    }

    #[test]
    fn damaged_king_bucket_headers_are_refused_with_reasons() {
        let bytes = random_king_network(3, KingBuckets::MIRRORED_6, 1).to_bytes();
        let err = |b: &[u8]| Network::from_bytes(b).unwrap_err().0;
        let with = |at: usize, v: u32| {
            let mut b = bytes.clone();
            b[at..at + 4].copy_from_slice(&v.to_le_bytes());
            b
        };
        assert!(err(&with(40, 5)).contains("counts 5 king buckets, its table 6"));
        assert!(err(&with(44, 2)).contains("mirror flag 2"));
        // File f of rank 0 (entry 2) must be d's bucket when mirrored.
        assert!(err(&with(48 + 8, 1)).contains("file f of rank 0"));
        assert!(err(&with(48, 300)).contains("king bucket 255"));
        // Unmirrored, the same table is valid but the file then holds
        // weights for 6 buckets under another layout: the header is
        // consistent, so it reads, as a different network.
        let unmirrored = Network::from_bytes(&with(44, 0)).unwrap();
        assert!(!unmirrored.king_buckets().mirrored());
        assert!(err(&bytes[..bytes.len() - 2]).contains("truncated"));
        assert!(err(&bytes[..60]).contains("ends inside the header"));
    }

    #[test]
    fn buckets_split_the_piece_counts_evenly() {
        let eight: Vec<usize> = (0..=30).map(|n| output_bucket(n, 8)).collect();
        let want: Vec<usize> = (0..=30).map(|n| (n / 4).min(7)).collect();
        assert_eq!(eight, want, "with 8 buckets, four counts each");
        assert!((0..=40).all(|n| output_bucket(n, 1) == 0));
        assert!((0..=30).all(|n| output_bucket(n, 31) == n));
        assert_eq!(output_bucket(32, 8), 7, "an impossible count: the last");
        assert_eq!(output_bucket(30, 2), 1);
        assert_eq!(output_bucket(15, 2), 0);
        assert_eq!(output_bucket(16, 2), 1);
        // The network's table agrees for every count an accumulator holds.
        let net = random_bucketed_network(1, 8);
        assert!((0..=255u8).all(|n| net.bucket_for(n) == output_bucket(n.into(), 8)));
    }

    #[test]
    fn each_bucket_uses_its_own_output_row() {
        // Zero feature weights, so every position has the same
        // accumulators (the biases); bucket b's bias is worth 100·b cp,
        // and bucket 3 alone also weights the other side's first unit
        // (activation 0.5, u = 64) by 1.0.
        let mut ft_bias = vec![0i16; HIDDEN];
        ft_bias[0] = 510;
        let mut out_weights = vec![0i16; 8 * 2 * HIDDEN];
        out_weights[3 * 2 * HIDDEN + HIDDEN] = 4096;
        let out_bias = (0..8).map(|b| (b * OUTPUT_SCALE / 4) as i32).collect();
        let net = Network::from_parts(
            vec![0; INPUTS * HIDDEN],
            ft_bias,
            out_weights,
            out_bias,
            "buckets",
        )
        .unwrap();
        let back = Network::from_bytes(&net.to_bytes()).unwrap();
        let cases = [
            // Kings alone: 0 pieces, bucket 0.
            ("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", 0, 0, 0),
            // Four advisors: bucket 1.
            ("3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 b - - 0 1", 4, 1, 100),
            // 13 pieces: bucket 3, 300 cp and 64 · 4096 · 400 / 1040400.
            (
                "rnbakabnr/9/1c5c1/p1p1p4/9/9/9/9/9/4K4 w - - 0 1",
                13,
                3,
                400,
            ),
            // 30 pieces: bucket 7.
            (shuai_board::START_FEN, 30, 7, 700),
        ];
        for (fen, pieces, bucket, cp) in cases {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(net.bucket_of(&pos), bucket, "{fen}");
            assert_eq!(net.evaluate(&pos), cp, "{fen}");
            assert_eq!(back.evaluate(&pos), cp, "{fen}");
            let acc = crate::nnue::Accumulator::new(&net, &pos);
            assert_eq!(acc.pieces(), pieces, "{fen}");
            let stm = pos.side_to_move();
            assert_eq!(crate::nnue::evaluate(&net, &acc, stm), cp, "{fen}");
        }
    }

    /// A version-3 file of `hidden` accumulator values and one output
    /// bucket, its parameters counting up from `first`, written by hand
    /// (this build's writer only writes [`HIDDEN`]).
    fn file_of_hidden(hidden: usize, first: i16) -> Vec<u8> {
        let mut params = Vec::new();
        let values = (INPUTS + 1) * hidden + 2 * hidden;
        for i in 0..values {
            params.extend_from_slice(&first.wrapping_add(i as i16).to_le_bytes());
        }
        params.extend_from_slice(&7i32.to_le_bytes());
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        for v in architecture_fields(1, hidden) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&fnv1a(params.iter().copied()).to_le_bytes());
        out.extend_from_slice(&4u32.to_le_bytes());
        out.extend_from_slice(b"half");
        out.extend_from_slice(&params);
        out
    }

    #[test]
    fn parts_of_any_hidden_size_are_read_and_a_network_only_of_its_own() {
        let half = file_of_hidden(HIDDEN / 2, 5);
        let (p, description) = NetworkParts::from_bytes(&half).unwrap();
        assert_eq!(description, "half");
        assert_eq!(p.hidden, HIDDEN / 2);
        assert_eq!(p.king, KingBuckets::NONE);
        assert_eq!(p.ft_weights.len(), INPUTS * HIDDEN / 2);
        assert_eq!(p.ft_weights[..3], [5, 6, 7]);
        assert_eq!(
            p.ft_bias[0],
            5i16.wrapping_add((INPUTS * HIDDEN / 2) as i16)
        );
        assert_eq!(p.out_weights.len(), HIDDEN);
        assert_eq!(p.out_bias, [7]);
        let err = Network::from_bytes(&half).unwrap_err().0;
        assert!(err.contains(&format!("hidden {}", HIDDEN / 2)), "{err}");
        // This build's own size reads both ways, as the same parameters.
        let net = random_king_network(4, KingBuckets::MIRRORED_6, 3);
        let (p, description) = NetworkParts::from_bytes(&net.to_bytes()).unwrap();
        assert_eq!((p, description.as_str()), (net.parts(), net.description()));
        // Damage is refused as by Network::from_bytes; so is a size of 0 or
        // above MAX_HIDDEN, before any parameter is read.
        let mut flipped = half.clone();
        let last = flipped.len() - 9;
        flipped[last] ^= 1;
        let err = NetworkParts::from_bytes(&flipped).unwrap_err().0;
        assert!(err.contains("damaged"), "{err}");
        for hidden in [0, MAX_HIDDEN as u32 + 1, u32::MAX] {
            let mut bad = half.clone();
            bad[16..20].copy_from_slice(&hidden.to_le_bytes());
            let err = NetworkParts::from_bytes(&bad).unwrap_err().0;
            assert!(err.contains(&format!("hidden {hidden}")), "{err}");
            assert!(err.contains("reads hidden sizes 1 to 4096"), "{err}");
        }
    }

    #[test]
    fn damaged_files_are_refused_with_reasons() {
        let bytes = random_network(3).to_bytes();
        let err = |b: &[u8]| Network::from_bytes(b).unwrap_err().0;
        assert!(err(&bytes[..20]).contains("ends inside the header"));
        assert!(err(b"hello world, not a net").contains("magic"));
        let mut flipped = bytes.clone();
        let last = flipped.len() - 100;
        flipped[last] ^= 1;
        assert!(err(&flipped).contains("damaged"));
        assert!(err(&bytes[..bytes.len() - 2]).contains("truncated"));
        let mut wide = bytes.clone();
        wide[16..20].copy_from_slice(&512u32.to_le_bytes());
        assert!(err(&wide).contains("hidden 512"), "{}", err(&wide));
        let mut v5 = bytes.clone();
        v5[8] = 5;
        assert!(err(&v5).contains("version 5"), "{}", err(&v5));
        // Version 2 holds one bucket; version 3 from 1 to 31.
        let mut v2_eight = bytes.clone();
        v2_eight[20..24].copy_from_slice(&8u32.to_le_bytes());
        assert!(err(&v2_eight).contains("version-2 network"));
        assert!(err(&v2_eight).contains("buckets 8"));
        for buckets in [0u32, 32] {
            let mut v3 = bytes.clone();
            v3[8] = 3;
            v3[20..24].copy_from_slice(&buckets.to_le_bytes());
            assert!(err(&v3).contains(&format!("buckets {buckets}")));
        }
        // A multi-bucket file cut short is truncated, not misread.
        let eight = random_bucketed_network(3, 8).to_bytes();
        assert!(err(&eight[..eight.len() - 4]).contains("truncated"));
    }

    #[test]
    fn start_position_is_the_same_for_both_sides() {
        // The start position is symmetric, so with Red or Black to move
        // the network sees the same accumulators.
        let net = random_network(11);
        let red = Position::startpos();
        let black = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
        )
        .unwrap();
        assert_eq!(net.evaluate(&red), net.evaluate(&black));
        assert_eq!(
            net.refresh(&red, shuai_board::Color::Red),
            net.refresh(&red, shuai_board::Color::Black)
        );
    }

    #[test]
    fn a_huge_output_bias_saturates_instead_of_overflowing() {
        let net = random_network(5);
        let mut parts = net.clone();
        parts.out_bias = vec![i32::MAX];
        assert_eq!(parts.scale_output(i32::MAX, 0), 1_000_000);
        parts.out_bias = vec![i32::MIN];
        assert_eq!(parts.scale_output(i32::MIN, 0), -1_000_000);
    }

    #[test]
    fn squared_activations_round_to_the_nearest_step_and_clip() {
        // x² / 4096, rounded: 0.5 steps fall at x = 45.25, 78.4, ...
        let cases = [
            (-5, 0),
            (0, 0),
            (45, 0),
            (46, 1),
            (64, 1),
            (510, 64),
            (1000, 244),
            (1019, 254),
            (1020, 254),
            (9000, 254),
        ];
        for (x, u) in cases {
            assert_eq!(squared_activation(x), u, "squared_activation({x})");
        }
    }

    #[test]
    fn output_matches_the_formula_on_a_hand_made_case() {
        let ft_weights = vec![0i16; INPUTS * HIDDEN];
        let mut ft_bias = vec![0i16; HIDDEN];
        ft_bias[0] = 510; // activation 0.5: u = 64 on both sides
        ft_bias[1] = 1300; // clipped to 1: u = 254
        let mut out_weights = vec![0i16; 2 * HIDDEN];
        out_weights[0] = 4096; // 1.0 for the side to move
        out_weights[1] = -2048; // -0.5
        out_weights[HIDDEN] = 2048; // 0.5 for the other side
        let net = Network::from_parts(ft_weights, ft_bias, out_weights, vec![0], "hand").unwrap();
        let pos = Position::startpos();
        // sum = 64·4096 − 254·2048 + 64·2048 = −126976;
        // eval = −126976·400 / 1040400 = −48.8, truncated to −48 (the
        // float network: 0.25 − 0.5 + 0.125 = −0.125, −50 cp; u = 64
        // stands for 63.5).
        assert_eq!(net.evaluate(&pos), -48);
    }
}
