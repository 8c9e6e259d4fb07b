//! Logistic (Texel) tuning of the evaluation weights (`shuai-tools tune`).
//!
//! Each position's features are computed once ([`shuai_eval::features`]);
//! the evaluation is then a cheap function of the flat parameter vector
//! ([`Weights::to_vec`]). The predicted result of a position with Red's
//! score `e` is `σ(e) = 1 / (1 + 10^(−K·e/400))`; the error is the mean
//! squared difference from the game results. `K` is fitted first with the
//! default weights, then the parameters are moved by Adam over mini-batches
//! in an order fixed by the seed. Everything is sequential and seeded, so
//! one input gives one output.
//!
//! During descent the evaluation is computed in floating point (the same
//! blend and draw scale, without the integer truncation); the final error
//! is also reported with the exact integer evaluation of the rounded
//! weights.

use crate::datagen::parse_line;
use shuai_board::Color;
use shuai_board::Rng;
use shuai_eval::{features, EvalFeatures, PHASE_MAX};
use std::io::BufRead;

/// One training position.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Its evaluation features.
    pub features: EvalFeatures,
    /// The target: the game result from Red's point of view, 0..=1 (or,
    /// after [`blend_targets`], its blend with the search score).
    pub result: f64,
    /// The search score from Red's point of view, centipawns, if the data
    /// has one.
    pub red_score: Option<f64>,
}

/// Reads `FEN;result[;score]` lines (blank lines and `#` comments skipped).
pub fn read_samples(input: impl BufRead) -> Result<Vec<Sample>, String> {
    let mut out = Vec::new();
    for (n, line) in input.lines().enumerate() {
        let line = line.map_err(|e| format!("line {}: {e}", n + 1))?;
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let line = parse_line(t).map_err(|e| format!("line {}: {e}", n + 1))?;
        out.push(Sample {
            features: features(&line.pos),
            result: line.result,
            red_score: line.red_score.map(f64::from),
        });
    }
    Ok(out)
}

/// The exact evaluation (integer weights) from Red's point of view.
pub fn eval_red_exact(f: &EvalFeatures, params: &[i32]) -> f64 {
    let e = f.evaluate_flat(params) as f64;
    if f.side_to_move == Color::Red {
        e
    } else {
        -e
    }
}

/// The evaluation with real-valued weights, Red's view, and the factors
/// `(d/d mg, d/d eg)` of each coefficient in its derivative.
fn eval_red_float(f: &EvalFeatures, theta: &[f64]) -> (f64, f64, f64) {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, c) in &f.coefficients {
        let i = i as usize;
        mg += theta[2 * i] * c as f64;
        eg += theta[2 * i + 1] * c as f64;
    }
    let p = f.phase as f64 / PHASE_MAX as f64;
    let blended = mg * p + eg * (1.0 - p);
    let scale = if blended > 0.0 {
        f.scales[0]
    } else if blended < 0.0 {
        f.scales[1]
    } else {
        shuai_eval::endgame::SCALE_NORMAL
    } as f64
        / shuai_eval::endgame::SCALE_NORMAL as f64;
    (blended * scale, p * scale, (1.0 - p) * scale)
}

/// `1 / (1 + 10^(−K·e/400))`.
pub fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

/// Mean squared error of the exact evaluation with `params` at `k`.
pub fn mse_exact(samples: &[Sample], params: &[i32], k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let d = sigmoid(k, eval_red_exact(&s.features, params)) - s.result;
            d * d
        })
        .sum();
    sum / samples.len() as f64
}

/// Mean squared error of the real-valued evaluation with `theta` at `k`.
pub fn mse_float(samples: &[Sample], theta: &[f64], k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let d = sigmoid(k, eval_red_float(&s.features, theta).0) - s.result;
            d * d
        })
        .sum();
    sum / samples.len() as f64
}

/// The `K` minimising the error of `params` (golden-section search over
/// `0.01..=10`, then refined to 1e-6).
pub fn fit_k(samples: &[Sample], params: &[i32]) -> f64 {
    // Precompute the evaluations: K is the only unknown.
    let evals: Vec<(f64, f64)> = samples
        .iter()
        .map(|s| (eval_red_exact(&s.features, params), s.result))
        .collect();
    let err = |k: f64| -> f64 {
        evals
            .iter()
            .map(|&(e, r)| {
                let d = sigmoid(k, e) - r;
                d * d
            })
            .sum::<f64>()
    };
    let (mut a, mut b) = (0.01f64, 10.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (err(c), err(d));
    while b - a > 1e-6 {
        if fc <= fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = err(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = err(d);
        }
    }
    (a + b) / 2.0
}

/// Replaces each sample's target by `(1 − λ)·result + λ·σ(K·score)` when
/// the sample has a search score (`lambda` 0 keeps the results, 1 aims at
/// the scores alone). Fit `K` on the plain results first.
pub fn blend_targets(samples: &mut [Sample], k: f64, lambda: f64) {
    let lambda = lambda.clamp(0.0, 1.0);
    for s in samples {
        if let Some(score) = s.red_score {
            s.result = (1.0 - lambda) * s.result + lambda * sigmoid(k, score);
        }
    }
}

/// Tuning settings.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// Passes over the data.
    pub epochs: usize,
    /// Adam step size, centipawns.
    pub lr: f64,
    /// Mini-batch size (0: the whole data set).
    pub batch: usize,
    /// L2 pull toward the starting weights, per parameter and position
    /// (`reg · Σ (θ − θ₀)²` is added to the error).
    pub reg: f64,
    /// Seed for the mini-batch order.
    pub seed: u64,
    /// `K`; `None`: fitted first.
    pub k: Option<f64>,
}

impl Default for TuneConfig {
    fn default() -> TuneConfig {
        TuneConfig {
            epochs: 100,
            lr: 1.0,
            batch: 16384,
            reg: 0.0,
            seed: 1,
            k: None,
        }
    }
}

/// What a tuning run did.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneReport {
    /// The scaling constant used.
    pub k: f64,
    /// Parameters with a nonzero coefficient in some position (the others
    /// keep their starting values).
    pub active: usize,
    /// Error of the starting weights (exact evaluation).
    pub start_mse: f64,
    /// Error after each epoch (real-valued weights).
    pub epoch_mse: Vec<f64>,
    /// Error of the rounded final weights (exact evaluation).
    pub final_mse: f64,
    /// The final weights, rounded, laid out as [`Weights::to_vec`].
    pub params: Vec<i32>,
}

/// Tunes `start` (laid out as [`Weights::to_vec`]) on `samples`; `epoch`
/// is called after each epoch with its number (from 1) and error.
pub fn tune(
    samples: &[Sample],
    start: &[i32],
    cfg: &TuneConfig,
    epoch: &mut dyn FnMut(usize, f64),
) -> TuneReport {
    let n_params = start.len();
    let k = cfg.k.unwrap_or_else(|| fit_k(samples, start));
    let start_mse = mse_exact(samples, start, k);

    // Which parameters any position depends on (mg needs a phase above 0,
    // eg one below the maximum).
    let mut active = vec![false; n_params];
    for s in samples {
        for &(i, c) in &s.features.coefficients {
            if c != 0 {
                let i = i as usize;
                if s.features.phase > 0 {
                    active[2 * i] = true;
                }
                if s.features.phase < PHASE_MAX {
                    active[2 * i + 1] = true;
                }
            }
        }
    }

    let theta0: Vec<f64> = start.iter().map(|&x| x as f64).collect();
    let mut theta = theta0.clone();
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    let mut m = vec![0.0f64; n_params];
    let mut v = vec![0.0f64; n_params];
    let mut t = 0i32;
    let mut order: Vec<usize> = (0..samples.len()).collect();
    let mut rng = Rng::new(cfg.seed);
    let batch = if cfg.batch == 0 {
        samples.len().max(1)
    } else {
        cfg.batch
    };
    let dsig = k * std::f64::consts::LN_10 / 400.0;
    let mut grad = vec![0.0f64; n_params];
    let mut epoch_mse = Vec::with_capacity(cfg.epochs);
    for e in 0..cfg.epochs {
        rng.shuffle(&mut order);
        for chunk in order.chunks(batch) {
            grad.iter_mut().for_each(|g| *g = 0.0);
            for &j in chunk {
                let s = &samples[j];
                let (ev, fmg, feg) = eval_red_float(&s.features, &theta);
                let p = sigmoid(k, ev);
                let common = 2.0 * (p - s.result) * p * (1.0 - p) * dsig;
                for &(i, c) in &s.features.coefficients {
                    let i = i as usize;
                    let x = common * c as f64;
                    grad[2 * i] += x * fmg;
                    grad[2 * i + 1] += x * feg;
                }
            }
            let scale = 1.0 / chunk.len() as f64;
            t += 1;
            let c1 = 1.0 - b1.powi(t);
            let c2 = 1.0 - b2.powi(t);
            for p in 0..n_params {
                if !active[p] {
                    continue;
                }
                let g = grad[p] * scale + 2.0 * cfg.reg * (theta[p] - theta0[p]);
                m[p] = b1 * m[p] + (1.0 - b1) * g;
                v[p] = b2 * v[p] + (1.0 - b2) * g * g;
                theta[p] -= cfg.lr * (m[p] / c1) / ((v[p] / c2).sqrt() + eps);
            }
        }
        let err = mse_float(samples, &theta, k);
        epoch(e + 1, err);
        epoch_mse.push(err);
    }
    let params: Vec<i32> = theta.iter().map(|x| x.round() as i32).collect();
    TuneReport {
        k,
        active: active.iter().filter(|&&a| a).count(),
        start_mse,
        epoch_mse,
        final_mse: mse_exact(samples, &params, k),
        params,
    }
}
