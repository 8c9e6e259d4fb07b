//! `go` in both protocols: UCCI `time/increment/movestogo/opptime/…` (in
//! seconds, or milliseconds after `usemillisec`), UCI `wtime/btime/winc/
//! binc/movestogo/movetime` (milliseconds, w = Red), plus `depth`
//! (`depth infinite`), `nodes`, `mate`, `infinite`, `ponder`, `draw`,
//! `searchmoves` and `perft`. Tokens may come in any order; a missing or
//! bad number is reported and skipped, never fatal.

use super::format::{Dialect, Format};
use crate::engine::GoParams;
use shuai_board::{Color, Position};
use shuai_search::Clock;
use std::time::Duration;

/// What a `go` line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoCommand {
    /// A search.
    Search(Box<GoParams>),
    /// `go perft N`.
    Perft(u32),
}

/// Numbers collected from the line before they become clocks.
#[derive(Default)]
struct Raw {
    time: Option<f64>,
    opptime: Option<f64>,
    increment: Option<f64>,
    oppincrement: Option<f64>,
    movestogo: Option<f64>,
    oppmovestogo: Option<f64>,
    wtime: Option<f64>,
    btime: Option<f64>,
    winc: Option<f64>,
    binc: Option<f64>,
    movetime: Option<f64>,
}

const KEYWORDS: &[&str] = &[
    "infinite",
    "ponder",
    "draw",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "time",
    "opptime",
    "increment",
    "oppincrement",
    "oppmovestogo",
    "searchmoves",
    "perft",
];

fn is_keyword(t: &str) -> bool {
    KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(t))
}

fn number(t: &str) -> Option<f64> {
    t.parse::<f64>().ok().filter(|f| f.is_finite())
}

/// Parses the words after `go`. Returns the command and one message per
/// problem (unknown word, missing number, bad move).
pub fn parse_go(
    args: &[&str],
    pos: &Position,
    fmt: Format,
    usemillisec: bool,
) -> (GoCommand, Vec<String>) {
    let mut p = GoParams::default();
    let mut raw = Raw::default();
    let mut problems = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let word = args[i].to_ascii_lowercase();
        i += 1;
        let next = args.get(i).copied();
        match word.as_str() {
            "infinite" => p.limits.infinite = true,
            "ponder" => p.ponder = true,
            "draw" => p.draw_offered = true,
            "depth" => {
                if next.is_some_and(|t| t.eq_ignore_ascii_case("infinite")) {
                    i += 1;
                    p.limits.infinite = true;
                } else if let Some(d) = take_number(args, &mut i, "depth", &mut problems) {
                    p.limits.depth = Some(d.clamp(0.0, 1000.0) as u32);
                }
            }
            "nodes" => {
                p.limits.nodes =
                    take_number(args, &mut i, "nodes", &mut problems).map(|n| n.max(1.0) as u64)
            }
            "mate" => {
                p.limits.mate = take_number(args, &mut i, "mate", &mut problems)
                    .map(|n| n.clamp(1.0, 500.0) as u32)
            }
            "movetime" => raw.movetime = take_number(args, &mut i, "movetime", &mut problems),
            "wtime" => raw.wtime = take_number(args, &mut i, "wtime", &mut problems),
            "btime" => raw.btime = take_number(args, &mut i, "btime", &mut problems),
            "winc" => raw.winc = take_number(args, &mut i, "winc", &mut problems),
            "binc" => raw.binc = take_number(args, &mut i, "binc", &mut problems),
            "movestogo" => raw.movestogo = take_number(args, &mut i, "movestogo", &mut problems),
            "time" => raw.time = take_number(args, &mut i, "time", &mut problems),
            "opptime" => raw.opptime = take_number(args, &mut i, "opptime", &mut problems),
            "increment" => raw.increment = take_number(args, &mut i, "increment", &mut problems),
            "oppincrement" => {
                raw.oppincrement = take_number(args, &mut i, "oppincrement", &mut problems)
            }
            "oppmovestogo" => {
                raw.oppmovestogo = take_number(args, &mut i, "oppmovestogo", &mut problems)
            }
            "perft" => {
                if let Some(d) = take_number(args, &mut i, "perft", &mut problems) {
                    return (GoCommand::Perft(d.clamp(0.0, 64.0) as u32), problems);
                }
                return (GoCommand::Perft(u32::MAX), problems);
            }
            "searchmoves" => {
                while let Some(t) = args.get(i).filter(|t| !is_keyword(t)) {
                    match fmt.parse_move(pos, t) {
                        Ok(m) => p.limits.search_moves.push(m),
                        Err(e) => problems.push(format!("go searchmoves: {e}; ignored")),
                    }
                    i += 1;
                }
            }
            _ => problems.push(format!("go: unknown word '{}'; ignored", args[i - 1])),
        }
    }
    // UCCI times are seconds unless usemillisec; UCI times are ms.
    let ucci_seconds = fmt.dialect == Dialect::Ucci && !usemillisec;
    let ucci_ms = |v: f64| -> Duration {
        if ucci_seconds {
            seconds_to_budget(v)
        } else {
            ms(v)
        }
    };
    let mtg = |v: Option<f64>| v.map(|n| n.max(0.0) as u32).filter(|&n| n > 0);
    let own_is_red = pos.side_to_move() == Color::Red;
    let (uci_own, uci_opp, uci_inc, uci_oppinc) = if own_is_red {
        (raw.wtime, raw.btime, raw.winc, raw.binc)
    } else {
        (raw.btime, raw.wtime, raw.binc, raw.winc)
    };
    if let Some(t) = raw.time {
        p.limits.clock = Some(Clock {
            remaining: ucci_ms(t),
            increment: raw.increment.map_or(Duration::ZERO, ucci_ms),
            moves_to_go: mtg(raw.movestogo),
        });
    } else if let Some(t) = uci_own {
        p.limits.clock = Some(Clock {
            remaining: ms(t),
            increment: uci_inc.map_or(Duration::ZERO, ms),
            moves_to_go: mtg(raw.movestogo),
        });
    } else if raw.increment.is_some() || uci_inc.is_some() || raw.movestogo.is_some() {
        problems.push("go: increment or movestogo without a clock; ignored".to_string());
    }
    if let Some(t) = raw.opptime {
        p.opponent_clock = Some(Clock {
            remaining: ucci_ms(t),
            increment: raw.oppincrement.map_or(Duration::ZERO, ucci_ms),
            moves_to_go: mtg(raw.oppmovestogo.or(raw.movestogo)),
        });
    } else if let Some(t) = uci_opp {
        p.opponent_clock = Some(Clock {
            remaining: ms(t),
            increment: uci_oppinc.map_or(Duration::ZERO, ms),
            moves_to_go: mtg(raw.movestogo),
        });
    }
    if let Some(t) = raw.movetime {
        p.limits.movetime = Some(if fmt.dialect == Dialect::Ucci {
            ucci_ms(t).max(Duration::from_millis(1))
        } else {
            ms(t).max(Duration::from_millis(1))
        });
    }
    if p.ponder && p.draw_offered {
        // Never combined by the spec; a draw offer during pondering comes
        // with ponderhit.
        p.draw_offered = false;
        problems.push("go: 'ponder' and 'draw' together; the draw offer is ignored".to_string());
    }
    (GoCommand::Search(Box::new(p)), problems)
}

/// Reads the number after a keyword at `args[*i]`; a missing one is
/// reported, and a following keyword is left for the caller.
fn take_number(
    args: &[&str],
    i: &mut usize,
    what: &str,
    problems: &mut Vec<String>,
) -> Option<f64> {
    let next = args.get(*i).copied();
    match next.and_then(number) {
        Some(n) => {
            *i += 1;
            Some(n)
        }
        None => {
            match next {
                Some(t) if !is_keyword(t) => {
                    problems.push(format!("go {what}: '{t}' is not a number; ignored"));
                    *i += 1;
                }
                _ => problems.push(format!("go {what} needs a number; ignored")),
            }
            None
        }
    }
}

fn ms(v: f64) -> Duration {
    Duration::from_millis(v.max(0.0) as u64)
}

/// A clock reading in whole seconds may be up to a second off in either
/// direction (GUIs truncate or round): keep a quarter of it, at most half
/// a second, in reserve.
fn seconds_to_budget(v: f64) -> Duration {
    let total = Duration::from_secs_f64(v.clamp(0.0, 1e9));
    total.saturating_sub((total / 4).min(Duration::from_millis(500)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const UCCI: Format = Format::UCCI;
    const UCI: Format = Format::UCI;

    fn go(line: &str, fmt: Format, ms: bool) -> (GoParams, Vec<String>) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match parse_go(&words, &Position::startpos(), fmt, ms) {
            (GoCommand::Search(p), problems) => (*p, problems),
            (other, _) => panic!("{other:?}"),
        }
    }

    fn clock(remaining: u64, inc: u64, mtg: Option<u32>) -> Option<Clock> {
        Some(Clock {
            remaining: Duration::from_millis(remaining),
            increment: Duration::from_millis(inc),
            moves_to_go: mtg,
        })
    }

    #[test]
    fn ucci_clocks_in_any_order_and_units() {
        let (p, e) = go(
            "time 60000 opptime 50000 oppincrement 1000 increment 2000",
            UCCI,
            true,
        );
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(p.limits.clock, clock(60000, 2000, None));
        assert_eq!(p.opponent_clock, clock(50000, 1000, None));
        let (p, _) = go("time 300 increment 0", UCCI, false);
        assert_eq!(p.limits.clock, clock(299_500, 0, None));
        let (p, _) = go("time 2 movestogo 10", UCCI, false);
        assert_eq!(p.limits.clock, clock(1500, 0, Some(10)));
        let (p, _) = go(
            "draw time 1000 increment 10 opptime 900 oppincrement 10",
            UCCI,
            true,
        );
        assert!(p.draw_offered);
        let (p, _) = go("movetime 3", UCCI, false);
        assert_eq!(p.limits.movetime, Some(Duration::from_millis(2500)));
    }

    #[test]
    fn uci_clocks_by_side() {
        let (p, e) = go(
            "wtime 1000 btime 2000 winc 10 binc 20 movestogo 5",
            UCI,
            true,
        );
        assert!(e.is_empty());
        assert_eq!(p.limits.clock, clock(1000, 10, Some(5)));
        assert_eq!(p.opponent_clock, clock(2000, 20, Some(5)));
        let words = ["wtime", "1000", "btime", "2000"];
        let black =
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b")
                .unwrap();
        let (GoCommand::Search(p), _) = parse_go(&words, &black, UCI, true) else {
            panic!()
        };
        assert_eq!(p.limits.clock, clock(2000, 0, None));
    }

    #[test]
    fn modes() {
        assert!(go("infinite", UCCI, true).0.limits.infinite);
        assert!(go("depth infinite", UCCI, true).0.limits.infinite);
        assert_eq!(go("depth 7", UCI, true).0.limits.depth, Some(7));
        assert_eq!(go("nodes 5000", UCI, true).0.limits.nodes, Some(5000));
        assert_eq!(go("mate 3", UCI, true).0.limits.mate, Some(3));
        assert!(go("ponder wtime 10 btime 10", UCI, true).0.ponder);
        assert!(go("", UCI, true).0.limits.is_unlimited());
        let (p, _) = go("searchmoves h2e2 b2e2 depth 2", UCI, true);
        assert_eq!(p.limits.search_moves.len(), 2);
        assert_eq!(p.limits.depth, Some(2));
        let words = ["perft", "3"];
        assert_eq!(
            parse_go(&words, &Position::startpos(), UCI, true).0,
            GoCommand::Perft(3)
        );
    }

    #[test]
    fn bad_numbers_are_reported_not_fatal() {
        let (p, e) = go("depth", UCI, true);
        assert!(p.limits.is_unlimited());
        assert_eq!(e, vec!["go depth needs a number; ignored"]);
        let (p, e) = go("depth x movetime 100", UCI, true);
        assert_eq!(p.limits.depth, None);
        assert_eq!(p.limits.movetime, Some(Duration::from_millis(100)));
        assert_eq!(e.len(), 1);
        let (p, e) = go("depth movetime 100", UCI, true);
        assert_eq!(p.limits.movetime, Some(Duration::from_millis(100)));
        assert_eq!(e.len(), 1);
        let (p, e) = go("wtime -50 btime 100 frobnicate", UCI, true);
        assert_eq!(p.limits.clock, clock(0, 0, None));
        assert_eq!(e.len(), 1);
        let (_, e) = go("searchmoves h2e3", UCI, true);
        assert_eq!(e.len(), 1);
    }
}
