//! One search thread: iterative deepening over a principal variation
//! search with quiescence, pruning and reductions. This module holds the
//! thread's state and what every node uses (moves made with their
//! accumulators, the evaluation, the hash and tablebase probes, the node count); the
//! root iteration, the search below the root and quiescence have a module
//! each.

mod node;
mod quiescence;
mod root;

use crate::history::{History, PieceTo};
use crate::params::Params;
use crate::repetition::{self, Verdicts};
use crate::score::*;
use crate::time::Progress;
use crate::tt::{Bound, Hit};
use crate::vote::ThreadBest;
use crate::Shared;
use shuai_board::{Move, PieceKind, Position};
use shuai_eval::nnue::{self, Accumulator, Change, Network};
use std::sync::atomic::Ordering;

/// How the position at one ply differs from its parent's, for the
/// network's accumulators.
#[derive(Clone, Copy)]
enum Step {
    /// A move: the accumulators are the parent's updated by the change.
    Move(Change),
    /// A null move: the pieces stand as in the parent, so the accumulators
    /// are the parent's.
    Null,
}

/// The network's accumulators of one ply of the search path. They are
/// computed lazily: making a move only records the [`Step`]; the first
/// evaluation at or below the ply brings the path's accumulators up to
/// date from the nearest computed ancestor (nodes cut off by the hash table
/// never pay for them).
#[derive(Clone, Copy)]
struct AccEntry {
    acc: Accumulator,
    step: Step,
    computed: bool,
}

/// Per-ply state of the current search path.
#[derive(Clone, Copy, Default)]
struct Frame {
    /// Static evaluation (meaningless when in check).
    eval: i32,
    /// The move that led to this node's child currently being searched,
    /// with its piece, for continuation history.
    played: Option<PieceTo>,
    killers: [Move; 2],
    in_check: bool,
    /// Whether the side to move here is in check, when the move that led
    /// here already said so (the parent tests `gives_check` for its own
    /// reasons); `None`: the node works it out.
    check_known: Option<bool>,
    /// The move a singular-extension search leaves out at this node
    /// (`Move::NULL` in a normal search).
    excluded: Move,
    /// Whether this node is or was on a principal variation (a PV node,
    /// or a hash entry says so), stored with its result; the `lmr_tt_pv`
    /// and `lmr_not_tt_pv` rows reduce by it.
    tt_pv: bool,
}

/// A root move with what the last iterations learned about it.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub previous_score: i32,
    pub pv: Vec<Move>,
    pub seldepth: usize,
    /// Nodes this thread spent under the move in this search.
    pub effort: u64,
}

/// Late-move reduction table, indexed by depth and move number.
pub(crate) fn reductions(params: &Params) -> Vec<[u8; 64]> {
    let base = f64::from(params.lmr_base()) / 100.0;
    let divisor = f64::from(params.lmr_divisor()) / 100.0;
    (0..64)
        .map(|d| {
            let mut row = [0u8; 64];
            for (n, r) in row.iter_mut().enumerate() {
                if d > 0 && n > 0 {
                    *r = (base + (d as f64).ln() * (n as f64).ln() / divisor) as u8;
                }
            }
            row
        })
        .collect()
}

/// Plies added to the depth an endgame table value is stored with in the
/// hash table: it is exact at any depth, but an entry as deep as the
/// deepest search would crowd out the hash table's searched entries.
const TB_DEPTH_BONUS: i32 = 6;

/// One thread's search state.
pub(crate) struct Worker<'a> {
    pub id: usize,
    pub pos: Position,
    shared: &'a Shared<'a>,
    pub nodes: u64,
    pub seldepth: usize,
    frames: Vec<Frame>,
    /// The thread's move-ordering memory, kept from search to search.
    history: &'a mut History,
    pv: Vec<Vec<Move>>,
    /// The searcher's late-move reduction table.
    lmr: &'a [[u8; 64]],
    /// The search's constants.
    params: &'a Params,
    /// Ply count of the position at the root.
    root_ply: usize,
    pub root_moves: Vec<RootMove>,
    pub stopped: bool,
    pub completed_depth: u32,
    /// The best line of the last completed iteration.
    completed: Option<ThreadBest>,
    /// Decaying count of best-move changes between iterations.
    best_move_changes: f64,
    /// Iterations the best move has stayed the same.
    stable_iterations: u32,
    /// The network's accumulators along the search path, one per ply
    /// (empty without a network); the root's is always computed.
    accs: Box<[AccEntry]>,
    /// Verdicts of the repetition cycles met in this search.
    verdicts: Verdicts,
}

impl<'a> Worker<'a> {
    pub fn new(
        id: usize,
        pos: &Position,
        shared: &'a Shared<'a>,
        history: &'a mut History,
        root_moves: Vec<Move>,
    ) -> Worker<'a> {
        Worker {
            id,
            pos: pos.clone(),
            shared,
            nodes: 0,
            seldepth: 0,
            frames: vec![Frame::default(); MAX_PLY + 4],
            history,
            pv: (0..MAX_PLY + 2)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            lmr: shared.lmr,
            params: shared.params,
            root_ply: pos.ply_count(),
            root_moves: root_moves
                .into_iter()
                .map(|mv| RootMove {
                    mv,
                    score: -INFINITE,
                    previous_score: -INFINITE,
                    pv: vec![mv],
                    seldepth: 0,
                    effort: 0,
                })
                .collect(),
            stopped: false,
            completed_depth: 0,
            completed: None,
            best_move_changes: 0.0,
            stable_iterations: 0,
            accs: match shared.network {
                Some(net) => {
                    let root = AccEntry {
                        acc: Accumulator::new(net, pos),
                        step: Step::Null,
                        computed: true,
                    };
                    vec![root; MAX_PLY + 4].into_boxed_slice()
                }
                None => Box::default(),
            },
            verdicts: Verdicts::new(),
        }
    }

    /// Whether the side to move at `ply` (the current position) is in
    /// check: what the move that led here said, or the position's own test.
    #[inline]
    fn in_check_at(&self, ply: usize) -> bool {
        let known = self.frames[ply].check_known;
        debug_assert!(known.is_none_or(|c| c == self.pos.in_check()));
        known.unwrap_or_else(|| self.pos.in_check())
    }

    /// Plays `m` at `ply`, noting what it changes for the network, and
    /// whether it checks (`gives_check`, when the caller knows) for the
    /// child.
    #[inline]
    fn make_move(&mut self, m: Move, ply: usize, gives_check: Option<bool>) {
        self.frames[ply + 1].check_known = gives_check;
        if self.shared.network.is_some() {
            let change = Change::of_move(&self.pos, m).expect("move has a piece");
            let entry = &mut self.accs[ply + 1];
            entry.step = Step::Move(change);
            entry.computed = false;
        }
        self.pos.make_move(m);
        // The move loops asked for this bucket when they picked the move
        // (`prefetch_child`); the root and ProbCut did not.
        self.shared.tt.prefetch(self.pos.key());
    }

    /// Asks for the hash-table bucket of the position after `m` as soon
    /// as the move loop picks it: the pruning tests, the check test and
    /// the move itself then run while the bucket comes from memory, where
    /// a prefetch only after the move arrived too late for the child's
    /// probe (the probe's wait was 85% of its time, 16% of the search's).
    #[inline]
    fn prefetch_child(&self, m: Move) {
        self.shared.tt.prefetch(self.pos.key_after(m));
    }

    /// Passes at `ply` (null-move pruning): the child shares the parent's
    /// accumulators.
    #[inline]
    fn make_null_move(&mut self, ply: usize) {
        // A pass never checks: the side that passed was not in check, and
        // the other side's king was not attacked before (that would have
        // been an illegal position).
        self.frames[ply + 1].check_known = Some(false);
        if self.shared.network.is_some() {
            let entry = &mut self.accs[ply + 1];
            entry.step = Step::Null;
            entry.computed = false;
        }
        self.pos.make_null_move();
        self.shared.tt.prefetch(self.pos.key());
    }

    /// The static evaluation of the node at `ply` (the current position):
    /// the network's when the search has one, else the hand-written one;
    /// clamped to [`EVAL_LIMIT`] so that no evaluation (a random network,
    /// an absurd weights file) is read as a mate or a rule verdict.
    #[inline]
    fn evaluate(&mut self, ply: usize) -> i32 {
        let eval = match self.shared.network {
            None => shuai_eval::evaluate_with(&self.pos, self.shared.weights),
            Some(net) => {
                if self.shared.full_refresh {
                    self.accs[ply].acc.refresh(net, &self.pos);
                } else {
                    self.update_accumulators(net, ply);
                }
                let side = self.pos.side_to_move();
                let eval = nnue::evaluate(net, &self.accs[ply].acc, side);
                if self.params.nnue_endgame_scale() != 0 {
                    // The network has seen too few of the endings the
                    // hand-written rules know to be drawn (it read a lone
                    // cannon with two elephants as six pawns up).
                    let strong = if eval > 0 { side } else { !side };
                    eval * shuai_eval::endgame::scale_factor(&self.pos, strong)
                        / shuai_eval::endgame::SCALE_NORMAL
                } else {
                    eval
                }
            }
        };
        eval.clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// The hash table's entry for the current position (the node at `ply`), its
    /// mate scores checked against the natural-move limit: the entry may
    /// come from the same placement reached with fewer plies on the clock.
    #[inline]
    fn tt_probe(&self, ply: usize) -> Option<Hit> {
        let plies_left = self
            .shared
            .natural_limit
            .saturating_sub(u32::from(self.pos.halfmove_clock()));
        self.shared.tt.probe(self.pos.key(), ply).map(|h| Hit {
            score: limit_mate(h.score, ply, plies_left),
            ..h
        })
    }

    /// The endgame tables' score of the node at `ply` (searched to `depth`,
    /// 0 in quiescence) when the move that led here was a capture into an
    /// ending they cover, stored in the hash table as exact (deeper than
    /// searched, like a proof). `None` without tables, in a singular-extension search (its
    /// node was probed already) or when the ending is not covered.
    #[inline]
    fn tb_probe(&mut self, ply: usize, depth: i32, singular_search: bool) -> Option<i32> {
        let tb = self.shared.tablebase?;
        if singular_search
            || self.pos.last_captured().is_none()
            || self.pos.occupied().count() as usize > self.shared.tb_pieces
        {
            return None;
        }
        let value = tb.probe(&self.pos)?;
        self.shared.tb_hits.fetch_add(1, Ordering::Relaxed);
        let plies_left = self
            .shared
            .natural_limit
            .saturating_sub(u32::from(self.pos.halfmove_clock()));
        let score = crate::tablebase::score(value, ply, plies_left);
        self.shared.tt.store(
            self.pos.key(),
            ply,
            None,
            score,
            0,
            (depth + TB_DEPTH_BONUS).min(MAX_PLY as i32 - 1),
            Bound::Exact,
            false,
        );
        Some(score)
    }

    /// Brings the accumulators of the path up to `ply` up to date, from
    /// the nearest ply whose accumulators are computed (the root's always
    /// are).
    fn update_accumulators(&mut self, net: &Network, ply: usize) {
        let mut first = ply;
        while !self.accs[first].computed {
            first -= 1;
        }
        for p in first + 1..=ply {
            let (done, rest) = self.accs.split_at_mut(p);
            let parent = &done[p - 1].acc;
            let entry = &mut rest[0];
            match entry.step {
                Step::Move(change) => entry.acc.update(parent, net, &change),
                Step::Null => entry.acc = *parent,
            }
            entry.computed = true;
        }
    }

    /// `raw` (a static evaluation of the current position) moved by the
    /// correction history, inside the evaluation's range.
    #[inline]
    fn corrected(&self, raw: i32) -> i32 {
        let mut eval = raw + self.history.correction.of(&self.pos);
        // An advantage that has gone many plies without a capture is
        // drifting toward the natural-move limit's draw: worth less, so
        // the search prefers the line that makes progress.
        let damp = self.params.natural_damp();
        if damp > 0 {
            let quiet_plies = i32::from(self.pos.halfmove_clock()).min(damp);
            eval = eval * (damp - quiet_plies) / damp;
        }
        eval.clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// The thread's result for the Lazy SMP vote: the line of its last
    /// completed iteration, or the move that beat it in the interrupted
    /// one (proven by a full-window search, but not reported yet).
    pub fn best(&self) -> ThreadBest {
        let rm = &self.root_moves[0];
        match &self.completed {
            Some(done) if done.mv == rm.mv => done.clone(),
            _ => ThreadBest {
                mv: rm.mv,
                score: rm.score,
                depth: self.completed_depth,
                seldepth: rm.seldepth,
                pv: rm.pv.clone(),
                shown: false,
            },
        }
    }

    /// What the completed iterations say about how hard the move is, for
    /// the time manager.
    pub fn progress(&self) -> Progress {
        let best = &self.root_moves[0];
        Progress {
            score_drop: if best.previous_score > -INFINITE {
                (best.previous_score - best.score).max(0)
            } else {
                0
            },
            best_move_changes: self.best_move_changes,
            stable_iterations: self.stable_iterations,
            best_move_effort: best.effort as f64 / self.nodes.max(1) as f64,
        }
    }

    /// Counts a node and, every `check_mask + 1` nodes (1024 unless a
    /// small node limit asks for more), publishes the count and checks the
    /// stop conditions.
    #[inline]
    fn visit(&mut self) {
        self.nodes += 1;
        if self.nodes & self.shared.check_mask == 0 {
            self.shared.node_counts[self.id].store(self.nodes, Ordering::Relaxed);
            if self.id == 0 {
                self.shared.check_limits();
            }
            if self.shared.control.stopped() {
                self.stopped = true;
            }
        }
    }

    /// The moves that led to the node at `ply` (the last, the one before,
    /// and the side's own move four plies back), for continuation history.
    fn previous_moves(&self, ply: usize) -> [Option<PieceTo>; 3] {
        let back = |n: usize| ply.checked_sub(n).and_then(|p| self.frames[p].played);
        [back(1), back(2), back(4)]
    }

    /// The principal variation at `ply`: `m`, then the child's.
    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(m);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// Whether the side to move has a rook, horse or cannon (null-move
    /// pruning is unsafe in pawn and defender endings, where zugzwang is
    /// common).
    fn has_attacking_material(&self) -> bool {
        let side = self.pos.side_to_move();
        [PieceKind::Rook, PieceKind::Horse, PieceKind::Cannon]
            .iter()
            .any(|&k| self.pos.pieces(side, k).any())
    }

    /// A draw by insufficient material or by the natural-move limit.
    /// The score the path alone decides at `ply`, in the main search and
    /// in quiescence: a repetition's verdict (only after a quiet move: after
    /// a capture no earlier position can recur), a draw by material, or the
    /// natural-move limit.
    fn path_verdict(&mut self, in_check: bool, ply: usize) -> Option<i32> {
        if self.pos.halfmove_clock() > 0 {
            let book = self.shared.rule_book;
            let verdicts = &mut self.verdicts;
            if let Some(score) = repetition::score(&self.pos, self.root_ply, ply, book, verdicts) {
                return Some(score);
            }
        }
        self.draw_by_material_or_limit(in_check, ply)
    }

    fn draw_by_material_or_limit(&self, in_check: bool, ply: usize) -> Option<i32> {
        let attackers = self.pos.kind_bb(PieceKind::Rook)
            | self.pos.kind_bb(PieceKind::Horse)
            | self.pos.kind_bb(PieceKind::Cannon)
            | self.pos.kind_bb(PieceKind::Pawn);
        if attackers.is_empty() {
            return Some(DRAW);
        }
        if u32::from(self.pos.halfmove_clock()) >= self.shared.natural_limit {
            // Mate on the last move of the stretch still wins.
            if in_check && !self.pos.has_legal_move() {
                return Some(mated_in(ply));
            }
            return Some(DRAW);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Control, Limits, TimeManager, TranspositionTable};
    use shuai_board::rules::RuleBook;
    use std::sync::atomic::AtomicU64;

    /// Runs `f` with a one-thread search context (hand-written
    /// evaluation, Chinese rules, a 1 MB table, depth-1 limits).
    fn with_shared<R>(f: impl FnOnce(&Shared, &TranspositionTable) -> R) -> R {
        let tt = TranspositionTable::new(1);
        let control = Control::new();
        let limits = Limits::depth(1);
        let params = Params::default();
        let lmr = reductions(&params);
        let shared = Shared {
            tt: &tt,
            control: &control,
            limits: &limits,
            time: TimeManager::new(&limits, crate::host::Instant::now(), &params),
            node_counts: vec![AtomicU64::new(0)],
            check_mask: 1023,
            natural_limit: 120,
            rule_book: RuleBook::Chinese,
            reporter: &|_| {},
            weights: &shuai_eval::Weights::DEFAULT,
            network: None,
            full_refresh: false,
            lmr: &lmr,
            params: &params,
            tablebase: None,
            tb_pieces: 0,
            tb_hits: AtomicU64::new(0),
            root_score: None,
            last_status_ms: AtomicU64::new(0),
        };
        f(&shared, &tt)
    }

    /// A mate the hash table learned with few plies on the clock is only an
    /// unproven win when the same placement comes back too close to the
    /// natural-move limit for that mate.
    #[test]
    fn table_mates_respect_the_natural_limit() {
        with_shared(|shared, tt| {
            let placement = "4k4/9/9/9/9/9/9/9/R8/1R1K5 w - -";
            let early = Position::from_fen(&format!("{placement} 0 1")).unwrap();
            // Mate in 3 plies from this node, found at ply 2 of some search.
            tt.store(early.key(), 2, None, mate_in(5), 0, 6, Bound::Exact, false);
            for (clock, expected) in [(0, mate_in(5)), (117, mate_in(5)), (118, UNPROVEN_WIN)] {
                let pos = Position::from_fen(&format!("{placement} {clock} 60")).unwrap();
                let mut history = History::new();
                let worker = Worker::new(0, &pos, shared, &mut history, Vec::new());
                assert_eq!(
                    worker.tt_probe(2).map(|h| h.score),
                    Some(expected),
                    "clock {clock}"
                );
            }
        });
    }

    /// A check chain met in a depth-9 bench search: Red in check from the
    /// cannon, through the bishop.
    const CHECK_CHAIN_FEN: &str = "5a3/9/4k4/5N3/9/p8/9/3KB3c/4n4/4C4 w - - 55 31";

    /// Quiescence with a full window from `fen`: its score, nodes and
    /// selective depth.
    fn quiescence_from(fen: &str) -> (i32, u64, usize) {
        with_shared(|shared, _| {
            let pos = Position::from_fen(fen).unwrap();
            let mut history = History::new();
            let mut worker = Worker::new(0, &pos, shared, &mut history, Vec::new());
            let score = worker.quiescence::<true>(-INFINITE, INFINITE, 0);
            (score, worker.nodes, worker.seldepth)
        })
    }

    /// Quiescence searches evasions in check, and an evasion that checks
    /// back is a quiet move: from [`CHECK_CHAIN_FEN`] such chains ran 65
    /// plies deep and through 3.3 million nodes (in the bench, to ply 126
    /// and 1.7 billion nodes) until repetitions and the natural-move limit
    /// ended them. Then 7 and 91, and 5 and 51 since evasions are pruned.
    #[test]
    fn quiescence_check_chains_end_in_repetitions() {
        let (_, nodes, seldepth) = quiescence_from(CHECK_CHAIN_FEN);
        assert!(seldepth <= 12, "seldepth {seldepth}");
        assert!(nodes <= 10_000, "nodes {nodes}");
    }

    /// Once one evasion has escaped mate, quiescence skips the evasions
    /// that lose material by SEE and the quiet ones with a bad history:
    /// from [`CHECK_CHAIN_FEN`] the same score, 152, in 51 nodes and 5
    /// plies where searching every evasion took 91 and 7.
    #[test]
    fn quiescence_prunes_evasions_once_mate_is_escaped() {
        assert_eq!(quiescence_from(CHECK_CHAIN_FEN), (152, 51, 5));
    }
}
