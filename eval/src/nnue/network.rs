//! The quantised network and its file format.
//!
//! # Architecture (format version 2)
//!
//! `(1260 → HIDDEN) × 2 → SCReLU → 1`: one feature transformer shared by
//! both perspectives turns the active features ([`super::features`]) into
//! an accumulator of [`HIDDEN`] values per side; the side to move's
//! accumulator and then the other side's, each value clipped to `0..=1`
//! and squared (SCReLU), are weighted into one output.
//!
//! Integer arithmetic, with the float network of the trainer scaled by
//! [`QFT`] (feature transformer) and [`QB`] (output weights):
//!
//! ```text
//! acc[p][j] = ft_bias[j] + Σ_{f active for p} ft_weights[f][j]     (i16, scale QFT = 1020)
//! x_i       = clamp(concat(acc[stm], acc[other])_i, 0, QFT)
//! u_i       = ((x_i² >> 4) + 128) >> 8                            (0..=254: x_i² / 4096, rounded)
//! out       = Σ_i u_i · out_weights[i] + out_bias                  (i32)
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
//! | 4 | format version, 2 |
//! | 4 × 7 | inputs (1260), hidden size, output buckets (1), QFT, the squared activation's divisor (4096), QB, SCALE |
//! | 8 | FNV-1a 64 hash of the parameter bytes that follow the description |
//! | 4 | description length `n` (at most 4096) |
//! | n | description, UTF-8: architecture and how the network was made |
//! | 2 × 1260 × hidden | feature weights, i16, feature by feature |
//! | 2 × hidden | feature biases, i16 |
//! | 2 × 2 × hidden | output weights, i16: the side to move's half first |
//! | 4 | output bias, i32 |
//!
//! The header names the architecture, so a file made for another hidden
//! size or version is refused with a message that says so, and the hash
//! catches a damaged file.

use super::features::{active_features, INPUTS};
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
/// Version of the file format and architecture this build reads.
pub const FORMAT_VERSION: u32 = 2;
/// The first eight bytes of a network file.
pub const MAGIC: [u8; 8] = *b"SHUAINNU";
/// The header's architecture fields, in file order: inputs, hidden size,
/// output buckets, QFT, the squared activation's divisor, QB, SCALE.
const ARCHITECTURE: [u32; 7] = [
    INPUTS as u32,
    HIDDEN as u32,
    1,
    QFT as u32,
    SQUARE_DIVISOR as u32,
    QB as u32,
    SCALE as u32,
];

/// Longest description accepted.
pub const MAX_DESCRIPTION: usize = 4096;

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

/// A quantised network, ready to evaluate.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// `INPUTS` rows, feature by feature.
    pub(crate) ft_weights: Vec<Row>,
    pub(crate) ft_bias: Row,
    /// The side to move's half, then the other's.
    pub(crate) out_weights: [Row; 2],
    pub(crate) out_bias: i32,
    description: String,
    hash: u64,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network({:016x}, {:?})", self.hash, self.description)
    }
}

/// FNV-1a, 64 bits.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

impl Network {
    /// A network from its parameters (as a trainer quantises them) and a
    /// description of how it was made.
    pub fn from_parts(
        ft_weights: Vec<i16>,
        ft_bias: Vec<i16>,
        out_weights: Vec<i16>,
        out_bias: i32,
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
        check("feature weights", ft_weights.len(), INPUTS * HIDDEN)?;
        check("feature biases", ft_bias.len(), HIDDEN)?;
        check("output weights", out_weights.len(), 2 * HIDDEN)?;
        if description.len() > MAX_DESCRIPTION {
            return Err(NetworkError(format!(
                "description of {} bytes, at most {MAX_DESCRIPTION}",
                description.len()
            )));
        }
        let mut net = Network {
            ft_weights: ft_weights
                .chunks_exact(HIDDEN)
                .map(Row::from_slice)
                .collect(),
            ft_bias: Row::from_slice(&ft_bias),
            out_weights: [
                Row::from_slice(&out_weights[..HIDDEN]),
                Row::from_slice(&out_weights[HIDDEN..]),
            ],
            out_bias,
            description: description.to_string(),
            hash: 0,
        };
        net.hash = fnv1a(&net.parameter_bytes());
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

    /// One line naming the architecture, e.g. `(1260->256)x2->SCReLU->1`.
    pub fn architecture() -> String {
        format!("({INPUTS}->{HIDDEN})x2->SCReLU->1")
    }

    fn parameter_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(2 * (INPUTS + 3) * HIDDEN + 4);
        let rows = self
            .ft_weights
            .iter()
            .chain([&self.ft_bias])
            .chain(&self.out_weights);
        for v in rows.flat_map(|row| &row.0) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.out_bias.to_le_bytes());
        out
    }

    /// The network as a file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        for v in ARCHITECTURE {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.hash.to_le_bytes());
        out.extend_from_slice(&(self.description.len() as u32).to_le_bytes());
        out.extend_from_slice(self.description.as_bytes());
        out.extend_from_slice(&self.parameter_bytes());
        out
    }

    /// Reads a network file; a file for another architecture, a damaged
    /// or truncated file is refused with a message that says why.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(8)? != MAGIC {
            return Err(NetworkError(
                "not a Shuai network file (no SHUAINNU magic)".into(),
            ));
        }
        let version = r.u32()?;
        if version != FORMAT_VERSION {
            return Err(NetworkError(format!(
                "network format version {version}; this build reads version {FORMAT_VERSION}"
            )));
        }
        let mut header = [0u32; 7];
        for h in header.iter_mut() {
            *h = r.u32()?;
        }
        if header != ARCHITECTURE {
            return Err(NetworkError(format!(
                "network for inputs {}, hidden {}, buckets {}, QFT {}, square divisor {}, QB {}, scale {}; \
                 this build runs {}",
                header[0],
                header[1],
                header[2],
                header[3],
                header[4],
                header[5],
                header[6],
                Network::architecture()
            )));
        }
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
        let want_len = 2 * (INPUTS + 3) * HIDDEN + 4;
        if params.len() != want_len {
            return Err(NetworkError(format!(
                "{} parameter bytes, expected {want_len} (truncated or padded file)",
                params.len()
            )));
        }
        if fnv1a(params) != hash {
            return Err(NetworkError(format!(
                "parameter hash {:016x} does not match the header's {hash:016x} (damaged file)",
                fnv1a(params)
            )));
        }
        let mut i16s = params[..params.len() - 4]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let ft_weights: Vec<i16> = i16s.by_ref().take(INPUTS * HIDDEN).collect();
        let ft_bias: Vec<i16> = i16s.by_ref().take(HIDDEN).collect();
        let out_weights: Vec<i16> = i16s.collect();
        let tail = &params[params.len() - 4..];
        let out_bias = i32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
        Network::from_parts(ft_weights, ft_bias, out_weights, out_bias, &description)
    }

    /// The accumulator of `pos` from `perspective`, computed from scratch.
    pub fn refresh(&self, pos: &Position, perspective: shuai_board::Color) -> [i16; HIDDEN] {
        let mut acc = self.ft_bias.0;
        for f in active_features(pos, perspective) {
            for (a, w) in acc.iter_mut().zip(&self.ft_weights[f].0) {
                *a = a.wrapping_add(*w);
            }
        }
        acc
    }

    /// The output for the two accumulators, side to move's first, in
    /// centipawns from the side to move's point of view.
    pub fn output(&self, us: &[i16; HIDDEN], them: &[i16; HIDDEN]) -> i32 {
        let mut sum: i32 = 0;
        let weights = self.out_weights[0].0.iter().chain(&self.out_weights[1].0);
        for (x, w) in us.iter().chain(them).zip(weights) {
            // Wrapping, as the fast path's lanes do; the trainer's clips
            // keep a real network's sum far inside i32.
            sum = sum.wrapping_add(squared_activation(*x) * i32::from(*w));
        }
        self.scale_output(sum)
    }

    /// The last step of [`Network::output`], shared with the fast path:
    /// `Σ v² · w` to centipawns.
    #[inline]
    pub(crate) fn scale_output(&self, sum: i32) -> i32 {
        // In i64: a file's output bias is any i32, and `out · SCALE`
        // overflows i32 beyond ~131,000 cp; the search clamps far below.
        let out = i64::from(sum) + i64::from(self.out_bias);
        (out * i64::from(SCALE) / OUTPUT_SCALE).clamp(-1_000_000, 1_000_000) as i32
    }

    /// The network's evaluation of `pos` in centipawns from the side to
    /// move's point of view, computed from scratch (the reference the
    /// incremental path is tested against).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let stm = pos.side_to_move();
        let us = self.refresh(pos, stm);
        let them = self.refresh(pos, stm.opponent());
        self.output(&us, &them)
    }
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
    use crate::nnue::test_support::random_network;

    #[test]
    fn file_round_trip() {
        let net = random_network(7);
        let bytes = net.to_bytes();
        assert_eq!(
            bytes.len(),
            8 + 32 + 8 + 4 + "random test network".len() + 2 * (INPUTS + 3) * HIDDEN + 4
        );
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back, net);
        assert_eq!(back.description(), "random test network");
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
        let mut v3 = bytes;
        v3[8] = 3;
        assert!(err(&v3).contains("version 3"));
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
        parts.out_bias = i32::MAX;
        assert_eq!(parts.scale_output(i32::MAX), 1_000_000);
        parts.out_bias = i32::MIN;
        assert_eq!(parts.scale_output(i32::MIN), -1_000_000);
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
        let net = Network::from_parts(ft_weights, ft_bias, out_weights, 0, "hand").unwrap();
        let pos = Position::startpos();
        // sum = 64·4096 − 254·2048 + 64·2048 = −126976;
        // eval = −126976·400 / 1040400 = −48.8, truncated to −48 (the
        // float network: 0.25 − 0.5 + 0.125 = −0.125, −50 cp; u = 64
        // stands for 63.5).
        assert_eq!(net.evaluate(&pos), -48);
    }
}
