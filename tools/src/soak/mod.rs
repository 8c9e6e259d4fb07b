//! `shuai-tools soak`: the hostile-operator soak. The engine under test
//! plays games against an opponent at fast clocks, with `Threads` and
//! `Hash` changed between games, pondering on, and random interjections
//! while it thinks ([`operator`]); crashes, hangs, illegal moves, protocol
//! faults and time losses per clock are counted ([`tally`]) and written to
//! a log as they happen ([`journal`]), so a long run can be watched,
//! stopped and resumed.

pub mod journal;
pub mod operator;
pub mod play;
pub mod tally;

use crate::engine::Engine;
use crate::game::{GameConfig, Outcome};
use crate::openings::EpdLine;
use crate::progress::Progress;
use crate::spec::{EngineSpec, Protocol};
use crate::tc::Limit;
use journal::Journal;
use operator::{hash_sizes, Limits, Operator};
use play::{play, tested_failure, Players};
use shuai_board::rules::RuleOptions;
use shuai_board::{Color, Rng};
use std::path::PathBuf;
use std::time::{Duration, Instant};
pub use tally::Tally;

/// Everything about a soak run.
#[derive(Clone, Debug)]
pub struct SoakConfig {
    /// The engine under test.
    pub engine: EngineSpec,
    /// Its opponent (played as the match runner plays engines).
    pub opponent: EngineSpec,
    /// The clocks, used in turn by pairs of games.
    pub clocks: Vec<Limit>,
    /// Games in all (a resumed run plays up to this number).
    pub games: usize,
    /// Seed of the openings and of every random choice; game `i` draws
    /// from its own stream, so a resumed run makes the same choices.
    pub seed: u64,
    /// The log: one JSON object a line, appended to.
    pub log: PathBuf,
    /// `Threads` is drawn from 1 to this between games.
    pub max_threads: u32,
    /// `Hash` is drawn from the powers of two up to this (and this), MB.
    pub max_hash_mb: u32,
    /// Whether the engine under test ponders.
    pub ponder: bool,
    /// Limits on its answers.
    pub limits: Limits,
    /// The openings, in the order they are played.
    pub openings: Vec<EpdLine>,
    /// Maximum plies after the book (longer games are drawn).
    pub max_plies: u32,
    /// Whether to show the progress line on stderr.
    pub progress: bool,
}

/// The engine slots: started on first use, restarted after a crash or a
/// hang.
struct Slot {
    spec: EngineSpec,
    engine: Option<Engine>,
}

impl Slot {
    fn get(&mut self) -> Result<&mut Engine, String> {
        if self.engine.as_ref().is_none_or(Engine::is_dead) {
            if let Some(e) = self.engine.take() {
                e.quit();
            }
            self.engine = Some(Engine::start(&self.spec, None, &self.spec.name)?);
        }
        self.engine
            .as_mut()
            .ok_or_else(|| format!("engine {} did not start", self.spec.name))
    }
}

/// The game rules of a soak game at `limit`.
fn game_config(cfg: &SoakConfig, limit: Limit) -> GameConfig {
    GameConfig {
        limit,
        own_limits: [None, None],
        margin_ms: cfg.limits.margin.as_millis() as u64,
        timeout_ms: 60_000,
        stop_grace_ms: cfg.limits.stop_grace.as_millis() as u64,
        rules: RuleOptions::default(),
        max_plies: cfg.max_plies,
        resign: None,
        draw: None,
    }
}

/// The random stream of game `index`: the same for a seed whatever was
/// played before, so a resumed run continues as the whole run would have.
fn game_rng(seed: u64, index: usize) -> Rng {
    let mut r = Rng::new(seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    r.next_u64();
    r
}

/// Runs (or resumes) a soak and returns the totals; the summary is
/// `Tally::summary`. Errors only when an engine cannot be started or the
/// log cannot be written.
pub fn run_soak(cfg: &SoakConfig) -> Result<Tally, String> {
    if cfg.clocks.is_empty() || cfg.openings.is_empty() {
        return Err("a soak needs at least one clock and one opening".into());
    }
    let (mut journal, mut tally) = Journal::open(&cfg.log)?;
    journal.start(cfg, tally.games)?;
    let mut tested = Slot {
        spec: cfg.engine.clone(),
        engine: None,
    };
    let mut opponent = Slot {
        spec: cfg.opponent.clone(),
        engine: None,
    };
    let first = tally.games as usize;
    let mut progress = Progress::new(cfg.games, cfg.progress)
        .starting_at(first)
        .every(Duration::from_secs(30));
    let new_game = match cfg.engine.proto {
        Protocol::Ucci => "setoption newgame",
        _ => "ucinewgame",
    };
    for index in first..cfg.games {
        let began = Instant::now();
        let pair = index / 2;
        let limit = cfg.clocks[pair % cfg.clocks.len()];
        let tc = limit.to_string();
        let opening = &cfg.openings[pair % cfg.openings.len()];
        let me = if index % 2 == 0 {
            Color::Red
        } else {
            Color::Black
        };
        let mut rng = game_rng(cfg.seed, index);
        let threads = 1 + rng.below(cfg.max_threads.max(1) as u64) as u32;
        let hash_mb = *rng.pick(&hash_sizes(cfg.max_hash_mb));
        let mut op = Operator {
            rng,
            tally: &mut tally,
            incidents: Vec::new(),
            game: index,
            ply: 0,
            tc: tc.clone(),
            limits: cfg.limits,
            max_hash_mb: cfg.max_hash_mb,
        };
        if opponent.get()?.new_game().is_err() {
            // Restarted once: the soak is about the engine under test.
            if let Some(e) = opponent.engine.as_mut() {
                e.kill();
            }
            opponent
                .get()?
                .new_game()
                .map_err(|e| format!("the opponent failed at a new game twice: {e}"))?;
        }
        let eng = tested.get()?;
        let result = match op.new_game(eng, threads, hash_mb, new_game) {
            Err(fault) => Err(fault),
            Ok(()) => {
                let players = Players {
                    tested: eng,
                    opponent: opponent.engine.as_mut().ok_or("the opponent is gone")?,
                    tested_color: me,
                    ponder: cfg.ponder,
                };
                play(&mut op, players, opening, &game_config(cfg, limit))
            }
        };
        let line =
            |result: String, termination: String, reason: String, moves: usize| journal::GameLine {
                game: index,
                tc: tc.clone(),
                threads,
                hash_mb,
                tested_red: me == Color::Red,
                result,
                termination,
                reason,
                moves,
            };
        let record = match result {
            Ok((end, moves)) => {
                if let Some(kind) = tested_failure(&end, me) {
                    if let Some(e) = tested.engine.as_ref() {
                        op.incident(kind, end.2.clone(), e);
                    }
                } else if end.1.is_failure() {
                    op.tally.opponent_failures += 1;
                }
                let wdl = match end.0 {
                    Outcome::Draw => 1,
                    o if o.winner() == Some(me) => 0,
                    _ => 2,
                };
                op.tally.wdl[wdl] += 1;
                op.tally.clocks.entry(tc.clone()).or_default().moves += moves as u64;
                line(end.0.pgn().into(), end.1.name().into(), end.2, moves)
            }
            Err(_) => {
                // Counted as a loss: the engine under test failed.
                op.tally.wdl[2] += 1;
                let why = op
                    .incidents
                    .last()
                    .map_or(String::new(), |i| i.what.clone());
                line("aborted".into(), "aborted".into(), why, op.ply / 2)
            }
        };
        let incidents = std::mem::take(&mut op.incidents);
        tally.games += 1;
        tally.clocks.entry(tc).or_default().games += 1;
        *tally.threads.entry(threads).or_default() += 1;
        *tally.hash_mb.entry(hash_mb).or_default() += 1;
        tally.seconds += began.elapsed().as_secs_f64();
        journal.game(&record, &incidents, &tally)?;
        progress.update(
            tally.games as usize,
            &format!(
                "crashes {} hangs {} illegal {} protocol {} time losses {}",
                tally.crashes,
                tally.hangs,
                tally.illegal_moves,
                tally.protocol_faults,
                tally.clocks.values().map(|c| c.time_losses).sum::<u64>()
            ),
        );
    }
    progress.finish();
    journal.summary(&tally)?;
    for slot in [&mut tested, &mut opponent] {
        if let Some(e) = slot.engine.take() {
            e.quit();
        }
    }
    Ok(tally)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_streams_do_not_depend_on_the_past() {
        let a: Vec<u64> = (0..3).map(|i| game_rng(7, i).next_u64()).collect();
        assert_eq!(game_rng(7, 2).next_u64(), a[2]);
        assert_ne!(a[0], a[1]);
        assert_ne!(game_rng(8, 0).next_u64(), a[0]);
    }
}
