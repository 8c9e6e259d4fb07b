//! `shuai review`: a game from a file (XQF, PGN, DhtmlXQ) searched
//! position by position, every move marked by how much winning chance it
//! gave away, a summary per side, and on request an annotated PGN and a
//! graph of the evaluation (SVG).
//!
//! The judging (winning chance, loss, marks) and the graph are in
//! [`crate::review`], which the browser page uses too.

use super::notation;
use super::{say, score, side_name, Style, StyleArgs};
use crate::game::{read_games, Game};
use crate::review::number;
pub use crate::review::{
    annotated_pgn, chance, graph_svg, judge, mark, red_chances, Reviewed, Searched, BLUNDER,
    INACCURACY, MISTAKE,
};
use clap::Args;
use shuai_board::rules::RuleBook;
use shuai_board::{Color, Position};
use shuai_search::{Control, Limits, Searcher};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Search time a position when no limit is given (milliseconds).
pub const DEFAULT_MOVETIME_MS: u64 = 1000;

/// Arguments of `shuai review`.
#[derive(Args, Debug, Clone)]
#[command(after_help = "\
Examples:
  shuai review game.xqf                       every position searched 1 s
  shuai review games.pgn --game 3 --movetime 500 --threads 2 --graph game3.svg
  shuai review page.html --depth 12 --pgn annotated.pgn

Winning chance is the side's expected score (win + half a draw) from the
win/draw/loss model. A move's loss is the mover's winning chance before it
less after it; marks: ?! from 10 points, ? from 20, ?? from 30. The opening
is named by its ECCO code (C70 五七炮对屏风马进３卒). PGN moves may be in
ICCS, WXF (C2.5) or Chinese notation.")]
pub struct ReviewArgs {
    /// The game file: XQF, PGN (ICCS or Chinese moves) or a page or text
    /// with DhtmlXQ.
    pub file: String,
    /// Which game of the file (from 1).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub game: u32,
    /// Search each position this many milliseconds (default 1000).
    #[arg(long, group = "limit", value_name = "MS")]
    pub movetime: Option<u64>,
    /// Search each position to this depth.
    #[arg(long, group = "limit", value_parser = clap::value_parser!(u32).range(1..=120))]
    pub depth: Option<u32>,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_name = "MB",
          value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
    /// The repetition rules: chinese (the default) or asian.
    #[arg(long, default_value_t = RuleBook::Chinese, value_name = "chinese|asian")]
    pub rules: RuleBook,
    /// Write the game with scores, marks (NAGs) and better lines
    /// (variations) as PGN to this file.
    #[arg(long, value_name = "OUT")]
    pub pgn: Option<String>,
    /// Draw the winning chance over the moves, with the marks, as SVG to
    /// this file.
    #[arg(long, value_name = "OUT.svg")]
    pub graph: Option<String>,
    /// Board and move display.
    #[command(flatten)]
    pub style: StyleArgs,
    /// Endgame tables to probe.
    #[command(flatten)]
    pub egtb: super::egtb::EgtbArgs,
}

/// Pads `s` with spaces to `width` terminal columns.
fn pad(s: &str, width: usize) -> String {
    let w = super::display_width(s);
    format!("{s}{}", " ".repeat(width.saturating_sub(w)))
}

/// The per-move table and the summary, as printed.
pub fn report(game: &Game, reviewed: &[Reviewed], style: Style) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "{:<6} {:<20} {:>9}  {:<17}  {:<4} {}\n",
        "move", "played", "score", "Red W/D/L", "mark", "engine's choice"
    ));
    for (i, r) in reviewed.iter().enumerate() {
        // Scores from Red's view, as the graph shows them.
        let red = |s: i32| if r.mover == Color::Red { s } else { -s };
        let red_wdl = r.red_wdl();
        let played = notation::move_text(&r.before, r.played, style);
        let mut line = format!(
            "{:<6} {} {:>9}  {}  {:<4}",
            number(&r.before, i, &game.start),
            pad(&played, 20),
            score::score_text(red(r.score_after)),
            red_wdl,
            r.mark()
        );
        if let Some(best) = r.search.best.filter(|&b| b != r.played) {
            line.push_str(&format!(
                " {} {}",
                notation::move_text(&r.before, best, style),
                score::score_text(red(r.search.score))
            ));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push('\n');
    let played: Vec<_> = reviewed.iter().map(|r| r.played).collect();
    if let Some(opening) = crate::opening::classify(&game.start, &played) {
        out.push_str(&format!("Opening (ECCO): {opening}\n"));
    }
    for color in [Color::Red, Color::Black] {
        out.push_str(&side_summary(game, reviewed, color, style));
    }
    out
}

/// One side's summary: average loss, marks, the three worst moves.
fn side_summary(game: &Game, reviewed: &[Reviewed], color: Color, style: Style) -> String {
    let mine: Vec<(usize, &Reviewed)> = reviewed
        .iter()
        .enumerate()
        .filter(|(_, r)| r.mover == color)
        .collect();
    let name = game.tag(side_name(color)).unwrap_or("");
    let count = |m: &str| mine.iter().filter(|(_, r)| r.mark() == m).count();
    let n = mine.len().max(1) as f64;
    let avg = mine.iter().map(|(_, r)| f64::from(r.loss)).sum::<f64>() / n / 10.0;
    let acpl = mine.iter().map(|(_, r)| f64::from(r.cp_loss)).sum::<f64>() / n;
    let mut out =
        format!(
        "{}{}: {} moves, average loss {avg:.1} points of winning chance ({acpl:.0} centipawns); \
         ?! (inaccuracy) {}, ? (mistake) {}, ?? (blunder) {}\n",
        side_name(color),
        if name.is_empty() { String::new() } else { format!(" ({name})") },
        mine.len(),
        count("?!"),
        count("?"),
        count("??"),
    );
    let mut worst: Vec<&(usize, &Reviewed)> = mine.iter().filter(|(_, r)| r.loss > 0).collect();
    worst.sort_by_key(|(i, r)| (std::cmp::Reverse(r.loss), *i));
    for (i, r) in worst.into_iter().take(3) {
        let better = r.search.best.map_or(String::new(), |b| {
            format!(
                "; better {} ({})",
                notation::move_text(
                    &r.before,
                    b,
                    Style {
                        ascii: false,
                        ..style
                    }
                ),
                notation::line_text(
                    &r.before,
                    &r.search.pv.iter().copied().take(6).collect::<Vec<_>>(),
                    style
                )
            )
        });
        out.push_str(&format!(
            "  {} {}{} loses {:.1} points{better}\n",
            number(&r.before, *i, &game.start),
            notation::move_text(
                &r.before,
                r.played,
                Style {
                    ascii: false,
                    ..style
                }
            ),
            r.mark(),
            f64::from(r.loss) / 10.0,
        ));
    }
    out
}

/// Draws the progress line on standard error: a bar, positions done and
/// the time left (estimated from the time taken so far).
fn progress(done: usize, total: usize, started: Instant, live: bool) {
    let elapsed = started.elapsed();
    let left = if done == 0 {
        Duration::ZERO
    } else {
        elapsed.mul_f64((total - done) as f64 / done as f64)
    };
    let width = 30;
    let filled = width * done / total.max(1);
    let text = format!(
        "[{}{}] {done}/{total} positions, {} elapsed, about {} left",
        "#".repeat(filled),
        ".".repeat(width - filled),
        score::time_text(elapsed),
        score::time_text(left)
    );
    let mut err = std::io::stderr();
    if live {
        let _ = write!(err, "\r\x1b[K{text}");
        if done == total {
            let _ = writeln!(err);
        }
    } else if done == total || done % 10 == 0 {
        let _ = writeln!(err, "{text}");
    }
    let _ = err.flush();
}

/// Runs `shuai review`.
pub fn run(args: &ReviewArgs) -> ExitCode {
    let fail = |msg: String| {
        eprintln!("shuai review: {msg}");
        ExitCode::from(2)
    };
    let bytes = match std::fs::read(&args.file) {
        Ok(b) => b,
        Err(e) => return fail(format!("{}: {e}", args.file)),
    };
    let games = match read_games(&bytes) {
        Ok(g) => g,
        Err(e) => return fail(format!("{}: {e}", args.file)),
    };
    let Some(game) = games.get(args.game as usize - 1) else {
        return fail(format!(
            "{}: there is no game {} (the file holds {})",
            args.file,
            args.game,
            games.len()
        ));
    };
    for problem in &game.problems {
        eprintln!("shuai review: {}: {problem}", args.file);
    }
    let tablebase = match args.egtb.open() {
        Ok(tb) => tb,
        Err(msg) => return fail(msg),
    };
    let style = args.style.style();
    let moves = game.main_line();
    let mut limits = Limits::default();
    let settings = if let Some(d) = args.depth {
        limits.depth = Some(d);
        format!("depth {d}")
    } else {
        let ms = args.movetime.unwrap_or(DEFAULT_MOVETIME_MS);
        limits.movetime = Some(Duration::from_millis(ms));
        format!("{ms} ms a position")
    };
    let settings = format!(
        "{settings}, {} thread{}",
        args.threads,
        if args.threads == 1 { "" } else { "s" }
    );
    say!(
        "{} ({} game {} of {}): {} moves from {}",
        game.title(),
        game.format.name(),
        args.game,
        games.len(),
        moves.len(),
        if game.start.to_fen() == Position::startpos().to_fen() {
            "the start".to_string()
        } else {
            game.start.to_fen()
        }
    );
    say!("Searching {} positions, {settings}.", moves.len() + 1);

    let mut searcher = Searcher::new(args.hash as usize);
    searcher.set_threads(args.threads as usize);
    searcher.set_rule_book(args.rules);
    searcher.set_tablebase(tablebase.clone());
    let live = std::io::stderr().is_terminal();
    let started = Instant::now();
    let mut pos = game.start.clone();
    let mut searches = Vec::with_capacity(moves.len() + 1);
    let total = moves.len() + 1;
    super::interrupt::install();
    for i in 0..total {
        progress(i, total, started, live);
        let control = std::sync::Arc::new(Control::new());
        let _guard = super::interrupt::SearchGuard::new(std::sync::Arc::clone(&control));
        let result = searcher.search(&pos, &limits, &control, &|_| {});
        if super::interrupt::pressed() {
            eprintln!();
            return fail("stopped".to_string());
        }
        searches.push(Searched::new(
            &pos,
            result.score,
            result.best_move,
            result.pv,
        ));
        if let Some(&m) = moves.get(i) {
            pos.make_move(m);
        }
    }
    progress(total, total, started, live);
    let reviewed = judge(&game.start, &moves, &searches);
    super::emit(&report(game, &reviewed, style));
    say!(
        "Marks by the winning chance (win + half a draw) the move gave away: ?! from {} points, \
         ? from {}, ?? from {}. Reviewed in {}.",
        INACCURACY / 10,
        MISTAKE / 10,
        BLUNDER / 10,
        score::time_text(started.elapsed())
    );

    if let Some(path) = &args.pgn {
        if let Err(e) = std::fs::write(
            path,
            annotated_pgn(&game.tags, &game.start, &reviewed, &settings),
        ) {
            return fail(format!("{path}: {e}"));
        }
        say!("Annotated PGN written to {path}.");
    }
    if let Some(path) = &args.graph {
        let red = red_chances(&game.start, &moves, &searches);
        let svg = graph_svg(&game.title(), &game.start, &reviewed, &red);
        if let Err(e) = std::fs::write(path, svg) {
            return fail(format!("{path}: {e}"));
        }
        say!("Graph written to {path}.");
    }
    if let Some(tb) = &tablebase {
        for problem in tb.take_errors() {
            eprintln!("shuai review: {problem}");
        }
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    use shuai_board::Move;

    fn searched(score: i32, best: Option<Move>, pos: &Position) -> Searched {
        Searched {
            score,
            best,
            pv: best.into_iter().collect(),
            chance: chance(score, pos),
        }
    }

    #[test]
    fn marks_by_the_winning_chance_given_away() {
        assert_eq!(mark(99), "");
        assert_eq!(mark(100), "?!");
        assert_eq!(mark(199), "?!");
        assert_eq!(mark(200), "?");
        assert_eq!(mark(300), "??");
        // Level at the start: 385 + 230 / 2 = 500 per mille.
        assert_eq!(chance(0, &Position::startpos()), 500);
    }

    /// A two-move game: Red plays the engine's move, Black a move that
    /// the searches say loses 450 centipawns.
    fn two_moves() -> (Game, Vec<Reviewed>) {
        let start = Position::startpos();
        let h2e2 = start.parse_move("h2e2").expect("legal");
        let mut after1 = start.clone();
        after1.make_move(h2e2);
        let h9g7 = after1.parse_move("h9g7").expect("legal");
        let a6a5 = after1.parse_move("a6a5").expect("legal");
        let mut after2 = after1.clone();
        after2.make_move(a6a5);
        let searches = [
            searched(30, Some(h2e2), &start),
            searched(-30, Some(h9g7), &after1),
            searched(480, None, &after2),
        ];
        let reviewed = judge(&start, &[h2e2, a6a5], &searches);
        let text = "[Red \"R\"]\n[Black \"B\"]\n1. h2e2 a6a5 *\n";
        let game = read_games(text.as_bytes()).expect("reads").remove(0);
        (game, reviewed)
    }

    #[test]
    fn judges_each_move_against_the_search_before_it() {
        let (_, reviewed) = two_moves();
        assert_eq!(reviewed.len(), 2);
        // The engine's own move loses nothing.
        assert_eq!(
            (reviewed[0].loss, reviewed[0].cp_loss, reviewed[0].mark()),
            (0, 0, "")
        );
        // Black's: from -30 to -480.
        let r = &reviewed[1];
        assert_eq!(r.mover, Color::Black);
        assert_eq!(r.cp_loss, 450);
        let before = chance(-30, &r.before);
        assert_eq!(r.loss, before - (1000 - chance(480, &r.before)));
        assert!(r.loss >= BLUNDER, "{}", r.loss);
        assert_eq!(r.mark(), "??");
    }

    #[test]
    fn the_report_the_pgn_and_the_graph() {
        let (game, reviewed) = two_moves();
        let style = Style {
            color: false,
            ascii: false,
        };
        let report = report(&game, &reviewed, style);
        let lines: Vec<&str> = report.lines().collect();
        assert!(
            lines[1].starts_with("1.     炮二平五(h2e2)"),
            "{}",
            lines[1]
        );
        assert!(lines[2].starts_with("1…     卒1进1(a6a5)"), "{}", lines[2]);
        assert!(lines[2].contains("??   马8进7(h9g7) +30"), "{}", lines[2]);
        assert!(
            report.contains("Black (B): 1 moves, average loss"),
            "{report}"
        );
        assert!(report.contains("?? (blunder) 1"), "{report}");
        // 炮二平五 卒1进1: the central cannon, and a reply no opening of
        // the central cannon names.
        assert!(
            report.contains("\nOpening (ECCO): B00 中炮局\nRed (R):"),
            "{report}"
        );
        assert!(
            report.contains("1… 卒1进1(a6a5)?? loses 33.2 points; better 马8进7(h9g7)"),
            "{report}"
        );

        // The annotated PGN reads back: the same moves, the better line a
        // variation.
        let pgn = annotated_pgn(&game.tags, &game.start, &reviewed, "test");
        assert!(pgn.contains("a6a5 $4"), "{pgn}");
        assert!(
            pgn.contains("[ECCO \"B00\"]\n[Opening \"中炮局\"]\n[Annotator"),
            "{pgn}"
        );
        let back = read_games(pgn.as_bytes()).expect("reads").remove(0);
        let lines: Vec<Vec<String>> = back
            .lines()
            .iter()
            .map(|l| l.iter().map(ToString::to_string).collect())
            .collect();
        assert_eq!(lines, [vec!["h2e2", "a6a5"], vec!["h2e2", "h9g7"]]);
        assert_eq!(back.tag("Red"), Some("R"));
        assert_eq!(back.tag("Opening"), Some("中炮局"));

        let svg = graph_svg(&game.title(), &game.start, &reviewed, &[510, 510, 100]);
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert_eq!(
            svg.matches("<circle").count(),
            1 + 3,
            "one mark and the key"
        );
        assert!(svg.contains("<title>1… 卒1进1?? (loses"), "{svg}");
        assert!(svg.trim_end().ends_with("</svg>"));
    }
}
