//! The commands people run at a terminal: `shuai analyze`, `shuai play` and
//! `shuai book`,
//! with the board drawn in Chinese characters (or plain letters), scores
//! with a win/draw/loss estimate and moves in Chinese notation beside ICCS.
//!
//! Everything here writes text for people; the protocol front-ends in
//! [`crate::protocol`] are untouched by it.

pub mod analyze;
pub mod board;
pub mod book;
pub mod egtb;
pub mod interrupt;
pub mod live;
pub mod notation;
pub mod play;
pub mod review;
pub use crate::score;

use clap::{Args, ValueEnum};
use shuai_board::rules::{judge_game_end_with, RuleBook, RuleOptions, Verdict};
use shuai_board::{Color, Position};
use std::io::{IsTerminal, Write};

/// When to colour the output.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when standard output is a terminal, `NO_COLOR` is unset,
    /// `TERM` is not `dumb` and (on Windows) the console takes ANSI codes.
    #[default]
    Auto,
    /// Always write ANSI colours.
    Always,
    /// Never write ANSI colours.
    Never,
}

/// How text for people is drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// ANSI colours (red and black pieces).
    pub color: bool,
    /// Plain ASCII: FEN letters on the board, ICCS moves only.
    pub ascii: bool,
}

/// The `--ascii` and `--color` options shared by `analyze` and `play`.
#[derive(Args, Clone, Copy, Debug, Default)]
pub struct StyleArgs {
    /// Plain ASCII: FEN letters on the board, moves in ICCS only.
    #[arg(long)]
    pub ascii: bool,
    /// Colour the pieces: auto (on a colour terminal), always, never.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub color: ColorChoice,
}

impl StyleArgs {
    /// The style these options ask for, given the environment.
    pub fn style(self) -> Style {
        Style::detect(self.ascii, self.color)
    }
}

impl Style {
    /// The style for `--ascii` and `--color` given the environment.
    pub fn detect(ascii: bool, choice: ColorChoice) -> Style {
        let color = match choice {
            ColorChoice::Always => {
                // Asked for whatever the console says: the codes are
                // written, and shown where the console can be switched on.
                let _ = anstyle_query::windows::enable_ansi_colors();
                true
            }
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::env::var("TERM").ok().as_deref() != Some("dumb")
                    && console_takes_ansi()
            }
        };
        Style { color, ascii }
    }
}

/// Whether the console shows ANSI colour codes, switching them on where
/// that is needed: the Windows console shows them only once asked to
/// (Windows 10 and later; on older ones this fails and the text stays
/// plain rather than filled with escape codes). Other terminals always do.
fn console_takes_ansi() -> bool {
    anstyle_query::windows::enable_ansi_colors().unwrap_or(true)
}

/// Writes `text` to standard output and flushes it. If standard output is
/// gone (a closed pipe, as with `shuai analyze | head`), the program ends
/// quietly, as command-line tools do, instead of panicking.
pub fn emit(text: &str) {
    let mut out = std::io::stdout().lock();
    if out
        .write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .is_err()
    {
        std::process::exit(0);
    }
}

/// `println!` through [`emit`].
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::terminal::emit(&format!("{}\n", format_args!($($arg)*)))
    };
}
pub(crate) use say;

/// Terminal columns taken by `s`: CJK characters (and full-width forms)
/// count two, other characters one; ANSI colour escapes count nothing.
pub fn display_width(s: &str) -> usize {
    let mut width = 0;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for d in chars.by_ref() {
                if d == 'm' {
                    break;
                }
            }
            continue;
        }
        let wide = matches!(c, '\u{1100}'..='\u{115f}' | '\u{2e80}'..='\u{303e}'
            | '\u{3041}'..='\u{33ff}' | '\u{3400}'..='\u{4dbf}' | '\u{4e00}'..='\u{9fff}'
            | '\u{ac00}'..='\u{d7a3}' | '\u{f900}'..='\u{faff}' | '\u{fe30}'..='\u{fe4f}'
            | '\u{ff00}'..='\u{ff60}' | '\u{ffe0}'..='\u{ffe6}');
        width += if wide { 2 } else { 1 };
    }
    width
}

/// The width of the terminal standard output is, if it is one: asked of
/// the terminal (Unix) or the console (Windows) through `terminal_size`,
/// else `COLUMNS`.
pub fn terminal_columns() -> Option<usize> {
    if !std::io::stdout().is_terminal() {
        return None;
    }
    if let Some((terminal_size::Width(w), _)) = terminal_size::terminal_size_of(std::io::stdout()) {
        if w > 0 {
            return Some(usize::from(w));
        }
    }
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse().ok())
}

/// "Red" or "Black".
pub fn side_name(color: Color) -> &'static str {
    match color {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}

/// Builds a position from words naming it and a list of moves.
///
/// `words` is empty or `startpos` (the start position), or the fields of a
/// FEN (given as one quoted argument or as several), optionally followed by
/// `moves m1 m2 …`. Each entry of `moves` may hold several moves separated
/// by spaces. Moves are ICCS (`h2e2`) or Chinese notation (`炮二平五`).
pub fn parse_position(words: &[String], moves: &[String]) -> Result<Position, String> {
    let words: Vec<&str> = words.iter().flat_map(|w| w.split_whitespace()).collect();
    let (setup, inline_moves) = match words.iter().position(|w| *w == "moves") {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (&words[..], &[][..]),
    };
    let setup = match setup.first() {
        Some(&"startpos") if setup.len() == 1 => &[][..],
        Some(&"fen") => &setup[1..],
        _ => setup,
    };
    let mut pos = if setup.is_empty() {
        Position::startpos()
    } else {
        let fen = setup.join(" ");
        let (pos, warning) =
            crate::fen::read_fen(&fen).map_err(|e| format!("invalid FEN '{fen}': {e}"))?;
        if let Some(w) = warning {
            eprintln!("{w}");
        }
        pos
    };
    let all_moves = inline_moves
        .iter()
        .copied()
        .chain(moves.iter().flat_map(|m| m.split_whitespace()));
    for text in all_moves {
        let m = notation::parse_user_move(&pos, text)?;
        pos.make_move(m);
    }
    Ok(pos)
}

/// The end of the game at `pos`, if it has come, judged by `book` with the
/// default natural-move limit.
pub fn game_over(pos: &Position, book: RuleBook) -> Option<Verdict> {
    judge_game_end_with(pos, &RuleOptions::with_book(book))
}
