//! Checkpoints: the float model, the optimiser's moments and where the
//! run stands, so an interrupted training run resumes exactly.
//!
//! Little-endian: magic `SHUAICKP`, version u32, hidden u32, output
//! buckets u32, then (version 4 only) king buckets u32, mirrored u32, the
//! 9 entries of the king-bucket table u32 each and whether there is a
//! factoriser u32; then epochs done u32, optimiser steps u64, then the
//! model's parameters and the two moments of each, as f32 arrays in the
//! order feature weights, factoriser weights (version 4 with a
//! factoriser), feature biases, output weights, output biases.
//! A run without king buckets is written as version 3, as before, so its
//! checkpoints keep their bytes. Version 2 (before output buckets) had no
//! bucket count and one output bias; it still reads, as a one-bucket run.

use super::adamw::AdamW;
use super::model::Model;
use shuai_eval::nnue::{KingBuckets, INPUTS, MAX_OUTPUT_BUCKETS, PALACE_POINTS};
use std::path::Path;

const MAGIC: &[u8; 8] = b"SHUAICKP";
/// 3: the output bucket count in the header, one output row and bias per
/// bucket. (2: feature weights clipped to ±0.97; version 1 allowed ±1.98
/// and is not read.)
const VERSION: u32 = 3;
/// 4: version 3 with king buckets and the factoriser.
const VERSION_KING_BUCKETS: u32 = 4;

/// A saved training state.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// The model.
    pub model: Model,
    /// The optimiser.
    pub optimiser: AdamW,
    /// Epochs completed.
    pub epochs_done: u32,
}

fn put(out: &mut Vec<u8>, xs: &[f32]) {
    for x in xs {
        out.extend_from_slice(&x.to_le_bytes());
    }
}

impl Checkpoint {
    /// The checkpoint as bytes: version 4 with king buckets or a
    /// factoriser, else version 3.
    pub fn to_bytes(&self) -> Vec<u8> {
        let m = &self.model;
        let o = &self.optimiser;
        let king = !m.king.is_none() || m.factorised();
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        let version = if king { VERSION_KING_BUCKETS } else { VERSION };
        out.extend_from_slice(&version.to_le_bytes());
        out.extend_from_slice(&(m.hidden as u32).to_le_bytes());
        out.extend_from_slice(&(m.buckets as u32).to_le_bytes());
        if king {
            let mut fields = vec![m.king.count() as u32, u32::from(m.king.mirrored())];
            fields.extend(m.king.map().map(u32::from));
            fields.push(u32::from(m.factorised()));
            for v in fields {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        out.extend_from_slice(&self.epochs_done.to_le_bytes());
        out.extend_from_slice(&o.step.to_le_bytes());
        for (p, mom) in [
            (&m.ft_weights, &o.ft_weights),
            (&m.ft_factor, &o.ft_factor),
            (&m.ft_bias, &o.ft_bias),
            (&m.out_weights, &o.out_weights),
            (&m.out_bias, &o.out_bias),
        ] {
            put(&mut out, p);
            put(&mut out, &mom[0]);
            put(&mut out, &mom[1]);
        }
        out
    }

    /// Reads a checkpoint written by [`Checkpoint::to_bytes`] (or by a
    /// version-2 trainer, as one bucket).
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, String> {
        if bytes.len() < 28 || &bytes[..8] != MAGIC {
            return Err("not a Shuai training checkpoint (no SHUAICKP magic)".into());
        }
        let u32_at =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let version = u32_at(8);
        // Version 2 has no bucket count: the fields after it sit 4 bytes
        // earlier; version 4 has 12 more fields.
        let header_end = match version {
            2 => 28,
            VERSION => 32,
            VERSION_KING_BUCKETS => 32 + 4 * (3 + PALACE_POINTS),
            v => {
                return Err(format!(
                    "checkpoint version {v}, this build reads 2, {VERSION} and \
                     {VERSION_KING_BUCKETS}"
                ))
            }
        };
        if bytes.len() < header_end {
            return Err("checkpoint ends inside its header (truncated?)".into());
        }
        let (buckets, rest) = match version {
            2 => (1, 16),
            _ => (u32_at(16) as usize, 20),
        };
        let (king, factoriser, rest) = if version == VERSION_KING_BUCKETS {
            let count = u32_at(20);
            let mirror = u32_at(24);
            let map: [u8; PALACE_POINTS] =
                std::array::from_fn(|i| u8::try_from(u32_at(28 + 4 * i)).unwrap_or(u8::MAX));
            let factor = u32_at(28 + 4 * PALACE_POINTS);
            let king = KingBuckets::new(map, mirror == 1)
                .ok()
                .filter(|k| k.count() as u32 == count && mirror <= 1 && factor <= 1)
                .ok_or_else(|| {
                    format!(
                        "checkpoint with an invalid king-bucket layout ({count} buckets, \
                         mirror {mirror}, table {map:?}, factoriser {factor})"
                    )
                })?;
            (king, factor == 1, rest + 4 * (3 + PALACE_POINTS))
        } else {
            (KingBuckets::NONE, false, rest)
        };
        if !(1..=MAX_OUTPUT_BUCKETS).contains(&buckets) {
            return Err(format!(
                "checkpoint of {buckets} output buckets, 1 to {MAX_OUTPUT_BUCKETS} allowed"
            ));
        }
        let hidden = u32_at(12) as usize;
        let epochs_done = u32_at(rest);
        let mut step = [0u8; 8];
        step.copy_from_slice(&bytes[rest + 4..rest + 12]);
        let step = u64::from_le_bytes(step);
        let header = rest + 12;
        let factor_len = if factoriser { INPUTS * hidden } else { 0 };
        let floats =
            3 * (king.inputs() * hidden + factor_len + hidden + buckets * (2 * hidden + 1));
        if bytes.len() != header + 4 * floats {
            return Err(format!(
                "checkpoint of {} bytes, expected {} for hidden size {hidden}, {buckets} \
                 output buckets and {} (truncated?)",
                bytes.len(),
                header + 4 * floats,
                king.name()
            ));
        }
        let mut xs = bytes[header..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        let mut take = |n: usize| -> Vec<f32> { xs.by_ref().take(n).collect() };
        let mut three = |n: usize| (take(n), [take(n), take(n)]);
        let (ft_weights, ft_weights_m) = three(king.inputs() * hidden);
        let (ft_factor, ft_factor_m) = three(factor_len);
        let (ft_bias, ft_bias_m) = three(hidden);
        let (out_weights, out_weights_m) = three(buckets * 2 * hidden);
        let (out_bias, out_bias_m) = three(buckets);
        Ok(Checkpoint {
            model: Model {
                hidden,
                buckets,
                king,
                ft_weights,
                ft_factor,
                ft_bias,
                out_weights,
                out_bias,
            },
            optimiser: AdamW {
                ft_weights: ft_weights_m,
                ft_factor: ft_factor_m,
                ft_bias: ft_bias_m,
                out_weights: out_weights_m,
                out_bias: out_bias_m,
                step,
            },
            epochs_done,
        })
    }

    /// Writes the checkpoint to `path` (through a temporary file, so an
    /// interruption never leaves half a checkpoint).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, self.to_bytes())
            .and_then(|()| std::fs::rename(&tmp, path))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// Reads a checkpoint file.
    pub fn load(path: &Path) -> Result<Checkpoint, String> {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Checkpoint::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checkpoint(buckets: usize) -> Checkpoint {
        king_checkpoint(buckets, KingBuckets::NONE, false)
    }

    fn king_checkpoint(buckets: usize, king: KingBuckets, factoriser: bool) -> Checkpoint {
        let model = Model::with_king_buckets(3, buckets, king, factoriser, 4);
        let mut optimiser = AdamW::new(&model);
        optimiser.step = 17;
        optimiser.ft_weights[1][5] = 0.25;
        optimiser.out_bias[0][buckets - 1] = 0.5;
        optimiser.out_bias[1][0] = 0.125;
        Checkpoint {
            model,
            optimiser,
            epochs_done: 6,
        }
    }

    #[test]
    fn round_trip_and_truncation() {
        for buckets in [1, 5] {
            let c = checkpoint(buckets);
            let bytes = c.to_bytes();
            assert_eq!(Checkpoint::from_bytes(&bytes).unwrap(), c);
            let err = Checkpoint::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err();
            assert!(err.contains("truncated"), "{err}");
        }
        assert!(Checkpoint::from_bytes(b"SHUAINNU and more bytes here.....")
            .unwrap_err()
            .contains("magic"));
        let mut none = checkpoint(2).to_bytes();
        none[16..20].copy_from_slice(&0u32.to_le_bytes());
        assert!(Checkpoint::from_bytes(&none)
            .unwrap_err()
            .contains("0 output buckets"));
    }

    #[test]
    fn king_bucket_checkpoints_round_trip() {
        for (king, factoriser) in [
            (KingBuckets::MIRRORED_6, true),
            (KingBuckets::MIRRORED_6, false),
            (KingBuckets::POINTS_9, true),
        ] {
            let mut c = king_checkpoint(2, king, factoriser);
            if factoriser {
                c.optimiser.ft_factor[1][7] = 0.75;
            }
            c.optimiser.ft_weights[0][king.inputs() * 3 - 1] = 0.5;
            let bytes = c.to_bytes();
            assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 4);
            let factor = if factoriser { INPUTS * 3 } else { 0 };
            let floats = 3 * (king.inputs() * 3 + factor + 3 + 2 * (2 * 3 + 1));
            assert_eq!(bytes.len(), 32 + 48 + 4 * floats);
            assert_eq!(Checkpoint::from_bytes(&bytes).unwrap(), c);
            let err = Checkpoint::from_bytes(&bytes[..bytes.len() - 4]).unwrap_err();
            assert!(
                err.contains("truncated") && err.contains("king buckets"),
                "{err}"
            );
            // A table the layout rules refuse (file f differs from d,
            // mirrored) is refused here too.
            let mut bad = bytes.clone();
            bad[28 + 8..28 + 12].copy_from_slice(&1u32.to_le_bytes());
            if king.mirrored() {
                let err = Checkpoint::from_bytes(&bad).unwrap_err();
                assert!(err.contains("invalid king-bucket layout"), "{err}");
            }
        }
        // Without king buckets or factoriser: version 3, as before.
        let plain = checkpoint(2).to_bytes();
        assert_eq!(u32::from_le_bytes(plain[8..12].try_into().unwrap()), 3);
        assert!(Checkpoint::from_bytes(&plain[..40])
            .unwrap_err()
            .contains("truncated"));
    }

    #[test]
    fn a_version_2_checkpoint_resumes_as_one_bucket() {
        // Version 2 is version 3 with one bucket and no bucket count.
        let c = checkpoint(1);
        let v3 = c.to_bytes();
        let mut v2 = v3[..16].to_vec();
        v2[8..12].copy_from_slice(&2u32.to_le_bytes());
        v2.extend_from_slice(&v3[20..]);
        assert_eq!(Checkpoint::from_bytes(&v2).unwrap(), c);
    }
}
