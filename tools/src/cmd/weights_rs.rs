//! `shuai-tools weights-rs`: a weights table as the Rust source of
//! `Weights::DEFAULT`.

use super::{read_text, read_weights};
use shuai_tools::rustgen;
use std::path::PathBuf;

/// The arguments of `weights-rs`.
#[derive(clap::Args)]
pub struct Args {
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

/// Prints the block, or replaces it in `--write`.
pub fn run(a: Args) -> Result<(), String> {
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
