//! FEN input and output: round trips, accepted variants, and one test per
//! kind of rejection.

use shuai_board::{Color, FenError, Piece, PieceKind, Position, Square, START_FEN};

fn err(fen: &str) -> FenError {
    Position::from_fen(fen).expect_err(fen)
}

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

#[test]
fn round_trips() {
    for fen in [
        START_FEN,
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        "9/4k4/9/7P1/9/5p3/9/1R7/5K3/2R6 w - - 27 60",
        "6P2/9/3k4r/9/5n3/9/9/1p7/9/4K4 b - - 13 77",
    ] {
        assert_eq!(Position::from_fen(fen).unwrap().to_fen(), fen);
    }
}

#[test]
fn accepts_aliases_side_letters_and_missing_fields() {
    let canonical = Position::from_fen(START_FEN).unwrap();
    for fen in [
        "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - -",
        "  rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR\tw - - 0 1 ",
    ] {
        assert_eq!(Position::from_fen(fen).unwrap(), canonical, "{fen}");
    }
    let black = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b")
        .unwrap();
    assert_eq!(black.side_to_move(), Color::Black);
    assert_ne!(black.key(), canonical.key());
    // A fullmove number of 0 (seen from some GUIs) is read as 1.
    assert_eq!(
        Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 0")
            .unwrap()
            .fullmove_number(),
        1
    );
}

#[test]
fn each_problem_has_its_own_error() {
    assert_eq!(err(""), FenError::Empty);
    assert_eq!(err("4k4/9/9/9/9/9/9/9/3K5 w"), FenError::WrongRankCount(9));
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/3K4 w"),
        FenError::WrongFileCount { rank: 0, files: 8 }
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/3K6 w"),
        FenError::WrongFileCount { rank: 0, files: 10 }
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/3KX4 w"),
        FenError::UnknownPiece('X')
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/3K05 w"),
        FenError::UnknownPiece('0')
    );
    assert_eq!(
        err("9/9/9/9/9/9/9/9/9/3K5 w"),
        FenError::MissingKing(Color::Black)
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/9 w"),
        FenError::MissingKing(Color::Red)
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/4K4/3K5 w"),
        FenError::TooMany {
            piece: Piece::new(Color::Red, PieceKind::King),
            count: 2
        }
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/RRR6/9/9/3K5 w"),
        FenError::TooMany {
            piece: Piece::new(Color::Red, PieceKind::Rook),
            count: 3
        }
    );
    assert_eq!(
        err("4k4/9/9/9/pp1pp1pp1/9/9/9/9/3K5 w"),
        FenError::TooMany {
            piece: Piece::new(Color::Black, PieceKind::Pawn),
            count: 6
        }
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/K8 w"),
        FenError::KingOutsidePalace(sq("a0"))
    );
    assert_eq!(
        err("9/9/9/9/9/9/9/4k4/9/3K5 w"),
        FenError::KingOutsidePalace(sq("e2"))
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/3KA4 w"),
        FenError::UnreachablePoint {
            piece: Piece::new(Color::Red, PieceKind::Advisor),
            square: sq("e0")
        }
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/3KB4 w"),
        FenError::UnreachablePoint {
            piece: Piece::new(Color::Red, PieceKind::Elephant),
            square: sq("e0")
        }
    );
    assert_eq!(
        err("4k4/9/9/9/9/2b6/9/9/9/3K5 w"),
        FenError::OutsideItsHalf {
            piece: Piece::new(Color::Black, PieceKind::Elephant),
            square: sq("c4")
        }
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/P8/9/3K5 w"),
        FenError::PawnBehindStart(sq("a2"))
    );
    assert_eq!(
        err("4k4/p8/9/9/9/9/9/9/9/3K5 w"),
        FenError::PawnBehindStart(sq("a8"))
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/3K5 x"),
        FenError::BadSide("x".into())
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/3K5 w - - x 1"),
        FenError::BadCounter("x".into())
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 moves"),
        FenError::TrailingText("moves".into())
    );
    // Black's king is attacked by the red rook while Red is to move.
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/4R4/3K5 w"),
        FenError::OpponentInCheck(Color::Black)
    );
    // Kings facing each other on an open file: the side not to move is "in check".
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/4K4 w"),
        FenError::OpponentInCheck(Color::Black)
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/4K4 b"),
        FenError::OpponentInCheck(Color::Red)
    );
}

#[test]
fn errors_read_well() {
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/K8 w").to_string(),
        "king on a0 is outside its palace"
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/4R4/3K5 w").to_string(),
        "Black is not to move but its king is attacked"
    );
}

/// Composed positions: what a game cannot reach but the engine can play is
/// accepted by the lenient reader with one warning per point; what cannot
/// be played or judged is refused by both readers.
#[test]
fn lenient_reader_accepts_compositions_with_warnings() {
    let lenient = |fen: &str| Position::from_fen_lenient(fen);
    // A red pawn behind its start rank, a red advisor off its points, a
    // third black rook.
    let (pos, warnings) =
        lenient("r3k4/9/r8/9/9/9/r8/P8/9/3KA4 w - - 0 1").expect("a playable composition");
    assert_eq!(
        warnings,
        [
            FenError::TooMany {
                piece: Piece::new(Color::Black, PieceKind::Rook),
                count: 3
            },
            FenError::PawnBehindStart(sq("a2")),
            FenError::UnreachablePoint {
                piece: Piece::new(Color::Red, PieceKind::Advisor),
                square: sq("e0")
            },
        ]
    );
    assert!(warnings.iter().all(FenError::is_composition_only));
    assert_eq!(pos.to_fen(), "r3k4/9/r8/9/9/9/r8/P8/9/3KA4 w - - 0 1");
    // The engine can play it: legal moves exist, the pawn moves forward.
    let moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    assert!(moves.contains(&"a2a3".to_string()), "{moves:?}");
    assert_eq!(
        Position::from_fen("r3k4/9/r8/9/9/9/r8/P8/9/3KA4 w - - 0 1").unwrap_err(),
        FenError::TooMany {
            piece: Piece::new(Color::Black, PieceKind::Rook),
            count: 3
        }
    );
    // A position a game can reach gives no warning.
    assert_eq!(lenient(START_FEN).unwrap().1, []);
    // Still refused: no king, a king outside its palace, the side not to
    // move in check, malformed text, more pieces than a move list holds.
    for (fen, e) in [
        (
            "9/9/9/9/9/9/9/9/9/3K5 w",
            FenError::MissingKing(Color::Black),
        ),
        (
            "4k4/9/9/9/9/9/9/9/9/K8 w",
            FenError::KingOutsidePalace(sq("a0")),
        ),
        (
            "4k4/9/9/9/9/9/9/9/4R4/3K5 w",
            FenError::OpponentInCheck(Color::Black),
        ),
        // An advisor in the enemy palace or an elephant across the river
        // could take the enemy king, which the check test never looks for:
        // the search would lose a king.
        (
            "4k4/9/9/9/9/9/9/9/4a4/R3K4 w",
            FenError::OutsideItsHalf {
                piece: Piece::new(Color::Black, PieceKind::Advisor),
                square: sq("e1"),
            },
        ),
        (
            "4k4/9/9/9/9/9/9/2b6/9/4K4 w",
            FenError::OutsideItsHalf {
                piece: Piece::new(Color::Black, PieceKind::Elephant),
                square: sq("c2"),
            },
        ),
        ("4k4/9/9 w", FenError::WrongRankCount(3)),
        (
            "RRRRk4/RRRR5/RRR6/9/9/9/9/9/9/3K5 w",
            FenError::TooManyPieces(Color::Red),
        ),
    ] {
        assert_eq!(lenient(fen).unwrap_err(), e, "{fen}");
    }
}
