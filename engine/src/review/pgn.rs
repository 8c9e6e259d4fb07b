//! The reviewed game as PGN, the same from `shuai review --pgn` and the
//! browser page's download: the file's tags, the opening (ECCO), ICCS
//! moves each with its score and chances in a comment, a NAG for a mark
//! and the engine's line as a variation where the move was marked.

use super::{number, Reviewed};
use crate::opening::classify;
use crate::score::{score_text, wdl, Wdl};
use shuai_board::{Color, Move, Position};

impl Reviewed {
    /// Red's win/draw/loss chances after the move (whole percent).
    pub fn red_wdl(&self) -> Wdl {
        let mut after = self.before.clone();
        after.make_move(self.played);
        let w = wdl(self.score_after, &after);
        match self.mover {
            Color::Red => w,
            Color::Black => Wdl {
                win: w.loss,
                draw: w.draw,
                loss: w.win,
            },
        }
    }
}

/// The PGN NAG of a mark.
fn nag(mark: &str) -> Option<&'static str> {
    match mark {
        "?!" => Some("$6"),
        "?" => Some("$2"),
        "??" => Some("$4"),
        _ => None,
    }
}

/// PGN movetext for `moves` from `pos`, numbered, ICCS.
fn movetext(pos: &Position, moves: &[Move], start: &Position, first_ply: usize) -> String {
    let mut pos = pos.clone();
    let mut words = Vec::new();
    for (k, &m) in moves.iter().enumerate() {
        let n = number(&pos, first_ply + k, start);
        if pos.side_to_move() == Color::Red {
            words.push(n);
        } else if k == 0 {
            words.push(n.replace('…', "..."));
        }
        words.push(m.to_string());
        pos.make_move(m);
    }
    words.join(" ")
}

/// The value of tag `name` (any case) among `tags`, if set and not empty.
fn tag<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(k, v)| k.eq_ignore_ascii_case(name) && !v.is_empty())
        .map(|(_, v)| v.as_str())
}

/// The reviewed game as PGN: the seven tags of `tags` (the file's), the
/// opening as `ECCO` and `Opening` tags when the game has one, the
/// `Annotator` with `settings`, then the moves from `start` as `reviewed`
/// judged them.
pub fn annotated_pgn(
    tags: &[(String, String)],
    start: &Position,
    reviewed: &[Reviewed],
    settings: &str,
) -> String {
    let clean = |s: &str| s.replace(['"', '\\'], "'");
    let mut out = String::new();
    for name in ["Event", "Site", "Date", "Round", "Red", "Black", "Result"] {
        let default = if name == "Result" { "*" } else { "?" };
        out.push_str(&format!(
            "[{name} \"{}\"]\n",
            clean(tag(tags, name).unwrap_or(default))
        ));
    }
    out.push_str("[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n");
    if start.to_fen() != Position::startpos().to_fen() {
        out.push_str(&format!("[SetUp \"1\"]\n[FEN \"{}\"]\n", start.to_fen()));
    }
    let moves: Vec<Move> = reviewed.iter().map(|r| r.played).collect();
    if let Some(opening) = classify(start, &moves) {
        out.push_str(&format!(
            "[ECCO \"{}\"]\n[Opening \"{}\"]\n",
            opening.code, opening.name
        ));
    }
    out.push_str(&format!(
        "[Annotator \"Shuai review, {}\"]\n\n",
        clean(settings)
    ));
    let mut words: Vec<String> = Vec::new();
    for (i, r) in reviewed.iter().enumerate() {
        let n = number(&r.before, i, start);
        if r.mover == Color::Red {
            words.push(n);
        } else if i == 0 {
            words.push(n.replace('…', "..."));
        }
        words.push(r.played.to_string());
        if let Some(nag) = nag(r.mark()) {
            words.push(nag.to_string());
        }
        let red = |s: i32| if r.mover == Color::Red { s } else { -s };
        let w = r.red_wdl();
        words.push(format!(
            "{{{} {} Red W{}% D{}% L{}%{}}}",
            r.before.to_chinese(r.played),
            score_text(red(r.score_after)),
            w.win,
            w.draw,
            w.loss,
            if r.loss > 0 {
                format!(", loses {:.1}", f64::from(r.loss) / 10.0)
            } else {
                String::new()
            }
        ));
        if !r.mark().is_empty() && !r.search.pv.is_empty() {
            let line: Vec<Move> = r.search.pv.iter().copied().take(8).collect();
            words.push(format!(
                "({} {{{}}})",
                movetext(&r.before, &line, start, i),
                score_text(red(r.search.score))
            ));
        }
    }
    words.push(tag(tags, "Result").unwrap_or("*").to_string());
    let mut column = 0;
    for w in words {
        let width = w.chars().count();
        if column > 0 && column + 1 + width > 80 {
            out.push('\n');
            column = 0;
        } else if column > 0 {
            out.push(' ');
            column += 1;
        }
        out.push_str(&w);
        column += width;
    }
    out.push_str("\n\n");
    out
}
