//! Game files and reviews for the page, from the engine's own code: the
//! readers of [`shuai_engine::game`] (XQF, PGN, DhtmlXQ) and the judging
//! and graph of [`shuai_engine::review`], the ones `shuai review` uses, so
//! the page and the command line agree.
//!
//! - [`read`]: a file's bytes → `{"ok":true,"format":…,"games":[{"title":…,
//!   "tags":[[name,value]…],"start":FEN,"comment":…|null,"moves":[{"iccs":…,
//!   "chinese":…,"comment":…|null}…],"variations":N,"problems":[…]}…]}`: the
//!   main line of each game (`variations` counts the moves off it;
//!   `problems` names the illegal moves that ended a line, with their
//!   place), or `{"ok":false,"error":…,"place":{"byte":N}|{"line":N},
//!   "message":…}` for a file that cannot be read.
//! - [`review`]: `review <startpos | fen FEN> moves m1 … searches S0 S1 …`,
//!   then on a second line the game's title, on a third the search
//!   settings (for the PGN's `Annotator`), then the file's tags one a line
//!   as `name<TAB>value`; each `S` is one position's search as
//!   `cp:<N>:<line>` or `mate:<N>:<line>` (the UCI score for the side to
//!   move; `line` the best move and the engine's line after it in ICCS,
//!   joined by commas, or `-`), `S0` before the first move. The answer:
//!   `{"ok":true,"thresholds":{…},"moves":[…],"redChances":[…],
//!   "summary":{"red":{…},"black":{…}},"opening":{"code","name"}|null,
//!   "svg":…,"pgn":…}`, every move with its mark and loss, the engine's
//!   choice, Red's score and W/D/L after it, the game's ECCO opening, and
//!   the annotated PGN `shuai review --pgn` writes; fewer searches than
//!   positions judge the moves they cover.

use crate::rules::{error, quote};
use shuai_board::{Color, Move, Position};
use shuai_engine::game::{read_games, Game, Place};
use shuai_engine::opening::classify;
use shuai_engine::protocol::format::{Dialect, Format};
use shuai_engine::protocol::position::parse_position;
use shuai_engine::review::{
    annotated_pgn, graph_svg, judge, number, red_chances, Reviewed, Searched, BLUNDER, INACCURACY,
    MISTAKE,
};
use shuai_engine::wdl::{attackers, wdl};
use shuai_search::score::{mate_in, mated_in, DisplayScore};

/// Reads a game file's bytes (see the module documentation).
pub fn read(bytes: &[u8]) -> String {
    let games = match read_games(bytes) {
        Ok(g) => g,
        Err(e) => {
            let place = match e.place {
                Place::Byte(b) => format!("{{\"byte\":{b}}}"),
                Place::Line(l) => format!("{{\"line\":{l}}}"),
            };
            return format!(
                "{{\"ok\":false,\"error\":{},\"place\":{place},\"message\":{}}}",
                quote(&e.to_string()),
                quote(&e.message)
            );
        }
    };
    let format = games.first().map_or("PGN", |g| g.format.name());
    let list: Vec<String> = games.iter().map(game_json).collect();
    format!(
        "{{\"ok\":true,\"format\":{},\"games\":[{}]}}",
        quote(format),
        list.join(",")
    )
}

fn optional(text: Option<&str>) -> String {
    text.map_or("null".to_string(), quote)
}

fn game_json(game: &Game) -> String {
    let tags: Vec<String> = game
        .tags
        .iter()
        .map(|(k, v)| format!("[{},{}]", quote(k), quote(v)))
        .collect();
    let mut pos = game.start.clone();
    let main = game.main_nodes();
    let moves: Vec<String> = main
        .iter()
        .map(|&i| {
            let node = &game.nodes[i];
            let chinese = pos.to_chinese(node.mv);
            pos.make_move(node.mv);
            format!(
                "{{\"iccs\":{},\"chinese\":{},\"comment\":{}}}",
                quote(&node.mv.to_string()),
                quote(&chinese),
                optional(node.comment.as_deref())
            )
        })
        .collect();
    let problems: Vec<String> = game.problems.iter().map(|p| quote(p)).collect();
    format!(
        "{{\"title\":{},\"tags\":[{}],\"start\":{},\"comment\":{},\"moves\":[{}],\"variations\":{},\"problems\":[{}]}}",
        quote(&game.title()),
        tags.join(","),
        quote(&game.start.to_fen()),
        optional(game.comment.as_deref()),
        moves.join(","),
        game.move_count() - main.len(),
        problems.join(",")
    )
}

const ZERO_BASED_UCI: Format = Format {
    dialect: Dialect::Uci,
    one_based: false,
};

/// A search score from its UCI form (`cp` or `mate` and the number).
fn score_of(kind: &str, n: i32) -> Option<i32> {
    match kind {
        "cp" => Some(n),
        // Mate in n moves is mate in 2n-1 plies; mated in n, 2n plies.
        "mate" if n > 0 => Some(mate_in(2 * n as usize - 1)),
        "mate" => Some(mated_in(2 * n.unsigned_abs() as usize)),
        _ => None,
    }
}

/// One position's search, `cp:<N>:<line>` or `mate:<N>:<line>`, the line
/// the best move and the moves after it joined by commas (`h2e2,h9g7`),
/// or `-`. The line stops at a move that is not legal where it stands.
fn parse_search(pos: &Position, word: &str) -> Result<Searched, String> {
    let bad = || format!("a search is 'cp:N:moves' or 'mate:N:moves', not '{word}'");
    let mut parts = word.split(':');
    let (Some(kind), Some(n), Some(line), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(bad());
    };
    let n: i32 = n.parse().map_err(|_| bad())?;
    let score = score_of(kind, n).ok_or_else(bad)?;
    let mut at = pos.clone();
    let mut pv = Vec::new();
    for text in line.split(',') {
        match at.parse_move(text) {
            Ok(m) if at.is_legal(m) => {
                at.make_move(m);
                pv.push(m);
            }
            _ => break,
        }
    }
    Ok(Searched::new(pos, score, pv.first().copied(), pv))
}

/// Reviews a game from its positions' searches (see the module
/// documentation).
pub fn review(text: &str) -> String {
    let mut lines = text.split('\n');
    let query = lines.next().unwrap_or("");
    let title = lines.next().unwrap_or("");
    let settings = lines.next().unwrap_or("").trim();
    // The game file's tags, for the annotated PGN.
    let tags: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once('\t'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    let words: Vec<&str> = query.split_whitespace().collect();
    let Some((&"review", args)) = words.split_first() else {
        return error("expected 'review <position> moves … searches …'");
    };
    let find = |key: &str| args.iter().position(|w| w.eq_ignore_ascii_case(key));
    let searches_at = find("searches").unwrap_or(args.len());
    let moves_at = find("moves").filter(|&m| m < searches_at);
    let setup_end = moves_at.unwrap_or(searches_at);
    let start = match parse_position(&args[..setup_end], ZERO_BASED_UCI) {
        Ok(p) => p.position,
        Err(e) => return error(&e),
    };
    let move_words = moves_at.map_or(&[][..], |m| &args[m + 1..searches_at]);
    let search_words = args.get(searches_at + 1..).unwrap_or(&[]);
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(move_words.len());
    let mut searches = Vec::with_capacity(search_words.len());
    for (i, w) in search_words.iter().enumerate() {
        match parse_search(&pos, w) {
            Ok(s) => searches.push(s),
            Err(e) => return error(&e),
        }
        let Some(mw) = move_words.get(i) else {
            break;
        };
        match pos.parse_move(mw) {
            Ok(m) if pos.is_legal(m) => {
                pos.make_move(m);
                moves.push(m);
            }
            _ => return error(&format!("ply {}: illegal move {mw}", i + 1)),
        }
    }
    let reviewed = judge(&start, &moves, &searches);
    let red = red_chances(&start, &moves, &searches);
    let svg = graph_svg(title.trim(), &start, &reviewed, &red);
    let moves_json: Vec<String> = reviewed
        .iter()
        .enumerate()
        .map(|(i, r)| move_json(i, r, &start))
        .collect();
    let chances: Vec<String> = red.iter().map(u32::to_string).collect();
    let played: Vec<Move> = reviewed.iter().map(|r| r.played).collect();
    let opening = classify(&start, &played).map_or("null".to_string(), |o| {
        format!("{{\"code\":{},\"name\":{}}}", quote(o.code), quote(o.name))
    });
    let pgn = annotated_pgn(&tags, &start, &reviewed, settings);
    format!(
        "{{\"ok\":true,\"thresholds\":{{\"inaccuracy\":{INACCURACY},\"mistake\":{MISTAKE},\"blunder\":{BLUNDER}}},\
         \"moves\":[{}],\"redChances\":[{}],\"summary\":{{\"red\":{},\"black\":{}}},\"opening\":{opening},\
         \"svg\":{},\"pgn\":{}}}",
        moves_json.join(","),
        chances.join(","),
        summary(&reviewed, Color::Red),
        summary(&reviewed, Color::Black),
        quote(&svg),
        quote(&pgn)
    )
}

/// A score from Red's view: `{"cp":N}` or `{"mate":N}` (N > 0: Red mates).
fn score_json(score: i32) -> String {
    match DisplayScore::from_score(score) {
        DisplayScore::Centipawns(cp) => format!("{{\"cp\":{cp}}}"),
        DisplayScore::Mate(n) => format!("{{\"mate\":{n}}}"),
    }
}

fn move_json(i: usize, r: &Reviewed, start: &Position) -> String {
    let red = |s: i32| if r.mover == Color::Red { s } else { -s };
    let mut after = r.before.clone();
    after.make_move(r.played);
    // Red's W/D/L after the move, per mille.
    let w = wdl(r.score_after, attackers(&after));
    let (win, loss) = match r.mover {
        Color::Red => (w.win, w.loss),
        Color::Black => (w.loss, w.win),
    };
    let best = r.search.best.filter(|&b| b != r.played);
    format!(
        "{{\"ply\":{},\"number\":{},\"iccs\":{},\"chinese\":{},\"mover\":{},\"mark\":{},\"loss\":{},\"cpLoss\":{},\
         \"score\":{},\"wdl\":[{win},{},{loss}],\"best\":{},\"bestChinese\":{},\"bestScore\":{}}}",
        i + 1,
        quote(&number(&r.before, i, start)),
        quote(&r.played.to_string()),
        quote(&r.before.to_chinese(r.played)),
        quote(match r.mover {
            Color::Red => "red",
            Color::Black => "black",
        }),
        quote(r.mark()),
        r.loss,
        r.cp_loss,
        score_json(red(r.score_after)),
        w.draw,
        best.map_or("null".to_string(), |b| quote(&b.to_string())),
        best.map_or("null".to_string(), |b| quote(&r.before.to_chinese(b))),
        score_json(red(r.search.score)),
    )
}

fn summary(reviewed: &[Reviewed], color: Color) -> String {
    let mine: Vec<&Reviewed> = reviewed.iter().filter(|r| r.mover == color).collect();
    let count = |m: &str| mine.iter().filter(|r| r.mark() == m).count();
    let n = mine.len().max(1) as f64;
    let avg = mine.iter().map(|r| f64::from(r.loss)).sum::<f64>() / n / 10.0;
    let acpl = mine.iter().map(|r| f64::from(r.cp_loss)).sum::<f64>() / n;
    format!(
        "{{\"moves\":{},\"averageLoss\":{avg:.1},\"averageCpLoss\":{acpl:.0},\"inaccuracies\":{},\"mistakes\":{},\"blunders\":{}}}",
        mine.len(),
        count("?!"),
        count("?"),
        count("??")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(name: &str) -> Vec<u8> {
        let path = format!(
            "{}/../engine/tests/data/games/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    #[test]
    fn reads_an_encrypted_xqf_with_its_main_line_in_both_notations() {
        let reply = read(&data("xqf13-hu-ronghua-tao-hanming-1998.xqf"));
        assert!(
            reply.starts_with(
                "{\"ok\":true,\"format\":\"XQF\",\"games\":[{\"title\":\"上海胡荣华 – 吉林陶汉明"
            ),
            "{reply}"
        );
        assert!(
            reply.contains(
                "\"start\":\"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"
            ),
            "{reply}"
        );
        assert!(
            reply.contains("\"moves\":[{\"iccs\":\"c3c4\",\"chinese\":\"兵七进一\",\"comment\":null},{\"iccs\":\"c9e7\",\"chinese\":\"象3进5\""),
            "{reply}"
        );
        // 41 moves on the main line, as `shuai review` says.
        assert_eq!(reply.matches("\"iccs\":").count(), 41, "{reply}");
        assert!(
            reply.ends_with("\"variations\":0,\"problems\":[]}]}"),
            "{reply}"
        );
    }

    #[test]
    fn reads_pgn_and_dhtmlxq_and_counts_variations() {
        let pgn = read(&data("eleeye-sample.pgn"));
        assert!(pgn.starts_with("{\"ok\":true,\"format\":\"PGN\""), "{pgn}");
        let page = read(&data("dhtmlxq-wxf-116.html"));
        assert!(
            page.starts_with("{\"ok\":true,\"format\":\"DhtmlXQ\""),
            "{page}"
        );
        let tree = read(&data("xqf13-opening-variations.xqf"));
        assert!(!tree.contains("\"variations\":0,"), "{tree}");
        // Comments come through.
        let text = "[Red \"A\"]\n1. h2e2 {central cannon} h9g7 *\n";
        let reply = read(text.as_bytes());
        assert!(
            reply.contains(
                "{\"iccs\":\"h2e2\",\"chinese\":\"炮二平五\",\"comment\":\"central cannon\"}"
            ),
            "{reply}"
        );
    }

    #[test]
    fn a_bad_file_is_one_message_with_its_place() {
        let bytes = data("xqf11-endgame.xqf");
        let reply = read(&bytes[..1030]);
        assert!(
            reply.starts_with("{\"ok\":false,\"error\":\"byte "),
            "{reply}"
        );
        assert!(reply.contains("\"place\":{\"byte\":"), "{reply}");
        let reply = read(b"1. h2e2 {never closed\n");
        assert_eq!(
            reply,
            "{\"ok\":false,\"error\":\"line 1: a comment opened with '{' here is never closed\",\
             \"place\":{\"line\":1},\"message\":\"a comment opened with '{' here is never closed\"}"
        );
        // An illegal move ends the game and is named.
        let reply = read(b"1. h2e2 h9g7 2. a0a5 *\n");
        assert!(reply.contains("\"problems\":[\"line 1: ply 3"), "{reply}");
        assert_eq!(reply.matches("\"iccs\":").count(), 2, "{reply}");
    }

    #[test]
    fn the_annotated_pgn_is_the_one_shuai_review_writes() {
        // Black's a6a5 is marked: the engine's line (h9g7 then h0g2) is a
        // variation; the file's tags go in, the opening is named.
        let reply = review(
            "review startpos moves h2e2 a6a5 searches cp:30:h2e2,h9g7 cp:-30:h9g7,h0g2 cp:480:-\n\
             A – B\ndepth 8, 1 thread\nRed\tA\nBlack\tB\nEvent\tTest\tCup\nnot a tag",
        );
        let start = Position::startpos();
        let mv = |p: &Position, t: &str| p.parse_move(t).expect("legal");
        let h2e2 = mv(&start, "h2e2");
        let mut after = start.clone();
        after.make_move(h2e2);
        let (h9g7, a6a5) = (mv(&after, "h9g7"), mv(&after, "a6a5"));
        let mut h9g7_after = after.clone();
        h9g7_after.make_move(h9g7);
        let mut last = after.clone();
        last.make_move(a6a5);
        let searches = [
            Searched::new(&start, 30, Some(h2e2), vec![h2e2, h9g7]),
            Searched::new(&after, -30, Some(h9g7), vec![h9g7, mv(&h9g7_after, "h0g2")]),
            Searched::new(&last, 480, None, vec![]),
        ];
        let tags: Vec<(String, String)> = [("Red", "A"), ("Black", "B"), ("Event", "Test\tCup")]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let expected = annotated_pgn(
            &tags,
            &start,
            &judge(&start, &[h2e2, a6a5], &searches),
            "depth 8, 1 thread",
        );
        assert!(
            reply.contains(&format!("\"pgn\":{}}}", quote(&expected))),
            "{reply}"
        );
        assert!(
            expected.starts_with(
                "[Event \"Test\tCup\"]\n[Site \"?\"]\n[Date \"?\"]\n[Round \"?\"]\n[Red \"A\"]\n\
                 [Black \"B\"]\n[Result \"*\"]\n[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\
                 [ECCO \"B00\"]\n[Opening \"中炮局\"]\n[Annotator \"Shuai review, depth 8, 1 thread\"]\n\n\
                 1. h2e2 {炮二平五 +30 Red W"
            ),
            "{expected}"
        );
        assert!(
            expected.contains("a6a5 $4\n{卒1进1 +480 Red W81% D10% L9%, loses 33.2}"),
            "{expected}"
        );
        assert!(
            expected.contains("(1... h9g7 2. h0g2 {+30}) *\n"),
            "{expected}"
        );
        assert!(
            reply.contains("\"opening\":{\"code\":\"B00\",\"name\":\"中炮局\"}"),
            "{reply}"
        );
        // A line with an illegal move keeps the moves before it.
        let reply = review("review startpos moves h2e2 searches cp:0:h2e2,h2e2 cp:0:-");
        assert!(reply.contains("\"best\":null"), "{reply}");
        // No opening from another start.
        let reply = review("review fen 3k5/R8/9/9/9/9/9/9/1R7/4K4 w - - 0 1 searches mate:1:b1b9");
        assert!(reply.contains("\"opening\":null"), "{reply}");
    }

    #[test]
    fn reviews_from_the_searches_as_shuai_review_does() {
        // Red plays the engine's move; Black's a6a5 drops from -30 to -480.
        let reply = review(
            "review startpos moves h2e2 a6a5 searches cp:30:h2e2 cp:-30:h9g7 cp:480:-\nA – B",
        );
        assert!(
            reply.starts_with(
                "{\"ok\":true,\"thresholds\":{\"inaccuracy\":100,\"mistake\":200,\"blunder\":300},"
            ),
            "{reply}"
        );
        assert!(
            reply.contains("{\"ply\":1,\"number\":\"1.\",\"iccs\":\"h2e2\",\"chinese\":\"炮二平五\",\"mover\":\"red\",\"mark\":\"\",\"loss\":0,\"cpLoss\":0,"),
            "{reply}"
        );
        let start = Position::startpos();
        let mut after = start.clone();
        after.make_move(start.parse_move("h2e2").expect("legal"));
        let before = shuai_engine::review::chance(-30, &after);
        let lost = before - (1000 - shuai_engine::review::chance(480, &after));
        assert!(
            reply.contains(&format!(
                "{{\"ply\":2,\"number\":\"1…\",\"iccs\":\"a6a5\",\"chinese\":\"卒1进1\",\"mover\":\"black\",\"mark\":\"??\",\"loss\":{lost},\"cpLoss\":450,\"score\":{{\"cp\":480}}"
            )),
            "{reply}"
        );
        assert!(
            reply.contains(
                "\"best\":\"h9g7\",\"bestChinese\":\"马8进7\",\"bestScore\":{\"cp\":30}}"
            ),
            "{reply}"
        );
        // 30 centipawns at the start: 52.8% for Red; then Black's view of
        // -30 turned round, then 480 for Red.
        assert!(reply.contains("\"redChances\":[528,528,860]"), "{reply}");
        // The same loss as `shuai review` prints for this game (its test:
        // "loses 33.2 points").
        assert_eq!(lost, 332);
        assert!(
            reply.contains("\"black\":{\"moves\":1,\"averageLoss\":"),
            "{reply}"
        );
        assert!(reply.contains("\"blunders\":1}"), "{reply}");
        assert!(reply.contains("A – B — Red's winning chance"), "{reply}");
        assert!(
            reply.contains("<circle class=\\\"mark\\\" data-ply=\\\"2\\\""),
            "{reply}"
        );
    }

    #[test]
    fn mates_partial_reviews_and_bad_queries() {
        // Mate in 1 for the side to move: certain.
        let reply = review("review fen 3k5/R8/9/9/9/9/9/9/1R7/4K4 w - - 0 1 searches mate:1:b1b9");
        assert!(
            reply.contains("\"moves\":[],\"redChances\":[1000]"),
            "{reply}"
        );
        // Two moves, one search so far: nothing judged yet, one chance.
        let reply = review("review startpos moves h2e2 h9g7 searches cp:0:h2e2");
        assert!(
            reply.contains("\"moves\":[],\"redChances\":[500]"),
            "{reply}"
        );
        assert!(review("review startpos searches cp:x:h2e2").starts_with("{\"ok\":false"));
        assert!(review("review startpos moves a0a5 searches cp:0:- cp:0:-")
            .contains("ply 1: illegal move a0a5"));
        assert!(review("nonsense").starts_with("{\"ok\":false"));
    }
}
