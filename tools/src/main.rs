//! `shuai-tools`: match runner, test-suite runner, opening-book builder.

use clap::{ArgGroup, Args, Parser, Subcommand};
use shuai_board::rules::{RuleBook, RuleOptions};
use shuai_tools::data::{self, Format};
use shuai_tools::datagen::{self, DatagenConfig};
use shuai_tools::engine::Engine;
use shuai_tools::fake::{self, FakeConfig, Mode};
use shuai_tools::game::{DrawRule, GameConfig, ResignRule};
use shuai_tools::openings::{self, DEFAULT_BOOK, DEFAULT_BOOK_NAME};
use shuai_tools::pgn::{Notation, PgnContext};
use shuai_tools::runner::{run_match, summary, MatchConfig};
use shuai_tools::spec::{EngineConfig, EngineSpec};
use shuai_tools::stats::Sprt;
use shuai_tools::suite::{self, SuiteConfig, SuiteReport};
use shuai_tools::tc::Limit;
use shuai_tools::tune::{self, TuneConfig};
use shuai_tools::{book, progress};
use shuai_tools::{rustgen, spsa};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "shuai-tools",
    version,
    about = "Shuai development tools: Xiangqi engine matches with rules adjudication and SPRT, test suites, opening books"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Args, Clone)]
#[command(group(ArgGroup::new("limit").required(true).args(["tc", "nodes", "depth", "movetime"])))]
struct LimitArgs {
    /// Time control: SECONDS[+INC] or MOVES/SECONDS[+INC] (e.g. 10+0.1, 40/60).
    #[arg(long)]
    tc: Option<String>,
    /// Fixed nodes per move.
    #[arg(long)]
    nodes: Option<u64>,
    /// Fixed depth per move.
    #[arg(long)]
    depth: Option<u32>,
    /// Fixed time per move, milliseconds.
    #[arg(long)]
    movetime: Option<u64>,
}

impl LimitArgs {
    fn limit(&self) -> Result<Limit, String> {
        if let Some(tc) = &self.tc {
            return Limit::parse_tc(tc);
        }
        if let Some(n) = self.nodes {
            return Ok(Limit::Nodes(n));
        }
        if let Some(d) = self.depth {
            return Ok(Limit::Depth(d));
        }
        if let Some(ms) = self.movetime {
            return Ok(Limit::MoveTime(ms));
        }
        Err("give one of --tc, --nodes, --depth, --movetime".into())
    }
}

#[derive(Subcommand)]
enum Command {
    /// Play a match between two engines.
    Match(Box<MatchArgs>),
    /// Run a test suite (EPD bm/am/dm against an engine; TSV verdict files by the rules code).
    Suite(SuiteArgs),
    /// Build a balanced opening book with the Shuai search.
    Book(BookArgs),
    /// Self-play training data (quiet positions with scores and game results) for `tune` and NNUE training.
    Datagen(DatagenArgs),
    /// Logistic (Texel) tuning of the evaluation weights on `datagen` data.
    Tune(TuneArgs),
    /// Train the engine's neural network (NNUE) on `datagen` positions, on the CPU.
    Train(Box<TrainArgs>),
    /// Training-data files: statistics, text/binary conversion, shuffling, splitting by game, deduplication.
    #[command(long_about = DATA_ABOUT)]
    Data {
        #[command(subcommand)]
        command: DataCommand,
    },
    /// Write a weights table as the Rust source of `Weights::DEFAULT`.
    WeightsRs(WeightsRsArgs),
    /// Tune the search's constants (search/src/params.rs) by SPSA with games between perturbed settings; resumable.
    #[command(long_about = SPSA_ABOUT)]
    Spsa(Box<SpsaArgs>),
    /// A scripted fake engine for tests.
    #[command(hide = true)]
    FakeEngine(FakeArgs),
}

#[derive(Args)]
struct MatchArgs {
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

const SPSA_ABOUT: &str = "Tune the search's constants (the table in search/src/params.rs) by SPSA.

Each iteration perturbs every tuned constant by ±c_k with a random sign, plays --pairs game pairs
between the two settings (balanced book, colours reversed) and moves each constant along its sign by
the result. The engine must be built with the tune feature, which offers the constants as options:

  cargo build --release --features tune --target-dir target/tune
  shuai-tools spsa --engine cmd=target/tune/release/shuai --nodes 20000 --iterations 2000 \\
      --concurrency 2 --state spsa.json

The state file is written after every iteration; run the same command again to resume. When the run
is done (or with --show at any time) it prints the changed rows as a patch of the table;
--write-table search/src/params.rs applies them.";

#[derive(Args)]
struct SpsaArgs {
    /// The engine (same form as for match; name= is optional): a build with the tune feature.
    #[arg(long)]
    engine: String,
    #[command(flatten)]
    limit: LimitArgs,
    /// State file: created on the first run, resumed afterwards.
    #[arg(long)]
    state: PathBuf,
    /// Iterations (a new run only).
    #[arg(long, default_value_t = 1000)]
    iterations: u32,
    /// Game pairs per iteration (a new run only).
    #[arg(long, default_value_t = 1)]
    pairs: u32,
    /// Constants to tune, comma-separated (a new run only; default: the whole table).
    #[arg(long, value_delimiter = ',')]
    params: Vec<String>,
    /// Seed of the signs and openings (a new run only).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Openings (default: the built-in balanced book).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Print the state and the patch without playing.
    #[arg(long)]
    show: bool,
    /// When done, rewrite the changed rows in this copy of search/src/params.rs.
    #[arg(long)]
    write_table: Option<PathBuf>,
}

#[derive(Args)]
struct SuiteArgs {
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

#[derive(Args)]
struct DatagenArgs {
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

const DATA_ABOUT: &str = "Training-data files: statistics, text/binary conversion, shuffling, \
splitting by game, deduplication.

Inputs are read whole into memory, in either format (told apart by the first bytes):
- binary (`.bin`): a header (magic SHUAIPOS, version, record size, game and record \
counts, a note on how the file was made) then 32-byte records, each a position \
with its side to move, search score (cp, Red's view), game outcome (Red's view), \
halfmove clock and a flag on the last position of each game;
- text: `FEN;result;score` lines (result 1.0/0.5/0.0 and score from Red's view), \
a blank line after each game.
Outputs are binary when the name ends in `.bin`, text otherwise, unless --format says.";

#[derive(Subcommand)]
enum DataCommand {
    /// Counts of positions, games, results, side to move, score and piece-count histograms.
    #[command(
        long_about = "Counts over all the files together: positions, games (records flagged as \
the last of their game), results by position and by game, side to move, mean |score|, \
a score histogram (Red's view, cp) and the number of pieces on the board (a phase \
measure). For binary files the header's note and counts are shown too."
    )]
    Stats {
        /// Data files (binary or text).
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Converts text to binary or binary to text.
    #[command(
        long_about = "Reads IN (binary or text) and writes OUT in the format its name implies \
(`.bin`: binary, else text) or --format. Records and game boundaries are kept exactly; \
a text line needs a score (`FEN;result;score`)."
    )]
    Convert {
        /// Input file.
        input: PathBuf,
        /// Output file.
        output: PathBuf,
        /// Output format: binary or text (default: from OUT's name).
        #[arg(long)]
        format: Option<String>,
    },
    /// Concatenates files and shuffles their records in an order fixed by --seed.
    #[command(
        long_about = "Concatenates the inputs in the order given and shuffles all the records \
(Fisher-Yates with the tools' SplitMix64 generator): one seed and one input give one \
output. The records keep their game-end flags, but after a shuffle they no longer \
delimit games: split by game first, then shuffle the training part."
    )]
    Shuffle {
        /// Input files.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// Output file.
        #[arg(long)]
        out: PathBuf,
        /// Shuffle seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Output format: binary or text (default: from the name).
        #[arg(long)]
        format: Option<String>,
    },
    /// Splits a file into training and validation sets by whole games.
    #[command(
        long_about = "Cuts the inputs (one after the other) into games at the records flagged last of their game, puts \
round(fraction × games) games chosen by --seed into --valid and the rest into --train, \
each in the input's order: no game has positions on both sides. Deterministic."
    )]
    Split {
        /// Input files (in game order, as datagen writes them), taken one after the other.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// Training output.
        #[arg(long)]
        train: PathBuf,
        /// Validation output.
        #[arg(long)]
        valid: PathBuf,
        /// Share of the games that go to validation.
        #[arg(long, default_value_t = 0.05)]
        valid_fraction: f64,
        /// Seed choosing the validation games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Output format: binary or text (default: from each name).
        #[arg(long)]
        format: Option<String>,
    },
    /// Drops repeated positions (same pieces and side to move), keeping the first.
    #[command(
        long_about = "Reads the inputs one after the other and keeps the first record of each placement and side to move (the score, \
result and clocks of later repeats are ignored) and reports how many were dropped. When \
a game's last record is dropped, the game's last kept record takes the game-end flag."
    )]
    Dedup {
        /// Input files, taken one after the other.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// Output file.
        #[arg(long)]
        out: PathBuf,
        /// Output format: binary or text (default: from the name).
        #[arg(long)]
        format: Option<String>,
    },
}

#[derive(Args)]
struct WeightsRsArgs {
    /// The weights table (as `tune` writes it).
    #[arg(long)]
    table: PathBuf,
    /// Doc comment of the generated `DEFAULT` (one line per line).
    #[arg(long, default_value = "The weights the engine plays with.")]
    origin: String,
    /// Replace the generated block of this file (eval/src/weights.rs) in
    /// place instead of printing the block; run `cargo fmt` afterwards.
    #[arg(long)]
    write: Option<PathBuf>,
}

#[derive(Args)]
struct TrainArgs {
    /// Training positions (binary or text data files; several are concatenated).
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// Validation positions; without it, `--valid-fraction` of the games of --data are held out.
    #[arg(long, num_args = 1..)]
    valid: Vec<PathBuf>,
    /// Share of the games held out for validation when --valid is not given.
    #[arg(long, default_value_t = 0.05)]
    valid_fraction: f64,
    /// Directory for checkpoints (last.ckpt), networks (epoch-NNN.nnue) and train.log.
    #[arg(long)]
    out: PathBuf,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 30)]
    epochs: u32,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// Starting learning rate (cosine decay to --lr-end).
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Final learning rate.
    #[arg(long, default_value_t = 0.00001)]
    lr_end: f32,
    /// AdamW weight decay (0.1 beat 0.01 on validation loss, tools/README.md).
    #[arg(long, default_value_t = 0.1)]
    weight_decay: f32,
    /// Weight of the search score in the target: λ·sigmoid(score/400) + (1−λ)·result
    /// (1.0 played 75 Elo better than 0.75 on the same data, tools/README.md).
    #[arg(long, default_value_t = 1.0)]
    lambda: f32,
    /// Worker threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Seed of the initial weights, the data order and the validation split.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Use each position mirrored left to right half of the time.
    #[arg(long)]
    mirror: bool,
    /// Output buckets by material: one output row per bucket, chosen by the
    /// pieces on the board besides the kings (1 = no buckets, format version
    /// 2; more = format version 3).
    #[arg(long, default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=shuai_eval::nnue::MAX_OUTPUT_BUCKETS as i64))]
    output_buckets: u32,
    /// Continue from OUT/last.ckpt (same data and flags: the run continues exactly).
    #[arg(long)]
    resume: bool,
    /// Validation positions on which the integer network is compared with the float one each epoch.
    #[arg(long, default_value_t = 20000)]
    compare: usize,
}

#[derive(Args)]
struct TuneArgs {
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

#[derive(Args)]
struct BookArgs {
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

#[derive(Args)]
struct FakeArgs {
    #[arg(long, value_enum, default_value = "good")]
    mode: Mode,
    #[arg(long, default_value_t = 0)]
    after: u32,
    #[arg(long, default_value_t = 1000)]
    delay: u64,
    #[arg(long, default_value_t = 0)]
    score: i32,
    #[arg(long)]
    ranks1: bool,
    #[arg(long, default_value = "")]
    script: String,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let r = match cli.command {
        Command::Match(a) => cmd_match(*a),
        Command::Suite(a) => cmd_suite(a),
        Command::Book(a) => cmd_book(a),
        Command::Datagen(a) => cmd_datagen(a),
        Command::Train(a) => cmd_train(*a),
        Command::Tune(a) => cmd_tune(a),
        Command::Data { command } => cmd_data(command),
        Command::WeightsRs(a) => cmd_weights_rs(a),
        Command::Spsa(a) => cmd_spsa(*a),
        Command::FakeEngine(a) => {
            fake::run(FakeConfig {
                mode: a.mode,
                after: a.after,
                delay_ms: a.delay,
                score: a.score,
                ranks1: a.ranks1,
                script: a.script.split_whitespace().map(str::to_string).collect(),
            });
            Ok(())
        }
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("shuai-tools: {msg}");
            ExitCode::FAILURE
        }
    }
}

fn write_json<T: serde::Serialize>(path: &std::path::Path, value: &T) -> Result<(), String> {
    let text = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    std::fs::write(path, text + "\n").map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn cmd_match(a: MatchArgs) -> Result<(), String> {
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
    let (book, book_name) = match &a.openings {
        Some(p) => (openings::load(p)?, p.display().to_string()),
        None => (
            openings::parse_text(DEFAULT_BOOK)?,
            DEFAULT_BOOK_NAME.to_string(),
        ),
    };
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

fn cmd_suite(a: SuiteArgs) -> Result<(), String> {
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

fn cmd_book(a: BookArgs) -> Result<(), String> {
    let input = openings::load(&a.input)?;
    let cfg = book::BookConfig {
        depth: a.depth,
        margin: a.margin,
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

fn cmd_datagen(a: DatagenArgs) -> Result<(), String> {
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

/// The output format: `--format` or the file name's.
fn out_format(given: &Option<String>, path: &std::path::Path) -> Result<Format, String> {
    Ok(Format::or_from_path(
        given.as_deref().map(Format::parse).transpose()?,
        path,
    ))
}

/// Writes records, saying how many went where.
fn write_records(
    path: &std::path::Path,
    records: &[data::PackedPosition],
    format: &Option<String>,
    note: &str,
) -> Result<(), String> {
    data::write_positions(path, records, out_format(format, path)?, note)?;
    println!("{} positions written to {}", records.len(), path.display());
    Ok(())
}

/// The records of all the files, one file after the other.
fn read_all(files: &[PathBuf]) -> Result<Vec<data::PackedPosition>, String> {
    let mut records = Vec::new();
    for f in files {
        records.extend(data::read_positions(f)?);
    }
    Ok(records)
}

/// The files' names, space-separated.
fn names(files: &[PathBuf]) -> String {
    let v: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    v.join(" ")
}

fn cmd_data(c: DataCommand) -> Result<(), String> {
    match c {
        DataCommand::Stats { files } => {
            let mut stats = data::Stats::default();
            let mut out = std::io::stdout().lock();
            for f in &files {
                if let Some(h) = data::read_header(f)? {
                    // Not println!: `data stats F | head` must not panic.
                    let _ = writeln!(
                        out,
                        "{}: binary v{}, header: {} games, {} records; {}",
                        f.display(),
                        h.version,
                        h.games,
                        h.records,
                        h.note
                    );
                }
                for p in data::read_positions(f)? {
                    stats.add(&p);
                }
            }
            let _ = write!(out, "{stats}");
        }
        DataCommand::Convert {
            input,
            output,
            format,
        } => {
            let records = data::read_positions(&input)?;
            let note = data::read_header(&input)?
                .map(|h| h.note)
                .unwrap_or_else(|| format!("converted from {}", input.display()));
            write_records(&output, &records, &format, &note)?;
        }
        DataCommand::Shuffle {
            inputs,
            out,
            seed,
            format,
        } => {
            let mut records = read_all(&inputs)?;
            data::shuffle(&mut records, seed);
            let note = format!("shuffle --seed {seed} of {}", names(&inputs));
            write_records(&out, &records, &format, &note)?;
        }
        DataCommand::Split {
            inputs,
            train,
            valid,
            valid_fraction,
            seed,
            format,
        } => {
            if !(0.0..=1.0).contains(&valid_fraction) {
                return Err(format!("--valid-fraction {valid_fraction}: expected 0..=1"));
            }
            let records = read_all(&inputs)?;
            let games = data::games(&records).len();
            let (t, v) = data::split_by_game(&records, valid_fraction, seed);
            let note = |part: &str| {
                format!(
                    "split {part} of {} (--valid-fraction {valid_fraction} --seed {seed})",
                    names(&inputs)
                )
            };
            write_records(&train, &t, &format, &note("train"))?;
            write_records(&valid, &v, &format, &note("valid"))?;
            println!(
                "{games} games: {} for training, {} for validation",
                data::games(&t).len(),
                data::games(&v).len()
            );
        }
        DataCommand::Dedup {
            inputs,
            out,
            format,
        } => {
            let mut records = read_all(&inputs)?;
            let before = records.len();
            let dropped = data::dedup(&mut records);
            println!(
                "{dropped} of {before} positions were repeats ({:.2}%)",
                100.0 * dropped as f64 / before.max(1) as f64
            );
            let note = format!("dedup of {}", names(&inputs));
            write_records(&out, &records, &format, &note)?;
        }
    }
    Ok(())
}

fn cmd_train(a: TrainArgs) -> Result<(), String> {
    use shuai_tools::train::{self, checkpoint::Checkpoint, TrainConfig};
    use std::io::Write;
    let all = read_all(&a.data)?;
    let (train_set, valid_set) = if a.valid.is_empty() {
        data::split_by_game(&all, a.valid_fraction, a.seed)
    } else {
        (all, read_all(&a.valid)?)
    };
    eprintln!(
        "{} training positions, {} validation positions",
        train_set.len(),
        valid_set.len()
    );
    std::fs::create_dir_all(&a.out)
        .map_err(|e| format!("cannot create {}: {e}", a.out.display()))?;
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let cfg = TrainConfig {
        epochs: a.epochs,
        batch: a.batch,
        lr: a.lr,
        lr_end: a.lr_end,
        weight_decay: a.weight_decay,
        lambda: a.lambda,
        threads: a.threads,
        seed: a.seed,
        mirror: a.mirror,
        hidden: shuai_eval::nnue::HIDDEN,
        buckets: a.output_buckets as usize,
        out_dir: a.out.clone(),
        command: command.clone(),
    };
    let ckpt_path = a.out.join("last.ckpt");
    let resume = if a.resume && ckpt_path.exists() {
        let c = Checkpoint::load(&ckpt_path)?;
        eprintln!("resuming after epoch {}", c.epochs_done);
        Some(c)
    } else {
        None
    };
    let state = train::start(&cfg, resume)?;
    let log_path = a.out.join("train.log");
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log_path)
        .map_err(|e| format!("cannot open {}: {e}", log_path.display()))?;
    writeln!(log, "# {command}").map_err(|e| e.to_string())?;
    let compare_set = &valid_set[..valid_set.len().min(a.compare)];
    let baseline = format!(
        "hand-written evaluation: valid loss {:.6}",
        train::hand_written_loss(&valid_set, a.lambda)?
    );
    eprintln!("{baseline}");
    writeln!(log, "# {baseline}").map_err(|e| e.to_string())?;
    let n_train = train_set.len();
    // The network's description holds at most 4096 bytes: a command with
    // many data files is cut short.
    let mut short_command = command.clone();
    if short_command.len() > 2000 {
        let mut end = 2000;
        while !short_command.is_char_boundary(end) {
            end -= 1;
        }
        short_command = format!("{}… ({} data files)", &command[..end], a.data.len());
    }
    train::train(&cfg, state, &train_set, &valid_set, &mut |report, state| {
        // The checkpoint first: nothing after it can lose the epoch.
        state.save(&ckpt_path)?;
        let description = format!(
            "{}; epoch {}/{}; {} training positions; valid loss {:.6}; {}",
            shuai_eval::nnue::Network::architecture_for(a.output_buckets as usize),
            report.epoch,
            a.epochs,
            n_train,
            report.valid_loss,
            short_command
        );
        let net = train::quantise(&state.model, &description)?;
        let mut report = report.clone();
        report.quantised = Some(train::compare(&state.model, &net, compare_set, a.lambda)?);
        let net_path = a.out.join(format!("epoch-{:03}.nnue", report.epoch));
        std::fs::write(&net_path, net.to_bytes())
            .map_err(|e| format!("cannot write {}: {e}", net_path.display()))?;
        let line = report.line();
        eprintln!("{line}");
        writeln!(log, "{line}").map_err(|e| format!("cannot write {}: {e}", log_path.display()))?;
        Ok(())
    })?;
    println!("networks in {}", a.out.display());
    Ok(())
}

fn cmd_tune(a: TuneArgs) -> Result<(), String> {
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

/// A text file, or an error naming it.
fn read_text(path: &std::path::Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// A network file, errors naming the file.
fn read_network(path: &std::path::Path) -> Result<shuai_eval::nnue::Network, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    shuai_eval::nnue::Network::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// A weights table from a file, errors naming the file.
fn read_weights(path: &std::path::Path) -> Result<shuai_eval::Weights, String> {
    shuai_eval::Weights::from_table(&read_text(path)?)
        .map_err(|e| format!("{}: {e}", path.display()))
}

fn cmd_weights_rs(a: WeightsRsArgs) -> Result<(), String> {
    let weights = read_weights(&a.table)?;
    let block = rustgen::default_weights_source(&weights, &a.origin);
    match &a.write {
        None => print!("{block}"),
        Some(path) => {
            let updated = rustgen::replace_block(&read_text(path)?, &block)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            std::fs::write(path, updated)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            println!("{} updated; now run cargo fmt", path.display());
        }
    }
    Ok(())
}

fn cmd_spsa(a: SpsaArgs) -> Result<(), String> {
    let mut state = if a.state.exists() {
        let state = spsa::load(&a.state)?;
        eprintln!(
            "resuming {}: iteration {} of {}",
            a.state.display(),
            state.done,
            state.schedule.iterations
        );
        state
    } else {
        let schedule = spsa::Schedule::new(a.iterations, a.pairs);
        let state = spsa::State::new(&a.params, schedule, a.seed)?;
        spsa::save(&a.state, &state)?;
        state
    };
    if !a.show {
        let spec = if a.engine.contains("name=") {
            a.engine.clone()
        } else {
            format!("name=spsa,{}", a.engine)
        };
        let book = match &a.openings {
            Some(p) => openings::load(p)?,
            None => openings::parse_text(DEFAULT_BOOK)?,
        };
        let cfg = spsa::SpsaConfig {
            engine: EngineSpec::parse(&spec, None)?,
            game: GameConfig {
                limit: a.limit.limit()?,
                own_limits: [None, None],
                margin_ms: 100,
                timeout_ms: 60_000,
                stop_grace_ms: 1000,
                rules: RuleOptions::default(),
                max_plies: 600,
                resign: None,
                draw: None,
            },
            book,
            concurrency: a.concurrency.max(1),
            state_path: a.state.clone(),
        };
        spsa::run(&cfg, &mut state)?;
    }
    println!(
        "# SPSA after {} of {} iterations ({} game pairs each), result total {:+}",
        state.done,
        state.schedule.iterations,
        state.schedule.pairs,
        state.results.iter().sum::<i32>()
    );
    for (p, v) in state.values() {
        println!("# {} {v} (table {})", p.name, p.default);
    }
    print!("{}", state.patch());
    if let Some(path) = &a.write_table {
        let source = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let (text, changed) = spsa::apply_to_table(&source, &state)?;
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        eprintln!("{changed} rows changed in {}", path.display());
    }
    Ok(())
}
