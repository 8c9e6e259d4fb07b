//! Scores for people: centipawns or mate distances, and a win/draw/loss
//! estimate.
//!
//! The win/draw/loss estimate is the model fitted to Shuai's own games
//! ([`crate::wdl`]), in whole percent: the chances of the side to move
//! given the score and the attacking material on the board. Mate scores
//! are a certain win or loss, and so are wins and losses by the repetition
//! rules found in the search.

use shuai_board::Position;
use shuai_search::score::{is_rule_score, DisplayScore};

/// A win/draw/loss estimate in whole percent (the three add up to 100).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    /// Chance of a win, percent.
    pub win: u32,
    /// Chance of a draw, percent.
    pub draw: u32,
    /// Chance of a loss, percent.
    pub loss: u32,
}

/// The win/draw/loss estimate of a search score (side to move's view) in
/// `pos` (whose material the model reads).
pub fn wdl(score: i32, pos: &Position) -> Wdl {
    let w = crate::wdl::wdl(score, crate::wdl::attackers(pos));
    let (win, loss) = ((w.win + 5) / 10, (w.loss + 5) / 10);
    let loss = loss.min(100 - win);
    Wdl {
        win,
        draw: 100 - win - loss,
        loss,
    }
}

impl std::fmt::Display for Wdl {
    /// `W 22% D 56% L 22%`, each number right-aligned in three columns
    /// (for tables); the alternate form `{:#}` has no padding
    /// (`W 0% D 0% L 100%`, for sentences).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if f.alternate() {
            write!(f, "W {}% D {}% L {}%", self.win, self.draw, self.loss)
        } else {
            write!(f, "W{:>3}% D{:>3}% L{:>3}%", self.win, self.draw, self.loss)
        }
    }
}

/// A search score for people: `+44`, `-120`, `0` (centipawns), `mate in 3`,
/// `mated in 2`, `mated` (no move left), `rule win`/`rule loss` (a win or
/// loss by the repetition rules found in the search).
pub fn score_text(score: i32) -> String {
    if is_rule_score(score) {
        return if score > 0 { "rule win" } else { "rule loss" }.to_string();
    }
    match DisplayScore::from_score(score) {
        DisplayScore::Centipawns(0) => "0".to_string(),
        DisplayScore::Centipawns(cp) => format!("{cp:+}"),
        DisplayScore::Mate(0) => "mated".to_string(),
        DisplayScore::Mate(n) if n > 0 => format!("mate in {n}"),
        DisplayScore::Mate(n) => format!("mated in {}", -n),
    }
}

/// A count for people: `950`, `12.3k`, `4.56M`, `1.23G`.
pub fn count_text(n: u64) -> String {
    let f = n as f64;
    if n < 1000 {
        n.to_string()
    } else if n < 1_000_000 {
        format!("{:.1}k", f / 1e3)
    } else if n < 1_000_000_000 {
        format!("{:.2}M", f / 1e6)
    } else {
        format!("{:.2}G", f / 1e9)
    }
}

/// A duration for people: `0.042s`, `3.25s`, `42.1s`, `2:05`.
pub fn time_text(t: std::time::Duration) -> String {
    let s = t.as_secs_f64();
    if s < 1.0 {
        format!("{s:.3}s")
    } else if s < 10.0 {
        format!("{s:.2}s")
    } else if s < 60.0 {
        format!("{s:.1}s")
    } else {
        let whole = t.as_secs();
        format!("{}:{:02}", whole / 60, whole % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shuai_search::score::{mate_in, mated_in, RULE_WIN};

    #[test]
    fn wdl_is_symmetric_and_adds_up() {
        let start = Position::startpos();
        for s in [-900, -300, -100, -20, 0, 20, 100, 300, 900] {
            let a = wdl(s, &start);
            let b = wdl(-s, &start);
            assert_eq!(a.win + a.draw + a.loss, 100, "{s}");
            assert_eq!((a.win, a.draw, a.loss), (b.loss, b.draw, b.win), "{s}");
        }
        // The fitted model: every attacker on the board, a level score.
        assert_eq!(
            wdl(0, &start),
            Wdl {
                win: 39,
                draw: 22,
                loss: 39
            }
        );
        assert_eq!(wdl(mate_in(5), &start).win, 100);
        assert_eq!(wdl(mated_in(4), &start).loss, 100);
        assert_eq!(wdl(RULE_WIN - 3, &start).win, 100);
    }

    #[test]
    fn scores_read_naturally() {
        assert_eq!(score_text(44), "+44");
        assert_eq!(score_text(-120), "-120");
        assert_eq!(score_text(0), "0");
        assert_eq!(score_text(mate_in(1)), "mate in 1");
        assert_eq!(score_text(mate_in(5)), "mate in 3");
        assert_eq!(score_text(mated_in(4)), "mated in 2");
        assert_eq!(score_text(mated_in(0)), "mated");
        assert_eq!(score_text(RULE_WIN - 7), "rule win");
        assert_eq!(score_text(-(RULE_WIN - 7)), "rule loss");
        let start = Position::startpos();
        assert_eq!(wdl(44, &start).to_string(), "W 43% D 22% L 35%");
        assert_eq!(format!("{}", wdl(-3000, &start)), "W  0% D  0% L100%");
        assert_eq!(format!("{:#}", wdl(-3000, &start)), "W 0% D 0% L 100%");
    }

    #[test]
    fn counts_and_times() {
        assert_eq!(count_text(950), "950");
        assert_eq!(count_text(12_345), "12.3k");
        assert_eq!(count_text(4_560_000), "4.56M");
        assert_eq!(count_text(1_234_000_000), "1.23G");
        use std::time::Duration;
        assert_eq!(time_text(Duration::from_millis(42)), "0.042s");
        assert_eq!(time_text(Duration::from_millis(3250)), "3.25s");
        assert_eq!(time_text(Duration::from_millis(42_100)), "42.1s");
        assert_eq!(time_text(Duration::from_secs(125)), "2:05");
    }
}
