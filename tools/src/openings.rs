//! Opening books and EPD files: a FEN (four to six fields) optionally
//! followed by `moves m1 m2 …` (or bare ICCS moves) or by EPD operations
//! (`bm h2e2; id "x";`). Lines starting with `#` are comments.

use shuai_board::Position;
use shuai_board::Rng;
use std::path::Path;

/// The default book shipped with the tools (see the file's header for how
/// it was made).
pub const DEFAULT_BOOK: &str = include_str!("../data/balanced-openings.epd");

/// The name of the default book in reports.
pub const DEFAULT_BOOK_NAME: &str = "balanced-openings.epd (built in)";

/// One line of an EPD/FEN file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdLine {
    /// Line number in the file, from 1.
    pub line: usize,
    /// The position's FEN with all six fields, as the board crate writes it.
    pub fen: String,
    /// Moves (ICCS, ranks 0–9) played from the FEN, all legal.
    pub moves: Vec<String>,
    /// EPD operations in order: (`bm`, `h2e2 b2e2`), (`id`, `x`), …
    /// Quotes around an operand are removed.
    pub ops: Vec<(String, String)>,
}

impl EpdLine {
    /// The first operand of operation `name`, if present.
    pub fn op(&self, name: &str) -> Option<&str> {
        self.ops
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The position after the moves (history included).
    pub fn position(&self) -> Position {
        let mut pos = Position::from_fen(&self.fen).expect("checked when parsed");
        for m in &self.moves {
            let mv = pos.parse_move(m).expect("checked when parsed");
            pos.make_move(mv);
        }
        pos
    }
}

fn looks_like_iccs(t: &str) -> bool {
    let b = t.as_bytes();
    b.len() == 4
        && (b'a'..=b'i').contains(&b[0].to_ascii_lowercase())
        && b[1].is_ascii_digit()
        && (b'a'..=b'i').contains(&b[2].to_ascii_lowercase())
        && b[3].is_ascii_digit()
}

/// Parses one non-comment line.
pub fn parse_line(text: &str, line: usize) -> Result<EpdLine, String> {
    let err = |m: String| format!("line {line}: {m}");
    // Tokens with their byte offsets.
    let mut toks: Vec<(usize, &str)> = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        if c.is_whitespace() {
            if let Some(s) = start.take() {
                toks.push((s, &text[s..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        toks.push((s, &text[s..]));
    }
    if toks.len() < 2 {
        return Err(err("expected a FEN (placement and side to move)".into()));
    }
    let mut fen = format!("{} {}", toks[0].1, toks[1].1.trim_end_matches(';'));
    let mut i = 2;
    let mut dashes = 0;
    while i < toks.len() && dashes < 2 && toks[i].1 == "-" {
        fen.push_str(" -");
        dashes += 1;
        i += 1;
    }
    let mut counters = 0;
    while i < toks.len()
        && counters < 2
        && dashes == 2
        && toks[i].1.trim_end_matches(';').parse::<u32>().is_ok()
    {
        fen.push(' ');
        fen.push_str(toks[i].1.trim_end_matches(';'));
        counters += 1;
        i += 1;
    }
    let mut pos = Position::from_fen(&fen).map_err(|e| err(format!("bad FEN '{fen}': {e}")))?;
    let fen = pos.to_fen();
    let mut moves = Vec::new();
    let mut ops = Vec::new();
    if i < toks.len() {
        let move_toks: Option<Vec<&str>> = if toks[i].1.eq_ignore_ascii_case("moves") {
            Some(toks[i + 1..].iter().map(|t| t.1).collect())
        } else if toks[i..].iter().all(|t| looks_like_iccs(t.1)) {
            Some(toks[i..].iter().map(|t| t.1).collect())
        } else {
            None
        };
        match move_toks {
            Some(ms) => {
                for m in ms {
                    let mv = pos
                        .parse_move(m)
                        .map_err(|e| err(format!("move {m}: {e}")))?;
                    moves.push(mv.to_string());
                    pos.make_move(mv);
                }
            }
            None => {
                let rest = &text[toks[i].0..];
                for op in split_ops(rest) {
                    let op = op.trim();
                    if op.is_empty() {
                        continue;
                    }
                    let (name, operand) = match op.split_once(char::is_whitespace) {
                        Some((n, v)) => (n, v.trim()),
                        None => (op, ""),
                    };
                    let operand = operand
                        .strip_prefix('"')
                        .and_then(|s| s.strip_suffix('"'))
                        .unwrap_or(operand);
                    ops.push((name.to_string(), operand.to_string()));
                }
            }
        }
    }
    Ok(EpdLine {
        line,
        fen,
        moves,
        ops,
    })
}

/// Splits EPD operations at `;` outside quotes.
fn split_ops(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut quoted = false;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ';' if !quoted => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

/// Parses a whole file's text (comments and blank lines skipped).
pub fn parse_text(text: &str) -> Result<Vec<EpdLine>, String> {
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        out.push(parse_line(l, n + 1)?);
    }
    Ok(out)
}

/// Reads an EPD/FEN file.
pub fn load(path: &Path) -> Result<Vec<EpdLine>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse_text(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The openings of a match in the order they are played: shuffled by
/// `seed` (the same seed always gives the same order).
pub fn shuffled(mut book: Vec<EpdLine>, seed: u64) -> Vec<EpdLine> {
    Rng::new(seed).shuffle(&mut book);
    book
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_fen_forms() {
        let l = parse_line(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2 h9g7",
            1,
        )
        .unwrap();
        assert_eq!(l.moves, vec!["h2e2", "h9g7"]);
        let l = parse_line(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w h2e2",
            1,
        )
        .unwrap();
        assert_eq!(l.moves, vec!["h2e2"]);
        assert!(l.fen.ends_with(" w - - 0 1"));
        let l = parse_line(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - bm h2e2 b2e2; id \"start; x\";",
            1,
        )
        .unwrap();
        assert_eq!(l.op("bm"), Some("h2e2 b2e2"));
        assert_eq!(l.op("id"), Some("start; x"));
        assert!(parse_line(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w moves h2e3",
            1
        )
        .is_err());
        assert!(parse_line("xyz w", 1).is_err());
    }

    #[test]
    fn default_book_is_valid() {
        let book = parse_text(DEFAULT_BOOK).unwrap();
        assert!(book.len() >= 200, "{} openings", book.len());
        for l in &book {
            assert!(l.position().has_legal_move());
        }
    }

    /// The unbalanced book (`tools/data/unbalanced-openings.epd`): 250
    /// playable positions, each with its score one side's lead of 80 to
    /// 160 centipawns, as its header says.
    #[test]
    fn unbalanced_book_is_valid() {
        let text = include_str!("../data/unbalanced-openings.epd");
        let book = parse_text(text).unwrap();
        assert_eq!(book.len(), 250);
        for l in &book {
            assert!(l.position().has_legal_move());
        }
        let scores: Vec<i32> = text
            .lines()
            .filter_map(|l| l.split("c0 \"score ").nth(1))
            .map(|rest| rest.split(' ').next().unwrap().parse().unwrap())
            .collect();
        assert_eq!(scores.len(), 250);
        assert!(scores.iter().all(|s| (80..=160).contains(&s.abs())));
    }
}
