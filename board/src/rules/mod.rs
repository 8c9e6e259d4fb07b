//! Game-end and repetition rules (棋例): perpetual check, chase and mate
//! threat, the natural-move limit, mate and stalemate.
//!
//! The rule book is `rules.md` of the project ("Repetition rules"). This
//! module turns it into code that search, the engine and the match runner
//! share:
//!
//! * [`classify_move`] labels one move for the side that made it: check,
//!   mate threat, chase (with the chased pieces) or idle
//!   ([`MoveClass`], module `classify`).
//! * [`judge_repetition`] / [`judge_repetition_n`] look at a position's
//!   history, find the repetition cycle and classify every move of it
//!   (module `cycle`), then apply the verdict table ([`Verdict`], module
//!   `verdict`, which holds these functions: it uses `cycle`, not the
//!   reverse).
//!   [`repetition_result`] is the same judgement without the explanation
//!   text, for the search.
//! * [`natural_limit`] counts the natural-move limit (自然限着), where a
//!   side's checks beyond its tenth and the replies to them do not count.
//! * [`judge_game_end`] is the referee's view of a final position: mate,
//!   stalemate (a loss in Xiangqi), repetition, the natural-move limit.
//! * [`insufficient_material`] tells when neither side can cross the river.
//!
//! # What the detectors cover
//!
//! **Check** is exact: the move leaves the opponent's king attacked.
//!
//! **Mate threat** (杀): after the move, if the opponent passed, the mover
//! would have a forced mate made of checks only, within
//! [`RuleOptions::mate_threat_depth`] of its own moves (default 4: a mate
//! in four moves, all checks; rules.md asks for at least three, and a
//! referee reads a four-check mate as a threat too, issue 27). Not
//! covered: mates that need a quiet move, threats of stalemate (困毙, also a
//! win in Xiangqi) and longer check sequences.
//!
//! **Chase** (捉): after the move, if the opponent passed, some piece of the
//! mover could capture a valuable enemy piece (rook, horse, cannon, advisor,
//! elephant or a pawn across the river) and come out ahead. "Ahead" is
//! decided by an exchange search on the target point that plays only legal
//! captures (so pinned defenders, defenders that the capture puts in check,
//! discovered checks, flying-general and cannon-screen changes and x-ray
//! defenders are all seen) with values rook 10, horse 5, cannon 5,
//! advisor 2, elephant 2, pawn 1 (2 across the river), king unbounded.
//! A cheaper piece taking a dearer one (horse or cannon on a rook, advisor
//! or elephant on a horse, cannon or rook) is therefore a chase even when
//! the target is protected; a pawn's value floats to its target's value,
//! so it never gains from this. On top of that:
//!
//! * the capture must be legal, so pinned attackers cannot chase, and it
//!   must not let the opponent mate at once (a checking move that mates);
//! * the attack must be new (细则2, 从没捉到捉; issue 46): for every
//!   attacker, not only the piece that moved, either the attack did not
//!   exist before the move (the piece moved there, a line or a horse's leg
//!   was uncovered, a cannon's screen supplied) or it stood but the
//!   capture did not gain material before, because the move took the
//!   target's protection away (blocked, pinned or removed a defender,
//!   pinned the target so that it cannot take back). An attack that stood
//!   is no chase when the move only made its capture legal (unpinned the
//!   attacker) or safe from a mate in one: the move did not create it. A
//!   rook or cannon moving along the line of an attack it already made
//!   therefore chases nothing there. When the mover was in check before
//!   its move, or its move gives check, an attack that stood never
//!   counts; and a checking move is judged by the protection pieces have
//!   on the board, since a side in check cannot legally take back what
//!   does not answer the check, which makes no piece unprotected;
//! * an attack on a piece of the same kind that can legally take back
//!   (rook on rook, horse on horse, cannon on cannon) is an exchange offer,
//!   idle; a pinned target, or a horse whose leg is blocked, cannot take
//!   back, so the attack is a chase;
//! * an attack by the king alone is idle; an attack by a pawn alone is idle
//!   unless both sides make forbidden moves in the cycle, when it counts;
//!   a king or pawn attack on a piece that another piece of the mover also
//!   attacks counts as a chase.
//!
//! Not covered: winning a piece by a longer sequence of checks than a
//! capture that itself gives check (for example a check that forks), a
//! capture the opponent answers by winning material elsewhere (the
//! exchange search only looks at the target point), and mates after the
//! capture that take more than one move.
//!
//! # Perpetual chase and piece identity
//!
//! Chased pieces are tracked as pieces, not points: each piece is named by
//! the point it stood on at the start of the cycle and followed as it
//! moves. By the Chinese book a side chases perpetually when every one of
//! its moves in the cycle is a chase, of one piece or of several in turn
//! (一子或数子, 28.12; [`Conduct::PerpetualChaseOfSeveral`] for the
//! latter). By the Asian book one same piece must be chased by all of them
//! (rules 16, 18 and 32; the Fairy-Stockfish reading).
//!
//! # The two rule books
//!
//! [`RuleOptions::book`] selects the Chinese (default) or the Asian
//! ([`RuleBook`]) repetition rules. The classifier and the verdict table
//! are the same; the book's policy (module `book`) switches the points
//! where they differ. By the Asian book:
//!
//! * a mate threat is no attack: perpetual mate threats, and cycles mixing
//!   them with checks or chases, are allowed (rules 9, 10);
//! * "one check one chase" is allowed (rule 12), perpetual check still
//!   loses (rule 6); a check that attacks the same piece as the other moves
//!   counts towards a perpetual chase of it;
//! * a perpetual chase must chase one same piece (rules 16, 32);
//! * a piece with a real defender (one that can legally take back) cannot
//!   be chased, whatever the count of attackers (rule 35), except by a
//!   cheaper piece (horse or cannon on a rook, rules 15, 26);
//! * the king and pawns may chase (rules 28, 29);
//! * a piece standing on the leg of an enemy horse that would check its
//!   king (held by the horse) chases only against an opponent whose own
//!   moves are allowed: it cannot be perpetually chased and does not make
//!   a counter-chase (rule 19, diagrams 39–41), but a side that keeps an
//!   enemy piece unprotected for it against idle moves chases perpetually
//!   (the appendix's "Example of Perpetual Chase"). A piece that has just
//!   moved onto the leg chases in full (diagram 50).
//!
//! # Decisions (issue 27)
//!
//! Where Fairy-Stockfish's judge (pyffish), the WXF pages and this module
//! could part ways, the pages decide, and the cases below are settled so:
//!
//! **A chase** is a new attack that wins a piece (above): the attack did
//! not win before the move, whichever piece of the mover makes it and
//! however the move made it (moving the attacker, uncovering a line,
//! supplying or removing a cannon's mount, taking away, blocking or
//! pinning a defender). A cannon or horse attacking a rook chases it
//! whether the rook is protected or not, and that holds when neither the
//! cannon nor the rook moves and both sides only move the mount between
//! them (Asian rule 26, diagrams 61 and 62): the side whose every move
//! leaves one mount chases; the side whose moves make two mounts or none
//! blocks, and a block is idle unless it makes a capture newly winning.
//!
//! **An offer to exchange** is an attack on a piece of the same kind that
//! can legally take back (rook on rook, cannon on cannon over the same
//! mount, horse on horse with both legs free). It is idle in both books,
//! whatever the protection of either piece, and a cycle of offers, or of
//! sacrifices (moving a piece where it can be taken), is a draw (Asian
//! rule 40, diagrams 101–104). An offer that also attacks another piece
//! it would win is a chase of that piece (rule 36, diagrams 90–93); a
//! target that cannot legally take back (pinned, or a horse whose leg is
//! blocked) is chased, not offered an exchange.
//!
//! **Mutual chases.** Each side's conduct is judged over its own moves of
//! the cycle, whatever its length (four plies, eight, …): both sides
//! forbidden is a draw, one side forbidden loses, perpetual check first.
//! Two kinds of attack count only in some cycles: an attack by a pawn alone
//! (Chinese book) counts when both sides make forbidden moves; an attack
//! by a piece that stays on the leg of an enemy horse that would check
//! its king (Asian book) counts only when the opponent's own moves are
//! allowed. Rule 19 (diagrams 39–41) says such a held rook "cannot be
//! perpetually chased", so its owner cannot answer a chase of it with a
//! counter-chase claim and the chaser loses; but the appendix's "Example
//! of Perpetual Chase" rules the side that keeps a knight unprotected for
//! a held rook, against idle moves, a perpetual chaser, and it loses.
//!
//! **Mate threats.** A mate threat is a move after which the mover, were
//! the opponent to pass, mates by checks alone within four of its moves
//! (the default depth). Under the Chinese book it is an attack: a
//! perpetual mate threat, and a cycle mixing it with checks or chases
//! (one check one mate threat, one mate threat one chase), is forbidden.
//! Under the Asian book it is no attack (rules 9, 10): a perpetual mate
//! threat is allowed, so a side that threatens mate on every move against
//! a side that checks on one of its two moves and not on the other makes
//! a draw (neither perpetual check nor any forbidden conduct), and a move
//! that threatens mate and chases counts as the chase.
//!
//! **Issue 46: what the move created.** The held-out WXF cases and the
//! differential run against pyffish (`tools/scripts/repetition_diff.py`)
//! showed attacks the move did not create counted as chases: a rook beside
//! a loose cannon when an idle move unpinned it, a rook facing a rook
//! along the line it moved on while the move checked, two rooks attacking
//! each other across a rank in a cycle of checks. Both books now count an
//! attack that stood before the move only if the move took the target's
//! protection away (above); in both books that is a chase (Chinese 细则2
//! lists removing and blocking a defender; Asian: the appendix's "Example
//! of Perpetual Chase", where a pawn keeps a knight unprotected), and in
//! both an exchange offer stays idle when the target could take back but
//! for a check (Asian rule 40, diagrams 100–103; Chinese: rules.md's
//! exchange offer, 兑). The books still differ on what follows from a
//! chase (the switches of the next section's list). Where pyffish 0.0.90
//! disagrees, the WXF text decides against it:
//!
//! * a rook or cannon moving along the line of an attack it already
//!   made (a rook beside a loose piece stepping back on the same file, a
//!   cannon sliding along the file of its target): pyffish reads the moved
//!   piece as uncovering its own attack (its discovered-attack test takes
//!   the vacated point as occupied; for a cannon in front of a rook on the
//!   enemy king's file, the new blocker point counts as a new discovered
//!   attack), so it convicts a side whose attack stood all along. The
//!   attack stood before the move: from chase to chase is no chase
//!   (rules.md, 细则2), as in the appendix's "Example of Non-Perpetual
//!   Chase" (a rook moving along the file of a cannon it attacks; test
//!   `an_attack_the_target_ignores_is_no_chase_appendix_b`). The only kind
//!   of disagreement left in the issue-46 run (4 of 10,251 cycles);
//! * a chase made by blocking or removing a defender, which pyffish does
//!   not see (the appendix's "Example of Perpetual Chase", issue 27).
//!
//! Some Asian rules need no switch, the common rules give them in both
//! books: a rook confined to a line by a cannon (rule 27) cannot legally
//! take anything off its line, so it chases nothing there, and a rook
//! attacking it is no exchange offer because it cannot take back; an
//! attack the target ignores (appendix B) stood before the move, so it is
//! no new attack. Not covered: the rules whose pages are lost (11, 14,
//! 20–22, 30, 31, 34, 37, 39).

mod book;
mod classify;
mod cycle;
mod game_end;
mod natural_limit;
mod verdict;

pub use book::{RuleBook, UnknownRuleBook};
pub use classify::{classify_move, classify_move_with, Chased, MoveClass};
pub use cycle::{analyze_cycle, ClassifiedMove, Conduct, CycleReport};
pub use game_end::{insufficient_material, judge_game_end, judge_game_end_with};
pub use natural_limit::{natural_limit, natural_limit_reached, NaturalLimit};
pub use verdict::{
    judge_repetition, judge_repetition_n, judge_repetition_with, repetition_result,
    repetition_result_with, repetition_signature, GameResult, Reason, Verdict,
};

/// Default natural-move limit in plies (60 moves by each side).
pub const DEFAULT_NATURAL_LIMIT_PLIES: u32 = 120;

/// How many checks of one side within the natural-move stretch count in
/// full; beyond it, a check and the reply to it do not count.
pub const COUNTED_CHECKS: u32 = 10;

/// Settings shared by the judging functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleOptions {
    /// Occurrences of a position, the current one included, that make a
    /// repetition to judge: 3 for referees (the default), 2 for search.
    pub occurrences: usize,
    /// Depth, in the mover's own moves, of the checks-only mate search that
    /// detects mate threats; 0 turns the detection off, 1 finds a mate in
    /// one after a pass, 2 also a check followed by a mate, 3 (the least
    /// rules.md accepts) a mate in three moves, all checks, 4 (the default)
    /// a mate in four.
    pub mate_threat_depth: u32,
    /// The rule book that judges repetitions (default: the Chinese rules).
    pub book: RuleBook,
    /// Plies without a capture that draw the game (default 120).
    pub natural_limit_plies: u32,
    /// Whether [`judge_game_end_with`] declares a draw when neither side
    /// has a piece able to cross the river (default false: adjudicators
    /// choose).
    pub insufficient_material_draw: bool,
}

impl RuleOptions {
    /// The default options with the repetitions judged by `book`: what
    /// callers that only choose the book pass to the `*_with` functions.
    pub fn with_book(book: RuleBook) -> RuleOptions {
        RuleOptions {
            book,
            ..RuleOptions::default()
        }
    }
}

impl Default for RuleOptions {
    fn default() -> RuleOptions {
        RuleOptions {
            occurrences: 3,
            mate_threat_depth: 4,
            book: RuleBook::Chinese,
            natural_limit_plies: DEFAULT_NATURAL_LIMIT_PLIES,
            insufficient_material_draw: false,
        }
    }
}
