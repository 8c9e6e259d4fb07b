//! Verdicts: the result for the side to move, the rule that decided it and
//! a plain-words explanation; the repetition verdict table and the
//! judging functions that apply it to the cycle module's classification
//! (this module uses `cycle`, never the other way round).

use super::classify::{kind_name, MoveClass};
use super::cycle::{classify_cycle, cycle_span, Conduct, CycleReport};
use super::{RuleBook, RuleOptions};
use crate::{Bitboard, Color, Position};
use std::fmt;

/// A game result from the point of view of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// The side to move wins.
    Win,
    /// The side to move loses.
    Loss,
    /// Draw.
    Draw,
}

impl GameResult {
    /// The same result seen by the other side.
    pub fn flip(self) -> GameResult {
        match self {
            GameResult::Win => GameResult::Loss,
            GameResult::Loss => GameResult::Win,
            GameResult::Draw => GameResult::Draw,
        }
    }
}

impl fmt::Display for GameResult {
    /// `win`, `loss` or `draw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameResult::Win => "win",
            GameResult::Loss => "loss",
            GameResult::Draw => "draw",
        })
    }
}

/// The rule that ended the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The side to move is checkmated (and loses).
    Checkmate,
    /// The side to move has no legal move while not in check (困毙); it
    /// loses, there is no stalemate draw in Xiangqi.
    Stalemate,
    /// `loser` checked on every move of the cycle and the other side did
    /// not.
    PerpetualCheck {
        /// The side that checked perpetually.
        loser: Color,
    },
    /// Both sides checked on every move of the cycle: draw.
    MutualPerpetualCheck,
    /// `loser` made forbidden moves (perpetual chase or mate threat, or a
    /// mix of attacks) while the other side's moves were allowed.
    ForbiddenRepetition {
        /// The side that broke the rule.
        loser: Color,
        /// How it broke it.
        conduct: Conduct,
    },
    /// Both sides made forbidden moves (neither a lone perpetual check):
    /// draw.
    MutualForbidden,
    /// Both sides' moves were allowed: draw by repetition.
    AllowedRepetition,
    /// The natural-move limit (自然限着) passed without a capture: draw.
    NaturalMoveLimit,
    /// Neither side has a piece able to cross the river: draw.
    InsufficientMaterial,
}

impl Reason {
    /// Whether the reason is a repetition ruling.
    pub fn is_repetition(self) -> bool {
        matches!(
            self,
            Reason::PerpetualCheck { .. }
                | Reason::MutualPerpetualCheck
                | Reason::ForbiddenRepetition { .. }
                | Reason::MutualForbidden
                | Reason::AllowedRepetition
        )
    }
}

impl fmt::Display for Reason {
    /// A short name: `checkmate`, `perpetual check by Red`, ….
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Checkmate => f.write_str("checkmate"),
            Reason::Stalemate => f.write_str("stalemate (no legal move)"),
            Reason::PerpetualCheck { loser } => {
                write!(f, "perpetual check by {}", side_name(*loser))
            }
            Reason::MutualPerpetualCheck => f.write_str("mutual perpetual check"),
            Reason::ForbiddenRepetition { loser, conduct } => {
                write!(f, "{} by {}", conduct_name(*conduct), side_name(*loser))
            }
            Reason::MutualForbidden => f.write_str("forbidden moves by both sides"),
            Reason::AllowedRepetition => f.write_str("repetition of allowed moves"),
            Reason::NaturalMoveLimit => f.write_str("natural move limit"),
            Reason::InsufficientMaterial => f.write_str("insufficient material"),
        }
    }
}

/// A judgement of a game's end: the result for the side to move, the rule,
/// and an explanation in plain words (which side, which rule, which moves in
/// ICCS and Chinese, which piece was chased).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The result for the side to move in the judged position.
    pub result: GameResult,
    /// The rule that decided it.
    pub reason: Reason,
    /// One paragraph saying why, e.g. "Red checks on every move of the
    /// cycle: h2e2 炮二平五, …; Black does not … — perpetual check; Red
    /// loses."
    pub explanation: String,
    /// The classified cycle, for repetition verdicts.
    pub cycle: Option<CycleReport>,
}

impl Verdict {
    /// The side that wins, if any, given the side to move of the judged
    /// position.
    pub fn winner(&self, side_to_move: Color) -> Option<Color> {
        match self.result {
            GameResult::Win => Some(side_to_move),
            GameResult::Loss => Some(!side_to_move),
            GameResult::Draw => None,
        }
    }
}

impl fmt::Display for Verdict {
    /// The explanation (what `shuai judge` prints after `reason:`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.explanation)
    }
}

/// "Red" or "Black".
pub(crate) fn side_name(c: Color) -> &'static str {
    match c {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}

fn conduct_name(c: Conduct) -> &'static str {
    match c {
        Conduct::PerpetualCheck => "perpetual check",
        Conduct::PerpetualMateThreat => "perpetual mate threat",
        Conduct::PerpetualChase { .. } => "perpetual chase",
        Conduct::PerpetualChaseOfSeveral { .. } => "perpetual chase of several pieces",
        Conduct::MixedAttacks => "a mix of checks, mate threats and chases",
        Conduct::Allowed => "allowed moves",
    }
}

/// The verdict table of rules.md for a classified cycle, from the point of
/// view of `stm`.
pub(crate) fn decide(report: &CycleReport, stm: Color) -> (GameResult, Reason) {
    let (red, black) = (report.red, report.black);
    let loses = |loser: Color| {
        if loser == stm {
            GameResult::Loss
        } else {
            GameResult::Win
        }
    };
    let pc = |c: Conduct| c == Conduct::PerpetualCheck;
    match (pc(red), pc(black)) {
        (true, true) => return (GameResult::Draw, Reason::MutualPerpetualCheck),
        (true, false) => {
            return (
                loses(Color::Red),
                Reason::PerpetualCheck { loser: Color::Red },
            )
        }
        (false, true) => {
            return (
                loses(Color::Black),
                Reason::PerpetualCheck {
                    loser: Color::Black,
                },
            )
        }
        (false, false) => {}
    }
    match (red.is_forbidden(), black.is_forbidden()) {
        (true, true) => (GameResult::Draw, Reason::MutualForbidden),
        (true, false) => (
            loses(Color::Red),
            Reason::ForbiddenRepetition {
                loser: Color::Red,
                conduct: red,
            },
        ),
        (false, true) => (
            loses(Color::Black),
            Reason::ForbiddenRepetition {
                loser: Color::Black,
                conduct: black,
            },
        ),
        (false, false) => (GameResult::Draw, Reason::AllowedRepetition),
    }
}

/// The chased pieces of `side`'s moves whose identity is in `origins`, each
/// once, as `the Black horse (c9), the Black cannon (a7)`: the piece and
/// its point at the start of the cycle.
fn chased_list(report: &CycleReport, side: Color, origins: Bitboard) -> String {
    let mut seen = Bitboard::EMPTY;
    let mut names = Vec::new();
    for v in report
        .moves
        .iter()
        .filter(|m| m.mover == side)
        .flat_map(|m| m.chased())
    {
        if origins.has(v.origin) && !seen.has(v.origin) {
            seen |= Bitboard::from_square(v.origin);
            names.push(format!(
                "the {} {} ({})",
                side_name(v.piece.color()),
                kind_name(v.piece.kind()),
                v.origin
            ));
        }
    }
    names.join(", ")
}

/// How a side's conduct reads in an explanation.
fn conduct_words(c: Conduct, report: &CycleReport, side: Color) -> String {
    let mine = || report.moves.iter().filter(|m| m.mover == side);
    match c {
        Conduct::PerpetualCheck => "checks on every move (perpetual check, 长将)".to_string(),
        Conduct::PerpetualMateThreat => {
            "threatens mate on every move (perpetual mate threat, 长杀)".to_string()
        }
        Conduct::PerpetualChase { origin } => {
            let victim = mine().flat_map(|m| m.chased()).find(|v| v.origin == origin);
            match victim {
                Some(v) => format!(
                    "chases the same {} {} (on {} at the start of the cycle) on every move \
                     (perpetual chase, 长捉)",
                    side_name(v.piece.color()),
                    kind_name(v.piece.kind()),
                    origin
                ),
                None => "chases on every move (perpetual chase, 长捉)".to_string(),
            }
        }
        Conduct::PerpetualChaseOfSeveral { origins } => format!(
            "chases on every move, not always the same piece: {} (perpetual chase of \
             several pieces, 长捉 一子或数子, rule 28.12)",
            chased_list(report, side, origins)
        ),
        Conduct::MixedAttacks => {
            let mut kinds = Vec::new();
            if mine().any(|m| m.class == MoveClass::Check) {
                kinds.push("checks");
            }
            if mine().any(|m| m.class == MoveClass::MateThreat) {
                kinds.push("mate threats");
            }
            if mine().any(|m| !m.class.victims().is_empty()) {
                kinds.push("chases");
            }
            format!(
                "attacks on every move, mixing {} (forbidden)",
                kinds.join(" and ")
            )
        }
        Conduct::Allowed => allowed_words(report, side),
    }
}

/// Why allowed moves are allowed: an idle move, or (by the Asian book)
/// attacks the book allows, named with their rule.
fn allowed_words(report: &CycleReport, side: Color) -> String {
    let mine = || report.moves.iter().filter(|m| m.mover == side);
    if report.book != RuleBook::Asian || mine().any(|m| m.class == MoveClass::Idle) {
        return "makes at least one idle move (allowed)".to_string();
    }
    let threats = mine().any(|m| m.class == MoveClass::MateThreat);
    let checks = mine().any(|m| m.class == MoveClass::Check);
    let chased: Bitboard = mine().flat_map(|m| m.chased()).map(|v| v.origin).collect();
    let chases = chased.any();
    if threats && !checks && !chases {
        return "threatens mate on every move (perpetual mate threat: a mate threat is no \
                attack, allowed by Asian rules 9 and 10)"
            .to_string();
    }
    let mut parts = Vec::new();
    if threats {
        parts.push("mate threats, which are no attack (Asian rules 9 and 10)".to_string());
    }
    match (checks, chases, threats) {
        (true, true, _) => {
            parts.push("checks mixed with chases (one check one chase, Asian rule 12)".to_string())
        }
        (true, false, _) => parts.push("checks, but not on every move (Asian rule 13)".to_string()),
        (false, true, false) => parts.push(format!(
            "chases of different pieces in turn: {} (no one piece on every move, Asian rules \
             16 and 32)",
            chased_list(report, side, chased)
        )),
        (false, true, true) => {
            parts.push(format!("chases of {}", chased_list(report, side, chased)))
        }
        (false, false, _) => {}
    }
    format!("makes allowed attacks: {} (allowed)", parts.join("; "))
}

/// The moves of `side` in the last cycle with their classes.
fn move_list(report: &CycleReport, side: Color) -> String {
    let mut out = String::new();
    let skip = report.moves.len() - report.cycle_plies;
    for m in report.moves[skip..].iter().filter(|m| m.mover == side) {
        if !out.is_empty() {
            out.push_str(", ");
        }
        out.push_str(&m.mv.to_string());
        if !m.chinese.is_empty() {
            out.push(' ');
            out.push_str(&m.chinese);
        }
        out.push_str(" [");
        out.push_str(&m.class.to_string());
        if !m.check_victims.is_empty() {
            let chase = MoveClass::Chase {
                victims: m.check_victims.clone(),
            };
            out.push_str(&format!(" and {chase}"));
        }
        out.push(']');
    }
    out
}

/// The plain-words explanation of a repetition verdict.
pub(crate) fn explain(
    report: &CycleReport,
    stm: Color,
    result: GameResult,
    reason: &Reason,
) -> String {
    let mut text = format!(
        "{} rules: the position occurred {} times; the last cycle has {} plies{}. ",
        report.book.name(),
        report.occurrences,
        report.cycle_plies,
        if report.cycle_plies < report.moves.len() {
            format!(" ({} plies judged in all)", report.moves.len())
        } else {
            String::new()
        }
    );
    for side in [Color::Red, Color::Black] {
        text.push_str(&format!(
            "{} {}: {}. ",
            side_name(side),
            conduct_words(report.conduct(side), report, side),
            move_list(report, side)
        ));
    }
    if report.pawn_attacks_counted {
        text.push_str("Both sides make forbidden moves, so attacks by a pawn alone count. ");
    }
    let rule = match reason {
        Reason::PerpetualCheck { loser } => format!(
            "Perpetual check against a side that does not check perpetually: {} loses",
            side_name(*loser)
        ),
        Reason::MutualPerpetualCheck => "Both sides check perpetually: draw".to_string(),
        Reason::ForbiddenRepetition { loser, conduct } => format!(
            "Forbidden moves ({}) by {} against allowed moves: {} loses",
            conduct_name(*conduct),
            side_name(*loser),
            side_name(*loser)
        ),
        Reason::MutualForbidden => "Both sides make forbidden moves: draw".to_string(),
        Reason::AllowedRepetition => "Both sides' moves are allowed: draw".to_string(),
        other => other.to_string(),
    };
    text.push_str(&rule);
    text.push_str(&format!(" ({} to move: {}).", side_name(stm), result));
    text
}

/// The referee's repetition judgement: if the current position has
/// occurred three times (same placement, same side to move), the verdict
/// of the cycle for the side to move, with an explanation.
pub fn judge_repetition(pos: &Position) -> Option<Verdict> {
    judge_repetition_with(pos, &RuleOptions::default())
}

/// [`judge_repetition`] at `occurrences` occurrences (2: the first
/// repetition, as search uses; 3: the referee's threefold).
pub fn judge_repetition_n(pos: &Position, occurrences: usize) -> Option<Verdict> {
    let opts = RuleOptions {
        occurrences,
        ..RuleOptions::default()
    };
    judge_repetition_with(pos, &opts)
}

/// [`judge_repetition`] with explicit options.
pub fn judge_repetition_with(pos: &Position, opts: &RuleOptions) -> Option<Verdict> {
    let span = cycle_span(pos, opts.occurrences)?;
    let report = classify_cycle(pos, span, opts.occurrences.max(2), opts, true);
    let (result, reason) = decide(&report, pos.side_to_move());
    let explanation = explain(&report, pos.side_to_move(), result, &reason);
    Some(Verdict {
        result,
        reason,
        explanation,
        cycle: Some(report),
    })
}

/// The repetition verdict alone, without explanation text: what search
/// calls when it finds the current position `occurrences` times (the
/// current one included) in its history. `None` if it has not occurred
/// that often since the last capture or null move.
pub fn repetition_result(pos: &Position, occurrences: usize) -> Option<GameResult> {
    let opts = RuleOptions {
        occurrences,
        ..RuleOptions::default()
    };
    repetition_result_with(pos, &opts)
}

/// A signature of the cycle that [`repetition_result_with`] judges for
/// `pos` when the position has occurred `occurrences` times: the hash
/// keys of every position of the cycle in order, and the count. The
/// verdict is a function of those positions alone (and of the options'
/// rule book and mate-threat depth, which the caller holds fixed), so a
/// caller that meets the same cycle many times, as a search does, can keep
/// verdicts by signature instead of judging again. `None` when there is no
/// such repetition.
pub fn repetition_signature(pos: &Position, occurrences: usize) -> Option<u64> {
    const MIX: u64 = 0x9E37_79B9_7F4A_7C15;
    let span = cycle_span(pos, occurrences)?;
    let seed = (occurrences.max(2) as u64) << 32 | span as u64;
    let keys = pos.previous_keys().rev().take(span).chain([pos.key()]);
    Some(keys.fold(seed.wrapping_mul(MIX), |h, k| {
        (h ^ k).wrapping_mul(MIX).rotate_left(27)
    }))
}

/// [`repetition_result`] with explicit options.
pub fn repetition_result_with(pos: &Position, opts: &RuleOptions) -> Option<GameResult> {
    let span = cycle_span(pos, opts.occurrences)?;
    let report = classify_cycle(pos, span, opts.occurrences.max(2), opts, false);
    Some(decide(&report, pos.side_to_move()).0)
}
