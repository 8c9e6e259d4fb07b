//! `shuai-tools tune`: logistic (Texel) tuning of the evaluation weights.

use super::read_weights;
use shuai_tools::tune::{self, TuneConfig};
use std::path::PathBuf;

/// The arguments of `tune`.
#[derive(clap::Args)]
pub struct Args {
    /// Training data (`FEN;result` or `FEN;result;score` lines).
    #[arg(long)]
    data: PathBuf,
    /// Passes over the data.
    #[arg(long, default_value_t = 100)]
    epochs: usize,
    /// Adam step size, centipawns.
    #[arg(long, default_value_t = 1.0)]
    lr: f64,
    /// Mini-batch size (0: the whole data set).
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// L2 pull toward the default weights.
    #[arg(long, default_value_t = 0.0)]
    reg: f64,
    /// Seed for the mini-batch order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Fixed scaling constant K (default: fitted).
    #[arg(long)]
    k: Option<f64>,
    /// Weight of the search score in the target, 0..=1: the target is
    /// (1 − λ)·result + λ·σ(score) for lines with a score.
    #[arg(long, default_value_t = 0.0)]
    lambda: f64,
    /// Starting weights: a table written by `tune` (default: the built-in
    /// weights). With `--epochs 0 --k K` this measures a table's error on
    /// other data.
    #[arg(long)]
    start: Option<PathBuf>,
    /// Output: a `name value` table of the tuned weights.
    #[arg(long)]
    out: PathBuf,
}

/// Tunes from `--start` (or the built-in weights) and writes the table.
pub fn run(a: Args) -> Result<(), String> {
    let file = std::fs::File::open(&a.data)
        .map_err(|e| format!("cannot read {}: {e}", a.data.display()))?;
    let mut samples = tune::read_samples(std::io::BufReader::new(file))?;
    if samples.is_empty() {
        return Err(format!("no positions in {}", a.data.display()));
    }
    let start = match &a.start {
        Some(p) => read_weights(p)?.to_vec(),
        None => shuai_eval::Weights::DEFAULT.to_vec(),
    };
    let mut k = a.k;
    if a.lambda > 0.0 {
        // K is fitted on the plain results, then fixed for the blend.
        let fitted = k.unwrap_or_else(|| tune::fit_k(&samples, &start));
        tune::blend_targets(&mut samples, fitted, a.lambda);
        k = Some(fitted);
    }
    let cfg = TuneConfig {
        epochs: a.epochs,
        lr: a.lr,
        batch: a.batch,
        reg: a.reg,
        seed: a.seed,
        k,
    };
    println!("{} positions, {} parameters", samples.len(), start.len());
    let r = tune::tune(&samples, &start, &cfg, &mut |e, mse| {
        println!("epoch {e:4}  mse {mse:.6}");
    });
    println!(
        "K {:.4}, {} active parameters; mse {:.6} -> {:.6} (rounded weights, exact evaluation)",
        r.k, r.active, r.start_mse, r.final_mse
    );
    let header = format!(
        "shuai-tools tune --data {} --epochs {} --lr {} --batch {} --reg {} --seed {} --lambda {}\n{} positions, K {:.4}, mse {:.6} -> {:.6}",
        a.data.display(),
        a.epochs,
        a.lr,
        a.batch,
        a.reg,
        a.seed,
        a.lambda,
        samples.len(),
        r.k,
        r.start_mse,
        r.final_mse
    );
    let tuned = shuai_eval::Weights::from_vec(&r.params).map_err(|e| e.to_string())?;
    std::fs::write(&a.out, tuned.to_table(&header))
        .map_err(|e| format!("cannot write {}: {e}", a.out.display()))?;
    println!("weights written to {}", a.out.display());
    Ok(())
}
