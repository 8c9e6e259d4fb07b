//! Checkpoints: the float model, the optimiser's moments and where the
//! run stands, so an interrupted training run resumes exactly.
//!
//! Little-endian: magic `SHUAICKP`, version u32, hidden u32, epochs done
//! u32, optimiser steps u64, then the model's parameters and the two
//! moments of each, as f32 arrays in the order feature weights, feature
//! biases, output weights, output bias.

use super::adamw::AdamW;
use super::model::Model;
use shuai_eval::nnue::INPUTS;
use std::path::Path;

const MAGIC: &[u8; 8] = b"SHUAICKP";
/// 2: feature weights clipped to ±0.97 (version 1 allowed ±1.98).
const VERSION: u32 = 2;

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
    /// The checkpoint as bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let m = &self.model;
        let o = &self.optimiser;
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(m.hidden as u32).to_le_bytes());
        out.extend_from_slice(&self.epochs_done.to_le_bytes());
        out.extend_from_slice(&o.step.to_le_bytes());
        for (p, mom) in [
            (&m.ft_weights, &o.ft_weights),
            (&m.ft_bias, &o.ft_bias),
            (&m.out_weights, &o.out_weights),
        ] {
            put(&mut out, p);
            put(&mut out, &mom[0]);
            put(&mut out, &mom[1]);
        }
        put(&mut out, &[m.out_bias, o.out_bias[0], o.out_bias[1]]);
        out
    }

    /// Reads a checkpoint written by [`Checkpoint::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, String> {
        if bytes.len() < 28 || &bytes[..8] != MAGIC {
            return Err("not a Shuai training checkpoint (no SHUAICKP magic)".into());
        }
        let u32_at =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        if u32_at(8) != VERSION {
            return Err(format!(
                "checkpoint version {}, this build reads {VERSION}",
                u32_at(8)
            ));
        }
        let hidden = u32_at(12) as usize;
        let epochs_done = u32_at(16);
        let mut step = [0u8; 8];
        step.copy_from_slice(&bytes[20..28]);
        let step = u64::from_le_bytes(step);
        let floats = 3 * (INPUTS * hidden + hidden + 2 * hidden + 1);
        if bytes.len() != 28 + 4 * floats {
            return Err(format!(
                "checkpoint of {} bytes, expected {} for hidden size {hidden} (truncated?)",
                bytes.len(),
                28 + 4 * floats
            ));
        }
        let mut xs = bytes[28..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        let mut take = |n: usize| -> Vec<f32> { xs.by_ref().take(n).collect() };
        let mut three = |n: usize| (take(n), [take(n), take(n)]);
        let (ft_weights, ft_weights_m) = three(INPUTS * hidden);
        let (ft_bias, ft_bias_m) = three(hidden);
        let (out_weights, out_weights_m) = three(2 * hidden);
        let last = take(3);
        Ok(Checkpoint {
            model: Model {
                hidden,
                ft_weights,
                ft_bias,
                out_weights,
                out_bias: last[0],
            },
            optimiser: AdamW {
                ft_weights: ft_weights_m,
                ft_bias: ft_bias_m,
                out_weights: out_weights_m,
                out_bias: [last[1], last[2]],
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

    #[test]
    fn round_trip_and_truncation() {
        let model = Model::new(3, 4);
        let mut optimiser = AdamW::new(&model);
        optimiser.step = 17;
        optimiser.ft_weights[1][5] = 0.25;
        optimiser.out_bias = [0.5, 0.125];
        let c = Checkpoint {
            model,
            optimiser,
            epochs_done: 6,
        };
        let bytes = c.to_bytes();
        assert_eq!(Checkpoint::from_bytes(&bytes).unwrap(), c);
        let err = Checkpoint::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err();
        assert!(err.contains("truncated"), "{err}");
        assert!(Checkpoint::from_bytes(b"SHUAINNU and more bytes here.....")
            .unwrap_err()
            .contains("magic"));
    }
}
