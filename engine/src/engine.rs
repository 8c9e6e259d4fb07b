//! The protocol-free engine: a position with its history, options, and one
//! search at a time running on its own thread.
//!
//! Front-ends (UCCI, UCI) translate text into calls of [`Engine`] and the
//! [`Listener`] callbacks back into text. The engine guarantees exactly one
//! [`Listener::best_move`] per [`Engine::go`]: a `go` while searching first
//! stops the running search (which reports its best move), and a search
//! that panics still reports a legal fallback move.
//!
//! ```
//! use shuai_engine::engine::{Engine, GoParams, Listener, Outcome};
//! use shuai_search::Event;
//! use std::sync::{Arc, Mutex};
//!
//! struct Collect(Mutex<Vec<String>>);
//! impl Listener for Collect {
//!     fn info(&self, _: &Event) {}
//!     fn best_move(&self, o: &Outcome) {
//!         self.0.lock().unwrap().push(o.best_move.unwrap().to_string());
//!     }
//! }
//! let mut engine = Engine::new();
//! let sink = Arc::new(Collect(Mutex::new(Vec::new())));
//! engine.go(GoParams { depth: Some(3), ..GoParams::default() }, sink.clone());
//! engine.wait();
//! assert_eq!(sink.0.lock().unwrap().len(), 1);
//! ```

use shuai_board::rules::insufficient_material;
use shuai_board::{Move, PieceKind, Position, Rng};
use shuai_eval::nnue::Network;
use shuai_eval::Weights;
use shuai_search::score::{is_mate, MATE_BOUND};
use shuai_search::{Clock, Control, Event, Info, Limits, SearchResult, Searcher};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Default transposition table size, MiB.
pub const DEFAULT_HASH_MB: usize = 16;
/// Largest table size accepted, MiB (further capped by available memory).
pub const MAX_HASH_MB: usize = 65_536;
/// Most search threads.
pub const MAX_THREADS: usize = 256;
/// Most principal variations.
pub const MAX_MULTIPV: usize = 128;
/// Default margin kept back from every clock for communication delays, ms.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 30;
/// Largest move overhead, ms.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5000;
/// Smallest and largest natural-move limit, plies.
pub const NATURAL_LIMIT_RANGE: (u32, u32) = (2, 1000);
/// Node budget of a `go` that names no limit at all (so a bare `go` still
/// answers, within seconds).
pub const DEFAULT_GO_NODES: u64 = 1_000_000;
/// A score at or below this (centipawns, side to move) is hopeless.
pub const RESIGN_SCORE: i32 = -1000;
/// Consecutive hopeless searches before resigning.
pub const RESIGN_AFTER: u32 = 3;
/// A score at or below this makes an offered draw welcome.
pub const ACCEPT_DRAW_SCORE: i32 = -200;

/// A four-step setting (`idle`, `pruning`, `knowledge` in UCCI).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// none
    None,
    /// small
    Small,
    /// medium
    Medium,
    /// large
    Large,
}

impl Level {
    /// The UCCI words, in order.
    pub const NAMES: [&'static str; 4] = ["none", "small", "medium", "large"];

    /// Parses a UCCI word (case-insensitive).
    pub fn parse(text: &str) -> Option<Level> {
        match text.to_ascii_lowercase().as_str() {
            "none" => Some(Level::None),
            "small" => Some(Level::Small),
            "medium" => Some(Level::Medium),
            "large" => Some(Level::Large),
            _ => None,
        }
    }

    /// The UCCI word.
    pub fn name(self) -> &'static str {
        Level::NAMES[self as usize]
    }
}

/// How much to vary the choice between nearly equal moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Randomness {
    /// Always the best move.
    None,
    /// Within 5 cp.
    Tiny,
    /// Within 10 cp.
    Small,
    /// Within 20 cp.
    Medium,
    /// Within 40 cp.
    Large,
    /// Within 80 cp.
    Huge,
}

impl Randomness {
    /// The UCCI words, in order.
    pub const NAMES: [&'static str; 6] = ["none", "tiny", "small", "medium", "large", "huge"];

    /// Parses a UCCI word (case-insensitive).
    pub fn parse(text: &str) -> Option<Randomness> {
        let i = Randomness::NAMES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(text))?;
        Some(
            [
                Randomness::None,
                Randomness::Tiny,
                Randomness::Small,
                Randomness::Medium,
                Randomness::Large,
                Randomness::Huge,
            ][i],
        )
    }

    /// The UCCI word.
    pub fn name(self) -> &'static str {
        Randomness::NAMES[self as usize]
    }

    /// Moves scoring within this many centipawns of the best may be chosen.
    pub fn margin(self) -> i32 {
        match self {
            Randomness::None => 0,
            Randomness::Tiny => 5,
            Randomness::Small => 10,
            Randomness::Medium => 20,
            Randomness::Large => 40,
            Randomness::Huge => 80,
        }
    }
}

/// Playing style (accepted and remembered; the search has no style knobs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// solid
    Solid,
    /// normal
    Normal,
    /// risky
    Risky,
}

impl Style {
    /// The UCCI words, in order.
    pub const NAMES: [&'static str; 3] = ["solid", "normal", "risky"];

    /// Parses a UCCI word (case-insensitive).
    pub fn parse(text: &str) -> Option<Style> {
        match text.to_ascii_lowercase().as_str() {
            "solid" => Some(Style::Solid),
            "normal" => Some(Style::Normal),
            "risky" => Some(Style::Risky),
            _ => None,
        }
    }

    /// The UCCI word.
    pub fn name(self) -> &'static str {
        Style::NAMES[self as usize]
    }
}

/// The engine's settings. Fields the search cannot honour (pruning,
/// knowledge, style, promotion, book) are remembered and reported back so
/// a GUI's dialog round-trips, but change nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Transposition table size, MiB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Principal variations to report.
    pub multipv: usize,
    /// The GUI will let us ponder: spend a little more time per move.
    pub ponder: bool,
    /// Margin kept back from every clock.
    pub move_overhead: Duration,
    /// Natural-move limit, plies without capture until a draw.
    pub natural_limit: u32,
    /// Keep the table between moves (off: cleared before every search).
    pub use_hash: bool,
    /// Use an opening book (none is built in yet).
    pub use_book: bool,
    /// Book files, `;`-separated.
    pub book_files: String,
    /// How much CPU to leave free (limits the threads used).
    pub idle: Level,
    /// Pruning level (remembered only).
    pub pruning: Level,
    /// Evaluation knowledge level (remembered only).
    pub knowledge: Level,
    /// Randomise between nearly equal moves.
    pub randomness: Randomness,
    /// Style (remembered only).
    pub style: Style,
    /// Advisor/elephant promotion variant (not supported; remembered only).
    pub promotion: bool,
    /// Resign hopeless positions (reported in [`Outcome::resign`]).
    pub resign: bool,
    /// The evaluation weights: the built-in ones, or a table read from a
    /// file (the `WeightsFile` option).
    pub weights: EvalWeights,
    /// The NNUE network: the embedded one, or one read from a file (the
    /// `EvalFile` option).
    pub network: EvalNetwork,
    /// Evaluate with the network (`Use NNUE`); off: the hand-written
    /// evaluation with [`EngineOptions::weights`].
    pub use_nnue: bool,
}

impl EngineOptions {
    /// The network the search evaluates with: `None` when `use_nnue` is
    /// off.
    pub fn active_network(&self) -> Option<Arc<Network>> {
        self.use_nnue.then(|| Arc::clone(&self.network.network))
    }

    /// A searcher set up with these options (table size, natural-move
    /// limit, evaluation).
    fn searcher(&self) -> Searcher {
        let mut s = Searcher::new(self.hash_mb);
        s.set_natural_limit(self.natural_limit);
        s.set_weights(Arc::clone(&self.weights.weights));
        s.set_network(self.active_network());
        s
    }
}

/// The evaluation weights the engine plays with and where they came from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EvalWeights {
    /// The table file they were read from; empty for the built-in weights.
    pub file: String,
    /// The weights (shared, as they are large and rarely change).
    pub weights: Arc<Weights>,
}

impl EvalWeights {
    /// Reads a weights table (the `name value` text that `shuai-tools
    /// tune` writes; unlisted parameters keep their built-in values). An
    /// empty path or `<empty>` means the built-in weights.
    pub fn load(path: &str) -> Result<EvalWeights, String> {
        let path = path.trim();
        if path.is_empty() || path == "<empty>" {
            return Ok(EvalWeights::default());
        }
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        let weights = Weights::from_table(&text).map_err(|e| format!("{path}: {e}"))?;
        Ok(EvalWeights {
            file: path.to_string(),
            weights: Arc::new(weights),
        })
    }
}

/// The NNUE network the engine can play with and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalNetwork {
    /// The network file it was read from; empty for the embedded network.
    pub file: String,
    /// The network (shared: it is large and rarely changes).
    pub network: Arc<Network>,
}

impl Default for EvalNetwork {
    /// The network built into the engine.
    fn default() -> EvalNetwork {
        EvalNetwork {
            file: String::new(),
            network: shuai_eval::nnue::shared_default_network(),
        }
    }
}

impl EvalNetwork {
    /// Reads a network file (as `shuai-tools train` writes it). An empty
    /// path or `<empty>` means the embedded network.
    pub fn load(path: &str) -> Result<EvalNetwork, String> {
        let path = path.trim();
        if path.is_empty() || path == "<empty>" {
            return Ok(EvalNetwork::default());
        }
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        let network = Network::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))?;
        Ok(EvalNetwork {
            file: path.to_string(),
            network: Arc::new(network),
        })
    }

    /// Where the network came from, for messages: its file, or "the
    /// embedded network".
    pub fn source(&self) -> &str {
        match self.file.as_str() {
            "" => "the embedded network",
            file => file,
        }
    }
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            multipv: 1,
            ponder: false,
            move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
            natural_limit: shuai_search::DEFAULT_NATURAL_LIMIT,
            use_hash: true,
            use_book: false,
            book_files: String::new(),
            idle: Level::None,
            pruning: Level::Large,
            knowledge: Level::Large,
            randomness: Randomness::None,
            style: Style::Normal,
            promotion: false,
            resign: true,
            weights: EvalWeights::default(),
            network: EvalNetwork::default(),
            // The network: +115 ± 62 Elo over the hand-written evaluation
            // at 10s+0.1s and +107 ± 66 at 2s+0.05s, 100 games each
            // (tools/README.md, "How the networks were made").
            use_nnue: true,
        }
    }
}

/// What one `go` asks for (protocol-free: times are already durations).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// Greatest depth.
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Fixed time for this move.
    pub movetime: Option<Duration>,
    /// Our clock.
    pub clock: Option<Clock>,
    /// The opponent's clock (parsed and logged; not used).
    pub opponent_clock: Option<Clock>,
    /// Stop at a mate in this many moves.
    pub mate: Option<u32>,
    /// Search until stopped.
    pub infinite: bool,
    /// Think on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// The opponent offers a draw.
    pub draw_offered: bool,
    /// Only these root moves (UCI `searchmoves`).
    pub search_moves: Vec<Move>,
}

impl GoParams {
    /// Whether no limit at all was given (a bare `go`).
    pub fn is_unlimited(&self) -> bool {
        self.depth.is_none()
            && self.nodes.is_none()
            && self.movetime.is_none()
            && self.clock.is_none()
            && self.mate.is_none()
            && !self.infinite
    }
}

/// The result of one `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The move to play; `None` only when there is no legal, unbanned move.
    pub best_move: Option<Move>,
    /// The expected reply.
    pub ponder_move: Option<Move>,
    /// Score of the best move, side to move's view (search units).
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
    /// The principal variation (starting with `best_move`).
    pub pv: Vec<Move>,
    /// Accept the opponent's draw offer, or offer one.
    pub draw: bool,
    /// Resign.
    pub resign: bool,
    /// Whether the root had legal moves that were all banned.
    pub all_banned: bool,
}

/// Receives what a search reports. Both methods are called on the search
/// thread; `best_move` exactly once per [`Engine::go`].
pub trait Listener: Send + Sync {
    /// An iteration or current-move report.
    fn info(&self, event: &Event);
    /// The search ended.
    fn best_move(&self, outcome: &Outcome);
}

/// What `probe` found for a position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProbeResult {
    /// The stored move.
    pub best_move: Option<Move>,
    /// A lower bound on the score and its depth.
    pub lower: Option<(i32, i32)>,
    /// An upper bound on the score and its depth.
    pub upper: Option<(i32, i32)>,
}

/// Flags and snapshots shared with the running search.
struct Running {
    handle: JoinHandle<(Box<Searcher>, Outcome)>,
    control: Arc<Control>,
    /// Set when the caller (not the search itself) asked to stop.
    asked_to_stop: Arc<AtomicBool>,
    /// A draw offer that arrived with `ponderhit draw`.
    draw_offer: Arc<AtomicBool>,
    /// Set once the search has decided (just before it reports).
    decided: Arc<AtomicBool>,
    /// The table the search is filling, for `probe` during the search.
    table: Arc<shuai_search::TranspositionTable>,
    /// The root position and the latest main line: `probe`'s fallback when
    /// the table has no entry.
    root: Position,
    latest: Arc<Mutex<Option<Info>>>,
    /// An analysis search (does not count towards resigning).
    infinite: bool,
}

/// The engine. One search at a time runs on its own thread; the searcher
/// (with its table) moves into that thread and back.
pub struct Engine {
    position: Position,
    banned: Vec<Move>,
    options: EngineOptions,
    searcher: Option<Box<Searcher>>,
    running: Option<Running>,
    hopeless_streak: u32,
    /// Draws the random choices among near-equal moves.
    rng: Rng,
    /// The root key and outcome of the last finished search (the search
    /// does not store the root itself in the table).
    last: Option<(u64, Outcome)>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// An engine at the start position with default options.
    pub fn new() -> Engine {
        let options = EngineOptions::default();
        let searcher = options.searcher();
        Engine {
            position: Position::startpos(),
            banned: Vec::new(),
            options,
            searcher: Some(Box::new(searcher)),
            running: None,
            hopeless_streak: 0,
            rng: Rng::from_clock(),
            last: None,
        }
    }

    /// The current position (its history is the game as the GUI sent it).
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Sets the position (with its move history) and clears banned moves.
    /// Waits for a running search to end first.
    pub fn set_position(&mut self, position: Position) {
        self.wait();
        self.position = position;
        self.banned.clear();
    }

    /// Root moves the next searches may not play (until the next
    /// [`Engine::set_position`]).
    pub fn set_banned_moves(&mut self, moves: Vec<Move>) {
        self.banned = moves;
    }

    /// The banned root moves.
    pub fn banned_moves(&self) -> &[Move] {
        &self.banned
    }

    /// The options in force.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Changes options. Waits for a running search to end first; resizes
    /// the table and sets the thread count and natural-move limit as
    /// needed; new evaluation weights, another network or switching the
    /// network on or off clear the table. Returns the options actually applied (values are clamped to
    /// their ranges, the table to three quarters of available memory).
    pub fn set_options(&mut self, mut options: EngineOptions) -> &EngineOptions {
        self.wait();
        options.hash_mb = options.hash_mb.clamp(1, max_hash_mb());
        options.threads = options.threads.clamp(1, MAX_THREADS);
        options.multipv = options.multipv.clamp(1, MAX_MULTIPV);
        options.move_overhead = options
            .move_overhead
            .min(Duration::from_millis(MAX_MOVE_OVERHEAD_MS));
        options.natural_limit = options
            .natural_limit
            .clamp(NATURAL_LIMIT_RANGE.0, NATURAL_LIMIT_RANGE.1);
        let searcher = self
            .searcher
            .as_mut()
            .expect("idle engine has its searcher");
        if options.hash_mb != self.options.hash_mb {
            searcher.set_hash(options.hash_mb);
        }
        searcher.set_natural_limit(options.natural_limit);
        if options.weights != self.options.weights
            || options.network != self.options.network
            || options.use_nnue != self.options.use_nnue
        {
            // The table's scores were computed with the old evaluation.
            searcher.set_weights(Arc::clone(&options.weights.weights));
            searcher.set_network(options.active_network());
            searcher.clear();
        }
        self.options = options;
        &self.options
    }

    /// A new game: forgets the table and the resignation count. Waits for a
    /// running search to end first.
    pub fn new_game(&mut self) {
        self.wait();
        if let Some(s) = self.searcher.as_mut() {
            s.clear();
        }
        self.last = None;
        self.hopeless_streak = 0;
    }

    /// Whether a search is running and has not yet decided on its move.
    pub fn is_searching(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| !r.decided.load(Ordering::SeqCst))
    }

    /// Whether a search was started and not yet collected with
    /// [`Engine::wait`] (it may still be searching or have decided). Only
    /// [`Engine::go`] and [`Engine::wait`] change this, so unlike
    /// [`Engine::is_searching`] it cannot change while the caller looks.
    pub fn has_search(&self) -> bool {
        self.running.is_some()
    }

    /// Whether a search has decided on its move (it is reporting it or has
    /// reported it) and waits to be collected with [`Engine::wait`].
    pub fn has_decided(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| r.decided.load(Ordering::SeqCst))
    }

    /// Whether the running search is an infinite or pondering one (it only
    /// ends when told).
    pub fn is_waiting_for_stop(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| r.control.pondering() || r.infinite)
    }

    /// Asks the running search to stop; it reports its best move soon.
    pub fn stop(&self) {
        if let Some(r) = &self.running {
            r.asked_to_stop.store(true, Ordering::SeqCst);
            r.control.stop();
        }
    }

    /// The opponent played the expected move: the ponder search becomes a
    /// timed search. `draw_offer` records a draw offer made with it.
    /// Returns false when no search was pondering.
    pub fn ponderhit(&self, draw_offer: bool) -> bool {
        match &self.running {
            Some(r) if r.control.pondering() => {
                if draw_offer {
                    r.draw_offer.store(true, Ordering::SeqCst);
                }
                r.control.set_pondering(false);
                true
            }
            _ => false,
        }
    }

    /// Waits for the running search (if any) to end and collects it;
    /// returns its outcome.
    pub fn wait(&mut self) -> Option<Outcome> {
        let running = self.running.take()?;
        let (searcher, outcome) = match running.handle.join() {
            Ok(pair) => pair,
            Err(_) => {
                // The thread died outside the guarded search: start afresh.
                log::error!("search thread failed; recreating the searcher");
                let s = self.options.searcher();
                (Box::new(s), fallback_outcome(&running.root, &self.banned))
            }
        };
        self.searcher = Some(searcher);
        self.last = Some((running.root.key(), outcome.clone()));
        if !running.infinite {
            if outcome.best_move.is_some() && outcome.score <= RESIGN_SCORE {
                self.hopeless_streak += 1;
            } else {
                self.hopeless_streak = 0;
            }
        }
        Some(outcome)
    }

    /// Looks `pos` up in the table (the running search's table during a
    /// search). Without an entry, falls back to the latest main line during
    /// a search, or to the last search's result when idle.
    pub fn probe(&self, pos: &Position) -> ProbeResult {
        if let Some(r) = &self.running {
            if let Some(hit) = probe_table(&r.table, pos) {
                return hit;
            }
            let latest = r.latest.lock().map(|g| g.clone()).unwrap_or(None);
            return latest
                .map_or_else(ProbeResult::default, |info| probe_line(&r.root, &info, pos));
        }
        let Some(searcher) = &self.searcher else {
            return ProbeResult::default();
        };
        if let Some(hit) = probe_table(searcher.tt(), pos) {
            return hit;
        }
        match &self.last {
            Some((key, o)) if *key == pos.key() && o.best_move.is_some() => {
                let bound = (o.score, o.depth as i32);
                ProbeResult {
                    best_move: o.best_move,
                    lower: Some(bound),
                    upper: Some(bound),
                }
            }
            _ => ProbeResult::default(),
        }
    }

    /// Starts a search of the current position. A running search is
    /// stopped first (it reports its own best move). `listener` hears the
    /// search's reports and, exactly once, its best move.
    pub fn go(&mut self, params: GoParams, listener: Arc<dyn Listener>) {
        if self.running.is_some() {
            self.stop();
            self.wait();
        }
        let opts = self.options.clone();
        let mut searcher = self.searcher.take().expect("idle engine has its searcher");
        let threads = match opts.idle {
            Level::None => opts.threads,
            Level::Small => (opts.threads * 3 / 4).max(1),
            Level::Medium => (opts.threads / 2).max(1),
            Level::Large => 1,
        };
        searcher.set_threads(threads);
        searcher.set_natural_limit(opts.natural_limit);
        if !opts.use_hash {
            searcher.clear();
        }
        let user_multipv = opts.multipv.max(1);
        let randomise = opts.randomness != Randomness::None && !params.infinite;
        let limits = build_limits(&params, &opts, &self.banned, randomise);
        if let Some(c) = &params.opponent_clock {
            log::debug!("opponent clock: {c:?}");
        }
        let control = Arc::new(Control::new());
        control.set_pondering(params.ponder);
        let asked_to_stop = Arc::new(AtomicBool::new(false));
        let draw_offer = Arc::new(AtomicBool::new(params.draw_offered));
        let latest = Arc::new(Mutex::new(None));
        let decided = Arc::new(AtomicBool::new(false));
        let decide = Decider {
            resign: opts.resign,
            hopeless_streak: self.hopeless_streak,
            randomness: if randomise {
                opts.randomness
            } else {
                Randomness::None
            },
            rng: self.next_random(),
        };
        let pos = self.position.clone();
        let banned = self.banned.clone();
        let fallback_listener = listener.clone();
        let table = searcher.table();
        let thread = {
            let control = control.clone();
            let asked_to_stop = asked_to_stop.clone();
            let draw_offer = draw_offer.clone();
            let latest = latest.clone();
            let decided = decided.clone();
            move || {
                let start = Instant::now();
                let collector = Collector {
                    listener: listener.as_ref(),
                    user_multipv,
                    latest,
                    lines: Mutex::new(Vec::new()),
                    history: Mutex::new(Vec::new()),
                };
                let searched = catch_unwind(AssertUnwindSafe(|| {
                    searcher.search(&pos, &limits, &control, &|e| collector.on_event(e))
                }));
                let result = match searched {
                    Ok(r) => Some(r),
                    Err(_) => {
                        log::error!("the search panicked; answering with a fallback move");
                        None
                    }
                };
                // Never answer a ponder or infinite search before the GUI
                // says so (a node cap may end the search early).
                while !asked_to_stop.load(Ordering::SeqCst)
                    && (control.pondering() || limits.infinite)
                {
                    std::thread::sleep(Duration::from_millis(1));
                }
                let mut outcome = match result {
                    Some(r) => decide.outcome(&pos, r, &collector),
                    None => fallback_outcome(&pos, &banned),
                };
                outcome.time = start.elapsed();
                if outcome.best_move.is_some() {
                    let offered = draw_offer.load(Ordering::SeqCst);
                    let draw = decide.draw(&pos, &outcome, offered, &collector);
                    outcome.draw = draw;
                    outcome.resign = !draw && decide.resigns(&outcome, &pos);
                }
                decided.store(true, Ordering::SeqCst);
                listener.best_move(&outcome);
                (searcher, outcome)
            }
        };
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(16 << 20)
            .spawn(thread);
        match spawned {
            Ok(handle) => {
                self.running = Some(Running {
                    handle,
                    control,
                    asked_to_stop,
                    draw_offer,
                    decided,
                    table,
                    root: self.position.clone(),
                    latest,
                    infinite: params.infinite,
                });
            }
            Err(e) => {
                // Keep the protocol promise: one best move per go.
                log::error!("cannot start the search thread: {e}");
                self.searcher = Some(Box::new(self.options.searcher()));
                let outcome = fallback_outcome(&self.position, &self.banned);
                fallback_listener.best_move(&outcome);
            }
        }
    }

    fn next_random(&mut self) -> u64 {
        self.rng.next_u64()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}

/// The search limits of a `go`: its own limits, the banned moves, the
/// option-driven MultiPV (at least 4 when randomising), the move overhead,
/// a node cap for a `go` without any limit, and a quarter more planned time
/// when the GUI lets us ponder (not on the last move before a time
/// control; the search's hard cap stays well inside the real clock).
pub fn build_limits(
    params: &GoParams,
    opts: &EngineOptions,
    banned: &[Move],
    randomise: bool,
) -> Limits {
    let user_multipv = opts.multipv.max(1);
    let mut limits = Limits {
        depth: params.depth.map(|d| d.max(1)),
        nodes: params.nodes,
        movetime: params.movetime,
        clock: params.clock,
        mate: params.mate,
        infinite: params.infinite,
        multipv: if randomise {
            user_multipv.max(4)
        } else {
            user_multipv
        },
        search_moves: params.search_moves.clone(),
        banned_moves: banned.to_vec(),
        move_overhead: opts.move_overhead,
    };
    if params.is_unlimited() {
        limits.nodes = Some(DEFAULT_GO_NODES);
    }
    if opts.ponder {
        if let Some(c) = limits.clock.as_mut() {
            if c.moves_to_go != Some(1) {
                c.remaining = c.remaining.mul_f64(1.25);
            }
        }
    }
    limits
}

/// The largest table the machine can hold comfortably: three quarters of
/// the available memory (Linux), else [`MAX_HASH_MB`].
pub fn max_hash_mb() -> usize {
    let available = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("MemAvailable:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<usize>().ok())
        });
    match available {
        Some(kb) => (kb / 1024 * 3 / 4).clamp(DEFAULT_HASH_MB, MAX_HASH_MB),
        None => MAX_HASH_MB,
    }
}

/// Forwards reports to the listener and remembers what decisions need.
struct Collector<'a> {
    listener: &'a dyn Listener,
    user_multipv: usize,
    latest: Arc<Mutex<Option<Info>>>,
    /// The lines of the latest iteration, by multipv index.
    lines: Mutex<Vec<Info>>,
    /// Main-line score of every completed iteration.
    history: Mutex<Vec<(u32, i32)>>,
}

impl Collector<'_> {
    fn on_event(&self, event: &Event) {
        if let Event::Iteration(info) = event {
            if let Ok(mut lines) = self.lines.lock() {
                if lines.first().is_some_and(|l| l.depth != info.depth) && info.multipv == 1 {
                    lines.clear();
                }
                lines.retain(|l| l.multipv != info.multipv);
                lines.push(info.clone());
            }
            if info.multipv == 1 {
                if let Ok(mut h) = self.history.lock() {
                    h.push((info.depth, info.score));
                }
                if let Ok(mut l) = self.latest.lock() {
                    *l = Some(info.clone());
                }
            }
            if info.multipv > self.user_multipv {
                return;
            }
        }
        self.listener.info(event);
    }
}

/// The end-of-search decisions: which move (randomness), draw, resign.
struct Decider {
    resign: bool,
    hopeless_streak: u32,
    randomness: Randomness,
    rng: u64,
}

impl Decider {
    fn outcome(&self, pos: &Position, r: SearchResult, collector: &Collector) -> Outcome {
        let mut outcome = Outcome {
            best_move: r.best_move,
            ponder_move: r.ponder_move,
            score: r.score,
            depth: r.depth,
            nodes: r.nodes,
            time: Duration::ZERO,
            pv: r.pv,
            draw: false,
            resign: false,
            all_banned: r.best_move.is_none() && !pos.legal_moves().is_empty(),
        };
        if outcome.pv.first() != outcome.best_move.as_ref() {
            outcome.pv = outcome.best_move.into_iter().collect();
        }
        let margin = self.randomness.margin();
        if margin > 0 && outcome.best_move.is_some() && !is_mate(outcome.score) {
            let lines = collector
                .lines
                .lock()
                .map(|l| l.clone())
                .unwrap_or_default();
            let best = outcome.score;
            let candidates: Vec<&Info> = lines
                .iter()
                .filter(|l| l.depth == outcome.depth && !l.pv.is_empty())
                .filter(|l| l.score >= best - margin && l.score.abs() < MATE_BOUND)
                .collect();
            if candidates.len() > 1 {
                let pick = candidates[(self.rng % candidates.len() as u64) as usize];
                if pick.pv.first() != outcome.best_move.as_ref() {
                    log::debug!("randomness: playing {} instead", pick.pv[0]);
                    outcome.best_move = Some(pick.pv[0]);
                    outcome.ponder_move = pick.pv.get(1).copied();
                    outcome.score = pick.score;
                    outcome.pv = pick.pv.clone();
                }
            }
        }
        outcome
    }

    /// Accept an offered draw when the position is dead drawn or clearly
    /// worse; offer one unprompted only when neither side can ever win.
    fn draw(&self, pos: &Position, outcome: &Outcome, offered: bool, c: &Collector) -> bool {
        if insufficient_material(pos) {
            return true;
        }
        if !offered {
            return false;
        }
        if outcome.score <= ACCEPT_DRAW_SCORE {
            return true;
        }
        // An ending with at most two rooks, horses and cannons left in
        // all, level for several deep iterations.
        let attackers: u32 = [PieceKind::Rook, PieceKind::Horse, PieceKind::Cannon]
            .iter()
            .map(|&k| pos.kind_bb(k).count())
            .sum();
        let history = c.history.lock().map(|h| h.clone()).unwrap_or_default();
        let recent: Vec<&(u32, i32)> = history.iter().rev().take(4).collect();
        attackers <= 2
            && recent.len() == 4
            && recent[0].0 >= 8
            && recent.iter().all(|&&(_, s)| s.abs() <= 10)
    }

    /// Resign when hopeless for several searches in a row, unless the move
    /// is forced (one legal move).
    fn resigns(&self, outcome: &Outcome, pos: &Position) -> bool {
        self.resign
            && outcome.score <= RESIGN_SCORE
            && self.hopeless_streak + 1 >= RESIGN_AFTER
            && pos.legal_moves().len() > 1
    }
}

/// A legal move without searching (when the search failed).
fn fallback_outcome(pos: &Position, banned: &[Move]) -> Outcome {
    let legal = pos.legal_moves();
    let best = legal.iter().copied().find(|m| !banned.contains(m));
    Outcome {
        best_move: best,
        ponder_move: None,
        score: 0,
        depth: 0,
        nodes: 0,
        time: Duration::ZERO,
        pv: best.into_iter().collect(),
        draw: false,
        resign: false,
        all_banned: best.is_none() && !legal.is_empty(),
    }
}

/// What the table holds for `pos`, if anything.
fn probe_table(tt: &shuai_search::TranspositionTable, pos: &Position) -> Option<ProbeResult> {
    use shuai_search::Bound;
    let hit = tt.probe(pos.key(), 0)?;
    let mut result = ProbeResult {
        best_move: hit.mv.filter(|&m| pos.is_legal(m)),
        ..ProbeResult::default()
    };
    if hit.depth >= 0 {
        if matches!(hit.bound, Bound::Lower | Bound::Exact) {
            result.lower = Some((hit.score, hit.depth));
        }
        if matches!(hit.bound, Bound::Upper | Bound::Exact) {
            result.upper = Some((hit.score, hit.depth));
        }
    }
    Some(result)
}

/// `probe` during a search: walk the latest main line from the root.
fn probe_line(root: &Position, info: &Info, target: &Position) -> ProbeResult {
    let mut p = root.clone();
    let key = target.key();
    for (i, &m) in info.pv.iter().enumerate() {
        if p.key() == key {
            let sign = if i % 2 == 0 { 1 } else { -1 };
            let depth = info.depth as i32 - i as i32;
            let bound = (sign * info.score, depth.max(0));
            return ProbeResult {
                best_move: Some(m),
                lower: (i == 0).then_some(bound),
                upper: (i == 0).then_some(bound),
            };
        }
        if !p.is_legal(m) {
            break;
        }
        p.make_move(m);
    }
    ProbeResult::default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Sink {
        infos: Mutex<usize>,
        best: Mutex<Vec<Outcome>>,
    }

    impl Listener for Sink {
        fn info(&self, _: &Event) {
            *self.infos.lock().unwrap() += 1;
        }
        fn best_move(&self, o: &Outcome) {
            self.best.lock().unwrap().push(o.clone());
        }
    }

    fn depth(d: u32) -> GoParams {
        GoParams {
            depth: Some(d),
            ..GoParams::default()
        }
    }

    #[test]
    fn one_best_move_per_go_even_when_interrupted() {
        let mut e = Engine::new();
        let sink = Arc::new(Sink::default());
        e.go(
            GoParams {
                infinite: true,
                ..GoParams::default()
            },
            sink.clone(),
        );
        std::thread::sleep(Duration::from_millis(20));
        assert!(e.is_searching());
        e.go(depth(2), sink.clone());
        e.wait();
        let best = sink.best.lock().unwrap();
        assert_eq!(best.len(), 2);
        assert!(best.iter().all(|o| o.best_move.is_some()));
        assert!(*sink.infos.lock().unwrap() > 0);
    }

    /// A search after a new game repeats the node count of the same search
    /// in a fresh engine, whatever was searched before (Pikafish's
    /// "reprosearch" check): nothing learned survives `ucinewgame`.
    #[test]
    fn search_after_new_game_repeats_its_node_count() {
        let game = |moves: &str| {
            let mut pos = Position::startpos();
            for m in moves.split_whitespace() {
                let m = pos.parse_move(m).unwrap();
                pos.make_move(m);
            }
            pos
        };
        let search = |e: &mut Engine, pos: Position| {
            e.set_position(pos);
            e.go(depth(7), Arc::new(Sink::default()));
            e.wait().unwrap().nodes
        };
        let target = game("h2e2 h9g7 h0g2 i9h9");
        let fresh = search(&mut Engine::new(), target.clone());
        let mut e = Engine::new();
        search(&mut e, game("b2e2 b9c7"));
        search(&mut e, target.clone());
        e.new_game();
        assert_eq!(search(&mut e, target.clone()), fresh);
        // Without the new game the table would change the count.
        assert_ne!(search(&mut e, target), fresh);
    }

    /// A listener whose `best_move` takes its time (a slow pipe).
    #[derive(Default)]
    struct SlowSink {
        best: Mutex<Vec<Outcome>>,
    }

    impl Listener for SlowSink {
        fn info(&self, _: &Event) {}
        fn best_move(&self, o: &Outcome) {
            std::thread::sleep(Duration::from_millis(300));
            self.best.lock().unwrap().push(o.clone());
        }
    }

    #[test]
    fn stop_then_wait_returns_after_the_best_move_is_reported() {
        // The protocol's `quit` and end of input rely on this: once
        // `wait` returns, the best move is out, however slow the report.
        let infinite = GoParams {
            infinite: true,
            ..GoParams::default()
        };
        let mut e = Engine::new();
        let sink = Arc::new(SlowSink::default());
        e.go(infinite.clone(), sink.clone());
        e.stop();
        assert!(e.wait().is_some_and(|o| o.best_move.is_some()));
        assert_eq!(sink.best.lock().unwrap().len(), 1);
        assert!(!e.has_search());
        // Dropping the engine mid-search also waits for the report.
        let sink = Arc::new(SlowSink::default());
        let mut e = Engine::new();
        e.go(infinite, sink.clone());
        assert!(e.has_search());
        drop(e);
        assert_eq!(sink.best.lock().unwrap().len(), 1);
    }

    #[test]
    fn banned_moves_are_not_played_and_positions_clear_them() {
        let mut e = Engine::new();
        let sink = Arc::new(Sink::default());
        e.go(depth(2), sink.clone());
        let first = e.wait().unwrap().best_move.unwrap();
        e.set_banned_moves(vec![first]);
        e.go(depth(2), sink.clone());
        assert_ne!(e.wait().unwrap().best_move, Some(first));
        e.set_position(Position::startpos());
        assert!(e.banned_moves().is_empty());
    }

    #[test]
    fn all_moves_banned_gives_no_move() {
        let mut e = Engine::new();
        let all: Vec<Move> = e.position().legal_moves().iter().copied().collect();
        e.set_banned_moves(all);
        let sink = Arc::new(Sink::default());
        e.go(depth(3), sink.clone());
        let o = e.wait().unwrap();
        assert_eq!(o.best_move, None);
        assert!(o.all_banned);
    }

    #[test]
    fn ponder_waits_for_ponderhit() {
        let mut e = Engine::new();
        let sink = Arc::new(Sink::default());
        e.go(
            GoParams {
                ponder: true,
                depth: Some(1),
                ..GoParams::default()
            },
            sink.clone(),
        );
        std::thread::sleep(Duration::from_millis(50));
        assert!(sink.best.lock().unwrap().is_empty());
        assert!(e.ponderhit(false));
        e.wait();
        assert_eq!(sink.best.lock().unwrap().len(), 1);
    }

    #[test]
    fn options_are_clamped() {
        let mut e = Engine::new();
        let applied = e
            .set_options(EngineOptions {
                threads: 0,
                multipv: 1000,
                natural_limit: 1,
                ..EngineOptions::default()
            })
            .clone();
        assert_eq!(applied.threads, 1);
        assert_eq!(applied.multipv, MAX_MULTIPV);
        assert_eq!(applied.natural_limit, NATURAL_LIMIT_RANGE.0);
    }

    #[test]
    fn probe_after_a_search_finds_the_root() {
        let mut e = Engine::new();
        let sink = Arc::new(Sink::default());
        e.go(depth(3), sink);
        let best = e.wait().unwrap().best_move;
        let hit = e.probe(&Position::startpos());
        assert!(hit.best_move.is_some());
        assert_eq!(hit.best_move, best);
    }

    #[test]
    fn insufficient_material_offers_a_draw() {
        let mut e = Engine::new();
        e.set_position(Position::from_fen("3akab2/9/4b4/9/9/9/9/4B4/4A4/3AK1B2 w").unwrap());
        let sink = Arc::new(Sink::default());
        e.go(depth(2), sink);
        let o = e.wait().unwrap();
        assert!(o.draw && !o.resign);
    }

    #[test]
    fn limits_of_a_go() {
        let opts = EngineOptions::default();
        let bare = build_limits(&GoParams::default(), &opts, &[], false);
        assert_eq!(bare.nodes, Some(DEFAULT_GO_NODES));
        assert_eq!(bare.move_overhead, opts.move_overhead);
        let p = GoParams {
            depth: Some(0),
            ..GoParams::default()
        };
        let l = build_limits(&p, &opts, &[], true);
        assert_eq!((l.depth, l.nodes, l.multipv), (Some(1), None, 4));
        let clock = Clock {
            remaining: Duration::from_millis(1000),
            increment: Duration::ZERO,
            moves_to_go: None,
        };
        let p = GoParams {
            clock: Some(clock),
            ..GoParams::default()
        };
        let pondering = EngineOptions {
            ponder: true,
            ..EngineOptions::default()
        };
        let l = build_limits(&p, &pondering, &[], false);
        assert_eq!(l.clock.unwrap().remaining, Duration::from_millis(1250));
        assert_eq!(l.nodes, None);
    }

    #[test]
    fn levels_parse() {
        assert_eq!(Level::parse("Medium"), Some(Level::Medium));
        assert_eq!(Randomness::parse("huge"), Some(Randomness::Huge));
        assert_eq!(Style::parse("x"), None);
        assert_eq!(Randomness::Small.name(), "small");
    }
}
