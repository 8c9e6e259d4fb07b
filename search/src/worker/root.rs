//! The root: iterative deepening, aspiration windows and the search of the
//! root moves, which keeps their order, scores and lines.

use super::{Frame, Worker};
use crate::history::PieceTo;
use crate::score::*;
use crate::tt::Bound;
use crate::vote::ThreadBest;
use crate::Info;
use std::sync::atomic::Ordering;

/// An aspiration window wider than this (centipawns, each side) is opened
/// fully: a score that keeps failing by this much is far from the guess.
const ASPIRATION_GIVE_UP: i32 = 1000;

/// The main thread reports the root move it searches (`currmove`) only
/// after this many milliseconds, when a GUI has time to show it.
const CURRMOVE_AFTER_MS: u128 = 3000;

/// Each iteration keeps this share of the best-move changes counted
/// before, so that old changes fade.
const BEST_MOVE_CHANGES_DECAY: f64 = 0.5;

impl Worker<'_> {
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
            self.best_move_changes *= BEST_MOVE_CHANGES_DECAY;
            if depth > 1 && self.root_moves[0].mv != best_before {
                self.best_move_changes += 1.0;
                self.stable_iterations = 0;
            } else {
                self.stable_iterations += 1;
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
                    true,
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
        let mut delta = self.params.asp_delta() + prev.abs() / self.params.asp_score_div();
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
            delta += delta / 2 + self.params.asp_growth();
            if delta > ASPIRATION_GIVE_UP {
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
            if self.id == 0 && self.shared.elapsed_ms() > CURRMOVE_AFTER_MS {
                self.shared.report_currmove(depth as u32, m, i + 1);
            }
            let piece = self.pos.piece_at(m.from()).expect("root move has a piece");
            self.frames[0].played = Some(PieceTo { piece, to: m.to() });
            let gives_check = self.pos.gives_check(m);
            let nodes_before = self.nodes;
            self.make_move(m, 0, Some(gives_check));
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
            self.root_moves[i].effort += self.nodes - nodes_before;
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
}
