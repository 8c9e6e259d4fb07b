//! The principal variation search below the root: the hash table, pruning,
//! extensions and reductions, in numbered steps.

use super::Worker;
use crate::history::{bonus, PieceTo};
use crate::ordering::{
    good_capture, is_capture, victim_value, MovePicker, OrderingHints, QuietExtras,
};

use crate::score::*;
use crate::shape;
use crate::tt::{Bound, Hit};
use shuai_board::{GenKind, Move, MoveList, Position};

/// What the singular-extension test found for a hash move.
enum Singular {
    /// Not tried, or nothing to change.
    Untested,
    /// Search the move this many plies deeper (or, negative, shallower).
    Extend(i32),
    /// Return this score from the node (multi-cut, or a stopped search).
    Cut(i32),
}

/// The quiet moves tried before a cutoff whose history is lowered: the
/// first this many (later ones were mostly pruned or reduced anyway).
const MAX_QUIETS_PUNISHED: usize = 64;

/// Null-move reduction with the hand-written evaluation: this many plies
/// plus one per [`HCE_NMP_DEPTH_DIV`] plies of depth.
const HCE_NMP_BASE: i32 = 2;

/// See [`HCE_NMP_BASE`].
const HCE_NMP_DEPTH_DIV: i32 = 4;

impl Worker<'_> {
    /// The principal variation search below the root.
    pub(super) fn search<const PV: bool>(
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
        shape::count_node(depth);
        // The full king test (pins, screens, check answers) waits for the
        // move generation: many nodes end before it.
        let in_check = self.in_check_at(ply);

        // Step 2. Draws and rule verdicts that depend on the path.
        if let Some(score) = self.path_verdict(in_check, ply) {
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

        // Step 4. The hash table: its move first, its score if deep enough
        // (not in a singular-extension search, which leaves a move out).
        let excluded = self.frames[ply].excluded;
        let singular_search = excluded != Move::NULL;
        let key = self.pos.key();
        let hit = self.tt_probe(ply);
        let tt_move = hit.and_then(|h| h.mv).filter(|&m| self.pos.is_legal(m));
        // On a principal variation now or when last stored (a singular
        // search keeps its node's answer, its own store being skipped).
        let tt_pv = if singular_search {
            self.frames[ply].tt_pv
        } else {
            PV || hit.is_some_and(|h| h.pv)
        };
        self.frames[ply].tt_pv = tt_pv;
        if let Some(h) = hit {
            if !PV && !singular_search && h.depth >= depth && h.cuts_off(alpha, beta) {
                return h.score;
            }
        }

        // Step 4b. The endgame tables: a capture into an ending with an
        // endgame table ends the search here with that table's value (after the
        // repetition verdicts of step 2, which the tables cannot know).
        // Only after a capture: a node of the root's material was either
        // answered at the root or is searched among the drawing moves.
        if let Some(score) = self.tb_probe(ply, depth, singular_search) {
            return score;
        }

        // Step 5. Static evaluation (the hash table's when it has one), moved
        // by what the correction history learned.
        let raw_eval = if in_check {
            -INFINITE
        } else if let Some(h) = hit {
            h.eval
        } else {
            self.evaluate(ply)
        };
        let eval = if in_check {
            raw_eval
        } else {
            self.corrected(raw_eval)
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
                && depth <= self.params.rfp_max_depth()
                && eval < EVAL_LIMIT
                && beta.abs() < RULE_BOUND
                && eval - self.params.rfp_margin() * (depth - i32::from(improving)) >= beta
            {
                return (eval + beta) / 2;
            }
            // Null move: if passing still beats beta, a real move will.
            if depth >= self.params.nmp_min_depth()
                && eval >= beta
                && self.has_attacking_material()
                && self.frames[ply.saturating_sub(1)].played.is_some()
            {
                // Deeper when the evaluation is well above beta: the
                // further ahead, the less a real move needs to show. With
                // the hand-written evaluation the reduction stays gentle:
                // a deeper one hid mating attacks and rule wins that its
                // tests pin (`keeps_the_cycle_when_the_opponents_perpetual_is_forbidden`).
                let r = if self.shared.network.is_some() {
                    self.params.nmp_base()
                        + depth / self.params.nmp_depth_div()
                        + ((eval - beta) / self.params.nmp_eval_div()).min(3)
                } else {
                    HCE_NMP_BASE + depth / HCE_NMP_DEPTH_DIV
                };
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
        // Step 6b. ProbCut: a good capture whose reduced search beats
        // beta by a margin would cut off at full depth too. Not when the
        // hash table already says the reduced search falls short. With the
        // network only, like the other cuts that trust the evaluation
        // (measured with the network; the hand-written evaluation's tests
        // pin mating attacks such cuts hid).
        let probcut_beta = beta + self.params.probcut_margin();
        if !PV
            && !in_check
            && !singular_search
            && self.shared.network.is_some()
            && depth >= self.params.probcut_min_depth()
            && beta.abs() < RULE_BOUND
            && !hit.is_some_and(|h| h.depth >= depth - 3 && h.score < probcut_beta)
        {
            if let Some(score) = self.probcut(probcut_beta, eval, raw_eval, depth, ply, cut_node) {
                return score;
            }
        }

        // Step 7. Internal iterative reduction: without a hash move this
        // node was not searched before, so search it shallower first.
        if tt_move.is_none()
            && depth >= self.params.iir_depth()
            && (PV || cut_node)
            && !singular_search
        {
            depth -= 1;
        }

        // Step 8. Moves, ordered. The full legality test of the risky ones
        // (king moves, pieces that may shield the king) waits until a move
        // is about to be played (step 9b): most are never played.
        let shield = self.pos.king_shield();
        debug_assert_eq!(shield.in_check(), in_check);
        let mut picker = MovePicker::new();
        self.pos
            .generate_unverified(GenKind::All, &shield, picker.moves_mut());
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
        picker.score(&self.pos, &hints, self.history);

        let mut best = -INFINITE;
        let mut best_move = None;
        let mut quiets_tried: MoveList = MoveList::new();
        let mut captures_tried: MoveList = MoveList::new();
        let mut searched = 0usize;
        let original_alpha = alpha;
        let (check_bonus, threat_scale) =
            (self.params.order_check_bonus(), self.params.order_threat());
        while let Some(m) = picker.next(&self.pos, || {
            let scorer = self.history.quiet_scorer(side, prevs);
            let pos = &self.pos;
            let extras = (check_bonus != 0 || threat_scale != 0)
                .then(|| QuietExtras::new(pos, check_bonus, threat_scale));
            move |m: Move| {
                let piece = pos.piece_at(m.from()).expect("move has a piece");
                scorer.score(piece, m) + extras.as_ref().map_or(0, |e| e.score(pos, piece, m))
            }
        }) {
            if m == excluded {
                continue;
            }
            self.prefetch_child(m);
            let capture = is_capture(&self.pos, m);
            let gives_check = self.pos.gives_check(m);
            let quiet = !capture;
            // Step 9. Shallow pruning of moves unlikely to matter: late
            // quiet moves, futile quiet moves, quiet moves with a bad
            // history, losing captures (and losing checks, by a row).
            if (!PV || self.params.pv_prune() != 0)
                && !in_check
                && best > -MATE_BOUND
                && searched > 0
            {
                if gives_check {
                    // A check, capture or not, is not pruned by the cuts
                    // below: a losing one is often the sacrifice that
                    // opens the palace. Only the `check_see_margin` row
                    // (off at 0) skips one that loses more than its margin
                    // by SEE, more the deeper the node, as Pikafish prunes
                    // checks with the captures.
                    let margin = self.params.check_see_margin();
                    if margin > 0
                        && self.shared.network.is_some()
                        && depth <= self.params.see_prune_max_depth()
                        && !self.pos.see_ge(m, -margin * depth)
                    {
                        continue;
                    }
                } else if quiet {
                    // The depth the move would be searched at after its
                    // reduction, or the node's (the `prune_lmr_depth` row).
                    // With the network only: with the hand-written
                    // evaluation it hid mating attacks that its tests pin
                    // (`finds_mating_attacks_the_old_pruning_hid`).
                    let mut futility_depth =
                        if self.params.prune_lmr_depth() != 0 && self.shared.network.is_some() {
                            let r = self.reduction(depth, searched + 1);
                            (depth - r).max(1)
                        } else {
                            depth
                        };
                    let history_div = self.params.futility_history_div();
                    if history_div > 0 && self.shared.network.is_some() {
                        let piece = self.pos.piece_at(m.from()).expect("move has a piece");
                        let history = self.history.quiet_scorer(side, prevs).score(piece, m);
                        futility_depth = (futility_depth + history / history_div).max(0);
                    }
                    let lmp_limit =
                        (self.params.lmp_base() + depth * depth) / if improving { 1 } else { 2 };
                    if depth <= self.params.lmp_max_depth() && searched as i32 >= lmp_limit {
                        continue;
                    }
                    if futility_depth <= self.params.futility_max_depth()
                        && eval
                            + self.params.futility_base()
                            + self.params.futility_per_depth() * futility_depth
                            <= alpha
                    {
                        continue;
                    }
                    if depth <= self.params.history_prune_depth()
                        && self
                            .history
                            .quiet_scorer(side, prevs)
                            .score(self.pos.piece_at(m.from()).expect("move has a piece"), m)
                            < -self.params.history_prune_margin() * depth
                    {
                        continue;
                    }
                    // A quiet move that hangs material by SEE, more of it
                    // the deeper the node.
                    if depth <= self.params.quiet_see_max_depth()
                        && !self
                            .pos
                            .see_ge(m, -self.params.quiet_see_margin() * depth * depth)
                    {
                        continue;
                    }
                } else if capture {
                    // A capture that cannot lift the evaluation to alpha
                    // even with its victim and a margin for what follows
                    // (Pikafish's futility of captures; the
                    // `cap_futility_*` rows, off at 0), with the network
                    // only, like the other cuts that trust it.
                    if self.params.cap_futility_base() > 0 && self.shared.network.is_some() {
                        let r = self.reduction(depth, searched + 1);
                        let lmr_depth = (depth - 1 - r).max(0);
                        let victim = victim_value(&self.pos, m);
                        if lmr_depth <= self.params.cap_futility_max_depth()
                            && eval
                                + self.params.cap_futility_base()
                                + self.params.cap_futility_per_depth() * lmr_depth
                                + victim
                                + self.history.capture(&self.pos, m)
                                    / self.params.cap_futility_history_div()
                                <= alpha
                        {
                            continue;
                        }
                    }
                    // A capture that loses material by SEE, more of it the
                    // deeper the node.
                    if depth <= self.params.see_prune_max_depth()
                        && !good_capture(&self.pos, m, -self.params.see_prune_margin() * depth)
                    {
                        continue;
                    }
                }
            }
            // Step 9b. A move that would leave the king attacked is not a
            // move (pruned moves above never needed the test).
            if !self.pos.legal_given(&shield, m) {
                continue;
            }
            // Step 10. Extensions: a singular hash move (the only move
            // that holds, by a reduced search of the others) is searched
            // deeper (two plies when clearly so), and one that others
            // also hold reduced; else a check is extended.
            let extend_more = ply < 2 * self.completed_depth.max(4) as usize;
            let mut extension = i32::from(
                gives_check
                    && extend_more
                    && match self.params.check_extension() {
                        0 => false,
                        1 => true,
                        _ => self.pos.see_ge(m, 0),
                    },
            );
            if let Some(h) = hit.filter(|_| {
                Some(m) == tt_move
                    && extend_more
                    && !singular_search
                    && depth >= self.params.se_min_depth()
            }) {
                match self.singular(PV, h, m, depth, beta, ply, cut_node) {
                    Singular::Untested => {}
                    Singular::Extend(e) => extension = e,
                    Singular::Cut(score) => return score,
                }
            }
            let piece = self.pos.piece_at(m.from()).expect("move has a piece");
            self.frames[ply].played = Some(PieceTo { piece, to: m.to() });
            let mut new_depth = depth - 1 + extension;
            self.make_move(m, ply, Some(gives_check));
            self.visit();
            searched += 1;
            let mut score;
            if searched == 1 {
                score = -self.search::<PV>(-beta, -alpha, new_depth, ply + 1, !PV && !cut_node);
            } else {
                // Late move reductions for quiet moves tried late.
                let mut r = 0;
                if depth >= 3 && searched > 1 + usize::from(PV) && quiet {
                    r = self.reduction(depth, searched);
                    r -= i32::from(PV);
                    r -= i32::from(tt_pv) * self.params.lmr_tt_pv();
                    r += i32::from(!tt_pv) * self.params.lmr_not_tt_pv();
                    r += i32::from(cut_node) * self.params.lmr_cut_node();
                    r -= i32::from(improving);
                    r -= i32::from(gives_check);
                    // Moves with a good history are reduced less, those
                    // with a bad one more.
                    let history = self.history.quiet_scorer(side, prevs).score(piece, m);
                    r -= history / self.params.lmr_history_div();
                    r = r.clamp(0, new_depth - 1);
                } else if depth >= 3
                    && searched > 1 + usize::from(PV)
                    && capture
                    && self.params.lmr_captures() != 0
                {
                    // Late captures (ordered by gain and history, so the
                    // likely ones came first) a ply less than quiet moves.
                    r = self.reduction(depth, searched) - 1;
                    r -= i32::from(PV);
                    r += i32::from(cut_node);
                    r -= i32::from(gives_check);
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.search::<false>(-alpha - 1, -alpha, new_depth - r, ply + 1, true);
                if score > alpha && r > 0 {
                    // A reduced search that beat alpha by far is searched
                    // a ply deeper than usual, one that barely did a ply
                    // shallower (the `lmr_deeper`/`lmr_shallower` rows).
                    let reduced = new_depth - r;
                    let (deeper, shallower) =
                        (self.params.lmr_deeper(), self.params.lmr_shallower());
                    new_depth += i32::from(deeper > 0 && score > best + deeper)
                        - i32::from(shallower > 0 && score < best + shallower);
                    if new_depth > reduced {
                        score = -self.search::<false>(
                            -alpha - 1,
                            -alpha,
                            new_depth,
                            ply + 1,
                            !cut_node,
                        );
                    }
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
                        shape::count_cutoff(searched == 1);
                        // The move that cut off is rewarded, and the
                        // captures tried before it (which did not) are
                        // punished, whichever kind of move it was.
                        let b = bonus(depth);
                        if quiet {
                            self.reward_quiet(ply, m, depth, &quiets_tried);
                        } else {
                            self.history.update_capture(&self.pos, m, b);
                        }
                        for &c in captures_tried.iter() {
                            self.history.update_capture(&self.pos, c, -b);
                        }
                        break;
                    }
                    // A PV node whose alpha rose searches the rest
                    // shallower (the `pv_alpha_reduction` row, off at 0).
                    let pv_cut = self.params.pv_alpha_reduction();
                    if PV
                        && pv_cut > 0
                        && depth > 3
                        && depth < 11
                        && !is_mate(score)
                        && !is_rule_score(score)
                    {
                        depth -= pv_cut;
                    }
                }
            }
            if quiet && quiets_tried.len() < MAX_QUIETS_PUNISHED {
                quiets_tried.push(m);
            } else if capture && captures_tried.len() < MAX_QUIETS_PUNISHED {
                captures_tried.push(m);
            }
        }
        if searched == 0 {
            // Nothing is pruned before the first move is searched, so every
            // move was illegal (checkmate or stalemate, both lost in
            // Xiangqi), or this is a singular-extension search whose only
            // legal move was left out.
            return if singular_search {
                alpha
            } else {
                mated_in(ply)
            };
        }
        if singular_search {
            return best;
        }
        // Step 12. The result into the hash table; what it says about the
        // static evaluation into the correction history (not from a
        // capture, whose gain the evaluation could not see, nor from a
        // bound on the evaluation's side).
        let bound = Bound::of(best, original_alpha, beta);
        if !in_check
            && best_move.is_none_or(|m| !is_capture(&self.pos, m))
            && best.abs() < EVAL_LIMIT
            && !(bound == Bound::Lower && best <= eval)
            && !(bound == Bound::Upper && best >= eval)
        {
            self.history.correction.update(&self.pos, eval, best, depth);
        }
        self.shared.tt.store(
            key,
            ply,
            best_move.or(tt_move),
            best,
            if in_check { 0 } else { raw_eval },
            depth,
            bound,
            tt_pv,
        );
        best
    }

    /// ProbCut's captures at `ply`: each capture that wins at least
    /// `probcut_beta - eval` by SEE is tried, first by quiescence, then
    /// by a search four plies shallower than `depth`. The first whose
    /// score reaches `probcut_beta` gives the node's score (stored as a
    /// lower bound three plies shallower).
    fn probcut(
        &mut self,
        probcut_beta: i32,
        eval: i32,
        raw_eval: i32,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Option<i32> {
        let shield = self.pos.king_shield();
        let mut picker = MovePicker::new();
        self.pos
            .generate_with_shield(GenKind::Captures, &shield, picker.moves_mut());
        picker.score_captures(&self.pos, self.history);
        while let Some(m) = picker.next(&self.pos, || |_| 0) {
            if !good_capture(&self.pos, m, probcut_beta - eval) {
                continue;
            }
            let piece = self.pos.piece_at(m.from()).expect("move has a piece");
            self.frames[ply].played = Some(PieceTo { piece, to: m.to() });
            self.make_move(m, ply, None);
            self.visit();
            let mut score = -self.quiescence::<false>(-probcut_beta, -probcut_beta + 1, ply + 1);
            if score >= probcut_beta {
                score = -self.search::<false>(
                    -probcut_beta,
                    -probcut_beta + 1,
                    depth - 4,
                    ply + 1,
                    !cut_node,
                );
            }
            self.pos.unmake_move();
            if self.stopped {
                return Some(0);
            }
            if score >= probcut_beta && !is_mate(score) && !is_rule_score(score) {
                self.shared.tt.store(
                    self.pos.key(),
                    ply,
                    Some(m),
                    score,
                    raw_eval,
                    depth - 3,
                    Bound::Lower,
                    self.frames[ply].tt_pv,
                );
                return Some(if self.params.probcut_pull() != 0 {
                    score - self.params.probcut_margin()
                } else {
                    score
                });
            }
        }
        None
    }

    /// Singular extension of the hash move `m` at `ply` (entry `h`): the
    /// other moves are searched at half depth against the hash score less
    /// a margin. None reaching it: `m` is singular, one ply more. One
    /// beating beta as well: the node is cut (multi-cut; with the
    /// `se_multicut_beta` row, whenever the reduced search reaches beta).
    /// Otherwise a hash score over beta says `m` need not be searched as
    /// deep: `se_negative` plies less (`se_cut_negative` at an expected cut
    /// node below beta).
    #[allow(clippy::too_many_arguments)]
    fn singular(
        &mut self,
        pv: bool,
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
        let singular_beta = h.score - self.params.se_margin() * depth / 16;
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
            // Far below: two plies, off the principal variation and not
            // past the iteration's depth in plies, which bounds how often
            // a line can be extended twice.
            let double = !pv
                && score < singular_beta - self.params.se_double_margin()
                && ply < self.completed_depth.max(4) as usize;
            Singular::Extend(if double { 2 } else { 1 })
        } else if singular_beta >= beta {
            Singular::Cut(singular_beta)
        } else if self.params.se_multicut_beta() != 0
            && score >= beta
            && !is_mate(score)
            && !is_rule_score(score)
        {
            Singular::Cut(score)
        } else if h.score >= beta {
            Singular::Extend(-self.params.se_negative())
        } else if cut_node && self.params.se_cut_negative() > 0 {
            Singular::Extend(-self.params.se_cut_negative())
        } else {
            Singular::Untested
        }
    }

    /// The late-move reduction table's plies for the `move_number`th move
    /// at `depth` (both clamped to the table).
    #[inline]
    fn reduction(&self, depth: i32, move_number: usize) -> i32 {
        i32::from(self.lmr[depth.clamp(0, 63) as usize][move_number.min(63)])
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
        let malus = b * self.params.quiet_malus_pct() / 100;
        for &q in tried.iter().filter(|&&q| q != m) {
            self.history
                .update_quiet(side, q, piece_to(&self.pos, q), &prevs, -malus);
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
}
