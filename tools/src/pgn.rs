//! PGN output for Xiangqi: FEN headers (`[SetUp "1"]`, `[FEN …]`,
//! `[Variant "xiangqi"]`, `[Format "ICCS"]`) and ICCS moves (`h2e2`) with
//! the Chinese notation, score, depth and time in comments — or Chinese
//! moves with ICCS in the comments.

use crate::game::GameRecord;
use shuai_board::rules::RuleBook;
use shuai_board::{Color, Position};

/// How moves are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// ICCS moves (`h2e2`); Chinese notation in the comments.
    Iccs,
    /// Chinese moves (炮二平五); ICCS in the comments.
    Chinese,
}

/// Header values that are the same for every game of a match.
#[derive(Clone, Debug)]
pub struct PgnContext {
    /// `[Event]`.
    pub event: String,
    /// `[Date]`, `YYYY.MM.DD`.
    pub date: String,
    /// `[TimeControl]`.
    pub time_control: String,
    /// Move notation.
    pub notation: Notation,
    /// The repetition rules the referee judged by (`[Rules]`).
    pub rules: RuleBook,
}

fn clean(text: &str) -> String {
    text.replace(['{', '}'], "").replace('"', "'")
}

/// Today's date as `YYYY.MM.DD` (UTC, from the system clock).
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let days = (secs / 86_400) as i64;
    // Civil-from-days (H. Hinnant).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// One game as PGN text (ending with a blank line).
pub fn write_game(g: &GameRecord, ctx: &PgnContext) -> String {
    let mut out = String::new();
    let tag = |out: &mut String, k: &str, v: &str| {
        out.push_str(&format!("[{k} \"{}\"]\n", clean(v)));
    };
    tag(&mut out, "Event", &ctx.event);
    tag(&mut out, "Site", "?");
    tag(&mut out, "Date", &ctx.date);
    tag(&mut out, "Round", &(g.index + 1).to_string());
    tag(&mut out, "Red", &g.red);
    tag(&mut out, "Black", &g.black);
    tag(&mut out, "White", &g.red);
    tag(&mut out, "Result", g.result.pgn());
    tag(&mut out, "Game", "Chinese Chess");
    tag(&mut out, "Variant", "xiangqi");
    tag(&mut out, "Rules", ctx.rules.name());
    tag(
        &mut out,
        "Format",
        match ctx.notation {
            Notation::Iccs => "ICCS",
            Notation::Chinese => "Chinese",
        },
    );
    tag(&mut out, "SetUp", "1");
    tag(&mut out, "FEN", &g.fen);
    tag(&mut out, "TimeControl", &ctx.time_control);
    tag(&mut out, "PlyCount", &g.moves.len().to_string());
    tag(&mut out, "Termination", g.termination.name());
    tag(&mut out, "Reason", &g.reason);
    out.push('\n');

    let mut pos = Position::from_fen(&g.fen).expect("valid FEN");
    let mut tokens: Vec<String> = Vec::new();
    let mut number = pos.fullmove_number() as u32;
    let mut first = true;
    for (i, m) in g.moves.iter().enumerate() {
        let mv = pos.parse_move(m).expect("recorded moves are legal");
        let stm = pos.side_to_move();
        if stm == Color::Red {
            tokens.push(format!("{number}."));
        } else if first {
            tokens.push(format!("{number}..."));
        }
        first = false;
        let chinese = pos.to_chinese(mv);
        let (shown, other) = match ctx.notation {
            Notation::Iccs => (m.clone(), chinese),
            Notation::Chinese => (chinese, m.clone()),
        };
        tokens.push(shown);
        let comment = if i < g.book_plies {
            format!("{{book {other}}}")
        } else {
            let p = &g.played[i - g.book_plies];
            let mut c = String::from("{");
            if let Some(s) = &p.score_text {
                c.push_str(s);
                if let Some(d) = p.depth {
                    c.push_str(&format!("/{d}"));
                }
                c.push(' ');
            }
            c.push_str(&format!("{:.3}s {other}}}", p.time_ms as f64 / 1000.0));
            c
        };
        tokens.push(comment);
        pos.make_move(mv);
        if stm == Color::Black {
            number += 1;
        }
    }
    tokens.push(format!("{{{}}}", clean(&g.reason)));
    tokens.push(g.result.pgn().to_string());
    // Wrap at 80 columns, never inside a comment's words boundary rules
    // (PGN allows breaks between any tokens, and inside comments).
    let mut line_len = 0;
    for t in tokens.iter().flat_map(|t| t.split(' ')) {
        if line_len > 0 && line_len + 1 + t.chars().count() > 80 {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(t);
        line_len += t.chars().count();
    }
    out.push_str("\n\n");
    out
}

/// A game read back from PGN: its tags (name, value) and its moves.
pub type PgnGame = (Vec<(String, String)>, Vec<String>);

/// Reads the games of a PGN file written by [`write_game`] back into
/// (headers, ICCS moves). Only what the tests and cross-checks need: tags,
/// move tokens, comments skipped.
pub fn read_games(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    let mut headers = Vec::new();
    let mut body = String::new();
    let flush = |headers: &mut Vec<(String, String)>, body: &mut String, games: &mut Vec<_>| {
        if headers.is_empty() {
            return;
        }
        let mut moves = Vec::new();
        let mut depth = 0;
        let mut token = String::new();
        let push = |t: &mut String, moves: &mut Vec<String>| {
            if !t.is_empty()
                && !t.ends_with('.')
                && !["1-0", "0-1", "1/2-1/2", "*"].contains(&t.as_str())
            {
                moves.push(t.clone());
            }
            t.clear();
        };
        for c in body.chars() {
            match c {
                '{' => {
                    push(&mut token, &mut moves);
                    depth += 1;
                }
                '}' => depth -= 1,
                c if depth > 0 => {
                    let _ = c;
                }
                c if c.is_whitespace() => push(&mut token, &mut moves),
                c => token.push(c),
            }
        }
        push(&mut token, &mut moves);
        games.push((std::mem::take(headers), moves));
        body.clear();
    };
    for line in text.lines() {
        let l = line.trim();
        if let Some(inner) = l.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
            if !body.trim().is_empty() {
                flush(&mut headers, &mut body, &mut games);
            }
            if let Some((k, v)) = inner.split_once(' ') {
                headers.push((k.to_string(), v.trim().trim_matches('"').to_string()));
            }
        } else {
            body.push_str(l);
            body.push('\n');
        }
    }
    flush(&mut headers, &mut body, &mut games);
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn date_format() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert_eq!(&d[4..5], ".");
        assert!(d.as_str() >= "2024.01.01");
    }
}
