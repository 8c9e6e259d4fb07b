//! One search thread: iterative deepening over a principal variation
//! search with quiescence, pruning and reductions.

use crate::history::{bonus, History, PieceTo};
use crate::ordering::{good_capture, is_capture, MovePicker, OrderingHints};
use crate::params;
use crate::repetition;
use crate::score::*;
use crate::tt::{Bound, Hit};
use crate::vote::ThreadBest;
use crate::{Info, Shared};
use shuai_board::{GenKind, Move, MoveList, PieceKind, Position};
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
/// date from the nearest computed ancestor (nodes cut off by the table
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
    /// The move a singular-extension search leaves out at this node
    /// (`Move::NULL` in a normal search).
    excluded: Move,
}

/// What the singular-extension test found for a table move.
enum Singular {
    /// Not tried, or nothing to change.
    Untested,
    /// Search the move this many plies deeper (or, negative, shallower).
    Extend(i32),
    /// Return this score from the node (multi-cut, or a stopped search).
    Cut(i32),
}

/// A root move with what the last iterations learned about it.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub previous_score: i32,
    pub pv: Vec<Move>,
    pub seldepth: usize,
}

/// Late-move reduction table, indexed by depth and move number.
pub(crate) fn reductions() -> Vec<[u8; 64]> {
    let base = f64::from(params::lmr_base()) / 100.0;
    let divisor = f64::from(params::lmr_divisor()) / 100.0;
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
    /// Ply count of the position at the root.
    root_ply: usize,
    pub root_moves: Vec<RootMove>,
    pub stopped: bool,
    pub completed_depth: u32,
    /// The best line of the last completed iteration.
    completed: Option<ThreadBest>,
    /// Decaying count of best-move changes between iterations.
    best_move_changes: f64,
    /// The network's accumulators along the search path, one per ply
    /// (empty without a network); the root's is always computed.
    accs: Box<[AccEntry]>,
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
            root_ply: pos.ply_count(),
            root_moves: root_moves
                .into_iter()
                .map(|mv| RootMove {
                    mv,
                    score: -INFINITE,
                    previous_score: -INFINITE,
                    pv: vec![mv],
                    seldepth: 0,
                })
                .collect(),
            stopped: false,
            completed_depth: 0,
            completed: None,
            best_move_changes: 0.0,
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
        }
    }

    /// Plays `m` at `ply`, noting what it changes for the network.
    #[inline]
    fn make_move(&mut self, m: Move, ply: usize) {
        if self.shared.network.is_some() {
            let change = Change::of_move(&self.pos, m).expect("move has a piece");
            let entry = &mut self.accs[ply + 1];
            entry.step = Step::Move(change);
            entry.computed = false;
        }
        self.pos.make_move(m);
        self.shared.tt.prefetch(self.pos.key());
    }

    /// Passes at `ply` (null-move pruning): the child shares the parent's
    /// accumulators.
    #[inline]
    fn make_null_move(&mut self, ply: usize) {
        if self.shared.network.is_some() {
            let entry = &mut self.accs[ply + 1];
            entry.step = Step::Null;
            entry.computed = false;
        }
        self.pos.make_null_move();
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
                nnue::evaluate(net, &self.accs[ply].acc, side)
            }
        };
        eval.clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// The table's entry for the current position (the node at `ply`), its
    /// mate scores checked against the natural-move limit: the entry may
    /// come from the same placement reached with fewer plies on the clock.
    #[inline]
    fn probe(&self, ply: usize) -> Option<Hit> {
        let plies_left = self
            .shared
            .natural_limit
            .saturating_sub(u32::from(self.pos.halfmove_clock()));
        self.shared.tt.probe(self.pos.key(), ply).map(|h| Hit {
            score: limit_mate(h.score, ply, plies_left),
            ..h
        })
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

    /// How unsettled the best move is: 1.0 when it has not changed lately,
    /// up to about 2.5 when it keeps changing.
    pub fn instability(&self) -> f64 {
        1.0 + self.best_move_changes.min(3.0) * f64::from(params::tm_instability()) / 100.0
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

    /// Iterative deepening. The main thread (id 0) reports through
    /// `report`; helpers search on silently, skipping some depths so the
    /// threads spread over different depths.
    pub fn iterate(&mut self, max_depth: u32, multipv: usize, report: &mut dyn FnMut(&Info)) {
        let multipv = multipv.clamp(1, self.root_moves.len().max(1));
        let mut depth = 1;
        while depth <= max_depth && !self.stopped {
            if self.id > 0 && depth > 2 && (depth + self.id as u32) % 3 == 0 {
                depth += 1;
                continue;
            }
            for rm in &mut self.root_moves {
                rm.previous_score = rm.score;
            }
            let best_before = self.root_moves[0].mv;
            for pv_index in 0..multipv {
                self.aspiration(depth as i32, pv_index);
                if self.stopped {
                    break;
                }
                if self.id == 0 {
                    self.report(depth, pv_index, report);
                }
            }
            if self.stopped {
                break;
            }
            self.best_move_changes *= 0.5;
            if depth > 1 && self.root_moves[0].mv != best_before {
                self.best_move_changes += 1.0;
            }
            self.completed_depth = depth;
            let rm = &self.root_moves[0];
            self.completed = Some(ThreadBest {
                mv: rm.mv,
                score: rm.score,
                depth,
                seldepth: rm.seldepth,
                pv: rm.pv.clone(),
                shown: self.id == 0,
            });
            if self.id == 0 {
                // The root's result, for `probe` and the next search.
                let best = &self.root_moves[0];
                self.shared.tt.store(
                    self.pos.key(),
                    0,
                    Some(best.mv),
                    best.score,
                    self.frames[0].eval.max(-MATE_BOUND),
                    depth as i32,
                    Bound::Exact,
                );
            }
            if self.id == 0 && !self.shared.after_iteration(self) {
                break;
            }
            depth += 1;
        }
        self.shared.node_counts[self.id].store(self.nodes, Ordering::Relaxed);
    }

    fn report(&self, depth: u32, pv_index: usize, report: &mut dyn FnMut(&Info)) {
        self.shared.node_counts[self.id].store(self.nodes, Ordering::Relaxed);
        let rm = &self.root_moves[pv_index];
        let info = self.shared.info(
            depth,
            rm.seldepth,
            pv_index + 1,
            rm.score,
            None,
            rm.pv.clone(),
        );
        report(&info);
    }

    /// Aspiration windows around the previous score of this line.
    fn aspiration(&mut self, depth: i32, pv_index: usize) {
        let prev = self.root_moves[pv_index].previous_score;
        let mut delta = params::asp_delta() + prev.abs() / params::asp_score_div();
        let (mut alpha, mut beta) = if depth >= 4 && prev > -INFINITE && !is_mate(prev) {
            ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let score = self.root_search(alpha, beta, depth, pv_index);
            if self.stopped {
                return;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
            } else if score >= beta {
                beta = (score + delta).min(INFINITE);
            } else {
                return;
            }
            delta += delta / 2 + params::asp_growth();
            if delta > 1000 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    /// Searches the root moves from `pv_index` on and sorts them by score.
    /// When the search is stopped part-way, a move that has already beaten
    /// the first one with a full-window search still takes the lead: it is
    /// proven better at this depth, while the others are not searched yet.
    fn root_search(&mut self, mut alpha: i32, beta: i32, depth: i32, pv_index: usize) -> i32 {
        self.seldepth = 0;
        let mut best = -INFINITE;
        // The move that last raised alpha after the first move.
        let mut new_best: Option<usize> = None;
        let in_check = self.pos.in_check();
        self.frames[0] = Frame {
            in_check,
            eval: if in_check {
                -INFINITE
            } else {
                self.evaluate(0)
            },
            ..Frame::default()
        };
        for i in pv_index..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            if self.id == 0 && self.shared.elapsed_ms() > 3000 {
                self.shared.report_currmove(depth as u32, m, i + 1);
            }
            let piece = self.pos.piece_at(m.from()).expect("root move has a piece");
            self.frames[0].played = Some(PieceTo { piece, to: m.to() });
            let gives_check = self.pos.gives_check(m);
            self.make_move(m, 0);
            self.visit();
            let new_depth = depth - 1 + i32::from(gives_check);
            let mut score;
            if i == pv_index {
                score = -self.search::<true>(-beta, -alpha, new_depth, 1, false);
            } else {
                score = -self.search::<false>(-alpha - 1, -alpha, new_depth, 1, true);
                if score > alpha && !self.stopped {
                    score = -self.search::<true>(-beta, -alpha, new_depth, 1, false);
                }
            }
            self.pos.unmake_move();
            if self.stopped {
                if let Some(j) = new_best {
                    self.root_moves[pv_index..=j].rotate_right(1);
                }
                return best;
            }
            let rm_seldepth = self.seldepth;
            let rm = &mut self.root_moves[i];
            if i == pv_index || score > alpha {
                rm.score = score;
                rm.seldepth = rm_seldepth;
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend_from_slice(&self.pv[1]);
            } else {
                rm.score = -INFINITE;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if i > pv_index {
                        new_best = Some(i);
                    }
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        // Stable sort keeps the previous order among equals.
        self.root_moves[pv_index..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
        best
    }

    /// The moves that led to the node at `ply` (the last, then the one
    /// before), for continuation history.
    fn previous_moves(&self, ply: usize) -> [Option<PieceTo>; 2] {
        [
            if ply >= 1 {
                self.frames[ply - 1].played
            } else {
                None
            },
            if ply >= 2 {
                self.frames[ply - 2].played
            } else {
                None
            },
        ]
    }

    /// The principal variation search below the root.
    fn search<const PV: bool>(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        // Step 1. Leaves go to quiescence; a stopped search unwinds.
        self.pv[ply].clear();
        if depth <= 0 {
            return self.quiescence::<PV>(alpha, beta, ply);
        }
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let shield = self.pos.king_shield();
        let in_check = shield.in_check();

        // Step 2. Draws and rule verdicts that depend on the path.
        if let Some(score) = repetition::score(&self.pos, self.root_ply, ply, self.shared.rule_book)
        {
            return score;
        }
        if let Some(score) = self.draw_by_material_or_limit(in_check, ply) {
            return score;
        }
        if ply >= MAX_PLY - 2 {
            return if in_check { 0 } else { self.evaluate(ply) };
        }
        // Step 3. Mate distance pruning.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        // Step 4. The table: its move first, its score if deep enough
        // (not in a singular-extension search, which leaves a move out).
        let excluded = self.frames[ply].excluded;
        let singular_search = excluded != Move::NULL;
        let key = self.pos.key();
        let hit = self.probe(ply);
        let tt_move = hit.and_then(|h| h.mv).filter(|&m| self.pos.is_legal(m));
        if let Some(h) = hit {
            if !PV && !singular_search && h.depth >= depth && h.cuts_off(alpha, beta) {
                return h.score;
            }
        }

        // Step 5. Static evaluation (the table's when it has one).
        let eval = if in_check {
            -INFINITE
        } else if let Some(h) = hit {
            h.eval
        } else {
            self.evaluate(ply)
        };
        self.frames[ply].eval = eval;
        self.frames[ply].in_check = in_check;
        self.frames[ply + 1].killers = [Move::NULL; 2];
        let improving = !in_check && ply >= 2 && eval > self.frames[ply - 2].eval;

        // Step 6. Reverse futility pruning, then the null move.
        if !PV && !in_check && !singular_search {
            // Reverse futility: a static evaluation far enough above beta
            // at a shallow depth stands. With the hand-written evaluation
            // this hid mating attacks (a side far ahead in material is
            // often the one about to be mated), so it is kept shallow and
            // off when the evaluation is the hand-written one.
            if self.shared.network.is_some()
                && depth <= params::rfp_max_depth()
                && eval < EVAL_LIMIT
                && beta.abs() < RULE_BOUND
                && eval - params::rfp_margin() * (depth - i32::from(improving)) >= beta
            {
                return (eval + beta) / 2;
            }
            // Null move: if passing still beats beta, a real move will.
            if depth >= params::nmp_min_depth()
                && eval >= beta
                && self.has_attacking_material()
                && self.frames[ply.saturating_sub(1)].played.is_some()
            {
                // A gentle reduction: the pass must not hide a mate threat
                // a few plies deep.
                let r = params::nmp_base() + depth / params::nmp_depth_div();
                self.frames[ply].played = None;
                self.make_null_move(ply);
                self.visit();
                let score = -self.search::<false>(-beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.pos.unmake_null_move();
                if self.stopped {
                    return 0;
                }
                if score >= beta && !is_mate(score) && !is_rule_score(score) {
                    return score;
                }
            }
        }
        // Step 7. Internal iterative reduction: without a table move this
        // node was not searched before, so search it shallower first.
        if tt_move.is_none() && depth >= params::iir_depth() && (PV || cut_node) && !singular_search
        {
            depth -= 1;
        }

        // Step 8. Moves, ordered.
        let mut picker = MovePicker::new();
        self.pos
            .generate_with_shield(GenKind::All, &shield, picker.moves_mut());
        if picker.is_empty() {
            // Checkmate and stalemate both lose in Xiangqi.
            return mated_in(ply);
        }
        let prevs = self.previous_moves(ply);
        let side = self.pos.side_to_move();
        let hints = OrderingHints {
            tt_move,
            killers: self.frames[ply].killers,
            counter: prevs[0].map_or(Move::NULL, |p| self.history.counter(p)),
        };
        picker.score(&self.pos, &hints);

        let mut best = -INFINITE;
        let mut best_move = None;
        let mut quiets_tried: MoveList = MoveList::new();
        let mut searched = 0usize;
        let original_alpha = alpha;
        while let Some(m) = picker.next(&self.pos, || {
            let scorer = self.history.quiet_scorer(side, prevs);
            let pos = &self.pos;
            move |m: Move| scorer.score(pos.piece_at(m.from()).expect("move has a piece"), m)
        }) {
            if m == excluded {
                continue;
            }
            let capture = is_capture(&self.pos, m);
            let gives_check = self.pos.gives_check(m);
            let quiet = !capture;
            // Step 9. Shallow pruning of moves unlikely to matter: late
            // quiet moves, futile quiet moves, quiet moves with a bad
            // history, losing captures.
            if !PV && !in_check && best > -MATE_BOUND && searched > 0 {
                if quiet && !gives_check {
                    let lmp_limit =
                        (params::lmp_base() + depth * depth) / if improving { 1 } else { 2 };
                    if depth <= params::lmp_max_depth() && searched as i32 >= lmp_limit {
                        continue;
                    }
                    if depth <= params::futility_max_depth()
                        && eval + params::futility_base() + params::futility_per_depth() * depth
                            <= alpha
                    {
                        continue;
                    }
                    if depth <= params::history_prune_depth()
                        && self
                            .history
                            .quiet_scorer(side, prevs)
                            .score(self.pos.piece_at(m.from()).expect("move has a piece"), m)
                            < -params::history_prune_margin() * depth
                    {
                        continue;
                    }
                } else if capture
                    && !gives_check
                    && depth <= params::see_prune_max_depth()
                    && !good_capture(&self.pos, m, -params::see_prune_margin() * depth)
                {
                    // A losing capture with check is often the sacrifice
                    // that opens the palace: never pruned.
                    continue;
                }
            }
            // Step 10. Extensions: a singular table move (the only move
            // that holds, by a reduced search of the others) is searched
            // deeper, and one that others also hold reduced; else a check
            // is extended.
            let extend_more = ply < 2 * self.completed_depth.max(4) as usize;
            let mut extension = i32::from(gives_check && extend_more);
            if let Some(h) = hit.filter(|_| {
                Some(m) == tt_move
                    && extend_more
                    && !singular_search
                    && depth >= params::se_min_depth()
            }) {
                match self.singular(h, m, depth, beta, ply, cut_node) {
                    Singular::Untested => {}
                    Singular::Extend(e) => extension = e,
                    Singular::Cut(score) => return score,
                }
            }
            let piece = self.pos.piece_at(m.from()).expect("move has a piece");
            self.frames[ply].played = Some(PieceTo { piece, to: m.to() });
            let new_depth = depth - 1 + extension;
            self.make_move(m, ply);
            self.visit();
            searched += 1;
            let mut score;
            if searched == 1 {
                score = -self.search::<PV>(-beta, -alpha, new_depth, ply + 1, !PV && !cut_node);
            } else {
                // Late move reductions for quiet moves tried late.
                let mut r = 0;
                if depth >= 3 && searched > 1 + usize::from(PV) && quiet {
                    r = i32::from(self.lmr[depth.min(63) as usize][searched.min(63)]);
                    r -= i32::from(PV);
                    r += i32::from(cut_node);
                    r -= i32::from(improving);
                    r -= i32::from(gives_check);
                    // Moves with a good history are reduced less, those
                    // with a bad one more.
                    let history = self.history.quiet_scorer(side, prevs).score(piece, m);
                    r -= history / params::lmr_history_div();
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.search::<false>(-alpha - 1, -alpha, new_depth - r, ply + 1, true);
                if score > alpha && r > 0 {
                    score =
                        -self.search::<false>(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                }
                if PV && score > alpha && score < beta {
                    score = -self.search::<true>(-beta, -alpha, new_depth, ply + 1, false);
                }
            }
            self.pos.unmake_move();
            if self.stopped {
                return 0;
            }
            // Step 11. A new best move; a cut-off rewards quiet moves.
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    alpha = score;
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if quiet {
                            self.reward_quiet(ply, m, depth, &quiets_tried);
                        }
                        break;
                    }
                }
            }
            if quiet && quiets_tried.len() < 64 {
                quiets_tried.push(m);
            }
        }
        if searched == 0 {
            // A singular-extension search whose only move was left out.
            debug_assert!(singular_search, "the first move is never pruned");
            return alpha;
        }
        if singular_search {
            return best;
        }
        // Step 12. The result into the table.
        let bound = Bound::of(best, original_alpha, beta);
        self.shared.tt.store(
            key,
            ply,
            best_move.or(tt_move),
            best,
            if in_check { 0 } else { eval },
            depth,
            bound,
        );
        best
    }

    /// Singular extension of the table move `m` at `ply` (entry `h`): the
    /// other moves are searched at half depth against the table score less
    /// a margin. None reaching it: `m` is singular, one ply more. One
    /// beating beta as well: the node is cut (multi-cut). Otherwise a table
    /// score over beta says `m` need not be searched as deep: one ply less.
    fn singular(
        &mut self,
        h: Hit,
        m: Move,
        depth: i32,
        beta: i32,
        ply: usize,
        cut_node: bool,
    ) -> Singular {
        // Off with the hand-written evaluation: its multi-cut hid a mate in
        // 7 plies at depth 8 that the search found before
        // (`finds_mating_attacks_the_old_pruning_hid`).
        if self.shared.network.is_none()
            || h.depth < depth - 3
            || !matches!(h.bound, Bound::Lower | Bound::Exact)
            || h.score.abs() >= UNPROVEN_WIN
        {
            return Singular::Untested;
        }
        let singular_beta = h.score - params::se_margin() * depth / 16;
        self.frames[ply].excluded = m;
        let score = self.search::<false>(
            singular_beta - 1,
            singular_beta,
            (depth - 1) / 2,
            ply,
            cut_node,
        );
        self.frames[ply].excluded = Move::NULL;
        if self.stopped {
            Singular::Cut(0)
        } else if score < singular_beta {
            Singular::Extend(1)
        } else if singular_beta >= beta {
            Singular::Cut(singular_beta)
        } else if h.score >= beta {
            Singular::Extend(-1)
        } else {
            Singular::Untested
        }
    }

    /// The principal variation at `ply`: `m`, then the child's.
    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(m);
        head[ply].extend_from_slice(&tail[0]);
    }

    fn reward_quiet(&mut self, ply: usize, m: Move, depth: i32, tried: &MoveList) {
        let side = self.pos.side_to_move();
        let prevs = self.previous_moves(ply);
        let b = bonus(depth);
        let piece_to = |pos: &Position, m: Move| PieceTo {
            piece: pos.piece_at(m.from()).expect("move has a piece"),
            to: m.to(),
        };
        self.history
            .update_quiet(side, m, piece_to(&self.pos, m), &prevs, b);
        for &q in tried.iter().filter(|&&q| q != m) {
            self.history
                .update_quiet(side, q, piece_to(&self.pos, q), &prevs, -b);
        }
        let killers = &mut self.frames[ply].killers;
        if killers[0] != m {
            killers[1] = killers[0];
            killers[0] = m;
        }
        if let Some(p) = prevs[0] {
            self.history.set_counter(p, m);
        }
    }

    /// Quiescence: captures (and every evasion when in check) until the
    /// position is quiet.
    fn quiescence<const PV: bool>(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let shield = self.pos.king_shield();
        let in_check = shield.in_check();
        if ply >= MAX_PLY - 2 {
            return if in_check { 0 } else { self.evaluate(ply) };
        }
        let key = self.pos.key();
        let hit = self.probe(ply);
        if let Some(h) = hit {
            if !PV && h.depth >= 0 && h.cuts_off(alpha, beta) {
                return h.score;
            }
        }
        let mut best;
        let eval;
        let mut picker = MovePicker::new();
        if in_check {
            eval = -INFINITE;
            best = -INFINITE;
            self.pos
                .generate_with_shield(GenKind::All, &shield, picker.moves_mut());
            if picker.is_empty() {
                return mated_in(ply);
            }
        } else {
            eval = match hit {
                Some(h) => h.eval,
                None => self.evaluate(ply),
            };
            if eval >= beta {
                return eval;
            }
            alpha = alpha.max(eval);
            best = eval;
            self.pos
                .generate_with_shield(GenKind::Captures, &shield, picker.moves_mut());
        }
        let original_alpha = alpha;
        let mut best_move = None;
        picker.score_captures(&self.pos);
        while let Some(m) = picker.next(&self.pos, || |_| 0) {
            if !in_check {
                // Skip captures that lose material or cannot reach alpha.
                let victim = self
                    .pos
                    .piece_at(m.to())
                    .map_or(0, |p| shuai_board::see_value(p.kind()));
                if eval + victim + params::qs_futility_margin() <= alpha && !self.pos.gives_check(m)
                {
                    continue;
                }
                if !good_capture(&self.pos, m, 0) {
                    continue;
                }
            }
            self.make_move(m, ply);
            self.visit();
            let score = -self.quiescence::<PV>(-beta, -alpha, ply + 1);
            self.pos.unmake_move();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        let bound = Bound::of(best, original_alpha, beta);
        if !in_check || best > -MATE_BOUND {
            self.shared.tt.store(
                key,
                ply,
                best_move,
                best,
                if in_check { 0 } else { eval },
                0,
                bound,
            );
        }
        best
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

    /// A mate the table learned with few plies on the clock is only an
    /// unproven win when the same placement comes back too close to the
    /// natural-move limit for that mate.
    #[test]
    fn table_mates_respect_the_natural_limit() {
        let tt = TranspositionTable::new(1);
        let control = Control::new();
        let limits = Limits::depth(1);
        let lmr = reductions();
        let shared = Shared {
            tt: &tt,
            control: &control,
            limits: &limits,
            time: TimeManager::new(&limits, std::time::Instant::now()),
            node_counts: vec![AtomicU64::new(0)],
            check_mask: 1023,
            natural_limit: 120,
            rule_book: RuleBook::Chinese,
            reporter: &|_| {},
            weights: &shuai_eval::Weights::DEFAULT,
            network: None,
            full_refresh: false,
            lmr: &lmr,
        };
        let placement = "4k4/9/9/9/9/9/9/9/R8/1R1K5 w - -";
        let early = Position::from_fen(&format!("{placement} 0 1")).unwrap();
        // Mate in 3 plies from this node, found at ply 2 of some search.
        tt.store(early.key(), 2, None, mate_in(5), 0, 6, Bound::Exact);
        for (clock, expected) in [(0, mate_in(5)), (117, mate_in(5)), (118, UNPROVEN_WIN)] {
            let pos = Position::from_fen(&format!("{placement} {clock} 60")).unwrap();
            let mut history = History::new();
            let worker = Worker::new(0, &pos, &shared, &mut history, Vec::new());
            assert_eq!(
                worker.probe(2).map(|h| h.score),
                Some(expected),
                "clock {clock}"
            );
        }
    }
}
