//! `shuai-tools suite`: EPD suites against an engine, TSV verdict files
//! against the rules code.

use super::{read_text, write_json};
use shuai_board::rules::RuleBook;
use shuai_tools::engine::Engine;
use shuai_tools::spec::{EngineConfig, EngineSpec};
use shuai_tools::suite::{self, SuiteConfig, SuiteReport};
use shuai_tools::tc::Limit;
use std::path::PathBuf;

/// The arguments of `suite`.
#[derive(clap::Args)]
pub struct Args {
    /// Suite files: EPD (bm, am, dm operations) or TSV (id, FEN, moves, verdict).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Engine for EPD files (same form as for match).
    #[arg(long)]
    engine: Option<String>,
    /// JSON file describing engines by name.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Fixed depth per position.
    #[arg(long)]
    depth: Option<u32>,
    /// Fixed nodes per position.
    #[arg(long)]
    nodes: Option<u64>,
    /// Fixed time per position, milliseconds.
    #[arg(long)]
    movetime: Option<u64>,
    /// Longest wait per position without --movetime, milliseconds.
    #[arg(long, default_value_t = 600_000)]
    timeout: u64,
    /// The repetition rules TSV verdicts are judged by: chinese (the default) or asian.
    #[arg(long, default_value_t = RuleBook::Chinese, value_name = "chinese|asian")]
    rules: RuleBook,
    /// Write the results here as JSON.
    #[arg(long)]
    json: Option<PathBuf>,
}

/// Runs every file, printing each EPD case as it is done, then the summary.
pub fn run(a: Args) -> Result<(), String> {
    let config = a.config.as_deref().map(EngineConfig::load).transpose()?;
    let spec = a
        .engine
        .as_deref()
        .map(|s| EngineSpec::parse(s, config.as_ref()))
        .transpose()?;
    let limit = if let Some(d) = a.depth {
        Limit::Depth(d)
    } else if let Some(n) = a.nodes {
        Limit::Nodes(n)
    } else if let Some(ms) = a.movetime {
        Limit::MoveTime(ms)
    } else {
        Limit::MoveTime(1000)
    };
    let cfg = SuiteConfig {
        engine: spec,
        limit,
        timeout_ms: a.timeout,
    };
    let mut engine: Option<Engine> = None;
    let mut results = Vec::new();
    for f in &a.files {
        let name = f.display().to_string();
        let text = read_text(f)?;
        if suite::is_tsv(&name, &text) {
            results.extend(suite::run_tsv(&text, &name, a.rules)?);
            continue;
        }
        if engine.is_none() {
            let spec = cfg
                .engine
                .as_ref()
                .ok_or_else(|| format!("{name} is an EPD suite: give --engine"))?;
            engine = Some(Engine::start(spec, None, &spec.name)?);
        }
        let e = engine.as_mut().expect("started");
        let rs = suite::run_epd(e, &text, &name, &cfg, &mut |c| {
            eprintln!(
                "{} {:<12} {} (expected {}, got {}{})",
                if c.solved { "ok  " } else { "FAIL" },
                c.id,
                c.source,
                c.expected,
                c.got,
                c.time_ms.map(|t| format!(", {t} ms")).unwrap_or_default()
            );
        })?;
        results.extend(rs);
    }
    if let Some(e) = engine {
        e.quit();
    }
    let report = SuiteReport {
        solved: results.iter().filter(|c| c.solved).count(),
        total: results.len(),
        results,
    };
    print!("{}", suite::summary(&report));
    if let Some(p) = &a.json {
        write_json(p, &report)?;
    }
    Ok(())
}
