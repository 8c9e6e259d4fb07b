//! The board drawn as text: Chinese piece characters on a grid of box
//! lines (red and black in colour on a colour terminal), or FEN letters on
//! an ASCII grid.
//!
//! Black sits at the top. Above the board are Black's file numbers (1–9,
//! counted from Black's right), below it Red's (一–九, counted from Red's
//! right) and the ICCS file letters a–i; the ICCS rank digits 0–9 run down
//! the left side. With colour, Red's pieces are red and Black's are black,
//! both on a light disc, and the last move's destination is on a yellow
//! disc with its origin point in yellow. Without colour the Chinese board
//! keeps the sides apart by the characters themselves: Red 帅仕相俥傌炮兵,
//! Black 将士象车马砲卒 (the traditional red rook, horse and the black
//! cannon, as on many printed sets).
//!
//! Each point takes four columns: a piece (two columns wide in a terminal)
//! and the line to the next point. Box-drawing characters are assumed one
//! column wide, as in most terminals; `--ascii` draws with `+-|/\` only.

use super::Style;
use shuai_board::{Color, File, Move, Piece, PieceKind, Position, Rank, Square};

const RESET: &str = "\x1b[0m";
const RED_PIECE: &str = "\x1b[1;31;47m";
const BLACK_PIECE: &str = "\x1b[1;30;47m";
const RED_MOVED: &str = "\x1b[1;31;43m";
const BLACK_MOVED: &str = "\x1b[1;30;43m";
const MOVED_FROM: &str = "\x1b[1;33m";

/// The character drawn for `piece` on a Chinese board: the usual simplified
/// character with colour, distinct red and black characters without.
pub fn piece_glyph(piece: Piece, color: bool) -> char {
    if color {
        return piece.chinese_char();
    }
    match (piece.color(), piece.kind()) {
        (Color::Red, PieceKind::Rook) => '俥',
        (Color::Red, PieceKind::Horse) => '傌',
        (Color::Black, PieceKind::Cannon) => '砲',
        _ => piece.chinese_char(),
    }
}

/// The legend printed under an ASCII board.
pub const ASCII_LEGEND: &str =
    "Red upper case, Black lower case: K king, A advisor, B elephant, N horse, R rook, C cannon, P pawn";

/// The grid point drawn where `sq` is empty.
fn junction(sq: Square, ascii: bool) -> char {
    if ascii {
        return '+';
    }
    let (f, r) = (sq.file().index(), sq.rank().index());
    match (f, r) {
        (0, 9) => '┌',
        (8, 9) => '┐',
        (0, 0) => '└',
        (8, 0) => '┘',
        (0, _) => '├',
        (8, _) => '┤',
        (_, 9) | (_, 4) => '┬',
        (_, 0) | (_, 5) => '┴',
        _ => '┼',
    }
}

/// The diagonal drawn between `file` and the next file, in the gap below
/// `upper` (the palace lines), if any.
fn diagonal(file: usize, upper: usize) -> Option<bool> {
    // `true` is '╲' (down to the right), `false` is '╱'.
    match (file, upper) {
        (3, 9) | (3, 2) => Some(true),
        (4, 9) | (4, 2) => Some(false),
        (3, 8) | (3, 1) => Some(false),
        (4, 8) | (4, 1) => Some(true),
        _ => None,
    }
}

/// Draws `pos` with `last` (the move just played, if any) highlighted when
/// colour is on. Lines end with `\n`; no line has trailing spaces.
pub fn render(pos: &Position, style: Style, last: Option<Move>) -> String {
    let ascii = style.ascii;
    let (hline, vline) = if ascii { ('-', '|') } else { ('─', '│') };
    let mut lines: Vec<String> = Vec::with_capacity(24);

    // Black's file numbers, counted from Black's right (file a is 1).
    let mut top = String::from("   ");
    for file in File::ALL {
        top.push_str(&format!("{:<4}", file.chinese_number(Color::Black)));
    }
    lines.push(top);

    for r in (0..10u8).rev() {
        let rank = Rank::new(r).expect("rank 0..10");
        let mut row = format!("{}  ", rank.to_char());
        for f in 0..9u8 {
            let sq = Square::new(File::new(f).expect("file 0..9"), rank);
            let is_to = last.is_some_and(|m| m.to() == sq);
            let is_from = last.is_some_and(|m| m.from() == sq);
            let links = if f == 8 { 0 } else { 3 };
            match pos.piece_at(sq) {
                Some(piece) => {
                    let (glyph, width) = if ascii {
                        (piece.fen_char(), 1)
                    } else {
                        (piece_glyph(piece, style.color), 2)
                    };
                    if style.color {
                        let code = match (piece.color(), is_to) {
                            (Color::Red, false) => RED_PIECE,
                            (Color::Black, false) => BLACK_PIECE,
                            (Color::Red, true) => RED_MOVED,
                            (Color::Black, true) => BLACK_MOVED,
                        };
                        row.push_str(code);
                        row.push(glyph);
                        row.push_str(RESET);
                    } else {
                        row.push(glyph);
                    }
                    if f < 8 {
                        row.extend(std::iter::repeat_n(hline, 4 - width));
                    }
                }
                None => {
                    let j = junction(sq, ascii);
                    if style.color && is_from {
                        row.push_str(MOVED_FROM);
                        row.push(j);
                        row.push_str(RESET);
                    } else {
                        row.push(j);
                    }
                    row.extend(std::iter::repeat_n(hline, links));
                }
            }
        }
        lines.push(row);

        if r == 0 {
            break;
        }
        let mut gap = String::from("   ");
        if r == 5 {
            // The river: only the edge lines cross it.
            let (left, right) = if ascii {
                ("   Chu He", "Han Jie   ")
            } else {
                ("   楚  河", "汉  界   ")
            };
            let used = if ascii { 9 + 10 } else { 9 + 9 };
            gap.push(vline);
            gap.push_str(left);
            gap.push_str(&" ".repeat(31 - used));
            gap.push_str(right);
            gap.push(vline);
        } else {
            for f in 0..9usize {
                gap.push(vline);
                if f < 8 {
                    match diagonal(f, r as usize) {
                        Some(down) => {
                            let c = match (down, ascii) {
                                (true, false) => '╲',
                                (false, false) => '╱',
                                (true, true) => '\\',
                                (false, true) => '/',
                            };
                            gap.push(' ');
                            gap.push(c);
                            gap.push(' ');
                        }
                        None => gap.push_str("   "),
                    }
                }
            }
        }
        lines.push(gap);
    }

    // Red's file numbers, counted from Red's right (file i is 一).
    let mut bottom = String::from("   ");
    for file in File::ALL {
        let n = file.chinese_number(Color::Red);
        if ascii {
            bottom.push_str(&format!("{n:<4}"));
        } else {
            bottom.push(RED_NUMERALS[usize::from(n) - 1]);
            bottom.push_str("  ");
        }
    }
    lines.push(bottom);
    let mut letters = String::from("   ");
    for file in File::ALL {
        letters.push(file.to_char());
        letters.push_str("   ");
    }
    lines.push(letters);
    if ascii {
        lines.push(ASCII_LEGEND.to_string());
    }

    let mut out = String::new();
    for line in lines {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_board_row_is_as_wide_in_every_style() {
        let mut pos = Position::startpos();
        let m = pos.parse_move("h2e2").unwrap();
        pos.make_move(m);
        for color in [false, true] {
            for ascii in [false, true] {
                let text = render(&pos, Style { color, ascii }, Some(m));
                let rows: Vec<&str> = text.lines().collect();
                // Ten ranks and nine gaps between the two label rows.
                // Every row is 36 columns, one more when a Chinese piece
                // stands on file i.
                for row in &rows[1..20] {
                    let visible = row.replace(RESET, "");
                    let visible = visible.rsplit('\x1b').next().unwrap_or("");
                    let wide = visible.ends_with(|c: char| c >= '\u{4e00}');
                    assert_eq!(
                        super::super::display_width(row),
                        36 + usize::from(wide),
                        "{color} {ascii}: {row:?}"
                    );
                }
                assert!(!text.contains(" \n"));
            }
        }
    }

    #[test]
    fn glyphs_tell_the_sides_apart_without_colour() {
        let mut seen = std::collections::HashSet::new();
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                assert!(seen.insert(piece_glyph(Piece::new(color, kind), false)));
            }
        }
    }
}
