use super::*;
use crate::game::read_games;

/// The moves of a line in Chinese notation, played from the start.
fn line(text: &str) -> Vec<Move> {
    let mut pos = Position::startpos();
    text.split_whitespace()
        .map(|t| {
            let mv = pos
                .parse_chinese(t)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            pos.make_move(mv);
            mv
        })
        .collect()
}

fn name(moves: &[Move]) -> String {
    classify(&Position::startpos(), moves).map_or("none".to_string(), |o| o.to_string())
}

fn game_file(file: &str) -> String {
    let path = format!("{}/tests/data/games/{file}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).expect("test data");
    let game = read_games(&bytes).expect("reads").remove(0);
    classify(&game.start, &game.main_line()).map_or("none".to_string(), |o| o.to_string())
}

#[test]
fn every_opening_of_the_table_plays_and_codes_are_ecco_codes() {
    for &(code, name, moves) in ecco::TABLE {
        let entry = play_out(code, name, moves).unwrap_or_else(|e| panic!("{e}"));
        let bytes = code.as_bytes();
        assert!(
            bytes.len() == 3
                && (b'A'..=b'E').contains(&bytes[0])
                && bytes[1..].iter().all(u8::is_ascii_digit),
            "{code}"
        );
        assert!(!entry.points.is_empty() && !name.is_empty(), "{code}");
    }
    assert_eq!(entries().len(), ecco::TABLE.len());
    // Its own moves name each opening (a longer one sharing them would
    // name more points).
    // (Those with a pass cannot be a game's moves as they stand.)
    for &(code, name, moves) in ecco::TABLE.iter().filter(|t| !t.2.contains("--")) {
        assert_eq!(
            classify(&Position::startpos(), &line(moves)).map(|o| o.code),
            Some(code),
            "{code} {name}"
        );
    }
}

#[test]
fn names_the_openings_of_the_real_games() {
    // 1. 兵七进一 象3进5 2. 炮八平六 卒7进1 3. 马八进七: the mirror image
    // of 兵三进一 象7进5 … 马二进三, 仙人指路进右马对飞象.
    assert_eq!(
        game_file("xqf13-hu-ronghua-tao-hanming-1998.xqf"),
        "E02 仙人指路进右马对飞象"
    );
    // 炮二平五 马8进7 马二进三 车9平8 兵三进一 马2进3: the screen horses
    // against the central cannon, the chariot on h9 where the horse was.
    assert_eq!(
        game_file("xqf13-opening-variations.xqf"),
        "C00 中炮对屏风马"
    );
    // 1. 相三进五 炮8平6: the elephant opening against the left cannon to
    // the advisor's corner; 马8进7 and 卒3进1 later name no more points.
    assert_eq!(game_file("dhtmlxq-wxf-116.html"), "A20 飞相对左士角炮");
    // Xu Yinchuan gave nine pieces (five pawns, the advisors and the
    // elephants): the game starts elsewhere and has no ECCO opening, nor
    // have endgame studies.
    assert_eq!(game_file("eleeye-sample.pgn"), "none");
    assert_eq!(game_file("eleeye-sample.xqf"), "none");
    assert_eq!(game_file("xqf11-endgame.xqf"), "none");
}

#[test]
fn transpositions_and_mirror_images_are_the_same_opening() {
    let c70 = "C70 五七炮对屏风马进３卒";
    assert_eq!(
        name(&line(
            "炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 马八进九 卒3进1 炮八平七 马3进2"
        )),
        c70
    );
    // The same position by another order.
    assert_eq!(
        name(&line(
            "炮二平五 卒3进1 马八进九 马8进7 马二进三 马2进3 炮八平七 车9平8"
        )),
        c70
    );
    // The mirror image: 炮八平五 and the horses the other way round.
    assert_eq!(
        name(&line("炮八平五 马2进3 马八进七 马8进7 车九平八 车1平2")),
        "C00 中炮对屏风马"
    );
    assert_eq!(name(&line("炮二平五 马2进3")), "B01 中炮对进右马");
    assert_eq!(name(&line("炮八平五 马8进7")), "B01 中炮对进右马");
    // Red's first move is the horse: the group is the horse opening's
    // (ECCO classifies by the first move), whatever follows.
    assert_eq!(name(&line("马二进三 马2进3 炮八平五 马8进7")), "A40 起马局");
    // A first move that begins no opening of the table.
    assert_eq!(name(&line("兵五进一 卒5进1")), "A00 非常见开局");
    assert_eq!(name(&[]), "none");
}
