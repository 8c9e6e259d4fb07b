//! `shuai-tools spsa`: SPSA tuning of the search's constants, resumable.

use super::LimitArgs;
use shuai_board::rules::RuleOptions;
use shuai_tools::game::GameConfig;
use shuai_tools::openings::{self, DEFAULT_BOOK};
use shuai_tools::spec::EngineSpec;
use shuai_tools::spsa;
use std::path::PathBuf;

/// The long help of `spsa`.
pub const ABOUT: &str = "Tune the search's constants (the table in search/src/params.rs) by SPSA.

Each iteration perturbs every tuned constant by ±c_k with a random sign, plays --pairs game pairs
between the two settings (balanced book, colours reversed) and moves each constant along its sign by
the result. The engine must be built with the tune feature, which offers the constants as options:

  cargo build --release --features tune --target-dir target/tune
  shuai-tools spsa --engine cmd=target/tune/release/shuai --nodes 20000 --iterations 2000 \\
      --concurrency 2 --state spsa.json

The state file is written after every iteration; run the same command again to resume. When the run
is done (or with --show at any time) it prints the changed rows as a patch of the table;
--write-table search/src/params.rs applies them.";

/// The arguments of `spsa`.
#[derive(clap::Args)]
pub struct Args {
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

/// Runs (or resumes) the tuning unless `--show`, then prints the state and
/// the patch of the table (and applies it with `--write-table`).
pub fn run(a: Args) -> Result<(), String> {
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
