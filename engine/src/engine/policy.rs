//! The move-choice policy at the end of a search: which move to play
//! (the best, one of the nearly equal ones, or a weakened level's choice),
//! whether to offer or accept a draw, when to resign, and a legal move
//! when the search failed.

use super::options::{EngineOptions, Randomness};
use super::report::Collector;
use super::strength::Skill;
use super::Outcome;
use shuai_board::rules::insufficient_material;
use shuai_board::{Move, PieceKind, Position, Rng};
use shuai_search::score::{is_mate, MATE_BOUND};
use shuai_search::{Info, Limits, SearchResult};
use std::time::Duration;

/// A score at or below this (centipawns, side to move) is hopeless.
pub const RESIGN_SCORE: i32 = -1000;
/// Consecutive hopeless searches before resigning.
pub const RESIGN_AFTER: u32 = 3;
/// A score at or below this makes an offered draw welcome.
pub const ACCEPT_DRAW_SCORE: i32 = -200;

/// How the move to play is chosen from the search's lines.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Choice {
    /// The search's best move.
    Best,
    /// Any move within the randomness margin of the best, equally likely.
    Near(Randomness),
    /// A weakened level's choice (see [`Skill::choose`]).
    Level(Skill),
}

impl Choice {
    /// The choice `opts` ask for in a search with `limits` (a `go`'s own,
    /// before [`super::build_limits`] adds the choice's lines): analysis
    /// (`go infinite`) and mate searches always get the best move.
    pub fn of(opts: &EngineOptions, limits: &Limits) -> Choice {
        if limits.infinite || limits.mate.is_some() {
            return Choice::Best;
        }
        match (opts.skill(), opts.randomness) {
            (Some(skill), _) => Choice::Level(skill),
            (None, Randomness::None) => Choice::Best,
            (None, r) => Choice::Near(r),
        }
    }

    /// How many lines the search must keep for this choice.
    pub fn lines(&self) -> usize {
        match self {
            Choice::Best => 1,
            Choice::Near(_) => 4,
            Choice::Level(skill) => skill.lines(),
        }
    }
}

/// The end-of-search decisions: which move, draw, resign.
pub(super) struct Decider {
    /// Resigning is allowed.
    pub(super) resign: bool,
    /// Consecutive hopeless searches so far.
    pub(super) hopeless_streak: u32,
    /// How the move is chosen.
    pub(super) choice: Choice,
    /// The random draw for this move's choice.
    pub(super) rng: u64,
}

impl Decider {
    pub(super) fn outcome(
        &self,
        pos: &Position,
        r: SearchResult,
        collector: &Collector,
    ) -> Outcome {
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
        if outcome.best_move.is_none() {
            return outcome;
        }
        let lines = collector.best_lines();
        let candidates = lines.iter().filter(|l| !l.pv.is_empty());
        let pick = match self.choice {
            Choice::Best => None,
            Choice::Near(randomness) => {
                let best = outcome.score;
                let near: Vec<&Info> = candidates
                    .filter(|l| l.depth == outcome.depth)
                    .filter(|l| l.score >= best - randomness.margin() && l.score.abs() < MATE_BOUND)
                    .collect();
                (!is_mate(best) && near.len() > 1)
                    .then(|| near[(self.rng % near.len() as u64) as usize])
            }
            // The deepest iteration's lines (all of them, or the top few
            // of an interrupted one): a level chooses among moves it has
            // compared at one depth.
            Choice::Level(skill) => skill.pick(&lines, &mut Rng::new(self.rng)),
        };
        if let Some(pick) = pick {
            if pick.pv.first() != outcome.best_move.as_ref() {
                log::debug!("move choice: playing {} instead", pick.pv[0]);
                outcome.best_move = Some(pick.pv[0]);
                outcome.ponder_move = pick.pv.get(1).copied();
                outcome.score = pick.score;
                outcome.pv = pick.pv.clone();
            }
        }
        outcome
    }

    /// Accept an offered draw when the position is dead drawn or clearly
    /// worse; offer one unprompted only when neither side can ever win.
    pub(super) fn draw(
        &self,
        pos: &Position,
        outcome: &Outcome,
        offered: bool,
        c: &Collector,
    ) -> bool {
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
        let history = c.history();
        let recent: Vec<&(u32, i32)> = history.iter().rev().take(4).collect();
        attackers <= 2
            && recent.len() == 4
            && recent[0].0 >= 8
            && recent.iter().all(|&&(_, s)| s.abs() <= 10)
    }

    /// Resign when hopeless for several searches in a row, unless the move
    /// is forced (one legal move).
    pub(super) fn resigns(&self, outcome: &Outcome, pos: &Position) -> bool {
        self.resign
            && outcome.score <= RESIGN_SCORE
            && self.hopeless_streak + 1 >= RESIGN_AFTER
            && pos.legal_moves().len() > 1
    }
}

/// A legal move without searching (when the search failed).
pub(super) fn fallback_outcome(pos: &Position, banned: &[Move]) -> Outcome {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_choice_follows_the_options_except_in_analysis() {
        let level = EngineOptions {
            skill_level: 5,
            randomness: Randomness::Small,
            ..EngineOptions::default()
        };
        let timed = Limits::depth(8);
        let skill = Skill::from_level(5).unwrap();
        assert_eq!(Choice::of(&level, &timed), Choice::Level(skill));
        assert_eq!(Choice::of(&level, &timed).lines(), skill.lines());
        let analysis = Limits {
            infinite: true,
            ..Limits::default()
        };
        assert_eq!(Choice::of(&level, &analysis), Choice::Best);
        let random = EngineOptions {
            randomness: Randomness::Small,
            ..EngineOptions::default()
        };
        assert_eq!(Choice::of(&random, &timed), Choice::Near(Randomness::Small));
        assert_eq!(Choice::of(&EngineOptions::default(), &timed), Choice::Best);
        // UCI_LimitStrength takes the Elo, whatever the skill level.
        // (The Elo of level 8 from the measured table, so a recalibration
        // does not break the test.)
        let level_8 = Skill::from_level(8).unwrap();
        let elo = EngineOptions {
            limit_strength: true,
            elo: level_8.elo(),
            ..EngineOptions::default()
        };
        assert_eq!(Choice::of(&elo, &timed), Choice::Level(level_8));
    }
}
