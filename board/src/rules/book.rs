//! The two rule books for repetitions and the few points where they differ.
//!
//! Both books share one classifier and one verdict table; a [`RuleBook`]
//! only selects a [`Policy`], a handful of switches that the classifier
//! (`classify`) and the cycle judge (`cycle`) consult where the books part
//! ways. Everything else (what a check is, what a protected piece is on the
//! board, exchange offers, cheaper pieces attacking dearer ones, perpetual
//! check losing) is common to both.

use std::fmt;
use std::str::FromStr;

/// Which repetition rules judge a cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RuleBook {
    /// The Chinese Xiangqi Association's competition rules (`rules.md`),
    /// as played in mainland events: the default.
    #[default]
    Chinese,
    /// The Asian Xiangqi Federation / WXF rules ("Asia rule" pages), as
    /// played in WXF and AXF events and most online play.
    Asian,
}

impl RuleBook {
    /// Both books, the default first.
    pub const ALL: [RuleBook; 2] = [RuleBook::Chinese, RuleBook::Asian];

    /// The name used in reasons: `Chinese` or `Asian`.
    pub fn name(self) -> &'static str {
        match self {
            RuleBook::Chinese => "Chinese",
            RuleBook::Asian => "Asian",
        }
    }

    /// The word an option or a command line takes: `chinese` or `asian`
    /// (what [`FromStr`] reads and [`fmt::Display`] writes).
    pub fn option_value(self) -> &'static str {
        match self {
            RuleBook::Chinese => "chinese",
            RuleBook::Asian => "asian",
        }
    }

    /// The switches this book sets.
    pub(crate) fn policy(self) -> &'static Policy {
        match self {
            RuleBook::Chinese => &CHINESE,
            RuleBook::Asian => &ASIAN,
        }
    }
}

impl fmt::Display for RuleBook {
    /// `chinese` or `asian`, as options take it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.option_value())
    }
}

/// A rule-book name that is neither `chinese` nor `asian`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRuleBook(pub String);

impl fmt::Display for UnknownRuleBook {
    /// `unknown rule book 'x' (expected chinese or asian)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown rule book '{}' (expected chinese or asian)",
            self.0
        )
    }
}

impl std::error::Error for UnknownRuleBook {}

impl FromStr for RuleBook {
    type Err = UnknownRuleBook;

    /// `chinese` / `asian`, any case; `china`, `cn`, `axf`, `wxf` too,
    /// since GUIs and people use those names for the same books.
    fn from_str(s: &str) -> Result<RuleBook, UnknownRuleBook> {
        match s.trim().to_ascii_lowercase().as_str() {
            "chinese" | "china" | "cn" | "cxa" => Ok(RuleBook::Chinese),
            "asian" | "asia" | "axf" | "wxf" => Ok(RuleBook::Asian),
            _ => Err(UnknownRuleBook(s.to_string())),
        }
    }
}

/// The points where the books differ, as data. Each field names the rule
/// that sets it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Policy {
    /// Whether a mate threat is an attack, so that perpetual mate threats
    /// and cycles mixing them with other attacks are forbidden. Chinese:
    /// yes (长杀, 一将一杀, 一杀一捉). Asian: no, a mate threat is an
    /// allowed move (rules 9, 10; diagrams 6–10, 34, 35, 104).
    pub mate_threat_is_attack: bool,
    /// Whether a cycle mixing checks and chases ("one check one chase") is
    /// forbidden. Chinese: yes. Asian: no (rule 12, diagrams 13, 37, 38).
    pub mixed_attacks_forbidden: bool,
    /// Whether a perpetual chase must chase one same piece on every move.
    /// Chinese: no, one or several pieces (一子或数子, 28.12). Asian: yes;
    /// chasing different pieces in turn is allowed (rules 16, 32; diagrams
    /// 26–28, 36, 76–80).
    pub chase_needs_same_piece: bool,
    /// Whether protection is weighed by an exchange on the target's point,
    /// so an under-protected piece (少根) can be chased. Chinese: yes.
    /// Asian: no, any real defender protects, attackers and defenders are
    /// not counted (rule 35, diagrams 86–89).
    pub count_defenders: bool,
    /// Whether attacks by the king or a pawn can make a forbidden chase.
    /// Chinese: yes, when another piece of the mover attacks the same
    /// piece, and a pawn alone when both sides make forbidden moves.
    /// Asian: no, the king and pawns may chase perpetually (rules 28, 29;
    /// diagrams 67–70).
    pub king_and_pawn_chases_count: bool,
    /// Whether a piece pinned by a horse (it stands on the leg of an enemy
    /// horse that would otherwise check its king) chases what it could
    /// legally take. Chinese: yes, a capture that is legal is playable.
    /// Asian: only against allowed moves. "A rook that cannot move because
    /// of an enemy knight" cannot be perpetually chased, and its attacks,
    /// not even on that knight, do not make a counter-chase, "because the
    /// rook doesn't move" (rule 19; diagrams 39–41 and the reference cases
    /// fsf-1193 and fsf-1195); but where the other side's moves are
    /// allowed, its owner chases with it like with any piece (the
    /// appendix's "Example of Perpetual Chase", where a pawn keeps a
    /// knight unprotected for a rook held on the knight's leg: the rook
    /// "perpetually chasing the unprotected Black Knight"; issue 27).
    /// A piece that has just moved onto the leg always chases:
    /// in diagram 50 the rook blocks the horse's check on its leg and the
    /// page rules that a perpetual chase of the horse (rule 23).
    ///
    /// Pins by a cannon need no switch: a rook confined to a line by a
    /// cannon (rule 27) can legally take nothing off its line nor the
    /// pieces on it between the cannon and its king, and its attack on
    /// the confining cannon stands as long as it is confined, so it never
    /// newly chases within a cycle; a rook attacking it is not offered an
    /// exchange because the confined rook cannot legally take back. Both
    /// follow from the common rules (legal captures, same-kind exchange
    /// offers), which `rules.md` states for the Chinese book too.
    pub horse_pinned_attackers_chase: bool,
    /// Whether a check that also attacks a piece counts as a chase of it
    /// for a perpetual chase. Chinese: no, a move is classified by its
    /// heaviest effect and a check is a check. Asian: yes, a side that
    /// attacks the same piece on every move chases it perpetually even if
    /// some of those moves check (reference cases fsf-1168 and fsf-1176);
    /// a check that attacks nothing is still "one check one chase".
    pub check_also_chases: bool,
}

/// The Chinese Xiangqi Association's rules (`rules.md`).
const CHINESE: Policy = Policy {
    mate_threat_is_attack: true,
    mixed_attacks_forbidden: true,
    chase_needs_same_piece: false,
    count_defenders: true,
    king_and_pawn_chases_count: true,
    horse_pinned_attackers_chase: true,
    check_also_chases: false,
};

/// The Asian (AXF/WXF) rules.
const ASIAN: Policy = Policy {
    mate_threat_is_attack: false,
    mixed_attacks_forbidden: false,
    chase_needs_same_piece: true,
    count_defenders: false,
    king_and_pawn_chases_count: false,
    horse_pinned_attackers_chase: false,
    check_also_chases: true,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for book in RuleBook::ALL {
            assert_eq!(book.to_string().parse::<RuleBook>(), Ok(book));
            assert_eq!(book.name().parse::<RuleBook>(), Ok(book));
        }
        assert_eq!("WXF".parse::<RuleBook>(), Ok(RuleBook::Asian));
        assert!("fide".parse::<RuleBook>().is_err());
        assert_eq!(RuleBook::default(), RuleBook::Chinese);
    }

    #[test]
    fn the_books_differ_on_every_switch() {
        let (c, a) = (RuleBook::Chinese.policy(), RuleBook::Asian.policy());
        assert_ne!(c.mate_threat_is_attack, a.mate_threat_is_attack);
        assert_ne!(c.mixed_attacks_forbidden, a.mixed_attacks_forbidden);
        assert_ne!(c.chase_needs_same_piece, a.chase_needs_same_piece);
        assert_ne!(c.count_defenders, a.count_defenders);
        assert_ne!(c.king_and_pawn_chases_count, a.king_and_pawn_chases_count);
        assert_ne!(
            c.horse_pinned_attackers_chase,
            a.horse_pinned_attackers_chase
        );
        assert_ne!(c.check_also_chases, a.check_also_chases);
    }
}
