//! Self-play training data for evaluation tuning (`shuai-tools datagen`).
//!
//! Games are played by the Shuai search in-process at a fixed node budget
//! per move, from the opening book plus a few random plies. Every position
//! reached is a candidate; the quiet ones (side to move not in check, best
//! move not a capture, no mate score) are written as `FEN;result;score`:
//! the game's result from Red's point of view (1.0, 0.5, 0.0) and the
//! search's score of the position in centipawns, also from Red's point of
//! view. The tuner can aim at the result alone or at a blend of result and
//! score (`tune --lambda`): a game result is one noisy bit for a whole game,
//! the score a cheaper, position-specific signal.
//!
//! Game `i` depends only on the seed and `i` (its own generator and a fresh
//! search table), and the output is in game order, so a seed gives the same
//! file whatever the number of threads.

use crate::openings::EpdLine;
use crate::rng::Rng;
use shuai_board::rules::{judge_game_end, GameResult};
use shuai_board::{Color, Position};
use shuai_eval::Weights;
use shuai_search::{Control, Limits, Searcher};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Scores at least this large (in centipawns) are treated as mate scores
/// and their positions are not written.
pub const MATE_BOUND: i32 = 20_000;

/// How the games are played.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// Number of games.
    pub games: usize,
    /// Node budget per move.
    pub nodes: u64,
    /// Games played at once (each game searches on one thread).
    pub threads: usize,
    /// Seed for the openings and the random plies.
    pub seed: u64,
    /// Transposition table per game, MB.
    pub hash_mb: usize,
    /// Random plies after the book position: `0..=random_plies`.
    pub random_plies: u32,
    /// Plies after which a game is drawn.
    pub max_plies: usize,
    /// Natural-move limit (plies without a capture) for adjudication.
    pub natural_limit: u32,
    /// Opening positions.
    pub book: Vec<EpdLine>,
    /// The evaluation both sides play with.
    pub weights: Arc<Weights>,
}

/// One played game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The result from Red's point of view: 1.0, 0.5 or 0.0.
    pub result: f64,
    /// Plies played by the search (after the opening and random plies).
    pub plies: usize,
    /// Quiet positions kept.
    pub positions: Vec<KeptPosition>,
}

/// A quiet position kept for training.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeptPosition {
    /// The position.
    pub fen: String,
    /// The search's score of it, centipawns, from Red's point of view.
    pub red_score: i32,
}

impl GameRecord {
    /// The game's lines of the data file, `FEN;result;score` each.
    pub fn lines(&self) -> Vec<String> {
        self.positions
            .iter()
            .map(|p| format!("{};{};{}", p.fen, format_result(self.result), p.red_score))
            .collect()
    }
}

/// One parsed line of a data file.
#[derive(Clone, Debug)]
pub struct DataLine {
    /// The position.
    pub pos: Position,
    /// The game result from Red's point of view, 0..=1.
    pub result: f64,
    /// The search score from Red's point of view, centipawns, when the
    /// line has one.
    pub red_score: Option<i32>,
}

/// `1.0`, `0.5` or `0.0`.
pub fn format_result(r: f64) -> String {
    format!("{r:.1}")
}

fn game_seed(seed: u64, index: usize) -> u64 {
    // Decorrelate the per-game streams.
    let mut r = Rng::new(seed ^ (index as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
    r.next_u64()
}

/// A game's starting position: a book position (or the start
/// position with an empty book) followed by up to `random_plies` random
/// legal moves that do not end the game.
pub fn opening(cfg: &DatagenConfig, rng: &mut Rng) -> Position {
    let mut pos = if cfg.book.is_empty() {
        Position::startpos()
    } else {
        cfg.book[rng.below(cfg.book.len() as u64) as usize].position()
    };
    let plies = rng.below(cfg.random_plies as u64 + 1);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves.as_slice()[rng.below(moves.len() as u64) as usize];
        pos.make_move(m);
        if judge_game_end(&pos, cfg.natural_limit).is_some() {
            pos.unmake_move();
            break;
        }
    }
    pos
}

/// Plays game `index`.
pub fn play_game(cfg: &DatagenConfig, index: usize) -> GameRecord {
    let mut rng = Rng::new(game_seed(cfg.seed, index));
    let mut pos = opening(cfg, &mut rng);
    let mut searcher = Searcher::new(cfg.hash_mb.max(1));
    searcher.set_weights(Arc::clone(&cfg.weights));
    let limits = Limits::nodes(cfg.nodes.max(1));
    let mut positions = Vec::new();
    let mut plies = 0;
    let red_result = loop {
        if let Some(v) = judge_game_end(&pos, cfg.natural_limit) {
            let stm = pos.side_to_move();
            break match v.result {
                GameResult::Draw => 0.5,
                GameResult::Win if stm == Color::Red => 1.0,
                GameResult::Loss if stm == Color::Black => 1.0,
                _ => 0.0,
            };
        }
        if plies >= cfg.max_plies {
            break 0.5;
        }
        let r = searcher.search(&pos, &limits, &Control::new(), &|_| {});
        let Some(best) = r.best_move else {
            // judge_game_end sees every position without a legal move.
            break 0.5;
        };
        let quiet = !pos.in_check() && pos.piece_at(best.to()).is_none();
        if quiet && r.score.abs() < MATE_BOUND {
            let red_score = match pos.side_to_move() {
                Color::Red => r.score,
                Color::Black => -r.score,
            };
            positions.push(KeptPosition {
                fen: pos.to_fen(),
                red_score,
            });
        }
        pos.make_move(best);
        plies += 1;
    };
    GameRecord {
        result: red_result,
        plies,
        positions,
    }
}

/// Plays all games on `cfg.threads` threads; `done` is called (from any
/// thread) after each game with the number finished so far and the game.
/// The records come back in game order.
pub fn run(cfg: &DatagenConfig, done: &(dyn Fn(usize, &GameRecord) + Sync)) -> Vec<GameRecord> {
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let slots: Mutex<Vec<Option<GameRecord>>> = Mutex::new(vec![None; cfg.games]);
    std::thread::scope(|s| {
        for _ in 0..cfg.threads.clamp(1, cfg.games.max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= cfg.games {
                    break;
                }
                let g = play_game(cfg, i);
                let n = finished.fetch_add(1, Ordering::Relaxed) + 1;
                done(n, &g);
                slots.lock().expect("no panics while held")[i] = Some(g);
            });
        }
    });
    slots
        .into_inner()
        .expect("no panics while held")
        .into_iter()
        .map(|g| g.expect("every game played"))
        .collect()
}

/// Parses one data line, `FEN;result` or `FEN;result;score` (result 0,
/// 0.5 or 1, a `[0.5]`-style bracketed result accepted too; score in
/// centipawns from Red's point of view).
pub fn parse_line(line: &str) -> Result<DataLine, String> {
    let mut fields = line.split(';');
    let fen = fields.next().unwrap_or_default();
    let result = fields
        .next()
        .ok_or_else(|| format!("no ';' in {line:?}"))?
        .trim()
        .trim_start_matches('[')
        .trim_end_matches(']');
    let red_score = match fields.next() {
        None => None,
        Some(sc) => Some(
            sc.trim()
                .parse::<i32>()
                .map_err(|_| format!("bad score {sc:?} in {line:?}"))?,
        ),
    };
    if fields.next().is_some() {
        return Err(format!("more than three fields in {line:?}"));
    }
    let r: f64 = result
        .parse()
        .map_err(|_| format!("bad result {result:?} in {line:?}"))?;
    if !(0.0..=1.0).contains(&r) {
        return Err(format!("result {r} out of 0..1 in {line:?}"));
    }
    let pos = Position::from_fen(fen.trim()).map_err(|e| format!("bad FEN in {line:?}: {e}"))?;
    Ok(DataLine {
        pos,
        result: r,
        red_score,
    })
}
