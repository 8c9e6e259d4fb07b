//! `shuai egtb probe`: a position's value in the endgame tables, with the
//! line of best play in Chinese notation; and the tables the terminal
//! commands use (`--egtb DIR` or the `SHUAI_EGTB` variable).

use super::{notation, parse_position, side_name, StyleArgs};
use crate::engine::EgtbFiles;
use clap::{Args, Subcommand};
use shuai_board::Position;
use shuai_egtb::{Material, Tablebase, Value};
use std::process::ExitCode;
use std::sync::Arc;

/// The environment variable naming the tables' directory when `--egtb` is
/// not given.
pub const EGTB_ENV: &str = "SHUAI_EGTB";

/// Plies of best play `probe` prints at most (the longest stage-1 mate is
/// 69 plies).
const MAX_LINE_PLIES: usize = 200;

/// The `--egtb` option of the terminal commands.
#[derive(Args, Debug, Clone, Default)]
pub struct EgtbArgs {
    /// Directory of endgame tables (`;` between several); default: the
    /// SHUAI_EGTB environment variable.
    #[arg(long, value_name = "DIR")]
    pub egtb: Option<String>,
}

impl EgtbArgs {
    /// The directories asked for: `--egtb`, else `SHUAI_EGTB`, else none.
    pub fn paths(&self) -> Option<String> {
        self.egtb
            .clone()
            .or_else(|| std::env::var(EGTB_ENV).ok())
            .filter(|p| !p.trim().is_empty())
    }

    /// The tables asked for, `Ok(None)` when none is, or why they cannot
    /// be opened.
    pub fn open(&self) -> Result<Option<Arc<Tablebase>>, String> {
        match self.paths() {
            None => Ok(None),
            Some(p) => Ok(EgtbFiles::open(&p)?.tablebase),
        }
    }
}

/// The `egtb` subcommands.
#[derive(Subcommand, Debug)]
pub enum EgtbCommand {
    /// Print a position's value in the tables (win, draw or loss for the
    /// side to move, by mate or by the perpetual-check rule), the distance
    /// to mate and the line of best play in Chinese notation.
    Probe(ProbeArgs),
}

/// Arguments of `shuai egtb probe`.
#[derive(Args, Debug, Clone)]
#[command(after_help = "\
Examples:
  shuai egtb probe '3k5/9/9/9/9/9/9/9/9/R3K4 w' --egtb /path/to/tables
  SHUAI_EGTB=/path/to/tables shuai egtb probe 4k4/9/9/9/9/9/9/9/4a4/R3K4 w

Exit status: 0 when the position is in a table, 1 when its ending has no
table, 2 for a bad position or a directory that cannot be read.")]
pub struct ProbeArgs {
    /// The position: `startpos` (the default) or a FEN, quoted or as
    /// separate words, optionally followed by `moves m1 m2 …`.
    #[arg(value_name = "FEN|startpos")]
    pub position: Vec<String>,
    /// Moves to play from that position first (ICCS or Chinese notation).
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    pub moves: Vec<String>,
    /// The tables.
    #[command(flatten)]
    pub egtb: EgtbArgs,
    /// Move display.
    #[command(flatten)]
    pub style: StyleArgs,
}

/// Runs `shuai egtb …`.
pub fn run(command: &EgtbCommand) -> ExitCode {
    match command {
        EgtbCommand::Probe(args) => probe(args),
    }
}

/// `shuai egtb probe`: prints the lines of [`probe_text`]; problems go to
/// standard error with exit status 1 (not covered) or 2.
fn probe(args: &ProbeArgs) -> ExitCode {
    let fail = |msg: &str, code: u8| {
        eprintln!("shuai egtb probe: {msg}");
        ExitCode::from(code)
    };
    let pos = match parse_position(&args.position, &args.moves) {
        Ok(p) => p,
        Err(msg) => return fail(&msg, 2),
    };
    let Some(paths) = args.egtb.paths() else {
        return fail(
            &format!("no tables given: use --egtb DIR or set {EGTB_ENV}"),
            2,
        );
    };
    let tb = match EgtbFiles::open(&paths) {
        Ok(EgtbFiles {
            tablebase: Some(tb),
            ..
        }) => tb,
        Ok(_) => return fail("no tables given", 2),
        Err(e) => return fail(&e, 2),
    };
    if tb.is_empty() {
        return fail(&format!("no endgame tables in {paths}"), 2);
    }
    let style = args.style.style();
    let text = probe_text(&pos, &tb, |p, line| notation::line_text(p, line, style));
    let problems = tb.take_errors();
    if !problems.is_empty() {
        return fail(&problems.join("; "), 2);
    }
    match text {
        Some(lines) => {
            print!("{lines}");
            ExitCode::SUCCESS
        }
        None => {
            let (material, _) = Material::of(&pos).canonical();
            fail(
                &format!("the ending {material} is not in the tables in {paths}"),
                1,
            )
        }
    }
}

/// What `shuai egtb probe` prints for `pos`, `None` when its ending has no
/// table: the ending, the side to move, the result with its distance,
/// then the line of best play to mate (for a draw or a rule result, which
/// has no end, the move that keeps it) written by `line`.
pub fn probe_text(
    pos: &Position,
    tb: &Tablebase,
    line: impl Fn(&Position, &[shuai_board::Move]) -> String,
) -> Option<String> {
    let value = tb.probe(pos)?;
    let mut text = format!(
        "ending: {}\nto move: {}\nresult: {value}\n",
        Material::of(pos),
        side_name(pos.side_to_move())
    );
    match value {
        Value::Win(_) | Value::Loss(_) => {
            let moves = tb.line(pos, MAX_LINE_PLIES);
            if !moves.is_empty() {
                text.push_str(&format!("line: {}\n", line(pos, &moves)));
            }
        }
        _ => {
            if let Some((m, _)) = tb.best_move(pos) {
                text.push_str(&format!("best move: {}\n", line(pos, &[m])));
            }
        }
    }
    Some(text)
}

/// The `tablebase: …` line `shuai analyze` prints for a covered root.
pub fn analyze_line(pos: &Position, tb: &Tablebase) -> Option<String> {
    tb.probe(pos).map(|v| format!("tablebase: {v}"))
}
