//! DhtmlXQ, the game text the big Xiangqi sites embed in their pages
//! (dpxq.com's viewer): `[DhtmlXQ]` … `[/DhtmlXQ]` around fields written
//! `[DhtmlXQ_name]value[/DhtmlXQ_name]`.
//!
//! * `binit`: the start, 32 two-digit places `xy` in the order Red's
//!   R N B A K A B N R C C P P P P P, then Black's; `x` is the file from
//!   the left (0–8), `y` the row from the top (0–9, Black's back rank 0),
//!   `99` a piece off the board. Without it, the standard start.
//! * `movelist`: the main line, four digits a move (`x y x y`).
//! * `move_A_B_C`: variation `C`, branching off line `A` (0: the main
//!   line) at its `B`-th move (from 1): its moves replace that move and
//!   what follows.
//! * `commentN` / `commentC_N`: the comment after move `N` (from the start
//!   of the game) of the main line / of variation `C`; `comment0` comes
//!   before the first move.
//! * `title`, `event`, `date`, `place`, `round`, `red`, `black`,
//!   `result`, `open`, `author`: the header.
//!
//! A page may hold several games: each block is one.

use super::{Format, Game, Place, ReadError};
use shuai_board::{Color, Move, Position, Square};
use std::collections::BTreeMap;

/// The line `offset` (a byte offset of `text`) is on, from 1.
fn line_of(text: &str, offset: usize) -> usize {
    1 + text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

/// A square from DhtmlXQ digits (file from the left, row from the top).
fn square(x: u8, y: u8) -> Option<Square> {
    if x < 9 && y < 10 {
        Square::from_coords(i32::from(x), 9 - i32::from(y))
    } else {
        None
    }
}

/// The standard start as a `binit` field.
const STANDARD_BINIT: &str = "8979695949392919097717866646260600102030405060708012720323436383";

/// The digits of `value` as numbers, or `None` if anything else is there.
fn digits(value: &str) -> Option<Vec<u8>> {
    value
        .trim()
        .bytes()
        .map(|b| b.is_ascii_digit().then(|| b - b'0'))
        .collect()
}

/// A line of a block: its number, the line it branches off, the move
/// (from 1) it replaces there, its moves as digits `x y x y`, and the text
/// line of its field.
type Line = (u32, u32, usize, Vec<(u8, u8, u8, u8)>, usize);

/// Reads every `[DhtmlXQ]` block of `text`.
pub(super) fn read(text: &str) -> Result<Vec<Game>, ReadError> {
    let mut games = Vec::new();
    let lower = text.to_ascii_lowercase();
    let mut from = 0;
    while let Some(start) = lower[from..].find("[dhtmlxq]").map(|i| from + i) {
        let body_start = start + "[dhtmlxq]".len();
        let Some(end) = lower[body_start..]
            .find("[/dhtmlxq]")
            .map(|i| body_start + i)
        else {
            return Err(ReadError::at(
                Place::Line(line_of(text, start)),
                "the [DhtmlXQ] block opened here is never closed with [/DhtmlXQ]",
            ));
        };
        games.push(read_block(text, &lower, body_start, end)?);
        from = end + "[/dhtmlxq]".len();
    }
    if games.is_empty() {
        return Err(ReadError::at(Place::Line(1), "no [DhtmlXQ] block found"));
    }
    Ok(games)
}

/// Reads the fields between `start` and `end` into a game.
fn read_block(text: &str, lower: &str, start: usize, end: usize) -> Result<Game, ReadError> {
    // (name, value, line of the field).
    let mut fields: Vec<(String, String, usize)> = Vec::new();
    let mut at = start;
    while let Some(open) = lower[at..end].find("[dhtmlxq_").map(|i| at + i) {
        let Some(close) = lower[open..end].find(']').map(|i| open + i) else {
            return Err(ReadError::at(
                Place::Line(line_of(text, open)),
                "a [DhtmlXQ_…] field name is not closed with ']'",
            ));
        };
        let name = &lower[open + "[dhtmlxq_".len()..close];
        let closing = format!("[/dhtmlxq_{name}]");
        let Some(value_end) = lower[close + 1..end].find(&closing).map(|i| close + 1 + i) else {
            return Err(ReadError::at(
                Place::Line(line_of(text, open)),
                format!("the field [DhtmlXQ_{name}] is not closed with [/DhtmlXQ_{name}]"),
            ));
        };
        fields.push((
            name.to_string(),
            text[close + 1..value_end].to_string(),
            line_of(text, open),
        ));
        at = value_end + closing.len();
    }
    let field = |name: &str| fields.iter().find(|(n, _, _)| n == name);

    // The start (the standard one when the block gives none).
    let (binit, binit_line) = field("binit").map_or((STANDARD_BINIT, 0), |f| (f.1.as_str(), f.2));
    let bad = |why: &str| {
        ReadError::at(
            Place::Line(binit_line.max(1)),
            format!("[DhtmlXQ_binit]: {why}"),
        )
    };
    let d = digits(binit).ok_or_else(|| bad("not all digits"))?;
    if d.len() != 64 {
        return Err(bad(&format!("{} digits where 64 belong", d.len())));
    }
    let squares: Vec<Option<Square>> = d.chunks(2).map(|xy| square(xy[0], xy[1])).collect();
    let board = super::place_pieces(&squares).map_err(|e| bad(&format!("the start puts {e}")))?;

    // The lines: (id, base line, step it branches at, moves, field line).
    let mut lines: Vec<Line> = Vec::new();
    let moves_of = |value: &str, name: &str, line: usize| {
        let d = digits(value).filter(|d| d.len() % 4 == 0).ok_or_else(|| {
            ReadError::at(
                Place::Line(line),
                format!("[DhtmlXQ_{name}] is not groups of four digits"),
            )
        })?;
        Ok::<_, ReadError>(
            d.chunks(4)
                .map(|c| (c[0], c[1], c[2], c[3]))
                .collect::<Vec<_>>(),
        )
    };
    if let Some((_, value, line)) = field("movelist") {
        lines.push((0, 0, 1, moves_of(value, "movelist", *line)?, *line));
    }
    let mut comments: BTreeMap<(u32, usize), String> = BTreeMap::new();
    for (name, value, line) in &fields {
        if let Some(rest) = name.strip_prefix("move_") {
            let numbers: Option<Vec<u32>> = rest.split('_').map(|n| n.parse().ok()).collect();
            let Some([base, step, id]) = numbers
                .as_deref()
                .and_then(|n| <[u32; 3]>::try_from(n).ok())
            else {
                return Err(ReadError::at(
                    Place::Line(*line),
                    format!("[DhtmlXQ_{name}] is not a variation name (move_A_B_C)"),
                ));
            };
            lines.push((
                id,
                base,
                step.max(1) as usize,
                moves_of(value, name, *line)?,
                *line,
            ));
        } else if let Some(rest) = name.strip_prefix("comment") {
            let parsed = match rest.split_once('_') {
                Some((id, step)) => id.parse().ok().zip(step.parse().ok()),
                None => rest.parse().ok().map(|step| (0, step)),
            };
            let value = value.replace("||", "\n");
            if let Some(key) = parsed.filter(|_| !value.trim().is_empty()) {
                comments.insert(key, value.trim().to_string());
            }
        }
    }
    lines.sort_by_key(|l| l.0);

    // Red first unless the main line's first move is Black's.
    let black_first = lines
        .first()
        .and_then(|l| l.3.first())
        .and_then(|&(x, y, _, _)| square(x, y))
        .and_then(|sq| board[sq.rank().index()][sq.file().index()])
        .is_some_and(|c| c.is_ascii_lowercase());
    let fen = super::board_fen(&board, if black_first { 'b' } else { 'w' });
    let start = crate::fen::read_fen(&fen).map(|(p, _)| p).map_err(|e| {
        ReadError::at(
            Place::Line(binit_line.max(1)),
            format!("the start position ({fen}) cannot be played: {e}"),
        )
    })?;

    let mut game = Game::new(Format::DhtmlXq, start.clone());
    let text_field = |name: &str| field(name).map(|f| f.1.trim().to_string());
    let title = text_field("title").unwrap_or_default();
    let event = text_field("event").unwrap_or_default();
    game.set_tag("Event", if event.is_empty() { &title } else { &event });
    if !event.is_empty() {
        game.set_tag("Title", &title);
    }
    for (tag, name) in [
        ("Date", "date"),
        ("Site", "place"),
        ("Round", "round"),
        ("Red", "red"),
        ("Black", "black"),
        ("RedTeam", "redteam"),
        ("BlackTeam", "blackteam"),
        ("Opening", "open"),
        ("Author", "author"),
    ] {
        game.set_tag(tag, &text_field(name).unwrap_or_default());
    }
    let result = match text_field("result").unwrap_or_default().as_str() {
        "红胜" | "紅勝" | "W" | "1-0" => "1-0",
        "黑胜" | "黑勝" | "L" | "0-1" => "0-1",
        "和棋" | "和" | "D" | "1/2-1/2" => "1/2-1/2",
        _ => "*",
    };
    game.set_tag("Result", result);
    if game.start.to_fen() != Position::startpos().to_fen() {
        let fen = game.start.to_fen();
        game.set_tag("FEN", &fen);
    }
    game.comment = comments.get(&(0, 0)).cloned();

    // Each line's nodes, step by step, to branch variations off.
    let mut paths: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for (id, base, step, moves, line) in &lines {
        let prefix: Vec<usize> = if *id == 0 {
            Vec::new()
        } else {
            match paths.get(base) {
                Some(path) if path.len() >= step - 1 => path[..step - 1].to_vec(),
                _ => {
                    game.problems.push(format!(
                        "line {line}: variation {id} branches off move {step} of line {base}, \
                         which has no such move"
                    ));
                    continue;
                }
            }
        };
        let mut pos = start.clone();
        for &node in &prefix {
            pos.make_move(game.nodes[node].mv);
        }
        let mut path = prefix;
        for &(x1, y1, x2, y2) in moves {
            let ply = path.len() + 1;
            let mv = match (square(x1, y1), square(x2, y2)) {
                (Some(a), Some(b)) if a != b => Some(Move::new(a, b)),
                _ => None,
            };
            let Some(mv) = mv.filter(|&m| pos.is_legal(m)) else {
                let side = match pos.side_to_move() {
                    Color::Red => "Red",
                    Color::Black => "Black",
                };
                let shown = mv.map_or(format!("{x1}{y1}{x2}{y2}"), |m| {
                    format!("{x1}{y1}{x2}{y2} ({m})")
                });
                game.problems.push(format!(
                    "line {line}: line {id}, ply {ply} ({side}): {shown} is not a legal move here"
                ));
                break;
            };
            let parent = path.last().copied();
            let node = game.add(parent, mv);
            game.nodes[node].comment = comments.get(&(*id, ply)).cloned();
            pos.make_move(mv);
            path.push(node);
        }
        paths.insert(*id, path);
    }
    Ok(game)
}
