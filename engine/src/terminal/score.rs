//! Scores for people: centipawns or mate distances, and a win/draw/loss
//! estimate.
//!
//! # The win/draw/loss model
//!
//! The estimate is a plain logistic model of the centipawn score `x` (from
//! the side to move's view), the shape Stockfish's WDL output uses:
//!
//! ```text
//! win  = 1 / (1 + exp((A − x) / B))
//! loss = 1 / (1 + exp((A + x) / B))
//! draw = 1 − win − loss
//! ```
//!
//! with `A` = [`WDL_A`] = 100 cp (the score at which a win becomes as
//! likely as not) and `B` = [`WDL_B`] = 80 cp (how quickly the odds turn).
//! So a level position reads 22% / 56% / 22%, +100 cp reads
//! 50% / 42% / 8%, and +300 cp reads 92% / 7% / 1%. The constants are
//! round numbers chosen by hand, not fitted to Shuai's games: read the
//! percentages as a guide to what the score means, not as odds. Mate
//! scores are a certain win or loss, and so are wins and losses by the
//! repetition rules found in the search.

use shuai_search::score::{is_rule_score, DisplayScore};

/// The score (cp, side to move) at which the model gives even odds of a win.
pub const WDL_A: f64 = 100.0;
/// The scale (cp) of the model's logistic curves.
pub const WDL_B: f64 = 80.0;

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

/// The win/draw/loss estimate of a search score (side to move's view).
pub fn wdl(score: i32) -> Wdl {
    if is_rule_score(score) || matches!(DisplayScore::from_score(score), DisplayScore::Mate(_)) {
        return if score > 0 {
            Wdl {
                win: 100,
                draw: 0,
                loss: 0,
            }
        } else {
            Wdl {
                win: 0,
                draw: 0,
                loss: 100,
            }
        };
    }
    let x = f64::from(score);
    let logistic = |t: f64| 1.0 / (1.0 + t.exp());
    let win = (100.0 * logistic((WDL_A - x) / WDL_B)).round() as u32;
    let loss = (100.0 * logistic((WDL_A + x) / WDL_B)).round() as u32;
    let (win, loss) = (win.min(100), loss.min(100 - win.min(100)));
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
        for s in [-900, -300, -100, -20, 0, 20, 100, 300, 900] {
            let a = wdl(s);
            let b = wdl(-s);
            assert_eq!(a.win + a.draw + a.loss, 100, "{s}");
            assert_eq!((a.win, a.draw, a.loss), (b.loss, b.draw, b.win), "{s}");
        }
        assert_eq!(
            wdl(0),
            Wdl {
                win: 22,
                draw: 56,
                loss: 22
            }
        );
        assert_eq!(wdl(100).win, 50);
        assert!(wdl(300).win >= 90);
        assert_eq!(wdl(mate_in(5)).win, 100);
        assert_eq!(wdl(mated_in(4)).loss, 100);
        assert_eq!(wdl(RULE_WIN - 3).win, 100);
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
        assert_eq!(wdl(44).to_string(), "W 33% D 53% L 14%");
        assert_eq!(format!("{}", wdl(-1000)), "W  0% D  0% L100%");
        assert_eq!(format!("{:#}", wdl(-1000)), "W 0% D 0% L 100%");
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
