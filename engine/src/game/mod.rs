//! Game files as Xiangqi players keep them: XQF (XQStudio, all versions,
//! the encrypted ones included), PGN (ICCS or Chinese notation, several
//! games a file, variations and comments) and DhtmlXQ (the
//! `[DhtmlXQ]…[/DhtmlXQ]` text game sites embed in their pages).
//!
//! [`read_games`] tells the formats apart by their content and returns the
//! games with their move trees: every game keeps its variations and
//! comments; [`Game::main_line`] is the line played.
//!
//! A file that cannot be read (truncated, corrupt, not a game file) is one
//! [`ReadError`] naming the place: a byte offset for XQF, a line for the
//! text formats. A move that is not legal where it stands ends its line:
//! the game keeps the moves before it and [`Game::problems`] names the
//! move and its place.
//!
//! Text is read as UTF-8, or as GB18030 (which covers GBK and GB2312, what
//! older Chinese software writes) when it is not valid UTF-8.

mod dhtmlxq;
mod pgn;
mod wxf;
mod xqf;

use shuai_board::{Move, Position, Square};
use std::fmt;

/// Where in a file something is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A byte offset from the start of the file (binary formats).
    Byte(usize),
    /// A line, counted from 1 (text formats).
    Line(usize),
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Byte(b) => write!(f, "byte {b}"),
            Place::Line(l) => write!(f, "line {l}"),
        }
    }
}

/// Why a file could not be read, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// Where the reading stopped.
    pub place: Place,
    /// What was wrong there.
    pub message: String,
}

impl ReadError {
    fn at(place: Place, message: impl Into<String>) -> ReadError {
        ReadError {
            place,
            message: message.into(),
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.place, self.message)
    }
}

impl std::error::Error for ReadError {}

/// The file formats read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// XQStudio's binary format.
    Xqf,
    /// Portable Game Notation, with ICCS or Chinese moves.
    Pgn,
    /// The DhtmlXQ text of game web pages.
    DhtmlXq,
}

impl Format {
    /// The format's usual name.
    pub fn name(self) -> &'static str {
        match self {
            Format::Xqf => "XQF",
            Format::Pgn => "PGN",
            Format::DhtmlXq => "DhtmlXQ",
        }
    }
}

/// One move of a game's move tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The move.
    pub mv: Move,
    /// The comment after the move, if any.
    pub comment: Option<String>,
    /// The node whose move came before (`None` for a first move).
    pub parent: Option<usize>,
    /// The moves that can follow, the main continuation first.
    pub children: Vec<usize>,
}

/// A game read from a file: its tags, its start and its move tree.
///
/// The tree lives in [`Game::nodes`] (indices, so that a long or deeply
/// nested game needs no recursion); [`Game::first`] holds the first moves,
/// the main one first, and every node's `children` likewise.
#[derive(Clone, Debug)]
pub struct Game {
    /// The file's format.
    pub format: Format,
    /// Header fields under PGN names where there is one (`Event`, `Site`,
    /// `Date`, `Round`, `Red`, `Black`, `Result`, `Opening`, …), in the
    /// order found.
    pub tags: Vec<(String, String)>,
    /// The position before the first move.
    pub start: Position,
    /// The comment before the first move, if any.
    pub comment: Option<String>,
    /// Every move of the tree.
    pub nodes: Vec<Node>,
    /// The first moves (indices into [`Game::nodes`]), the main one first.
    pub first: Vec<usize>,
    /// Moves that could not be played, each with its place: a line of the
    /// tree ends at such a move.
    pub problems: Vec<String>,
}

impl Game {
    fn new(format: Format, start: Position) -> Game {
        Game {
            format,
            tags: Vec::new(),
            start,
            comment: None,
            nodes: Vec::new(),
            first: Vec::new(),
            problems: Vec::new(),
        }
    }

    /// The value of tag `name` (case-insensitive), if set and not empty.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, v)| k.eq_ignore_ascii_case(name) && !v.is_empty())
            .map(|(_, v)| v.as_str())
    }

    fn set_tag(&mut self, name: &str, value: &str) {
        let value = value.trim();
        if value.is_empty() {
            return;
        }
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some(entry) => entry.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// Adds `mv` after node `parent` (`None`: a first move) as its last
    /// alternative, returning the new node's index.
    fn add(&mut self, parent: Option<usize>, mv: Move) -> usize {
        let index = self.nodes.len();
        self.nodes.push(Node {
            mv,
            comment: None,
            parent,
            children: Vec::new(),
        });
        match parent {
            Some(p) => self.nodes[p].children.push(index),
            None => self.first.push(index),
        }
        index
    }

    /// The node indices of the main line: the first move, then each
    /// node's first child.
    pub fn main_nodes(&self) -> Vec<usize> {
        let mut line = Vec::new();
        let mut next = self.first.first().copied();
        while let Some(i) = next {
            line.push(i);
            next = self.nodes[i].children.first().copied();
        }
        line
    }

    /// The moves of the main line.
    pub fn main_line(&self) -> Vec<Move> {
        self.main_nodes()
            .into_iter()
            .map(|i| self.nodes[i].mv)
            .collect()
    }

    /// Every line of the tree from the start to a leaf, the main line
    /// first, then in the order the alternatives stand.
    pub fn lines(&self) -> Vec<Vec<Move>> {
        let mut lines = Vec::new();
        // Depth-first over the leaves, alternatives in their order.
        let mut stack: Vec<usize> = self.first.iter().rev().copied().collect();
        while let Some(i) = stack.pop() {
            let node = &self.nodes[i];
            if node.children.is_empty() {
                let mut line = Vec::new();
                let mut at = Some(i);
                while let Some(j) = at {
                    line.push(self.nodes[j].mv);
                    at = self.nodes[j].parent;
                }
                line.reverse();
                lines.push(line);
            }
            stack.extend(node.children.iter().rev());
        }
        lines
    }

    /// The number of moves in the tree.
    pub fn move_count(&self) -> usize {
        self.nodes.len()
    }

    /// A one-line description: `Red – Black, Event, Date`, with what the
    /// file gives.
    pub fn title(&self) -> String {
        let red = self.tag("Red").unwrap_or("?");
        let black = self.tag("Black").unwrap_or("?");
        let mut parts = vec![format!("{red} – {black}")];
        for name in ["Event", "Date"] {
            if let Some(v) = self.tag(name) {
                parts.push(v.to_string());
            }
        }
        parts.join(", ")
    }
}

/// Which format `bytes` hold: XQF by its `XQ` mark, DhtmlXQ by its
/// `[DhtmlXQ` tag, PGN otherwise.
pub fn detect(bytes: &[u8]) -> Format {
    if bytes.starts_with(b"XQ") {
        Format::Xqf
    } else if contains(bytes, b"[DhtmlXQ") || contains(bytes, b"[dhtmlxq") {
        Format::DhtmlXq
    } else {
        Format::Pgn
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Reads every game of a game file's contents, in whichever of the
/// formats it is ([`detect`]).
///
/// # Errors
/// A [`ReadError`] with the place, when the file is not a game file or is
/// cut short or corrupt. Illegal moves are not errors: they end their
/// line and are listed in [`Game::problems`].
pub fn read_games(bytes: &[u8]) -> Result<Vec<Game>, ReadError> {
    match detect(bytes) {
        Format::Xqf => xqf::read(bytes).map(|g| vec![g]),
        Format::DhtmlXq => dhtmlxq::read(&decode_text(bytes)),
        Format::Pgn => pgn::read(&decode_text(bytes)),
    }
}

/// Text as UTF-8 (without a byte-order mark), or as GB18030 when it is not
/// valid UTF-8.
pub fn decode_text(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => decode_gb(bytes),
    }
}

/// GB18030 (GBK, GB2312) bytes as text; bytes that are not GB18030 become
/// U+FFFD.
fn decode_gb(bytes: &[u8]) -> String {
    encoding_rs::GB18030
        .decode_without_bom_handling(bytes)
        .0
        .into_owned()
}

/// The legal move in `pos` that a move's text names: ICCS (`h2e2`,
/// `H2-E2`), WXF (`C2.5`, `H8+7`, `R+.3`) or Chinese notation (`炮二平五`,
/// `马８进７`); or why none.
pub fn parse_move_text(pos: &Position, text: &str) -> Result<Move, String> {
    // WXF's third character is a sign (+ - . =), ICCS's a file letter: the
    // shapes do not overlap.
    if wxf::looks_like_wxf(text) {
        return wxf::parse_wxf(pos, text);
    }
    let bytes = text.as_bytes();
    let iccs = match bytes {
        [a, b, b'-', c, d] => Some([*a, *b, *c, *d]),
        [a, b, c, d] => Some([*a, *b, *c, *d]),
        _ => None,
    };
    if let Some(iccs) = iccs.filter(|m| m.is_ascii()) {
        let iccs = String::from_utf8_lossy(&iccs).to_string();
        return match pos.parse_move(&iccs) {
            Ok(m) => Ok(m),
            Err(shuai_board::MoveParseError::Illegal(_)) => {
                Err(format!("'{text}' is not a legal move in this position"))
            }
            Err(shuai_board::MoveParseError::Malformed(_)) => Err(format!(
                "'{text}' is not a move in ICCS (h2e2, H2-E2), WXF (C2.5) or Chinese notation (炮二平五)"
            )),
        };
    }
    pos.parse_chinese(text).map_err(|e| e.to_string())
}

/// FEN letters of the 16 pieces of a side in the order XQF and DhtmlXQ
/// list them (Red's; Black's are the lower case).
const PIECE_ORDER: &[u8; 16] = b"RNBAKABNRCCPPPPP";

/// A board of FEN letters (`board[rank][file]`) from the squares of the
/// 32 pieces in [`PIECE_ORDER`], Red's then Black's (`None`: off the
/// board); or the two pieces that share a point.
fn place_pieces(squares: &[Option<Square>]) -> Result<[[Option<char>; 9]; 10], String> {
    let mut board = [[None::<char>; 9]; 10];
    for (i, sq) in squares.iter().enumerate() {
        let Some(sq) = sq else { continue };
        let letter = char::from(PIECE_ORDER[i % 16]);
        let letter = if i < 16 {
            letter
        } else {
            letter.to_ascii_lowercase()
        };
        let cell = &mut board[sq.rank().index()][sq.file().index()];
        if let Some(other) = cell {
            return Err(format!("two pieces ('{other}' and '{letter}') on {sq}"));
        }
        *cell = Some(letter);
    }
    Ok(board)
}

/// The FEN of a board of FEN letters (`board[rank][file]`, rank 0 Red's
/// back rank) with `side` to move.
fn board_fen(board: &[[Option<char>; 9]; 10], side: char) -> String {
    let mut fen = String::new();
    for rank in (0..10).rev() {
        let mut empty = 0u8;
        for cell in &board[rank] {
            match cell {
                Some(c) => {
                    if empty > 0 {
                        fen.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    fen.push(*c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen.push(' ');
    fen.push(side);
    fen
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod wxf_tests;
