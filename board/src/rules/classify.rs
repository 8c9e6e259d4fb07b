//! Classifying one move for the side that made it: check, mate threat,
//! chase or idle (see the module documentation of [`crate::rules`] for what
//! the detectors cover).

use super::book::Policy;
use super::RuleOptions;
use crate::{
    attacks, Bitboard, Color, GenKind, Move, MoveList, Piece, PieceKind, Position, Square,
};

/// A piece found chased by a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Chased {
    /// The chased piece.
    pub piece: Piece,
    /// Where it stood when it was chased.
    pub square: Square,
    /// Where it stood at the start of the cycle: the piece's identity while
    /// it moves around. Equal to `square` outside a cycle.
    pub origin: Square,
    /// The piece that could win it.
    pub attacker: Piece,
    /// Where that piece stood.
    pub attacker_square: Square,
}

/// What a move does, for the side that made it; the heaviest effect wins
/// (check over mate threat over chase over idle).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveClass {
    /// 将: the move attacks the enemy king.
    Check,
    /// 杀: the move threatens mate (by checks, see [`RuleOptions::mate_threat_depth`]).
    MateThreat,
    /// 捉: the move creates a threat to win these pieces.
    Chase {
        /// The chased pieces (at least one).
        victims: Vec<Chased>,
    },
    /// 闲: anything else.
    Idle,
}

impl MoveClass {
    /// Whether the move is an attack (check, mate threat or chase).
    pub fn is_attack(&self) -> bool {
        !matches!(self, MoveClass::Idle)
    }

    /// The chased pieces (empty unless a chase).
    pub fn victims(&self) -> &[Chased] {
        match self {
            MoveClass::Chase { victims } => victims,
            _ => &[],
        }
    }
}

impl std::fmt::Display for MoveClass {
    /// `check`, `mate threat`, `chase (rook d7, horse c2)` or `idle`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveClass::Check => f.write_str("check"),
            MoveClass::MateThreat => f.write_str("mate threat"),
            MoveClass::Idle => f.write_str("idle"),
            MoveClass::Chase { victims } => {
                f.write_str("chase (")?;
                for (i, v) in victims.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{} {}", kind_name(v.piece.kind()), v.square)?;
                }
                f.write_str(")")
            }
        }
    }
}

/// The English name of a piece kind, as used in explanations.
pub(crate) fn kind_name(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::King => "king",
        PieceKind::Advisor => "advisor",
        PieceKind::Elephant => "elephant",
        PieceKind::Horse => "horse",
        PieceKind::Rook => "rook",
        PieceKind::Cannon => "cannon",
        PieceKind::Pawn => "pawn",
    }
}

/// Classifies `m` (legal in `pos`) for the side that plays it, with the
/// default options. Chased pieces are named by their current points.
pub fn classify_move(pos: &Position, m: Move) -> MoveClass {
    classify_move_with(pos, m, &RuleOptions::default())
}

/// [`classify_move`] with explicit options. Outside a cycle a pawn attack
/// alone never counts (that needs both sides' moves of a cycle).
pub fn classify_move_with(pos: &Position, m: Move, opts: &RuleOptions) -> MoveClass {
    let mut p = pos.clone();
    let a = analyse_move(&mut p, m, opts);
    a.class
}

/// A move's effects as the cycle judge needs them.
pub(crate) struct MoveAnalysis {
    /// The class, pawn attacks alone not counted.
    pub class: MoveClass,
    /// New winning attacks by a pawn alone: they count only when both sides
    /// make forbidden moves in the cycle.
    pub pawn_victims: Vec<Chased>,
    /// Pieces a checking move also chases, where the book counts them
    /// ([`Policy::check_also_chases`]); empty otherwise.
    pub check_victims: Vec<Chased>,
    /// New winning attacks by a piece held on the leg of an enemy horse
    /// (where [`Policy::horse_pinned_attackers_chase`] is off): they count
    /// only when the opponent's own moves are allowed (Asian rule 19 and
    /// the appendix's example of perpetual chase).
    pub pinned_victims: Vec<Chased>,
}

/// The chases [`chases`] finds, sorted by how they count.
#[derive(Default)]
struct Found {
    /// Chases that count whatever the other side does.
    victims: Vec<Chased>,
    /// Attacks by a pawn alone.
    pawn: Vec<Chased>,
    /// Attacks by a piece held on a horse's leg.
    pinned: Vec<Chased>,
}

/// Plays `m` on `pos` (it stays played) and classifies it. Victims are
/// reported with `origin == square`; the caller renames them.
///
/// Where a mate threat is no attack (the Asian book), a move that threatens
/// mate and also chases is a chase, and [`MoveClass::MateThreat`] is left
/// for threats that chase nothing: the label the reasons show, an allowed
/// move for the cycle judge.
pub(crate) fn analyse_move(pos: &mut Position, m: Move, opts: &RuleOptions) -> MoveAnalysis {
    let policy = opts.book.policy();
    pos.make_move(m);
    let mut out = MoveAnalysis {
        class: MoveClass::Idle,
        pawn_victims: Vec::new(),
        check_victims: Vec::new(),
        pinned_victims: Vec::new(),
    };
    if pos.in_check() {
        out.class = MoveClass::Check;
        if policy.check_also_chases {
            out.check_victims = chases(pos, m, policy).victims;
        }
        return out;
    }
    let mut threat = false;
    if opts.mate_threat_depth > 0 {
        pos.make_null_move();
        threat = mate_by_checks(pos, opts.mate_threat_depth);
        pos.unmake_null_move();
        if threat && policy.mate_threat_is_attack {
            out.class = MoveClass::MateThreat;
            return out;
        }
    }
    let found = chases(pos, m, policy);
    out.pawn_victims = found.pawn;
    out.pinned_victims = found.pinned;
    if !found.victims.is_empty() {
        out.class = MoveClass::Chase {
            victims: found.victims,
        };
    } else if threat {
        out.class = MoveClass::MateThreat;
    }
    out
}

// ----- mate threats ------------------------------------------------------

/// Whether the side to move mates by checks alone within `depth` of its
/// own moves.
///
/// The cost grows with the checks available at each level, not with the
/// whole move list: a side with no check is done after one move
/// generation, which is what nearly every call meets, so the default depth
/// of four costs the search little (measured with `benches/rules.rs`).
fn mate_by_checks(pos: &mut Position, depth: u32) -> bool {
    if depth == 0 {
        return false;
    }
    // Only checks matter, and most moves give none: generate without the
    // legality test and pay for it only on the moves that check.
    let shield = pos.king_shield();
    let mut moves = MoveList::new();
    pos.generate_unverified(GenKind::All, &shield, &mut moves);
    for &m in moves.iter() {
        if !pos.gives_check(m) || !pos.legal_given(&shield, m) {
            continue;
        }
        pos.make_move(m);
        let mates = every_reply_is_mated(pos, depth - 1);
        pos.unmake_move();
        if mates {
            return true;
        }
    }
    false
}

/// After a check: whether the side to move (the defender) has no legal
/// move, or every legal move leaves the checker a mate by checks within
/// `depth` more of its moves.
fn every_reply_is_mated(pos: &mut Position, depth: u32) -> bool {
    let mut replies = pos.legal_moves();
    if replies.is_empty() {
        return true;
    }
    if depth == 0 {
        return false;
    }
    // Most calls find no mate, and end at the first reply that escapes:
    // try first those that usually do (king steps, then captures, which
    // often take the checker), so the search below them stays small.
    replies.as_mut_slice().sort_by_key(|&r| escape_rank(pos, r));
    replies.iter().all(|&r| {
        pos.make_move(r);
        let mated = mate_by_checks(pos, depth);
        pos.unmake_move();
        mated
    })
}

/// The order in which [`every_reply_is_mated`] tries a reply to a check:
/// king steps first, then captures, then blocks.
fn escape_rank(pos: &Position, r: Move) -> u8 {
    if pos
        .piece_at(r.from())
        .is_some_and(|p| p.kind() == PieceKind::King)
    {
        0
    } else if pos.piece_at(r.to()).is_some() {
        1
    } else {
        2
    }
}

/// Whether the side to move has a checking move that leaves the opponent
/// without a legal move.
fn has_mate_in_one(pos: &mut Position) -> bool {
    mate_by_checks(pos, 1)
}

// ----- chases ------------------------------------------------------------

/// Exchange values (rules.md: horse and cannon are worth the same).
fn value(piece: Piece, sq: Square) -> i32 {
    match piece.kind() {
        PieceKind::King => 1000,
        PieceKind::Rook => 10,
        PieceKind::Horse | PieceKind::Cannon => 5,
        PieceKind::Advisor | PieceKind::Elephant => 2,
        PieceKind::Pawn => {
            if sq.on_own_side(piece.color()) {
                1
            } else {
                2
            }
        }
    }
}

/// `color`'s pieces that can be chased: everything but the king and the
/// pawns still on their own side of the river.
fn chaseable(pos: &Position, color: Color) -> Bitboard {
    let mut set =
        pos.color_bb(color) & !pos.kind_bb(PieceKind::King) & !pos.kind_bb(PieceKind::Pawn);
    set |= pos.pieces(color, PieceKind::Pawn) & !Bitboard::own_half(color);
    set
}

/// The deepest exchange [`swap`] looks at.
const MAX_SWAP_DEPTH: u32 = 12;

/// The best the side to move gains by capturing on `sq` (worth `on_sq`)
/// and the exchange that follows, each side free to stop (so never below
/// zero). One capture per piece kind is tried, cheapest kind first. With
/// `legal`, only legal captures are played; without, any capture the
/// pieces' moves allow (kings still cannot be taken): the protection a
/// piece has "on the board", pins and x-rays aside.
fn swap(pos: &mut Position, sq: Square, on_sq: i32, depth: u32, legal: bool) -> i32 {
    if depth == 0 {
        return 0;
    }
    let us = pos.side_to_move();
    let attackers = pos.attackers_to(sq, us, pos.occupied());
    if attackers.is_empty() {
        return 0;
    }
    // A king on `sq` stepped there where it could be taken: [`gains`]
    // judges a capture with its own legality aside, and a king that takes
    // a protected piece is such a capture. Taking the king ends the
    // exchange; there is no position after it to look into.
    if pos
        .piece_at(sq)
        .is_some_and(|p| p.kind() == PieceKind::King)
    {
        return on_sq;
    }
    let mut best = 0;
    const ORDER: [PieceKind; 7] = [
        PieceKind::Pawn,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Cannon,
        PieceKind::Rook,
        PieceKind::King,
    ];
    for kind in ORDER {
        let Some(from) = (attackers & pos.kind_bb(kind))
            .into_iter()
            .find(|&from| !legal || pos.is_legal(Move::new(from, sq)))
        else {
            continue;
        };
        let piece = pos.piece_at(from).expect("attacker on its point");
        pos.make_move(Move::new(from, sq));
        let next = if kind == PieceKind::King && !legal {
            0
        } else {
            swap(pos, sq, value(piece, sq), depth - 1, legal)
        };
        let gain = on_sq - next;
        pos.unmake_move();
        best = best.max(gain);
        if best >= on_sq {
            break;
        }
    }
    best
}

/// Whether the side to move could win the piece on `v` by capturing it with
/// the piece on `a`: the capture is legal, it gains material ([`gains`])
/// and it does not allow a mate in one. With `replies_legal` false the
/// opponent's take-backs are read by the pieces' moves alone (the
/// protection a piece has on the board): what a checking move is judged
/// by, since a side in check cannot legally take back anything that does
/// not answer the check, and that says nothing about the piece's
/// protection.
pub(crate) fn wins_piece(
    pos: &mut Position,
    a: Square,
    v: Square,
    replies_legal: bool,
    policy: &Policy,
) -> bool {
    let m = Move::new(a, v);
    if !pos.is_legal(m) || !gains(pos, a, v, replies_legal, policy) {
        return false;
    }
    pos.make_move(m);
    let mate = has_mate_in_one(pos);
    pos.unmake_move();
    !mate
}

/// Whether capturing the piece on `v` with the piece on `a` (at least
/// pseudo-legal: the attack stands) gains material, the capture's own
/// legality aside: it is not an exchange offer (same kind, and the target
/// could take the attacker back) and the exchange on `v` comes out ahead.
/// With `legal` the opponent's replies must be legal (pinned defenders do
/// not defend); without, any capture the pieces' moves allow counts.
///
/// "Gains material": a cheaper piece taking a dearer one always does (a
/// horse or cannon taking a rook, in both books). Otherwise, where the
/// policy counts defenders (Chinese, 少根), the exchange on `v` must win;
/// where it does not (Asian rule 35), the target must have no defender able
/// to take back at all.
fn gains(pos: &mut Position, a: Square, v: Square, legal: bool, policy: &Policy) -> bool {
    let m = Move::new(a, v);
    if !pos.is_pseudo_legal(m) {
        return false;
    }
    let (Some(attacker), Some(victim)) = (pos.piece_at(a), pos.piece_at(v)) else {
        return false;
    };
    if attacker.kind() == victim.kind() {
        pos.make_null_move();
        let back = Move::new(v, a);
        let takes_back = if legal {
            pos.is_legal(back)
        } else {
            pos.is_pseudo_legal(back)
        };
        pos.unmake_null_move();
        if takes_back {
            return false;
        }
    }
    let attacker_value = if attacker.kind() == PieceKind::Pawn {
        // Pawn values float: a pawn never gains by being cheaper.
        value(victim, v)
    } else {
        value(attacker, v)
    };
    let victim_value = value(victim, v);
    pos.make_move(m);
    let gain = if policy.count_defenders {
        victim_value - swap(pos, v, attacker_value, MAX_SWAP_DEPTH, legal)
    } else if victim_value > attacker_value || !defended(pos, v, legal) {
        victim_value
    } else {
        0
    };
    pos.unmake_move();
    gain > 0
}

/// Whether the side to move can take back on `sq` (legally, or with
/// `legal` false by the pieces' moves alone): a real defender, whatever
/// the count of attackers. A pinned defender, or a king that would step
/// into an attack, is a false one when `legal`.
fn defended(pos: &Position, sq: Square, legal: bool) -> bool {
    let us = pos.side_to_move();
    pos.attackers_to(sq, us, pos.occupied())
        .into_iter()
        .any(|from| {
            let m = Move::new(from, sq);
            if legal {
                pos.is_legal(m)
            } else {
                pos.is_pseudo_legal(m)
            }
        })
}

/// `us`'s pieces standing on the leg of an enemy horse that would check
/// `us`'s king if they left: pinned by a horse (Asian rule 19).
fn horse_pinned(pos: &Position, us: Color) -> Bitboard {
    let ks = pos.king_square(us);
    let occ = pos.occupied();
    let horses = pos.pieces(!us, PieceKind::Horse);
    (attacks::horse_attacker_legs(ks) & pos.color_bb(us))
        .into_iter()
        .filter(|&leg| (attacks::horse_attackers(ks, occ.without(leg)) & horses).any())
        .collect()
}

/// The chases made by `m`, just played in `pos` (the opponent to move and
/// not in check): pieces the mover could now win that it could not win
/// before the move, sorted by how they count ([`Found`]). Each chased
/// piece is listed once, with the first attacker found.
///
/// Every attacker is compared before and after the move, not only the
/// piece that moved (细则2, 从没捉到捉): a line uncovered or a cannon's
/// screen supplied make a new attack; a defender taken away, pinned or
/// blocked makes an attack that stood gain material, and both are chases.
/// An attack that stood and gained nothing before only because its capture
/// was illegal or allowed a mate is not made by the move (issue 46). A
/// block (拦) that makes no capture newly winning stays idle. When the
/// mover was in check before its move, or its move gives check, an attack
/// that existed before never counts: the move was forced, or the check,
/// not the attack, is what the opponent must answer.
fn chases(pos: &mut Position, m: Move, policy: &Policy) -> Found {
    let them = pos.side_to_move();
    let us = !them;
    let targets = chaseable(pos, them);
    // Where the book says so, a piece that stays put on a horse's leg
    // chases only in part (rule 19 exempts the rook because "it doesn't
    // move"); one that has just moved there chases in full (diagram 50
    // rules a rook that blocks the horse's check on its leg a chaser).
    let held = if policy.horse_pinned_attackers_chase {
        Bitboard::EMPTY
    } else {
        horse_pinned(pos, us).without(m.to())
    };
    let mut pairs: Vec<(Square, Square)> = Vec::new();
    for a in pos.color_bb(us) {
        for v in pos.attacks_from(a) & targets {
            pairs.push((a, v));
        }
    }
    if pairs.is_empty() {
        return Found::default();
    }
    // A checking move is judged by the protection pieces have on the board:
    // the opponent, in check, could legally take back nothing that does not
    // answer the check, and that makes no piece unprotected.
    let check = pos.in_check();
    // After the move, as if the opponent passed: (attacker, victim).
    pos.make_null_move();
    pairs.retain(|&(a, v)| wins_piece(pos, a, v, !check, policy));
    pos.unmake_null_move();
    if pairs.is_empty() {
        return Found::default();
    }
    let pieces = attack_facts(pos, &pairs, us);
    // Before the move: did the same attack exist, was it already winning?
    pos.unmake_move();
    let was_in_check = pos.in_check();
    let mut found = Found::default();
    for (&(a, v), &(attacker, victim, backed)) in pairs.iter().zip(&pieces) {
        if found.victims.iter().any(|c| c.square == v) {
            continue;
        }
        let before = if a == m.to() { m.from() } else { a };
        // An attack that stood before the move is new only if the move took
        // the target's protection away (blocked, pinned or removed a
        // defender, pinned the target so that it cannot take back): the
        // capture did not gain before, whatever its legality then. An
        // attacker the move unpinned, or a capture the move made safe from
        // a mate, is not a new attack; nor is anything after a check
        // (either side's), where take-backs say nothing of protection.
        let new = !pos.attacks_from(before).has(v)
            || (!was_in_check && !check && !gains(pos, before, v, true, policy));
        if !new {
            continue;
        }
        let chased = Chased {
            piece: victim,
            square: v,
            origin: v,
            attacker,
            attacker_square: a,
        };
        found.add(chased, held.has(a), backed, policy);
    }
    pos.make_move(m);
    found
}

/// For each (attacker, victim) pair, after the move: the two pieces and
/// whether another piece of `us` than a king or a pawn attacks the victim
/// too.
fn attack_facts(
    pos: &Position,
    pairs: &[(Square, Square)],
    us: Color,
) -> Vec<(Piece, Piece, bool)> {
    let occ = pos.occupied();
    let heavy = pos.color_bb(us) & !pos.kind_bb(PieceKind::King) & !pos.kind_bb(PieceKind::Pawn);
    pairs
        .iter()
        .filter_map(|&(a, v)| {
            let backed = (pos.attackers_to(v, us, occ) & heavy).without(a).any();
            Some((pos.piece_at(a)?, pos.piece_at(v)?, backed))
        })
        .collect()
}

impl Found {
    /// Files a new winning attack under the list it counts in: `held`
    /// when the attacker stays on a horse's leg, `backed` when another
    /// piece than a king or a pawn attacks the same victim.
    fn add(&mut self, chased: Chased, held: bool, backed: bool, policy: &Policy) {
        let v = chased.square;
        let kind = chased.attacker.kind();
        let king_or_pawn = matches!(kind, PieceKind::King | PieceKind::Pawn);
        if king_or_pawn && !policy.king_and_pawn_chases_count {
            // Asian rules 28 and 29: the king and pawns may chase.
        } else if held {
            if !self.pinned.iter().any(|c| c.square == v) {
                self.pinned.push(chased);
            }
        } else if king_or_pawn && !backed {
            if kind == PieceKind::Pawn && !self.pawn.iter().any(|c| c.square == v) {
                self.pawn.push(chased);
            }
        } else {
            self.pawn.retain(|c| c.square != v);
            self.pinned.retain(|c| c.square != v);
            self.victims.push(chased);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RuleBook;

    fn class(fen: &str, mv: &str) -> MoveClass {
        let pos = Position::from_fen(fen).unwrap();
        let m = pos.parse_move(mv).unwrap();
        classify_move(&pos, m)
    }

    #[test]
    fn check_is_check() {
        assert_eq!(
            class("4k4/9/9/9/9/9/9/9/9/R2K5 w", "a0a9"),
            MoveClass::Check
        );
    }

    #[test]
    fn rook_attacking_a_loose_horse_chases_it() {
        let c = class("5k3/9/9/9/n8/9/9/9/9/1R1K5 w", "b0a0");
        assert_eq!(c.victims().len(), 1, "{c}");
        assert_eq!(c.victims()[0].square.to_string(), "a5");
    }

    #[test]
    fn rook_attacking_a_protected_horse_is_idle() {
        assert_eq!(
            class("r4k3/9/9/9/n8/9/9/9/9/1R1K5 w", "b0a0"),
            MoveClass::Idle
        );
    }

    /// Found by random games (the search crashed on it in a datagen run):
    /// before the advisor takes the rook, the king's capture of the cannon
    /// it now chases was illegal (the rook protected the cannon), and the
    /// exchange that judged it took the king and then looked for it.
    #[test]
    fn a_king_taking_a_protected_piece_ends_the_exchange() {
        let fens = [
            ("4kC3/4a4/5R3/9/2p3P2/7N1/2P6/5A3/2N6/2B2KB2 b", "e8f7"),
            (
                "2ba1k2r/r3RC2n/9/p1p1n4/6b2/9/2P3P2/4B3N/4A4/1NC1Kc3 b",
                "d9e8",
            ),
            (
                "1R1Ck2n1/4a4/4b4/6p2/8p/P1P6/3C2P2/9/4R4/2BAK1BN1 b",
                "e7c9",
            ),
            (
                "1r1a1ab2/4k4/4br3/p1p6/3C5/6p2/P1P3P1P/8B/9/3AKn2R w",
                "d5f5",
            ),
        ];
        for (fen, mv) in fens {
            for book in [RuleBook::Chinese, RuleBook::Asian] {
                let pos = Position::from_fen(fen).unwrap();
                let m = pos.parse_move(mv).unwrap();
                let opts = RuleOptions {
                    book,
                    ..RuleOptions::default()
                };
                let _ = classify_move_with(&pos, m, &opts);
            }
        }
        // The first: the advisor takes the rook, and the king could now
        // take the cannon; a king's attack alone is no chase.
        assert_eq!(class(fens[0].0, fens[0].1), MoveClass::Idle);
    }

    #[test]
    fn exchange_values() {
        // Cannon takes a rook defended by a rook: +10 - 5.
        let mut pos = Position::from_fen("r2k5/9/9/9/r8/9/P8/9/9/C3K4 w").unwrap();
        let sq: Square = "a5".parse().unwrap();
        let from: Square = "a0".parse().unwrap();
        pos.make_move(Move::new(from, sq));
        assert_eq!(10 - swap(&mut pos, sq, 5, MAX_SWAP_DEPTH, true), 5);
    }
}
