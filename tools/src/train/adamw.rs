//! AdamW with weight clipping, and the learning-rate schedule.

use super::model::{Gradients, Model, FEATURE_CLIP, OUTPUT_CLIP};
use rayon::prelude::*;

/// First-moment decay.
pub const BETA1: f32 = 0.9;
/// Second-moment decay.
pub const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

/// The optimiser's moments, laid out like the model.
#[derive(Clone, Debug, PartialEq)]
pub struct AdamW {
    /// First moments, then second moments, of the feature weights.
    pub ft_weights: [Vec<f32>; 2],
    /// Of the factoriser's weights (empty without one).
    pub ft_factor: [Vec<f32>; 2],
    /// Of the feature biases.
    pub ft_bias: [Vec<f32>; 2],
    /// Of the output weights (every bucket's row).
    pub out_weights: [Vec<f32>; 2],
    /// Of the output biases, one per bucket.
    pub out_bias: [Vec<f32>; 2],
    /// Steps taken (for the bias correction).
    pub step: u64,
}

/// One step's constants.
#[derive(Clone, Copy)]
struct Step {
    lr: f32,
    decay: f32,
    scale: f32,
    correction1: f32,
    correction2: f32,
    clip: f32,
}

impl Step {
    /// Steps each row of `h` values of `params` (with its moments) whose
    /// gradient `row_sum(f, sum)` adds into the zeroed `sum`, returning
    /// whether any thread touched row `f`; an untouched row is left alone.
    fn rows(
        self,
        params: &mut [f32],
        [m, v]: &mut [Vec<f32>; 2],
        h: usize,
        row_sum: impl Fn(usize, &mut [f32]) -> bool + Sync,
    ) {
        params
            .par_chunks_mut(h)
            .zip(m.par_chunks_mut(h))
            .zip(v.par_chunks_mut(h))
            .enumerate()
            .for_each_init(
                || vec![0.0f32; h],
                |sum, (f, ((p, m), v))| {
                    sum.fill(0.0);
                    if row_sum(f, sum) {
                        self.apply(p, m, v, sum);
                    }
                },
            );
    }

    #[inline(always)]
    fn apply(self, p: &mut [f32], m: &mut [f32], v: &mut [f32], g: &[f32]) {
        for (((p, m), v), g) in p.iter_mut().zip(m).zip(v).zip(g) {
            let g = g * self.scale;
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            let update = (*m / self.correction1) / ((*v / self.correction2).sqrt() + EPSILON);
            *p =
                (*p * (1.0 - self.lr * self.decay) - self.lr * update).clamp(-self.clip, self.clip);
        }
    }
}

impl AdamW {
    /// Zero moments for `model`.
    pub fn new(model: &Model) -> AdamW {
        let zeros = |n: usize| [vec![0.0; n], vec![0.0; n]];
        AdamW {
            ft_weights: zeros(model.ft_weights.len()),
            ft_factor: zeros(model.ft_factor.len()),
            ft_bias: zeros(model.ft_bias.len()),
            out_weights: zeros(model.out_weights.len()),
            out_bias: zeros(model.out_bias.len()),
            step: 0,
        }
    }

    /// One step on the sum of `grads` (one per thread, summed in their
    /// order so the result does not depend on scheduling), averaged over
    /// `batch` samples. Feature rows no thread touched are left alone,
    /// moments included ("lazy" Adam: with sparse inputs most rows of a
    /// small batch are untouched, and decaying them every step would cost
    /// as much as the whole batch). The output layer is stepped whole,
    /// every bucket's row: it is small, and a batch of thousands of
    /// positions reaches nearly every bucket anyway. A factor row's
    /// gradient is the sum of its bucket rows' ([`Gradients::factor_row`],
    /// thread by thread, bucket by bucket), and it is stepped when any of
    /// them was touched.
    pub fn step(
        &mut self,
        model: &mut Model,
        grads: &[Gradients],
        batch: usize,
        lr: f32,
        decay: f32,
    ) {
        self.step += 1;
        let step = Step {
            lr,
            decay,
            scale: 1.0 / batch.max(1) as f32,
            correction1: 1.0 - BETA1.powi(self.step as i32),
            correction2: 1.0 - BETA2.powi(self.step as i32),
            clip: FEATURE_CLIP,
        };
        let h = model.hidden;
        step.rows(&mut model.ft_weights, &mut self.ft_weights, h, |f, sum| {
            let mut touched = false;
            for g in grads.iter().filter(|g| g.touched[f]) {
                for (s, x) in sum.iter_mut().zip(&g.ft_weights[f * h..(f + 1) * h]) {
                    *s += x;
                }
                touched = true;
            }
            touched
        });
        if model.factorised() {
            step.rows(&mut model.ft_factor, &mut self.ft_factor, h, |f, sum| {
                let mut touched = false;
                for g in grads {
                    touched |= g.factor_row(f, sum);
                }
                touched
            });
        }
        let sum_of = |pick: fn(&Gradients) -> &[f32], n: usize| {
            let mut sum = vec![0.0f32; n];
            for g in grads {
                for (s, x) in sum.iter_mut().zip(pick(g)) {
                    *s += x;
                }
            }
            sum
        };
        let g = sum_of(|g| &g.ft_bias, h);
        let [m, v] = &mut self.ft_bias;
        step.apply(&mut model.ft_bias, m, v, &g);
        let step = Step {
            clip: OUTPUT_CLIP,
            ..step
        };
        let g = sum_of(|g| &g.out_weights, model.out_weights.len());
        let [m, v] = &mut self.out_weights;
        step.apply(&mut model.out_weights, m, v, &g);
        // The output biases are i32s in the engine: no clip to speak of.
        let step = Step {
            clip: f32::MAX,
            ..step
        };
        let g = sum_of(|g| &g.out_bias, model.out_bias.len());
        let [m, v] = &mut self.out_bias;
        step.apply(&mut model.out_bias, m, v, &g);
    }
}

/// Cosine decay from `start` to `end` as `progress` goes from 0 to 1.
pub fn cosine_lr(start: f32, end: f32, progress: f64) -> f32 {
    let p = progress.clamp(0.0, 1.0);
    end + (start - end) * (0.5 * (1.0 + (std::f64::consts::PI * p).cos())) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cosine_schedule_ends() {
        assert_eq!(cosine_lr(1e-3, 1e-5, 0.0), 1e-3);
        assert!((cosine_lr(1e-3, 1e-5, 0.5) - 5.05e-4).abs() < 1e-9);
        assert_eq!(cosine_lr(1e-3, 1e-5, 1.0), 1e-5);
    }

    #[test]
    fn first_step_moves_each_touched_weight_by_the_learning_rate() {
        // Adam's first step is lr · sign(g) (the moments' bias
        // correction makes m/√v = ±1); untouched rows do not move.
        let mut model = Model::new(2, 2, 1);
        let before = model.clone();
        let mut g = Gradients::new(2, 2);
        g.ft_weights[7 * 2] = 3.0;
        g.ft_weights[7 * 2 + 1] = -0.5;
        g.touched[7] = true;
        g.out_bias[1] = 1.0;
        g.out_weights[4] = -2.0;
        let mut opt = AdamW::new(&model);
        opt.step(&mut model, &[g.clone(), Gradients::new(2, 2)], 4, 0.01, 0.0);
        assert!((model.ft_weights[14] - (before.ft_weights[14] - 0.01)).abs() < 1e-6);
        assert!((model.ft_weights[15] - (before.ft_weights[15] + 0.01)).abs() < 1e-6);
        assert_eq!(model.ft_weights[16], before.ft_weights[16]);
        // Bucket 1's bias and its first weight move; bucket 0's, with no
        // gradient, stay.
        assert_eq!(model.out_bias[0], 0.0);
        assert!((model.out_bias[1] - (-0.01)).abs() < 1e-6);
        assert!((model.out_weights[4] - (before.out_weights[4] + 0.01)).abs() < 1e-6);
        assert_eq!(model.out_weights[..4], before.out_weights[..4]);
        assert_eq!(opt.step, 1);
    }

    #[test]
    fn a_factor_row_steps_on_the_sum_of_its_bucket_rows() {
        // Feature 7 in king bucket 0 with gradient +3 (thread 1) and in
        // bucket 1 with -1 (thread 2), so the factor row's gradient is +2:
        // the bucket rows move against their own gradients, the factor row
        // against the sum. Feature 8 is untouched everywhere: nothing moves.
        use shuai_eval::nnue::{KingBuckets, INPUTS};
        let king = KingBuckets::MIRRORED_3;
        let mut model = Model::with_king_buckets(2, 1, king, true, 1);
        let before = model.clone();
        let (mut a, mut b) = (Gradients::for_model(&model), Gradients::for_model(&model));
        a.ft_weights[7 * 2] = 3.0;
        a.touched[7] = true;
        b.ft_weights[(INPUTS + 7) * 2 + 1] = -1.0;
        b.touched[INPUTS + 7] = true;
        let mut opt = AdamW::new(&model);
        assert_eq!(opt.ft_factor[0].len(), INPUTS * 2);
        opt.step(&mut model, &[a, b], 4, 0.01, 0.0);
        let moved = |after: &[f32], before: &[f32], i: usize| after[i] - before[i];
        assert!((moved(&model.ft_weights, &before.ft_weights, 14) + 0.01).abs() < 1e-6);
        let row1 = (INPUTS + 7) * 2 + 1;
        assert!((moved(&model.ft_weights, &before.ft_weights, row1) - 0.01).abs() < 1e-6);
        // The factor row: +3 in unit 0, −1 in unit 1.
        assert!((moved(&model.ft_factor, &before.ft_factor, 14) + 0.01).abs() < 1e-6);
        assert!((moved(&model.ft_factor, &before.ft_factor, 15) - 0.01).abs() < 1e-6);
        assert_eq!(model.ft_factor[16..18], before.ft_factor[16..18]);
        assert_eq!(model.ft_weights[16..18], before.ft_weights[16..18]);
        // Bucket 2's row 7 had no gradient: lazy Adam leaves it alone.
        let row2 = (2 * INPUTS + 7) * 2;
        assert_eq!(model.ft_weights[row2], before.ft_weights[row2]);
    }

    #[test]
    fn weights_are_clipped() {
        let mut model = Model::new(1, 1, 1);
        model.out_weights[0] = OUTPUT_CLIP;
        let mut g = Gradients::new(1, 1);
        g.out_weights[0] = -1.0;
        let mut opt = AdamW::new(&model);
        opt.step(&mut model, &[g], 1, 0.5, 0.0);
        assert_eq!(model.out_weights[0], OUTPUT_CLIP);
        model.ft_bias[0] = FEATURE_CLIP;
        let mut g = Gradients::new(1, 1);
        g.ft_bias[0] = -1.0;
        opt.step(&mut model, &[g], 1, 0.5, 0.0);
        assert_eq!(model.ft_bias[0], FEATURE_CLIP);
    }
}
