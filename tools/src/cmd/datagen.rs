//! `shuai-tools datagen`: self-play training data, resumable.

use super::{out_format, read_network, read_text, read_weights};
use shuai_board::rules::RuleBook;
use shuai_tools::data::{self, Format};
use shuai_tools::datagen::{self, DatagenConfig};
use shuai_tools::openings::{self, DEFAULT_BOOK};
use shuai_tools::progress;
use std::path::PathBuf;
use std::time::Instant;

/// The arguments of `datagen`.
#[derive(clap::Args)]
pub struct Args {
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Seed for the openings and random plies.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output file: binary records (`.bin`, see `data --help`) or
    /// `FEN;result;score` lines with a blank line after each game (any
    /// other name); written game by game as games finish.
    #[arg(long)]
    out: PathBuf,
    /// Output format instead of the one the file name implies: binary or text.
    #[arg(long)]
    format: Option<String>,
    /// Continue an interrupted run in the same file: keep its complete
    /// games, cut off the rest and play on from the next game with the same
    /// seed stream (the result is the file an uninterrupted run writes).
    /// Binary files must have been started with the same settings.
    #[arg(long)]
    resume: bool,
    /// No progress line on stderr.
    #[arg(long)]
    no_progress: bool,
    /// Opening book (default: the built-in balanced-openings.epd).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Random plies after the book position (0..=N per game).
    #[arg(long, default_value_t = 4)]
    random_plies: u32,
    /// Plies after which a game is drawn.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Hash table per game, MiB.
    #[arg(long, default_value_t = 4)]
    hash: usize,
    /// Network both sides evaluate with (a `train` output file, or `embedded` for the built-in network) instead of the hand-written evaluation.
    #[arg(long)]
    network: Option<PathBuf>,
    /// The repetition rules that judge the games and that both sides search by: chinese (the default) or asian.
    #[arg(long, default_value_t = RuleBook::Chinese, value_name = "chinese|asian")]
    rules: RuleBook,
    /// Weights table both sides play with (default: the built-in weights).
    #[arg(long)]
    weights: Option<PathBuf>,
}

/// Plays the games (after those already in the file with `--resume`) and
/// says what was written.
pub fn run(a: Args) -> Result<(), String> {
    let book = match &a.openings {
        Some(p) => openings::load(p)?,
        None => openings::parse_text(DEFAULT_BOOK)?,
    };
    let cfg = DatagenConfig {
        games: a.games,
        nodes: a.nodes,
        threads: a.threads,
        seed: a.seed,
        hash_mb: a.hash,
        random_plies: a.random_plies,
        max_plies: a.max_plies,
        natural_limit: 120,
        book,
        weights: std::sync::Arc::new(match &a.weights {
            Some(p) => read_weights(p)?,
            None => shuai_eval::Weights::DEFAULT,
        }),
        network: match &a.network {
            Some(p) if p.as_os_str() == "embedded" => {
                Some(shuai_eval::nnue::shared_default_network())
            }
            Some(p) => Some(std::sync::Arc::new(read_network(p)?)),
            None => None,
        },
        rules: a.rules,
    };
    let format = out_format(&a.format, &a.out)?;
    let resumed = if a.resume {
        existing_games(&a.out, format)?
    } else {
        0
    };
    if resumed > 0 {
        eprintln!("{}: {resumed} complete games, resuming", a.out.display());
    }
    let mut bar = progress::Progress::new(a.games, !a.no_progress)
        .starting_at(resumed)
        .every(std::time::Duration::from_secs(30));
    let start = Instant::now();
    let s = datagen::generate(&cfg, &a.out, format, a.resume, &mut |s| {
        let secs = start.elapsed().as_secs_f64().max(1e-3);
        bar.update(
            s.resumed_games + s.games,
            &format!(
                "games, {} positions, {:.0} pos/s ({:.2} M/h), Red {}-{}-{}",
                s.positions,
                s.positions as f64 / secs,
                s.positions as f64 / secs * 3600.0 / 1e6,
                s.wdl[0],
                s.wdl[1],
                s.wdl[2]
            ),
        );
    })?;
    bar.finish();
    println!(
        "{} games (Red {} wins, {} draws, {} losses), {} positions written to {} in {:.1} s{}",
        s.games,
        s.wdl[0],
        s.wdl[1],
        s.wdl[2],
        s.positions,
        a.out.display(),
        start.elapsed().as_secs_f64(),
        if s.resumed_games > 0 {
            format!(" after the {} games already there", s.resumed_games)
        } else {
            String::new()
        }
    );
    if s.failed > 0 {
        eprintln!(
            "{} games failed (a panic, reported above) and were written as empty games",
            s.failed
        );
    }
    Ok(())
}

/// Complete games already in a datagen output (0 when it does not exist).
fn existing_games(path: &std::path::Path, format: Format) -> Result<usize, String> {
    if !path.exists() {
        return Ok(0);
    }
    Ok(match format {
        Format::Binary => data::read_header(path)?.map_or(0, |h| h.games as usize),
        Format::Text => datagen::text_games(&read_text(path)?).0,
    })
}
