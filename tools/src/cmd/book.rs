//! `shuai-tools book`: opening books. `book build` makes an `.obk` opening
//! book from games; `book openings` (also the bare `book --input …` of
//! before the subcommands) the balanced openings file of `match`.

use super::read_network;
use shuai_tools::book_build::{self, BookPosition, CheckConfig, Tree};
use shuai_tools::{book, openings, progress};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// The arguments of `book`: a subcommand, or the flags of `book openings`
/// (the command's form before `build` existed, kept working).
#[derive(clap::Args)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    arg_required_else_help = true
)]
pub struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    openings: Option<OpeningsArgs>,
}

/// The subcommands of `book`.
#[derive(clap::Subcommand)]
enum Command {
    /// Build an opening book (.obk, for Shuai and BHGUI) from games: PGN in ICCS or Chinese notation, or match --json reports.
    #[command(long_about = BUILD_ABOUT)]
    Build(BuildArgs),
    /// Build the balanced openings file for `match` (what `book --input … --out …` did before).
    Openings(OpeningsArgs),
}

const BUILD_ABOUT: &str = "\
Build an opening book (.obk, for Shuai and BHGUI) from games.

Reads PGN (ICCS moves like h2e2 or H2-E2, or Chinese notation like 炮二平五; a [FEN] tag or the start position; the [Result]) or the JSON report of `shuai-tools match --json`. Counts each move played before --max-ply with the games won, drawn and lost by the side playing it (a position and its left-right mirror count as one), keeps the moves of at least --min-games games, searches each position and each kept move to --depth, drops the moves that score more than --margin centipawns below the position's best, and writes the rest with vwin/vdraw/vlost and vscore = 2·wins + draws (their weight).";

/// The arguments of `book build`.
#[derive(clap::Args)]
pub struct BuildArgs {
    /// Game files: PGN (ICCS or Chinese notation) or match --json reports.
    #[arg(required = true)]
    games: Vec<PathBuf>,
    /// The book to write (BHGUI .obk, an SQLite file; replaced if it exists).
    #[arg(long)]
    out: PathBuf,
    /// Count the moves of positions before this game ply (0 = the start position's move).
    #[arg(long, default_value_t = 20)]
    max_ply: u32,
    /// Keep moves played in at least this many games.
    #[arg(long, default_value_t = 3)]
    min_games: u32,
    /// Search depth of the check (0: no search check).
    #[arg(long, default_value_t = 8)]
    depth: u32,
    /// Drop moves the search scores more than this many centipawns below the best.
    #[arg(long, default_value_t = 50)]
    margin: i32,
    /// Hash table of the check's search, MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// The check's evaluation: a network file (`train` output), `embedded` (the default: the engine's network) or `none` (the hand-written evaluation).
    #[arg(long, default_value = "embedded")]
    network: String,
    /// No progress line on stderr.
    #[arg(long)]
    no_progress: bool,
}

/// The arguments of `book openings`.
#[derive(clap::Args)]
pub struct OpeningsArgs {
    /// Input positions (EPD/FEN lines, optionally with moves).
    #[arg(long)]
    input: PathBuf,
    /// Output file.
    #[arg(long)]
    out: PathBuf,
    /// Search depth.
    #[arg(long, default_value_t = 10)]
    depth: u32,
    /// Keep positions scored within this many centipawns of equal.
    #[arg(long, default_value_t = 40)]
    margin: i32,
    /// Keep only positions with one side ahead by at least this many
    /// centipawns (and at most --margin): an unbalanced book.
    #[arg(long, default_value_t = 0)]
    min_margin: i32,
    /// Positions to keep.
    #[arg(long, default_value_t = 250)]
    count: usize,
    /// Shuffle seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Hash table, MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// A line for the output's header (repeatable), e.g. where the input came from.
    #[arg(long)]
    note: Vec<String>,
}

/// Runs the subcommand (`openings` for the bare flags).
pub fn run(a: Args) -> Result<(), String> {
    match (a.command, a.openings) {
        (Some(Command::Build(b)), _) => build(b),
        (Some(Command::Openings(o)), _) | (None, Some(o)) => openings(o),
        (None, None) => Err("book: give a subcommand (build, openings); see book --help".into()),
    }
}

/// How many skipped games of a file are named one by one.
const SKIPPED_SHOWN: usize = 10;

/// `book build`: reads, counts, checks and writes, saying what it did.
fn build(a: BuildArgs) -> Result<(), String> {
    let started = Instant::now();
    let network = match a.network.as_str() {
        "none" => None,
        "embedded" => Some(shuai_eval::nnue::shared_default_network()),
        file => Some(Arc::new(read_network(file.as_ref())?)),
    };
    let mut tree = Tree::default();
    let mut skipped = 0;
    for path in &a.games {
        let file = book_build::read_games(&read_games_text(path)?)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        for s in file.skipped.iter().take(SKIPPED_SHOWN) {
            eprintln!("{}: skipped {s}", path.display());
        }
        if file.skipped.len() > SKIPPED_SHOWN {
            eprintln!(
                "{}: skipped {} more games",
                path.display(),
                file.skipped.len() - SKIPPED_SHOWN
            );
        }
        skipped += file.skipped.len();
        for g in &file.games {
            tree.add_game(g, a.max_ply);
        }
    }
    let mut positions = tree.select(a.min_games);
    let moves: usize = positions.iter().map(|p| p.moves.len()).sum();
    eprintln!(
        "{} games read ({skipped} skipped); {} positions before ply {}; {} positions, {moves} moves played in at least {} games",
        tree.games(),
        tree.positions(),
        a.max_ply,
        positions.len(),
        a.min_games
    );
    if a.depth > 0 {
        check(&mut positions, &a, network);
    }
    let (written, rows) = book_build::write_obk(&positions, &a.out)?;
    println!(
        "{}: {written} positions, {rows} moves ({:.0} s)",
        a.out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// A game file's text; a file that is not UTF-8 gets a hint, as Chinese
/// game collections are often in GBK.
fn read_games_text(path: &std::path::Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{}: not UTF-8 text (byte {}); Chinese game files are often GBK: convert with iconv -f gbk -t utf-8",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

/// The search check, with a progress line and one line per dropped move.
fn check(
    positions: &mut [BookPosition],
    a: &BuildArgs,
    network: Option<Arc<shuai_eval::nnue::Network>>,
) {
    let cfg = CheckConfig {
        depth: a.depth,
        margin: a.margin,
        hash_mb: a.hash,
        network,
    };
    let mut bar = progress::Progress::new(positions.len(), !a.no_progress);
    book_build::check(positions, &cfg, &mut |n, _| {
        bar.update(n, "positions checked")
    });
    bar.finish();
    let mut dropped = 0;
    for p in positions.iter() {
        let Some((best, best_score)) = p.best else {
            continue;
        };
        for m in p.moves.iter().filter(|m| m.dropped) {
            dropped += 1;
            eprintln!(
                "dropped {} {} ({} games, score {}) in {}: best {} {} ({best_score})",
                m.mv,
                p.pos.to_chinese(m.mv),
                m.wdl.games(),
                m.score.map_or("-".to_string(), |s| s.to_string()),
                p.pos.to_fen(),
                best,
                p.pos.to_chinese(best)
            );
        }
    }
    eprintln!(
        "search check (depth {}, margin {} cp): {dropped} moves dropped",
        a.depth, a.margin
    );
}

/// `book openings`: builds the balanced openings file, with a progress
/// line on stderr, and writes it.
fn openings(a: OpeningsArgs) -> Result<(), String> {
    let input = openings::load(&a.input)?;
    if a.min_margin < 0 || a.min_margin > a.margin {
        return Err(format!(
            "book openings: --min-margin must be from 0 to --margin ({}), got {}",
            a.margin, a.min_margin
        ));
    }
    let cfg = book::BookConfig {
        depth: a.depth,
        margin: a.margin,
        min_margin: a.min_margin,
        count: a.count,
        seed: a.seed,
        hash_mb: a.hash,
        notes: a.note.clone(),
    };
    let started = Instant::now();
    let mut examined = 0;
    let entries = book::build(input, &cfg, &mut |n, k| {
        examined = n;
        if n % 10 == 0 {
            eprint!(
                "\rexamined {n}, kept {k}/{} ({})",
                cfg.count,
                progress::hms(started.elapsed().as_secs())
            );
        }
    });
    eprintln!();
    let mut f = std::fs::File::create(&a.out)
        .map_err(|e| format!("cannot create {}: {e}", a.out.display()))?;
    let source = a
        .input
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    book::write(&mut f, &entries, &cfg, &source, examined, started)
        .map_err(|e| format!("cannot write {}: {e}", a.out.display()))?;
    eprintln!("kept {} of {examined} positions", entries.len());
    Ok(())
}
