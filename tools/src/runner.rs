//! `shuai-tools match`: schedules the games of a match over `concurrency`
//! slots (each slot runs its own process of each engine, restarted after a
//! crash), collects the results, and keeps the statistics, the progress
//! line, the PGN file and the SPRT up to date.
//!
//! Game `i` plays opening `(i / 2) mod book size` of the shuffled book,
//! with the first engine Red in even games and Black in odd ones, so a
//! seed fixes the whole schedule whatever the concurrency.

use crate::engine::{CommLog, Engine};
use crate::game::{play_game, GameConfig, GameRecord, GameSetup, SearchTotals};
use crate::openings::EpdLine;
use crate::pgn::{write_game, PgnContext};
use crate::progress::Progress;
use crate::spec::EngineSpec;
use crate::stats::{elo_pentanomial, elo_wdl, EloEstimate, Penta, Score, Sprt, SprtStatus, Wdl};
use serde::Serialize;
use shuai_board::Color;
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The first and second engine (results are from the first's view).
    pub engines: [EngineSpec; 2],
    /// How each game is played and judged.
    pub game: GameConfig,
    /// Openings in playing order (already shuffled).
    pub openings: Vec<EpdLine>,
    /// Book name for the reports.
    pub book_name: String,
    /// Games to play.
    pub games: usize,
    /// Games played at the same time.
    pub concurrency: usize,
    /// The seed that shuffled the book.
    pub seed: u64,
    /// SPRT, if any.
    pub sprt: Option<Sprt>,
    /// PGN output file and header values.
    pub pgn: Option<(PathBuf, PgnContext)>,
    /// Communication log file.
    pub debug_log: Option<PathBuf>,
    /// Whether to show the progress line.
    pub progress: bool,
}

/// Per-engine totals over the match.
#[derive(Clone, Debug, Default, Serialize)]
pub struct EngineReport {
    /// Engine name.
    pub name: String,
    /// Average depth per move.
    pub avg_depth: f64,
    /// Nodes per second (reported nodes over measured time).
    pub nps: f64,
    /// Moves played.
    pub moves: u64,
    /// Average time per move, ms.
    pub avg_time_ms: f64,
    /// Games this engine lost by a failure (time, illegal move, crash,
    /// silence), by kind.
    pub failures: BTreeMap<String, u32>,
    /// Times the engine process was restarted.
    pub restarts: u32,
    #[serde(skip)]
    totals: SearchTotals,
}

/// SPRT state for the report.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct SprtReport {
    /// Parameters.
    #[serde(flatten)]
    pub params: Sprt,
    /// Log-likelihood ratio.
    pub llr: f64,
    /// Lower bound.
    pub lower: f64,
    /// Upper bound.
    pub upper: f64,
    /// `Continue`, `H0` or `H1`.
    pub status: SprtStatus,
}

/// The outcome of a match.
#[derive(Clone, Debug, Serialize)]
pub struct MatchReport {
    /// Engine names, first then second.
    pub engines: [String; 2],
    /// Time control.
    pub tc: String,
    /// Opening book.
    pub book: String,
    /// The repetition rules the referee judged by: `chinese` or `asian`.
    pub rules: String,
    /// Seed of the opening order.
    pub seed: u64,
    /// Games finished.
    pub games_played: usize,
    /// Wins, draws, losses of the first engine.
    pub wdl: Wdl,
    /// Points of the first engine.
    pub points: f64,
    /// Pair counts.
    pub penta: Penta,
    /// `Ptnml(0-2)`: pairs scoring 0, ½, 1, 1½, 2.
    pub ptnml: [u32; 5],
    /// Elo of the first engine (pentanomial when pairs are complete,
    /// otherwise trinomial); null when undefined (all wins or losses).
    pub elo: f64,
    /// 95% interval of the Elo.
    pub elo_ci95: [f64; 2],
    /// Half width of the interval.
    pub elo_error: f64,
    /// Normalized Elo and its half-width.
    pub nelo: f64,
    /// Half width of the normalized Elo interval.
    pub nelo_error: f64,
    /// Likelihood of superiority of the first engine (0–1).
    pub los: f64,
    /// Which model the Elo comes from: `pentanomial` or `trinomial`.
    pub elo_model: String,
    /// SPRT, if one ran.
    pub sprt: Option<SprtReport>,
    /// Games by how they ended.
    pub terminations: BTreeMap<String, u32>,
    /// First and second engine's totals.
    pub engine_stats: [EngineReport; 2],
    /// Every game, in game order.
    pub games: Vec<GameRecord>,
}

/// Running statistics, updated as games finish.
#[derive(Default)]
struct Tally {
    wdl: Wdl,
    penta: Penta,
    half_pairs: HashMap<usize, Score>,
    terminations: BTreeMap<String, u32>,
    engines: [EngineReport; 2],
    games: Vec<GameRecord>,
}

impl Tally {
    fn add(&mut self, g: GameRecord) {
        let first_color = if g.first_is_red {
            Color::Red
        } else {
            Color::Black
        };
        let score = match g.result.winner() {
            None => Score::Draw,
            Some(c) if c == first_color => Score::Win,
            Some(_) => Score::Loss,
        };
        self.wdl.add(score);
        if let Some(other) = self.half_pairs.remove(&g.pair) {
            self.penta.add_pair(other, score);
        } else {
            self.half_pairs.insert(g.pair, score);
        }
        *self
            .terminations
            .entry(g.termination.name().to_string())
            .or_default() += 1;
        for (k, c) in [(0, first_color), (1, !first_color)] {
            self.engines[k].totals.add(&g.totals[c.index()]);
        }
        if g.termination.is_failure() {
            if let Some(winner) = g.result.winner() {
                let loser = if !winner == first_color { 0 } else { 1 };
                *self.engines[loser]
                    .failures
                    .entry(g.termination.name().to_string())
                    .or_default() += 1;
            }
        }
        self.games.push(g);
    }

    fn estimate(&self) -> Option<(EloEstimate, &'static str)> {
        if self.penta.pairs() > 0 {
            elo_pentanomial(&self.penta).map(|e| (e, "pentanomial"))
        } else {
            elo_wdl(&self.wdl).map(|e| (e, "trinomial"))
        }
    }

    fn status_line(&self, sprt: Option<&Sprt>) -> String {
        let w = &self.wdl;
        let mut s = format!("W-D-L {}-{}-{}", w.w, w.d, w.l);
        if let Some((e, _)) = self.estimate() {
            s.push_str(&format!(
                " | Elo {} ± {} | LOS {:.1}%",
                fmt_elo(e.elo),
                fmt_num(e.error, 1),
                e.los * 100.0
            ));
        }
        if let Some(sp) = sprt {
            let (lo, hi) = sp.bounds();
            s.push_str(&format!(
                " | LLR {:.2} ({lo:.2}, {hi:.2})",
                sp.llr(&self.penta)
            ));
        }
        s
    }
}

/// `+12.3`, `-inf`.
pub fn fmt_elo(x: f64) -> String {
    if x.is_finite() {
        format!("{x:+.1}")
    } else if x > 0.0 {
        "+inf".into()
    } else if x < 0.0 {
        "-inf".into()
    } else {
        "nan".into()
    }
}

fn fmt_num(x: f64, prec: usize) -> String {
    if x.is_finite() {
        format!("{x:.prec$}")
    } else {
        "inf".into()
    }
}

/// Creates `p` for writing, saying which file could not be made.
fn create(p: &std::path::Path) -> Result<std::fs::File, String> {
    std::fs::File::create(p).map_err(|e| format!("cannot create {}: {e}", p.display()))
}

/// Starts and stops each engine once before the match, showing what it
/// said about its options (a typo in an option name or a missing file
/// would otherwise only show as weak play).
fn check_engines(cfg: &MatchConfig, log: &Option<CommLog>) -> Result<(), String> {
    for spec in &cfg.engines {
        let engine = Engine::start(spec, log.clone(), &format!("check-{}", spec.name))?;
        for line in &engine.option_replies {
            eprintln!(
                "shuai-tools: engine {} answered its options: {line}",
                spec.name
            );
        }
        engine.quit();
    }
    Ok(())
}

/// What the game slots share: the next game to play, the stop flag (an
/// SPRT decision or an engine that cannot start), why the match failed,
/// and the restarts of each engine.
#[derive(Default)]
struct Slots {
    next: AtomicUsize,
    stop: AtomicBool,
    fatal: Mutex<Option<String>>,
    restarts: [AtomicUsize; 2],
}

impl Slots {
    /// Ends the match with `msg` as its error.
    fn fail(&self, msg: String) {
        *self.fatal.lock().unwrap() = Some(msg);
        self.stop.store(true, Ordering::SeqCst);
    }
}

/// One slot: plays games one after another with its own two engines,
/// restarting a dead one, until the games run out or the match stops.
fn run_slot(
    slot: usize,
    cfg: &MatchConfig,
    shared: &Slots,
    log: Option<CommLog>,
    tx: mpsc::Sender<GameRecord>,
) {
    let mut engines: [Option<Engine>; 2] = [None, None];
    let mut start_failures = [0u32; 2];
    loop {
        if shared.stop.load(Ordering::SeqCst) {
            break;
        }
        let i = shared.next.fetch_add(1, Ordering::SeqCst);
        if i >= cfg.games {
            break;
        }
        for k in 0..2 {
            let alive = engines[k].as_ref().is_some_and(|e| !e.is_dead());
            if alive {
                continue;
            }
            if engines[k].take().is_some() {
                shared.restarts[k].fetch_add(1, Ordering::SeqCst);
            }
            let tag = format!("s{slot}-{}", cfg.engines[k].name);
            match Engine::start(&cfg.engines[k], log.clone(), &tag) {
                Ok(e) => {
                    engines[k] = Some(e);
                    start_failures[k] = 0;
                }
                Err(msg) => {
                    start_failures[k] += 1;
                    if start_failures[k] >= 3 {
                        shared.fail(format!(
                            "engine {} failed to start three times in a row: {msg}",
                            cfg.engines[k].name
                        ));
                    }
                }
            }
        }
        if shared.stop.load(Ordering::SeqCst) && shared.fatal.lock().unwrap().is_some() {
            break;
        }
        let record = play_match_game(cfg, &mut engines, i);
        if tx.send(record).is_err() {
            break;
        }
    }
    for e in engines.into_iter().flatten() {
        e.quit();
    }
}

/// Plays game `i` of the match with the slot's engines (the first engine
/// has Red in even games), and kills an engine the game left in need of a
/// restart.
fn play_match_game(cfg: &MatchConfig, engines: &mut [Option<Engine>; 2], i: usize) -> GameRecord {
    let opening_index = (i / 2) % cfg.openings.len();
    let setup = GameSetup {
        index: i,
        opening_index,
        opening: cfg.openings[opening_index].clone(),
        first_is_red: i % 2 == 0,
    };
    let (red_k, black_k) = if setup.first_is_red { (0, 1) } else { (1, 0) };
    let names = [
        cfg.engines[red_k].name.as_str(),
        cfg.engines[black_k].name.as_str(),
    ];
    let [e0, e1] = engines;
    let (first, second) = (e0.as_mut(), e1.as_mut());
    let pair = if setup.first_is_red {
        [first, second]
    } else {
        [second, first]
    };
    let game = GameConfig {
        own_limits: [cfg.engines[red_k].limit(), cfg.engines[black_k].limit()],
        ..cfg.game.clone()
    };
    let record = play_game(pair, names, &setup, &game);
    for (c, k) in [(0, red_k), (1, black_k)] {
        if record.needs_restart[c] {
            if let Some(e) = engines[k].as_mut() {
                e.kill();
            }
        }
    }
    record
}

/// The SPRT's state after the games of `penta`.
fn sprt_report(sp: &Sprt, penta: &Penta) -> SprtReport {
    let llr = sp.llr(penta);
    let (lower, upper) = sp.bounds();
    SprtReport {
        params: *sp,
        llr,
        lower,
        upper,
        status: sp.status(llr),
    }
}

/// Takes the finished games as the slots send them: the tally, the PGN
/// in game order, the progress line, and the SPRT, which stops the match
/// once it decides (returned then).
fn collect(
    cfg: &MatchConfig,
    rx: mpsc::Receiver<GameRecord>,
    mut pgn_file: Option<std::fs::File>,
    tally: &mut Tally,
    progress: &mut Progress,
    stop: &AtomicBool,
) -> Option<SprtReport> {
    let mut sprt_final = None;
    let mut pending: BTreeMap<usize, String> = BTreeMap::new();
    let mut next_pgn = 0usize;
    for record in rx {
        if let (Some(f), Some((_, ctx))) = (pgn_file.as_mut(), cfg.pgn.as_ref()) {
            pending.insert(record.index, write_game(&record, ctx));
            while let Some(text) = pending.remove(&next_pgn) {
                let _ = f.write_all(text.as_bytes());
                let _ = f.flush();
                next_pgn += 1;
            }
        }
        tally.add(record);
        if let (Some(sp), None) = (&cfg.sprt, &sprt_final) {
            let report = sprt_report(sp, &tally.penta);
            if report.status != SprtStatus::Continue {
                sprt_final = Some(report);
                stop.store(true, Ordering::SeqCst);
            }
        }
        progress.update(tally.games.len(), &tally.status_line(cfg.sprt.as_ref()));
    }
    // Games after a gap (an SPRT stop) still go to the PGN, in order.
    if let Some(f) = pgn_file.as_mut() {
        for text in pending.values() {
            let _ = f.write_all(text.as_bytes());
        }
        let _ = f.flush();
    }
    sprt_final
}

/// Runs the match.
pub fn run_match(cfg: &MatchConfig) -> Result<MatchReport, String> {
    if cfg.openings.is_empty() {
        return Err("the opening book is empty".into());
    }
    let log: Option<CommLog> = match &cfg.debug_log {
        Some(p) => Some(Arc::new(Mutex::new(create(p)?))),
        None => None,
    };
    // Check both commands before starting the slots.
    check_engines(cfg, &log)?;
    let pgn_file = match &cfg.pgn {
        Some((p, _)) => Some(create(p)?),
        None => None,
    };

    let shared = Slots::default();
    let (tx, rx) = mpsc::channel::<GameRecord>();
    let mut tally = Tally::default();
    let mut progress = Progress::new(cfg.games, cfg.progress);
    let sprt_final = std::thread::scope(|scope| {
        for slot in 0..cfg.concurrency.max(1) {
            let (tx, shared, log) = (tx.clone(), &shared, log.clone());
            scope.spawn(move || run_slot(slot, cfg, shared, log, tx));
        }
        drop(tx);
        collect(cfg, rx, pgn_file, &mut tally, &mut progress, &shared.stop)
    });
    progress.finish();
    if let Some(msg) = shared.fatal.into_inner().unwrap() {
        return Err(msg);
    }
    let restarts = shared.restarts.map(|r| r.load(Ordering::SeqCst) as u32);
    let sprt = sprt_final.or_else(|| cfg.sprt.as_ref().map(|sp| sprt_report(sp, &tally.penta)));
    Ok(report(cfg, tally, sprt, restarts))
}

/// The match's report from its tally.
fn report(
    cfg: &MatchConfig,
    mut tally: Tally,
    sprt: Option<SprtReport>,
    restarts: [u32; 2],
) -> MatchReport {
    tally.games.sort_by_key(|g| g.index);
    let (e, model) = match tally.estimate() {
        Some((e, m)) => (Some(e), m),
        None => (None, "none"),
    };
    let nan = f64::NAN;
    let mut engine_stats = std::mem::take(&mut tally.engines);
    for (k, r) in engine_stats.iter_mut().enumerate() {
        r.name = cfg.engines[k].name.clone();
        r.avg_depth = r.totals.avg_depth();
        r.nps = r.totals.nps();
        r.moves = r.totals.moves;
        r.avg_time_ms = if r.totals.moves > 0 {
            r.totals.time_ms as f64 / r.totals.moves as f64
        } else {
            0.0
        };
        r.restarts = restarts[k];
    }
    MatchReport {
        engines: [cfg.engines[0].name.clone(), cfg.engines[1].name.clone()],
        tc: time_control_text(cfg),
        book: cfg.book_name.clone(),
        rules: cfg.game.rules.book.to_string(),
        seed: cfg.seed,
        games_played: tally.games.len(),
        wdl: tally.wdl,
        points: tally.wdl.points(),
        penta: tally.penta,
        ptnml: tally.penta.counts(),
        elo: e.map_or(nan, |e| e.elo),
        elo_ci95: [e.map_or(nan, |e| e.lo), e.map_or(nan, |e| e.hi)],
        elo_error: e.map_or(nan, |e| e.error),
        nelo: e.map_or(nan, |e| e.nelo),
        nelo_error: e.map_or(nan, |e| e.nelo_error),
        los: e.map_or(nan, |e| e.los),
        elo_model: model.to_string(),
        sprt,
        terminations: tally.terminations,
        engine_stats,
        games: tally.games,
    }
}

/// The final summary in plain text.
pub fn summary(r: &MatchReport) -> String {
    let mut s = String::new();
    let line = "-".repeat(60);
    s.push_str(&format!("{line}\n"));
    s.push_str(&format!(
        "Results of {} vs {} ({}, book {}, seed {}, {} rules):\n",
        r.engines[0], r.engines[1], r.tc, r.book, r.seed, r.rules
    ));
    let games = r.wdl.games().max(1) as f64;
    s.push_str(&format!(
        "Games: {}, Wins: {}, Draws: {}, Losses: {}, Points: {:.1} ({:.2} %)\n",
        r.games_played,
        r.wdl.w,
        r.wdl.d,
        r.wdl.l,
        r.points,
        100.0 * r.points / games
    ));
    s.push_str(&format!(
        "Elo: {} ± {} (95%: [{}, {}], {}), nElo: {} ± {}\n",
        fmt_elo(r.elo),
        fmt_num(r.elo_error, 2),
        fmt_elo(r.elo_ci95[0]),
        fmt_elo(r.elo_ci95[1]),
        r.elo_model,
        fmt_elo(r.nelo),
        fmt_num(r.nelo_error, 2)
    ));
    s.push_str(&format!(
        "LOS: {:.2} %, DrawRatio: {:.2} %\n",
        r.los * 100.0,
        100.0 * r.wdl.d as f64 / games
    ));
    s.push_str(&format!(
        "Ptnml(0-2): [{}, {}, {}, {}, {}] (WL {}, DD {})\n",
        r.ptnml[0], r.ptnml[1], r.ptnml[2], r.ptnml[3], r.ptnml[4], r.penta.wl, r.penta.dd
    ));
    if let Some(sp) = &r.sprt {
        s.push_str(&format!(
            "SPRT [{}, {}] ({:?} Elo, alpha {}, beta {}): LLR {:.2} ({:.2}, {:.2}) — {}\n",
            sp.params.elo0,
            sp.params.elo1,
            sp.params.model,
            sp.params.alpha,
            sp.params.beta,
            sp.llr,
            sp.lower,
            sp.upper,
            match sp.status {
                SprtStatus::Continue => "no decision yet",
                SprtStatus::H0 => "H0 accepted",
                SprtStatus::H1 => "H1 accepted",
            }
        ));
    }
    let terms: Vec<String> = r
        .terminations
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    s.push_str(&format!("Terminations: {}\n", terms.join(", ")));
    for e in &r.engine_stats {
        let fails: Vec<String> = e.failures.iter().map(|(k, v)| format!("{k} {v}")).collect();
        s.push_str(&format!(
            "{}: avg depth {:.1}, {:.0} nps, {:.0} ms/move over {} moves, restarts {}{}\n",
            e.name,
            e.avg_depth,
            e.nps,
            e.avg_time_ms,
            e.moves,
            e.restarts,
            if fails.is_empty() {
                String::new()
            } else {
                format!(", lost by {}", fails.join(", "))
            }
        ));
    }
    s.push_str(&format!("{line}\n"));
    s
}

/// The match's limit as reports show it, with the engines' own fixed
/// limits: `10+0.1`, or `10+0.1; eleeye: depth 3`.
fn time_control_text(cfg: &MatchConfig) -> String {
    let mut text = cfg.game.limit.to_string();
    for spec in &cfg.engines {
        if let Some(own) = spec.limit() {
            text.push_str(&format!("; {}: {own}", spec.name));
        }
    }
    text
}
