//! The two rule books: the Chinese-rule gaps of issue 15 and every point
//! where the Asian (AXF/WXF) book differs, each judged under both books.
//!
//! Positions marked "D<n>, RECONSTRUCTED" rebuild a numbered diagram of the
//! WXF "Asia rule" pages (www.wxf.org/xq/rule/asia/): the pages give the
//! move list and the verdict but the diagram only as an image, so these
//! are minimal positions, not the book's own, in which the page's move
//! list is legal and each move does what the page says (research notes
//! `asian-rules.md`, checked with pyffish 0.0.90, whose Asian-rule verdict
//! agrees on each). Where the Chinese verdict differs, the test says which
//! Chinese rule decides.

mod common;
use common::play;
use shuai_board::rules::{
    classify_move_with, judge_repetition_with, repetition_result_with, Conduct, GameResult,
    MoveClass, Reason, RuleBook, RuleOptions, Verdict,
};
use shuai_board::{Bitboard, Color, Square};

use GameResult::{Draw, Loss, Win};
use RuleBook::{Asian, Chinese};

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn squares(list: &[&str]) -> Bitboard {
    list.iter().map(|s| sq(s)).collect()
}

/// Judges the game `moves` from `fen` (it must end in a threefold
/// repetition) by `book` and checks the result, the reason and both
/// sides' conduct; the search's fast verdict must agree.
fn expect(
    book: RuleBook,
    fen: &str,
    moves: &str,
    result: GameResult,
    reason: Reason,
    red: Conduct,
    black: Conduct,
) -> Verdict {
    let opts = RuleOptions::with_book(book);
    let pos = play(fen, moves);
    let v = judge_repetition_with(&pos, &opts)
        .unwrap_or_else(|| panic!("no threefold repetition: {fen} / {moves}"));
    let report = v.cycle.as_ref().expect("a cycle");
    assert_eq!(
        (v.result, v.reason, report.red, report.black),
        (result, reason, red, black),
        "{book}: {fen} / {moves}\n{}",
        v.explanation
    );
    assert_eq!(report.book, book);
    assert!(
        v.explanation
            .starts_with(&format!("{} rules: ", book.name())),
        "{}",
        v.explanation
    );
    assert_eq!(repetition_result_with(&pos, &opts), Some(result));
    v
}

/// [`expect`] for a draw where both sides' moves are allowed.
fn allowed_draw(book: RuleBook, fen: &str, moves: &str) -> Verdict {
    let allowed = Conduct::Allowed;
    expect(
        book,
        fen,
        moves,
        Draw,
        Reason::AllowedRepetition,
        allowed,
        allowed,
    )
}

/// [`expect`] for Red chasing the piece that stood on `origin` on every
/// move against Black's allowed moves: Red loses (`result` is for the side
/// to move at the end).
fn red_chases_and_loses(
    book: RuleBook,
    fen: &str,
    moves: &str,
    result: GameResult,
    origin: &str,
) -> Verdict {
    let chase = Conduct::PerpetualChase { origin: sq(origin) };
    let reason = loses(Color::Red, chase);
    expect(book, fen, moves, result, reason, chase, Conduct::Allowed)
}

fn loses(loser: Color, conduct: Conduct) -> Reason {
    Reason::ForbiddenRepetition { loser, conduct }
}

/// [`red_chases_and_loses`] by both books alike.
fn red_chases_and_loses_in_both(fen: &str, moves: &str, result: GameResult, origin: &str) {
    for book in RuleBook::ALL {
        red_chases_and_loses(book, fen, moves, result, origin);
    }
}

/// The class of `mv` in `fen` by `book` (default options otherwise).
fn class(book: RuleBook, fen: &str, mv: &str) -> MoveClass {
    class_after(book, fen, "", mv)
}

/// The class of `mv` by `book` after `played` from `fen`.
fn class_after(book: RuleBook, fen: &str, played: &str, mv: &str) -> MoveClass {
    let pos = play(fen, played);
    let m = pos.parse_move(mv).unwrap();
    assert!(pos.is_legal(m), "{fen} / {played} {mv}");
    classify_move_with(&pos, m, &RuleOptions::with_book(book))
}

// ----- the Chinese-rule gaps of issue 15 -------------------------------------

/// Issue 15, gap 1: after Black's e9f9, were Red to pass, Black mates in
/// three moves, all checks (pawn, pawn, rook): a mate threat only a
/// three-move search sees. Black threatens mate on every move, Red mixes
/// checks with mate threats: both forbidden, a draw.
const DEEP_THREAT_FEN: &str = "5k3/2CPP4/9/9/9/9/9/B3p4/r8/4K4 w - - 0 1";
const DEEP_THREAT_MOVES: &str = "e8f8 f9e9 e0f0 e2f2 f8e8 e9f9 f0e0 f2e2 e8f8 f9e9 e0f0 e2f2 \
                                 f8e8 e9f9 f0e0 f2e2 e8f8 f9e9";

#[test]
fn gap_mate_threat_three_checks_deep() {
    expect(
        Chinese,
        DEEP_THREAT_FEN,
        DEEP_THREAT_MOVES,
        Draw,
        Reason::MutualForbidden,
        Conduct::MixedAttacks,
        Conduct::PerpetualMateThreat,
    );
    // The threat needs the third move: with a two-move search e9f9 is no
    // mate threat.
    let before = play(DEEP_THREAT_FEN, "e8f8 f9e9 e0f0 e2f2 f8e8");
    let m = before.parse_move("e9f9").unwrap();
    let with_depth = |d| {
        let opts = RuleOptions {
            mate_threat_depth: d,
            ..RuleOptions::default()
        };
        classify_move_with(&before, m, &opts)
    };
    assert_eq!(RuleOptions::default().mate_threat_depth, 4);
    assert_eq!(with_depth(3), MoveClass::MateThreat);
    assert_ne!(with_depth(2), MoveClass::MateThreat);
    // Asian rules 9 and 10: mate threats are no attack; Red's checks are
    // not perpetual (rule 13): both allowed, a draw for another reason.
    let v = allowed_draw(Asian, DEEP_THREAT_FEN, DEEP_THREAT_MOVES);
    assert!(v.explanation.contains("Asian rules 9 and 10"), "{v}");
}

/// Issue 27, kind 6 (Chinese book, 长杀; rules.md: a mate threat is a
/// threat of mate by one move or a forced sequence of checks). Red
/// shuffles its advisor e1-d0; Black's elephant goes c9-e7 and back, idle.
/// With the advisor on d0 and the elephant on c9, Red would mate in three
/// checks (i6i9 e9e8 a6c7 e8d8 i9d9). With the advisor back on e1 and the
/// elephant on e7, the elephant can block: i6i9 e7g9 i9g9 e9e8 a6c7 e8e7
/// g9g7, a mate in four checks. Every red move threatens mate, a perpetual
/// mate threat against idle moves: Red loses. A three-move search calls
/// d0e1 idle and the cycle a draw. Asian rules 9 and 10: a mate threat is
/// no attack, a draw (pyffish: draw, it has no mate threats).
#[test]
fn perpetual_mate_threat_four_checks_deep() {
    let fen = "2b1k4/9/9/N6PR/9/9/9/9/4A4/5K3 w - - 0 1";
    let moves = "e1d0 c9e7 d0e1 e7c9 e1d0 c9e7 d0e1 e7c9";
    let threat = Conduct::PerpetualMateThreat;
    let reason = loses(Color::Red, threat);
    expect(Chinese, fen, moves, Loss, reason, threat, Conduct::Allowed);
    allowed_draw(Asian, fen, moves);
    let shallow = RuleOptions {
        mate_threat_depth: 3,
        ..RuleOptions::default()
    };
    let pos = play(fen, moves);
    let v = judge_repetition_with(&pos, &shallow).expect("a repetition");
    assert_eq!((v.result, v.reason), (Draw, Reason::AllowedRepetition));
    let before = play(fen, "e1d0 c9e7");
    let m = before.parse_move("d0e1").unwrap();
    assert_eq!(classify_move_with(&before, m, &shallow), MoveClass::Idle);
}

/// Issue 15, gap 2 (细则2, 从没捉到捉): the red rook d1 always attacks the
/// black horse c1, which the cannon c9 guards over one screen on the c
/// file. Each red pawn move changes the number of screens (c6b6 takes the
/// only one away, b6c6 makes two with the elephant c5), so the capture on
/// c1 newly wins after every red move: a chase each time, made by removing
/// a defender, not by moving the attacker. Black's elephant moves restore
/// the screen, idle. Chinese: Red chases perpetually and loses.
///
/// Asian (issue 27, kind 3; the WXF appendix, "Example of Perpetual
/// Chase", rebuilt: the page's moves `P7=6 e1+3 P6=7 e3-1`, a pawn that
/// keeps the knight "unprotected", and "the Red Rook perpetually chasing
/// the unprotected Black Knight. Red is violating the rule"): Red loses
/// too. The rook d1 stands on the leg of the horse c1, which would check
/// the king e0 if the rook left, the setting H.G. Muller describes for the
/// appendix. Rule 19 (diagrams 39–41) says such a rook "cannot be
/// perpetually chased" and does not chase back; read together, the two
/// pages shield the held rook from a chase and from a counter-chase
/// claim, but not its owner from a perpetual chase against an opponent
/// whose moves are allowed (here the elephant's idle moves). pyffish
/// calls this cycle a draw: it sees no chase made by removing a defender.
#[test]
fn gap_chase_by_removing_a_defender() {
    let fen = "2ca1k3/4a4/b3b4/2P5P/6p2/1c7/9/B7N/2nR5/2BAK4 w - - 0 1";
    let moves = "c6b6 e7c5 b6c6 c5e7 c6b6 e7c5 b6c6 c5e7 c6b6 e7c5 b6c6";
    red_chases_and_loses_in_both(fen, moves, Win, "c1");
    // The pawn attacks nothing: the chase is the rook's.
    let c = class(Chinese, fen, "c6b6");
    let v = c.victims();
    assert_eq!(v.len(), 1, "{c}");
    assert_eq!((v[0].square, v[0].attacker_square), (sq("c1"), sq("d1")));
    // Alone, outside a cycle, the held rook's attack is not counted: it
    // counts only against an opponent whose moves are allowed.
    assert_eq!(class(Asian, fen, "c6b6"), MoveClass::Idle);
    // Unpinned (the red king on d0 instead of e0, the advisor on e1), the
    // same removal of the defender is a chase by the Asian book too.
    let unpinned = "2ca1k3/4a4/b3b4/2P5P/6p2/1c7/9/B7N/2nRA4/2BK5 w - - 0 1";
    assert_eq!(
        class(Asian, unpinned, "c6b6").to_string(),
        "chase (horse c1)"
    );
}

/// Issue 15, gap 3 (28.12, 一子或数子), from diagram 36, RECONSTRUCTED
/// (the two red horses and the black screens are the researcher's choice;
/// WXF `R2=7 c3=7 R7=3 c7=3`). The black cannon attacks the horse g9 from
/// g7 (screen g8) and the horse c9 from c7 (screen c8) in turn; the red
/// rook attacks the unprotected cannon on every move.
///
/// Chinese: a chase on every move, of one piece or several, is a perpetual
/// chase (28.12), so both sides make forbidden moves: draw. Asian (rules
/// 18 and 32, the page's verdict): chasing two pieces in turn is allowed,
/// the rook's perpetual chase of the same cannon is not: Red loses.
#[test]
fn gap_perpetual_chase_of_several_pieces_d36() {
    let fen = "2N1k1N2/2n3n2/2c6/9/9/9/9/7R1/9/3K5 w";
    let moves = "h2c2 c7g7 c2g2 g7c7 g2c2 c7g7 c2g2 g7c7 g2c2";
    let v = expect(
        Chinese,
        fen,
        moves,
        Draw,
        Reason::MutualForbidden,
        Conduct::PerpetualChase { origin: sq("c7") },
        Conduct::PerpetualChaseOfSeveral {
            origins: squares(&["c9", "g9"]),
        },
    );
    assert_eq!(
        v.explanation,
        "Chinese rules: the position occurred 3 times; the last cycle has 4 plies (8 plies \
         judged in all). Red chases the same Black cannon (on c7 at the start of the cycle) \
         on every move (perpetual chase, 长捉): c2g2 车七平三 [chase (cannon g7)], g2c2 \
         车三平七 [chase (cannon c7)]. Black chases on every move, not always the same piece: \
         the Red horse (g9), the Red horse (c9) (perpetual chase of several pieces, 长捉 \
         一子或数子, rule 28.12): c7g7 炮3平7 [chase (horse g9)], g7c7 炮7平3 [chase (horse \
         c9)]. Both sides make forbidden moves: draw (Black to move: draw)."
    );
    let v = red_chases_and_loses(Asian, fen, moves, Win, "c7");
    assert_eq!(
        v.explanation,
        "Asian rules: the position occurred 3 times; the last cycle has 4 plies (8 plies \
         judged in all). Red chases the same Black cannon (on c7 at the start of the cycle) \
         on every move (perpetual chase, 长捉): c2g2 车七平三 [chase (cannon g7)], g2c2 \
         车三平七 [chase (cannon c7)]. Black makes allowed attacks: chases of different pieces \
         in turn: the Red horse (g9), the Red horse (c9) (no one piece on every move, Asian \
         rules 16 and 32) (allowed): c7g7 炮3平7 [chase (horse g9)], g7c7 炮7平3 [chase \
         (horse c9)]. Forbidden moves (perpetual chase) by Red against allowed moves: Red \
         loses (Black to move: win)."
    );
}

/// A piece attacked by two pieces at once is chased once: a3e3 makes the
/// rook attack the loose horse e7 and gives the cannon e0 its screen on
/// the same horse.
#[test]
fn each_chased_piece_is_listed_once() {
    for book in RuleBook::ALL {
        let c = class(book, "5k3/9/4n4/9/9/9/R8/9/9/3KC4 w", "a3e3");
        assert_eq!(c.to_string(), "chase (horse e7)", "{book}");
    }
}

// ----- the Asian book's differences ----------------------------------------

/// Asian rules 9 and 10 (diagrams 6–10): a perpetual mate threat is
/// allowed. Black shuffles its cannon b7/a7 while its rooks keep g5g0 mate
/// ready; Red's pawn moves attack nothing. Chinese: a perpetual mate threat
/// (长杀) against allowed moves, Black loses. Asian: a draw.
#[test]
fn asian_perpetual_mate_threat_is_allowed() {
    let fen = "5k3/9/1c7/7P1/6r2/9/9/9/r8/4K4 w";
    let moves = "h6i6 b7a7 i6h6 a7b7 h6i6 b7a7 i6h6 a7b7";
    expect(
        Chinese,
        fen,
        moves,
        Win,
        loses(Color::Black, Conduct::PerpetualMateThreat),
        Conduct::Allowed,
        Conduct::PerpetualMateThreat,
    );
    let v = allowed_draw(Asian, fen, moves);
    assert_eq!(
        v.explanation,
        "Asian rules: the position occurred 3 times; the last cycle has 4 plies (8 plies \
         judged in all). Red makes at least one idle move (allowed): h6i6 兵二平一 [idle], \
         i6h6 兵一平二 [idle]. Black threatens mate on every move (perpetual mate threat: a \
         mate threat is no attack, allowed by Asian rules 9 and 10): b7a7 炮2平1 [mate \
         threat], a7b7 炮1平2 [mate threat]. Both sides' moves are allowed: draw (Red to \
         move: draw)."
    );
}

/// Asian rule 12 (diagram 13): "one check one chase" is allowed. Red
/// alternates a check (a5e5) and a chase of the loose horse a7 (e5a5).
/// Chinese: a mix of attacks on every move is forbidden, Red loses.
/// Asian: a draw.
#[test]
fn asian_one_check_one_chase_is_allowed() {
    let fen = "4k4/9/n8/9/R8/9/9/9/9/3K5 w";
    let moves = "a5e5 e9f9 e5a5 f9e9 a5e5 e9f9 e5a5 f9e9";
    expect(
        Chinese,
        fen,
        moves,
        Loss,
        loses(Color::Red, Conduct::MixedAttacks),
        Conduct::MixedAttacks,
        Conduct::Allowed,
    );
    let v = allowed_draw(Asian, fen, moves);
    assert!(v.explanation.contains("Asian rule 12"), "{v}");
}

/// Game 38 of a match against Fairy-Stockfish: Red's cannon alternates a
/// check (h4e4) and a mate threat (e4h4); Black's rook blocks, each time
/// newly attacking the unprotected cannon. Chinese: one check one mate
/// threat and a perpetual chase, both forbidden, draw. Asian: Red's moves
/// are allowed (a mate threat is no attack, rules 9 and 13), Black's
/// perpetual chase of the same cannon is not: Black loses, as pyffish says.
#[test]
fn asian_check_and_mate_threat_against_a_perpetual_chase() {
    let fen = "rn1a1ab2/4k1N2/4b1n2/2p3p1p/2c4r1/P3C4/4p1P1P/4BR3/4A4/1R2KAB2 b";
    let moves = "h5e5 e4h4 e5h5 h4e4 h5e5 e4h4 e5h5 h4e4";
    expect(
        Chinese,
        fen,
        moves,
        Draw,
        Reason::MutualForbidden,
        Conduct::MixedAttacks,
        Conduct::PerpetualChase { origin: sq("e4") },
    );
    expect(
        Asian,
        fen,
        moves,
        Loss,
        loses(Color::Black, Conduct::PerpetualChase { origin: sq("e4") }),
        Conduct::Allowed,
        Conduct::PerpetualChase { origin: sq("e4") },
    );
}

/// Asian rule 35 (diagrams 86–89): a protected piece cannot be chased,
/// whatever the number of attackers. i0e0 adds a second rook on the black
/// horse e5, which the rook i5 protects. Chinese: two attackers against one
/// defender win the horse (R×N, r×R, R×r: +5), under-protected (少根), a
/// chase. Asian: protected, idle. Unprotected, it is a chase in both; with
/// one attacker and one defender, idle in both.
#[test]
fn asian_protection_is_not_counted() {
    let two_on_one = "2bakab2/9/9/9/R3n3r/9/9/9/9/3K4R w";
    assert_eq!(
        class(Chinese, two_on_one, "i0e0").to_string(),
        "chase (horse e5)"
    );
    assert_eq!(class(Asian, two_on_one, "i0e0"), MoveClass::Idle);
    let loose = "2bakab2/9/9/9/R3n4/9/9/9/9/3K4R w";
    let one_on_one = "2bakab2/9/9/9/4n3r/9/9/9/9/3K4R w";
    for book in RuleBook::ALL {
        assert_eq!(
            class(book, loose, "i0e0").to_string(),
            "chase (horse e5)",
            "{book}"
        );
        assert_eq!(class(book, one_on_one, "i0e0"), MoveClass::Idle, "{book}");
    }
}

/// Asian rules 15 and 26 and the Chinese value rule agree: a horse
/// attacking a rook chases it even when it is protected. The red horse
/// follows the black rook b7/a7, protected by the rook g7: Red loses in
/// both books.
#[test]
fn horse_on_a_protected_rook_chases_in_both_books() {
    for book in RuleBook::ALL {
        red_chases_and_loses(
            book,
            "5k3/9/1r4r2/2N6/9/9/9/9/9/3AKA3 w",
            "c6a5 b7a7 a5c6 a7b7 c6a5 b7a7 a5c6 a7b7",
            Loss,
            "b7",
        );
    }
}

/// Asian rule 28, diagram 67, RECONSTRUCTED (WXF `K6=5 c5=6 K5=4 c6=5`;
/// the research notes' FEN had the kings facing on the d file, so the
/// black king stands on e9 behind an advisor here). The red king follows
/// the unprotected black cannon: the king may chase, a draw. Chinese: an
/// attack by the king alone is idle, a draw too.
#[test]
fn king_may_chase_d67() {
    for book in RuleBook::ALL {
        allowed_draw(
            book,
            "4k4/4a4/9/9/9/9/9/4c4/3K5/9 w",
            "d1e1 e2f2 e1f1 f2e2 f1e1 e2f2 e1f1 f2e2 f1e1",
        );
    }
}

/// Asian rule 29, diagram 69, RECONSTRUCTED (WXF `P2=1 c9=8 P1=2 c8=9`):
/// the red pawn follows the unprotected black cannon: a pawn may chase, a
/// draw. Chinese: a pawn attack alone is idle while the other side makes
/// no forbidden move, a draw too.
#[test]
fn pawn_may_chase_d69() {
    for book in RuleBook::ALL {
        allowed_draw(
            book,
            "4k4/9/8c/7P1/9/9/9/9/9/3K5 w",
            "h6i6 i7h7 i6h6 h7i7 h6i6 i7h7 i6h6 h7i7 h6i6",
        );
    }
}

/// Where the books part on pawns: the pawn follows the black rook while
/// each rook move threatens mate. Chinese: Black's perpetual mate threat is
/// forbidden, so the pawn's attacks count and Red chases perpetually too:
/// both forbidden, a draw. Asian: mate threats and pawn chases are both
/// allowed (rules 9 and 29): a draw by allowed moves.
#[test]
fn pawn_attacks_count_only_in_the_chinese_book() {
    let fen = "5k3/9/1r7/P8/9/9/9/9/8r/4K4 w";
    let moves = "a6b6 b7a7 b6a6 a7b7 a6b6 b7a7 b6a6 a7b7";
    let v = expect(
        Chinese,
        fen,
        moves,
        Draw,
        Reason::MutualForbidden,
        Conduct::PerpetualChase { origin: sq("b7") },
        Conduct::PerpetualMateThreat,
    );
    assert!(v.cycle.unwrap().pawn_attacks_counted);
    let v = allowed_draw(Asian, fen, moves);
    assert!(!v.cycle.unwrap().pawn_attacks_counted);
}

/// Asian rule 19, diagram 39 (the position of Fairy-Stockfish's test
/// suite, not the page's image; the page's moves `R8+2 g6+5 R8-3 g5-6`).
/// The black rook f8 stands on the leg of the red horse g8, which would
/// check the king e9 if it left: it cannot move, and by rule 19 its attack
/// on the horse is no chase. Red's rook attacks it on every move (the black
/// advisor interposes on e8 and returns): Red loses.
///
/// Chinese: the rook's capture of the horse is legal, and each advisor
/// move makes it newly winning (f9e8 blocks the red rook's defence of g8,
/// e8f9 takes the cannon a8's screen away): a chase by blocking or
/// removing a defender (细则2). Both sides chase perpetually: a draw.
#[test]
fn pinned_by_a_horse_does_not_chase_d39() {
    let fen = "2baka1r1/C4rN2/9/1Rp1p4/9/9/4P4/9/4A4/4KA3 w";
    let moves = "b6b8 f9e8 b8b5 e8f9 b5b8 f9e8 b8b5 e8f9 b5b8";
    expect(
        Chinese,
        fen,
        moves,
        Draw,
        Reason::MutualForbidden,
        Conduct::PerpetualChase { origin: sq("f8") },
        Conduct::PerpetualChase { origin: sq("g8") },
    );
    red_chases_and_loses(Asian, fen, moves, Win, "f8");
}

/// Asian rule 18, diagram 37, RECONSTRUCTED (WXF `R8+1 c1+1 R8-1 c1-1`).
/// Black: a1a0 checks (screen: the elephant c0), a0a1 attacks the loose
/// horse f1 over the pawn c1: "one check one chase", allowed (rule 12).
/// Red's rook attacks the cannon on every move (b1 also blocks the attack
/// on f1, b0 also blocks the check): Red loses.
///
/// Chinese: Black's one check one chase is forbidden too, so both sides
/// make forbidden moves: a draw.
#[test]
fn rook_may_not_chase_a_checking_cannon_d37() {
    let fen = "5k3/9/9/9/9/9/9/9/c1p2N3/1RBK5 w";
    let moves = "b0b1 a1a0 b1b0 a0a1 b0b1 a1a0 b1b0 a0a1";
    expect(
        Chinese,
        fen,
        moves,
        Draw,
        Reason::MutualForbidden,
        Conduct::PerpetualChase { origin: sq("a1") },
        Conduct::MixedAttacks,
    );
    red_chases_and_loses(Asian, fen, moves, Loss, "a1");
}

/// Asian rule 6, diagrams 1–3, RECONSTRUCTED: perpetual check, with one
/// piece or several, loses in both books.
#[test]
fn perpetual_check_loses_in_both_books_d1_d2_d3() {
    let cases = [
        // D1: WXF `R2+1 k6+1 R2-1 k6-1`.
        (
            "5k3/7R1/9/9/9/9/9/9/9/4K4 w",
            "h8h9 f9f8 h9h8 f8f9 h8h9 f9f8 h9h8 f8f9",
        ),
        // D2: WXF `R4=5 k5=6 R5=4 k6=5`.
        (
            "4k4/9/9/9/5R3/9/9/9/9/3K5 w",
            "f5e5 e9f9 e5f5 f9e9 f5e5 e9f9 e5f5 f9e9",
        ),
        // D3: two rooks, WXF `R4+1 k4+1 R5=6 k4=5 R6=5 k5=4 R4-1 k4-1`.
        (
            "3k5/5R3/9/9/4R4/9/9/9/9/5K3 w",
            "f8f9 d9d8 e5d5 d8e8 d5e5 e8d8 f9f8 d8d9 f8f9 d9d8 e5d5 d8e8 d5e5 e8d8 f9f8 d8d9",
        ),
    ];
    for book in RuleBook::ALL {
        for (fen, moves) in cases {
            expect(
                book,
                fen,
                moves,
                Loss,
                Reason::PerpetualCheck { loser: Color::Red },
                Conduct::PerpetualCheck,
                Conduct::Allowed,
            );
        }
    }
}

/// Asian rule 17, diagram 29, RECONSTRUCTED (the protector, a black rook
/// on the cannon's rank, is the researcher's choice; WXF `R1=2 c8=9 R2=1
/// c9=8`): a rook may follow a protected cannon, a draw in both books.
#[test]
fn protected_cannon_may_be_followed_d29() {
    for book in RuleBook::ALL {
        allowed_draw(
            book,
            "3k5/9/2r4c1/9/9/9/9/8R/9/5K3 w",
            "i2h2 h7i7 h2i2 i7h7 i2h2 h7i7 h2i2 i7h7",
        );
    }
}

/// Asian rule 18, diagrams 32 and 33, RECONSTRUCTED: a rook may not chase
/// an unprotected cannon; Red loses in both books.
#[test]
fn unprotected_cannon_may_not_be_chased_d32_d33() {
    for book in RuleBook::ALL {
        // D32: WXF `R8=9 c1=5 R9=5 c5=1`; Black to move wins.
        red_chases_and_loses(
            book,
            "5k3/9/c8/9/9/9/9/1R7/9/3K5 w",
            "b2a2 a7e7 a2e2 e7a7 e2a2 a7e7 a2e2 e7a7 e2a2",
            Win,
            "a7",
        );
        // D33: WXF `R2=1 c9=8 R1=2 c8=9`; Red to move loses.
        red_chases_and_loses(
            book,
            "3k5/9/8c/9/9/9/9/7R1/9/5K3 w",
            "h2i2 i7h7 i2h2 h7i7 h2i2 i7h7 i2h2 h7i7",
            Loss,
            "i7",
        );
    }
}

/// Asian rule 36, diagrams 90 and 91, RECONSTRUCTED: a chase that is also
/// an offer to exchange is still a chase. D90 (WXF `R2=9 c1=2 R9=8 c2=1`):
/// on b2 the rook screens the cannons b0 and b7 (an exchange offer) while
/// it attacks b7 itself. D91 (WXF `R8=9 c1=2 R9=8 c2=1`): every rook move
/// both chases and offers the cannons' exchange. Asian: perpetual chase,
/// Red loses.
///
/// Chinese: Red loses too, but by a heavier effect: with a rook and a
/// cannon against the bare king, each red move leaves a mate in three
/// checks (perpetual mate threat, 长杀).
#[test]
fn exchange_offer_that_chases_is_a_chase_d90_d91() {
    let cases = [
        (
            "5k3/9/c8/9/9/9/9/7R1/9/1C2K4 w",
            "h2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2",
        ),
        (
            "5k3/9/c8/9/9/9/9/1R7/9/CC2K4 w",
            "b2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2",
        ),
    ];
    for (fen, moves) in cases {
        red_chases_and_loses(Asian, fen, moves, Win, "a7");
        expect(
            Chinese,
            fen,
            moves,
            Win,
            loses(Color::Red, Conduct::PerpetualMateThreat),
            Conduct::PerpetualMateThreat,
            Conduct::Allowed,
        );
    }
}

/// The book is part of the options every `*_with` entry point takes, and
/// the default is the Chinese book.
#[test]
fn the_default_book_is_chinese() {
    assert_eq!(RuleOptions::default().book, Chinese);
    assert_eq!(RuleOptions::with_book(Asian).book, Asian);
    assert_eq!("asian".parse::<RuleBook>(), Ok(Asian));
    assert_eq!(Asian.to_string(), "asian");
}

/// Asian rule 13, diagram 14, RECONSTRUCTED (an equivalent position, not
/// the diagram; WXF `R7+1 a5-4 R7-1 a4+5`): "one check one idle" is
/// allowed. a8a9 checks along the back rank, the advisor blocks on d9,
/// a9a8 attacks nothing; the advisor returns to e8. Chinese: a cycle with
/// an idle move is allowed too. A draw in both books.
#[test]
fn one_check_one_idle_is_allowed_d14() {
    let fen = "4k4/R3a4/9/9/9/9/9/9/9/3K5 w";
    let moves = "a8a9 e8d9 a9a8 d9e8 a8a9 e8d9 a9a8 d9e8";
    assert_eq!(class(Asian, fen, "a8a9"), MoveClass::Check);
    for book in RuleBook::ALL {
        allowed_draw(book, fen, moves);
    }
}

/// Asian rules 24 and 40, diagrams 51 and 102, RECONSTRUCTED (an
/// equivalent position, not the diagrams; WXF `R7=3 r6=7 R3=2 r7=8`):
/// the red rook follows the unprotected black rook along rank 2, and each
/// time the black rook could take it back: a perpetual offer to exchange
/// (or sacrifice), not a chase. A draw in both books (Chinese: an attack
/// on a piece of the same kind that can take back is an exchange offer,
/// idle).
#[test]
fn perpetual_exchange_offer_is_a_draw_d51_d102() {
    let fen = "3ak4/4a4/1r7/9/9/9/9/7R1/9/3AKA3 w";
    let moves = "h2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2";
    for book in RuleBook::ALL {
        assert_eq!(class(book, fen, "h2b2"), MoveClass::Idle, "{book}");
        allowed_draw(book, fen, moves);
    }
}

/// Asian rule 24, diagram 55, RECONSTRUCTED (an equivalent position, not
/// the diagram, which has horses; WXF `H2+4 h7+9 H4-2 h9-7`): a piece
/// attacking one of the same kind that cannot take back chases it. The
/// black rook is pinned to its king by the rook e2 (protected by the
/// elephant g0), so it cannot take the rook that follows it on a7/a6:
/// every red move is a chase of the same rook, Red loses. Black's rook
/// moves only renew its attack on the protected rook e2 (an exchange
/// offer). Chinese: the same (a same-kind target that cannot take back
/// because it is pinned is chased): Red loses in both books.
#[test]
fn same_kind_that_cannot_take_back_is_chased_d55() {
    let fen = "3aka3/9/4r4/R8/9/9/9/4R4/9/3K2B2 w";
    let moves = "a6a7 e7e6 a7a6 e6e7 a6a7 e7e6 a7a6 e6e7";
    red_chases_and_loses_in_both(fen, moves, Loss, "e7");
}

/// Asian rule 25, diagram 56, RECONSTRUCTED (an equivalent position, not
/// the diagram; WXF `P1=2 c5=8 P2=3 c8=7`, here with the pawn as the mount
/// and a crossed black pawn as the target): a cannon attack made only by
/// moving its mount is a chase. The red pawn steps between g6 and h6, each
/// time giving one of the cannons g8/h8 its screen against the crossed,
/// unprotected black pawn, which steps aside between h4 and g4. Neither
/// cannon moves, yet every red move chases the same pawn: Red loses.
/// Chinese: supplying the screen is a new attack too, and a crossed pawn
/// can be chased: Red loses as well.
#[test]
fn cannon_chase_by_moving_the_mount_d56() {
    let fen = "3aka3/6CC1/9/6P2/9/7p1/9/9/9/3K5 w";
    let moves = "g6h6 h4g4 h6g6 g4h4 g6h6 h4g4 h6g6 g4h4";
    for book in RuleBook::ALL {
        assert_eq!(
            class(book, fen, "g6h6").to_string(),
            "chase (pawn h4)",
            "{book}"
        );
        red_chases_and_loses(book, fen, moves, Loss, "h4");
    }
}

/// Asian rule 16, diagram 26, RECONSTRUCTED (an equivalent position, not
/// the diagram; WXF `C2=1 r9=8 C1=9 r1=2`, here the rooks stay and Black
/// shuffles its king): one cannon chasing two rooks in turn. The cannon
/// swings between a2 and i2, attacking the rook a7 or i7 over the pawn in
/// front of it; the rooks protect each other, which does not matter for a
/// cannon on a rook (rule 15). Asian: not the same piece on every move,
/// allowed (rules 16 and 32): a draw. Chinese: a chase on every move, of
/// one piece or several, is a perpetual chase (28.12), against Black's idle
/// king moves: Red loses.
#[test]
fn one_cannon_chasing_two_rooks_d26() {
    let fen = "5k3/9/r7r/p7p/9/9/9/C8/9/2BAKAB2 w";
    let moves = "a2i2 f9f8 i2a2 f8f9 a2i2 f9f8 i2a2 f8f9";
    expect(
        Chinese,
        fen,
        moves,
        Loss,
        loses(
            Color::Red,
            Conduct::PerpetualChaseOfSeveral {
                origins: squares(&["a7", "i7"]),
            },
        ),
        Conduct::PerpetualChaseOfSeveral {
            origins: squares(&["a7", "i7"]),
        },
        Conduct::Allowed,
    );
    allowed_draw(Asian, fen, moves);
}

/// Asian rule 33, diagrams 81 and 82, RECONSTRUCTED (an equivalent
/// position, not the diagrams, in which two rooks both move; WXF `R2+1
/// c9-2 R3+1 c9+1`): two pieces may not take turns to chase one piece.
/// a5e5 attacks the unprotected horse e7 with the rook (and doubles the
/// cannon e1's screens); e5a5 uncovers the cannon e1's attack on it over
/// the pawn e3. The attacker alternates, the victim is the same: a
/// perpetual chase, Red loses. Chinese: the same, a chase on every move
/// (28.12): Red loses.
#[test]
fn two_pieces_in_turn_on_one_piece_d81_d82() {
    let fen = "3ak4/9/4n4/9/R8/9/4P4/9/4C4/3K5 w";
    let moves = "a5e5 d9e8 e5a5 e8d9 a5e5 d9e8 e5a5 e8d9";
    for book in RuleBook::ALL {
        let first = class(book, fen, "a5e5");
        let v = first.victims();
        assert_eq!(v.len(), 1, "{book}: {first}");
        assert_eq!((v[0].square, v[0].attacker_square), (sq("e7"), sq("e5")));
        let second = class_after(book, fen, "a5e5 d9e8", "e5a5");
        let v = second.victims();
        assert_eq!(v.len(), 1, "{book}: {second}");
        assert_eq!((v[0].square, v[0].attacker_square), (sq("e7"), sq("e1")));
        red_chases_and_loses(book, fen, moves, Loss, "e7");
    }
}

/// Asian rule 7, diagram 4, RECONSTRUCTED (an equivalent position, not
/// the diagram; WXF `R5=4 c5=6 R4=5 c6=5`): each side resolves the check
/// and checks back. The rook e4/f4 and the cannon e6/f6 swap files: the
/// rook to f4 blocks the black rook f9 and leaves the red cannon e0 one
/// screen (the cannon e6); the cannon to f6 unblocks the e file and checks
/// the king f0 over the rook f4; the rook back to e4 checks directly; the
/// cannon back to e6 blocks it and uncovers the rook f9. Both sides check
/// on every move: a draw in both books (Chinese: two perpetual checks,
/// draw).
#[test]
fn mutual_check_is_a_draw_d4() {
    let fen = "4kr3/9/9/4c4/9/4R4/9/9/9/4CK3 w";
    let moves = "e4f4 e6f6 f4e4 f6e6 e4f4 e6f6 f4e4 f6e6";
    for book in RuleBook::ALL {
        expect(
            book,
            fen,
            moves,
            Draw,
            Reason::MutualPerpetualCheck,
            Conduct::PerpetualCheck,
            Conduct::PerpetualCheck,
        );
    }
}

/// Asian rule 8, diagram 5, RECONSTRUCTED (the page is not stored; an
/// equivalent position built from the rule's text): "two checks, one check
/// back". The red horse checks from c7 and from e6; the black king steps
/// to f8, out of the horse's reach and off the e file, which uncovers the
/// cannon e9 on the king e0 (over the pawn e3): a check back. The horse's
/// return to e6 blocks it and checks again; the king's return to e8 does
/// not check (it chases the horse e6, the cannon firing over the king).
/// Red checks on every move, Black on one of two: the perpetual checker,
/// Red, loses. Chinese: the same result (perpetual check against a side
/// that does not check perpetually loses), with Black's check and chase
/// counted as a forbidden mix that the perpetual check outweighs.
#[test]
fn two_checks_one_check_back_d5() {
    let fen = "4c4/4k4/9/4N4/9/9/4P4/9/9/4K4 w";
    let moves = "e6c7 e8f8 c7e6 f8e8 e6c7 e8f8 c7e6 f8e8";
    // Chinese: f8e8 also chases the loose horse e6 (the cannon e9 over the
    // king), so Black mixes a check and a chase, forbidden, but a lone
    // perpetual check still loses.
    expect(
        Chinese,
        fen,
        moves,
        Loss,
        Reason::PerpetualCheck { loser: Color::Red },
        Conduct::PerpetualCheck,
        Conduct::MixedAttacks,
    );
    // Asian: one check one chase is allowed (rule 12).
    expect(
        Asian,
        fen,
        moves,
        Loss,
        Reason::PerpetualCheck { loser: Color::Red },
        Conduct::PerpetualCheck,
        Conduct::Allowed,
    );
}

/// Asian rule 23, diagram 49, RECONSTRUCTED (an equivalent position, not
/// the diagram; WXF `R7-1 n2+1 R7-2 n1-2 R7+2 n2+1`): a rook chasing a
/// horse must change even if the horse chases back once. The red rook
/// follows the unprotected black horse between c7/c5 and b7/a5; the
/// horse's return to b7 attacks the rook on c5 (a chase: a horse on a
/// rook), its move to a5 attacks nothing: "one chase one idle", allowed.
/// Red chases the same horse on every move and loses, in both books
/// (Chinese: one chase one idle is allowed too).
#[test]
fn rook_chasing_a_horse_that_chases_back_once_d49() {
    let fen = "5k3/2R6/1n7/9/9/9/9/9/9/3K5 w";
    let moves = "c8c7 b7a5 c7c5 a5b7 c5c7 b7a5 c7c5 a5b7 c5c7 b7a5";
    for book in RuleBook::ALL {
        let c = class_after(book, fen, "c8c7 b7a5 c7c5", "a5b7");
        assert_eq!(c.to_string(), "chase (rook c5)", "{book}");
    }
    red_chases_and_loses_in_both(fen, moves, Loss, "a5");
}

/// Asian rule 23, diagram 50, RECONSTRUCTED (an equivalent position, not
/// the diagram; WXF `R6+2 n2+3 R6-2 n3-2`): the horse answers with one
/// check and one chase. b3c1 checks the king e2 (and attacks the rook
/// d3); the rook blocks on the horse's leg d1, attacking it again; c1b3
/// attacks the loose cannon c5. Asian: "one check one chase" is allowed
/// (rule 12), Red's perpetual chase of the horse is not: Red loses.
///
/// The page's moves force the block on the leg (a rook that moves from d3
/// to d1 can answer a horse's check from c1 in no other way), so the rook
/// on d1 is pinned by the horse it attacks, and the page still calls that
/// a chase: rule 19's exemption holds only for a pinned piece that does
/// not move. Chinese: Black's check and chase are a forbidden mix as
/// well, so both sides make forbidden moves: a draw.
#[test]
fn rook_chasing_a_horse_that_checks_and_chases_d50() {
    let fen = "2b1kab2/4a4/9/9/2C6/9/1n7/4K4/3R5/9 w";
    let moves = "d1d3 b3c1 d3d1 c1b3 d1d3 b3c1 d3d1 c1b3";
    red_chases_and_loses(Asian, fen, moves, Loss, "b3");
    expect(
        Chinese,
        fen,
        moves,
        Draw,
        Reason::MutualForbidden,
        Conduct::PerpetualChase { origin: sq("b3") },
        Conduct::MixedAttacks,
    );
}

/// Asian rule 27, diagram 64, RECONSTRUCTED (an equivalent position, not
/// the diagram; the page's moves `R8+4 r5+4 R8-4 r5-1 R8+1 r5+1 R8-1
/// r5-1`): a rook confined to a line by a cannon may not be chased by a
/// rook. The black rook stands between the red cannon e1 and the advisor
/// e8 in front of its king: leaving the e file would expose the king, so
/// it cannot take the red rook that follows it along ranks 3 and 4. That
/// attack is not an exchange offer but a chase, every move: Red loses. The
/// confined rook's own moves along its line are no chase: its attacks off
/// the line cannot be played, and the cannon e1 it sees is protected by
/// the advisor d0. Chinese: the same (a target that cannot take back
/// because it is pinned is chased; a capture must be legal): Red loses.
#[test]
fn confined_rook_may_not_be_chased_by_a_rook_d64() {
    let fen = "2b1k1b2/4a4/4r4/9/9/9/1R7/9/4C4/3A1K3 w";
    let moves = "b3b7 e7e3 b7b3 e3e4 b3b4 e4e3 b4b3 e3e4 b3b4 e4e3 b4b3 e3e4";
    for book in RuleBook::ALL {
        let c = class_after(book, fen, "b3b7 e7e3 b7b3", "e3e4");
        assert_eq!(c, MoveClass::Idle, "{book}");
    }
    red_chases_and_loses_in_both(fen, moves, Loss, "e4");
}

/// Asian rule 27, the confined rook protected on one of its squares,
/// RECONSTRUCTED (an equivalent position; the page's diagram 66 moves
/// `R3=2 r8=7 R2=3 r7=8`, whose verdict the stored page does not give).
/// The black rook is confined to rank 9 by the red cannon i9 (the advisor
/// f9 is the other screen before the king d9) and steps between h9 and
/// g9; the red rook follows it on the h and g files. On g9 the elephant
/// e7 protects it, so the attack there is no chase: Red's cycle has an
/// idle move, a draw in both books. Without the elephant every red move
/// chases the loose, confined rook: Red loses in both books.
#[test]
fn confined_rook_protected_on_one_square_may_be_chased_d66() {
    let moves = "g4h4 h9g9 h4g4 g9h9 g4h4 h9g9 h4g4 g9h9";
    let protected = "3k1a1rC/8P/3ab4/9/9/6R2/9/9/9/4K4 w";
    let loose = "3k1a1rC/8P/3a5/9/9/6R2/9/9/9/4K4 w";
    for book in RuleBook::ALL {
        allowed_draw(book, protected, moves);
        red_chases_and_loses(book, loose, moves, Loss, "h9");
    }
}

/// Asian rule 27, last sentence, RECONSTRUCTED (an equivalent position
/// with the page's kind of moves, `N6+7 r5-1 N7-6 r5+1`; diagram 63 has a
/// cannon as the chaser): a horse or a cannon may never perpetually chase
/// a confined rook, protected or not. The black rook, confined to the e
/// file as in diagram 64, is protected by the horse f5 on e3 and by the
/// horse c5 on e4; the red horse attacks it on both. A horse on a rook is
/// a chase whatever the protection (rules 15, 26 and the Chinese value
/// rule): Red loses in both books.
#[test]
fn confined_rook_may_not_be_chased_by_a_horse_d63() {
    let fen = "4k4/4a4/9/9/2n2n3/9/4r4/3N5/4C4/3A1K3 w";
    let moves = "d2c4 e3e4 c4d2 e4e3 d2c4 e3e4 c4d2 e4e3";
    red_chases_and_loses_in_both(fen, moves, Loss, "e3");
}

/// Asian rule 38, diagram 97, RECONSTRUCTED (an equivalent position, with
/// a rook where the diagram has a cannon; WXF `C9-1 k6-1 C9+1 k6+1`): a
/// perpetual threat to "check and capture" is a draw. Wherever the red
/// rook stands on the c file it threatens c9 (check on rank 9 and attack on
/// the loose horse b9) or c8 (the same on rank 8 and the horse b8); the
/// black king steps between f8 and f9. The threat wins a piece only
/// through a check, so the rook's moves are idle, not chases: a draw.
///
/// Chinese: rules.md counts winning a piece "by a sequence of checks" as a
/// chase, which the detector does not cover (module documentation, "Not
/// covered"); the Chinese verdict is left untested here rather than pinned
/// to that gap.
#[test]
fn threat_to_check_and_capture_is_a_draw_d97() {
    let fen = "1n7/1n3k3/9/9/2R6/9/9/9/9/3K5 w";
    let moves = "c5c4 f8f9 c4c5 f9f8 c5c4 f8f9 c4c5 f9f8";
    // The threats are real: with the king on f8, c8 checks it and attacks
    // the loose horse b8; with the king on f9, c9 does the same with b9.
    assert_eq!(class(Asian, fen, "c5c8"), MoveClass::Check);
    assert_eq!(
        class_after(Asian, fen, "c5c4 f8f9", "c4c9"),
        MoveClass::Check
    );
    assert_eq!(class(Asian, fen, "c5c4"), MoveClass::Idle);
    allowed_draw(Asian, fen, moves);
}

/// The WXF appendix, "Example of Perpetual Chase", RECONSTRUCTED (the
/// page's moves `P7=6 e1+3 P6=7 e3-1 P7=8 e5+3 P8=7 e3-5`, in the position
/// of the issue-15 gap-2 test with the red king on d0, so that the rook is
/// not pinned by the horse): Red's pawn keeps taking away or doubling the
/// screen of the black cannon c9 that protects the horse c1, so the red
/// rook d1, which never moves, newly wins the horse after every red move:
/// a perpetual chase by removing the defender, Red loses in both books.
/// (pyffish calls this cycle a draw: its chase detector does not see a
/// chase made by removing a defender. We follow the page.)
///
/// With the rook on the horse's leg in front of the king e0 (the setting
/// H.G. Muller describes for the appendix) the verdict is the same: see
/// `gap_chase_by_removing_a_defender`.
#[test]
fn keeping_a_defender_blocked_is_a_chase_appendix_a() {
    let fen = "2ca1k3/4a4/b3b4/2P5P/6p2/1c7/9/B4A2N/2nR5/2BA1K3 w";
    let moves = "c6d6 a7c5 d6c6 c5a7 c6b6 e7c5 b6c6 c5e7 c6d6 a7c5 d6c6 c5a7 c6b6 e7c5 \
                 b6c6 c5e7";
    red_chases_and_loses_in_both(fen, moves, Loss, "c1");
}

/// The WXF appendix, "Example of Non-Perpetual Chase", RECONSTRUCTED (an
/// equivalent position; WXF `R2+1 c8+1 R2-1 c8-1`): the red rook and the
/// black cannon share the h file with nothing between them, and the cannon
/// "does not try to escape or seek protection". Every rook move threatens
/// the loose cannon, but the threat already stood before the move (from
/// chase to chase, 细则2), so no move is a chase: a draw in both books.
#[test]
fn an_attack_the_target_ignores_is_no_chase_appendix_b() {
    let fen = "5k3/9/7c1/9/9/9/9/7R1/9/3K5 w";
    let moves = "h2h3 h7h6 h3h2 h6h7 h2h3 h7h6 h3h2 h6h7";
    for book in RuleBook::ALL {
        assert_eq!(class(book, fen, "h2h3"), MoveClass::Idle, "{book}");
        allowed_draw(book, fen, moves);
    }
}

/// Issue 27, kind 1: Asian rule 26, diagrams 61 and 62, RECONSTRUCTED (an
/// equivalent position; the page's moves `M5+3 n7+5 M3+5 n5-7` and
/// `G5-6 c8+1 G6+5 c8-1`): "When a Cannon keeps attacking a Rook,
/// disregard whether the Rook is protected or not, even if the Rook
/// doesn't move and both sides only move the cannon mount, it is a
/// perpetual chase." The red cannon b0 and the black rook b9 never move;
/// the red horse and the black cannon step on and off the b file between
/// them. Each red move leaves exactly one mount (the horse away, the
/// black cannon alone; the horse back, the cannon gone), so the cannon
/// newly attacks the rook every time; each black move makes two mounts or
/// none, a block, and with none the rook attacks the loose cannon b0 (one
/// chase and one idle move, allowed). Red chases perpetually: Red loses
/// in both books (pyffish: loss).
#[test]
fn cannon_chase_by_moving_the_mount_on_both_sides_d61_d62() {
    let fen = "1r2k4/9/9/1c7/1N7/9/9/9/4A4/1C1K1A3 w - - 0 1";
    let moves = "b5d4 b6a6 d4b5 a6b6 b5d4 b6a6 d4b5 a6b6";
    red_chases_and_loses_in_both(fen, moves, Loss, "b9");
}

/// Issue 27, kind 2: Asian rule 40, diagrams 101–103, RECONSTRUCTED (an
/// equivalent position; diagram 102's moves `R7=3 r6=7 R3=2 r7=8`, the
/// black rook following the red one from file to file): "Perpetually
/// offering to exchange or to sacrifice is a draw." Each black move puts
/// the rook f7 (protected by the horse e7) face to face with the loose red
/// rook; the red rook can take back, so the attack is an offer to
/// exchange, idle, though the red rook has no defender (an offer to
/// exchange is judged by whether the target can take back, not by
/// protection). Red's rook steps aside, idle. A draw in both books
/// (pyffish: draw).
#[test]
fn perpetual_offer_to_exchange_is_a_draw_d101_d103() {
    let fen = "4k4/9/4n1r2/9/9/9/6R2/9/9/3K5 w - - 0 1";
    let moves = "g3h3 g7h7 h3g3 h7g7 g3h3 g7h7 h3g3 h7g7";
    for book in RuleBook::ALL {
        let v = allowed_draw(book, fen, moves);
        let black_moves: Vec<_> = v
            .cycle
            .iter()
            .flat_map(|c| &c.moves)
            .filter(|m| m.mover == Color::Black)
            .collect();
        assert!(black_moves.iter().all(|m| m.class == MoveClass::Idle));
    }
}

/// Issue 27, kind 4: a mutual perpetual chase in an eight-ply cycle
/// without checks (WXF: a draw). Red's horse steps g7-e8 and back: on e8 it
/// attacks the black rook c7 itself, on g7 it is the screen over which the
/// red cannon i7 attacks it, so every red move makes a new attack on the
/// same rook, and a horse or cannon on a rook chases it protected or not.
/// Black does the same to the red rook g3 with two horses in turn: c3-e4
/// (screen for the cannon a3, then the horse's own attack) and g5-i4
/// (screen for the cannon g6, then the horse's own attack). Black's
/// four-move round against Red's two-move one makes the position repeat
/// only every eight plies. Both kings keep their defenders so that no move
/// threatens mate. Each side is judged over its own moves of the cycle:
/// both chase one same piece on every move, both are forbidden, a draw in
/// both books (pyffish: draw).
#[test]
fn mutual_perpetual_chase_in_an_eight_ply_cycle_is_a_draw() {
    let fen = "3aka3/9/2r3N1C/6c2/6n2/9/c1n3R2/4B4/4A4/3AK1B2 w - - 0 1";
    let round = "g7e8 c3e4 e8g7 g5i4 g7e8 e4c3 e8g7 i4g5";
    let moves = format!("{round} {round}");
    for book in RuleBook::ALL {
        let v = expect(
            book,
            fen,
            &moves,
            Draw,
            Reason::MutualForbidden,
            Conduct::PerpetualChase { origin: sq("c7") },
            Conduct::PerpetualChase { origin: sq("g3") },
        );
        assert!(v.explanation.contains("the last cycle has 8 plies"), "{v}");
    }
}

/// Issue 27, kind 5: one side threatens mate on every move, the other
/// checks on one of its two moves. Black's rooks g5 and a1 keep g5g0 mate
/// ready, so each black king move (f9e9 out of the red rook's check, e9f9
/// back) threatens mate; Red's rook checks from f6 and steps back to h6,
/// one check one idle move (allowed in both books, diagram 14). Chinese:
/// a perpetual mate threat is forbidden, Black loses. Asian (rules 9 and
/// 10): a mate threat is no attack, both sides' moves are allowed, a draw
/// (pyffish: draw).
#[test]
fn asian_mate_threats_against_one_check_in_two_is_a_draw() {
    let fen = "5k3/9/4b4/7R1/6r2/9/9/5A3/r8/4K4 w - - 0 1";
    let moves = "h6f6 f9e9 f6h6 e9f9 h6f6 f9e9 f6h6 e9f9";
    let threat = Conduct::PerpetualMateThreat;
    let reason = loses(Color::Black, threat);
    expect(Chinese, fen, moves, Win, reason, Conduct::Allowed, threat);
    let v = allowed_draw(Asian, fen, moves);
    assert!(v.explanation.contains("Asian rules 9 and 10"), "{v}");
}

// ----- issue 46: a chase is a threat the move creates ------------------------

/// Issue 46, mistake 1: an attack the move did not create. The red rook e4
/// stands beside the loose black cannon d4 for the whole cycle, pinned on
/// the e file by the black rook e8 against the king e0; the red horse steps
/// g2-e1 onto that file and back. On e1 it unpins the rook, so the capture
/// becomes legal, but the attack stood before the move and the cannon's
/// protection did not change: the horse's move makes no new attack (Asian:
/// Fairy-Stockfish's reading, the moved piece's new attacks and those it
/// discovers; Chinese: 细则2 counts a new attack, and unpinning the attacker
/// is none of the ways rules.md lists). Before issue 46 both books called
/// g2e1 "chase (cannon d4)".
#[test]
fn an_attack_that_stood_is_no_chase_when_the_move_unpins_the_attacker() {
    let fen = "2ba1kb2/4r4/9/9/9/3cR4/9/6N2/9/4K4 w - - 0 1";
    for book in RuleBook::ALL {
        assert_eq!(class(book, fen, "g2e1"), MoveClass::Idle, "{book}");
        let v = allowed_draw(book, fen, "g2e1 g9i7 e1g2 i7g9 g2e1 g9i7 e1g2 i7g9");
        assert!(v.explanation.contains("g2e1 马三退五 [idle]"), "{v}");
    }
}

/// Issue 46, mistake 2: a rook moving along a file toward an enemy rook.
/// The red rook c8 drops to c1, face to face with the black rook c0 that
/// it attacked from c8 already, and uncovers the cannon a8's check on the
/// king e8 (over the horse d8). The rook's attack on the rook stood before
/// the move, along the line it moved on, and the black rook could take
/// back: an offer to exchange (Asian rule 40, diagrams 100–103). That the
/// check keeps Black from taking back legally at once makes no chase
/// (Asian: the move is a check alone, which with the chase of the loose
/// horse d8 on the other move is one check one chase, allowed, rule 12).
/// Before issue 46 the Asian book read c8c1 as "check and chase (rook c0)".
#[test]
fn a_rook_facing_a_rook_along_its_line_is_no_chase_even_with_a_check() {
    let fen = "9/C1Rnk4/9/9/9/9/9/9/5K3/2r6 w - - 0 1";
    let moves = "c8c1 e8e9 c1c8 e9e8 c8c1 e8e9 c1c8 e9e8";
    let v = allowed_draw(Asian, fen, moves);
    let report = v.cycle.as_ref().expect("a cycle");
    let first = &report.moves[0];
    assert_eq!(first.class, MoveClass::Check, "{v}");
    assert!(first.check_victims.is_empty(), "{v}");
    assert_eq!(report.moves[2].class.to_string(), "chase (horse d8)", "{v}");
}

/// Issue 46, mistakes 3 and 4 (a cycle the differential generator
/// `tools/scripts/repetition_diff.py` made): the red rook g2 and the black
/// rook e2 attack each other across the rank for the whole cycle, an
/// exchange offer both ways. Red's cannon checks from d3 (f3d3) and steps
/// back to f3 (d3f3), where it uncovers the elephant c4's attack on the
/// rook e2 (a cheaper piece on a rook: a chase, rule 15). The check attacks
/// nothing new; the mutual attack of the two rooks stood all along and the
/// rook could take back but for the check. So Red makes one check and one
/// chase, allowed by the Asian book (rule 12): a draw, as pyffish says.
/// Before issue 46 Shuai read f3d3 as "check and chase (rook e2)", a
/// perpetual chase of the rook, and Red lost. The Chinese book forbids one
/// check one chase (mixed attacks): Red loses there, by that rule.
#[test]
fn a_mutual_rook_attack_that_stood_is_no_chase_in_a_check_cycle() {
    let fen = "2bk1a3/r8/3a4b/4p3p/p5P2/2B6/P1P2C2P/3Nr1R2/9/5K3 w - - 0 1";
    let moves = "f3d3 d9e9 d3f3 e9d9 f3d3 d9e9 d3f3 e9d9";
    let v = allowed_draw(Asian, fen, moves);
    let report = v.cycle.as_ref().expect("a cycle");
    assert_eq!(report.moves[0].class, MoveClass::Check, "{v}");
    assert!(report.moves[0].check_victims.is_empty(), "{v}");
    assert_eq!(report.moves[2].class.to_string(), "chase (rook e2)", "{v}");
    let mixed = Conduct::MixedAttacks;
    let reason = loses(Color::Red, mixed);
    expect(Chinese, fen, moves, Loss, reason, mixed, Conduct::Allowed);
}
