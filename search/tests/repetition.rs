//! The repetition rules inside the search: a side that checks on every move
//! of a cycle loses, so the engine stops checking when that is the only way
//! to hold, and plays on when the opponent's only defence is a forbidden
//! perpetual.

use shuai_board::Position;
use shuai_search::score::{mate_in, RULE_BOUND, RULE_WIN};
use shuai_search::{Control, Limits, SearchResult, Searcher};

fn search_after(fen: &str, moves: &str, depth: u32) -> (Position, SearchResult) {
    let mut pos = Position::from_fen(fen).unwrap();
    for m in moves.split_whitespace() {
        let m = pos.parse_move(m).unwrap();
        pos.make_move(m);
    }
    let r = Searcher::new(16).search(&pos, &Limits::depth(depth), &Control::new(), &|_| {});
    (pos, r)
}

/// Red is a rook down and could check for ever with its rook (a8-a9-a8
/// against the king's e9-e8-e9). By chess rules that is a draw and the best
/// Red has; by Xiangqi rules the checker loses when the position comes round
/// the third time, so Red may give a check more but must leave the cycle
/// before that and accept the worse position.
#[test]
fn stops_a_forbidden_perpetual_check() {
    let fen = "4k4/R8/9/9/7rr/9/9/4B4/4A4/3AK1B2 w";
    let not_lost_but_worse = |r: &SearchResult| {
        assert!(r.score > -RULE_BOUND, "{}", r.score);
        assert!(
            r.score < -200,
            "Red is worse without the perpetual: {}",
            r.score
        );
    };
    let (_, r) = search_after(fen, "a8a9 e9e8 a9a8 e8e9", 8);
    not_lost_but_worse(&r);
    // One cycle and a half later, a9a8 would let e8e9 bring the start
    // position round the third time, with Red checking on every move.
    let (pos, r) = search_after(fen, "a8a9 e9e8 a9a8 e8e9 a8a9 e9e8", 8);
    let repeat = pos.parse_move("a9a8").unwrap();
    assert_ne!(r.best_move, Some(repeat), "score {}", r.score);
    not_lost_but_worse(&r);
}

/// Red threatens mate and Black has been checking with its rook along the
/// first ranks. Red, in check, keeps the king shuffling and lets the cycle
/// go on. Leaving the checks (a0d0, the defence along the d-file) loses to a
/// mate in four (c7c8!), so Black's best is to go on checking, which loses
/// by rule: Red's score is a rule win. (The search with reverse futility
/// pruning missed the mate until depth 10 and took a0d0 for a defence.)
#[test]
fn keeps_the_cycle_when_the_opponents_perpetual_is_forbidden() {
    let fen = "4k4/1R7/2R6/4p4/P8/9/9/9/r8/4K4 b";
    let (pos, r) = search_after(fen, "a1a0 e0e1 a0a1 e1e0 a1a0", 10);
    assert_eq!(r.best_move, pos.parse_move("e0e1").ok());
    assert!(
        (RULE_BOUND..=RULE_WIN).contains(&r.score),
        "a rule win for Red: {} {:?}",
        r.score,
        r.pv
    );
    // The way out of the cycle is mated.
    let (_, r) = search_after(fen, "a1a0 e0e1 a0a1 e1e0 a1a0 e0e1 a0d0", 8);
    assert_eq!(r.score, mate_in(7), "{:?}", r.pv);
    assert_eq!(r.best_move.map(|m| m.to_string()).as_deref(), Some("c7c8"));
}

/// Black to move with a forced perpetual available: after four cycles of
/// checks the side being checked sees the repetition as its win.
#[test]
fn repetition_by_the_opponents_checks_scores_as_a_win() {
    // Black's rook checks; the red king has only one square each time.
    let fen = "4k4/1R7/2R6/4p4/P8/9/9/9/r8/4K4 b";
    let (pos, r) = search_after(fen, "a1a0 e0e1 a0a1 e1e0 a1a0 e0e1 a0a1", 2);
    // Red to move, in check; e1e0 repeats the position a third time with
    // Black having checked on every move.
    assert_eq!(r.best_move, pos.parse_move("e1e0").ok());
    assert!(r.score >= RULE_BOUND && r.score <= RULE_WIN, "{}", r.score);
}

/// The rule book decides what a repetition in the tree is worth. In the
/// reference case fsf-1193 (WXF diagram 39) Red's rook attacks the black
/// rook f8 on every move, and the black advisor's moves make the rook's
/// capture of the horse g8 newly winning, but that rook stands on the
/// horse's leg in front of its king. Under the Asian rules (rule 19) the
/// held rook does not counter-chase, so Red's perpetual chase loses and
/// Black, to move, repeats the position a third time (the game before the
/// root holds two) and scores a rule win; under the Chinese rules both
/// sides chase perpetually, a draw.
#[test]
fn repetition_scores_follow_the_rule_book() {
    use shuai_board::rules::RuleBook;
    let fen = "2baka1r1/C4rN2/9/1Rp1p4/9/9/4P4/9/4A4/4KA3 w - - 0 1";
    let moves = "b6b8 f9e8 b8b9 e8f9 b9b8 f9e8 b8b9 e8f9 b9b8 f9e8 b8b9";
    let mut pos = Position::from_fen(fen).unwrap();
    for m in moves.split_whitespace() {
        let m = pos.parse_move(m).unwrap();
        pos.make_move(m);
    }
    let search = |book| {
        let mut s = Searcher::new(16);
        s.set_rule_book(book);
        s.search(&pos, &Limits::depth(6), &Control::new(), &|_| {})
    };
    let asian = search(RuleBook::Asian);
    assert!((RULE_BOUND..=RULE_WIN).contains(&asian.score), "{asian:?}");
    assert_eq!(asian.best_move, pos.parse_move("e8f9").ok());
    let chinese = search(RuleBook::Chinese);
    assert!(chinese.score.abs() < RULE_BOUND, "{chinese:?}");
}
