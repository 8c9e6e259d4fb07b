//! The evaluation term by term, for people (`shuai eval`) and for tuners.

use crate::endgame::SCALE_NORMAL;
use crate::score::Score;
use crate::terms::{self, Sink, Term, PHASE_MAX};
use crate::weights::{Weights, SCORE_COUNT};
use shuai_board::{Color, Position};
use std::fmt;

/// Every term of one evaluation, for both sides, and how they combine.
///
/// `score` equals [`crate::evaluate_with`] for the same position and weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalTrace {
    /// Per term ([`Term::index`]) and side ([`Color::index`]): what the term
    /// adds for that side, from that side's point of view.
    pub terms: [[Score; 2]; Term::COUNT],
    /// Sum of all terms, Red's minus Black's.
    pub total: Score,
    /// The game phase, 0 (bare endgame) to [`PHASE_MAX`] (all pieces on).
    pub phase: i32,
    /// `total` blended by the phase, from Red's point of view.
    pub blended: i32,
    /// The draw scale applied (out of [`SCALE_NORMAL`]).
    pub scale: i32,
    /// The final score from Red's point of view.
    pub red: i32,
    /// The side to move.
    pub side_to_move: Color,
    /// The final score from the side to move's point of view.
    pub score: i32,
}

impl EvalTrace {
    /// The term's contribution for `color`.
    pub fn term(&self, term: Term, color: Color) -> Score {
        self.terms[term.index()][color.index()]
    }

    /// The term's net contribution, Red's minus Black's.
    pub fn net(&self, term: Term) -> Score {
        self.term(term, Color::Red) - self.term(term, Color::Black)
    }
}

struct TraceSink([[Score; 2]; Term::COUNT]);

impl Sink for TraceSink {
    fn add(&mut self, term: Term, color: Color, _: usize, _: i32, score: Score) {
        self.0[term.index()][color.index()] += score;
    }
}

/// The evaluation of `pos` with weights `w`, term by term.
pub fn trace_with(pos: &Position, w: &Weights) -> EvalTrace {
    let mut sink = TraceSink([[Score::ZERO; 2]; Term::COUNT]);
    let counts = terms::run(pos, w, &mut sink);
    let total = sink
        .0
        .iter()
        .fold(Score::ZERO, |acc, [red, black]| acc + *red - *black);
    let out = terms::finish(pos, total, &counts);
    let side_to_move = pos.side_to_move();
    EvalTrace {
        terms: sink.0,
        total,
        phase: out.phase,
        blended: out.blended,
        scale: out.scale,
        red: out.red,
        side_to_move,
        score: if side_to_move == Color::Red {
            out.red
        } else {
            -out.red
        },
    }
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}

impl fmt::Display for EvalTrace {
    /// A table of the terms (midgame and endgame, per side and net, in
    /// centipawns), then phase, scale and the final score.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let line = "-".repeat(77);
        writeln!(
            f,
            "{:<21}|{:>17} |{:>17} |{:>17}",
            "Term", "Red", "Black", "Net (Red)"
        )?;
        writeln!(
            f,
            "{:<21}|{:>8} {:>8} |{:>8} {:>8} |{:>8} {:>8}",
            "", "mg", "eg", "mg", "eg", "mg", "eg"
        )?;
        writeln!(f, "{line}")?;
        let row = |f: &mut fmt::Formatter<'_>, label: &str, r: Score, b: Score| {
            let n = r - b;
            writeln!(
                f,
                "{:<21}|{:>8} {:>8} |{:>8} {:>8} |{:>8} {:>8}",
                label, r.mg, r.eg, b.mg, b.eg, n.mg, n.eg
            )
        };
        let (mut red, mut black) = (Score::ZERO, Score::ZERO);
        for term in Term::ALL {
            let (r, b) = (self.term(term, Color::Red), self.term(term, Color::Black));
            red += r;
            black += b;
            row(f, term.label(), r, b)?;
        }
        writeln!(f, "{line}")?;
        row(f, "Total", red, black)?;
        writeln!(f)?;
        writeln!(
            f,
            "Phase {}/{} (midgame weight {}%)",
            self.phase,
            PHASE_MAX,
            self.phase * 100 / PHASE_MAX
        )?;
        writeln!(f, "Blended (Red's view): {:+}", self.blended)?;
        writeln!(
            f,
            "Draw scale: {}/{}{}",
            self.scale,
            SCALE_NORMAL,
            if self.scale < SCALE_NORMAL {
                " (drawish ending)"
            } else {
                ""
            }
        )?;
        writeln!(f, "Final (Red's view): {:+}", self.red)?;
        write!(
            f,
            "Final ({} to move): {:+}",
            side_name(self.side_to_move),
            self.score
        )
    }
}

/// The evaluation of one position as a linear function of the weights, for
/// tuning (Texel's method and its gradient-based descendants).
///
/// Before blending, the evaluation is exactly `Σ coefficient × score` over
/// the weights' scores (midgame and endgame halves apart); then
/// `(mg × phase + eg × (PHASE_MAX − phase)) / PHASE_MAX` (truncated toward
/// zero), then `× scale / SCALE_NORMAL` with the scale of the side ahead.
/// [`EvalFeatures::evaluate`] does this and equals [`crate::evaluate_with`]
/// for any weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalFeatures {
    /// `(score index, coefficient)` pairs, Red's count minus Black's, sorted
    /// by index, without zeros. Score index `i` is parameters `2i` (mg) and
    /// `2i + 1` (eg) of [`Weights::to_vec`].
    pub coefficients: Vec<(u16, i16)>,
    /// The game phase, 0..=[`PHASE_MAX`].
    pub phase: i32,
    /// The draw scale if Red is ahead ([`Color::index`] 0) or Black is
    /// ahead (1); it depends on material only, not on the weights.
    pub scales: [i32; 2],
    /// The side to move.
    pub side_to_move: Color,
}

struct FeatureSink([i32; SCORE_COUNT]);

impl Sink for FeatureSink {
    fn add(&mut self, _: Term, color: Color, param: usize, count: i32, _: Score) {
        self.0[param] += if color == Color::Red { count } else { -count };
    }
}

/// The features of `pos` (see [`EvalFeatures`]).
pub fn features(pos: &Position) -> EvalFeatures {
    let mut sink = FeatureSink([0; SCORE_COUNT]);
    // The weights only scale the reported scores; the features do not
    // depend on them.
    terms::run(pos, &Weights::DEFAULT, &mut sink);
    let coefficients = sink
        .0
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c != 0)
        .map(|(i, &c)| (i as u16, c as i16))
        .collect();
    EvalFeatures {
        coefficients,
        phase: terms::phase(pos),
        scales: [
            crate::endgame::scale_factor(pos, Color::Red),
            crate::endgame::scale_factor(pos, Color::Black),
        ],
        side_to_move: pos.side_to_move(),
    }
}

impl EvalFeatures {
    /// The linear part: `Σ coefficient × score`, Red's view, before blending.
    pub fn linear(&self, w: &Weights) -> Score {
        let params = w.to_vec();
        self.linear_flat(&params)
    }

    /// [`EvalFeatures::linear`] over a flat parameter vector laid out as
    /// [`Weights::to_vec`] (no conversion; what a tuner's inner loop wants).
    pub fn linear_flat(&self, params: &[i32]) -> Score {
        self.coefficients.iter().fold(Score::ZERO, |acc, &(i, c)| {
            let i = i as usize;
            acc + Score::new(params[2 * i], params[2 * i + 1]) * c as i32
        })
    }

    /// The score from the side to move's point of view that the evaluation
    /// gives with weights `w`.
    pub fn evaluate(&self, w: &Weights) -> i32 {
        self.evaluate_flat(&w.to_vec())
    }

    /// [`EvalFeatures::evaluate`] over a flat parameter vector.
    pub fn evaluate_flat(&self, params: &[i32]) -> i32 {
        let total = self.linear_flat(params);
        let blended = (total.mg * self.phase + total.eg * (PHASE_MAX - self.phase)) / PHASE_MAX;
        let scale = match blended.signum() {
            1 => self.scales[0],
            -1 => self.scales[1],
            _ => SCALE_NORMAL,
        };
        let red = blended * scale / SCALE_NORMAL;
        if self.side_to_move == Color::Red {
            red
        } else {
            -red
        }
    }
}
