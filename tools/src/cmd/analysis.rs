//! `shuai-tools analysis`: a long `go infinite` with memory sampled each
//! minute (the work is in `shuai_tools::analysis`).

use shuai_tools::analysis::{run_analysis, AnalysisConfig};
use shuai_tools::progress::hms;
use shuai_tools::spec::EngineSpec;
use std::path::PathBuf;
use std::time::Duration;

/// The arguments of `analysis`.
#[derive(clap::Args)]
pub struct Args {
    /// The engine: cmd=PATH[,proto=uci|ucci][,opt.NAME=VALUE…] (as for `match`).
    #[arg(long)]
    engine: String,
    /// Threads.
    #[arg(long, default_value_t = 2)]
    threads: u32,
    /// Hash, MB.
    #[arg(long, default_value_t = 1024)]
    hash: u32,
    /// How long to analyse, minutes (fractions allowed).
    #[arg(long, default_value_t = 60.0)]
    minutes: f64,
    /// Seconds between samples.
    #[arg(long, default_value_t = 60.0)]
    sample_secs: f64,
    /// Position to analyse (FEN; default: the start position).
    #[arg(long)]
    fen: Option<String>,
    /// Append each sample here as a JSON line.
    #[arg(long)]
    log: Option<PathBuf>,
    /// Wait for readyok at each sample before it is a failure, milliseconds.
    #[arg(long, default_value_t = 1000)]
    isready_limit: u64,
    /// Wait for bestmove after the final stop before it is a failure, milliseconds.
    #[arg(long, default_value_t = 1000)]
    stop_limit: u64,
}

fn duration(secs: f64, what: &str) -> Result<Duration, String> {
    Duration::try_from_secs_f64(secs)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| format!("{what}: {secs} is not a positive time"))
}

/// Runs the analysis, printing each sample and the summary; fails when
/// the engine crashed or did not answer.
pub fn run(a: Args) -> Result<(), String> {
    let cfg = AnalysisConfig {
        engine: EngineSpec::parse(&a.engine, None)?,
        threads: a.threads.max(1),
        hash_mb: a.hash.max(1),
        duration: duration(a.minutes * 60.0, "--minutes")?,
        every: duration(a.sample_secs, "--sample-secs")?,
        position: match &a.fen {
            Some(f) => format!("position fen {f}"),
            None => "position startpos".into(),
        },
        log: a.log,
        isready_limit: Duration::from_millis(a.isready_limit),
        stop_limit: Duration::from_millis(a.stop_limit),
    };
    eprintln!(
        "go infinite for {} with Threads {} and Hash {} MB, a sample every {} s",
        hms(cfg.duration.as_secs()),
        cfg.threads,
        cfg.hash_mb,
        cfg.every.as_secs_f64()
    );
    let report = run_analysis(&cfg, &mut |s| {
        eprintln!(
            "{} rss {} info lines {} max silence {:.1} s depth {} isready {}",
            hms(s.secs as u64),
            s.rss_kb
                .map_or("?".into(), |k| format!("{:.1} MB", k as f64 / 1024.0)),
            s.info_lines,
            s.max_silence_ms as f64 / 1000.0,
            s.depth.map_or("-".into(), |d| d.to_string()),
            s.isready_ms.map_or("none".into(), |m| format!("{m} ms")),
        )
    })?;
    print!("{}", report.summary());
    if !report.failures.is_empty() {
        return Err(format!("{} failures", report.failures.len()));
    }
    Ok(())
}
