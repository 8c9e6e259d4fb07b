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

fn side_name(c: Color) -> &'static str {
    match c {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}

fn go_command(proto: Protocol, limit: &Limit, clocks: &[Clock; 2], stm: Color) -> String {
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

/// Plays one game. `engines[0]` plays Red and `engines[1]` Black; `names`
/// likewise. Engines that are dead at the start lose at once by crash.
pub fn play_game(
    engines: [Option<&mut Engine>; 2],
    names: [&str; 2],
    setup: &GameSetup,
    cfg: &GameConfig,
) -> GameRecord {
    let mut engines = engines;
    let opening = &setup.opening;
    let mut pos = opening.position();
    let mut moves: Vec<String> = opening.moves.clone();
    let mut played: Vec<PlayedMove> = Vec::new();
    let limits = [0, 1].map(|c| cfg.own_limits[c].unwrap_or(cfg.limit));
    let mut clocks = [Clock::new(&limits[0]), Clock::new(&limits[1])];
    let mut totals = [SearchTotals::default(); 2];
    let mut needs_restart = [false; 2];
    // For UCCI: the FEN after the last capture and the moves since.
    let (mut irrev_fen, mut irrev_from) = (opening.fen.clone(), 0usize);
    {
        let mut p = Position::from_fen(&opening.fen).expect("valid opening");
        for (i, m) in opening.moves.iter().enumerate() {
            p.make_move(p.parse_move(m).expect("legal book move"));
            if p.last_captured().is_some() {
                irrev_fen = p.to_fen();
                irrev_from = i + 1;
            }
        }
    }
    // Red-view scores of each engine move, for adjudication.
    let mut red_scores: Vec<Option<i32>> = Vec::new();

    let finish =
        |result: Outcome, termination: Termination, reason: String| (result, termination, reason);

    // New game for both engines.
    let mut early: Option<(Outcome, Termination, String)> = None;
    for c in [Color::Red, Color::Black] {
        match engines[c.index()].as_deref_mut() {
            Some(e) if !e.is_dead() => {
                if let Err(msg) = e.new_game() {
                    needs_restart[c.index()] = true;
                    early.get_or_insert_with(|| {
                        finish(
                            Outcome::win_for(!c),
                            Termination::Crash,
                            format!(
                                "{} ({}) failed at the start of the game: {msg}.",
                                side_name(c),
                                names[c.index()]
                            ),
                        )
                    });
                }
            }
            _ => {
                needs_restart[c.index()] = true;
                early.get_or_insert_with(|| {
                    finish(
                        Outcome::win_for(!c),
                        Termination::Crash,
                        format!(
                            "{} ({}) could not be started.",
                            side_name(c),
                            names[c.index()]
                        ),
                    )
                });
            }
        }
    }

    let (result, termination, reason) = loop {
        if let Some(e) = early.take() {
            break e;
        }
        let stm = pos.side_to_move();
        if let Some(v) = judge_game_end_with(&pos, &cfg.rules) {
            let result = match v.winner(stm) {
                Some(c) => Outcome::win_for(c),
                None => Outcome::Draw,
            };
            break finish(result, Termination::from_reason(v.reason), v.explanation);
        }
        let game_plies = played.len();
        if cfg.max_plies > 0 && game_plies as u32 >= cfg.max_plies {
            break finish(
                Outcome::Draw,
                Termination::MaxLength,
                format!(
                    "The game reached the maximum length of {} plies; draw.",
                    cfg.max_plies
                ),
            );
        }
        if let Some(r) = adjudicate_scores(&red_scores, cfg) {
            break r;
        }

        let me = stm.index();
        let name = names[me];
        let engine = engines[me].as_deref_mut().expect("checked at the start");
        let proto = engine.spec.proto;
        let position_cmd = {
            let (fen, from) = match proto {
                Protocol::Ucci => (irrev_fen.as_str(), irrev_from),
                _ => (opening.fen.as_str(), 0),
            };
            let mut s = format!("position fen {fen}");
            if moves.len() > from {
                s.push_str(" moves");
                for m in &moves[from..] {
                    s.push(' ');
                    s.push_str(&proto.move_to_engine(m));
                }
            }
            s
        };
        let limit = limits[me];
        let go_cmd = go_command(proto, &limit, &clocks, stm);
        let deadline_ms = match limit {
            Limit::Clock { .. } => clocks[me].remaining_ms + cfg.margin_ms,
            Limit::MoveTime(ms) => ms + cfg.margin_ms,
            Limit::Nodes(_) | Limit::Depth(_) => cfg.timeout_ms,
        };
        let mut info = SearchInfo::default();
        let outcome = engine.go(
            &position_cmd,
            &go_cmd,
            Duration::from_millis(deadline_ms),
            Duration::from_millis(cfg.stop_grace_ms),
            &mut info,
            &mut |_, _| {},
        );
        let who = format!("{} ({name})", side_name(stm));
        let lose = |t: Termination, why: String| finish(Outcome::win_for(!stm), t, why);
        let (raw, iccs, elapsed_ms, resign) = match outcome {
            GoOutcome::Move {
                raw,
                iccs,
                elapsed_ms,
                resign,
            } => (raw, iccs, elapsed_ms, resign),
            GoOutcome::NoMove { .. } => {
                break lose(
                    Termination::Resign,
                    format!("{who} answered without a move although it had legal moves; it loses."),
                );
            }
            GoOutcome::Late { elapsed_ms } => {
                needs_restart[me] = engine.is_dead();
                break lose(
                    Termination::TimeForfeit,
                    format!(
                        "{who} did not move within {deadline_ms} ms (answered after {elapsed_ms} ms, \
                         when told to stop); it loses on time."
                    ),
                );
            }
            GoOutcome::NoAnswer => {
                needs_restart[me] = true;
                break lose(
                    Termination::NoAnswer,
                    format!("{who} gave no move within {deadline_ms} ms nor after stop; it loses."),
                );
            }
            GoOutcome::Crash => {
                needs_restart[me] = true;
                break lose(
                    Termination::Crash,
                    format!("{who}'s process ended during the game; it loses."),
                );
            }
        };
        let mv = match iccs.as_deref().map(|m| pos.parse_move(m)) {
            Some(Ok(mv)) => mv,
            _ => {
                break lose(
                    Termination::IllegalMove,
                    format!(
                        "{who} played '{raw}', which is not a legal move in {}; it loses.",
                        pos.to_fen()
                    ),
                );
            }
        };
        if !clocks[me].charge(&limit, elapsed_ms, cfg.margin_ms) {
            break lose(
                Termination::TimeForfeit,
                format!("{who} used {elapsed_ms} ms with less time left; it loses on time."),
            );
        }
        let t = &mut totals[me];
        t.moves += 1;
        t.time_ms += elapsed_ms;
        if let Some(d) = info.depth {
            t.depth_sum += d as u64;
            t.depth_moves += 1;
        }
        if let Some(n) = info.nodes {
            t.nodes += n;
            t.node_time_ms += elapsed_ms.max(1);
        }
        let score = info.score.map(EngineScore::as_cp);
        red_scores.push(score.map(|s| if stm == Color::Red { s } else { -s }));
        played.push(PlayedMove {
            iccs: mv.to_string(),
            chinese: pos.to_chinese(mv),
            score,
            score_text: info.score.map(EngineScore::pgn_text),
            depth: info.depth,
            nodes: info.nodes,
            time_ms: elapsed_ms,
        });
        moves.push(mv.to_string());
        pos.make_move(mv);
        if pos.last_captured().is_some() {
            irrev_fen = pos.to_fen();
            irrev_from = moves.len();
        }
        if resign {
            break finish(
                Outcome::win_for(!stm),
                Termination::Resign,
                format!("{who} resigned with its move."),
            );
        }
    };
    for c in [Color::Red, Color::Black] {
        if let Some(e) = engines[c.index()].as_deref() {
            if e.is_dead() {
                needs_restart[c.index()] = true;
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
        fen: opening.fen.clone(),
        book_plies: opening.moves.len(),
        moves,
        played,
        final_fen: pos.to_fen(),
        totals,
        needs_restart,
    }
}

/// Score-based adjudication over the Red-view scores of the engine moves.
fn adjudicate_scores(
    red_scores: &[Option<i32>],
    cfg: &GameConfig,
) -> Option<(Outcome, Termination, String)> {
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
