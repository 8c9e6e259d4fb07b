//! Moves as people read and type them: Chinese notation (`炮二平五`) with
//! ICCS (`h2e2`) beside it, and input in either form.

use super::Style;
use shuai_board::{Move, Position};

/// A legal move of `pos` read from what a person typed: ICCS (`h2e2`,
/// either case) or Chinese notation (`炮二平五`, `马8进7`, `前车进一`, …).
///
/// The error is one sentence saying what is wrong, meant for the person.
pub fn parse_user_move(pos: &Position, text: &str) -> Result<Move, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("empty move".to_string());
    }
    if text.is_ascii() {
        return pos.parse_move(text).map_err(|e| format!("{e}"));
    }
    pos.parse_chinese(text).map_err(|e| format!("{e}"))
}

/// One move for people: `炮二平五(h2e2)`, or `h2e2` in ASCII style.
/// `m` should be legal in `pos`.
pub fn move_text(pos: &Position, m: Move, style: Style) -> String {
    if style.ascii {
        m.to_string()
    } else {
        format!("{}({m})", pos.to_chinese(m))
    }
}

/// A line of moves from `pos` for people, each written in the position it
/// is played from: `炮二平五(h2e2) 马8进7(h9g7) …` (ICCS only in ASCII
/// style). Stops at the first move that is not legal.
pub fn line_text(pos: &Position, line: &[Move], style: Style) -> String {
    line_text_within(pos, line, style, usize::MAX)
}

/// [`line_text`] cut to at most `columns` terminal columns: the moves that
/// fit, then ` …` if some were left out.
pub fn line_text_within(pos: &Position, line: &[Move], style: Style, columns: usize) -> String {
    let mut p = pos.clone();
    let mut text = String::new();
    for (i, &m) in line.iter().enumerate() {
        if !p.is_legal(m) {
            break;
        }
        let word = move_text(&p, m, style);
        let sep = usize::from(!text.is_empty());
        let room_for_dots = if i + 1 < line.len() { 2 } else { 0 };
        let needed = super::display_width(&text) + sep + super::display_width(&word);
        if needed + room_for_dots > columns && !text.is_empty() {
            text.push_str(" …");
            break;
        }
        if sep == 1 {
            text.push(' ');
        }
        text.push_str(&word);
        p.make_move(m);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_iccs_and_chinese() {
        let pos = Position::startpos();
        let a = parse_user_move(&pos, "h2e2").unwrap();
        let b = parse_user_move(&pos, "炮二平五").unwrap();
        assert_eq!(a, b);
        assert_eq!(parse_user_move(&pos, " H2E2 ").unwrap(), a);
        assert!(parse_user_move(&pos, "h2h9x").is_err());
        assert!(parse_user_move(&pos, "炮二平十").is_err());
        assert!(parse_user_move(&pos, "").is_err());
    }

    #[test]
    fn writes_a_line_in_both_notations() {
        let pos = Position::startpos();
        let line: Vec<Move> = ["h2e2", "h9g7", "h0g2"]
            .iter()
            .map(|t| shuai_board::parse_iccs(t).unwrap())
            .collect();
        assert_eq!(
            line_text(&pos, &line, Style::default()),
            "炮二平五(h2e2) 马8进7(h9g7) 马二进三(h0g2)"
        );
        let ascii = Style {
            ascii: true,
            ..Style::default()
        };
        assert_eq!(line_text(&pos, &line, ascii), "h2e2 h9g7 h0g2");
        assert_eq!(
            line_text_within(&pos, &line, Style::default(), 28),
            "炮二平五(h2e2) …"
        );
        assert_eq!(line_text_within(&pos, &line, ascii, 14), "h2e2 h9g7 h0g2");
        assert_eq!(line_text_within(&pos, &line, ascii, 13), "h2e2 h9g7 …");
    }
}
