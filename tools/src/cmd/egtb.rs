//! `shuai-tools egtb`: generate endgame tables (`gen`), check the
//! written files against themselves (`verify`), draw positions of a
//! given value from them (`sample`) and list positions with their values
//! for comparison with other tables (`dump`), with the `shuai-egtb` crate.

use clap::{Subcommand, ValueEnum};
use shuai_board::Rng;
use shuai_egtb::{
    file, stage1, stage2, verify, GenProgress, Material, Table, TableSet, Value, Wdl,
};
use shuai_tools::egtb_census::{attackers_of, Census, Tally};
use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The long help of `egtb`.
pub const ABOUT: &str = "Endgame tablebases: `gen` writes one compressed file per ending \
(ENDING.egtb) with the value of every position (win/draw/loss, distance to mate, results by \
the perpetual-check rule); `verify` re-reads the files and checks each position against its \
children; `sample` prints random positions of a given value; `dump` prints positions with \
their values (every one, or a random sample) for comparison with other tables; `convert` \
rewrites files in the block format; `census` ranks the endings games reach. Endings are named KRKAA (Red's pieces, then Black's; H horse, E elephant); `all` \
is stage 1: one rook, horse, cannon or pawn against any advisors and elephants.";

/// The `egtb` subcommands.
#[derive(Subcommand)]
pub enum Command {
    /// Generate tables, smallest first, with every ending they capture into. Endings whose
    /// file is already there and reads back are skipped, so an interrupted run resumes.
    Gen {
        /// An ending (KRKAA), a comma-separated list, `all` (stage 1: one attacking piece) or
        /// `stage2` (two attacking pieces, on one side or one each).
        ending: String,
        /// Where the files go.
        #[arg(long, default_value = "egtb")]
        out: PathBuf,
        /// Worker threads (0: all cores).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        /// Skip endings whose index would have more entries than this.
        #[arg(long)]
        max_entries: Option<usize>,
        /// Skip endings whose generation would hold more memory than this, in MB (3 bytes an
        /// entry of the ending, 2 of each table its captures lead to). Default: the memory
        /// the system reports available when the run starts.
        #[arg(long)]
        max_memory: Option<u64>,
    },
    /// Check written tables: every sampled position's value must be the best of its children's.
    Verify {
        /// An ending, a comma-separated list, `all` or `stage2` (every file of the stage present).
        ending: String,
        /// Where the files are.
        #[arg(long, default_value = "egtb")]
        dir: PathBuf,
        /// Positions per table, spread evenly (0: all).
        #[arg(long, default_value_t = 100_000)]
        sample: usize,
    },
    /// Rewrite table files in the current (block) format, from any format this program reads:
    /// every position's value is checked against the file read before it is replaced. Prints
    /// `ending, entries, bytes before, bytes after, run-length bytes` per table (the last is
    /// the size the version-1 run-length coding gives the same values).
    Convert {
        /// An ending, a comma-separated list, `all` or `stage2` (the files of the list present,
        /// with the endings they capture into).
        ending: String,
        /// Where the files are.
        #[arg(long, default_value = "egtb")]
        dir: PathBuf,
    },
    /// Print random positions of the given value from tables, one FEN per line: test
    /// positions, or openings for a match (`shuai-tools match --openings FILE`).
    Sample {
        /// An ending, or a comma-separated list (positions are drawn from each in turn).
        ending: String,
        /// Where the files are.
        #[arg(long, default_value = "egtb")]
        dir: PathBuf,
        /// How many positions.
        #[arg(long, default_value_t = 100)]
        count: usize,
        /// The value for the side to move.
        #[arg(long, value_enum, default_value_t = Wanted::Any)]
        value: Wanted,
        /// Only wins and losses with a mate at least this many plies away (draws and results
        /// by the perpetual-check rule are left out when this is over 0).
        #[arg(long, default_value_t = 0)]
        min_plies: u16,
        /// Seed of the draw: the same seed and tables give the same positions.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Count the endings games reach: for each game, the material at its first position with
    /// at most two attacking pieces (the most stages 1 and 2 cover), ranked, most frequent
    /// first. `entered` counts that first position (often the middle of an exchange),
    /// `settled` the first one from there that the next move does not change.
    Census {
        /// Game files (PGN, XQF, DhtmlXQ; ICCS, WXF or Chinese moves): each game's main line.
        files: Vec<PathBuf>,
        /// Self-play training records (`datagen` output) to count as games too.
        #[arg(long)]
        data: Vec<PathBuf>,
        /// Only the first N games of each `--data` file (0: all).
        #[arg(long, default_value_t = 0)]
        data_games: usize,
        /// How many endings to list (0: all).
        #[arg(long, default_value_t = 30)]
        top: usize,
        /// Rank by this count.
        #[arg(long, value_enum, default_value_t = RankBy::Entered)]
        by: RankBy,
        /// Leave the advisors and elephants out: one line per set of attackers (`KRKR`,
        /// `KHPK`), all their defender sets together.
        #[arg(long)]
        attackers_only: bool,
        /// Stage-2 endings up to this many entries count as generated in the `generated`
        /// column (egtb/TABLES.md's stage-2 runs went to 50,000,000).
        #[arg(long, default_value_t = 50_000_000)]
        max_entries: usize,
    },
    /// Print positions with their values, one `FEN<TAB>value` line each (value: `draw`,
    /// `win N`, `loss N` in plies to mate, `win-by-rule N`, `loss-by-rule N`): every legal
    /// position of the tables in index order, or a random sample of each.
    Dump {
        /// An ending, or a comma-separated list (their positions one ending after another).
        ending: String,
        /// Where the files are.
        #[arg(long, default_value = "egtb")]
        dir: PathBuf,
        /// Distinct random positions per ending (0: every position, in index order).
        #[arg(long, default_value_t = 0)]
        sample: usize,
        /// Seed of the sample: the same seed and tables give the same positions.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// Which count `egtb census` ranks by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RankBy {
    /// The material of the first position within the tables' reach.
    Entered,
    /// The material where it settles (the next move keeps it).
    Settled,
}

/// The values `egtb sample` looks for, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Wanted {
    /// Wins, by mate or by the perpetual-check rule.
    Win,
    /// Draws.
    Draw,
    /// Losses, by mate or by the perpetual-check rule.
    Loss,
    /// Any legal position.
    Any,
}

impl Wanted {
    fn accepts(self, value: Value, min_plies: u16) -> bool {
        let kind = match self {
            Wanted::Any => true,
            Wanted::Win => value.wdl() == Wdl::Win,
            Wanted::Draw => value.wdl() == Wdl::Draw,
            Wanted::Loss => value.wdl() == Wdl::Loss,
        };
        kind && (min_plies == 0 || value.mate_plies().is_some_and(|n| n >= min_plies))
    }
}

/// Runs a subcommand.
pub fn run(c: Command) -> Result<(), String> {
    match c {
        Command::Gen {
            ending,
            out,
            threads,
            max_entries,
            max_memory,
        } => {
            set_threads(threads)?;
            let memory_mb = max_memory.or_else(available_memory_mb);
            gen(&endings(&ending)?, &out, max_entries, memory_mb)
        }
        Command::Verify {
            ending,
            dir,
            sample,
        } => verify_files(&endings(&ending)?, &dir, sample),
        Command::Convert { ending, dir } => convert(&endings(&ending)?, &dir),
        Command::Sample {
            ending,
            dir,
            count,
            value,
            min_plies,
            seed,
        } => sample(&endings(&ending)?, &dir, count, value, min_plies, seed),
        Command::Dump {
            ending,
            dir,
            sample,
            seed,
        } => dump(&endings(&ending)?, &dir, sample, seed),
        Command::Census {
            files,
            data,
            data_games,
            top,
            by,
            attackers_only,
            max_entries,
        } => census(
            &files,
            &data,
            data_games,
            top,
            by,
            attackers_only,
            max_entries,
        ),
    }
}

/// `egtb census`: reads the games, prints the ranking.
fn census(
    files: &[PathBuf],
    data: &[PathBuf],
    data_games: usize,
    top: usize,
    by: RankBy,
    attackers_only: bool,
    max_entries: usize,
) -> Result<(), String> {
    if files.is_empty() && data.is_empty() {
        return Err("name game files or --data files to count".into());
    }
    let mut c = Census::new();
    let mut from_files = 0u64;
    for path in files {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let games = shuai_engine::game::read_games(&bytes)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        for g in games {
            c.add_game(&g.start, &g.main_line());
            from_files += 1;
        }
    }
    let mut from_data = 0u64;
    for path in data {
        let mut records = shuai_tools::data::read_positions(path)?;
        if data_games > 0 {
            // Cut after the last record of game `data_games`.
            let end = shuai_tools::data::games(&records)
                .get(data_games - 1)
                .map_or(records.len(), |g| g.end);
            records.truncate(end);
        }
        let before = c.games + c.started_within;
        c.add_records(&records);
        from_data += c.games + c.started_within - before;
    }
    let pct = |n: u64, of: u64| 100.0 * n as f64 / of.max(1) as f64;
    println!(
        "# {from_files} games from {} file(s), {from_data} from training data; {} started within \
         the tables' material (left out); {} of {} others reached it ({:.1}%)",
        files.len(),
        c.started_within,
        c.reached,
        c.games,
        pct(c.reached, c.games)
    );
    // Whether an ending has a table: stage 1's all, stage 2's up to
    // `max_entries`; none is needed without attackers (a draw).
    let has_table = |m: &Material| match m.attackers() {
        0 | 1 => true,
        2 => shuai_egtb::index::Layout::new(*m).size() <= max_entries,
        _ => false,
    };
    let count = |t: &Tally| {
        if by == RankBy::Settled {
            t.settled
        } else {
            t.entered
        }
    };
    // Per set of attackers, the counts of its endings that have a table.
    let mut covered: HashMap<Material, u64> = HashMap::new();
    for (m, t) in c.ranking() {
        if has_table(&m) {
            *covered.entry(attackers_of(&m)).or_default() += count(&t);
        }
    }
    if attackers_only {
        c = c.by_attackers();
    }
    let mut ranking = c.ranking();
    if by == RankBy::Settled {
        ranking.sort_by_key(|(m, t)| {
            (
                std::cmp::Reverse(t.settled),
                std::cmp::Reverse(t.entered),
                m.piece_count(),
                *m,
            )
        });
    }
    let shown = if top == 0 { ranking.len() } else { top };
    println!("rank\tending\tentered\tshare\tsettled\tstage\tentries\tgenerated");
    for (rank, (m, t)) in ranking.iter().take(shown).enumerate() {
        let stage = m.attackers();
        // A group's line gives the share of its games whose ending has a
        // table; an ending's line its table's size and whether it is made.
        let (entries, generated) = if attackers_only {
            let share = covered.get(m).copied().unwrap_or(0);
            let generated = match count(t) {
                0 => "-".to_string(),
                n => format!("{:.0}%", pct(share, n)),
            };
            ("-".to_string(), generated)
        } else {
            let entries = shuai_egtb::index::Layout::new(*m).size().to_string();
            let generated = match stage {
                0 => "draw",
                _ if has_table(m) => "yes",
                _ => "no",
            };
            (entries, generated.to_string())
        };
        println!(
            "{}\t{m}\t{}\t{:.1}%\t{}\t{stage}\t{entries}\t{generated}",
            rank + 1,
            t.entered,
            pct(count(t), c.reached),
            t.settled,
        );
    }
    Ok(())
}

/// The text of a value in `egtb dump`: `draw`, `win N`, `loss N`,
/// `win-by-rule N`, `loss-by-rule N` (plies).
fn value_text(value: Value) -> String {
    match value {
        Value::Draw => "draw".to_string(),
        Value::Win(n) => format!("win {n}"),
        Value::Loss(n) => format!("loss {n}"),
        Value::WinByRule(n) => format!("win-by-rule {n}"),
        Value::LossByRule(n) => format!("loss-by-rule {n}"),
    }
}

/// The legal positions of `table` with their values: every one in index
/// order (`sample` 0, or not fewer than the table holds), otherwise
/// `sample` distinct ones drawn at random (in the order drawn).
fn dump_positions(table: &Table, sample: usize, rng: &mut Rng) -> Vec<(String, Value)> {
    let at = |index: usize| {
        let value = table.value_at(index)?;
        let pos = table.layout().position(index)?;
        Some((pos.to_fen(), value))
    };
    if sample == 0 || sample >= table.len() / 3 {
        let mut all: Vec<_> = (0..table.len()).filter_map(at).collect();
        if sample == 0 || sample >= all.len() {
            return all;
        }
        // The first `sample` of a random permutation.
        for i in 0..sample {
            let j = i + rng.index(all.len() - i);
            all.swap(i, j);
        }
        all.truncate(sample);
        return all;
    }
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::with_capacity(sample);
    // A bound on the draws, in case the legal positions are few.
    for _ in 0..sample.saturating_mul(100) {
        if out.len() == sample {
            break;
        }
        let index = rng.index(table.len());
        if seen.insert(index) {
            out.extend(at(index));
        }
    }
    out
}

/// `egtb dump`: positions of each ending with their values, one
/// `FEN<TAB>value` line each; a count per ending on stderr.
fn dump(targets: &[Material], dir: &Path, sample: usize, seed: u64) -> Result<(), String> {
    let mut rng = Rng::new(seed);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for &m in targets {
        let table = file::load(dir, m).map_err(|e| e.to_string())?;
        let rows = dump_positions(&table, sample, &mut rng);
        for (fen, value) in &rows {
            writeln!(out, "{fen}\t{}", value_text(*value)).map_err(|e| e.to_string())?;
        }
        eprintln!("{m}: {} positions", rows.len());
    }
    out.flush().map_err(|e| e.to_string())
}

/// `egtb convert`: each file of `targets` and of the endings they capture
/// into rewritten in the block format, checked first; one line per table
/// and a total.
fn convert(targets: &[Material], dir: &Path) -> Result<(), String> {
    let mut all: Vec<Material> = targets.iter().flat_map(|t| t.closure()).collect();
    all.sort_by_key(|m| (m.piece_count(), *m));
    all.dedup();
    println!("ending\tentries\tbytes_before\tbytes_after\trun_length_bytes");
    let (mut before, mut after, mut run_length, mut tables) = (0u64, 0u64, 0u64, 0);
    for m in all {
        let path = dir.join(file::file_name(&m));
        let Ok(old) = std::fs::read(&path) else {
            continue;
        };
        let table =
            file::decode(&old, Some(m), &path.display().to_string()).map_err(|e| e.to_string())?;
        let new = file::encode(&table);
        let rl = file::encode_run_length(&table).len() as u64;
        if new != old {
            // Every position's value read back from the new bytes before
            // the old file is replaced.
            let back = file::decode(&new, Some(m), "converted").map_err(|e| e.to_string())?;
            let wrong = (0..table.len())
                .find(|&i| table.is_position(i) && back.value_at(i) != table.value_at(i));
            if let Some(i) = wrong {
                return Err(format!(
                    "{m}: index {i} reads back differently; not converted"
                ));
            }
            file::save(&table, dir).map_err(|e| e.to_string())?;
        }
        println!("{m}\t{}\t{}\t{}\t{rl}", table.len(), old.len(), new.len());
        before += old.len() as u64;
        after += new.len() as u64;
        run_length += rl;
        tables += 1;
    }
    eprintln!(
        "{tables} tables: {before} bytes before, {after} after (run-length coding: {run_length})"
    );
    Ok(())
}

/// Random draws per wanted position before an ending is given up on: a
/// value rarer than one in this many positions is reported, not searched
/// for forever.
const SAMPLE_TRIES: usize = 100_000;

/// `egtb sample`: `count` positions of the wanted value, taken from the
/// endings in turn, printed as FENs; a summary on stderr.
fn sample(
    targets: &[Material],
    dir: &Path,
    count: usize,
    wanted: Wanted,
    min_plies: u16,
    seed: u64,
) -> Result<(), String> {
    let tables: Vec<Table> = targets
        .iter()
        .map(|&m| file::load(dir, m).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    let mut rng = Rng::new(seed);
    let mut found = vec![0usize; tables.len()];
    let mut exhausted = vec![false; tables.len()];
    let mut out = std::io::stdout().lock();
    let mut printed = 0;
    let mut turn = 0;
    while printed < count && exhausted.iter().any(|e| !e) {
        let k = turn % tables.len();
        turn += 1;
        if exhausted[k] {
            continue;
        }
        let table = &tables[k];
        let hit = (0..SAMPLE_TRIES).find_map(|_| {
            let index = rng.index(table.len());
            let value = table.value_at(index)?;
            if !wanted.accepts(value, min_plies) {
                return None;
            }
            table.layout().position(index)
        });
        match hit {
            Some(pos) => {
                writeln!(out, "{}", pos.to_fen()).map_err(|e| e.to_string())?;
                found[k] += 1;
                printed += 1;
            }
            None => exhausted[k] = true,
        }
    }
    for (table, n) in tables.iter().zip(&found) {
        eprintln!("{}: {n} positions", table.material());
    }
    if printed < count {
        return Err(format!(
            "only {printed} of {count} positions found (an ending gave none of the \
             wanted value in {SAMPLE_TRIES} random draws)"
        ));
    }
    Ok(())
}

fn set_threads(threads: usize) -> Result<(), String> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .map_err(|e| format!("cannot start the worker threads: {e}"))
}

/// The endings named: `all` (or `stage1`), `stage2`, or a comma-separated
/// list, canonical.
fn endings(text: &str) -> Result<Vec<Material>, String> {
    if text.eq_ignore_ascii_case("all") || text.eq_ignore_ascii_case("stage1") {
        return Ok(stage1());
    }
    if text.eq_ignore_ascii_case("stage2") {
        return Ok(stage2());
    }
    text.split(',')
        .map(|name| {
            Material::parse(name)
                .map(|m| m.canonical().0)
                .map_err(|e| e.to_string())
        })
        .collect()
}

/// The tables `material`'s captures lead to, read from `dir`.
fn capture_tables(material: Material, dir: &Path) -> Result<TableSet, String> {
    let mut set = TableSet::new();
    for m in material.captures() {
        let t = file::load(dir, m).map_err(|e| e.to_string())?;
        set.insert(Arc::new(t));
    }
    Ok(set)
}

/// Whether a finished, readable file of `material` is in `dir`.
fn done(material: Material, dir: &Path) -> bool {
    let path = dir.join(file::file_name(&material));
    if !path.exists() {
        return false;
    }
    match file::load(dir, material) {
        Ok(_) => true,
        Err(e) => {
            eprintln!("{e}; generating it again");
            false
        }
    }
}

/// The progress line: redrawn in place on a terminal, otherwise printed
/// at most every ten seconds.
struct Line {
    tty: bool,
    last: Option<Instant>,
}

impl Line {
    fn show(&mut self, text: &str, force: bool) {
        let mut err = std::io::stderr();
        if self.tty {
            let _ = write!(err, "\r\x1b[2K{text}");
        } else if force
            || self
                .last
                .is_none_or(|t| t.elapsed() >= Duration::from_secs(10))
        {
            let _ = writeln!(err, "{text}");
            self.last = Some(Instant::now());
        }
        let _ = err.flush();
    }

    fn end(&mut self) {
        if self.tty {
            eprintln!();
        }
    }
}

/// Bytes generating `m` holds: its values and open-move counts (3 bytes an
/// entry) and the tables its captures lead to (2 bytes an entry each).
fn generation_bytes(m: Material) -> u64 {
    let entries = |m: Material| shuai_egtb::index::Layout::new(m).size() as u64;
    3 * entries(m)
        + m.captures()
            .into_iter()
            .map(|c| 2 * entries(c))
            .sum::<u64>()
}

/// The memory the system has available (Linux: `MemAvailable` of
/// /proc/meminfo), in MB; `None` where it cannot be read.
fn available_memory_mb() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

fn gen(
    targets: &[Material],
    out: &Path,
    max_entries: Option<usize>,
    memory_mb: Option<u64>,
) -> Result<(), String> {
    let fits = |m: &Material| {
        max_entries.is_none_or(|max| shuai_egtb::index::Layout::new(*m).size() <= max)
    };
    // Only what the targets that fit capture into: a skipped target's
    // smaller endings are not made for nothing (stage 2's would be most
    // of stage 1).
    let skipped = targets.iter().filter(|t| !fits(t)).count();
    if skipped > 0 {
        eprintln!(
            "{skipped} of {} endings over --max-entries; skipped",
            targets.len()
        );
    }
    let mut order: Vec<Material> = Vec::new();
    for t in targets.iter().filter(|t| fits(t)) {
        for m in t.closure() {
            if !order.contains(&m) {
                order.push(m);
            }
        }
    }
    order.sort_by_key(|m| (m.piece_count(), *m));
    let mut line = Line {
        tty: std::io::stderr().is_terminal(),
        last: None,
    };
    println!("ending\tentries\tpositions\twins\tdraws\tlosses\trule_wins\trule_losses\tlongest_plies\tbytes\tseconds\tcpu_seconds\tpeak_mb");
    for (k, &m) in order.iter().enumerate() {
        if done(m, out) {
            continue;
        }
        if m.captures().iter().any(|c| !done_quiet(*c, out)) {
            eprintln!("{m}: a table it captures into is missing; skipped");
            continue;
        }
        let need_mb = generation_bytes(m).div_ceil(1 << 20);
        if let Some(limit) = memory_mb.filter(|&limit| need_mb > limit) {
            eprintln!("{m}: needs about {need_mb} MB, over the {limit} MB allowed; skipped");
            continue;
        }
        // From here the process's peak memory is this ending's: its own
        // working memory and the tables its captures lead to.
        reset_peak_memory();
        let subs = capture_tables(m, out)?;
        let start = Instant::now();
        let cpu_start = cpu_seconds();
        let head = format!("[{}/{}] {m}", k + 1, order.len());
        let mut report = |p: GenProgress| {
            line.show(
                &format!(
                    "{head}: {} step {}, {} decided, {:.1}s",
                    p.phase,
                    p.step,
                    p.decided,
                    start.elapsed().as_secs_f64()
                ),
                false,
            )
        };
        let table = shuai_egtb::generate(m, &subs, &mut report).map_err(|e| e.to_string())?;
        let seconds = start.elapsed().as_secs_f64();
        // CPU time of every thread: beside other work the wall clock
        // says little, this says what the ending costs.
        let cpu = cpu_seconds().zip(cpu_start).map(|(end, begin)| end - begin);
        let path = file::save(&table, out).map_err(|e| e.to_string())?;
        let bytes = std::fs::metadata(&path).map(|md| md.len()).unwrap_or(0);
        let peak_mb = peak_memory_mb();
        let cpu_note = cpu.map_or(String::new(), |c| format!(" ({c:.1}s of CPU)"));
        let peak = peak_mb.map_or(String::new(), |mb| format!(", peak memory {mb} MB"));
        line.show(
            &format!("{head}: done in {seconds:.1}s{cpu_note}{peak}"),
            true,
        );
        line.end();
        let c = table.census();
        let unknown = || "-".to_string();
        println!(
            "{m}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{bytes}\t{seconds:.2}\t{}\t{}",
            table.len(),
            c.positions,
            c.wins,
            c.draws,
            c.losses,
            c.rule_wins,
            c.rule_losses,
            c.longest,
            cpu.map_or_else(unknown, |c| format!("{c:.2}")),
            peak_mb.map_or_else(unknown, |mb| mb.to_string()),
        );
    }
    Ok(())
}

/// Starts the process's peak resident memory afresh (Linux: writing 5 to
/// /proc/self/clear_refs sets `VmHWM` to the memory held now), so that
/// the peak read after an ending is that ending's, not the largest of
/// the run so far. Elsewhere, or where it is refused, the peak stays the
/// run's. (The kernel's maximum resident set of the whole process, which
/// `time -v` prints at its end, is then the last ending's too.)
fn reset_peak_memory() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// The CPU time all of the process's threads have used so far, in
/// seconds (Linux: user and system time of /proc/self/stat, counted in
/// the fixed 100 ticks a second /proc reports); `None` elsewhere.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) is in parentheses and may hold spaces;
    // the fields after it start with the state (field 3).
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace().skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    Some((user + system) as f64 / 100.0)
}

/// The process's peak resident memory since the last
/// [`reset_peak_memory`] (Linux: `VmHWM` of /proc/self/status).
fn peak_memory_mb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// [`done`] without the message.
fn done_quiet(material: Material, dir: &Path) -> bool {
    file::load(dir, material).is_ok()
}

fn verify_files(targets: &[Material], dir: &Path, sample: usize) -> Result<(), String> {
    let mut failed = false;
    for &m in targets {
        if !dir.join(file::file_name(&m)).exists() {
            continue;
        }
        let table: Table = file::load(dir, m).map_err(|e| e.to_string())?;
        let mut set = capture_tables(m, dir)?;
        let table = Arc::new(table);
        set.insert(table.clone());
        // `--sample 0` checks every position.
        let step = table.len().checked_div(sample).unwrap_or(1).max(1);
        let v = verify::verify(&table, &set, (0..table.len()).step_by(step));
        println!(
            "{m}: {} positions checked, {} by rule skipped, {} wrong",
            v.checked, v.rule, v.wrong_count
        );
        for w in &v.wrong {
            println!("  {w}");
        }
        failed |= v.wrong_count > 0;
    }
    if failed {
        Err("some tables are wrong".into())
    } else {
        Ok(())
    }
}
