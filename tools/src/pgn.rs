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

/// Reads the games of a PGN file (as [`write_game`] writes them, or any
/// other) into (tags, move tokens); see [`parse`].
pub fn read_games(text: &str) -> Vec<PgnGame> {
    parse(text).into_iter().map(|g| (g.tags, g.moves)).collect()
}

/// One game of a PGN file as read: its tags and its move tokens, in
/// whatever notation the file uses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnRecord {
    /// The line (from 1) where the game begins, for messages.
    pub line: usize,
    /// The tags in file order (name, value).
    pub tags: Vec<(String, String)>,
    /// The moves of the main line, without move numbers, comments,
    /// variations, NAGs or annotation marks (`!?`).
    pub moves: Vec<String>,
    /// The game-termination marker after the moves (`1-0`, `0-1`,
    /// `1/2-1/2`, `*`), if there is one.
    pub result: Option<String>,
}

impl PgnRecord {
    /// The value of tag `name` (case-insensitive: files differ).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// The PGN game-termination markers.
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// A movetext token as a move: the move number glued in front
/// (`12.h2e2`, `3...炮8平5`) and annotation marks behind (`!`, `?`, `#`,
/// `+`) taken off; `None` when nothing is left (a bare `12.` or `...`).
fn move_token(token: &str) -> Option<&str> {
    let unnumbered = token.trim_start_matches(|c: char| c.is_ascii_digit());
    // Digits not followed by a dot are not a move number; leave them.
    let rest = if unnumbered.starts_with('.') || unnumbered.len() == token.len() {
        unnumbered.trim_start_matches('.')
    } else {
        token
    };
    let rest = rest.trim_end_matches(['!', '?', '#', '+']);
    (!rest.is_empty()).then_some(rest)
}

/// Reads the games of a PGN text, tolerant of what PGN files in the wild
/// contain: `{…}` and `;` comments, nested `(…)` variations (skipped: a
/// book counts the moves played), NAGs (`$1`), `%` escape lines, move
/// numbers glued to moves, a byte-order mark. A game begins at its first
/// tag line (`[Name "value"]`) after movetext, or at the file's start;
/// movetext without tags is still a game. Moves are not checked here.
pub fn parse(text: &str) -> Vec<PgnRecord> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut games = Vec::new();
    let mut game = PgnRecord::default();
    let mut in_comment = false;
    let mut variation = 0u32;
    let finish = |game: &mut PgnRecord, games: &mut Vec<PgnRecord>| {
        let g = std::mem::take(game);
        if !g.tags.is_empty() || !g.moves.is_empty() || g.result.is_some() {
            games.push(g);
        }
    };
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if !in_comment {
            if let Some(inner) = line.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
                if !game.moves.is_empty() || game.result.is_some() {
                    finish(&mut game, &mut games);
                }
                if game.tags.is_empty() {
                    game.line = n + 1;
                }
                if let Some((k, v)) = inner.split_once(char::is_whitespace) {
                    let v = v.trim();
                    let v = v.strip_prefix('"').unwrap_or(v);
                    let v = v.strip_suffix('"').unwrap_or(v);
                    game.tags.push((k.to_string(), v.replace("\\\"", "\"")));
                }
                continue;
            }
            if line.starts_with('%') {
                continue;
            }
        }
        if game.tags.is_empty() && game.moves.is_empty() && game.line == 0 {
            game.line = n + 1;
        }
        let mut token = String::new();
        let take = |token: &mut String, game: &mut PgnRecord| {
            if RESULTS.contains(&token.as_str()) {
                game.result = Some(token.clone());
            } else if !token.starts_with('$') {
                if let Some(m) = move_token(token) {
                    game.moves.push(m.to_string());
                }
            }
            token.clear();
        };
        for c in line.chars() {
            if in_comment {
                in_comment = c != '}';
                continue;
            }
            match c {
                '{' => {
                    take(&mut token, &mut game);
                    in_comment = true;
                }
                ';' => break,
                '(' => {
                    take(&mut token, &mut game);
                    variation += 1;
                }
                ')' => {
                    token.clear();
                    variation = variation.saturating_sub(1);
                }
                _ if variation > 0 => {}
                c if c.is_whitespace() => take(&mut token, &mut game),
                c => token.push(c),
            }
        }
        if variation == 0 {
            take(&mut token, &mut game);
        }
    }
    finish(&mut game, &mut games);
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

    #[test]
    fn reads_pgn_from_the_wild() {
        let text = "\u{feff}[Event \"a\"]\n[Result \"1-0\"]\n\n\
                    1.h2e2 {a comment} h9g7 $1 2. h0g2! (2. b0c2 b9c7) i9h9 ; rest\n\
                    % escape\n3...b9c7?! 1-0\n\
                    [Event \"b\"]\n1. 炮二平五 马８进７ *\n";
        let games = parse(text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].line, 1);
        assert_eq!(games[0].tag("result"), Some("1-0"));
        assert_eq!(games[0].moves, ["h2e2", "h9g7", "h0g2", "i9h9", "b9c7"]);
        assert_eq!(games[0].result.as_deref(), Some("1-0"));
        assert_eq!(games[1].line, 7);
        assert_eq!(games[1].moves, ["炮二平五", "马８进７"]);
        assert_eq!(games[1].result.as_deref(), Some("*"));
        // Movetext without tags is a game too; an empty text has none.
        assert_eq!(parse("h2e2 h9g7")[0].moves, ["h2e2", "h9g7"]);
        assert!(parse("").is_empty());
    }
}
