//! Chinese move notation (炮二平五, 马8进7, 前车进一): both ways.
//!
//! [`Position::to_chinese`] writes a legal move the way Chinese books and
//! game records do; [`Position::parse_chinese`] reads such text back and
//! returns the legal move it names.
//!
//! # The notation written
//!
//! A move is four characters: piece, origin file, verb, number — `炮二平五`.
//!
//! * **Pieces** use the simplified characters with the distinct Red and Black
//!   names ([`crate::Piece::chinese_char`]): Red 帅仕相马车炮兵, Black
//!   将士象马车炮卒.
//! * **Files** are counted right to left from the mover's own side (Red's
//!   file `a` is 九, `i` is 一; Black's `a` is 1, `i` is 9). Red writes
//!   Chinese numerals 一–九 and Black writes digits, for the file and for the
//!   distance alike. Black's digits are **ASCII** `1`–`9` (`马8进7`). Printed
//!   books and GB-era software often use full-width `１`–`９` for the same
//!   thing; ASCII is chosen because it is one byte, one column in any
//!   terminal and what people type. Both are accepted on input.
//! * **Verbs**: 进 forward (towards the opponent), 退 back, 平 sideways.
//! * **Number**: for the straight movers (车 炮 兵 帅/将) moving 进/退 it is
//!   the number of ranks moved; after 平 it is the destination file; for the
//!   diagonal movers (马 仕/士 相/象) it is always the destination file.
//!
//! Several pieces of one kind on one file are told apart by their place on
//! that file, "front" meaning further forward from the mover's side:
//!
//! * **Two** (车 马 炮 兵): 前/后 replaces the file and goes before the
//!   piece — `前车进一`, `后马退8`. (象棋竞赛规则 2020, 第7条 7.5:
//!   "记录应用'前''中''后'来表明，如：前马退四、后车平六".)
//! * **Three** pawns: 前/中/后 — `中兵平四` (same rule).
//! * **Four or five** pawns: 一二三四五 counted from the front, written in
//!   Chinese numerals for Black too, because they stand for 前/中/后 rather
//!   than count anything — `一兵平八`, `三卒平4`. (《中国象棋电脑应用规范
//!   （二）：着法表示》, xqbase.com, §四: "三个以上兵在一条纵线上：最前面的兵用
//!   '一'代替'前'，以后依次是'二'、'三'、'四'和'五'"; its own example writes
//!   Black's as "一卒平５".)
//! * **Two files** each with two or more pawns (only a 2+2 or 3+2 split is
//!   possible with five pawns): the traditional form that restores the
//!   origin file after the piece, five characters — `前兵三进一`, `后卒7平6`.
//!   (Chinese Wikipedia, 象棋 § 记谱: "当兵卒在两个纵线都达到两个以上时 …
//!   前兵九平八"; python-chinese-chess documents the same form.) The xqbase
//!   standard instead numbers all those pawns 一–五 across both files; that
//!   form is accepted on input but not written, because its sources
//!   disagree on the order and the file is the clearer disambiguator.
//! * **Advisors and elephants** never take 前/后: two of them on one file are
//!   always told apart by the verb (the front one can only go back, the rear
//!   one only forward), so the file is kept — `仕六进五` / `仕六退五`.
//!   (xqbase §四: "仕(士)和相(象)如果在同一纵线上，不用'前'和'后'区别，因为能退
//!   的一定在前，能进的一定在后".) `前仕退五` is still accepted on input.
//!
//! Captures and checks are not marked.
//!
//! # What is accepted on input
//!
//! Whitespace anywhere is ignored. Either side's characters and both
//! simplified and traditional forms name a piece for whichever side is to
//! move: 帅帥将將 king, 仕士 advisor, 相象 elephant, 马馬傌 horse, 车車俥
//! rook, 炮砲包 cannon, 兵卒 pawn. Verbs 进進, 退, 平. Numbers may be Chinese
//! numerals, ASCII digits or full-width digits, always in the mover's own
//! file numbering. The prefix before the verb may be:
//!
//! | form | example | meaning |
//! |---|---|---|
//! | piece file | `炮二` | the piece of that kind on that file (if two are there, the verb must tell them apart) |
//! | place piece | `前车`, `中兵`, `后馬` | 前/中/后/後 on a file holding several of that kind (if two files do, the rest of the text must tell them apart) |
//! | ordinal piece | `一兵`, `三卒` | 一–五 counted front to back over the files holding several pawns, files taken right to left (the xqbase order) |
//! | place piece file | `前兵三`, `二卒7` | the piece at that place on that file |
//! | place file | `前三`, `中2` | the same with the (pawn) piece name left out |
//! | piece place | `车前` | the WXF order (`R+`), read like `前车` |
//!
//! The text must then name exactly one legal move: none gives
//! [`ChineseNotationError::Illegal`], several give
//! [`ChineseNotationError::Ambiguous`].

use crate::{Color, File, Move, PieceKind, Position, Square};
use std::fmt;

/// Why a move in Chinese notation was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChineseNotationError {
    /// The text could not be read as Chinese notation.
    Malformed(String),
    /// The side to move has no piece matching the piece and file (or the
    /// 前/中/后 place) the text names.
    NoSuchPiece(String),
    /// The text fits more than one legal move.
    Ambiguous(String),
    /// The piece exists, but no legal move matches the text.
    Illegal(String),
}

impl fmt::Display for ChineseNotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChineseNotationError::Malformed(s) => write!(
                f,
                "'{s}' is not a move in Chinese notation (like 炮二平五 or 马8进7)"
            ),
            ChineseNotationError::NoSuchPiece(s) => {
                write!(f, "'{s}': the side to move has no such piece there")
            }
            ChineseNotationError::Ambiguous(s) => {
                write!(f, "'{s}' could mean more than one legal move")
            }
            ChineseNotationError::Illegal(s) => {
                write!(f, "'{s}' is not a legal move in this position")
            }
        }
    }
}

impl std::error::Error for ChineseNotationError {}

/// Red's numerals, 一 (1) to 九 (9).
const CHINESE_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// The direction of a move as seen by the mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verb {
    /// 进: towards the opponent.
    Forward,
    /// 退: towards the mover's own back rank.
    Back,
    /// 平: along the rank.
    Sideways,
}

impl Verb {
    fn to_char(self) -> char {
        match self {
            Verb::Forward => '进',
            Verb::Back => '退',
            Verb::Sideways => '平',
        }
    }
}

/// Which of the pieces of one kind on one file is meant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// 前: the one furthest forward.
    Front,
    /// 中: the middle one of three.
    Middle,
    /// 后/後: the one furthest back.
    Rear,
    /// 一–五: the n-th from the front (1-based).
    Ordinal(u8),
}

/// One character of the input, classified.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    Piece(PieceKind),
    Place(Place),
    Number(u8),
    Verb(Verb),
}

/// The number `n` (1..=9) as `color` writes it: Chinese numerals for Red,
/// ASCII digits for Black.
fn numeral(n: u8, color: Color) -> char {
    debug_assert!((1..=9).contains(&n), "numeral out of range: {n}");
    match color {
        Color::Red => CHINESE_NUMERALS[usize::from(n.clamp(1, 9)) - 1],
        Color::Black => char::from(b'0' + n.clamp(1, 9)),
    }
}

fn kind_from_char(c: char) -> Option<PieceKind> {
    Some(match c {
        '帅' | '帥' | '将' | '將' => PieceKind::King,
        '仕' | '士' => PieceKind::Advisor,
        '相' | '象' => PieceKind::Elephant,
        '马' | '馬' | '傌' => PieceKind::Horse,
        '车' | '車' | '俥' => PieceKind::Rook,
        '炮' | '砲' | '包' => PieceKind::Cannon,
        '兵' | '卒' => PieceKind::Pawn,
        _ => return None,
    })
}

/// A number 1..=9 written as a Chinese numeral, an ASCII digit or a
/// full-width digit.
fn number_from_char(c: char) -> Option<u8> {
    if let Some(i) = CHINESE_NUMERALS.iter().position(|&n| n == c) {
        return Some(i as u8 + 1);
    }
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        '１'..='９' => Some((c as u32 - '０' as u32) as u8),
        _ => None,
    }
}

fn token(c: char) -> Option<Token> {
    if let Some(kind) = kind_from_char(c) {
        return Some(Token::Piece(kind));
    }
    if let Some(n) = number_from_char(c) {
        return Some(Token::Number(n));
    }
    Some(match c {
        '前' => Token::Place(Place::Front),
        '中' => Token::Place(Place::Middle),
        '后' | '後' => Token::Place(Place::Rear),
        '进' | '進' => Token::Verb(Verb::Forward),
        '退' => Token::Verb(Verb::Back),
        '平' => Token::Verb(Verb::Sideways),
        _ => return None,
    })
}

/// How far forward `sq` is from `color`'s side (0 = its back rank).
fn forwardness(sq: Square, color: Color) -> u8 {
    sq.rank().relative_to(color)
}

/// The verb and the number after it for a `kind` piece of `color` moving
/// from `from` to `to`.
fn motion(color: Color, kind: PieceKind, from: Square, to: Square) -> (Verb, u8) {
    let ahead = i32::from(forwardness(to, color)) - i32::from(forwardness(from, color));
    let verb = match ahead {
        1.. => Verb::Forward,
        0 => Verb::Sideways,
        _ => Verb::Back,
    };
    let diagonal = matches!(
        kind,
        PieceKind::Horse | PieceKind::Advisor | PieceKind::Elephant
    );
    let number = if verb == Verb::Sideways || diagonal {
        to.file().chinese_number(color)
    } else {
        ahead.unsigned_abs() as u8
    };
    (verb, number)
}

/// The piece at `place` among `group` (ordered front to back), if the place
/// makes sense for a group of that size.
fn pick(group: &[Square], place: Place) -> Option<Square> {
    let n = group.len();
    if n < 2 {
        return None;
    }
    match place {
        Place::Front => group.first().copied(),
        Place::Rear => group.last().copied(),
        Place::Middle => (n == 3).then(|| group[1]),
        Place::Ordinal(k) => group.get(usize::from(k).checked_sub(1)?).copied(),
    }
}

impl Position {
    /// `color`'s pieces of `kind` on `file`, front (furthest forward from
    /// `color`'s side) to back.
    fn file_group(&self, color: Color, kind: PieceKind, file: File) -> Vec<Square> {
        let mut group: Vec<Square> = self
            .pieces(color, kind)
            .into_iter()
            .filter(|sq| sq.file() == file)
            .collect();
        group.sort_by_key(|&sq| std::cmp::Reverse(forwardness(sq, color)));
        group
    }

    /// The groups of two or more of `color`'s pieces of `kind` sharing a
    /// file, files taken right to left from `color`'s side, each front to back.
    fn stacked_groups(&self, color: Color, kind: PieceKind) -> Vec<Vec<Square>> {
        (1..=9)
            .filter_map(|n| File::from_chinese_number(n, color))
            .map(|file| self.file_group(color, kind, file))
            .filter(|group| group.len() >= 2)
            .collect()
    }

    /// The move `m` in Chinese notation from the mover's point of view, e.g.
    /// `炮二平五` (Red's `h2e2`) or `马8进7` (Black's `h9g7`).
    ///
    /// `m` should be legal here; the text is only guaranteed to name `m`
    /// uniquely (and to parse back with [`Position::parse_chinese`]) when it
    /// is. The conventions are described in the module documentation: Red
    /// writes Chinese numerals, Black ASCII digits; 前/后 (and 中, 一–五 for
    /// pawns) tell apart pieces of one kind on one file; advisors and
    /// elephants always keep their file. If `from` is empty the ICCS text
    /// (`h2e2`) is returned instead.
    pub fn to_chinese(&self, m: Move) -> String {
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.piece_at(from) else {
            return m.to_string();
        };
        let (color, kind) = (piece.color(), piece.kind());
        let file_char = numeral(from.file().chinese_number(color), color);
        let mut text = String::with_capacity(16);
        let group = self.file_group(color, kind, from.file());
        let stacked = group.len() >= 2 && !matches!(kind, PieceKind::Advisor | PieceKind::Elephant);
        if stacked {
            let index = group.iter().position(|&sq| sq == from).unwrap_or(0);
            let place = match (group.len(), index) {
                (2 | 3, 0) => '前',
                (2, _) => '后',
                (3, 1) => '中',
                (3, _) => '后',
                (_, i) => CHINESE_NUMERALS[i.min(8)],
            };
            text.push(place);
            text.push(piece.chinese_char());
            if self.stacked_groups(color, kind).len() > 1 {
                text.push(file_char);
            }
        } else {
            text.push(piece.chinese_char());
            text.push(file_char);
        }
        let (verb, number) = motion(color, kind, from, to);
        text.push(verb.to_char());
        text.push(numeral(number, color));
        text
    }

    /// Reads a move in Chinese notation (`炮二平五`, `马8进7`, `前车进一`,
    /// `中兵平四`, `前兵三进一`, …) for the side to move and returns it if it
    /// is legal here.
    ///
    /// Lenient about spelling: traditional characters (車 馬 砲 將 進 後 …),
    /// either side's piece names, and Chinese numerals, ASCII or full-width
    /// digits for either side are all accepted, and whitespace is ignored;
    /// numbers always count files in the mover's own numbering. See the
    /// module documentation for the accepted forms of the piece prefix.
    ///
    /// # Errors
    /// [`ChineseNotationError::Malformed`] if the text is not notation at
    /// all, [`ChineseNotationError::NoSuchPiece`] if the side to move has no
    /// piece where it says, [`ChineseNotationError::Illegal`] if that piece
    /// has no legal move matching the rest, and
    /// [`ChineseNotationError::Ambiguous`] if more than one legal move fits.
    pub fn parse_chinese(&self, text: &str) -> Result<Move, ChineseNotationError> {
        let malformed = || ChineseNotationError::Malformed(text.to_string());
        let color = self.side_to_move();
        let tokens = text
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(token)
            .collect::<Option<Vec<Token>>>()
            .ok_or_else(malformed)?;
        let [prefix @ .., Token::Verb(verb), Token::Number(number)] = tokens.as_slice() else {
            return Err(malformed());
        };
        let (verb, number) = (*verb, *number);
        let ordinal = |n: u8| (1..=5).contains(&n).then_some(Place::Ordinal(n));
        // (kind, origin file as numbered by the mover, place on the file).
        let (kind, file_number, place) = match *prefix {
            [Token::Piece(k), Token::Number(f)] => (k, Some(f), None),
            [Token::Place(p), Token::Piece(k)] | [Token::Piece(k), Token::Place(p)] => {
                (k, None, Some(p))
            }
            [Token::Number(o), Token::Piece(k)] => {
                (k, None, Some(ordinal(o).ok_or_else(malformed)?))
            }
            [Token::Place(p), Token::Piece(k), Token::Number(f)] => (k, Some(f), Some(p)),
            [Token::Number(o), Token::Piece(k), Token::Number(f)] => {
                (k, Some(f), Some(ordinal(o).ok_or_else(malformed)?))
            }
            [Token::Place(p), Token::Number(f)] => (PieceKind::Pawn, Some(f), Some(p)),
            _ => return Err(malformed()),
        };
        let file = match file_number {
            Some(n) => Some(File::from_chinese_number(n, color).ok_or_else(malformed)?),
            None => None,
        };

        let candidates: Vec<Square> = match (file, place) {
            (Some(file), None) => self.file_group(color, kind, file),
            (Some(file), Some(place)) => pick(&self.file_group(color, kind, file), place)
                .into_iter()
                .collect(),
            (None, Some(Place::Ordinal(k))) => self
                .stacked_groups(color, kind)
                .concat()
                .get(usize::from(k) - 1)
                .copied()
                .into_iter()
                .collect(),
            (None, Some(place)) => self
                .stacked_groups(color, kind)
                .iter()
                .filter_map(|group| pick(group, place))
                .collect(),
            (None, None) => return Err(malformed()),
        };
        if candidates.is_empty() {
            return Err(ChineseNotationError::NoSuchPiece(text.to_string()));
        }

        let mut found = None;
        for &m in self.legal_moves().iter() {
            if candidates.contains(&m.from())
                && motion(color, kind, m.from(), m.to()) == (verb, number)
            {
                if found.is_some() {
                    return Err(ChineseNotationError::Ambiguous(text.to_string()));
                }
                found = Some(m);
            }
        }
        found.ok_or_else(|| ChineseNotationError::Illegal(text.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn sq(s: &str) -> Square {
        s.parse().expect("a valid point")
    }

    fn mv(s: &str) -> Move {
        Move::new(sq(&s[0..2]), sq(&s[2..4]))
    }

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap_or_else(|e| panic!("bad test FEN {fen}: {e:?}"))
    }

    /// Checks that `iccs` is legal in `p`, is written as `text`, and that
    /// `text` parses back to it.
    #[track_caller]
    fn both_ways(p: &Position, iccs: &str, text: &str) {
        let m = mv(iccs);
        assert!(p.is_legal(m), "{iccs} is not legal in {}", p.to_fen());
        assert_eq!(p.to_chinese(m), text, "writing {iccs} in {}", p.to_fen());
        assert_eq!(
            p.parse_chinese(text),
            Ok(m),
            "reading {text} in {}",
            p.to_fen()
        );
    }

    #[track_caller]
    fn reads(p: &Position, text: &str, iccs: &str) {
        assert_eq!(
            p.parse_chinese(text),
            Ok(mv(iccs)),
            "reading {text} in {}",
            p.to_fen()
        );
    }

    #[track_caller]
    fn play(p: &mut Position, text: &str) {
        let m = p
            .parse_chinese(text)
            .unwrap_or_else(|e| panic!("{e} in {}", p.to_fen()));
        p.make_move(m);
    }

    #[test]
    fn opening_moves() {
        let start = Position::startpos();
        both_ways(&start, "h2e2", "炮二平五");
        both_ways(&start, "h0g2", "马二进三");
        both_ways(&start, "g0e2", "相三进五");
        both_ways(&start, "f0e1", "仕四进五");
        both_ways(&start, "c3c4", "兵七进一");
        both_ways(&start, "e0e1", "帅五进一");
        both_ways(&start, "b2b9", "炮八进七");
        both_ways(&start, "i0i2", "车一进二");

        let mut p = start.clone();
        p.make_move(mv("h2e2"));
        both_ways(&p, "h9g7", "马8进7");
        both_ways(&p, "c6c5", "卒3进1");
        both_ways(&p, "h7e7", "炮8平5");
        both_ways(&p, "c9e7", "象3进5");
        both_ways(&p, "f9e8", "士6进5");
        both_ways(&p, "d9e8", "士4进5");
        both_ways(&p, "e9e8", "将5进1");
        both_ways(&p, "b7b0", "炮2进7");
    }

    #[test]
    fn a_game_read_and_written() {
        // 中炮过河车对屏风马平炮兑车, as ICCS and as Chinese.
        let game = [
            ("h2e2", "炮二平五"),
            ("h9g7", "马8进7"),
            ("h0g2", "马二进三"),
            ("i9h9", "车9平8"),
            ("i0h0", "车一平二"),
            ("b9c7", "马2进3"),
            ("c3c4", "兵七进一"),
            ("g6g5", "卒7进1"),
            ("h0h6", "车二进六"),
            ("h7i7", "炮8平9"),
            ("h6g6", "车二平三"),
            ("i7i8", "炮9退1"),
            ("b0c2", "马八进七"),
            ("d9e8", "士4进5"),
            ("g6g5", "车三退一"),
        ];
        let mut p = Position::startpos();
        for (iccs, text) in game {
            both_ways(&p, iccs, text);
            p.make_move(mv(iccs));
        }
    }

    #[test]
    fn two_rooks_on_a_file() {
        // Red rooks a4 (front) and a1 on Red's file 九.
        let p = pos("3k5/9/9/9/9/R8/9/9/R8/4K4 w - - 0 1");
        both_ways(&p, "a4a5", "前车进一");
        both_ways(&p, "a4a9", "前车进五");
        both_ways(&p, "a4a2", "前车退二");
        both_ways(&p, "a4e4", "前车平五");
        both_ways(&p, "a1a2", "后车进一");
        both_ways(&p, "a1a0", "后车退一");
        both_ways(&p, "a1i1", "后车平一");
        // The rear rook cannot pass the front one.
        assert_eq!(
            p.parse_chinese("后车进三"),
            Err(ChineseNotationError::Illegal("后车进三".into()))
        );
        // Without 前/后 a move only one of them can make is still understood …
        reads(&p, "车九进五", "a4a9");
        // … but one both can make is not.
        assert_eq!(
            p.parse_chinese("车九平五"),
            Err(ChineseNotationError::Ambiguous("车九平五".into()))
        );
        // 中 needs three on the file.
        assert_eq!(
            p.parse_chinese("中车进一"),
            Err(ChineseNotationError::NoSuchPiece("中车进一".into()))
        );
        // Traditional characters, WXF order.
        reads(&p, "前車進一", "a4a5");
        reads(&p, "後俥退一", "a1a0");
        reads(&p, "车前进一", "a4a5");

        // Black rooks a8 and a6 on Black's file 1; Black's front is a6.
        let p = pos("4k4/r8/9/r8/9/9/9/9/9/3K5 b - - 0 1");
        both_ways(&p, "a6a5", "前车进1");
        both_ways(&p, "a6a7", "前车退1");
        both_ways(&p, "a8a9", "后车退1");
        both_ways(&p, "a8e8", "后车平5");
        both_ways(&p, "a6i6", "前车平9");
        reads(&p, "前车进一", "a6a5");
        reads(&p, "前车进１", "a6a5");
    }

    #[test]
    fn two_horses_and_two_cannons_on_a_file() {
        // Red horses c4 (front) and c2 on Red's file 七.
        let p = pos("3k5/9/9/9/9/2N6/9/2N6/9/4K4 w - - 0 1");
        both_ways(&p, "c4d6", "前马进六");
        both_ways(&p, "c4b2", "前马退八");
        both_ways(&p, "c4e3", "前马退五");
        both_ways(&p, "c2e3", "后马进五");
        both_ways(&p, "c2b0", "后马退八");
        both_ways(&p, "c2d4", "后马进六");
        assert_eq!(
            p.parse_chinese("马七进六"),
            Err(ChineseNotationError::Ambiguous("马七进六".into()))
        );

        // Black horses g7 and g5 on Black's file 7; Black's front is g5.
        let p = pos("3k5/9/6n2/9/6n2/9/9/9/9/4K4 b - - 0 1");
        both_ways(&p, "g7h9", "后马退8");
        both_ways(&p, "g5f3", "前马进6");
        both_ways(&p, "g5h7", "前马退8");
        both_ways(&p, "g7i6", "后马进9");

        // Two cannons, one capturing over a screen.
        let p = pos("3k5/9/9/4p4/9/4C4/9/4C4/9/5K3 w - - 0 1");
        both_ways(&p, "e4e5", "前炮进一");
        both_ways(&p, "e2e6", "后炮进四");
        both_ways(&p, "e2d2", "后炮平六");
        both_ways(&p, "e4e3", "前炮退一");
    }

    #[test]
    fn advisors_and_elephants_keep_their_file() {
        // Red advisors d0 and d2, elephants c0 and c4, king f0.
        let p = pos("3k5/9/9/9/9/2B6/9/3A5/9/2BA1K3 w - - 0 1");
        both_ways(&p, "d0e1", "仕六进五");
        both_ways(&p, "d2e1", "仕六退五");
        both_ways(&p, "c0e2", "相七进五");
        both_ways(&p, "c4e2", "相七退五");
        both_ways(&p, "c0a2", "相七进九");
        both_ways(&p, "c4a2", "相七退九");
        // 前/后 are accepted on input.
        reads(&p, "前仕退五", "d2e1");
        reads(&p, "后仕进五", "d0e1");
        reads(&p, "前相退九", "c4a2");
        reads(&p, "后象进五", "c0e2");
        assert_eq!(
            p.parse_chinese("前仕进五"),
            Err(ChineseNotationError::Illegal("前仕进五".into()))
        );

        // The same for Black: advisors f9 and f7, elephants g9 and g5.
        let p = pos("4kab2/9/5a3/9/6b2/9/9/9/9/3K5 b - - 0 1");
        both_ways(&p, "f9e8", "士6进5");
        both_ways(&p, "f7e8", "士6退5");
        both_ways(&p, "g9e7", "象7进5");
        both_ways(&p, "g5e7", "象7退5");
        both_ways(&p, "g5i7", "象7退9");
    }

    #[test]
    fn three_pawns_on_a_file() {
        // Red pawns e7, e6, e5 on Red's file 五.
        let p = pos("3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w - - 0 1");
        both_ways(&p, "e7e8", "前兵进一");
        both_ways(&p, "e7d7", "前兵平六");
        both_ways(&p, "e6f6", "中兵平四");
        both_ways(&p, "e5d5", "后兵平六");
        both_ways(&p, "e5f5", "后兵平四");
        assert_eq!(
            p.parse_chinese("后兵进一"),
            Err(ChineseNotationError::Illegal("后兵进一".into()))
        );
        reads(&p, "中卒平四", "e6f6");
        reads(&p, "二兵平四", "e6f6");
        reads(&p, "三兵平六", "e5d5");
        reads(&p, "中五平四", "e6f6");
        assert_eq!(
            p.parse_chinese("四兵平六"),
            Err(ChineseNotationError::NoSuchPiece("四兵平六".into()))
        );

        // Black pawns c1, c2, c3 on Black's file 3; Black's front is c1.
        let p = pos("4k4/9/9/9/9/9/2p6/2p6/2p6/5K3 b - - 0 1");
        both_ways(&p, "c1c0", "前卒进1");
        both_ways(&p, "c2b2", "中卒平2");
        both_ways(&p, "c3d3", "后卒平4");
        both_ways(&p, "c1d1", "前卒平4");
    }

    #[test]
    fn four_and_five_pawns_on_a_file() {
        // Five Red pawns a5..a9 on Red's file 九.
        let p = pos("P2k5/P8/P8/P8/P8/9/9/9/9/4K4 w - - 0 1");
        both_ways(&p, "a9b9", "一兵平八");
        both_ways(&p, "a8b8", "二兵平八");
        both_ways(&p, "a7b7", "三兵平八");
        both_ways(&p, "a6b6", "四兵平八");
        both_ways(&p, "a5b5", "五兵平八");
        reads(&p, "前兵平八", "a9b9");
        reads(&p, "后兵平八", "a5b5");
        reads(&p, "三兵九平八", "a7b7");
        reads(&p, "3兵平8", "a7b7");

        // Four Black pawns i1..i4 on Black's file 9: ordinals in Chinese.
        let p = pos("4k4/9/9/9/9/8p/8p/8p/8p/3K5 b - - 0 1");
        both_ways(&p, "i1i0", "一卒进1");
        both_ways(&p, "i1h1", "一卒平8");
        both_ways(&p, "i2h2", "二卒平8");
        both_ways(&p, "i3h3", "三卒平8");
        both_ways(&p, "i4h4", "四卒平8");
        reads(&p, "4卒平8", "i4h4");
    }

    #[test]
    fn pawns_stacked_on_two_files() {
        // Red: three pawns on file 五 (e7 e6 e5), two on file 七 (c6 c5).
        let p = pos("3k5/9/4P4/2P1P4/2P1P4/9/9/9/9/5K3 w - - 0 1");
        both_ways(&p, "e7e8", "前兵五进一");
        both_ways(&p, "e6f6", "中兵五平四");
        both_ways(&p, "e5f5", "后兵五平四");
        both_ways(&p, "c6c7", "前兵七进一");
        both_ways(&p, "c6b6", "前兵七平八");
        both_ways(&p, "c5b5", "后兵七平八");
        both_ways(&p, "c5d5", "后兵七平六");
        // The four-character form without the piece name.
        reads(&p, "前七进一", "c6c7");
        reads(&p, "中五平四", "e6f6");
        // The xqbase numbering: files right to left (五 before 七), then
        // front to back.
        reads(&p, "一兵进一", "e7e8");
        reads(&p, "三兵平四", "e5f5");
        reads(&p, "四兵进一", "c6c7");
        reads(&p, "五兵平八", "c5b5");
        // 前兵 alone now names two pawns.
        assert_eq!(
            p.parse_chinese("前兵进一"),
            Err(ChineseNotationError::Ambiguous("前兵进一".into()))
        );
        // … unless only one of them can make the move.
        reads(&p, "前兵平八", "c6b6");
        // A pawn alone on its file keeps the plain form.
        let p = pos("3k5/9/9/2P1P4/2P1P1P2/9/9/9/9/5K3 w - - 0 1");
        both_ways(&p, "g5g6", "兵三进一");
        both_ways(&p, "c5b5", "后兵七平八");

        // Black: two pawns on file 3 (c3 c4), two on file 7 (g3 g4).
        let p = pos("4k4/9/9/9/9/2p3p2/2p3p2/9/9/3K5 b - - 0 1");
        both_ways(&p, "c3c2", "前卒3进1");
        both_ways(&p, "c4b4", "后卒3平2");
        both_ways(&p, "g3g2", "前卒7进1");
        both_ways(&p, "g4f4", "后卒7平6");
        reads(&p, "前3进1", "c3c2");
        reads(&p, "一卒进1", "c3c2");
        reads(&p, "三卒进1", "g3g2");
    }

    #[test]
    fn king_moves() {
        let p = pos("3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1");
        both_ways(&p, "e1e2", "帅五进一");
        both_ways(&p, "e1e0", "帅五退一");
        both_ways(&p, "e1f1", "帅五平四");
        // e1d1 would face the Black king on the open d file.
        assert_eq!(
            p.parse_chinese("帅五平六"),
            Err(ChineseNotationError::Illegal("帅五平六".into()))
        );
        reads(&p, "帥五進一", "e1e2");
        reads(&p, "将5进1", "e1e2");
        let p = pos("3k5/9/9/9/9/9/9/9/4K4/9 b - - 0 1");
        both_ways(&p, "d9d8", "将4进1");
        // d9e9 would face the Red king on the open e file.
        assert_eq!(
            p.parse_chinese("将4平5"),
            Err(ChineseNotationError::Illegal("将4平5".into()))
        );
    }

    #[test]
    fn lenient_spellings() {
        let start = Position::startpos();
        reads(&start, "  炮二平五 ", "h2e2");
        reads(&start, "炮 二 平 五", "h2e2");
        reads(&start, "砲二平五", "h2e2");
        reads(&start, "包2平5", "h2e2");
        reads(&start, "傌二進三", "h0g2");
        reads(&start, "馬2进3", "h0g2");
        reads(&start, "象三进五", "g0e2");
        reads(&start, "士四进五", "f0e1");
        reads(&start, "卒七进一", "c3c4");
        reads(&start, "俥一进二", "i0i2");
        // Numbers always count in the mover's numbering, whatever their style:
        // for Red, 8 is its file 八.
        reads(&start, "马8进7", "b0c2");
        let mut p = start.clone();
        p.make_move(mv("h2e2"));
        reads(&p, "马８进７", "h9g7");
        reads(&p, "馬八進七", "h9g7");
        reads(&p, "砲8平5", "h7e7");
        reads(&p, "炮８平５", "h7e7");
        reads(&p, "相3进5", "c9e7");
        reads(&p, "兵3进1", "c6c5");
    }

    #[test]
    fn errors() {
        let start = Position::startpos();
        for bad in [
            "",
            "炮二平",
            "炮二平五六",
            "h2e2",
            "炮二走五",
            "炮零平五",
            "炮二平0",
            "炮炮平五",
            "前后进一",
            "六兵进一",
            "前兵三四进一",
        ] {
            assert_eq!(
                start.parse_chinese(bad),
                Err(ChineseNotationError::Malformed(bad.into())),
                "{bad}"
            );
        }
        assert_eq!(
            start.parse_chinese("车五进一"),
            Err(ChineseNotationError::NoSuchPiece("车五进一".into()))
        );
        assert_eq!(
            start.parse_chinese("前炮进一"),
            Err(ChineseNotationError::NoSuchPiece("前炮进一".into()))
        );
        assert_eq!(
            start.parse_chinese("车一进三"),
            Err(ChineseNotationError::Illegal("车一进三".into()))
        );
        assert_eq!(
            start.parse_chinese("炮二进八"),
            Err(ChineseNotationError::Illegal("炮二进八".into()))
        );
        assert_eq!(
            start.parse_chinese("马二平三"),
            Err(ChineseNotationError::Illegal("马二平三".into()))
        );
        assert_eq!(
            start.parse_chinese("兵七退一"),
            Err(ChineseNotationError::Illegal("兵七退一".into()))
        );
        assert_eq!(
            start.parse_chinese("二炮平五"),
            Err(ChineseNotationError::NoSuchPiece("二炮平五".into()))
        );
        let msg = ChineseNotationError::Ambiguous("车九平五".into()).to_string();
        assert!(
            msg.contains("车九平五") && msg.contains("more than one"),
            "{msg}"
        );
        assert!(ChineseNotationError::Malformed("x".into())
            .to_string()
            .contains("not a move"));
        assert!(ChineseNotationError::NoSuchPiece("x".into())
            .to_string()
            .contains("no such piece"));
        assert!(ChineseNotationError::Illegal("x".into())
            .to_string()
            .contains("not a legal move"));
    }

    #[test]
    fn empty_origin_falls_back_to_iccs() {
        let start = Position::startpos();
        assert_eq!(start.to_chinese(mv("e4e5")), "e4e5");
    }

    /// Every legal move's text is distinct and reads back as that move.
    #[track_caller]
    fn check_round_trip(p: &Position) -> usize {
        let moves = p.legal_moves();
        let mut seen = HashSet::new();
        for &m in moves.iter() {
            let text = p.to_chinese(m);
            assert!(
                seen.insert(text.clone()),
                "{text} names two moves in {}",
                p.to_fen()
            );
            assert_eq!(
                p.parse_chinese(&text),
                Ok(m),
                "{text} ({m}) in {}",
                p.to_fen()
            );
        }
        moves.len()
    }

    #[test]
    fn round_trip_fixed_positions() {
        let fens = [
            crate::START_FEN,
            // Middle games.
            "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 4 3",
            "2bak4/4a4/2n1b4/p3C3p/2p3p2/6P2/P1P5P/4B4/4A4/2BAK4 w - - 0 20",
            "3k5/4a4/4ba3/9/2b6/9/9/4B4/4A4/3AK4 b - - 0 40",
            "2rakab2/9/1cn1b1n2/p3p1p1p/2p6/6P2/P1P1P3P/2N1C1N2/4A4/1RBAK1B2 b - - 3 9",
            // Stacked pieces of every kind.
            "3k5/9/4P4/2P1P4/2P1P4/9/9/9/9/5K3 w - - 0 1",
            "P2k5/P8/P8/P8/P8/9/9/9/9/4K4 w - - 0 1",
            "4k4/9/9/9/9/8p/8p/8p/8p/3K5 b - - 0 1",
            "4k4/9/9/9/9/2p3p2/2p3p2/9/9/3K5 b - - 0 1",
            "3k5/9/9/9/9/2B6/9/3A5/9/2BA1K3 w - - 0 1",
            "4kab2/9/5a3/9/6b2/9/9/9/9/3K5 b - - 0 1",
            "3k5/9/9/4p4/9/4C4/9/4C4/9/5K3 w - - 0 1",
            "3k5/9/9/9/9/2N6/9/2N6/9/4K4 w - - 0 1",
            "3k5/1R7/9/9/9/1R7/9/9/1N7/1N2K4 w - - 0 1",
        ];
        for fen in fens {
            let p = pos(fen);
            assert!(check_round_trip(&p) > 0, "{fen}");
        }
    }

    #[test]
    fn round_trip_random_games() {
        let mut rng = crate::Rng::new(0x5eed_cafe_f00d_1234);
        let mut positions = 0;
        let mut moves = 0;
        for _game in 0..6 {
            let mut p = Position::startpos();
            for _ply in 0..200 {
                moves += check_round_trip(&p);
                positions += 1;
                let legal = p.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let m = *rng.pick(&legal);
                p.make_move(m);
            }
        }
        assert!(positions > 300, "{positions} positions");
        assert!(moves > 5000, "{moves} moves");
    }

    /// Games where pawns pile up: prefer pawn moves and sideways pawn steps,
    /// so 前/中/后, ordinals and doubled files all show up.
    #[test]
    fn round_trip_pawn_heavy_games() {
        let mut rng = crate::Rng::new(0x0123_4567_89ab_cdef);
        let mut stacked_three = 0;
        let mut doubled_two_files = 0;
        for _game in 0..8 {
            let mut p = Position::startpos();
            for _ply in 0..160 {
                check_round_trip(&p);
                for color in Color::ALL {
                    let groups = p.stacked_groups(color, PieceKind::Pawn);
                    stacked_three += usize::from(groups.iter().any(|g| g.len() >= 3));
                    doubled_two_files += usize::from(groups.len() >= 2);
                }
                let legal = p.legal_moves();
                if legal.is_empty() {
                    break;
                }
                // Pawn moves that are not captures, when there are any, three
                // times in four; never capture a pawn.
                let pawn_moves: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|m| {
                        p.piece_at(m.from()).map(|pc| pc.kind()) == Some(PieceKind::Pawn)
                            && p.piece_at(m.to()).is_none()
                    })
                    .collect();
                let quiet: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|m| {
                        p.piece_at(m.to()).map(|pc| pc.kind()) != Some(PieceKind::Pawn)
                            && p.piece_at(m.to()).map(|pc| pc.kind()) != Some(PieceKind::King)
                    })
                    .collect();
                let pool: &[Move] = if !pawn_moves.is_empty() && rng.next_u64() & 3 != 0 {
                    &pawn_moves
                } else if !quiet.is_empty() {
                    &quiet
                } else {
                    &legal
                };
                let m = *rng.pick(pool);
                p.make_move(m);
            }
        }
        assert!(stacked_three > 0, "no three pawns on a file arose");
        assert!(doubled_two_files > 0, "no two doubled files arose");
    }

    #[test]
    fn playing_a_game_from_text() {
        let mut p = Position::startpos();
        for text in [
            "炮二平五",
            "马8进7",
            "马二进三",
            "车9平8",
            "车一平二",
            "炮8进4",
        ] {
            play(&mut p, text);
        }
        let played: Vec<String> = p.moves_played().map(|m| m.to_string()).collect();
        assert_eq!(played, ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "h7h3"]);
    }
}
