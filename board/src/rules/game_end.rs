//! The referee's view of a final position: mate, stalemate, repetition, the
//! natural-move limit and (optionally) insufficient material.

use super::natural_limit::natural_limit;
use super::verdict::{judge_repetition_with, side_name, GameResult, Reason, Verdict};
use super::RuleOptions;
use crate::{PieceKind, Position};

/// Whether neither side has a piece able to cross the river (only kings,
/// advisors and elephants are left): adjudicators may call it a draw.
pub fn insufficient_material(pos: &Position) -> bool {
    [
        PieceKind::Rook,
        PieceKind::Horse,
        PieceKind::Cannon,
        PieceKind::Pawn,
    ]
    .iter()
    .all(|&k| pos.kind_bb(k).is_empty())
}

/// Judges whether the game is over in `pos`, by the referee's rules with
/// the natural-move limit set to `natural_limit_plies`: checkmate and
/// stalemate (the side to move loses either way), then a threefold
/// repetition judged by the cycle rules, then the natural-move limit.
/// `None` while the game goes on.
pub fn judge_game_end(pos: &Position, natural_limit_plies: u32) -> Option<Verdict> {
    let opts = RuleOptions {
        natural_limit_plies,
        ..RuleOptions::default()
    };
    judge_game_end_with(pos, &opts)
}

/// [`judge_game_end`] with explicit options (repetition count, mate-threat
/// depth, natural-move limit, insufficient-material draws).
pub fn judge_game_end_with(pos: &Position, opts: &RuleOptions) -> Option<Verdict> {
    let stm = pos.side_to_move();
    if !pos.has_legal_move() {
        let (reason, words) = if pos.in_check() {
            (Reason::Checkmate, "is checkmated")
        } else {
            (
                Reason::Stalemate,
                "has no legal move (stalemate, 困毙: a loss in Xiangqi)",
            )
        };
        return Some(Verdict {
            result: GameResult::Loss,
            reason,
            explanation: format!("{} {}; {} loses.", side_name(stm), words, side_name(stm)),
            cycle: None,
        });
    }
    if let Some(v) = judge_repetition_with(pos, opts) {
        return Some(v);
    }
    // Uncounted plies only lower the count: no replay is needed while the
    // half-move clock alone is below the limit.
    if (pos.halfmove_clock() as u32) >= opts.natural_limit_plies {
        let count = natural_limit(pos);
        if count.counted() >= opts.natural_limit_plies {
            let mut explanation = format!(
                "{} plies without a capture reach the natural move limit of {}",
                count.plies, opts.natural_limit_plies
            );
            if count.uncounted > 0 {
                explanation.push_str(&format!(
                    " ({} plies of checks beyond a side's tenth and their replies not \
                     counted; checks: Red {}, Black {})",
                    count.uncounted, count.checks[0], count.checks[1]
                ));
            }
            explanation.push_str("; draw.");
            return Some(Verdict {
                result: GameResult::Draw,
                reason: Reason::NaturalMoveLimit,
                explanation,
                cycle: None,
            });
        }
    }
    if opts.insufficient_material_draw && insufficient_material(pos) {
        return Some(Verdict {
            result: GameResult::Draw,
            reason: Reason::InsufficientMaterial,
            explanation: "Neither side has a piece able to cross the river (only kings, \
                          advisors and elephants); draw."
                .to_string(),
            cycle: None,
        });
    }
    None
}
