//! The opening of a game named by its ECCO code (中国象棋开局分类), such as
//! `C70 五七炮对屏风马进３卒`, for `shuai review` and the browser page's
//! review.
//!
//! Each opening of the table ([`ecco`]) is what its moves change: the
//! pieces on the points they move to, and the points they leave (which
//! the piece of the start must have left; another may stand there). A
//! game reaches an opening when one of its positions is so,
//! whatever the order its moves came in (transpositions count, and moves
//! the opening does not name may come in between). Of the openings a game
//! reaches in its first [`OPENING_PLIES`] plies, the one that names the
//! most points is its opening; on a tie, the one reached first.
//!
//! As in ECCO, the first moves fix the group: only openings that begin
//! with Red's first move (飞相局, 中炮, 仙人指路, …) and have Black's first
//! reply among their moves are tried; a game whose first move begins none
//! is `A00 非常见开局`. The mirror image of a game (炮八平五
//! for 炮二平五) is the same opening.

mod ecco;

use shuai_board::{Color, Move, Piece, Position, Square};
use std::fmt;
use std::sync::OnceLock;

/// The plies of a game looked at for its opening.
pub const OPENING_PLIES: usize = 30;

/// A game's opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The ECCO code, `A00` to `E99`.
    pub code: &'static str,
    /// The opening's Chinese name.
    pub name: &'static str,
}

impl fmt::Display for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.code, self.name)
    }
}

/// The opening of a game whose first move begins none in the table.
const UNCOMMON: Opening = Opening {
    code: "A00",
    name: "非常见开局",
};

/// What an opening needs of a point its moves changed.
#[derive(Clone, Copy, Debug)]
enum Need {
    /// This piece stands there.
    Is(Piece),
    /// The piece of the start left it. Not "empty": in real games the
    /// point fills up again (车9平8 after 马8进7) and the opening is the
    /// same; but 象7进5 and 象3进5 differ only by the point left.
    Left(Piece),
}

impl Need {
    fn holds(self, there: Option<Piece>) -> bool {
        match self {
            Need::Is(p) => there == Some(p),
            Need::Left(p) => there != Some(p),
        }
    }
}

/// One opening of the table, played out.
struct Entry {
    opening: Opening,
    /// Red's first move.
    first: Move,
    /// Black's moves (empty for an opening of Red's first move alone).
    replies: Vec<Move>,
    /// The moves the opening names (passes not counted).
    length: usize,
    /// The points the opening's moves changed, with what they need.
    points: Vec<(Square, Need)>,
}

/// The table played out from the start, once. An entry whose moves do not
/// play (a mistake in the table, which the tests rule out) is left out
/// rather than stopping a review.
fn entries() -> &'static [Entry] {
    static ENTRIES: OnceLock<Vec<Entry>> = OnceLock::new();
    ENTRIES.get_or_init(|| {
        ecco::TABLE
            .iter()
            .filter_map(|&(code, name, moves)| play_out(code, name, moves).ok())
            .collect()
    })
}

/// Plays an entry's moves from the start: its first move and the points
/// they changed, or the move that could not be played.
fn play_out(code: &'static str, name: &'static str, moves: &str) -> Result<Entry, String> {
    let start = Position::startpos();
    let mut pos = start.clone();
    let mut first = None;
    let mut replies = Vec::new();
    let mut length = 0;
    for text in moves.split_whitespace() {
        if text == "--" {
            pos.make_null_move();
            continue;
        }
        let mv = pos
            .parse_chinese(text)
            .map_err(|e| format!("{code} {name}: {e}"))?;
        if pos.side_to_move() == Color::Black {
            replies.push(mv);
        }
        first.get_or_insert(mv);
        pos.make_move(mv);
        length += 1;
    }
    let first = first.ok_or_else(|| format!("{code} {name}: no moves"))?;
    let points = Square::all()
        .filter_map(|sq| match (start.piece_at(sq), pos.piece_at(sq)) {
            (before, Some(now)) if before != Some(now) => Some((sq, Need::Is(now))),
            (Some(before), None) => Some((sq, Need::Left(before))),
            _ => None,
        })
        .collect();
    Ok(Entry {
        opening: Opening { code, name },
        first,
        replies,
        length,
        points,
    })
}

fn mirror(mv: Move) -> Move {
    Move::new(mv.from().mirror(), mv.to().mirror())
}

/// The ECCO opening of a game from the standard start (`start`, then
/// `moves`); `None` for a game from another position or without moves.
pub fn classify(start: &Position, moves: &[Move]) -> Option<Opening> {
    // The board and the side to move; the move counters do not matter.
    let setup = |p: &Position| {
        let fen = p.to_fen();
        fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
    };
    if setup(start) != setup(&Position::startpos()) {
        return None;
    }
    let &first = moves.first()?;
    let reply = moves.get(1).copied();
    let seen = |mv: Move, mirrored: bool| if mirrored { mirror(mv) } else { mv };
    // The entries of the game's group, each with whether it is seen in
    // the mirror: Red's first move theirs, and Black's first reply one of
    // their moves (ECCO's tree parts 兵三进一 象7进5 from 兵三进一 卒3进1
    // for good, whatever follows).
    let candidates: Vec<(&Entry, bool)> = entries()
        .iter()
        .flat_map(|e| [(e, false), (e, true)])
        .filter(|&(e, mirrored)| {
            first == seen(e.first, mirrored)
                && (e.replies.is_empty()
                    || reply.is_some_and(|r| e.replies.iter().any(|&m| seen(m, mirrored) == r)))
        })
        .collect();
    let mut best: Option<((usize, usize), &Entry)> = None;
    let mut pos = start.clone();
    for &mv in moves.iter().take(OPENING_PLIES) {
        pos.make_move(mv);
        for &(entry, mirrored) in &candidates {
            let holds = entry.points.iter().all(|&(sq, need)| {
                let sq = if mirrored { sq.mirror() } else { sq };
                need.holds(pos.piece_at(sq))
            });
            // The longer line wins, then the one naming more points; on a
            // tie the one found first stays.
            let size = (entry.length, entry.points.len());
            if holds && best.is_none_or(|(n, _)| size > n) {
                best = Some((size, entry));
            }
        }
    }
    Some(best.map_or(UNCOMMON, |(_, e)| e.opening))
}

#[cfg(test)]
mod tests;
