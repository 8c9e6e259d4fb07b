//! The `shuai` command line: with no subcommand it speaks UCCI/UCI on
//! stdin/stdout; subcommands are tools for people at a terminal.

use crate::engine::{EvalNetwork, EvalWeights};
use clap::{Parser, Subcommand};
use shuai_board::rules::{RuleBook, RuleOptions};
use shuai_board::Position;
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

/// Shuai (帅), a Xiangqi engine. With no subcommand it waits for UCCI or UCI
/// commands on standard input, as GUIs and match runners expect.
#[derive(Parser, Debug)]
#[command(
    name = "shuai",
    version,
    about = "Shuai (帅), a Xiangqi (Chinese chess) engine",
    long_about = None,
    after_help = "\
With no command, Shuai speaks UCCI, UCI and XBoard on standard input and output, as
GUIs expect (add this program to a GUI as a UCCI, UCI or XBoard engine); at a
terminal it prints a short help first.

Examples:
  shuai analyze --moves 炮二平五 马8进7 --depth 14
  shuai play --side black --movetime 3000
  shuai judge --moves \"h2e2 h9g7\""
)]
pub struct Cli {
    /// What to do; none means the protocol loop.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Analyse a position: the board, then a line per depth with the score
    /// and the main line in Chinese notation.
    ///
    /// Each completed depth prints its score (centipawns or mate in N) with a
    /// win/draw/loss estimate, nodes, speed, time and the main line in
    /// Chinese notation with ICCS beside it. At a terminal a live line on
    /// standard error shows the move being searched. Enter or Ctrl-C stops
    /// the search and prints the best line.
    #[command(visible_alias = "analyse")]
    Analyze(crate::terminal::analyze::AnalyzeArgs),
    /// Play a game against the engine: moves in ICCS or Chinese notation.
    ///
    /// The board is redrawn after every move; checks, mates, stalemates and
    /// the repetition and natural-move-limit verdicts are announced with
    /// their reasons. At the prompt: a move (h2e2 or 炮二平五), undo, hint,
    /// fen, board, moves, help or quit.
    Play(crate::terminal::play::PlayArgs),
    /// Review a game from a file (XQF, PGN or DhtmlXQ): every position
    /// searched, each move scored and marked by the winning chance it gave
    /// away (?! ? ??), a summary per side; optionally an annotated PGN and
    /// a graph of the evaluation (SVG).
    Review(crate::terminal::review::ReviewArgs),
    /// List the moves opening books give for a position: weights, shares
    /// and (where the book keeps them) games won, drawn and lost, in
    /// Chinese notation with ICCS beside.
    ///
    /// Reads ElephantEye BOOK.DAT, BHGUI .obk and Pengfei .pfBook books;
    /// the position is also looked up as its mirror, as engines and GUIs
    /// do, and moves that are not legal in it are left out.
    Book(crate::terminal::book::BookArgs),
    /// Endgame tables: `probe` prints a position's value (win, draw or
    /// loss, the distance to mate) and the line of best play in Chinese
    /// notation. The tables' directory is `--egtb DIR` or `SHUAI_EGTB`.
    Egtb {
        /// What to do with the tables.
        #[command(subcommand)]
        command: crate::terminal::egtb::EgtbCommand,
    },
    /// Count leaf nodes of the legal move tree (prints one line per root move,
    /// then `Nodes searched: N`).
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Position to start from (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Moves (ICCS, space separated) to play from that position first.
        #[arg(long)]
        moves: Option<String>,
    },
    /// Search the fixed bench positions to a fixed depth on one thread and
    /// print the total nodes and speed (the node total is the search's
    /// signature).
    Bench {
        /// Search depth.
        #[arg(default_value_t = shuai_search::bench::DEFAULT_DEPTH)]
        depth: u32,
        /// Search threads (the node total is only reproducible with 1).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Evaluate with the hand-written evaluation instead of the
        /// network (the engine's default); the node total is then
        /// another signature.
        #[arg(long, conflicts_with = "evalfile")]
        hce: bool,
        /// A network file (as `shuai-tools train` writes it) instead of
        /// the embedded one.
        #[arg(long, value_name = "FILE")]
        evalfile: Option<String>,
    },
    /// Print every term of the static evaluation for both sides.
    Eval {
        /// The position (a FEN in quotes, or `startpos`; default: start).
        fen: Option<String>,
        /// Moves (ICCS, space separated) to play from that position first.
        #[arg(long)]
        moves: Option<String>,
        /// A weights table (as `shuai-tools tune` writes it) to evaluate
        /// with instead of the built-in weights.
        #[arg(long)]
        weights: Option<String>,
        /// Also print the NNUE network's score (the embedded network
        /// unless --evalfile names another) and which network it is.
        #[arg(long)]
        nnue: bool,
        /// A network file (as `shuai-tools train` writes it) to score
        /// with; implies --nnue.
        #[arg(long, value_name = "FILE")]
        evalfile: Option<String>,
    },
    /// Judge the final position of a game by the rules: mate, stalemate,
    /// repetition (perpetual check, chase, mate threat) or the natural-move
    /// limit. Prints `verdict: win|loss|draw|none` for the side to move and
    /// `reason: …`.
    Judge {
        /// The position the moves start from (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// The moves played since (ICCS, space separated).
        #[arg(long)]
        moves: Option<String>,
        /// Plies without a capture that draw the game.
        #[arg(long, default_value_t = shuai_board::rules::DEFAULT_NATURAL_LIMIT_PLIES)]
        natural_limit: u32,
        /// The repetition rules: chinese (the default) or asian.
        #[arg(long, default_value_t = RuleBook::Chinese, value_name = "chinese|asian")]
        rules: RuleBook,
    },
}

const BANNER: &str = "\
Shuai (帅) — a Xiangqi engine.
  Analyse:  shuai analyze [FEN|startpos] [--moves 炮二平五 马8进7] [--depth N]   (Enter stops)
  Play:     shuai play [--side red|black] [--movetime MS]
  Books:    shuai book BOOK.DAT [FEN|startpos] [--moves 炮二平五]
  Review:   shuai review GAME.xqf|.pgn [--movetime MS] [--graph OUT.svg] [--pgn OUT.pgn]
  Tables:   shuai egtb probe [FEN] --egtb DIR   (or SHUAI_EGTB=DIR)
  Also:     shuai eval | perft | judge | bench      ·   shuai <command> --help
  From a GUI: add this program as a UCCI, UCI or XBoard engine; it speaks all three.
  Here it now waits for protocol commands: 'ucci' or 'uci', then e.g.
  'position startpos moves h2e2' and 'go depth 8'. 'quit' leaves.";

/// Parses the arguments and runs; returns the process exit code.
pub fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    match cli.command {
        None => {
            if io::stdin().is_terminal() {
                eprintln!("{BANNER}");
            }
            let ended = crate::protocol::run(io::stdin(), io::stdout());
            // A `stats` build: the shape of every search of the session.
            if let Some(shape) = shuai_search::shape::TreeShape::read() {
                eprint!("{}", shape.report());
            }
            match ended {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    log::error!("I/O error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Command::Analyze(args)) => crate::terminal::analyze::run(&args),
        Some(Command::Play(args)) => crate::terminal::play::run(&args),
        Some(Command::Book(args)) => crate::terminal::book::run(&args),
        Some(Command::Review(args)) => crate::terminal::review::run(&args),
        Some(Command::Egtb { command }) => crate::terminal::egtb::run(&command),
        Some(Command::Bench {
            depth,
            threads,
            hce,
            evalfile,
        }) => {
            let network = match (!hce)
                .then(|| EvalNetwork::load(evalfile.as_deref().unwrap_or("")))
                .transpose()
            {
                Ok(n) => n,
                Err(msg) => {
                    eprintln!("shuai bench: {msg}");
                    return ExitCode::from(2);
                }
            };
            if let Some(n) = &network {
                eprintln!("evaluation: {}", network_summary(n));
            }
            let network = network.map(|n| n.network);
            let result = shuai_search::bench::run(depth, threads, network, |i, best, nodes| {
                eprintln!("position {:>2}: bestmove {best} nodes {nodes}", i + 1);
            });
            if let Some(shape) = shuai_search::shape::TreeShape::read() {
                eprint!("{}", shape.report());
            }
            println!("{} nodes {} nps", result.nodes, result.nps());
            ExitCode::SUCCESS
        }
        Some(Command::Eval {
            fen,
            moves,
            weights,
            nnue,
            evalfile,
        }) => {
            let fen = fen.filter(|f| f != "startpos");
            let weights = EvalWeights::load(weights.as_deref().unwrap_or(""));
            let network = (nnue || evalfile.is_some())
                .then(|| EvalNetwork::load(evalfile.as_deref().unwrap_or("")))
                .transpose();
            let setup = || setup(fen.as_deref(), moves.as_deref());
            match weights.and_then(|w| Ok((w, network?, setup()?))) {
                Ok((w, network, pos)) => {
                    println!("{}", shuai_eval::trace_with(&pos, &w.weights));
                    if let Some(n) = network {
                        print!("{}", network_text(&n, &pos));
                    }
                    ExitCode::SUCCESS
                }
                Err(msg) => {
                    eprintln!("shuai eval: {msg}");
                    ExitCode::from(2)
                }
            }
        }
        Some(Command::Judge {
            fen,
            moves,
            natural_limit,
            rules,
        }) => match setup(fen.as_deref(), moves.as_deref()) {
            Ok(pos) => {
                print!("{}", judge_text(&pos, natural_limit, rules));
                ExitCode::SUCCESS
            }
            Err(msg) => {
                eprintln!("shuai judge: {msg}");
                ExitCode::from(2)
            }
        },
        Some(Command::Perft { depth, fen, moves }) => {
            let mut pos = match setup(fen.as_deref(), moves.as_deref()) {
                Ok(p) => p,
                Err(msg) => {
                    eprintln!("shuai perft: {msg}");
                    return ExitCode::from(2);
                }
            };
            let stdout = io::stdout();
            let mut out = stdout.lock();
            let mut failure = None;
            let never = std::sync::atomic::AtomicBool::new(false);
            crate::perft::run(&mut pos, depth, &never, &mut |line| {
                if failure.is_none() {
                    failure = writeln!(out, "{line}").and_then(|_| out.flush()).err();
                }
            });
            match failure {
                None => ExitCode::SUCCESS,
                Some(e) => {
                    eprintln!("shuai perft: {e}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}

/// Builds a position from an optional FEN and an optional move list.
/// A composed position (one no game can reach) is accepted with a warning
/// on stderr.
pub fn setup(fen: Option<&str>, moves: Option<&str>) -> Result<Position, String> {
    let mut pos = match fen {
        None => Position::startpos(),
        Some(f) => {
            let (pos, warning) =
                crate::fen::read_fen(f).map_err(|e| format!("invalid FEN: {e}"))?;
            if let Some(w) = warning {
                eprintln!("shuai: {w}");
            }
            pos
        }
    };
    for text in moves.unwrap_or("").split_whitespace() {
        let m = pos.parse_move(text).map_err(|e| e.to_string())?;
        pos.make_move(m);
    }
    Ok(pos)
}

/// Which network `n` is, on one line: where it came from, its hash and
/// architecture, and its description.
fn network_summary(n: &EvalNetwork) -> String {
    format!(
        "NNUE network {:016x} {} from {}: {}",
        n.network.hash(),
        n.network.architecture(),
        n.source(),
        n.network.description()
    )
}

/// What `shuai eval --nnue` adds below the hand-written terms: the
/// network, then its score from Red's view and the side to move's.
pub fn network_text(n: &EvalNetwork, pos: &Position) -> String {
    let score = n.network.evaluate(pos);
    let (red, side) = match pos.side_to_move() {
        shuai_board::Color::Red => (score, "Red"),
        shuai_board::Color::Black => (-score, "Black"),
    };
    format!(
        "{}\nNNUE (Red's view): {red:+}\nNNUE ({side} to move): {score:+}\n",
        network_summary(n)
    )
}

/// The two lines `shuai judge` prints for the final position of `pos`.
pub fn judge_text(pos: &Position, natural_limit: u32, book: RuleBook) -> String {
    let opts = RuleOptions {
        natural_limit_plies: natural_limit,
        ..RuleOptions::with_book(book)
    };
    match shuai_board::rules::judge_game_end_with(pos, &opts) {
        Some(v) => format!("verdict: {}\nreason: {}\n", v.result, v),
        None => "verdict: none\nreason: the game goes on: no mate or stalemate, no position \
                 occurred three times, and the natural-move limit is not reached\n"
            .to_string(),
    }
}
