//! `shuai-tools book`: a balanced opening book built with the Shuai search.

use shuai_tools::{book, openings, progress};
use std::path::PathBuf;
use std::time::Instant;

/// The arguments of `book`.
#[derive(clap::Args)]
pub struct Args {
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

/// Builds the book, with a progress line on stderr, and writes it.
pub fn run(a: Args) -> Result<(), String> {
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
