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
//! file whatever the number of threads. [`generate`] writes each game as it
//! finishes (games that finish early wait for the ones before them), in the
//! binary format of [`crate::data`] or as text with a blank line after each
//! game, and can resume an interrupted file: game `n` onwards are played
//! again exactly as an uninterrupted run would have played them.

use crate::data::{Format, Outcome, PackedPosition, PositionWriter};
use crate::openings::{self, EpdLine, DEFAULT_BOOK};
use shuai_board::rules::{judge_game_end_with, GameResult, RuleBook, RuleOptions};
use shuai_board::Rng;
use shuai_board::{Color, Position};
use shuai_eval::nnue::Network;
use shuai_eval::{fnv1a, Weights};
use shuai_search::{Control, Limits, Searcher};
use std::collections::BTreeMap;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};

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
    /// A network both sides evaluate with instead of the weights.
    pub network: Option<Arc<Network>>,
    /// The repetition rules that judge the games and that both sides
    /// search by.
    pub rules: RuleBook,
}

impl Default for DatagenConfig {
    /// The `datagen` command's defaults: 100 games at 5000 nodes, one
    /// thread, seed 1, 4 MiB, 0..=4 random plies, 400 plies, the built-in
    /// book and weights.
    fn default() -> DatagenConfig {
        DatagenConfig {
            games: 100,
            nodes: 5000,
            threads: 1,
            seed: 1,
            hash_mb: 4,
            random_plies: 4,
            max_plies: 400,
            natural_limit: 120,
            book: openings::parse_text(DEFAULT_BOOK).unwrap_or_default(),
            weights: Arc::new(Weights::DEFAULT),
            network: None,
            rules: RuleBook::Chinese,
        }
    }
}

impl DatagenConfig {
    /// How the referee judges these games.
    fn rule_options(&self) -> RuleOptions {
        RuleOptions {
            natural_limit_plies: self.natural_limit,
            ..RuleOptions::with_book(self.rules)
        }
    }

    /// Everything that decides what game `i` is (not the number of games
    /// nor the threads), as one line: a resumed file must have been started
    /// with the same line. The book and the weights appear as fingerprints,
    /// a network by its hash (and only when there is one, so the line of a
    /// run without one is what it was before networks existed).
    /// A new setting that changes the games belongs here.
    pub fn describe(&self) -> String {
        let book = fnv1a(self.book.iter().flat_map(|l| {
            l.fen
                .bytes()
                .chain(l.moves.iter().flat_map(|m| m.bytes().chain([b' '])))
                .chain([b'\n'])
        }));
        let weights = fnv1a(
            self.weights
                .to_vec()
                .into_iter()
                .flat_map(|w| w.to_le_bytes()),
        );
        let network = match &self.network {
            Some(n) => format!(" network={:016x}", n.hash()),
            None => String::new(),
        };
        // Named only when not the default, for the same reason.
        let rules = match self.rules {
            RuleBook::Chinese => String::new(),
            book => format!(" rules={book}"),
        };
        format!(
            "datagen seed={} nodes={} hash={} random_plies={} max_plies={} natural_limit={} \
             book={}:{book:016x} weights={weights:016x}{network}{rules}",
            self.seed,
            self.nodes,
            self.hash_mb,
            self.random_plies,
            self.max_plies,
            self.natural_limit,
            self.book.len(),
        )
    }
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
    /// Why the game could not be played, when the program failed on it
    /// (a panic): it is kept as an empty game, so the stream's numbering,
    /// and with it every later game, stays what an unbroken run plays.
    pub failure: Option<String>,
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

    /// The game's outcome.
    pub fn outcome(&self) -> Outcome {
        Outcome::from_red_points(self.result).unwrap_or(Outcome::Draw)
    }

    /// The game's positions as records (none flagged last of the game:
    /// [`PositionWriter::end_game`] does that).
    pub fn packed(&self) -> Result<Vec<PackedPosition>, String> {
        let outcome = self.outcome();
        self.positions
            .iter()
            .map(|p| {
                let pos = Position::from_fen(&p.fen).map_err(|e| format!("{}: {e}", p.fen))?;
                let score = p.red_score.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
                PackedPosition::pack(&pos, score, outcome).map_err(|e| e.to_string())
            })
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
        if judge_game_end_with(&pos, &cfg.rule_options()).is_some() {
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
    searcher.set_network(cfg.network.clone());
    searcher.set_rule_book(cfg.rules);
    let rule_options = cfg.rule_options();
    let limits = Limits::nodes(cfg.nodes.max(1));
    let mut positions = Vec::new();
    let mut plies = 0;
    let red_result = loop {
        if let Some(v) = judge_game_end_with(&pos, &rule_options) {
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
        failure: None,
    }
}

/// [`play_game`], with a panic caught: see [`guarded`].
pub fn play_game_guarded(cfg: &DatagenConfig, index: usize) -> GameRecord {
    guarded(|| play_game(cfg, index))
}

/// Runs `play`, turning a panic into an empty game that says why: a bug
/// met in one game of a long run costs that game, not the hours of games
/// still to come. The panic message and its place still reach stderr
/// through the panic hook.
pub fn guarded(play: impl FnOnce() -> GameRecord) -> GameRecord {
    // Unwind safety: a game's searcher and position are its own and are
    // dropped with it; what it shares (the configuration) it only reads.
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(play)) {
        Ok(g) => g,
        Err(payload) => {
            let why = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".to_string());
            GameRecord {
                result: 0.5,
                plies: 0,
                positions: Vec::new(),
                failure: Some(why),
            }
        }
    }
}

/// Plays games `first..cfg.games` on `cfg.threads` threads and hands each
/// to `sink`, on the calling thread, in game order (a game that finishes
/// early waits for the ones before it). When `sink` fails no new game is
/// started and its error is returned once the games under way end.
pub fn run_ordered(
    cfg: &DatagenConfig,
    first: usize,
    sink: &mut dyn FnMut(usize, GameRecord) -> Result<(), String>,
) -> Result<(), String> {
    let next = AtomicUsize::new(first);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, GameRecord)>();
    let workers = cfg.threads.clamp(1, cfg.games.saturating_sub(first).max(1));
    std::thread::scope(|s| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= cfg.games || stop.load(Ordering::Relaxed) {
                    break;
                }
                if tx.send((i, play_game_guarded(cfg, i))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let mut waiting = BTreeMap::new();
        let mut want = first;
        let mut result = Ok(());
        for (i, g) in rx {
            waiting.insert(i, g);
            while let Some(g) = waiting.remove(&want) {
                if result.is_ok() {
                    result = sink(want, g);
                    if result.is_err() {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
                want += 1;
            }
        }
        result
    })
}

/// Plays all games on `cfg.threads` threads; `done` is called after each
/// game, in game order, with the number finished so far and the game.
/// The records come back in game order.
pub fn run(cfg: &DatagenConfig, done: &(dyn Fn(usize, &GameRecord) + Sync)) -> Vec<GameRecord> {
    let mut out = Vec::with_capacity(cfg.games);
    let r = run_ordered(cfg, 0, &mut |_, g| {
        out.push(g);
        done(out.len(), out.last().expect("just pushed"));
        Ok(())
    });
    debug_assert!(r.is_ok(), "the sink never fails");
    out
}

/// Where [`generate`] writes: records as games finish, in game order.
enum Sink {
    Binary(PositionWriter),
    Text(BufWriter<std::fs::File>),
}

impl Sink {
    fn write_game(&mut self, g: &GameRecord, path: &Path) -> Result<(), String> {
        match self {
            Sink::Binary(w) => {
                for p in g.packed()? {
                    w.push(p);
                }
                w.end_game()
            }
            Sink::Text(w) => {
                let mut text = String::new();
                for line in g.lines() {
                    text.push_str(&line);
                    text.push('\n');
                }
                text.push('\n');
                w.write_all(text.as_bytes())
                    .and_then(|_| w.flush())
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))
            }
        }
    }
}

/// Complete games in a text data file (one blank line after each game),
/// and the length in bytes of the text up to the last one's blank line.
pub fn text_games(text: &str) -> (usize, usize) {
    let (mut games, mut keep, mut at) = (0, 0, 0);
    for line in text.split_inclusive('\n') {
        at += line.len();
        if line.ends_with('\n') && line.trim().is_empty() {
            games += 1;
            keep = at;
        }
    }
    (games, keep)
}

/// What [`generate`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GenerateSummary {
    /// Games already in the file when resuming.
    pub resumed_games: usize,
    /// Games played by this run.
    pub games: usize,
    /// Positions written by this run.
    pub positions: usize,
    /// Results of this run's games: Red wins, draws, Black wins.
    pub wdl: [usize; 3],
    /// Games the program failed to play (kept as empty games; see
    /// [`GameRecord::failure`]).
    pub failed: usize,
}

/// Plays `cfg.games` games into `out` (binary or text), writing each game
/// as it finishes, in game order. With `resume` an existing file is
/// continued: its complete games are kept (a partial tail is cut off) and
/// play goes on from the next game, as an uninterrupted run would have
/// played it; a binary file must have been started with the same settings
/// ([`DatagenConfig::describe`], kept in its header). A missing file is
/// simply started. `progress` is called after each game with the summary
/// so far.
pub fn generate(
    cfg: &DatagenConfig,
    out: &Path,
    format: Format,
    resume: bool,
    progress: &mut dyn FnMut(&GenerateSummary),
) -> Result<GenerateSummary, String> {
    let note = cfg.describe();
    let resume = resume && out.exists();
    let (mut sink, first) = match (format, resume) {
        (Format::Binary, false) => (Sink::Binary(PositionWriter::create(out, &note)?), 0),
        (Format::Binary, true) => {
            let w = PositionWriter::resume(out)?;
            if w.note() != note {
                return Err(format!(
                    "{} was made with other settings; not resuming.\n  file: {}\n  now:  {note}",
                    out.display(),
                    w.note()
                ));
            }
            let n = w.games() as usize;
            (Sink::Binary(w), n)
        }
        (Format::Text, false) => {
            let f = std::fs::File::create(out)
                .map_err(|e| format!("cannot create {}: {e}", out.display()))?;
            (Sink::Text(BufWriter::new(f)), 0)
        }
        (Format::Text, true) => {
            let text = std::fs::read_to_string(out)
                .map_err(|e| format!("cannot read {}: {e}", out.display()))?;
            let (games, keep) = text_games(&text);
            if games == 0 && !text.trim().is_empty() {
                return Err(format!(
                    "{} has no blank line after a game (written by an older datagen?); not resuming",
                    out.display()
                ));
            }
            let f = std::fs::File::options()
                .append(true)
                .open(out)
                .map_err(|e| format!("cannot open {}: {e}", out.display()))?;
            f.set_len(keep as u64)
                .map_err(|e| format!("cannot truncate {}: {e}", out.display()))?;
            (Sink::Text(BufWriter::new(f)), games)
        }
    };
    let mut summary = GenerateSummary {
        resumed_games: first,
        ..GenerateSummary::default()
    };
    run_ordered(cfg, first, &mut |i, g| {
        sink.write_game(&g, out)?;
        summary.games += 1;
        summary.positions += g.positions.len();
        if let Some(why) = &g.failure {
            eprintln!(
                "datagen: game {i} of the seed-{} stream failed ({why}); written as an empty game",
                cfg.seed
            );
            summary.failed += 1;
        } else {
            summary.wdl[2 - g.outcome() as usize] += 1;
        }
        progress(&summary);
        Ok(())
    })?;
    Ok(summary)
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
