//! WXF notation, checked by hand against the board: every expected move
//! below was worked out from the diagram its FEN draws.

use super::{parse_move_text, read_games};
use shuai_board::Position;

fn at(fen: &str) -> Position {
    crate::fen::read_fen(fen).expect("a legal FEN").0
}

/// The ICCS move WXF `text` names in `fen`, or the message.
fn wxf(fen: &str, text: &str) -> String {
    match parse_move_text(&at(fen), text) {
        Ok(m) => m.to_string(),
        Err(e) => e,
    }
}

#[test]
fn a_game_in_wxf_reads_as_its_iccs() {
    // 炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 兵七进一 卒7进1, with
    // `=` for `.` once and a check mark once, as files have them.
    let text = "[Format \"WXF\"]\n1. C2.5 H8+7 2. H2+3 R9.8 3. R1=2 H2+3 4. P7+1 P7+1+ *\n";
    let game = read_games(text.as_bytes()).expect("reads").remove(0);
    assert!(game.problems.is_empty(), "{:?}", game.problems);
    let iccs: Vec<String> = game.main_line().iter().map(ToString::to_string).collect();
    assert_eq!(
        iccs,
        ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "c3c4", "g6g5"]
    );
    // An illegal move stops the game with its name and place: Black's
    // chariot on file 1 is behind its own pawn.
    let game = read_games(b"1. C2.5 R1+5 2. H2+3 *\n")
        .expect("reads")
        .remove(0);
    assert_eq!(game.main_line().len(), 1);
    assert_eq!(
        game.problems,
        [
            "line 1: ply 2 (Black): 'R1+5' in WXF notation: '车1进5' is not a legal move in this \
          position (read as 车1进5 for Black)"
        ]
    );
}

#[test]
fn two_pieces_on_a_file_are_front_and_rear() {
    // Red chariots on e3 and e1, Red's file 5.
    let fen = "3k5/9/9/9/9/9/4R4/9/4R4/5K3 w - - 0 1";
    assert_eq!(wxf(fen, "R+.3"), "e3g3");
    assert_eq!(wxf(fen, "+R.3"), "e3g3");
    assert_eq!(wxf(fen, "R--1"), "e1e0");
    assert_eq!(wxf(fen, "R-+1"), "e1e2");
    // Black cannons on b7 and b4 (Black's file 2): Black's front one is
    // the one further down the board.
    let fen = "4k4/9/1c7/9/9/1c7/9/9/9/3K5 b - - 0 1";
    assert_eq!(wxf(fen, "C+.5"), "b4e4");
    assert_eq!(wxf(fen, "C-+1"), "b7b6");
    // Horses and advisors by their file, as usual.
    assert_eq!(wxf(&Position::startpos().to_fen(), "H8+7"), "b0c2");
    assert_eq!(wxf(&Position::startpos().to_fen(), "A4+5"), "f0e1");
    assert_eq!(wxf(&Position::startpos().to_fen(), "E7+5"), "c0e2");
    assert!(
        wxf(&Position::startpos().to_fen(), "R+.3").contains("'R+.3' in WXF notation"),
        "no two chariots on a file"
    );
}

#[test]
fn stacked_pawns() {
    // Three Red pawns on c5, c6, c7 (Red's file 7).
    let fen = "3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w - - 0 1";
    assert_eq!(wxf(fen, "P+.6"), "c7d7");
    assert_eq!(wxf(fen, "P7.6"), "c6d6");
    assert_eq!(wxf(fen, "P-.6"), "c5d5");
    // Five on c5–c9: ++, P+, the middle by its file, P-, --.
    let fen = "2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1";
    assert_eq!(wxf(fen, "++.6"), "c9d9");
    assert_eq!(wxf(fen, "P+.6"), "c8d8");
    assert_eq!(wxf(fen, "P7.6"), "c7d7");
    assert_eq!(wxf(fen, "P-.6"), "c6d6");
    assert_eq!(wxf(fen, "--.6"), "c5d5");
    // Four on c6–c9: no middle one.
    let fen = "2P1k4/2P6/2P6/2P6/9/9/9/9/9/3K5 w - - 0 1";
    assert_eq!(wxf(fen, "++.6"), "c9d9");
    assert_eq!(wxf(fen, "P+.6"), "c8d8");
    assert_eq!(wxf(fen, "P-.6"), "c7d7");
    assert_eq!(wxf(fen, "--.6"), "c6d6");
    // Stacks on two files, three on c5–c7 (file 7) and two on g5–g6
    // (file 3): the file first.
    let fen = "3k5/9/2P6/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1";
    assert_eq!(wxf(fen, "7+.6"), "c7d7");
    assert_eq!(wxf(fen, "77.6"), "c6d6");
    assert_eq!(wxf(fen, "7-.6"), "c5d5");
    assert_eq!(wxf(fen, "3+.4"), "g6f6");
    assert_eq!(wxf(fen, "3-.4"), "g5f5");
    assert!(
        wxf(fen, "P+.6").contains("must name the file"),
        "{}",
        wxf(fen, "P+.6")
    );
    // Black's pawns, Black's numbering: two on Black's file 3 (c4, c3);
    // Black's front pawn is the lower one.
    let fen = "3k5/9/9/9/9/9/2p6/2p6/9/4K4 b - - 0 1";
    assert_eq!(wxf(fen, "P+.4"), "c2d2");
    assert_eq!(wxf(fen, "P-.4"), "c3d3");
    // The middle pawn in a game's movetext (`33.4` is no move number).
    let text = "[FEN \"3k5/9/2P6/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1\"]\n1. 77.6 *\n";
    let game = read_games(text.as_bytes()).expect("reads").remove(0);
    assert_eq!(game.main_line()[0].to_string(), "c6d6");
}
