//! Win/draw/loss chances of a search score, from a model fitted to
//! Shuai's own games.
//!
//! The model has Stockfish's shape, with its two constants depending on the
//! attacking material left on the board:
//!
//! ```text
//! m    = (2·rooks + horses + cannons, both sides) / 16      (0 … 1)
//! a(m) = A0 + A1·m + A2·m² + A3·m³     the score (cp) of an even chance to win
//! b(m) = B0 + B1·m + B2·m² + B3·m³     how quickly the chances turn
//! win  = 1 / (1 + exp((a − x) / b))
//! loss = 1 / (1 + exp((a + x) / b))
//! draw = 1 − win − loss
//! ```
//!
//! for a score `x` in centipawns from the side to move's view.
//!
//! **How it was fitted** (December 2026): maximum likelihood over 886,681
//! positions of 8,056 self-play games (the round-0 network at 5000 nodes a
//! move, `train-data/r1/s5001.bin`; games cut at 400 plies or the
//! 120-ply natural limit count as draws), every tenth game held out. On the
//! 102,040 held-out positions the mean log-loss is 0.643 nats (a score-only
//! model: 0.784; predicting the overall frequencies: 1.088; the hand-chosen
//! constants this replaces, `a` = 100 and `b` = 80: 1.454, worse than no
//! model). Over all held-out positions it predicts 303/397/301 per mille
//! against 297/405/298 observed; by score band it is within about 40 per
//! mille of what happened (tools/README.md, "The win/draw/loss model", has
//! the calibration table). Material matters: at 0 cp with every piece on
//! the board it gives 385/230/385, with one rook left 31/939/31. Counting
//! only rooks, horses and cannons fitted better than classical piece values
//! (advisors, elephants and pawns add noise) and as well as the move
//! number, which a pasted FEN rarely gets right.
//!
//! **Checked on the round-2 network's games** (2026-12-02, commit
//! 304aa81; 255,753 positions of 2,215 games, all out of sample): mean
//! log-loss 0.609 nats, predicted 298/409/293 per mille against
//! 297/407/297 observed, every score band within 54 per mille; refitting
//! on those games did not do better on their held-out tenth (0.649
//! against the shipped 0.647), so the constants stayed (`tools/scripts/wdl/check.py`).
//!
//! These are the chances of Shuai against itself at short searches; longer
//! searches and human games draw more. Mates and wins by the repetition
//! rules are certain.

use shuai_board::{PieceKind, Position};
use shuai_search::score::{is_rule_score, DisplayScore};

/// `a(m)`'s coefficients, lowest degree first (cp).
const WDL_AS: [f64; 4] = [1047.455586, -3027.361591, 3362.501809, -1263.983531];
/// `b(m)`'s coefficients, lowest degree first (cp).
const WDL_BS: [f64; 4] = [150.671057, 565.946903, -887.971288, 424.444798];

/// Win, draw and loss chances in per mille (they add up to 1000).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WdlPerMille {
    /// Chance of a win.
    pub win: u32,
    /// Chance of a draw.
    pub draw: u32,
    /// Chance of a loss.
    pub loss: u32,
}

/// The model's measure of material: `2·rooks + horses + cannons` of both
/// sides (0 to 16 in a real game).
pub fn attackers(pos: &Position) -> u32 {
    let count = |kind| pos.kind_bb(kind).count();
    2 * count(PieceKind::Rook) + count(PieceKind::Horse) + count(PieceKind::Cannon)
}

fn polynomial(c: &[f64; 4], m: f64) -> f64 {
    ((c[3] * m + c[2]) * m + c[1]) * m + c[0]
}

/// The chances of a search `score` (side to move's view) with `attackers`
/// (see [`attackers`]) on the board.
pub fn wdl(score: i32, attackers: u32) -> WdlPerMille {
    let certain = |won: bool| WdlPerMille {
        win: if won { 1000 } else { 0 },
        draw: 0,
        loss: if won { 0 } else { 1000 },
    };
    if is_rule_score(score) || matches!(DisplayScore::from_score(score), DisplayScore::Mate(_)) {
        return certain(score > 0);
    }
    let m = f64::from(attackers.min(16)) / 16.0;
    let (a, b) = (polynomial(&WDL_AS, m), polynomial(&WDL_BS, m));
    let x = f64::from(score);
    let logistic = |t: f64| 1.0 / (1.0 + t.exp());
    let win = (1000.0 * logistic((a - x) / b)).round() as u32;
    let loss = (1000.0 * logistic((a + x) / b)).round() as u32;
    let win = win.min(1000);
    let loss = loss.min(1000 - win);
    WdlPerMille {
        win,
        draw: 1000 - win - loss,
        loss,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shuai_search::score::{mate_in, mated_in, RULE_WIN};

    #[test]
    fn attackers_of_the_start_and_an_ending() {
        assert_eq!(attackers(&Position::startpos()), 16);
        let ending = Position::from_fen("4k4/9/9/9/9/9/9/9/3R5/3K5 w").unwrap();
        assert_eq!(attackers(&ending), 2);
    }

    #[test]
    fn the_fitted_model_reads_as_fitted() {
        // The fit's own figures: a level position with every attacker on
        // the board, and with one rook left.
        assert_eq!(
            wdl(0, 16),
            WdlPerMille {
                win: 385,
                draw: 230,
                loss: 385
            }
        );
        assert_eq!(
            wdl(0, 2),
            WdlPerMille {
                win: 31,
                draw: 938,
                loss: 31
            }
        );
        // a(12/16) = 135 cp: an even chance to win there.
        let w = wdl(135, 12);
        assert!((495..=505).contains(&w.win), "{w:?}");
        for x in [-5000, -700, -120, 0, 33, 400, 2500] {
            for m in 0..=16 {
                let w = wdl(x, m);
                assert_eq!(w.win + w.draw + w.loss, 1000);
                let mirrored = wdl(-x, m);
                assert_eq!((w.win, w.loss), (mirrored.loss, mirrored.win), "{x} {m}");
            }
        }
        assert!(wdl(400, 16).win > wdl(400, 4).win);
    }

    #[test]
    fn mates_and_rule_wins_are_certain() {
        assert_eq!(wdl(mate_in(5), 16).win, 1000);
        assert_eq!(wdl(mated_in(4), 3).loss, 1000);
        assert_eq!(wdl(RULE_WIN - 3, 10).win, 1000);
        assert_eq!(wdl(-(RULE_WIN - 3), 10).loss, 1000);
    }
}
