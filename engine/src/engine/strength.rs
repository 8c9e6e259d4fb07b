//! Playing strength below full: the levels people play against.
//!
//! A level weakens the engine the way people find natural: it searches
//! fewer nodes (a shallower search that misses deep tactics), and it picks
//! among its top few moves with an error that grows as the level falls,
//! never straying further than a bound that keeps middle levels from
//! giving away a piece their own search saw. Time is scaled down with the
//! level, so a weak level also answers quickly.
//!
//! Levels are continuous: `Skill Level` 0–19 picks a whole level, and
//! `UCI_Elo` any point between, by the measured Elo of each level in
//! [`LEVEL_ELO`]. Because a level's search is bounded by nodes, not time,
//! its strength is the same on any machine and at any time control (as
//! long as the clock allows its nodes).

use shuai_board::{Move, Rng};
use shuai_search::score::EVAL_LIMIT;
#[cfg(test)]
use shuai_search::score::MATE_BOUND;
use shuai_search::{Info, Limits};

/// `Skill Level` of full strength (the default); lower values weaken.
pub const FULL_SKILL: u8 = 20;

/// The measured Elo of the anchored levels: (level, Elo), on the scale
/// ElephantEye 3.31 at depth 3 = 1500. Levels between entries are
/// interpolated; `UCI_Elo` is mapped through this table. Measured in
/// December 2026 with `tools/scripts/levels/calibrate.sh` (1,820 games at
/// fixed nodes per level against ElephantEye at fixed depths 1–8, the
/// depths against each other, and neighbouring levels; every anchored
/// level in at least 220 games) and fitted by `fit.py` (one maximum-
/// likelihood rating per player); docs/strength.md gives each
/// rating's 95% interval. Remeasured whenever the embedded network
/// changes (a level's nodes are worth more with a better network): these
/// are the round-3 network's.
pub const LEVEL_ELO: [(u8, i32); 8] = [
    (0, 808),
    (2, 878),
    (4, 943),
    (6, 1309),
    (8, 1628),
    (12, 2153),
    (16, 2741),
    (19, 3031),
];

/// Nodes a move at level 0.
const BASE_NODES: f64 = 64.0;
/// Each level multiplies the node budget by 2^NODE_STEP (×1.53).
const NODE_STEP: f64 = 0.61;

/// A weakened playing level in `[0, 20)`: 0 is the weakest, 20 would be
/// full strength (and is represented by no `Skill` at all).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill(f64);

impl Skill {
    /// The level of `Skill Level` `level`; `None` at [`FULL_SKILL`] or above.
    pub fn from_level(level: u8) -> Option<Skill> {
        (level < FULL_SKILL).then_some(Skill(f64::from(level)))
    }

    /// The level whose measured Elo is `elo` (clamped to the table's
    /// range).
    pub fn from_elo(elo: i32) -> Skill {
        let (first, last) = (LEVEL_ELO[0], LEVEL_ELO[LEVEL_ELO.len() - 1]);
        if elo <= first.1 {
            return Skill(f64::from(first.0));
        }
        if elo >= last.1 {
            return Skill(f64::from(last.0));
        }
        let i = LEVEL_ELO
            .windows(2)
            .position(|w| elo < w[1].1)
            .unwrap_or(LEVEL_ELO.len() - 2);
        let ((l0, e0), (l1, e1)) = (LEVEL_ELO[i], LEVEL_ELO[i + 1]);
        let t = f64::from(elo - e0) / f64::from(e1 - e0);
        Skill(f64::from(l0) + t * f64::from(l1 - l0))
    }

    /// The lowest and highest Elo a level can be set to (`const`: the
    /// option table's `UCI_Elo` range is a constant).
    pub const fn elo_range() -> (i32, i32) {
        (LEVEL_ELO[0].1, LEVEL_ELO[LEVEL_ELO.len() - 1].1)
    }

    /// The level, 0.0 ..= 19.x.
    pub fn level(self) -> f64 {
        self.0
    }

    /// The Elo of this level, interpolated in [`LEVEL_ELO`].
    pub fn elo(self) -> i32 {
        let x = self.0;
        let i = LEVEL_ELO
            .windows(2)
            .position(|w| x < f64::from(w[1].0))
            .unwrap_or(LEVEL_ELO.len() - 2);
        let ((l0, e0), (l1, e1)) = (LEVEL_ELO[i], LEVEL_ELO[i + 1]);
        let t = ((x - f64::from(l0)) / f64::from(l1 - l0)).clamp(0.0, 1.0);
        (f64::from(e0) + t * f64::from(e1 - e0)).round() as i32
    }

    /// How far below full strength, 0.0 (level 20) to 20.0 (level 0).
    fn weakness(self) -> f64 {
        f64::from(FULL_SKILL) - self.0
    }

    /// Nodes searched a move: 64 at level 0, ×1.53 a level (about 200,000
    /// at level 19).
    pub fn nodes(self) -> u64 {
        (BASE_NODES * (NODE_STEP * self.0).exp2()).round() as u64
    }

    /// How many lines the search keeps, to choose from: 4 at the top
    /// levels, up to 8 at the bottom.
    pub fn lines(self) -> usize {
        4 + (self.weakness() / 5.0) as usize
    }

    /// The error's scale, centipawns: a move `t` worse than the best is
    /// `e` times less likely (e = 2.718) than the best. It grows with the
    /// cube of the weakness: 2 at level 19, 14 at level 10, 102 at level
    /// 0. The node budget does most of the weakening (about 250 Elo a
    /// doubling at the lowest levels, measured); the error adds variety,
    /// and beginners' wild moves at the bottom.
    pub fn temperature(self) -> f64 {
        2.0 + 100.0 * (self.weakness() / 20.0).powi(3)
    }

    /// Moves more than this much worse than the best (by the level's own
    /// search) are never chosen: 300 cp at level 0, below 180 (less than
    /// a horse or cannon) from level 5 up, 21 at level 19.
    pub fn max_loss(self) -> i32 {
        (20.0 + 280.0 * (self.weakness() / 20.0).powi(2)).round() as i32
    }

    /// The share of the planned thinking time a level uses.
    pub fn time_scale(self) -> f64 {
        0.1 + 0.9 * self.0 / f64::from(FULL_SKILL)
    }

    /// Weakens a search's limits to this level: caps the nodes, asks for
    /// the lines [`Skill::pick`] chooses among, and scales a fixed move
    /// time and the clock's planned share down (the real clock is not
    /// changed, so a level can never lose on time by this).
    pub fn limit(self, limits: &mut Limits) {
        let cap = self.nodes();
        limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
        limits.multipv = limits.multipv.max(self.lines());
        let scale = self.time_scale();
        if let Some(c) = limits.clock.as_mut() {
            c.remaining = c.remaining.mul_f64(scale);
            c.increment = c.increment.mul_f64(scale);
        }
        if let Some(t) = limits.movetime.as_mut() {
            *t = t.mul_f64(scale);
        }
    }

    /// Chooses one of a search's lines (best first, as
    /// [`IterationLines::best_first`](super::IterationLines::best_first) gives
    /// them) with the level's error; `None` when there is no line.
    pub fn pick<'a>(self, lines: &'a [Info], rng: &mut Rng) -> Option<&'a Info> {
        let lines: Vec<&Info> = lines.iter().filter(|l| !l.pv.is_empty()).collect();
        let scored: Vec<(Move, i32)> = lines.iter().map(|l| (l.pv[0], l.score)).collect();
        lines.get(self.choose(&scored, rng)).copied()
    }

    /// Chooses one of the scored moves (`(move, score)`, best first, side
    /// to move's view) with the level's error; `rng` makes the draw.
    /// Returns the index of the chosen move. Scores beyond any evaluation
    /// (mates, rule verdicts) are worth more than every loss bound, so a
    /// found mate is always played and a move into a seen mate never.
    pub fn choose(self, lines: &[(Move, i32)], rng: &mut Rng) -> usize {
        let Some(&(_, best)) = lines.first() else {
            return 0;
        };
        let value = |s: i32| {
            if s.abs() > EVAL_LIMIT {
                2 * EVAL_LIMIT * s.signum()
            } else {
                s
            }
        };
        let best = value(best);
        let weights: Vec<f64> = lines
            .iter()
            .map(|&(_, s)| {
                let loss = (best - value(s)).max(0);
                if loss > self.max_loss() {
                    0.0
                } else {
                    (-f64::from(loss) / self.temperature()).exp()
                }
            })
            .collect();
        let total: f64 = weights.iter().sum();
        let mut target = f64::from(rng.unit()) * total;
        for (i, w) in weights.iter().enumerate() {
            if target < *w {
                return i;
            }
            target -= w;
        }
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shuai_board::Position;

    #[test]
    fn levels_and_elo_map_both_ways() {
        assert_eq!(Skill::from_level(FULL_SKILL), None);
        assert_eq!(Skill::from_level(0), Some(Skill(0.0)));
        for &(level, elo) in &LEVEL_ELO {
            assert_eq!(Skill::from_elo(elo), Skill(f64::from(level)));
            assert_eq!(Skill(f64::from(level)).elo(), elo);
        }
        let (lo, hi) = Skill::elo_range();
        assert_eq!(Skill::from_elo(lo - 500).level(), 0.0);
        assert_eq!(Skill::from_elo(hi + 500).level(), 19.0);
        // Between two measured levels the map is linear both ways (the
        // integer midpoint need not be the exact one: the sum may be odd).
        let ((l1, e1), (l2, e2)) = (LEVEL_ELO[1], LEVEL_ELO[2]);
        let elo = (e1 + e2) / 2;
        let mid = Skill::from_elo(elo);
        let expect = f64::from(l1) + f64::from(l2 - l1) * f64::from(elo - e1) / f64::from(e2 - e1);
        assert!((mid.level() - expect).abs() < 1e-9);
        assert!(f64::from(l1) < mid.level() && mid.level() < f64::from(l2));
        assert_eq!(mid.elo(), elo);
    }

    #[test]
    fn the_table_rises() {
        assert!(LEVEL_ELO
            .windows(2)
            .all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1));
        assert_eq!(LEVEL_ELO[0].0, 0);
        assert_eq!(LEVEL_ELO[LEVEL_ELO.len() - 1].0, FULL_SKILL - 1);
    }

    #[test]
    fn settings_grow_with_the_level() {
        let at = |l: u8| Skill::from_level(l).unwrap();
        assert_eq!(at(0).nodes(), 64);
        assert!((150_000..250_000).contains(&at(19).nodes()));
        assert_eq!((at(0).lines(), at(19).lines()), (8, 4));
        for l in 0..FULL_SKILL - 1 {
            let (a, b) = (at(l), at(l + 1));
            assert!(a.nodes() < b.nodes());
            assert!(a.temperature() > b.temperature());
            assert!(a.max_loss() >= b.max_loss());
            assert!(a.time_scale() < b.time_scale());
        }
        // From level 5 up a level never throws away a horse it has seen.
        assert!(at(5).max_loss() < 200);
        assert_eq!((at(0).max_loss(), at(19).max_loss()), (300, 21));
        assert_eq!(at(0).temperature().round(), 102.0);
    }

    #[test]
    fn choices_follow_the_error_model() {
        let moves: Vec<Move> = Position::startpos().legal_moves().iter().copied().collect();
        let lines = [
            (moves[0], 50),
            (moves[1], 40),
            (moves[2], -200),
            (moves[3], -MATE_BOUND - 5),
        ];
        let mut rng = Rng::new(7);
        let count = |skill: Skill, rng: &mut Rng| {
            let mut n = [0u32; 4];
            for _ in 0..2000 {
                n[skill.choose(&lines, rng)] += 1;
            }
            n
        };
        let top = count(Skill(19.0), &mut rng);
        // 10 cp worse at temperature 2.0: e^-5 as likely.
        assert!(top[0] > 1950 && top[1] > 0, "{top:?}");
        assert_eq!((top[2], top[3]), (0, 0));
        let middle = count(Skill(10.0), &mut rng);
        // Temperature 14.5: the second move e^-0.69 (half) as likely; the
        // 250 cp loss is beyond the bound (90).
        assert!(middle[1] > 500 && middle[1] < 800, "{middle:?}");
        assert_eq!(middle[2], 0);
        let bottom = count(Skill(0.0), &mut rng);
        // Temperature 102: 250 cp worse is e^-2.45 as likely (4.3%).
        assert!(bottom[2] > 40 && bottom[2] < 140, "{bottom:?}");
        // A move into a seen mate is never chosen, even at level 0.
        assert_eq!(bottom[3], 0);
        // A found mate is always played.
        let mating = [(moves[0], MATE_BOUND + 10), (moves[1], 300)];
        assert!((0..200).all(|_| Skill(0.0).choose(&mating, &mut rng) == 0));
    }
}
