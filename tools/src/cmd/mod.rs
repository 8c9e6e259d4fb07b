//! The subcommands of `shuai-tools`, one module each: its arguments (a
//! clap `Args` struct, or the `Command` enum of `data`) and its `run`
//! function. These modules belong to the binary, not to the `shuai_tools`
//! library, whose modules of the same names do the work; here the
//! arguments are only turned into the library's configurations.
//!
//! The helpers below are shared by several subcommands.

pub mod analysis;
pub mod book;
pub mod data;
pub mod datagen;
pub mod egtb;
pub mod fake_engine;
pub mod matches;
pub mod soak;
pub mod spsa;
pub mod suite;
pub mod train;
pub mod tune;
pub mod weights_rs;

use clap::{ArgGroup, Args};
use shuai_tools::data::{Format, PackedPosition};
use shuai_tools::openings::{self, EpdLine, DEFAULT_BOOK, DEFAULT_BOOK_NAME};
use shuai_tools::tc::Limit;
use std::path::{Path, PathBuf};

/// The move limit of `match` and `spsa`: exactly one of a clock, nodes,
/// depth or time per move.
#[derive(Args, Clone)]
#[command(group(ArgGroup::new("limit").required(true).args(["tc", "nodes", "depth", "movetime"])))]
pub struct LimitArgs {
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
    /// The limit given (clap's required group lets exactly one through).
    pub fn limit(&self) -> Result<Limit, String> {
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

/// The openings of `--openings FILE`, or the built-in balanced book, with
/// the name reports give them.
fn load_openings(path: Option<&Path>) -> Result<(Vec<EpdLine>, String), String> {
    Ok(match path {
        Some(p) => (openings::load(p)?, p.display().to_string()),
        None => (
            openings::parse_text(DEFAULT_BOOK)?,
            DEFAULT_BOOK_NAME.to_string(),
        ),
    })
}

/// Writes `value` to `path` as pretty JSON.
fn write_json<T: serde::Serialize>(path: &Path, value: &T) -> Result<(), String> {
    let text = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    std::fs::write(path, text + "\n").map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The output format: `--format` or the file name's.
fn out_format(given: &Option<String>, path: &Path) -> Result<Format, String> {
    Ok(Format::or_from_path(
        given.as_deref().map(Format::parse).transpose()?,
        path,
    ))
}

/// The records of all the files, one file after the other.
fn read_all(files: &[PathBuf]) -> Result<Vec<PackedPosition>, String> {
    let mut records = Vec::new();
    for f in files {
        records.extend(shuai_tools::data::read_positions(f)?);
    }
    Ok(records)
}

/// A text file, or an error naming it.
fn read_text(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// A weights table from a file, errors naming the file.
fn read_weights(path: &Path) -> Result<shuai_eval::Weights, String> {
    shuai_eval::Weights::from_table(&read_text(path)?)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// A network file, errors naming the file.
fn read_network(path: &Path) -> Result<shuai_eval::nnue::Network, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    shuai_eval::nnue::Network::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}
