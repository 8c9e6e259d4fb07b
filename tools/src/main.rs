//! `shuai-tools`: the command line of Shuai's development tools (matches,
//! test suites, opening books, self-play data, weight tuning, network
//! training, data files, SPSA, the soak and the long analysis). This file only parses the arguments and
//! hands them to the subcommand's module in `cmd`; the work is done by the
//! `shuai_tools` library.

mod cmd;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

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

#[derive(Subcommand)]
enum Command {
    /// Play a match between two engines.
    Match(Box<cmd::matches::Args>),
    /// Run a test suite (EPD bm/am/dm against an engine; TSV verdict files by the rules code).
    Suite(cmd::suite::Args),
    /// Opening books: `book build` makes an .obk book from games, `book openings` the balanced openings of `match`.
    Book(cmd::book::Args),
    /// Self-play training data (quiet positions with scores and game results) for `tune` and NNUE training.
    Datagen(cmd::datagen::Args),
    /// Logistic (Texel) tuning of the evaluation weights on `datagen` data.
    Tune(cmd::tune::Args),
    /// Train the engine's neural network (NNUE) on `datagen` positions, on the CPU.
    Train(Box<cmd::train::Args>),
    /// Training-data files: statistics, text/binary conversion, shuffling, splitting by game, deduplication.
    #[command(long_about = cmd::data::ABOUT)]
    Data {
        #[command(subcommand)]
        command: cmd::data::Command,
    },
    /// Endgame tablebases: generate them (`egtb gen`), check the files (`egtb verify`).
    #[command(long_about = cmd::egtb::ABOUT)]
    Egtb {
        #[command(subcommand)]
        command: cmd::egtb::Command,
    },
    /// Write a weights table as the Rust source of `Weights::DEFAULT`.
    WeightsRs(cmd::weights_rs::Args),
    /// Tune the search's constants (search/src/params.rs) by SPSA with games between perturbed settings; resumable.
    #[command(long_about = cmd::spsa::ABOUT)]
    Spsa(Box<cmd::spsa::Args>),
    /// Hostile-operator soak: games at fast clocks with Threads/Hash changes, pondering and random interjections; counts crashes, hangs, illegal moves, time losses. Resumable.
    #[command(long_about = cmd::soak::ABOUT)]
    Soak(Box<cmd::soak::Args>),
    /// Long `go infinite`: resident memory sampled each minute, the info stream and stop's delay checked.
    Analysis(cmd::analysis::Args),
    /// A scripted fake engine for tests.
    #[command(hide = true)]
    FakeEngine(cmd::fake_engine::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let r = match cli.command {
        Command::Match(a) => cmd::matches::run(*a),
        Command::Suite(a) => cmd::suite::run(a),
        Command::Book(a) => cmd::book::run(a),
        Command::Datagen(a) => cmd::datagen::run(a),
        Command::Train(a) => cmd::train::run(*a),
        Command::Tune(a) => cmd::tune::run(a),
        Command::Data { command } => cmd::data::run(command),
        Command::Egtb { command } => cmd::egtb::run(command),
        Command::WeightsRs(a) => cmd::weights_rs::run(a),
        Command::Spsa(a) => cmd::spsa::run(*a),
        Command::Soak(a) => cmd::soak::run(*a),
        Command::Analysis(a) => cmd::analysis::run(a),
        Command::FakeEngine(a) => cmd::fake_engine::run(a),
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("shuai-tools: {msg}");
            ExitCode::FAILURE
        }
    }
}
