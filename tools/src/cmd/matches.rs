//! `shuai-tools match`: a match between two engines, judged by the board
//! crate's rules, with optional SPRT, PGN and JSON output.

use super::{load_openings, write_json, LimitArgs};
use shuai_board::rules::{RuleBook, RuleOptions};
use shuai_tools::game::{DrawRule, GameConfig, ResignRule};
use shuai_tools::openings;
use shuai_tools::pgn::{Notation, PgnContext};
use shuai_tools::runner::{run_match, summary, MatchConfig};
use shuai_tools::spec::{EngineConfig, EngineSpec};
use shuai_tools::stats::Sprt;
use std::path::PathBuf;

/// The arguments of `match`.
#[derive(clap::Args)]
pub struct Args {
    /// Engine: name=A,cmd=PATH,proto=uci|ucci|uci1[,dir=DIR][,args=ARGS][,depth=N|nodes=N][,opt.NAME=VALUE…]. Give it twice. depth=/nodes= give that engine its own fixed limit per move instead of the match's (e.g. an anchor at fixed depth).
    #[arg(long = "engine", required = true, num_args = 1)]
    engines: Vec<String>,
    /// JSON file describing engines by name ({"engines": [{"name", "cmd", "proto", "dir", "args", "options"}]}).
    #[arg(long)]
    config: Option<PathBuf>,
    #[command(flatten)]
    limit: LimitArgs,
    /// Openings: EPD/FEN lines, each optionally followed by moves (default: the built-in balanced book).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Number of games (each opening is played twice, colours reversed).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Seed of the opening order (default: from the clock; printed).
    #[arg(long)]
    seed: Option<u64>,
    /// Write the games here (PGN, Xiangqi FEN headers, ICCS moves).
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Move notation in the PGN: iccs (Chinese in comments) or chinese.
    #[arg(long, default_value = "iccs")]
    pgn_notation: String,
    /// Write the results here as JSON.
    #[arg(long)]
    json: Option<PathBuf>,
    /// SPRT: elo0=0,elo1=5,alpha=0.05,beta=0.05[,model=normalized|logistic].
    #[arg(long, num_args = 1..)]
    sprt: Option<Vec<String>>,
    /// Grace margin over the clock, milliseconds.
    #[arg(long, default_value_t = 100)]
    timemargin: u64,
    /// Longest wait for a move without a clock (depth, nodes), milliseconds.
    #[arg(long, default_value_t = 60_000)]
    timeout: u64,
    /// Wait after `stop` before an engine is killed, milliseconds.
    #[arg(long, default_value_t = 1000)]
    stop_grace: u64,
    /// Maximum game length in plies after the book (0: none); longer games are drawn.
    #[arg(long, default_value_t = 600)]
    max_plies: u32,
    /// Natural-move limit in plies without a capture.
    #[arg(long, default_value_t = 120)]
    natural_limit: u32,
    /// The repetition rules the referee judges by: chinese (the default) or asian (tell the engines too, e.g. opt.Repetition Rules=asian for Shuai).
    #[arg(long, default_value_t = RuleBook::Chinese, value_name = "chinese|asian")]
    rules: RuleBook,
    /// Draw when neither side has a piece able to cross the river.
    #[arg(long)]
    insufficient_material: bool,
    /// Resign adjudication: movecount=N,score=CP (both engines agree for N moves each).
    #[arg(long)]
    resign: Option<String>,
    /// Draw adjudication: movenumber=M,movecount=N,score=CP.
    #[arg(long)]
    draw: Option<String>,
    /// PGN [Event] tag.
    #[arg(long, default_value = "shuai-tools match")]
    event: String,
    /// Log all engine communication to this file.
    #[arg(long)]
    debug_log: Option<PathBuf>,
    /// No progress line on stderr.
    #[arg(long)]
    no_progress: bool,
}

/// Plays the match and prints its summary (and writes the JSON report).
pub fn run(a: Args) -> Result<(), String> {
    let config = a.config.as_deref().map(EngineConfig::load).transpose()?;
    if a.engines.len() != 2 {
        return Err(format!(
            "a match needs two --engine, got {}",
            a.engines.len()
        ));
    }
    let e0 = EngineSpec::parse(&a.engines[0], config.as_ref())?;
    let e1 = EngineSpec::parse(&a.engines[1], config.as_ref())?;
    if e0.name == e1.name {
        return Err(format!(
            "both engines are named '{}'; give them different name=",
            e0.name
        ));
    }
    let limit = a.limit.limit()?;
    let seed = a.seed.unwrap_or_else(|| {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        (t ^ (std::process::id() as u64).rotate_left(32)) % 1_000_000_000
    });
    let (book, book_name) = load_openings(a.openings.as_deref())?;
    let sprt = match &a.sprt {
        Some(v) => Some(Sprt::parse(&v.join(","))?),
        None => None,
    };
    let notation = match a.pgn_notation.as_str() {
        "iccs" => Notation::Iccs,
        "chinese" => Notation::Chinese,
        other => return Err(format!("--pgn-notation {other}: expected iccs or chinese")),
    };
    let cfg = MatchConfig {
        engines: [e0, e1],
        game: GameConfig {
            limit,
            own_limits: [None, None],
            margin_ms: a.timemargin,
            timeout_ms: a.timeout,
            stop_grace_ms: a.stop_grace,
            rules: RuleOptions {
                natural_limit_plies: a.natural_limit,
                insufficient_material_draw: a.insufficient_material,
                ..RuleOptions::with_book(a.rules)
            },
            max_plies: a.max_plies,
            resign: a.resign.as_deref().map(ResignRule::parse).transpose()?,
            draw: a.draw.as_deref().map(DrawRule::parse).transpose()?,
        },
        openings: openings::shuffled(book, seed),
        book_name,
        games: a.games,
        concurrency: a.concurrency.max(1),
        seed,
        sprt,
        pgn: a.pgn.map(|p| {
            (
                p,
                PgnContext {
                    event: a.event.clone(),
                    date: shuai_tools::pgn::today(),
                    time_control: limit.to_string(),
                    notation,
                    rules: a.rules,
                },
            )
        }),
        debug_log: a.debug_log,
        progress: !a.no_progress,
    };
    eprintln!(
        "{} vs {}: {} games, {}, concurrency {}, book {} ({} openings), seed {}",
        cfg.engines[0].name,
        cfg.engines[1].name,
        cfg.games,
        limit,
        cfg.concurrency,
        cfg.book_name,
        cfg.openings.len(),
        seed
    );
    let report = run_match(&cfg)?;
    print!("{}", summary(&report));
    if let Some(p) = &a.json {
        write_json(p, &report)?;
    }
    Ok(())
}
