//! `shuai-tools soak`: the hostile-operator soak of an engine against an
//! opponent (the work is in `shuai_tools::soak`).

use super::load_openings;
use shuai_tools::openings;
use shuai_tools::soak::operator::Limits;
use shuai_tools::soak::{run_soak, SoakConfig};
use shuai_tools::spec::{EngineSpec, Protocol};
use shuai_tools::tc::Limit;
use std::path::PathBuf;
use std::time::Duration;

/// What `soak` does, for `--help`.
pub const ABOUT: &str = "Plays games between the engine under test and an opponent at fast \
clocks as a hostile operator would run them: Threads and Hash changed between games, pondering \
(go ponder, ponderhit, stop on a miss), and random isready, stop, ponderhit, setoption and \
position+go while the engine thinks. Counts crashes, hangs (go without bestmove, isready \
without readyok within --isready-limit, stop without bestmove within --stop-grace), illegal \
moves, protocol faults and time losses per clock. Every game, incident (with the last lines \
exchanged) and the totals so far are appended to --log as JSON lines; the same command with \
the same log resumes after the last finished game.";

/// The arguments of `soak`.
#[derive(clap::Args)]
pub struct Args {
    /// The engine under test: cmd=PATH[,name=N][,proto=uci|ucci][,opt.NAME=VALUE…] (as for `match`).
    #[arg(long)]
    engine: String,
    /// The opponent, as for `match` (e.g. cmd=/path/pikafish,opt.Threads=1,opt.Hash=16).
    #[arg(long)]
    opponent: String,
    /// Games in all; a resumed run plays up to this number.
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// Clocks, comma-separated (SECONDS+INC), used in turn by pairs of games.
    #[arg(long, default_value = "1+0.01,3+0.03")]
    tc: String,
    /// Seed of the openings and of every random choice (keep it to resume).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The log (JSON lines), appended to; also where a resumed run starts.
    #[arg(long)]
    log: PathBuf,
    /// Threads is drawn from 1 to this between games.
    #[arg(long, default_value_t = 4)]
    max_threads: u32,
    /// Hash is drawn from the powers of two up to this, MB (and this).
    #[arg(long, default_value_t = 1024)]
    max_hash: u32,
    /// Do not ponder.
    #[arg(long)]
    no_ponder: bool,
    /// Grace margin over the clock before a move is late, milliseconds.
    #[arg(long, default_value_t = 100)]
    timemargin: u64,
    /// Wait for bestmove after stop before it is a hang, milliseconds.
    #[arg(long, default_value_t = 1000)]
    stop_grace: u64,
    /// Wait for readyok after isready before it is a hang, milliseconds.
    #[arg(long, default_value_t = 1000)]
    isready_limit: u64,
    /// Maximum game length in plies after the book (longer games are drawn).
    #[arg(long, default_value_t = 300)]
    max_plies: u32,
    /// Openings: EPD/FEN lines (default: the built-in balanced book).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// No progress line on stderr.
    #[arg(long)]
    no_progress: bool,
}

/// Runs (or resumes) the soak, prints the summary, and fails when the
/// engine under test crashed, hung, played an illegal move or broke the
/// protocol.
pub fn run(a: Args) -> Result<(), String> {
    let clocks =
        a.tc.split(',')
            .map(|t| Limit::parse_tc(t.trim()))
            .collect::<Result<Vec<_>, _>>()?;
    let engine = EngineSpec::parse(&a.engine, None)?;
    if engine.proto != Protocol::Uci {
        // UCCI answers a `stop` that meets an ended search with a
        // `nobestmove`, so the operator's races could not be told from
        // faults.
        return Err("the soak drives the engine under test in UCI (proto=uci)".into());
    }
    let mut opponent = EngineSpec::parse(&a.opponent, None)?;
    if opponent.name == engine.name {
        opponent.name.push_str("-opponent");
    }
    let (book, _) = load_openings(a.openings.as_deref())?;
    let cfg = SoakConfig {
        engine,
        opponent,
        clocks,
        games: a.games,
        seed: a.seed,
        log: a.log,
        max_threads: a.max_threads.max(1),
        max_hash_mb: a.max_hash.max(1),
        ponder: !a.no_ponder,
        limits: Limits {
            isready: Duration::from_millis(a.isready_limit),
            stop_grace: Duration::from_millis(a.stop_grace),
            margin: Duration::from_millis(a.timemargin),
        },
        openings: openings::shuffled(book, a.seed),
        max_plies: a.max_plies,
        progress: !a.no_progress,
    };
    let tally = run_soak(&cfg)?;
    print!("{}", tally.summary());
    if tally.failures() > 0 {
        return Err(format!(
            "{} failures of the engine under test; see the incidents in {}",
            tally.failures(),
            cfg.log.display()
        ));
    }
    Ok(())
}
