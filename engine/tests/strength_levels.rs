//! The strength levels in games: a lower level never plays an illegal
//! move and keeps to its node budget, and levels are ordered in strength.
//! Games are played in process at each level's fixed node budget with
//! seeded choices, so every game (and so the test) is the same on every
//! run and machine: a statistical check with a fixed seed, not a timing.

use shuai_board::rules::{judge_game_end_with, RuleOptions};
use shuai_board::{Color, Move, Position, Rng};
use shuai_engine::engine::{Engine, EngineOptions, GoParams, Listener, Outcome, Skill};
use shuai_search::{Clock, Event, Limits};
use std::sync::Arc;
use std::time::Duration;

struct Quiet;

impl Listener for Quiet {
    fn info(&self, _: &Event) {}
    fn best_move(&self, _: &Outcome) {}
}

/// An engine at `level`, its choices seeded by `seed`.
fn at_level(level: u8, seed: u64) -> Engine {
    let mut e = Engine::new();
    e.set_options(EngineOptions {
        skill_level: level,
        hash_mb: 4,
        ..EngineOptions::default()
    });
    e.set_seed(seed);
    e
}

/// `engine`'s move in `pos` under `limits`: its outcome and the move,
/// checked legal.
fn search_move(engine: &mut Engine, pos: &Position, limits: Limits) -> (Outcome, Move) {
    engine.set_position(pos.clone());
    engine.go(
        GoParams {
            limits,
            ..GoParams::default()
        },
        Arc::new(Quiet),
    );
    let outcome = engine.wait().expect("one outcome per go");
    let mv = outcome
        .best_move
        .expect("a legal move while the game is on");
    assert!(pos.legal_moves().contains(mv), "{mv} in {}", pos.to_fen());
    (outcome, mv)
}

/// Plays one game from `start` between `red` and `black` (engines), each
/// move within the mover's node budget; returns Red's points (1, ½, 0),
/// a draw after 240 plies.
fn play(start: &Position, engines: [&mut Engine; 2], budgets: [u64; 2]) -> f64 {
    let [red, black] = engines;
    let mut pos = start.clone();
    let rules = RuleOptions::default();
    for _ in 0..240 {
        if let Some(v) = judge_game_end_with(&pos, &rules) {
            return match v.winner(pos.side_to_move()) {
                Some(Color::Red) => 1.0,
                Some(Color::Black) => 0.0,
                None => 0.5,
            };
        }
        let me = pos.side_to_move().index();
        let engine = if me == 0 { &mut *red } else { &mut *black };
        // A generous limit: the level's node budget is what stops it.
        let (outcome, mv) = search_move(engine, &pos, Limits::nodes(1_000_000));
        // The first iteration always completes; past it the budget holds.
        assert!(
            outcome.depth <= 1 || outcome.nodes < budgets[me] + budgets[me] / 4 + 64,
            "{} nodes for a budget of {}",
            outcome.nodes,
            budgets[me]
        );
        pos.make_move(mv);
    }
    0.5
}

/// Openings: four random plies from the start, from a fixed seed.
fn openings(n: usize) -> Vec<Position> {
    let mut rng = Rng::new(2026);
    (0..n)
        .map(|_| {
            let mut p = Position::startpos();
            for _ in 0..4 {
                let moves: Vec<_> = p.legal_moves().iter().copied().collect();
                p.make_move(*rng.pick(&moves));
            }
            p
        })
        .collect()
}

/// The points of `high` against `low` over both colours of each opening.
fn score(high: u8, low: u8, games: usize) -> f64 {
    let budget = |l: u8| Skill::from_level(l).unwrap().nodes();
    let mut points = 0.0;
    for (i, start) in openings(games / 2).iter().enumerate() {
        let seed = 100 + i as u64;
        let (mut h, mut l) = (at_level(high, seed), at_level(low, seed + 50));
        points += play(start, [&mut h, &mut l], [budget(high), budget(low)]);
        let (mut h, mut l) = (at_level(high, seed + 1), at_level(low, seed + 51));
        points += 1.0 - play(start, [&mut l, &mut h], [budget(low), budget(high)]);
    }
    points
}

#[test]
fn levels_are_ordered_in_strength() {
    // Level 0 (64 nodes, wild choices) against level 6 (~800 nodes), and
    // level 6 against level 12 (~10,000 nodes): the calibration measured
    // several hundred Elo between each, so the higher level takes at
    // least 3/4 of the points.
    let low = score(6, 0, 12);
    assert!(low >= 9.0, "level 6 scored {low}/12 against level 0");
    let high = score(12, 6, 12);
    assert!(high >= 9.0, "level 12 scored {high}/12 against level 6");
}

#[test]
fn the_lowest_level_moves_legally_within_a_short_clock() {
    // A whole game of level 0 against itself on a one-second sudden-death
    // clock each: every move legal, and the engine never takes more than
    // the clock it was given (it plans a tenth of full strength's share
    // and stops at 64 nodes).
    let mut red = at_level(0, 7);
    let mut black = at_level(0, 8);
    let mut pos = openings(1).remove(0);
    let mut left = [Duration::from_secs(1); 2];
    let rules = RuleOptions::default();
    let mut moves = 0;
    while judge_game_end_with(&pos, &rules).is_none() && moves < 200 {
        let me = pos.side_to_move().index();
        let engine = if me == 0 { &mut red } else { &mut black };
        let clock = Clock {
            remaining: left[me],
            increment: Duration::ZERO,
            moves_to_go: None,
        };
        let limits = Limits {
            clock: Some(clock),
            ..Limits::default()
        };
        let (outcome, mv) = search_move(engine, &pos, limits);
        assert!(
            outcome.time < left[me],
            "{:?} with {:?} left",
            outcome.time,
            left[me]
        );
        left[me] -= outcome.time;
        pos.make_move(mv);
        moves += 1;
    }
    // Played to its end (level 0 mates or is mated quickly: beginners).
    assert!(judge_game_end_with(&pos, &rules).is_some() || moves == 200);
    assert!(moves > 4, "a game of {moves} plies");
}
