//! Finding a repetition cycle in a position's history, classifying its
//! moves with pieces tracked by identity, and judging each side's conduct.

use super::book::Policy;
use super::classify::{analyse_move, Chased, MoveClass};
use super::{RuleBook, RuleOptions};
use crate::{Bitboard, Color, Move, Position, Square, SQUARES};

/// One move of a repetition cycle with its classification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassifiedMove {
    /// The move.
    pub mv: Move,
    /// The side that played it.
    pub mover: Color,
    /// The move in Chinese notation (empty when the caller asked for no
    /// text, as the search does).
    pub chinese: String,
    /// What the move does; chased pieces carry their identity
    /// ([`Chased::origin`]: the point they stood on at the cycle's start).
    /// Attacks by a pawn alone are included only when the cycle's verdict
    /// counts them (both sides making forbidden moves).
    pub class: MoveClass,
    /// New winning attacks by a pawn alone (counted only when both sides
    /// make forbidden moves).
    pub pawn_victims: Vec<Chased>,
    /// Pieces a checking move also chases, counted towards a perpetual
    /// chase where the book says so (the Asian book); empty otherwise.
    pub check_victims: Vec<Chased>,
    /// New winning attacks by a piece held on the leg of an enemy horse
    /// (the Asian book): counted, and moved into `class`, only when the
    /// opponent's moves are allowed.
    pub pinned_victims: Vec<Chased>,
}

impl ClassifiedMove {
    /// Every piece the move chases as judged: the victims of its class and
    /// those of a check that also chases.
    pub fn chased(&self) -> impl Iterator<Item = &Chased> {
        self.class.victims().iter().chain(&self.check_victims)
    }
}

/// How a side behaved over a whole cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Conduct {
    /// Every move gave check (长将).
    PerpetualCheck,
    /// Every move threatened mate (长杀).
    PerpetualMateThreat,
    /// Every move chased, one same piece chased by all of them (长捉);
    /// `origin` names that piece by its point at the cycle's start.
    PerpetualChase {
        /// The chased piece's point at the start of the cycle.
        origin: Square,
    },
    /// Every move chased, but no one piece was chased by all of them: a
    /// perpetual chase of several pieces (长捉 一子或数子, Chinese rule
    /// 28.12). Forbidden by the Chinese book only; the Asian book allows
    /// it (rules 16 and 32), so it never reports it.
    PerpetualChaseOfSeveral {
        /// The chased pieces, by their points at the start of the cycle.
        origins: Bitboard,
    },
    /// Every move was an attack of mixed kinds (one check one chase, one
    /// check one mate threat, one mate threat one chase): forbidden by the
    /// Chinese book only.
    MixedAttacks,
    /// At least one idle move, or (by the Asian book) attacks the book
    /// allows: mate threats, chases of different pieces, checks mixed with
    /// chases.
    Allowed,
}

impl Conduct {
    /// Whether the conduct is forbidden (禁止着法).
    pub fn is_forbidden(self) -> bool {
        !matches!(self, Conduct::Allowed)
    }
}

/// A repetition cycle, classified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CycleReport {
    /// The moves from the earliest counted occurrence of the position to
    /// the current one, oldest first.
    pub moves: Vec<ClassifiedMove>,
    /// How many times the position has occurred (the current time included)
    /// within that stretch.
    pub occurrences: usize,
    /// Plies back to the most recent earlier occurrence: the length of the
    /// last cycle (the explanation lists only its moves).
    pub cycle_plies: usize,
    /// Red's conduct over the cycle.
    pub red: Conduct,
    /// Black's conduct over the cycle.
    pub black: Conduct,
    /// Whether attacks by a pawn alone were counted (both sides forbidden).
    pub pawn_attacks_counted: bool,
    /// The rule book that judged the cycle.
    pub book: RuleBook,
}

impl CycleReport {
    /// The conduct of `color`.
    pub fn conduct(&self, color: Color) -> Conduct {
        match color {
            Color::Red => self.red,
            Color::Black => self.black,
        }
    }
}

/// Plies back to the earliest of the `occurrences - 1` most recent earlier
/// occurrences of the current position, if there are that many. The scan
/// stops at the last capture (the half-move clock) and at null moves.
pub(crate) fn cycle_span(pos: &Position, occurrences: usize) -> Option<usize> {
    let needed = occurrences.max(2) - 1;
    let limit = (pos.halfmove_clock() as usize).min(pos.ply_count());
    let key = pos.key();
    let mut found = 0;
    for (i, (k, m)) in pos
        .previous_keys()
        .rev()
        .zip(pos.moves_played().rev())
        .take(limit)
        .enumerate()
    {
        if m.is_null() {
            return None;
        }
        let d = i + 1;
        if d % 2 == 0 && k == key {
            found += 1;
            if found == needed {
                return Some(d);
            }
        }
    }
    None
}

/// Classifies the cycle of the last `span` plies of `pos` (`text`: with
/// the moves in Chinese notation, which the referee's explanation needs
/// and the search does not).
pub(super) fn classify_cycle(
    pos: &Position,
    span: usize,
    occurrences: usize,
    opts: &RuleOptions,
    text: bool,
) -> CycleReport {
    let mut moves_rev: Vec<Move> = pos.moves_played().rev().take(span).collect();
    moves_rev.reverse();
    let mut p = pos.clone();
    for _ in 0..span {
        p.unmake_move();
    }
    // identity[sq]: the point the piece on `sq` stood on at the start.
    let mut identity: [Option<Square>; SQUARES] = [None; SQUARES];
    for sq in p.occupied() {
        identity[sq.index()] = Some(sq);
    }
    let mut moves = Vec::with_capacity(span);
    for m in moves_rev {
        let mover = p.side_to_move();
        let chinese = if text { p.to_chinese(m) } else { String::new() };
        let mut a = analyse_move(&mut p, m, opts);
        let rename = |c: &mut Chased| c.origin = identity[c.square.index()].unwrap_or(c.square);
        if let MoveClass::Chase { victims } = &mut a.class {
            victims.iter_mut().for_each(rename);
        }
        a.pawn_victims.iter_mut().for_each(rename);
        a.check_victims.iter_mut().for_each(rename);
        a.pinned_victims.iter_mut().for_each(rename);
        identity[m.to().index()] = identity[m.from().index()].take();
        moves.push(ClassifiedMove {
            mv: m,
            mover,
            chinese,
            class: a.class,
            pawn_victims: a.pawn_victims,
            check_victims: a.check_victims,
            pinned_victims: a.pinned_victims,
        });
    }
    let policy = opts.book.policy();
    let (red, black, pawn_attacks_counted) = judge_conducts(&mut moves, policy);
    CycleReport {
        cycle_plies: cycle_span(pos, 2).unwrap_or(span),
        moves,
        occurrences,
        red,
        black,
        pawn_attacks_counted,
        book: opts.book,
    }
}

/// Which conditional attacks [`conduct`] counts as chases.
#[derive(Clone, Copy, Default)]
struct Extras {
    /// Attacks by a pawn alone (the Chinese book, when both sides make
    /// forbidden moves).
    pawns: bool,
    /// Attacks by a piece held on a horse's leg (the Asian book, when the
    /// opponent's moves are allowed).
    pinned: bool,
}

/// Both sides' conducts over the classified cycle `moves`, and whether
/// attacks by a pawn alone were counted; the conditional attacks that count
/// are moved into the moves' classes, so that the explanation lists them.
///
/// Two kinds of attack count only in some cycles. Attacks by a pawn alone
/// (Chinese book) count when both sides make forbidden moves with them.
/// Attacks by a piece that stays on the leg of an enemy horse (Asian book)
/// count when the opponent's own moves are allowed: rule 19 shields such a
/// piece from being chased and does not let its owner answer a chase of it
/// with a counter-chase (diagrams 39–41), but the appendix's example of
/// perpetual chase rules a rook held on a horse's leg a perpetual chaser
/// when the other side only makes idle moves.
fn judge_conducts(moves: &mut [ClassifiedMove], policy: &Policy) -> (Conduct, Conduct, bool) {
    let sides = [Color::Red, Color::Black];
    let strict = sides.map(|c| conduct(moves, c, Extras::default(), policy));
    // Pinned attacks count for a side whose opponent plays allowed moves.
    let pinned = [!strict[1].is_forbidden(), !strict[0].is_forbidden()];
    let base = [0, 1].map(|i| Extras {
        pawns: false,
        pinned: pinned[i],
    });
    let plain = [0, 1].map(|i| conduct(moves, sides[i], base[i], policy));
    let with_pawns = [0, 1].map(|i| {
        let e = Extras {
            pawns: true,
            ..base[i]
        };
        conduct(moves, sides[i], e, policy)
    });
    let mutual = with_pawns[0].is_forbidden() && with_pawns[1].is_forbidden();
    let pawn_attacks_counted = mutual && plain != with_pawns;
    let [red, black] = if mutual { with_pawns } else { plain };
    for cm in moves.iter_mut() {
        let i = usize::from(cm.mover == Color::Black);
        if pawn_attacks_counted {
            let extra = std::mem::take(&mut cm.pawn_victims);
            cm.pawn_victims = merge_into_class(&mut cm.class, extra);
        }
        if pinned[i] {
            let extra = std::mem::take(&mut cm.pinned_victims);
            cm.pinned_victims = merge_into_class(&mut cm.class, extra);
        }
    }
    (red, black, pawn_attacks_counted)
}

/// Adds `extra` chased pieces to a move's class (an idle move becomes a
/// chase; a piece already listed is listed once); returns what could not
/// be added (the move is a check or a mate threat).
fn merge_into_class(class: &mut MoveClass, extra: Vec<Chased>) -> Vec<Chased> {
    if extra.is_empty() {
        return extra;
    }
    match class {
        MoveClass::Chase { victims } => {
            for c in extra {
                if !victims.iter().any(|v| v.origin == c.origin) {
                    victims.push(c);
                }
            }
            Vec::new()
        }
        MoveClass::Idle => {
            *class = MoveClass::Chase { victims: extra };
            Vec::new()
        }
        _ => extra,
    }
}

/// The identities of `chased` pieces (their points at the cycle's start).
fn origins_of(chased: &[Chased]) -> Bitboard {
    chased.iter().map(|c| c.origin).collect()
}

/// The conduct of `side` over `moves`, counting the conditional attacks
/// `extras` names. The policy says whether mate threats are attacks,
/// whether a perpetual chase needs one same piece and whether mixed attacks
/// are forbidden.
fn conduct(moves: &[ClassifiedMove], side: Color, extras: Extras, policy: &Policy) -> Conduct {
    let mine = moves.iter().filter(|m| m.mover == side);
    let mut all_checks = true;
    let mut all_threats = true;
    let mut all_chases = true;
    let mut common: Option<Bitboard> = None;
    let mut chased = Bitboard::EMPTY;
    let mut any = false;
    for m in mine {
        any = true;
        let mut origins = origins_of(m.class.victims()) | origins_of(&m.check_victims);
        if extras.pawns {
            origins |= origins_of(&m.pawn_victims);
        }
        if extras.pinned {
            origins |= origins_of(&m.pinned_victims);
        }
        let chase = match m.class {
            MoveClass::Check => origins.any(),
            MoveClass::MateThreat if policy.mate_threat_is_attack => false,
            _ if origins.any() => true,
            _ => return Conduct::Allowed,
        };
        all_checks &= m.class == MoveClass::Check;
        all_threats &= m.class == MoveClass::MateThreat;
        all_chases &= chase;
        if chase {
            common = Some(common.map_or(origins, |c| c & origins));
            chased |= origins;
        }
    }
    if !any {
        return Conduct::Allowed;
    }
    if all_checks {
        return Conduct::PerpetualCheck;
    }
    if all_threats {
        return Conduct::PerpetualMateThreat;
    }
    match common {
        Some(c) if all_chases => match c.first() {
            Some(origin) => Conduct::PerpetualChase { origin },
            None if policy.chase_needs_same_piece => Conduct::Allowed,
            None => Conduct::PerpetualChaseOfSeveral { origins: chased },
        },
        _ if policy.mixed_attacks_forbidden => Conduct::MixedAttacks,
        _ => Conduct::Allowed,
    }
}

/// Classifies the repetition cycle ending at `pos` when the current
/// position has occurred `occurrences` times (the current one included)
/// since the last capture; `None` when it has not.
pub fn analyze_cycle(pos: &Position, occurrences: usize) -> Option<CycleReport> {
    let opts = RuleOptions {
        occurrences,
        ..RuleOptions::default()
    };
    let span = cycle_span(pos, occurrences)?;
    Some(classify_cycle(pos, span, occurrences.max(2), &opts, true))
}
