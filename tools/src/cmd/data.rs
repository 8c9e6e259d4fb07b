//! `shuai-tools data`: training-data files (statistics, conversion,
//! shuffling, splitting by game, deduplication).

use super::{out_format, read_all};
use shuai_tools::data;
use std::io::Write;
use std::path::PathBuf;

/// The long help of `data`.
pub const ABOUT: &str = "Training-data files: statistics, text/binary conversion, shuffling, \
splitting by game, deduplication.

Inputs are read whole into memory, in either format (told apart by the first bytes):
- binary (`.bin`): a header (magic SHUAIPOS, version, record size, game and record \
counts, a note on how the file was made) then 32-byte records, each a position \
with its side to move, search score (cp, Red's view), game outcome (Red's view), \
halfmove clock and a flag on the last position of each game;
- text: `FEN;result;score` lines (result 1.0/0.5/0.0 and score from Red's view), \
a blank line after each game.
Outputs are binary when the name ends in `.bin`, text otherwise, unless --format says.";

/// The subcommands of `data`.
#[derive(clap::Subcommand)]
pub enum Command {
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

/// The files' names, space-separated.
fn names(files: &[PathBuf]) -> String {
    let v: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    v.join(" ")
}

/// Runs one `data` subcommand.
pub fn run(c: Command) -> Result<(), String> {
    match c {
        Command::Stats { files } => {
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
        Command::Convert {
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
        Command::Shuffle {
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
        Command::Split {
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
        Command::Dedup {
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
