//! What a `go` asks for, and the search limits the engine makes of it.

use super::options::EngineOptions;
use super::policy::Choice;
use shuai_board::Move;
use shuai_search::{Clock, Limits};

/// Node budget of a `go` that names no limit at all (so a bare `go` still
/// answers, within seconds).
pub const DEFAULT_GO_NODES: u64 = 1_000_000;

/// What one `go` asks for (protocol-free: times are already durations).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// The search's limits as the `go` gave them: depth, nodes, time,
    /// clock, mate, infinite, `searchmoves`. The engine sets the rest
    /// (MultiPV from its options, the banned moves, the move overhead):
    /// see [`build_limits`].
    pub limits: Limits,
    /// The opponent's clock (parsed and logged; not used).
    pub opponent_clock: Option<Clock>,
    /// Think on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// The opponent offers a draw.
    pub draw_offered: bool,
}

impl GoParams {
    /// A `go depth N`.
    pub fn depth(depth: u32) -> GoParams {
        GoParams {
            limits: Limits::depth(depth),
            ..GoParams::default()
        }
    }
}

/// The search limits of a `go`: its own limits, the banned moves, the
/// option-driven MultiPV (raised to the lines `choice` picks from), the
/// move overhead, a node cap for a `go` without any limit, and a quarter
/// more planned time when the GUI lets us ponder (not on the last move
/// before a time control; the search's hard cap stays well inside the real
/// clock). A weakened level also caps the nodes and scales the planned
/// time and a fixed move time down.
pub fn build_limits(
    params: &GoParams,
    opts: &EngineOptions,
    banned: &[Move],
    choice: &Choice,
) -> Limits {
    let mut limits = Limits {
        depth: params.limits.depth.map(|d| d.max(1)),
        multipv: opts.multipv.max(1).max(choice.lines()),
        banned_moves: banned.to_vec(),
        move_overhead: opts.move_overhead,
        ..params.limits.clone()
    };
    if params.limits.is_unlimited() {
        limits.nodes = Some(DEFAULT_GO_NODES);
    }
    if opts.ponder {
        if let Some(c) = limits.clock.as_mut() {
            if c.moves_to_go != Some(1) {
                c.remaining = c.remaining.mul_f64(1.25);
            }
        }
    }
    if let Choice::Level(skill) = choice {
        skill.limit(&mut limits);
    }
    limits
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Randomness, Skill};
    use std::time::Duration;

    #[test]
    fn limits_of_a_go() {
        let opts = EngineOptions::default();
        let bare = build_limits(&GoParams::default(), &opts, &[], &Choice::Best);
        assert_eq!(bare.nodes, Some(DEFAULT_GO_NODES));
        assert_eq!(bare.move_overhead, opts.move_overhead);
        let p = GoParams::depth(0);
        let l = build_limits(&p, &opts, &[], &Choice::Near(Randomness::Small));
        assert_eq!((l.depth, l.nodes, l.multipv), (Some(1), None, 4));
        let clock = Clock {
            remaining: Duration::from_millis(1000),
            increment: Duration::ZERO,
            moves_to_go: None,
        };
        let p = GoParams {
            limits: Limits {
                clock: Some(clock),
                ..Limits::default()
            },
            ..GoParams::default()
        };
        let pondering = EngineOptions {
            ponder: true,
            ..EngineOptions::default()
        };
        let l = build_limits(&p, &pondering, &[], &Choice::Best);
        assert_eq!(l.clock.unwrap().remaining, Duration::from_millis(1250));
        assert_eq!(l.nodes, None);
        // A level caps the nodes, asks for its lines and plans less time.
        let skill = Skill::from_level(4).unwrap();
        let l = build_limits(&p, &opts, &[], &Choice::Level(skill));
        assert_eq!(l.nodes, Some(skill.nodes()));
        assert_eq!(l.multipv, skill.lines());
        assert_eq!(l.clock.unwrap().remaining, Duration::from_millis(280));
        let p = GoParams {
            limits: Limits::nodes(10),
            ..GoParams::default()
        };
        let l = build_limits(&p, &opts, &[], &Choice::Level(skill));
        assert_eq!(l.nodes, Some(10));
    }
}
