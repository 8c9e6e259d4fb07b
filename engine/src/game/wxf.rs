//! WXF notation (the World Xiangqi Federation's, from the Asian Xiangqi
//! Federation's of 1980–82, www.wxf.org "Official Xiangqi piece names and
//! notation"): `C2.5`, `H8+7`, `R1-2`, `P7+1`.
//!
//! A move is a piece letter (K, A, E, H, R, C, P; B for the elephant and
//! N for the horse are read too), the file it stands on in the mover's
//! own numbering (1–9 from the mover's right), the direction (`+`
//! forward, `-` back, `.` or `=` along the rank) and a number: the file
//! moved to, or the points moved along a file. Two pieces of a kind on one
//! file are `+` (front) and `-` (rear) in place of the file: `R+.3`,
//! `C--1` (`+R.3`, the sign first, is read too). Pawns stacked on a file:
//! with three, `P+`, the middle one by its file (`P3.4`), `P-`; with four
//! or five, `++` and `--` for the foremost and rearmost, `P+` and `P-`
//! for the second from each end; with stacks on two files, the file
//! first: `3+.4`, `33.4` (the middle one), `3-.4`.
//!
//! Each move is turned into Chinese notation (`炮2平5`, `前车平3`,
//! `二兵平4`) and played by the board's own reader of it, so the two agree
//! on which piece a move names.

use shuai_board::{Color, File, Move, PieceKind, Position, Square};

/// Whether `text` has the shape of a WXF move (not whether it is legal).
pub(super) fn looks_like_wxf(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 4
        && b[..2].iter().all(|&c| {
            c.is_ascii_digit()
                || c == b'+'
                || c == b'-'
                || b"KAEBHNRCP".contains(&c.to_ascii_uppercase())
        })
        && b"+-.=".contains(&b[2])
        && b[3].is_ascii_digit()
}

/// The Chinese character of a WXF piece letter.
fn piece_char(letter: u8) -> Option<char> {
    Some(match letter.to_ascii_uppercase() {
        b'K' => '将',
        b'A' => '士',
        b'E' | b'B' => '象',
        b'H' | b'N' => '马',
        b'R' => '车',
        b'C' => '炮',
        b'P' => '兵',
        _ => return None,
    })
}

/// The mover's pawns on each file that has more than one, as (the file's
/// number for the mover, how many).
fn pawn_stacks(pos: &Position) -> Vec<(u8, usize)> {
    let color = pos.side_to_move();
    let mut count = [0usize; 9];
    for sq in Square::all() {
        if pos
            .piece_at(sq)
            .is_some_and(|p| p.color() == color && p.kind() == PieceKind::Pawn)
        {
            count[sq.file().index()] += 1;
        }
    }
    count
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n > 1)
        .filter_map(|(f, &n)| {
            let file = File::new(f as u8)?;
            Some((file.chinese_number(color), n))
        })
        .collect()
}

/// The Chinese prefix (piece and place) of a stacked pawn: `sign` is the
/// WXF mark (`+`, `-`, or the file's own digit for the middle one), `on`
/// the file when the move names it, `doubled` whether the sign was
/// written twice (`++`, `--`).
fn pawn_prefix(pos: &Position, sign: u8, on: Option<u8>, doubled: bool) -> Result<String, String> {
    let stacks = pawn_stacks(pos);
    let (file, n) =
        match on {
            Some(f) => stacks
                .iter()
                .copied()
                .find(|&(g, _)| g == f)
                .ok_or_else(|| format!("the side to move has no pawns stacked on file {f}"))?,
            None => match stacks.as_slice() {
                [one] => *one,
                [] => return Err("the side to move has no pawns stacked on one file".to_string()),
                _ => return Err(
                    "pawns are stacked on more than one file: the move must name the file (3+.4)"
                        .to_string(),
                ),
            },
        };
    // The n-th from the front, counted as the Chinese ordinals 一兵, 二兵….
    let ordinal = match (sign, doubled, n) {
        (b'+', true, _) => 1,
        (b'-', true, _) => n,
        (b'+', false, 4..) => 2,
        (b'-', false, 4..) => n - 1,
        (b'+', false, _) => 1,
        (b'-', false, _) => n,
        // The middle one, written with its file.
        (_, _, 3) => 2,
        (_, _, 5) => 3,
        _ => return Err(format!("no middle pawn among {n} on file {file}")),
    };
    // With stacks on two files the file must be named as well (`前3`,
    // `中3`); with one, the ordinal alone.
    Ok(if on.is_some() && stacks.len() > 1 {
        let place = match ordinal {
            1 => '前',
            o if o == n => '后',
            _ if n == 3 => '中',
            _ => {
                return Err(format!(
                    "name a pawn among {n} on file {file} by ++, P+, P-, --"
                ))
            }
        };
        format!("{place}{file}")
    } else {
        format!("{ordinal}兵")
    })
}

/// The legal move in `pos` that WXF `text` names, or why none.
pub(super) fn parse_wxf(pos: &Position, text: &str) -> Result<Move, String> {
    let bad = |why: &str| format!("'{text}' in WXF notation: {why}");
    let b = text.as_bytes();
    if !looks_like_wxf(text) {
        return Err(bad("not a move (like C2.5, H8+7, R+.3)"));
    }
    // The sign before the letter (`+R.3`) as after it (`R+.3`).
    let (first, second) = if (b[0] == b'+' || b[0] == b'-') && piece_char(b[1]).is_some() {
        (b[1], b[0])
    } else {
        (b[0], b[1])
    };
    let verb = match b[2] {
        b'+' => '进',
        b'-' => '退',
        _ => '平',
    };
    let number = char::from(b[3]);
    let digit = |c: u8| c.is_ascii_digit().then(|| c - b'0');
    let prefix = match (piece_char(first), digit(first)) {
        // A piece letter and its file, or + / - for two on one file.
        (Some(piece), _) => match (second, piece) {
            (b'1'..=b'9', _) => {
                let file = second - b'0';
                // The middle of three stacked pawns by its file.
                let stacked = piece == '兵'
                    && pawn_stacks(pos)
                        .iter()
                        .any(|&(f, n)| f == file && n % 2 == 1);
                if stacked {
                    pawn_prefix(pos, second, Some(file), false).map_err(|e| bad(&e))?
                } else {
                    format!("{piece}{file}")
                }
            }
            (b'+' | b'-', '兵') => pawn_prefix(pos, second, None, false).map_err(|e| bad(&e))?,
            (b'+', _) => format!("前{piece}"),
            (b'-', _) => format!("后{piece}"),
            _ => {
                return Err(bad(
                    "the file is a digit 1–9, or + / - for two pieces on one file",
                ))
            }
        },
        // ++ and --: the foremost and rearmost of four or five pawns.
        (None, None) if first == second => {
            pawn_prefix(pos, first, None, true).map_err(|e| bad(&e))?
        }
        // 3+.4, 33.4, 3-.4: a pawn of a stack on file 3.
        (None, Some(file)) if (1..=9).contains(&file) => {
            pawn_prefix(pos, second, Some(file), false).map_err(|e| bad(&e))?
        }
        _ => return Err(bad("not a move (like C2.5, H8+7, R+.3)")),
    };
    let chinese = format!("{prefix}{verb}{number}");
    pos.parse_chinese(&chinese).map_err(|e| {
        let side = match pos.side_to_move() {
            Color::Red => "Red",
            Color::Black => "Black",
        };
        bad(&format!("{e} (read as {chinese} for {side})"))
    })
}
