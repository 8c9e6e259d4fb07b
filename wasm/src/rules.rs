//! Rules queries for the page: legal moves, check, the game's verdict and
//! moves in Chinese notation, all from the engine's own rules code, so the
//! page and the engine never disagree. The page asks them of its own module
//! instance (the engine's instance may be searching in the worker).
//!
//! A query is one line; the answer is one line of JSON:
//!
//! - `describe <chinese|asian> <startpos | fen FEN> [moves m1 m2 …]` →
//!   `{"ok":true,"fen":…,"turn":"red"|"black","check":bool,"legal":[ICCS…],
//!   "moves":[{"iccs":…,"chinese":…}…],"end":null|{"result":"win"|"loss"|
//!   "draw","winner":"red"|"black"|null,"reason":…},"problem":null|text}`:
//!   the position after the moves (up to the first illegal one, named in
//!   `problem`), its legal moves, and whether the game is over by the rule
//!   book (mate, no move, repetition, the natural-move limit).
//! - `line <startpos | fen FEN> [moves …] pv m1 m2 …` →
//!   `{"ok":true,"chinese":[…]}`: the `pv` moves in Chinese notation from
//!   the position (up to the first illegal one).
//!
//! Anything else, or a bad FEN: `{"ok":false,"error":…}`.

use shuai_board::rules::{judge_game_end_with, GameResult, RuleBook, RuleOptions};
use shuai_board::{Color, Position};
use shuai_engine::protocol::format::{Dialect, Format};
use shuai_engine::protocol::position::parse_position;

/// Answers one query (see the module documentation).
pub fn query(text: &str) -> String {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    match tokens.split_first() {
        Some((&"describe", rest)) => describe(rest),
        Some((&"line", rest)) => line(rest),
        _ => error("unknown query (expected 'describe' or 'line')"),
    }
}

const ZERO_BASED_UCI: Format = Format {
    dialect: Dialect::Uci,
    one_based: false,
};

/// The setup (start position or FEN) and the move words after `moves`.
fn setup<'a>(args: &[&'a str]) -> Result<(Position, Vec<&'a str>), String> {
    let at = args
        .iter()
        .position(|t| t.eq_ignore_ascii_case("moves"))
        .unwrap_or(args.len());
    let parsed = parse_position(&args[..at], ZERO_BASED_UCI)?;
    let moves = args.get(at + 1..).unwrap_or(&[]).to_vec();
    Ok((parsed.position, moves))
}

/// Plays `words` from `pos` while they are legal; returns each move in
/// ICCS and Chinese, and a problem naming the first that is not.
fn play(pos: &mut Position, words: &[&str]) -> (Vec<(String, String)>, Option<String>) {
    let mut played = Vec::new();
    for w in words {
        match pos.parse_move(w) {
            Ok(m) if pos.is_legal(m) => {
                let chinese = pos.to_chinese(m);
                pos.make_move(m);
                played.push((m.to_string(), chinese));
            }
            _ => return (played, Some(format!("illegal move {w}"))),
        }
    }
    (played, None)
}

fn describe(args: &[&str]) -> String {
    let Some((book, rest)) = args.split_first() else {
        return error("describe needs a rule book and a position");
    };
    let book = match book.to_ascii_lowercase().as_str() {
        "chinese" => RuleBook::Chinese,
        "asian" => RuleBook::Asian,
        _ => return error("the rule book is 'chinese' or 'asian'"),
    };
    let (mut pos, words) = match setup(rest) {
        Ok(s) => s,
        Err(e) => return error(&e),
    };
    let (played, problem) = play(&mut pos, &words);
    let legal: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| quote(&m.to_string()))
        .collect();
    let moves: Vec<String> = played
        .iter()
        .map(|(iccs, chinese)| {
            format!(
                "{{\"iccs\":{},\"chinese\":{}}}",
                quote(iccs),
                quote(chinese)
            )
        })
        .collect();
    let end = match judge_game_end_with(&pos, &RuleOptions::with_book(book)) {
        None => "null".to_string(),
        Some(v) => {
            let result = match v.result {
                GameResult::Win => "win",
                GameResult::Loss => "loss",
                GameResult::Draw => "draw",
            };
            let winner = v
                .winner(pos.side_to_move())
                .map_or("null".to_string(), |c| quote(side(c)));
            format!(
                "{{\"result\":\"{result}\",\"winner\":{winner},\"reason\":{}}}",
                quote(&v.to_string())
            )
        }
    };
    format!(
        "{{\"ok\":true,\"fen\":{},\"turn\":{},\"check\":{},\"legal\":[{}],\"moves\":[{}],\"end\":{end},\"problem\":{}}}",
        quote(&pos.to_fen()),
        quote(side(pos.side_to_move())),
        pos.in_check(),
        legal.join(","),
        moves.join(","),
        problem.map_or("null".to_string(), |p| quote(&p)),
    )
}

fn line(args: &[&str]) -> String {
    let pv_at = args
        .iter()
        .position(|t| t.eq_ignore_ascii_case("pv"))
        .unwrap_or(args.len());
    let (mut pos, words) = match setup(&args[..pv_at]) {
        Ok(s) => s,
        Err(e) => return error(&e),
    };
    if let (_, Some(p)) = play(&mut pos, &words) {
        return error(&p);
    }
    let pv = args.get(pv_at + 1..).unwrap_or(&[]);
    let (played, _) = play(&mut pos, pv);
    let chinese: Vec<String> = played.iter().map(|(_, c)| quote(c)).collect();
    format!("{{\"ok\":true,\"chinese\":[{}]}}", chinese.join(","))
}

fn side(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Black => "black",
    }
}

/// An error answer: `{"ok":false,"error":…}`.
pub(crate) fn error(text: &str) -> String {
    format!("{{\"ok\":false,\"error\":{}}}", quote(text))
}

/// A JSON string (the engine's, shared with its other callers).
pub(crate) use shuai_engine::json::quote;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describe_the_start_after_two_moves() {
        let reply = query("describe chinese startpos moves h2e2 h9g7");
        assert!(reply.starts_with(
            "{\"ok\":true,\"fen\":\"rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2\",\"turn\":\"red\",\"check\":false,\"legal\":["
        ), "{reply}");
        assert!(reply.contains(
            "\"moves\":[{\"iccs\":\"h2e2\",\"chinese\":\"炮二平五\"},{\"iccs\":\"h9g7\",\"chinese\":\"马8进7\"}],\"end\":null,\"problem\":null}"
        ), "{reply}");
        // 35 for Red: rooks 2+2, horses 2+2, elephants, advisors and king
        // 1 each, cannons 9 (b2) and 8 (e2), pawns 5.
        let legal = reply
            .split("\"legal\":[")
            .nth(1)
            .unwrap()
            .split(']')
            .next()
            .unwrap();
        assert_eq!(legal.split(',').count(), 35);
    }

    #[test]
    fn an_illegal_move_stops_the_list_and_is_named() {
        let reply = query("describe asian startpos moves h2e2 a0a5");
        assert!(
            reply.ends_with("\"problem\":\"illegal move a0a5\"}"),
            "{reply}"
        );
        assert!(reply.contains("\"turn\":\"black\""), "{reply}");
    }

    #[test]
    fn a_mated_side_loses() {
        // The rook on b9 checks; the one on a8 covers d8 and e8, and e9
        // lies on the checking rook's rank.
        let reply = query("describe chinese fen 3k5/R8/9/9/9/9/9/9/1R7/4K4 w - - 0 1 moves b1b9");
        assert!(reply.contains("\"check\":true,\"legal\":[]"), "{reply}");
        assert!(
            reply.contains("\"result\":\"loss\",\"winner\":\"red\""),
            "{reply}"
        );
    }

    #[test]
    fn a_main_line_in_chinese() {
        assert_eq!(
            query("line startpos moves h2e2 pv h9g7 h0g2 zz99"),
            "{\"ok\":true,\"chinese\":[\"马8进7\",\"马二进三\"]}"
        );
    }

    #[test]
    fn bad_queries_are_answered_with_an_error() {
        assert!(
            query("describe chinese fen xyz").starts_with("{\"ok\":false,\"error\":\"invalid FEN")
        );
        assert_eq!(
            query("frobnicate"),
            "{\"ok\":false,\"error\":\"unknown query (expected 'describe' or 'line')\"}"
        );
        assert!(query("describe elsewhere startpos").starts_with("{\"ok\":false"));
        assert!(query("").starts_with("{\"ok\":false"));
    }
}
