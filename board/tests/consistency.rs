//! Randomised self-consistency of the board: incremental keys against a
//! fresh recomputation, make/unmake restoring the position exactly, the
//! generator's move classes agreeing with each other (and the unverified
//! generation with the verified one), and `gives_check`,
//! `is_legal` and `in_check` agreeing with playing the move.

use shuai_board::{GenKind, Move, MoveList, Position, Rng, START_FEN};
use std::collections::HashSet;

fn set(list: &MoveList) -> HashSet<Move> {
    list.iter().copied().collect()
}

fn check_node(pos: &mut Position) {
    assert_eq!(pos.key(), pos.compute_key(), "{pos:?}");
    let all = pos.legal_moves();
    let caps = pos.legal_captures();
    let quiets = pos.legal_quiets();
    assert_eq!(all.len(), caps.len() + quiets.len(), "{pos:?}");
    assert_eq!(set(&all), &set(&caps) | &set(&quiets), "{pos:?}");
    assert!(caps.iter().all(|m| pos.piece_at(m.to()).is_some()));
    assert!(quiets.iter().all(|m| pos.piece_at(m.to()).is_none()));
    let evasions = pos.check_evasions();
    if pos.in_check() {
        assert_eq!(set(&evasions), set(&all));
    } else {
        assert!(evasions.is_empty());
    }
    let before = pos.clone();
    let us = pos.side_to_move();
    for &m in all.iter() {
        assert!(pos.is_legal(m), "{m} in {pos:?}");
        let gives = pos.gives_check(m);
        let key_after = pos.key_after(m);
        pos.make_move(m);
        assert!(
            !pos.king_attacked(us),
            "{m} leaves the king attacked in {before:?}"
        );
        assert_eq!(gives, pos.in_check(), "gives_check({m}) in {before:?}");
        assert_eq!(pos.key(), pos.compute_key());
        assert_eq!(pos.key(), key_after, "key_after({m}) in {before:?}");
        pos.unmake_move();
        assert_eq!(*pos, before);
    }
    // The unverified list, filtered by `legal_given`, is the legal list in
    // the same order (the search relies on the order for its node counts).
    let shield = pos.king_shield();
    for kind in [GenKind::All, GenKind::Captures, GenKind::Quiets] {
        let (mut verified, mut unverified) = (MoveList::new(), MoveList::new());
        pos.generate_with_shield(kind, &shield, &mut verified);
        pos.generate_unverified(kind, &shield, &mut unverified);
        let filtered: Vec<Move> = unverified
            .iter()
            .copied()
            .filter(|&m| pos.legal_given(&shield, m))
            .collect();
        assert_eq!(filtered, verified.as_slice(), "{kind:?} in {pos:?}");
        for &m in unverified.iter() {
            assert_eq!(
                pos.legal_given(&shield, m),
                pos.is_legal(m),
                "{m} in {pos:?}"
            );
        }
    }
    // Every pseudo-legal move the filter dropped really is illegal.
    let mut pseudo = MoveList::new();
    pos.generate_pseudo(GenKind::All, &mut pseudo);
    let legal = set(&all);
    for &m in pseudo.iter().filter(|m| !legal.contains(m)) {
        assert!(!pos.is_legal(m));
        pos.make_move(m);
        assert!(
            pos.king_attacked(us),
            "{m} was dropped but is legal in {before:?}"
        );
        pos.unmake_move();
    }
}

#[test]
fn random_games_stay_consistent() {
    let mut rng = Rng::new(0x5EED_0001);
    let mut nodes = 0;
    for game in 0..120 {
        let mut pos = Position::from_fen(START_FEN).unwrap();
        let start = pos.clone();
        let plies = 40 + game % 160;
        for _ in 0..plies {
            check_node(&mut pos);
            nodes += 1;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Prefer captures half the time so games reach sparse endings.
            let caps = pos.legal_captures();
            let m = if !caps.is_empty() && rng.index(2) == 0 {
                caps[rng.index(caps.len())]
            } else {
                moves[rng.index(moves.len())]
            };
            pos.make_move(m);
        }
        while pos.ply_count() > 0 {
            pos.unmake_move();
        }
        assert_eq!(pos, start);
        assert_eq!(pos.to_fen(), START_FEN);
    }
    assert!(nodes > 10_000, "{nodes}");
}

#[test]
fn null_move_flips_only_the_side() {
    let mut pos = Position::startpos();
    let before = pos.clone();
    pos.make_null_move();
    assert_ne!(pos.key(), before.key());
    assert_eq!(pos.key(), pos.compute_key());
    assert_eq!(pos.legal_moves().len(), 44);
    pos.unmake_null_move();
    assert_eq!(pos, before);
}

#[test]
fn pinned_pieces() {
    // Two red pieces between the king and a black rook: neither alone is pinned.
    let pos = Position::from_fen("3k5/4r4/9/9/4C4/9/4N4/9/9/4K4 w").unwrap();
    let pinned: Vec<String> = pos
        .pinned(shuai_board::Color::Red)
        .into_iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(pinned, Vec::<String>::new());
    let pos = Position::from_fen("3k5/4r4/9/9/9/9/4N4/9/9/4K4 w").unwrap();
    let pinned: Vec<String> = pos
        .pinned(shuai_board::Color::Red)
        .into_iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(pinned, vec!["e3"]);
    // Both screens of a cannon line are pinned: removing either gives check.
    let pos = Position::from_fen("3k5/4c4/9/9/4R4/9/4N4/9/9/4K4 w").unwrap();
    let pinned: Vec<String> = pos
        .pinned(shuai_board::Color::Red)
        .into_iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(pinned, vec!["e3", "e5"]);
    // A piece on a horse's leg next to the king.
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/3n5/4A4/4K4 w").unwrap();
    let pinned: Vec<String> = pos
        .pinned(shuai_board::Color::Red)
        .into_iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(pinned, vec!["e1"]);
}

#[test]
fn flying_general_is_illegal() {
    // Moving the only piece between the kings off the file is illegal.
    let pos = Position::from_fen("3k5/9/9/9/9/4k4/9/9/9/4K4 w").err();
    assert!(pos.is_some(), "two black kings are rejected");
    let pos = Position::from_fen("4k4/9/9/9/4C4/9/9/9/9/4K4 w").unwrap();
    assert!(!pos.is_legal(pos.parse_move("e5d5").map_or(Move::NULL, |m| m)));
    assert!(pos.parse_move("e5d5").is_err());
    assert!(pos.parse_move("e5e8").is_ok());
    // The king may not step onto a file facing the other king.
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w").unwrap();
    assert!(pos.parse_move("e0d0").is_err());
    assert!(pos.parse_move("e0f0").is_ok());
}

#[test]
fn earlier_occurrences_find_repetitions_back_to_the_last_capture_or_null() {
    let mut pos = Position::startpos();
    let play = |pos: &mut Position, moves: &str| {
        for m in moves.split_whitespace() {
            let m = pos.parse_move(m).unwrap();
            pos.make_move(m);
        }
    };
    play(&mut pos, "b0c2 b9c7 c2b0 c7b9");
    assert_eq!(pos.earlier_occurrences().collect::<Vec<_>>(), vec![4]);
    play(&mut pos, "b0c2 b9c7 c2b0 c7b9");
    assert_eq!(pos.earlier_occurrences().collect::<Vec<_>>(), vec![4, 8]);
    // A null move cuts the chain: nothing before it can repeat.
    pos.make_null_move();
    pos.make_null_move();
    assert_eq!(pos.earlier_occurrences().count(), 0);
    pos.unmake_null_move();
    pos.unmake_null_move();
    assert_eq!(pos.earlier_occurrences().count(), 2);
    // So does a capture.
    play(&mut pos, "h2h9 i9h9");
    assert_eq!(pos.earlier_occurrences().count(), 0);
}

/// Every legal move of every position in random games, classified under
/// both rule books, without a panic. The capture-heavy games reach the
/// thin positions where a king stands next to loose pieces; seed 1 met
/// the first crash of the exchange judge (a king taking a protected piece)
/// in its 45th game.
#[test]
fn classifying_any_move_of_random_games_never_panics() {
    use shuai_board::rules::{classify_move_with, RuleBook, RuleOptions};
    let mut rng = Rng::new(1);
    for _ in 0..100 {
        let mut pos = Position::from_fen(START_FEN).unwrap();
        for _ in 0..200 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            for &m in moves.iter() {
                for book in [RuleBook::Chinese, RuleBook::Asian] {
                    let opts = RuleOptions {
                        book,
                        ..RuleOptions::default()
                    };
                    classify_move_with(&pos, m, &opts);
                }
            }
            let captures = pos.legal_captures();
            let m = if !captures.is_empty() && rng.below(3) == 0 {
                captures[rng.below(captures.len() as u64) as usize]
            } else {
                moves[rng.below(moves.len() as u64) as usize]
            };
            pos.make_move(m);
        }
    }
}
