//! PGN for Xiangqi: tags (`[FEN …]` sets the start), moves in ICCS
//! (`h2e2`, `H2-E2`), WXF (`C2.5`, `H8+7`) or Chinese notation (`炮二平五`,
//! `马８进７`), move
//! numbers, `{…}` and `;` comments, nested `(…)` variations, NAGs (`$1`),
//! annotation marks (`!?`), `%` escape lines and several games a file.
//!
//! A game begins at a tag after movetext (or at the file's start) and ends
//! at its result (`1-0`, `0-1`, `1/2-1/2`, `*`) or the next game's tags.

use super::{parse_move_text, Format, Game, Place, ReadError};
use shuai_board::{Color, Position};

/// A piece of movetext or a tag, with the line it is on.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Tag(String, String),
    Comment(String),
    Open,
    Close,
    Result(String),
    Move(String),
}

const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Splits `text` into tokens with their lines.
fn tokens(text: &str) -> Result<Vec<(usize, Token)>, ReadError> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    let mut line = 1usize;
    let mut at_line_start = true;
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut Vec<(usize, Token)>, line: usize| {
        if word.is_empty() {
            return;
        }
        let w = std::mem::take(word);
        if RESULTS.contains(&w.as_str()) {
            out.push((line, Token::Result(w)));
            return;
        }
        if w.starts_with('$') {
            return;
        }
        // WXF's middle pawn of stacks on two files (`33.4`) is not move
        // 33 and a 4.
        if super::wxf::looks_like_wxf(&w) && w.as_bytes()[0] == w.as_bytes()[1] {
            out.push((line, Token::Move(w)));
            return;
        }
        // A move number in front (`12.`, `3...`), marks behind.
        let unnumbered = w.trim_start_matches(|c: char| c.is_ascii_digit());
        let rest = if unnumbered.len() < w.len() && unnumbered.starts_with(['.', '。']) {
            unnumbered.trim_start_matches(['.', '。'])
        } else if unnumbered.is_empty() {
            ""
        } else {
            w.trim_start_matches('.')
        };
        let rest = rest.trim_end_matches(['!', '?', '#', '+']);
        // A result glued to the last move number is still a result.
        if RESULTS.contains(&rest) {
            out.push((line, Token::Result(rest.to_string())));
        } else if !rest.is_empty() {
            out.push((line, Token::Move(rest.to_string())));
        }
    };
    while let Some(c) = chars.next() {
        if at_line_start && c == '%' {
            for d in chars.by_ref() {
                if d == '\n' {
                    line += 1;
                    break;
                }
            }
            continue;
        }
        at_line_start = false;
        match c {
            '\n' => {
                flush(&mut word, &mut out, line);
                line += 1;
                at_line_start = true;
            }
            '{' => {
                flush(&mut word, &mut out, line);
                let start = line;
                let mut comment = String::new();
                let mut closed = false;
                for d in chars.by_ref() {
                    if d == '}' {
                        closed = true;
                        break;
                    }
                    if d == '\n' {
                        line += 1;
                    }
                    comment.push(d);
                }
                if !closed {
                    return Err(ReadError::at(
                        Place::Line(start),
                        "a comment opened with '{' here is never closed",
                    ));
                }
                out.push((start, Token::Comment(comment.trim().to_string())));
            }
            ';' => {
                flush(&mut word, &mut out, line);
                let mut comment = String::new();
                while let Some(&d) = chars.peek() {
                    if d == '\n' {
                        break;
                    }
                    comment.push(d);
                    chars.next();
                }
                out.push((line, Token::Comment(comment.trim().to_string())));
            }
            '[' => {
                flush(&mut word, &mut out, line);
                let mut inner = String::new();
                let mut quoted = false;
                let mut closed = false;
                let mut escaped = false;
                while let Some(&d) = chars.peek() {
                    if d == '\n' {
                        break;
                    }
                    chars.next();
                    if quoted && escaped {
                        escaped = false;
                    } else if quoted && d == '\\' {
                        escaped = true;
                    } else if d == '"' {
                        quoted = !quoted;
                    } else if d == ']' && !quoted {
                        closed = true;
                        break;
                    }
                    inner.push(d);
                }
                if !closed {
                    return Err(ReadError::at(
                        Place::Line(line),
                        format!("the tag '[{inner}' is not closed with ']' on its line"),
                    ));
                }
                let inner = inner.trim();
                let (name, value) = inner.split_once(char::is_whitespace).unwrap_or((inner, ""));
                let value = value.trim();
                let value = value.strip_prefix('"').unwrap_or(value);
                let value = value.strip_suffix('"').unwrap_or(value);
                out.push((
                    line,
                    Token::Tag(name.to_string(), value.replace("\\\"", "\"")),
                ));
            }
            '(' => {
                flush(&mut word, &mut out, line);
                out.push((line, Token::Open));
            }
            ')' => {
                flush(&mut word, &mut out, line);
                out.push((line, Token::Close));
            }
            c if c.is_whitespace() => flush(&mut word, &mut out, line),
            c => word.push(c),
        }
    }
    flush(&mut word, &mut out, line);
    Ok(out)
}

/// One line of play being read: the main line or a variation.
#[derive(Clone, Debug)]
struct Frame {
    /// The node the next move follows (`None`: the start).
    cursor: Option<usize>,
    /// The position after `cursor`.
    pos: Position,
    /// Plies from the start to `pos`.
    ply: usize,
    /// The last move of this line, the position before it and the node it
    /// follows: where a variation opened now branches off.
    last: Option<(usize, Position, Option<usize>)>,
    /// The line met a move that could not be played: the rest is skipped.
    dead: bool,
    /// The line where the variation opened.
    opened: usize,
}

/// A game being read.
struct Builder {
    line: usize,
    tags: Vec<(String, String)>,
    game: Option<Game>,
    frames: Vec<Frame>,
}

impl Builder {
    fn new(line: usize) -> Builder {
        Builder {
            line,
            tags: Vec::new(),
            game: None,
            frames: Vec::new(),
        }
    }

    /// Starts the movetext: the start position from the tags.
    fn begin(&mut self) -> Result<&mut Game, ReadError> {
        if self.game.is_none() {
            let fen = self
                .tags
                .iter()
                .find(|(k, v)| k.eq_ignore_ascii_case("FEN") && !v.trim().is_empty())
                .map(|(_, v)| v.trim().to_string());
            let start = match &fen {
                None => Position::startpos(),
                Some(f) => crate::fen::read_fen(f).map(|(p, _)| p).map_err(|e| {
                    ReadError::at(
                        Place::Line(self.line),
                        format!("the game's FEN tag '{f}' cannot be played: {e}"),
                    )
                })?,
            };
            let mut game = Game::new(Format::Pgn, start.clone());
            for (k, v) in &self.tags {
                game.set_tag(k, v);
            }
            if game.tag("Red").is_none() {
                if let Some(white) = game.tag("White").map(str::to_string) {
                    game.set_tag("Red", &white);
                }
            }
            self.frames = vec![Frame {
                cursor: None,
                pos: start,
                ply: 0,
                last: None,
                dead: false,
                opened: self.line,
            }];
            self.game = Some(game);
        }
        Ok(self.game.as_mut().expect("just set"))
    }

    fn has_movetext(&self) -> bool {
        self.game.is_some()
    }

    /// The finished game, if anything was read.
    fn finish(mut self) -> Result<Option<Game>, ReadError> {
        if let Some(f) = self.frames.get(1) {
            return Err(ReadError::at(
                Place::Line(f.opened),
                "a variation opened with '(' here is never closed",
            ));
        }
        if self.game.is_none() && self.tags.is_empty() {
            return Ok(None);
        }
        self.begin()?;
        Ok(self.game)
    }

    fn play(&mut self, line: usize, text: &str) -> Result<(), ReadError> {
        self.begin()?;
        let (Some(game), Some(frame)) = (self.game.as_mut(), self.frames.last_mut()) else {
            return Ok(());
        };
        if frame.dead {
            return Ok(());
        }
        match parse_move_text(&frame.pos, text) {
            Ok(mv) => {
                let before = frame.pos.clone();
                let node = game.add(frame.cursor, mv);
                frame.last = Some((node, before, frame.cursor));
                frame.cursor = Some(node);
                frame.pos.make_move(mv);
                frame.ply += 1;
            }
            Err(e) => {
                let side = match frame.pos.side_to_move() {
                    Color::Red => "Red",
                    Color::Black => "Black",
                };
                game.problems
                    .push(format!("line {line}: ply {} ({side}): {e}", frame.ply + 1));
                frame.dead = true;
            }
        }
        Ok(())
    }

    fn comment(&mut self, text: String) -> Result<(), ReadError> {
        if text.is_empty() {
            return Ok(());
        }
        self.begin()?;
        let depth = self.frames.len();
        let (Some(game), Some(frame)) = (self.game.as_mut(), self.frames.last()) else {
            return Ok(());
        };
        let slot = match frame.cursor {
            Some(node) if frame.last.is_some() => &mut game.nodes[node].comment,
            None if depth == 1 => &mut game.comment,
            _ => return Ok(()),
        };
        match slot {
            Some(c) => {
                c.push('\n');
                c.push_str(&text);
            }
            None => *slot = Some(text),
        }
        Ok(())
    }

    fn open(&mut self, line: usize) -> Result<(), ReadError> {
        self.begin()?;
        let Some(frame) = self.frames.last() else {
            return Ok(());
        };
        let new = match &frame.last {
            Some((_, before, parent)) => Frame {
                cursor: *parent,
                pos: before.clone(),
                ply: frame.ply - 1,
                last: None,
                dead: frame.dead,
                opened: line,
            },
            // Nothing to be an alternative to: skipped.
            None => Frame {
                dead: true,
                opened: line,
                ..frame.clone()
            },
        };
        self.frames.push(new);
        Ok(())
    }

    fn close(&mut self, line: usize) -> Result<(), ReadError> {
        if self.frames.len() < 2 {
            return Err(ReadError::at(Place::Line(line), "')' closes no variation"));
        }
        self.frames.pop();
        Ok(())
    }
}

/// Reads the games of a PGN text.
pub(super) fn read(text: &str) -> Result<Vec<Game>, ReadError> {
    let mut games = Vec::new();
    let mut builder = Builder::new(1);
    for (line, token) in tokens(text)? {
        match token {
            Token::Tag(name, value) => {
                if builder.has_movetext() {
                    let done = std::mem::replace(&mut builder, Builder::new(line));
                    games.extend(done.finish()?);
                }
                if builder.tags.is_empty() {
                    builder.line = line;
                }
                builder.tags.push((name, value));
            }
            Token::Move(m) => builder.play(line, &m)?,
            Token::Comment(c) => builder.comment(c)?,
            Token::Open => builder.open(line)?,
            Token::Close => builder.close(line)?,
            Token::Result(r) => {
                if builder.frames.len() > 1 {
                    return Err(ReadError::at(
                        Place::Line(line),
                        format!("the result '{r}' stands inside a variation"),
                    ));
                }
                let game = builder.begin()?;
                if game.tag("Result").is_none() {
                    game.set_tag("Result", &r);
                }
                let done = std::mem::replace(&mut builder, Builder::new(line));
                games.extend(done.finish()?);
            }
        }
    }
    games.extend(builder.finish()?);
    Ok(games)
}
