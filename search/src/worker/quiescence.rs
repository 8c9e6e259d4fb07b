//! Quiescence: captures (every evasion in check) until the position is
//! quiet, so that the evaluation is never taken in the middle of an exchange.

use super::Worker;
use crate::history::PieceTo;
use crate::ordering::{good_capture, is_capture, victim_value, MovePicker, OrderingHints};
use crate::score::*;
use crate::shape;
use crate::tt::Bound;
use shuai_board::{GenKind, Move};

impl Worker<'_> {
    /// Quiescence: captures (and every evasion when in check) until the
    /// position is quiet.
    pub(super) fn quiescence<const PV: bool>(
        &mut self,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.pv[ply].clear();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        shape::count_quiescence();
        let in_check = self.in_check_at(ply);
        // Draws and rule verdicts, as in the main search: check evasions
        // that check back are quiet moves, and such a chain runs on here
        // (it once reached ply 126 and 1.7 billion nodes in one depth-9
        // search) unless the repetition it makes, or the natural-move
        // limit, ends it.
        if let Some(score) = self.path_verdict(in_check, ply) {
            return score;
        }
        if ply >= MAX_PLY - 2 {
            return if in_check { 0 } else { self.evaluate(ply) };
        }
        let key = self.pos.key();
        let hit = self.tt_probe(ply);
        let tt_pv = PV || hit.is_some_and(|h| h.pv);
        if let Some(h) = hit {
            if !PV && h.depth >= 0 && h.cuts_off(alpha, beta) {
                return h.score;
            }
        }
        // A capture into an ending with an endgame table: its value, as in the
        // main search (most captures into an ending happen down here,
        // where an evaluation would guess what the endgame table knows).
        if let Some(score) = self.tb_probe(ply, 0, false) {
            return score;
        }
        let mut best;
        let eval;
        let raw_eval;
        let kind = if in_check {
            eval = -INFINITE;
            raw_eval = 0;
            best = -INFINITE;
            GenKind::All
        } else {
            raw_eval = match hit {
                Some(h) => h.eval,
                None => self.evaluate(ply),
            };
            eval = self.corrected(raw_eval);
            if eval >= beta {
                return eval;
            }
            alpha = alpha.max(eval);
            best = eval;
            GenKind::Captures
        };
        // The full king test (pins, screens, check answers) only now: a
        // stand-pat cut-off does without it.
        let shield = self.pos.king_shield();
        let mut picker = MovePicker::new();
        self.pos
            .generate_with_shield(kind, &shield, picker.moves_mut());
        if in_check && picker.is_empty() {
            return mated_in(ply);
        }
        let original_alpha = alpha;
        let mut best_move = None;
        // In check, the evasions: the table's move, then captures by
        // victim, then quiet evasions by their history (read only if they
        // are reached), so that the pruning below keeps the likely ones.
        let prune_evasions = in_check && self.params.qs_evasion_prune() != 0;
        let prevs = self.previous_moves(ply);
        let side = self.pos.side_to_move();
        if prune_evasions {
            let hints = OrderingHints {
                tt_move: hit.and_then(|h| h.mv),
                killers: [Move::NULL; 2],
                counter: Move::NULL,
            };
            picker.score(&self.pos, &hints, self.history);
        } else {
            picker.score_captures(&self.pos, self.history);
        }
        while let Some(m) = picker.next(&self.pos, || {
            let scorer = self.history.quiet_scorer(side, prevs);
            let pos = &self.pos;
            move |m: Move| scorer.score(pos.piece_at(m.from()).expect("move has a piece"), m)
        }) {
            self.prefetch_child(m);
            // Once one evasion has escaped mate, the others must not lose
            // material by SEE, and quiet ones must have a history: a
            // check answered is rarely refuted by a quiet move nobody
            // has seen work, and checks that are answered by checks
            // otherwise multiply here.
            if prune_evasions && best > -MATE_BOUND {
                if !is_capture(&self.pos, m)
                    && self
                        .history
                        .quiet_scorer(side, prevs)
                        .score(self.pos.piece_at(m.from()).expect("move has a piece"), m)
                        < self.params.qs_evasion_history()
                {
                    continue;
                }
                if !good_capture(&self.pos, m, -self.params.qs_evasion_see()) {
                    continue;
                }
            }
            // Asked at most once a move: by the futility test, else for the
            // child (which then need not find out for itself).
            let mut gives_check = None;
            if !in_check {
                // Skip captures that lose material or cannot reach alpha.
                let victim = victim_value(&self.pos, m);
                if eval + victim + self.params.qs_futility_margin() <= alpha
                    && !*gives_check.get_or_insert_with(|| self.pos.gives_check(m))
                {
                    continue;
                }
                if !good_capture(&self.pos, m, -self.params.qs_see_margin()) {
                    continue;
                }
            }
            let gives_check = gives_check.unwrap_or_else(|| self.pos.gives_check(m));
            let piece = self.pos.piece_at(m.from()).expect("move has a piece");
            self.frames[ply].played = Some(PieceTo { piece, to: m.to() });
            self.make_move(m, ply, Some(gives_check));
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
            self.shared
                .tt
                .store(key, ply, best_move, best, raw_eval, 0, bound, tt_pv);
        }
        best
    }
}
