//! `shuai book`: the moves opening books give for a position, with their
//! weights (and the games won, drawn and lost where the book keeps them),
//! in Chinese notation with ICCS beside.

use super::{display_width, emit, notation, parse_position, side_name, Style, StyleArgs};
use crate::book::{Book, BookMove};
use clap::Args;
use shuai_board::Position;
use std::path::Path;
use std::process::ExitCode;

/// Arguments of `shuai book`.
#[derive(Args, Debug, Clone)]
#[command(after_help = "\
Examples:
  shuai book BOOK.DAT                            the start position's book moves
  shuai book BOOK.DAT my.obk --moves 炮二平五      Black's answers in both books
  shuai book BOOK.DAT 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b'

Books: ElephantEye BOOK.DAT, BHGUI .obk and Pengfei .pfBook (the format is
recognised from the contents). A position is also looked up as its
left-right mirror; moves that are not legal in the position (keys
collide) are left out. The percentage is the move's share of the weights.")]
pub struct BookArgs {
    /// Book files, then the position: `startpos` (the default) or a FEN,
    /// quoted or as separate words, optionally followed by `moves m1 m2 …`.
    /// Leading words that name existing files or end in .dat, .obk or
    /// .pfbook are the books.
    #[arg(value_name = "FILE… FEN|startpos", required = true)]
    pub words: Vec<String>,
    /// Moves to play from that position first, in ICCS (h2e2) or Chinese
    /// notation (炮二平五), separated by spaces.
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    pub moves: Vec<String>,
    /// Board and move display.
    #[command(flatten)]
    pub style: StyleArgs,
}

/// Whether a command-line word names a book rather than starting a
/// position.
fn is_book_file(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    Path::new(word).is_file()
        || [".dat", ".obk", ".pfbook"]
            .iter()
            .any(|ext| lower.ends_with(ext))
}

/// The book files and the position words of `words`.
pub fn split_words(words: &[String]) -> (&[String], &[String]) {
    let n = words.iter().take_while(|w| is_book_file(w)).count();
    words.split_at(n)
}

/// The listing of one book's moves for `pos`: a line per move with its
/// weight, its share of the weights and the book's results, or a line
/// saying the book has none.
pub fn listing(pos: &Position, moves: &[BookMove], style: Style) -> String {
    if moves.is_empty() {
        return "  no moves for this position\n".to_string();
    }
    let total: u64 = moves.iter().map(|m| u64::from(m.weight)).sum();
    let names: Vec<String> = moves
        .iter()
        .map(|m| notation::move_text(pos, m.mv, style))
        .collect();
    let width = names.iter().map(|n| display_width(n)).max().unwrap_or(0);
    let weight_width = moves
        .iter()
        .map(|m| m.weight.to_string().len())
        .max()
        .unwrap_or(1);
    let mut text = String::new();
    for (m, name) in moves.iter().zip(&names) {
        let pad = width - display_width(name);
        let share = if total == 0 {
            0.0
        } else {
            100.0 * f64::from(m.weight) / total as f64
        };
        text.push_str(&format!(
            "  {name}{:pad$}  weight {:>weight_width$}  {share:5.1}%",
            "", m.weight
        ));
        if let Some(s) = m.score {
            text.push_str(&format!("  score {s:>4}"));
        }
        if let (Some(w), Some(d), Some(l)) = (m.wins, m.draws, m.losses) {
            text.push_str(&format!("  won {w} drawn {d} lost {l}"));
        }
        text.push('\n');
    }
    text
}

/// Runs `shuai book`: exit code 0 when every book was read, 1 when some
/// could not be, 2 when the arguments are wrong.
pub fn run(args: &BookArgs) -> ExitCode {
    let (files, position) = split_words(&args.words);
    if files.is_empty() {
        eprintln!(
            "shuai book: name one or more book files first (BOOK.DAT, .obk or .pfBook), then the position"
        );
        return ExitCode::from(2);
    }
    let pos = match parse_position(position, &args.moves) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("shuai book: {e}");
            return ExitCode::from(2);
        }
    };
    let style = args.style.style();
    let mut failed = false;
    emit(&format!(
        "{} to move: {}\n",
        side_name(pos.side_to_move()),
        pos.to_fen()
    ));
    for file in files {
        let probed = Book::open(file).and_then(|b| Ok((b.format(), b.probe(&pos)?)));
        match probed {
            Ok((format, moves)) => emit(&format!(
                "\n{file} ({format}):\n{}",
                listing(&pos, &moves, style)
            )),
            Err(e) => {
                eprintln!("shuai book: {e}");
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn books_come_first_then_the_position() {
        let words: Vec<String> = ["a.DAT", "b.obk", "startpos", "moves", "h2e2"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let (files, position) = split_words(&words);
        assert_eq!(files, ["a.DAT", "b.obk"]);
        assert_eq!(position, ["startpos", "moves", "h2e2"]);
    }

    #[test]
    fn moves_are_listed_with_weights_and_results() {
        let pos = Position::startpos();
        let m = |t: &str, weight, wdl: Option<(u32, u32, u32)>| BookMove {
            mv: pos.parse_move(t).unwrap(),
            weight,
            score: wdl.map(|_| weight as i32),
            wins: wdl.map(|x| x.0),
            draws: wdl.map(|x| x.1),
            losses: wdl.map(|x| x.2),
        };
        let plain = Style::default();
        assert_eq!(
            listing(&pos, &[m("h2e2", 30, None), m("b0c2", 10, None)], plain),
            "  炮二平五(h2e2)  weight 30   75.0%\n  马八进七(b0c2)  weight 10   25.0%\n"
        );
        assert_eq!(
            listing(&pos, &[m("h2e2", 3, Some((5, 2, 1)))], plain),
            "  炮二平五(h2e2)  weight 3  100.0%  score    3  won 5 drawn 2 lost 1\n"
        );
        assert_eq!(listing(&pos, &[], plain), "  no moves for this position\n");
    }
}
