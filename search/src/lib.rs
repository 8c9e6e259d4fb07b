//! The Shuai search: iterative deepening principal variation search with
//! aspiration windows, quiescence, null-move, futility and late-move
//! pruning, late-move reductions, a lock-free transposition table shared by
//! Lazy SMP threads, and the repetition rules scored inside the tree.
//!
//! The search prints nothing: it reports through a callback, and another
//! thread stops it or ends pondering through [`Control`].
//!
//! ```
//! use shuai_board::Position;
//! use shuai_search::{Control, Limits, Searcher};
//! let mut searcher = Searcher::new(16);
//! let result = searcher.search(&Position::startpos(), &Limits::depth(4), &Control::new(), &|_| {});
//! assert!(result.best_move.is_some());
//! ```

#![warn(missing_docs)]

pub mod bench;
mod correction;
mod history;
pub mod host;
mod limits;
mod ordering;
pub mod params;
mod repetition;
pub mod score;
pub mod shape;
mod tablebase;
mod time;
pub mod tt;
mod vote;
mod worker;

pub use limits::{Clock, Control, Limits};
pub use params::Params;
pub use score::DisplayScore;
pub use time::TimeManager;
pub use tt::{Bound, TranspositionTable};

use history::History;
use host::Instant;
use score::{is_mate, MATE, MAX_PLY};
use shuai_board::rules::RuleBook;
use shuai_board::{Move, Position};
use shuai_egtb::Tablebase;
use shuai_eval::nnue::Network;
use shuai_eval::Weights;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use vote::ThreadBest;
use worker::Worker;

/// Stack size of a helper thread: room for the deepest search path.
const HELPER_STACK: usize = 16 << 20;

/// The default natural-move limit in plies (60 moves each without capture).
pub const DEFAULT_NATURAL_LIMIT: u32 = 120;

/// A completed iteration (or MultiPV line) as the GUI sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Nominal depth of the iteration.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Which line (1 = best) when several are searched.
    pub multipv: usize,
    /// Score from the side to move's view (see [`score`]).
    pub score: i32,
    /// Whether the score is only a bound (aspiration failure).
    pub bound: Option<Bound>,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Table fill, permille.
    pub hashfull: u32,
    /// Endgame table probes that found a value, all threads; `None` when
    /// the search has no endgame tables (the `info` line then leaves
    /// `tbhits` out).
    pub tbhits: Option<u64>,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// The search's counters, reported between iterations on a long search
/// (see [`Event::Status`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Table fill, permille.
    pub hashfull: u32,
    /// Endgame table probes that found a value, as in [`Info::tbhits`].
    pub tbhits: Option<u64>,
}

/// What the search reports while it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A completed iteration or MultiPV line.
    Iteration(Info),
    /// The root move being searched (sent on long searches only).
    CurrMove {
        /// Iteration depth.
        depth: u32,
        /// The move.
        mv: Move,
        /// Its number in the root move order, from 1.
        number: usize,
    },
    /// The counters, about once a second from [`STATUS_AFTER_MS`] on: an
    /// iteration of a long analysis can take minutes, and a GUI's node
    /// count and speed should not stand still meanwhile.
    Status(Status),
}

/// A search reports [`Event::Status`] only after this many milliseconds
/// (as it does `currmove`), when a GUI has time to show it...
pub const STATUS_AFTER_MS: u64 = 3000;
/// ...and then at most once in this many.
pub const STATUS_EVERY_MS: u64 = 1000;

/// The callback receiving [`Event`]s (called from the search's main thread).
pub type Reporter<'a> = &'a (dyn Fn(&Event) + Sync);

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` when there is no legal (unbanned) move.
    pub best_move: Option<Move>,
    /// The expected reply, for pondering.
    pub ponder_move: Option<Move>,
    /// Score of the best move.
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// State every thread of one search reads.
pub(crate) struct Shared<'a> {
    tt: &'a TranspositionTable,
    control: &'a Control,
    limits: &'a Limits,
    time: TimeManager,
    node_counts: Vec<AtomicU64>,
    /// Workers publish their node counts and check the limits when
    /// `nodes & check_mask == 0`: every 1024 nodes, more often under a
    /// small node limit (so a 64-node search stops near 64).
    check_mask: u64,
    natural_limit: u32,
    /// The repetition rules repetitions in the tree are scored by.
    rule_book: RuleBook,
    reporter: Reporter<'a>,
    weights: &'a Weights,
    /// The network to evaluate with; `None`: the hand-written evaluation
    /// with `weights`.
    network: Option<&'a Network>,
    /// Recompute the network's accumulators from scratch at every
    /// evaluation instead of updating them (tests compare the two).
    full_refresh: bool,
    /// The late-move reduction table, by depth and move number.
    lmr: &'a [[u8; 64]],
    /// The search's constants.
    params: &'a Params,
    /// The endgame tables, if the search uses them.
    tablebase: Option<&'a Tablebase>,
    /// The most pieces of a position the tables may cover (0 without
    /// tables): a node with more is not looked up.
    tb_pieces: usize,
    /// Endgame table probes that found a value, all threads (rare enough
    /// for one shared counter).
    tb_hits: AtomicU64,
    /// The score every report shows instead of the search's when the root
    /// is an endgame table draw: the search only chooses among the drawing moves.
    root_score: Option<i32>,
    /// When the last [`Event::Status`] was sent (milliseconds into the
    /// search; 0 before the first).
    last_status_ms: AtomicU64,
}

/// Nodes between two checks of the limits, at most: a thousand nodes take
/// about a millisecond, well inside any time limit's slack.
const CHECK_INTERVAL: u64 = 1024;

/// How often workers check the limits (see [`Shared`]'s `check_mask`):
/// every [`CHECK_INTERVAL`] nodes, or about every eighth of a smaller node
/// limit.
fn check_mask(limits: &Limits) -> u64 {
    limits.nodes.map_or(CHECK_INTERVAL, |n| {
        (n / 8).clamp(1, CHECK_INTERVAL).next_power_of_two()
    }) - 1
}

impl Shared<'_> {
    fn total_nodes(&self) -> u64 {
        self.node_counts
            .iter()
            .map(|n| n.load(Ordering::Relaxed))
            .sum()
    }

    fn elapsed_ms(&self) -> u128 {
        self.time.elapsed().as_millis()
    }

    /// Stops the search when the hard time limit or the node limit is hit
    /// (called by the main thread every `check_mask + 1` nodes).
    fn check_limits(&self) {
        host::check_ponderhit(self.control);
        let out_of_nodes = self.limits.nodes.is_some_and(|n| self.total_nodes() >= n);
        if out_of_nodes
            || (!self.control.pondering() && self.time.out_of_time())
            || host::stop_requested()
        {
            self.control.stop();
        }
        self.report_status();
    }

    /// Sends an [`Event::Status`] if one is due (main thread only).
    fn report_status(&self) {
        let ms = u64::try_from(self.elapsed_ms()).unwrap_or(u64::MAX);
        let last = self.last_status_ms.load(Ordering::Relaxed);
        if ms < STATUS_AFTER_MS || ms < last.saturating_add(STATUS_EVERY_MS) {
            return;
        }
        self.last_status_ms.store(ms, Ordering::Relaxed);
        let nodes = self.total_nodes();
        let time = self.time.elapsed();
        (self.reporter)(&Event::Status(Status {
            nodes,
            nps: (nodes as f64 / time.as_secs_f64().max(1e-3)) as u64,
            time,
            hashfull: self.tt.hashfull(),
            tbhits: self.tablebase.map(|_| self.tb_hits.load(Ordering::Relaxed)),
        }));
    }

    fn info(
        &self,
        depth: u32,
        seldepth: usize,
        multipv: usize,
        score: i32,
        bound: Option<Bound>,
        pv: Vec<Move>,
    ) -> Info {
        let nodes = self.total_nodes();
        let time = self.time.elapsed();
        let (score, bound) = match self.root_score {
            // A repetition verdict the tables know nothing of stands.
            Some(s) if !score::is_rule_score(score) => (s, None),
            _ => (score, bound),
        };
        Info {
            depth,
            seldepth: seldepth as u32,
            multipv,
            score,
            bound,
            nodes,
            nps: (nodes as f64 / time.as_secs_f64().max(1e-3)) as u64,
            time,
            hashfull: self.tt.hashfull(),
            tbhits: self.tablebase.map(|_| self.tb_hits.load(Ordering::Relaxed)),
            pv,
        }
    }

    fn report_currmove(&self, depth: u32, mv: Move, number: usize) {
        (self.reporter)(&Event::CurrMove { depth, mv, number });
    }

    /// Whether the main thread should start another iteration.
    fn after_iteration(&self, main: &Worker) -> bool {
        let best = &main.root_moves[0];
        if let Some(n) = self.limits.mate {
            if best.score >= MATE - 2 * n as i32 && is_mate(best.score) && !self.limits.infinite {
                return false;
            }
        }
        if self.limits.infinite || self.control.pondering() || !self.time.is_timed() {
            return true;
        }
        if main.root_moves.len() == 1 && main.completed_depth >= 4 {
            return false;
        }
        self.time
            .may_start_iteration(main.progress().scale(self.params))
    }
}

/// The search engine: the hash table, the helper threads and each thread's
/// move-ordering memory survive between searches (a game's moves teach
/// the next move's search); [`Searcher::clear`] forgets what they learned.
pub struct Searcher {
    tt: Arc<TranspositionTable>,
    threads: usize,
    /// The Lazy SMP helpers (`threads - 1` of them; none for one thread),
    /// started once and parked between searches; the main worker runs on
    /// the thread that calls [`Searcher::search`].
    helpers: Option<rayon::ThreadPool>,
    /// Each thread's move-ordering tables, by thread id.
    histories: Vec<History>,
    /// The search's constants.
    params: Params,
    /// The late-move reduction table, computed from `params` when they
    /// change.
    lmr: Vec<[u8; 64]>,
    natural_limit: u32,
    rule_book: RuleBook,
    weights: Arc<Weights>,
    network: Option<Arc<Network>>,
    full_refresh: bool,
    /// The endgame tables to probe, if any.
    tablebase: Option<Arc<Tablebase>>,
}

impl Searcher {
    /// A searcher with a hash table of `hash_mb` MiB and one thread.
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            tt: Arc::new(TranspositionTable::new(hash_mb)),
            threads: 1,
            helpers: None,
            histories: Vec::new(),
            params: Params::default(),
            lmr: worker::reductions(&Params::default()),
            natural_limit: DEFAULT_NATURAL_LIMIT,
            rule_book: RuleBook::Chinese,
            weights: Arc::new(Weights::DEFAULT),
            network: None,
            full_refresh: false,
            tablebase: None,
        }
    }

    /// Probes `tablebase` from the next search on, or no tables when
    /// `None` (the default; the search is then exactly the search without
    /// tables). The hash table keeps scores found with the old setting: clear
    /// it ([`Searcher::clear`]) when switching, for a clean comparison.
    pub fn set_tablebase(&mut self, tablebase: Option<Arc<Tablebase>>) {
        self.tablebase = tablebase;
    }

    /// The endgame tables in use, if any.
    pub fn tablebase(&self) -> Option<&Arc<Tablebase>> {
        self.tablebase.as_ref()
    }

    /// Evaluates with `weights` from the next search on (the built-in
    /// [`Weights::DEFAULT`] until this is called).
    pub fn set_weights(&mut self, weights: Arc<Weights>) {
        self.weights = weights;
    }

    /// The evaluation weights in use.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// Evaluates with `network` from the next search on, or with the
    /// hand-written evaluation and its weights ([`Searcher::set_weights`])
    /// when `None` (the default). The hash table keeps scores of the old
    /// evaluation: clear it ([`Searcher::clear`]) when switching.
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        self.network = network;
    }

    /// The network in use, if any.
    pub fn network(&self) -> Option<&Network> {
        self.network.as_deref()
    }

    /// Sets the number of search threads (at least 1), starting the helper
    /// threads now rather than at the next search. When the system refuses
    /// them, the searcher keeps one thread and says so in the log.
    pub fn set_threads(&mut self, threads: usize) {
        let threads = threads.clamp(1, 256);
        if threads == self.threads {
            return;
        }
        self.helpers = None;
        self.threads = 1;
        if threads == 1 {
            return;
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads - 1)
            .thread_name(|i| format!("search-helper-{}", i + 1))
            // The search recurses up to MAX_PLY deep, like the main thread.
            .stack_size(HELPER_STACK)
            .build();
        match pool {
            Ok(pool) => {
                self.helpers = Some(pool);
                self.threads = threads;
            }
            Err(e) => log::error!(
                "cannot start {} helper threads ({e}); searching with one",
                threads - 1
            ),
        }
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Resizes the hash table (forgetting its contents).
    pub fn set_hash(&mut self, megabytes: usize) {
        self.tt = Arc::new(TranspositionTable::new(megabytes));
    }

    /// Sets the natural-move limit in plies (a draw after that many plies
    /// without a capture).
    pub fn set_natural_limit(&mut self, plies: u32) {
        self.natural_limit = plies.max(1);
    }

    /// Searches with `params` from the next search on (in a build without
    /// the `tune` feature there is only one setting, the defaults).
    pub fn set_params(&mut self, params: Params) {
        if params != self.params {
            self.lmr = worker::reductions(&params);
            self.params = params;
        }
    }

    /// The constants the search uses.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Scores repetitions inside the search by `book` (the Chinese rules
    /// until this is called). Verdicts are never stored in the hash table, so
    /// switching needs no clearing.
    pub fn set_rule_book(&mut self, book: RuleBook) {
        self.rule_book = book;
    }

    /// The rule book repetitions are scored by.
    pub fn rule_book(&self) -> RuleBook {
        self.rule_book
    }

    /// Forgets everything learned (new game): the hash table and the threads'
    /// move-ordering memory.
    pub fn clear(&mut self) {
        self.histories.clear();
        match Arc::get_mut(&mut self.tt) {
            Some(tt) => tt.clear(),
            // Someone still holds the old hash table: start a fresh one.
            None => self.tt = Arc::new(TranspositionTable::new(self.tt.megabytes())),
        }
    }

    /// The hash table (for UCCI's `probe`, answered by `pophash`).
    pub fn tt(&self) -> &TranspositionTable {
        &self.tt
    }

    /// A shared handle on the hash table, for reading it (UCCI's `probe`)
    /// from another thread while a search runs.
    pub fn shared_tt(&self) -> Arc<TranspositionTable> {
        Arc::clone(&self.tt)
    }

    /// Searches `pos` (its move history is the game so far, used for
    /// repetitions) within `limits`. Blocks until the search ends: by its
    /// limits, or by `control.stop()` from another thread. With
    /// `limits.infinite` or while `control` says pondering, it returns only
    /// after a stop (or ponderhit and the time limit).
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        control: &Control,
        reporter: Reporter,
    ) -> SearchResult {
        let start = Instant::now();
        self.tt.new_search();
        let root_moves: Vec<Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| !limits.banned_moves.contains(m))
            .filter(|m| limits.search_moves.is_empty() || limits.search_moves.contains(m))
            .collect();
        if root_moves.is_empty() {
            return SearchResult {
                best_move: None,
                ponder_move: None,
                score: score::mated_in(0),
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
            };
        }
        // The endgame tables at the root: a won or lost root is answered
        // from them; a drawn one is searched among its drawing moves.
        let tablebase = self.tablebase.as_deref().filter(|tb| !tb.is_empty());
        let plies_left = self
            .natural_limit
            .saturating_sub(u32::from(pos.halfmove_clock()));
        let root_plan = tablebase
            .filter(|_| limits.multipv <= 1)
            .and_then(|tb| tablebase::root_plan(pos, &root_moves, tb, plies_left));
        let (root_moves, root_score, decided, root_hits) = match root_plan {
            Some((tablebase::RootPlan::Decided { mv, score, pv }, hits)) => {
                (vec![mv], None, Some((score, pv)), hits)
            }
            Some((tablebase::RootPlan::Restrict { moves, score }, hits)) => {
                (moves, score, None, hits)
            }
            None => (root_moves, None, None, 0),
        };
        let root_moves = order_root(pos, root_moves, &self.tt);
        let shared = Shared {
            tt: &self.tt,
            control,
            limits,
            time: TimeManager::new(limits, start, &self.params),
            node_counts: (0..self.threads).map(|_| AtomicU64::new(0)).collect(),
            check_mask: check_mask(limits),
            natural_limit: self.natural_limit,
            rule_book: self.rule_book,
            reporter,
            weights: &self.weights,
            network: self.network.as_deref(),
            full_refresh: self.full_refresh,
            lmr: &self.lmr,
            params: &self.params,
            tablebase,
            tb_pieces: tablebase.map_or(0, |tb| tb.max_pieces()),
            tb_hits: AtomicU64::new(root_hits),
            root_score,
            last_status_ms: AtomicU64::new(0),
        };
        if let Some((score, pv)) = decided {
            return decided_search(&shared, score, pv);
        }
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 8)
            .clamp(1, MAX_PLY as u32 - 8);
        let multipv = limits.multipv.max(1);
        self.histories.truncate(self.threads);
        while self.histories.len() < self.threads {
            self.histories.push(History::default());
        }
        let (main_history, helper_histories) = self
            .histories
            .split_first_mut()
            .expect("at least one thread");
        let helpers = self.helpers.as_ref();
        let tt = &self.tt;
        // Helpers leave their results here for the vote.
        let helper_results: Mutex<Vec<(usize, ThreadBest)>> = Mutex::new(Vec::new());
        // The main worker searches here while the helpers run in the pool;
        // the scope returns only when every helper has stopped, so they may
        // borrow the search's state.
        let mut main_search = || {
            let mut main = Worker::new(0, pos, &shared, main_history, root_moves.clone());
            let mut report = |info: &Info| reporter(&Event::Iteration(info.clone()));
            main.iterate(max_depth, multipv, &mut report);
            // Analysis and pondering wait for the GUI's word.
            while !control.stopped() && (limits.infinite || control.pondering()) {
                if host::stop_requested() {
                    break;
                }
                host::check_ponderhit(control);
                host::pause(1);
            }
            control.stop();
            main.best()
        };
        let main_best = match helpers {
            Some(pool) => pool.in_place_scope(|scope| {
                for (i, history) in helper_histories.iter_mut().enumerate() {
                    let shared = &shared;
                    let root_moves = root_moves.clone();
                    let results = &helper_results;
                    scope.spawn(move |_| {
                        let mut w = Worker::new(i + 1, pos, shared, history, root_moves);
                        w.iterate(max_depth, 1, &mut |_| {});
                        if let Ok(mut results) = results.lock() {
                            results.push((i + 1, w.best()));
                        }
                    });
                }
                main_search()
            }),
            None => main_search(),
        };
        // Lazy SMP: the threads vote on the move, unless the request is
        // about the main line itself (several lines, a depth, a mate).
        let mut threads = vec![main_best];
        let votes = multipv == 1 && limits.depth.is_none() && limits.mate.is_none();
        if votes {
            let mut helpers = helper_results.into_inner().unwrap_or_default();
            helpers.sort_by_key(|&(id, _)| id);
            threads.extend(
                helpers
                    .into_iter()
                    .map(|(_, b)| b)
                    .filter(|b| b.depth > 0 && !b.pv.is_empty()),
            );
        }
        let i = vote::choose(&threads);
        if !threads[i].shown {
            // The GUI's last line must show the move played.
            let t = &threads[i];
            let info = shared.info(t.depth, t.seldepth, 1, t.score, None, t.pv.clone());
            reporter(&Event::Iteration(info));
        }
        let chosen = threads.swap_remove(i);
        let ponder = chosen
            .pv
            .get(1)
            .copied()
            .or_else(|| ponder_from_tt(pos, chosen.mv, tt));
        SearchResult {
            best_move: Some(chosen.mv),
            ponder_move: ponder,
            score: match root_score {
                Some(s) if !score::is_rule_score(chosen.score) => s,
                _ => chosen.score,
            },
            depth: chosen.depth,
            nodes: shared.total_nodes(),
            pv: chosen.pv,
        }
    }
}

/// A search the endgame tables answered at the root: one report with the
/// endgame table's score and line (the GUI's last line must show the move played),
/// then, for analysis and pondering, a wait for the GUI's word.
fn decided_search(shared: &Shared, score: i32, pv: Vec<Move>) -> SearchResult {
    let info = shared.info(1, pv.len(), 1, score, None, pv.clone());
    (shared.reporter)(&Event::Iteration(info));
    while !shared.control.stopped() && (shared.limits.infinite || shared.control.pondering()) {
        if host::stop_requested() {
            break;
        }
        host::check_ponderhit(shared.control);
        host::pause(1);
    }
    shared.control.stop();
    SearchResult {
        best_move: pv.first().copied(),
        ponder_move: pv.get(1).copied(),
        score,
        depth: 1,
        nodes: 0,
        pv,
    }
}

/// Root moves with the hash move first.
fn order_root(pos: &Position, mut moves: Vec<Move>, tt: &TranspositionTable) -> Vec<Move> {
    if let Some(m) = tt.probe(pos.key(), 0).and_then(|h| h.mv) {
        if let Some(i) = moves.iter().position(|&x| x == m) {
            moves[..=i].rotate_right(1);
        }
    }
    moves
}

/// The expected reply to `best`, from the hash table.
fn ponder_from_tt(pos: &Position, best: Move, tt: &TranspositionTable) -> Option<Move> {
    let mut p = pos.clone();
    p.make_move(best);
    tt.probe(p.key(), 0)
        .and_then(|h| h.mv)
        .filter(|&m| p.is_legal(m))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The network's accumulators, updated lazily along the search path
    /// (null moves included), give the very same search as recomputing
    /// them at every evaluation: same move, score, line and node count.
    #[test]
    fn incremental_network_search_equals_full_refresh() {
        let network = shuai_eval::nnue::shared_default_network();
        let fens = [
            bench::POSITIONS[0],
            bench::POSITIONS[1],
            bench::POSITIONS[12],
            bench::POSITIONS[16],
            bench::POSITIONS[26],
        ];
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            let run = |network: Option<Arc<Network>>, full_refresh: bool| {
                let mut s = Searcher::new(4);
                s.set_network(network);
                s.full_refresh = full_refresh;
                s.search(&pos, &Limits::depth(6), &Control::new(), &|_| {})
            };
            let incremental = run(Some(Arc::clone(&network)), false);
            let refreshed = run(Some(Arc::clone(&network)), true);
            assert_eq!(incremental, refreshed, "{fen}");
            assert!(incremental.nodes > 1000, "{fen}");
            // The network is really used: the hand-written evaluation
            // searches another tree.
            assert_ne!(run(None, false).nodes, incremental.nodes, "{fen}");
        }
    }

    /// Each searcher searches with its own constants: changing one
    /// searcher's leaves another's search as it was (the constants were
    /// global atomics once, and a test changing them raced the others).
    #[test]
    fn each_searcher_keeps_its_own_constants() {
        let pos = Position::from_fen(bench::POSITIONS[1]).unwrap();
        let run = |s: &mut Searcher| {
            s.clear();
            s.search(&pos, &Limits::depth(7), &Control::new(), &|_| {})
        };
        let mut plain = Searcher::new(4);
        let mut tuned = Searcher::new(4);
        let before = run(&mut plain);
        let mut params = Params::default();
        if params::TUNABLE {
            params.set("lmr_divisor", 120).unwrap();
            tuned.set_params(params.clone());
            assert_eq!(tuned.params().lmr_divisor(), 120);
            assert_ne!(run(&mut tuned).nodes, before.nodes, "more reductions");
        } else {
            assert!(params.set("lmr_divisor", 120).is_err());
        }
        assert_eq!(plain.params(), &Params::default());
        assert_eq!(run(&mut plain), before);
    }
}
