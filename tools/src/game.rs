//! Playing one game between two running engines, with the referee's
//! rules: checkmate and stalemate lose, repetitions are judged at the third
//! occurrence by the project's rules code (perpetual check, chase, mate
//! threat), the natural-move limit and a maximum length draw, and an
//! illegal move, a crash, silence or a fallen flag lose. Optional
//! score-based resign and draw adjudication use both engines' scores.

use crate::engine::{Engine, EngineScore, GoOutcome, SearchInfo};
use crate::openings::EpdLine;
use crate::spec::Protocol;
use crate::tc::{Clock, Limit};
use serde::Serialize;
use shuai_board::rules::{judge_game_end_with, Conduct, Reason, RuleOptions};
use shuai_board::{Color, Position};
use std::fmt;
use std::time::Duration;

/// Resign adjudication: a game is over when, for `move_count` consecutive
/// moves of each side, both engines' scores agree that one side is at
/// least `score` centipawns behind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ResignRule {
    /// Consecutive moves of each side.
    pub move_count: u32,
    /// Threshold, centipawns.
    pub score: i32,
}

/// Draw adjudication: from full move `move_number` of the game on, a game
/// is drawn when both engines' scores stay within `score` centipawns of
/// zero for `move_count` consecutive moves of each side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct DrawRule {
    /// First full move (counted from the end of the book) where it applies.
    pub move_number: u32,
    /// Consecutive moves of each side.
    pub move_count: u32,
    /// Threshold, centipawns.
    pub score: i32,
}

fn parse_kv(text: &str, keys: &[&str]) -> Result<Vec<f64>, String> {
    let mut vals = vec![None; keys.len()];
    for f in text.split([',', ' ']).filter(|f| !f.is_empty()) {
        let (k, v) = f
            .split_once('=')
            .ok_or_else(|| format!("'{f}' is not KEY=VALUE"))?;
        let i = keys
            .iter()
            .position(|x| *x == k)
            .ok_or_else(|| format!("unknown field '{k}' (expected {})", keys.join(", ")))?;
        vals[i] = Some(
            v.parse::<f64>()
                .map_err(|_| format!("{k}: '{v}' is not a number"))?,
        );
    }
    keys.iter()
        .zip(vals)
        .map(|(k, v)| v.ok_or_else(|| format!("missing field '{k}'")))
        .collect()
}

impl ResignRule {
    /// Parses `movecount=N,score=CP`.
    pub fn parse(text: &str) -> Result<ResignRule, String> {
        let v = parse_kv(text, &["movecount", "score"]).map_err(|e| format!("--resign: {e}"))?;
        Ok(ResignRule {
            move_count: v[0].max(1.0) as u32,
            score: v[1] as i32,
        })
    }
}

impl DrawRule {
    /// Parses `movenumber=M,movecount=N,score=CP`.
    pub fn parse(text: &str) -> Result<DrawRule, String> {
        let v = parse_kv(text, &["movenumber", "movecount", "score"])
            .map_err(|e| format!("--draw: {e}"))?;
        Ok(DrawRule {
            move_number: v[0].max(0.0) as u32,
            move_count: v[1].max(1.0) as u32,
            score: v[2] as i32,
        })
    }
}

/// Everything about how games are played and judged.
#[derive(Clone, Debug)]
pub struct GameConfig {
    /// Time control or fixed limit per move.
    pub limit: Limit,
    /// Per colour (Red, Black): a fixed limit that replaces `limit` for
    /// that side in this game (an engine given `depth=` or `nodes=`).
    pub own_limits: [Option<Limit>; 2],
    /// Grace margin over the clock (or the fixed move time), ms.
    pub margin_ms: u64,
    /// Longest wait for a move when there is no clock (depth, nodes), ms.
    pub timeout_ms: u64,
    /// Wait for `bestmove` after `stop` before the engine is killed, ms.
    pub stop_grace_ms: u64,
    /// Rule settings (natural limit, repetition count, insufficient
    /// material draws).
    pub rules: RuleOptions,
    /// Maximum plies after the book; 0 for no limit.
    pub max_plies: u32,
    /// Score-based resign adjudication.
    pub resign: Option<ResignRule>,
    /// Score-based draw adjudication.
    pub draw: Option<DrawRule>,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    /// The side to move was checkmated.
    Checkmate,
    /// The side to move had no legal move (a loss in Xiangqi).
    Stalemate,
    /// Perpetual check against allowed moves: the checker lost.
    PerpetualCheck,
    /// Perpetual chase against allowed moves: the chaser lost.
    PerpetualChase,
    /// Perpetual mate threat against allowed moves.
    PerpetualMateThreat,
    /// Attacks on every move (check, mate threat, chase mixed).
    MixedAttacks,
    /// Both sides checked perpetually: draw.
    MutualPerpetualCheck,
    /// Both sides made forbidden moves: draw.
    MutualForbidden,
    /// Repetition of allowed moves: draw.
    Repetition,
    /// The natural-move limit: draw.
    NaturalLimit,
    /// Neither side can cross the river: draw (when enabled).
    InsufficientMaterial,
    /// The maximum game length: draw.
    MaxLength,
    /// Score-based resign adjudication.
    ResignAdjudication,
    /// Score-based draw adjudication.
    DrawAdjudication,
    /// An engine resigned (or answered without a move while it had one).
    Resign,
    /// An engine exceeded its time (its move came late).
    TimeForfeit,
    /// An engine played an illegal (or unreadable) move.
    IllegalMove,
    /// An engine's process ended or could not be (re)started.
    Crash,
    /// An engine did not answer even after `stop`; it was killed.
    NoAnswer,
}

impl Termination {
    /// The snake_case name used in JSON and summaries.
    pub fn name(self) -> &'static str {
        use Termination::*;
        match self {
            Checkmate => "checkmate",
            Stalemate => "stalemate",
            PerpetualCheck => "perpetual_check",
            PerpetualChase => "perpetual_chase",
            PerpetualMateThreat => "perpetual_mate_threat",
            MixedAttacks => "mixed_attacks",
            MutualPerpetualCheck => "mutual_perpetual_check",
            MutualForbidden => "mutual_forbidden",
            Repetition => "repetition",
            NaturalLimit => "natural_limit",
            InsufficientMaterial => "insufficient_material",
            MaxLength => "max_length",
            ResignAdjudication => "resign_adjudication",
            DrawAdjudication => "draw_adjudication",
            Resign => "resign",
            TimeForfeit => "time_forfeit",
            IllegalMove => "illegal_move",
            Crash => "crash",
            NoAnswer => "no_answer",
        }
    }

    /// The termination for a rules verdict.
    pub fn from_reason(r: Reason) -> Termination {
        use Termination::*;
        match r {
            Reason::Checkmate => Checkmate,
            Reason::Stalemate => Stalemate,
            Reason::PerpetualCheck { .. } => PerpetualCheck,
            Reason::MutualPerpetualCheck => MutualPerpetualCheck,
            Reason::ForbiddenRepetition { conduct, .. } => match conduct {
                Conduct::PerpetualCheck => PerpetualCheck,
                Conduct::PerpetualMateThreat => PerpetualMateThreat,
                Conduct::PerpetualChase { .. } | Conduct::PerpetualChaseOfSeveral { .. } => {
                    PerpetualChase
                }
                Conduct::MixedAttacks | Conduct::Allowed => MixedAttacks,
            },
            Reason::MutualForbidden => MutualForbidden,
            Reason::AllowedRepetition => Repetition,
            Reason::NaturalMoveLimit => NaturalLimit,
            Reason::InsufficientMaterial => InsufficientMaterial,
        }
    }

    /// Whether an engine failed (the runner restarts dead engines).
    pub fn is_failure(self) -> bool {
        matches!(
            self,
            Termination::TimeForfeit
                | Termination::IllegalMove
                | Termination::Crash
                | Termination::NoAnswer
        )
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The result of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Outcome {
    /// Red won.
    #[serde(rename = "1-0")]
    RedWins,
    /// Black won.
    #[serde(rename = "0-1")]
    BlackWins,
    /// Draw.
    #[serde(rename = "1/2-1/2")]
    Draw,
}

impl Outcome {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn pgn(self) -> &'static str {
        match self {
            Outcome::RedWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }

    /// Reads a PGN result (`1-0`, `0-1`, `1/2-1/2`); `None` for `*` and
    /// anything else.
    pub fn parse(text: &str) -> Option<Outcome> {
        match text.trim() {
            "1-0" => Some(Outcome::RedWins),
            "0-1" => Some(Outcome::BlackWins),
            "1/2-1/2" => Some(Outcome::Draw),
            _ => None,
        }
    }

    /// The side that won.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::RedWins => Some(Color::Red),
            Outcome::BlackWins => Some(Color::Black),
            Outcome::Draw => None,
        }
    }

    fn win_for(c: Color) -> Outcome {
        match c {
            Color::Red => Outcome::RedWins,
            Color::Black => Outcome::BlackWins,
        }
    }
}

/// One move of a game with what the engine said about it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayedMove {
    /// ICCS, ranks 0–9.
    pub iccs: String,
    /// Chinese notation (炮二平五).
    pub chinese: String,
    /// Score from the mover's point of view, centipawns (mates ±100000−n).
    pub score: Option<i32>,
    /// Score as PGN comment text (`+0.35`, `+M5`).
    #[serde(skip)]
    pub score_text: Option<String>,
    /// Depth of the last completed iteration.
    pub depth: Option<u32>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Time used, ms (as measured by the runner).
    pub time_ms: u64,
}

/// Search totals of one engine over a game (or a match).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SearchTotals {
    /// Moves played.
    pub moves: u64,
    /// Sum of reported depths.
    pub depth_sum: u64,
    /// Moves that reported a depth.
    pub depth_moves: u64,
    /// Nodes reported.
    pub nodes: u64,
    /// Time of the moves that reported nodes, ms.
    pub node_time_ms: u64,
    /// All time used, ms.
    pub time_ms: u64,
}

impl SearchTotals {
    /// Adds another total.
    pub fn add(&mut self, o: &SearchTotals) {
        self.moves += o.moves;
        self.depth_sum += o.depth_sum;
        self.depth_moves += o.depth_moves;
        self.nodes += o.nodes;
        self.node_time_ms += o.node_time_ms;
        self.time_ms += o.time_ms;
    }

    /// Average depth per move.
    pub fn avg_depth(&self) -> f64 {
        if self.depth_moves == 0 {
            0.0
        } else {
            self.depth_sum as f64 / self.depth_moves as f64
        }
    }

    /// Nodes per second over the moves that reported nodes.
    pub fn nps(&self) -> f64 {
        if self.node_time_ms == 0 {
            0.0
        } else {
            self.nodes as f64 * 1000.0 / self.node_time_ms as f64
        }
    }
}

/// A game to play.
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// Game number in the match, from 0.
    pub index: usize,
    /// Index of the opening in the (shuffled) book.
    pub opening_index: usize,
    /// The opening.
    pub opening: EpdLine,
    /// Whether the first engine plays Red.
    pub first_is_red: bool,
}

/// A finished game.
#[derive(Clone, Debug, Serialize)]
pub struct GameRecord {
    /// Game number in the match, from 0.
    pub index: usize,
    /// Pair number (the two games of one opening).
    pub pair: usize,
    /// Name of the Red engine.
    pub red: String,
    /// Name of the Black engine.
    pub black: String,
    /// Whether the first engine played Red.
    pub first_is_red: bool,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: Outcome,
    /// How it ended.
    pub termination: Termination,
    /// In plain words.
    pub reason: String,
    /// The opening's FEN (the game starts here; `moves` begin with the
    /// book moves).
    pub fen: String,
    /// Number of book moves at the start of `moves`.
    pub book_plies: usize,
    /// All moves in ICCS (ranks 0–9), book moves first.
    pub moves: Vec<String>,
    /// The engines' moves with their scores, depths and times.
    pub played: Vec<PlayedMove>,
    /// The FEN of the final position.
    pub final_fen: String,
    /// Search totals of Red and Black.
    #[serde(skip)]
    pub totals: [SearchTotals; 2],
    /// Whether the Red or Black engine must be restarted.
    #[serde(skip)]
    pub needs_restart: [bool; 2],
}

pub(crate) fn side_name(c: Color) -> &'static str {
    match c {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}

pub(crate) fn go_command(
    proto: Protocol,
    limit: &Limit,
    clocks: &[Clock; 2],
    stm: Color,
) -> String {
    match *limit {
        Limit::Clock { inc_ms, .. } => {
            let (red, black) = (&clocks[0], &clocks[1]);
            let (me, opp) = (&clocks[stm.index()], &clocks[(!stm).index()]);
            let mtg = me.moves_to_go(limit);
            match proto {
                Protocol::Ucci => {
                    let mut s = format!("go time {}", me.remaining_ms);
                    match mtg {
                        Some(m) => s.push_str(&format!(" movestogo {m}")),
                        None => s.push_str(&format!(" increment {inc_ms}")),
                    }
                    s.push_str(&format!(" opptime {}", opp.remaining_ms));
                    match opp.moves_to_go(limit) {
                        Some(m) => s.push_str(&format!(" oppmovestogo {m}")),
                        None => s.push_str(&format!(" oppincrement {inc_ms}")),
                    }
                    s
                }
                _ => {
                    let mut s = format!(
                        "go wtime {} btime {} winc {inc_ms} binc {inc_ms}",
                        red.remaining_ms, black.remaining_ms
                    );
                    if let Some(m) = mtg {
                        s.push_str(&format!(" movestogo {m}"));
                    }
                    s
                }
            }
        }
        Limit::MoveTime(ms) => match proto {
            Protocol::Ucci => format!("go time {ms} movestogo 1"),
            _ => format!("go movetime {ms}"),
        },
        Limit::Nodes(n) => format!("go nodes {n}"),
        Limit::Depth(d) => format!("go depth {d}"),
    }
}

/// How a game ended: the result, its kind, and the reason in plain words.
pub(crate) type Ending = (Outcome, Termination, String);

/// A game in progress: the position, what was played, the clocks and what
/// the runner must remember of each engine.
pub(crate) struct Game<'a> {
    opening: &'a EpdLine,
    pub(crate) pos: Position,
    /// All moves in ICCS, book moves first.
    moves: Vec<String>,
    pub(crate) played: Vec<PlayedMove>,
    pub(crate) clocks: [Clock; 2],
    totals: [SearchTotals; 2],
    needs_restart: [bool; 2],
    /// For UCCI: the FEN after the last capture, and where in `moves` the
    /// moves since begin.
    irrev_fen: String,
    irrev_from: usize,
    /// Red-view scores of each engine move, for adjudication.
    red_scores: Vec<Option<i32>>,
}

impl<'a> Game<'a> {
    /// The game at the end of `opening`'s book moves.
    pub(crate) fn new(opening: &'a EpdLine, limits: &[Limit; 2]) -> Game<'a> {
        let mut game = Game {
            opening,
            pos: opening.position(),
            moves: opening.moves.clone(),
            played: Vec::new(),
            clocks: [Clock::new(&limits[0]), Clock::new(&limits[1])],
            totals: [SearchTotals::default(); 2],
            needs_restart: [false; 2],
            irrev_fen: opening.fen.clone(),
            irrev_from: 0,
            red_scores: Vec::new(),
        };
        let mut p = Position::from_fen(&opening.fen).expect("valid opening");
        for (i, m) in opening.moves.iter().enumerate() {
            p.make_move(p.parse_move(m).expect("legal book move"));
            if p.last_captured().is_some() {
                game.irrev_fen = p.to_fen();
                game.irrev_from = i + 1;
            }
        }
        game
    }

    /// Starts a new game in both engines: the first one that is dead or
    /// fails loses by crash.
    fn start_engines(
        &mut self,
        engines: &mut [Option<&mut Engine>; 2],
        names: [&str; 2],
    ) -> Option<Ending> {
        let mut early = None;
        for c in [Color::Red, Color::Black] {
            let why = match engines[c.index()].as_deref_mut() {
                Some(e) if !e.is_dead() => match e.new_game() {
                    Ok(()) => continue,
                    Err(msg) => format!("failed at the start of the game: {msg}."),
                },
                _ => "could not be started.".to_string(),
            };
            self.needs_restart[c.index()] = true;
            early.get_or_insert_with(|| {
                let who = format!("{} ({})", side_name(c), names[c.index()]);
                (
                    Outcome::win_for(!c),
                    Termination::Crash,
                    format!("{who} {why}"),
                )
            });
        }
        early
    }

    /// The referee's word before the side to move searches: the rules'
    /// verdict, the maximum length, or score adjudication.
    pub(crate) fn referee(&self, cfg: &GameConfig) -> Option<Ending> {
        if let Some(v) = judge_game_end_with(&self.pos, &cfg.rules) {
            let result = match v.winner(self.pos.side_to_move()) {
                Some(c) => Outcome::win_for(c),
                None => Outcome::Draw,
            };
            return Some((result, Termination::from_reason(v.reason), v.explanation));
        }
        if cfg.max_plies > 0 && self.played.len() as u32 >= cfg.max_plies {
            return Some((
                Outcome::Draw,
                Termination::MaxLength,
                format!(
                    "The game reached the maximum length of {} plies; draw.",
                    cfg.max_plies
                ),
            ));
        }
        adjudicate_scores(&self.red_scores, cfg)
    }

    /// The `position` command for an engine speaking `proto`: UCCI gets the
    /// position after the last capture and the moves since, the others the
    /// opening and every move.
    pub(crate) fn position_command(&self, proto: Protocol) -> String {
        let (fen, from) = match proto {
            Protocol::Ucci => (self.irrev_fen.as_str(), self.irrev_from),
            _ => (self.opening.fen.as_str(), 0),
        };
        let mut s = format!("position fen {fen}");
        if self.moves.len() > from {
            s.push_str(" moves");
            for m in &self.moves[from..] {
                s.push(' ');
                s.push_str(&proto.move_to_engine(m));
            }
        }
        s
    }

    /// Plays `mv`, searched by the side to move in `elapsed_ms` with what
    /// it reported in `info`, into the record, the totals and the position.
    fn record_move(&mut self, mv: shuai_board::Move, info: &SearchInfo, elapsed_ms: u64) {
        let stm = self.pos.side_to_move();
        self.totals[stm.index()].record(info, elapsed_ms);
        let score = info.score.map(EngineScore::as_cp);
        self.red_scores
            .push(score.map(|s| if stm == Color::Red { s } else { -s }));
        self.played.push(PlayedMove {
            iccs: mv.to_string(),
            chinese: self.pos.to_chinese(mv),
            score,
            score_text: info.score.map(EngineScore::pgn_text),
            depth: info.depth,
            nodes: info.nodes,
            time_ms: elapsed_ms,
        });
        self.moves.push(mv.to_string());
        self.pos.make_move(mv);
        if self.pos.last_captured().is_some() {
            self.irrev_fen = self.pos.to_fen();
            self.irrev_from = self.moves.len();
        }
    }
}

impl SearchTotals {
    /// Counts one move searched in `elapsed_ms` with what it reported.
    fn record(&mut self, info: &SearchInfo, elapsed_ms: u64) {
        self.moves += 1;
        self.time_ms += elapsed_ms;
        if let Some(d) = info.depth {
            self.depth_sum += d as u64;
            self.depth_moves += 1;
        }
        if let Some(n) = info.nodes {
            self.nodes += n;
            self.node_time_ms += elapsed_ms.max(1);
        }
    }
}

/// How long the runner waits for a move under `limit` with `clock`.
pub(crate) fn deadline_ms(limit: &Limit, clock: &Clock, cfg: &GameConfig) -> u64 {
    match *limit {
        Limit::Clock { .. } => clock.remaining_ms + cfg.margin_ms,
        Limit::MoveTime(ms) => ms + cfg.margin_ms,
        Limit::Nodes(_) | Limit::Depth(_) => cfg.timeout_ms,
    }
}

/// A move the engine answered with: its text as sent, in ICCS if it reads
/// as a move, the time it took and whether it resigned with it.
struct Answer {
    raw: String,
    iccs: Option<String>,
    elapsed_ms: u64,
    resign: bool,
}

/// The engine's answer to `go`, or how the mover (`who`) lost by not
/// giving one; sets `needs_restart` when the engine must be restarted.
fn answer(
    outcome: GoOutcome,
    engine: &Engine,
    who: &str,
    deadline_ms: u64,
    needs_restart: &mut bool,
) -> Result<Answer, (Termination, String)> {
    match outcome {
        GoOutcome::Move {
            raw,
            iccs,
            elapsed_ms,
            resign,
        } => Ok(Answer {
            raw,
            iccs,
            elapsed_ms,
            resign,
        }),
        GoOutcome::NoMove { .. } => Err((
            Termination::Resign,
            format!("{who} answered without a move although it had legal moves; it loses."),
        )),
        GoOutcome::Late { elapsed_ms } => {
            *needs_restart = engine.is_dead();
            Err((
                Termination::TimeForfeit,
                format!(
                    "{who} did not move within {deadline_ms} ms (answered after {elapsed_ms} ms, \
                     when told to stop); it loses on time."
                ),
            ))
        }
        GoOutcome::NoAnswer => {
            *needs_restart = true;
            Err((
                Termination::NoAnswer,
                format!("{who} gave no move within {deadline_ms} ms nor after stop; it loses."),
            ))
        }
        GoOutcome::Crash => {
            *needs_restart = true;
            Err((
                Termination::Crash,
                format!("{who}'s process ended during the game; it loses."),
            ))
        }
    }
}

/// Plays one game. `engines[0]` plays Red and `engines[1]` Black; `names`
/// likewise. Engines that are dead at the start lose at once by crash.
pub fn play_game(
    engines: [Option<&mut Engine>; 2],
    names: [&str; 2],
    setup: &GameSetup,
    cfg: &GameConfig,
) -> GameRecord {
    let mut engines = engines;
    let limits = [0, 1].map(|c| cfg.own_limits[c].unwrap_or(cfg.limit));
    let mut game = Game::new(&setup.opening, &limits);
    let early = game.start_engines(&mut engines, names);
    let (result, termination, reason) = match early {
        Some(ending) => ending,
        None => play_moves(&mut game, &mut engines, names, &limits, cfg),
    };
    for c in [Color::Red, Color::Black] {
        if let Some(e) = engines[c.index()].as_deref() {
            if e.is_dead() {
                game.needs_restart[c.index()] = true;
            }
        }
    }
    GameRecord {
        index: setup.index,
        pair: setup.index / 2,
        red: names[0].to_string(),
        black: names[1].to_string(),
        first_is_red: setup.first_is_red,
        result,
        termination,
        reason,
        fen: setup.opening.fen.clone(),
        book_plies: setup.opening.moves.len(),
        final_fen: game.pos.to_fen(),
        moves: game.moves,
        played: game.played,
        totals: game.totals,
        needs_restart: game.needs_restart,
    }
}

/// The engines' moves, one search at a time, until the game ends.
fn play_moves(
    game: &mut Game<'_>,
    engines: &mut [Option<&mut Engine>; 2],
    names: [&str; 2],
    limits: &[Limit; 2],
    cfg: &GameConfig,
) -> Ending {
    loop {
        if let Some(ending) = game.referee(cfg) {
            return ending;
        }
        let me = game.pos.side_to_move().index();
        let engine = engines[me].as_deref_mut().expect("checked at the start");
        if let Err(ending) = engine_move(game, engine, names[me], &limits[me], cfg) {
            return ending;
        }
    }
}

/// The side to move's engine searches under `limit` and its move is
/// judged and played; `Err` is how the game ended instead.
pub(crate) fn engine_move(
    game: &mut Game<'_>,
    engine: &mut Engine,
    name: &str,
    limit: &Limit,
    cfg: &GameConfig,
) -> Result<(), Ending> {
    let stm = game.pos.side_to_move();
    let proto = engine.spec.proto;
    let deadline_ms = deadline_ms(limit, &game.clocks[stm.index()], cfg);
    let mut info = SearchInfo::default();
    let outcome = engine.go(
        &game.position_command(proto),
        &go_command(proto, limit, &game.clocks, stm),
        Duration::from_millis(deadline_ms),
        Duration::from_millis(cfg.stop_grace_ms),
        &mut info,
        &mut |_, _| {},
    );
    conclude_move(game, engine, name, limit, cfg, outcome, &info, deadline_ms)
}

/// Judges how the side to move's search ended (`outcome`, with what it
/// reported in `info`, waited for up to `deadline_ms`): a legal move in
/// time is charged to the clock and played; anything else ends the game.
#[allow(clippy::too_many_arguments)] // one call's worth of game state
pub(crate) fn conclude_move(
    game: &mut Game<'_>,
    engine: &Engine,
    name: &str,
    limit: &Limit,
    cfg: &GameConfig,
    outcome: GoOutcome,
    info: &SearchInfo,
    deadline_ms: u64,
) -> Result<(), Ending> {
    let stm = game.pos.side_to_move();
    let me = stm.index();
    let who = format!("{} ({name})", side_name(stm));
    let lose = |(t, why): (Termination, String)| (Outcome::win_for(!stm), t, why);
    let a = answer(
        outcome,
        engine,
        &who,
        deadline_ms,
        &mut game.needs_restart[me],
    )
    .map_err(lose)?;
    let Some(Ok(mv)) = a.iccs.as_deref().map(|m| game.pos.parse_move(m)) else {
        return Err(lose((
            Termination::IllegalMove,
            format!(
                "{who} played '{}', which is not a legal move in {}; it loses.",
                a.raw,
                game.pos.to_fen()
            ),
        )));
    };
    if !game.clocks[me].charge(limit, a.elapsed_ms, cfg.margin_ms) {
        return Err(lose((
            Termination::TimeForfeit,
            format!(
                "{who} used {} ms with less time left; it loses on time.",
                a.elapsed_ms
            ),
        )));
    }
    game.record_move(mv, info, a.elapsed_ms);
    if a.resign {
        return Err(lose((
            Termination::Resign,
            format!("{who} resigned with its move."),
        )));
    }
    Ok(())
}

/// Score-based adjudication over the Red-view scores of the engine moves.
fn adjudicate_scores(red_scores: &[Option<i32>], cfg: &GameConfig) -> Option<Ending> {
    let window = |n: u32| -> Option<Vec<i32>> {
        let n = 2 * n as usize;
        if red_scores.len() < n {
            return None;
        }
        red_scores[red_scores.len() - n..].iter().copied().collect()
    };
    if let Some(r) = cfg.resign {
        if let Some(w) = window(r.move_count) {
            for (side, sign) in [(Color::Red, 1), (Color::Black, -1)] {
                // `side` is losing when its own view of every score is
                // at most -threshold.
                if w.iter().all(|s| sign * s <= -r.score) {
                    return Some((
                        Outcome::win_for(!side),
                        Termination::ResignAdjudication,
                        format!(
                            "Both engines scored {} at least {} cp behind for {} moves each; \
                             {} loses by adjudication.",
                            side_name(side),
                            r.score,
                            r.move_count,
                            side_name(side)
                        ),
                    ));
                }
            }
        }
    }
    if let Some(d) = cfg.draw {
        if red_scores.len() >= 2 * d.move_number as usize {
            if let Some(w) = window(d.move_count) {
                if w.iter().all(|s| s.abs() <= d.score) {
                    return Some((
                        Outcome::Draw,
                        Termination::DrawAdjudication,
                        format!(
                            "Both engines scored the game within {} cp of equal for {} moves \
                             each; draw by adjudication.",
                            d.score, d.move_count
                        ),
                    ));
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(resign: Option<ResignRule>, draw: Option<DrawRule>) -> GameConfig {
        GameConfig {
            limit: Limit::Depth(1),
            own_limits: [None, None],
            margin_ms: 0,
            timeout_ms: 1000,
            stop_grace_ms: 100,
            rules: RuleOptions::default(),
            max_plies: 0,
            resign,
            draw,
        }
    }

    #[test]
    fn parses_rules() {
        assert_eq!(
            ResignRule::parse("movecount=3,score=600"),
            Ok(ResignRule {
                move_count: 3,
                score: 600
            })
        );
        assert!(ResignRule::parse("movecount=3").is_err());
        assert_eq!(
            DrawRule::parse("movenumber=40 movecount=8 score=10").unwrap(),
            DrawRule {
                move_number: 40,
                move_count: 8,
                score: 10
            }
        );
    }

    #[test]
    fn score_adjudication() {
        let c = cfg(
            Some(ResignRule {
                move_count: 2,
                score: 500,
            }),
            Some(DrawRule {
                move_number: 2,
                move_count: 2,
                score: 10,
            }),
        );
        // Red-view scores: both engines think Black is lost.
        let s = [Some(0), Some(600), Some(700), Some(800), Some(900)];
        assert!(adjudicate_scores(&s[..4], &c).is_none());
        let r = adjudicate_scores(&s[..], &c).unwrap();
        assert_eq!(
            (r.0, r.1),
            (Outcome::RedWins, Termination::ResignAdjudication)
        );
        // One engine disagrees: no adjudication.
        let s = [Some(600), Some(-100), Some(700), Some(800)];
        assert!(adjudicate_scores(&s, &c).is_none());
        // Missing score: no adjudication.
        let s = [Some(600), None, Some(700), Some(800)];
        assert!(adjudicate_scores(&s, &c).is_none());
        let s = [Some(-600), Some(-601), Some(-700), Some(-800)];
        assert_eq!(adjudicate_scores(&s, &c).unwrap().0, Outcome::BlackWins);
        let s = [Some(5), Some(-5), Some(0), Some(10)];
        assert_eq!(
            adjudicate_scores(&s, &c).unwrap().1,
            Termination::DrawAdjudication
        );
        assert!(adjudicate_scores(&s[..3], &c).is_none());
    }

    #[test]
    fn go_commands() {
        let tc = Limit::parse_tc("10+0.1").unwrap();
        let clocks = [Clock::new(&tc), Clock::new(&tc)];
        assert_eq!(
            go_command(Protocol::Uci, &tc, &clocks, Color::Black),
            "go wtime 10000 btime 10000 winc 100 binc 100"
        );
        assert_eq!(
            go_command(Protocol::Ucci, &tc, &clocks, Color::Red),
            "go time 10000 increment 100 opptime 10000 oppincrement 100"
        );
        let tc = Limit::parse_tc("40/60").unwrap();
        let clocks = [Clock::new(&tc), Clock::new(&tc)];
        assert_eq!(
            go_command(Protocol::Uci1, &tc, &clocks, Color::Red),
            "go wtime 60000 btime 60000 winc 0 binc 0 movestogo 40"
        );
        assert_eq!(
            go_command(Protocol::Ucci, &Limit::MoveTime(500), &clocks, Color::Red),
            "go time 500 movestogo 1"
        );
        assert_eq!(
            go_command(Protocol::Uci, &Limit::Nodes(1000), &clocks, Color::Red),
            "go nodes 1000"
        );
    }
}
