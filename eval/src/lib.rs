//! Static evaluation for Shuai.
//!
//! [`evaluate`] scores a position in centipawns from the side to move's
//! point of view. It is a tapered evaluation: every term is a midgame/endgame
//! [`Score`] pair summed per side, blended by a [`phase`] computed from the
//! rooks, horses and cannons left, then scaled toward zero in endings the
//! side ahead cannot win ([`endgame::scale_factor`]).
//!
//! All weights live in one struct, [`Weights`] ([`Weights::DEFAULT`] holds
//! the values tuned from self-play, see `tools/README.md`), which a tuner
//! reads and writes as a flat vector ([`Weights::to_vec`],
//! [`Weights::from_vec`], [`Weights::names`]). The
//! terms are written once and reported through an internal sink, so the fast
//! path ([`evaluate`]), the readable breakdown ([`trace`]) and the tuner's
//! linear features ([`features`]) cannot disagree.
//!
//! The terms, for each side:
//!
//! - material and piece-square tables (Red's view, mirrored left–right;
//!   Black reads them with the ranks flipped);
//! - mobility of rooks, horses (legs), cannons (quiet moves plus capture
//!   targets over one screen) and elephants (eyes);
//! - king safety: points of the enemy palace attacked by rooks, horses and
//!   cannons (beyond their screens); a king-danger table indexed by the
//!   attack units of the pieces reaching the palace; missing advisors and elephants against
//!   the enemy's horses, rooks and cannons; cannons on the enemy king's file
//!   by number of pieces between (空头炮, screen, 当头炮); the bottom cannon
//!   (沉底炮); rooks on the enemy king's file;
//! - rooks on open and half-open files;
//! - pawns: crossed pawns through the tables, side-by-side crossed pawns,
//!   the stuck pawn on the last rank (老兵);
//! - threats, from both sides' attack maps: enemy pieces attacked and not
//!   defended, rooks attacked by anything cheaper, horses and cannons by
//!   pawns, advisors or elephants;
//! - pins: the only piece between a rook and the enemy king, either of two
//!   between a cannon and the enemy king;
//! - coordination: own pieces defended by own pieces;
//! - a tempo bonus for the side to move.
//!
//! # Speed
//!
//! `cargo bench -p shuai-eval` times `evaluate` over 400 varied positions
//! (about 20 pieces on average; `evaluate/sample`, one call costs
//! 1000 / (Melem/s) ns) and on the full start position. On the development
//! machine (a shared 2-core x86-64 VM) that is about 135 ns per call over the
//! sample and 200 ns for the start position when the machine is quiet, up to
//! half as much again while other builds run (figures from before the
//! threat terms). The cost is mostly the attack sets of rooks, cannons and
//! horses and one table lookup per piece.
//!
//! In instructions (callgrind, `shuai bench 6`, December 2026): about 2,000
//! per call before the threat, pin and protection terms and 2,700 with them
//! (their attack maps of both sides); the evaluation is then about a quarter
//! of the search's instructions. Material and piece-square tables are about
//! 100 of those 2,700 (measured by leaving them out), so keeping them
//! incrementally in make/unmake would save under 1% of the search: not done.
//!
//! On x86-64 a copy of the evaluation compiled for `popcnt`, `lzcnt` and
//! `bmi1` is chosen at run time (see [`evaluate_with`]); it is about a
//! quarter faster than the portable copy. A workspace built with
//! `-C target-cpu=...` including those features gets the same code without
//! the check.
//!
//! # Tuning
//!
//! [`features`] gives, for one position, the coefficient of every weight
//! (Red's count minus Black's), the phase and the draw scales: the
//! evaluation is exactly `Σ coefficient × weight`, blended and scaled as
//! [`EvalFeatures::evaluate_flat`] does, for any weights. A Texel tuner needs
//! nothing else: extract the features of its positions once, then fit the
//! flat vector of [`Weights::to_vec`] (names from [`Weights::names`]) by
//! gradient descent on the linear model, and write the result back into
//! [`Weights::DEFAULT`]. Things such a tuner must know:
//!
//! - material and piece-square tables overlap (adding a constant to every
//!   entry of a kind's table is the same as adding it to the material);
//!   likewise `pawn_bottom` and the last rank of the pawn table. Fix one side
//!   of each pair or regularise toward the defaults;
//! - scores that no position can reach (the king's material, table entries
//!   where a king, advisor or elephant cannot stand, mobility counts no piece
//!   reaches) get no coefficient and should be left alone;
//! - the phase weights ([`PHASE_WEIGHTS`]) and the draw scales
//!   ([`endgame`]) are constants, not parameters.
//!
//! ```
//! use shuai_board::Position;
//! let pos = Position::startpos();
//! // The start position is symmetric: only the tempo bonus remains.
//! assert_eq!(shuai_eval::evaluate(&pos), shuai_eval::Weights::DEFAULT.tempo.mg);
//! println!("{}", shuai_eval::trace(&pos));
//! ```

#![warn(missing_docs)]

pub mod endgame;
mod fnv;
pub mod nnue;
mod score;
mod table;
mod terms;
mod trace;
mod weights;

pub use fnv::fnv1a;
pub use score::{s, Score};
pub use table::{TableError, MAX_WEIGHT};
pub use terms::{phase, Term, PHASE_MAX, PHASE_WEIGHTS};
pub use trace::{features, trace_with, EvalFeatures, EvalTrace};
pub use weights::{
    pst_index, ParamGroup, Weights, WrongLength, ATTACKERS, ATTACK_UNITS, CANNON_MOBILITY,
    ELEPHANT_MOBILITY, HORSE_MOBILITY, KING_DANGER, PARAM_COUNT, PST_SIZE, ROOK_MOBILITY,
    SCORE_COUNT,
};

use shuai_board::{Color, Position};

/// The weights [`evaluate`] uses.
static DEFAULT_WEIGHTS: Weights = Weights::DEFAULT;

/// The static evaluation of `pos` in centipawns, from the side to move's
/// point of view, with the default weights.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &DEFAULT_WEIGHTS)
}

/// The static evaluation of `pos` with weights `w`, from the side to move's
/// point of view.
///
/// On x86-64 processors with `popcnt`, `lzcnt` and `bmi1` (every one since
/// about 2013), a copy of the evaluation compiled for them is used: bit
/// counts and scans on the 128-bit boards are then single instructions
/// instead of bit tricks, about a quarter faster. The result is the same.
#[inline]
pub fn evaluate_with(pos: &Position, w: &Weights) -> i32 {
    #[cfg(target_arch = "x86_64")]
    {
        if has_bit_instructions() {
            // SAFETY: the processor supports the features this copy of the
            // evaluation is compiled for (checked just above).
            return unsafe { evaluate_bmi(pos, w) };
        }
    }
    evaluate_generic(pos, w)
}

/// Whether the processor has the bit-manipulation instructions the fast copy
/// of the evaluation uses (answered from a cache after the first call).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn has_bit_instructions() -> bool {
    std::is_x86_feature_detected!("popcnt")
        && std::is_x86_feature_detected!("lzcnt")
        && std::is_x86_feature_detected!("bmi1")
}

/// [`evaluate_generic`] compiled with `popcnt`, `lzcnt` and `bmi1`.
///
/// # Safety
/// The processor must support those features.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,lzcnt,bmi1")]
unsafe fn evaluate_bmi(pos: &Position, w: &Weights) -> i32 {
    evaluate_generic(pos, w)
}

#[inline(always)]
fn evaluate_generic(pos: &Position, w: &Weights) -> i32 {
    let mut sink = terms::Totals::default();
    let counts = terms::run(pos, w, &mut sink);
    let red = terms::finish(pos, sink.total(), &counts).red;
    if pos.side_to_move() == Color::Red {
        red
    } else {
        -red
    }
}

/// The evaluation of `pos` term by term with the default weights; its
/// `score` equals [`evaluate`], and it prints as a table.
pub fn trace(pos: &Position) -> EvalTrace {
    trace_with(pos, &DEFAULT_WEIGHTS)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both compiled copies give the traced evaluation's score. The trace
    /// sums the same terms through another sink, so it is an independent
    /// reference: comparing `evaluate` with `evaluate_generic` alone would
    /// compare a function with itself where the fast copy is not taken.
    #[test]
    fn both_compiled_copies_agree() {
        #[cfg(target_arch = "x86_64")]
        let fast = has_bit_instructions();
        #[cfg(not(target_arch = "x86_64"))]
        let fast = false;
        if !fast {
            eprintln!(
                "both_compiled_copies_agree: no popcnt/lzcnt/bmi1 fast copy on this machine; \
                 only the portable copy is compared with the trace"
            );
        }
        let mut pos = Position::startpos();
        for i in 0..200 {
            let traced = trace(&pos).score;
            assert_eq!(
                evaluate_generic(&pos, &DEFAULT_WEIGHTS),
                traced,
                "portable copy, {pos:?}"
            );
            #[cfg(target_arch = "x86_64")]
            if fast {
                // SAFETY: the processor has the features (checked above).
                let bmi = unsafe { evaluate_bmi(&pos, &DEFAULT_WEIGHTS) };
                assert_eq!(bmi, traced, "fast copy, {pos:?}");
            }
            assert_eq!(evaluate(&pos), traced, "evaluate, {pos:?}");
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves.as_slice()[(i * 7919) % moves.len()]);
        }
    }
}
