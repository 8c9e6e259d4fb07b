//! `shuai review`: a game from a file (XQF, PGN, DhtmlXQ) searched
//! position by position, every move marked by how much winning chance it
//! gave away, a summary per side, and on request an annotated PGN and a
//! graph of the evaluation (SVG).
//!
//! **Winning chance** is the expected score of the side to move, win plus
//! half a draw, from the win/draw/loss model ([`crate::wdl`]) applied to
//! the search score and the attacking material. A move's **loss** is the
//! mover's winning chance before it (best play, as searched) less after it
//! (the reply position's search, turned round); the engine's own best move
//! loses nothing. Marks by loss, as lichess marks chess games:
//! inaccuracy `?!` from 10 points (percent of a game), mistake `?` from
//! 20, blunder `??` from 30.

use super::notation;
use super::{say, score, side_name, Style, StyleArgs};
use crate::game::{read_games, Game};
use crate::wdl::{attackers, wdl};
use clap::Args;
use shuai_board::rules::RuleBook;
use shuai_board::{Color, Move, Position};
use shuai_search::{Control, Limits, Searcher};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Search time a position when no limit is given (milliseconds).
pub const DEFAULT_MOVETIME_MS: u64 = 1000;

/// Loss (per mille of winning chance) that marks an inaccuracy.
pub const INACCURACY: u32 = 100;
/// Loss that marks a mistake.
pub const MISTAKE: u32 = 200;
/// Loss that marks a blunder.
pub const BLUNDER: u32 = 300;

/// Arguments of `shuai review`.
#[derive(Args, Debug, Clone)]
#[command(after_help = "\
Examples:
  shuai review game.xqf                       every position searched 1 s
  shuai review games.pgn --game 3 --movetime 500 --threads 2 --graph game3.svg
  shuai review page.html --depth 12 --pgn annotated.pgn

Winning chance is the side's expected score (win + half a draw) from the
win/draw/loss model. A move's loss is the mover's winning chance before it
less after it; marks: ?! from 10 points, ? from 20, ?? from 30.")]
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

/// The search of one position of the game.
#[derive(Clone, Debug)]
pub struct Searched {
    /// The score for the side to move (centipawns or mate).
    pub score: i32,
    /// The best move, if there is a legal one.
    pub best: Option<Move>,
    /// The main line from the best move.
    pub pv: Vec<Move>,
    /// The side to move's winning chance, per mille (win + draw / 2).
    pub chance: u32,
}

/// The mark for a loss of `loss` per mille of winning chance.
pub fn mark(loss: u32) -> &'static str {
    if loss >= BLUNDER {
        "??"
    } else if loss >= MISTAKE {
        "?"
    } else if loss >= INACCURACY {
        "?!"
    } else {
        ""
    }
}

/// The PGN NAG of a mark.
fn nag(mark: &str) -> Option<&'static str> {
    match mark {
        "?!" => Some("$6"),
        "?" => Some("$2"),
        "??" => Some("$4"),
        _ => None,
    }
}

/// The winning chance (per mille) of `score` for the side to move in
/// `pos`.
pub fn chance(score: i32, pos: &Position) -> u32 {
    let w = wdl(score, attackers(pos));
    w.win + w.draw / 2
}

/// One reviewed move.
#[derive(Clone, Debug)]
pub struct Reviewed {
    /// The position before the move.
    pub before: Position,
    /// The move played.
    pub played: Move,
    /// The mover.
    pub mover: Color,
    /// The search before the move.
    pub search: Searched,
    /// The mover's winning chance after the move (per mille).
    pub chance_after: u32,
    /// The mover's score after the move (the reply's search turned round).
    pub score_after: i32,
    /// Winning chance given away (per mille; 0 for the best move).
    pub loss: u32,
    /// Centipawns given away (0 to 1000).
    pub cp_loss: i32,
}

impl Reviewed {
    /// The mark (`?!`, `?`, `??` or empty).
    pub fn mark(&self) -> &'static str {
        mark(self.loss)
    }

    /// Red's win/draw/loss chances after the move.
    pub fn red_wdl(&self) -> score::Wdl {
        let mut after = self.before.clone();
        after.make_move(self.played);
        let w = score::wdl(self.score_after, &after);
        match self.mover {
            Color::Red => w,
            Color::Black => score::Wdl {
                win: w.loss,
                draw: w.draw,
                loss: w.win,
            },
        }
    }
}

/// Judges every move from the searches of the positions before and after
/// (`searches[i]` is the search of the position before move `i`; there is
/// one more search than moves).
pub fn judge(start: &Position, moves: &[Move], searches: &[Searched]) -> Vec<Reviewed> {
    let mut pos = start.clone();
    let mut out = Vec::with_capacity(moves.len());
    for (i, &mv) in moves.iter().enumerate() {
        let (Some(now), Some(next)) = (searches.get(i), searches.get(i + 1)) else {
            break;
        };
        let chance_after = 1000 - next.chance;
        let score_after = -next.score;
        let is_best = now.best == Some(mv);
        let loss = if is_best {
            0
        } else {
            now.chance.saturating_sub(chance_after)
        };
        let clamp = |s: i32| s.clamp(-1000, 1000);
        let cp_loss = if is_best {
            0
        } else {
            (clamp(now.score) - clamp(score_after)).clamp(0, 1000)
        };
        out.push(Reviewed {
            before: pos.clone(),
            played: mv,
            mover: pos.side_to_move(),
            search: now.clone(),
            chance_after,
            score_after,
            loss,
            cp_loss,
        });
        pos.make_move(mv);
    }
    out
}

/// The move number and dots of the move made in `pos`: `12.` for Red,
/// `12…` for Black.
fn number(pos: &Position, ply_from_start: usize, start: &Position) -> String {
    let red_first = start.side_to_move() == Color::Red;
    let n = start.fullmove_number() as usize + (ply_from_start + usize::from(!red_first)) / 2;
    match pos.side_to_move() {
        Color::Red => format!("{n}."),
        Color::Black => format!("{n}…"),
    }
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

/// PGN movetext for `moves` from `pos`, numbered, ICCS.
fn movetext(pos: &Position, moves: &[Move], start: &Position, first_ply: usize) -> String {
    let mut pos = pos.clone();
    let mut words = Vec::new();
    for (k, &m) in moves.iter().enumerate() {
        let n = number(&pos, first_ply + k, start);
        if pos.side_to_move() == Color::Red {
            words.push(n);
        } else if k == 0 {
            words.push(n.replace('…', "..."));
        }
        words.push(m.to_string());
        pos.make_move(m);
    }
    words.join(" ")
}

/// The reviewed game as PGN: the file's tags, ICCS moves, each with its
/// score and chances in a comment, a NAG for a mark and the engine's line
/// as a variation where the move was marked.
pub fn annotated_pgn(game: &Game, reviewed: &[Reviewed], settings: &str) -> String {
    let clean = |s: &str| s.replace(['"', '\\'], "'");
    let mut out = String::new();
    for name in ["Event", "Site", "Date", "Round", "Red", "Black", "Result"] {
        out.push_str(&format!(
            "[{name} \"{}\"]\n",
            clean(
                game.tag(name)
                    .unwrap_or(if name == "Result" { "*" } else { "?" })
            )
        ));
    }
    out.push_str("[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n");
    if game.start.to_fen() != Position::startpos().to_fen() {
        out.push_str(&format!(
            "[SetUp \"1\"]\n[FEN \"{}\"]\n",
            game.start.to_fen()
        ));
    }
    out.push_str(&format!(
        "[Annotator \"Shuai review, {}\"]\n\n",
        clean(settings)
    ));
    let mut words: Vec<String> = Vec::new();
    for (i, r) in reviewed.iter().enumerate() {
        let n = number(&r.before, i, &game.start);
        if r.mover == Color::Red {
            words.push(n);
        } else if i == 0 {
            words.push(n.replace('…', "..."));
        }
        words.push(r.played.to_string());
        if let Some(nag) = nag(r.mark()) {
            words.push(nag.to_string());
        }
        let red = if r.mover == Color::Red {
            r.score_after
        } else {
            -r.score_after
        };
        let w = r.red_wdl();
        words.push(format!(
            "{{{} {} Red W{}% D{}% L{}%{}}}",
            r.before.to_chinese(r.played),
            score::score_text(red),
            w.win,
            w.draw,
            w.loss,
            if r.loss > 0 {
                format!(", loses {:.1}", f64::from(r.loss) / 10.0)
            } else {
                String::new()
            }
        ));
        if !r.mark().is_empty() && !r.search.pv.is_empty() {
            let line: Vec<Move> = r.search.pv.iter().copied().take(8).collect();
            words.push(format!(
                "({} {{{}}})",
                movetext(&r.before, &line, &game.start, i),
                score::score_text(if r.mover == Color::Red {
                    r.search.score
                } else {
                    -r.search.score
                })
            ));
        }
        words.push(String::new());
    }
    words.retain(|w| !w.is_empty());
    words.push(game.tag("Result").unwrap_or("*").to_string());
    let mut column = 0;
    for w in words {
        let width = w.chars().count();
        if column > 0 && column + 1 + width > 80 {
            out.push('\n');
            column = 0;
        } else if column > 0 {
            out.push(' ');
            column += 1;
        }
        out.push_str(&w);
        column += width;
    }
    out.push_str("\n\n");
    out
}

/// Escapes text for SVG.
fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The graph: Red's winning chance over the plies (top: Red wins; bottom:
/// Black wins), the marked moves as dots coloured by mark, an SVG drawing.
pub fn graph_svg(game: &Game, reviewed: &[Reviewed], red_chances: &[u32]) -> String {
    let (w, h) = (900.0f64, 320.0f64);
    let (left, right, top, bottom) = (50.0, 20.0, 40.0, 50.0);
    let plot_w = w - left - right;
    let plot_h = h - top - bottom;
    let plies = red_chances.len().saturating_sub(1).max(1) as f64;
    let x = |ply: usize| left + plot_w * ply as f64 / plies;
    let y = |chance: u32| top + plot_h * (1.0 - f64::from(chance) / 1000.0);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
         font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"{w}\" height=\"{h}\" fill=\"#fdfaf3\"/>\n\
         <text x=\"{left}\" y=\"22\" font-size=\"15\">{}</text>\n",
        xml(&format!("{} — Red's winning chance", game.title()))
    );
    // Halves: Red's above, Black's below.
    s.push_str(&format!(
        "<rect x=\"{left}\" y=\"{top}\" width=\"{plot_w}\" height=\"{}\" fill=\"#f6e3e0\"/>\n\
         <rect x=\"{left}\" y=\"{}\" width=\"{plot_w}\" height=\"{}\" fill=\"#e4e4e4\"/>\n",
        plot_h / 2.0,
        top + plot_h / 2.0,
        plot_h / 2.0
    ));
    for pct in [0u32, 25, 50, 75, 100] {
        let yy = y(pct * 10);
        s.push_str(&format!(
            "<line x1=\"{left}\" y1=\"{yy:.1}\" x2=\"{:.1}\" y2=\"{yy:.1}\" stroke=\"#999\" stroke-width=\"{}\"/>\n\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{pct}%</text>\n",
            left + plot_w,
            if pct == 50 { 1.2 } else { 0.4 },
            left - 6.0,
            yy + 4.0
        ));
    }
    // Move numbers every 10 moves (20 plies).
    let mut ply = 0;
    while ply < red_chances.len() {
        let xx = x(ply);
        s.push_str(&format!(
            "<line x1=\"{xx:.1}\" y1=\"{top}\" x2=\"{xx:.1}\" y2=\"{:.1}\" stroke=\"#bbb\" stroke-width=\"0.4\"/>\n\
             <text x=\"{xx:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>\n",
            top + plot_h,
            top + plot_h + 16.0,
            ply / 2
        ));
        ply += 20;
    }
    s.push_str(&format!(
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">move</text>\n",
        left - 6.0,
        top + plot_h + 16.0
    ));
    // The curve, filled towards the 50% line.
    let points: Vec<String> = red_chances
        .iter()
        .enumerate()
        .map(|(i, &c)| format!("{:.1},{:.1}", x(i), y(c)))
        .collect();
    s.push_str(&format!(
        "<polygon points=\"{left},{:.1} {} {:.1},{:.1}\" fill=\"#c0392b\" fill-opacity=\"0.25\"/>\n\
         <polyline points=\"{}\" fill=\"none\" stroke=\"#8e1b10\" stroke-width=\"1.8\"/>\n",
        y(500),
        points.join(" "),
        x(red_chances.len().saturating_sub(1)),
        y(500),
        points.join(" ")
    ));
    // The marks, at the position after the marked move.
    for (i, r) in reviewed.iter().enumerate() {
        let colour = match r.mark() {
            "??" => "#d0021b",
            "?" => "#f5a623",
            "?!" => "#e8d44d",
            _ => continue,
        };
        let c = red_chances.get(i + 1).copied().unwrap_or(500);
        let label = format!(
            "{} {}{} (loses {:.1})",
            number(&r.before, i, &game.start),
            r.before.to_chinese(r.played),
            r.mark(),
            f64::from(r.loss) / 10.0
        );
        s.push_str(&format!(
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"5\" fill=\"{colour}\" stroke=\"#333\"><title>{}</title></circle>\n\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" text-anchor=\"middle\">{}</text>\n",
            x(i + 1),
            y(c),
            xml(&label),
            x(i + 1),
            y(c) - 8.0,
            xml(r.mark())
        ));
    }
    // The key.
    let mut kx = left + 6.0;
    let ky = h - 10.0;
    for (colour, text) in [
        ("#e8d44d", "?! inaccuracy ≥10"),
        ("#f5a623", "? mistake ≥20"),
        ("#d0021b", "?? blunder ≥30"),
    ] {
        s.push_str(&format!(
            "<circle cx=\"{kx:.1}\" cy=\"{:.1}\" r=\"5\" fill=\"{colour}\" stroke=\"#333\"/>\
             <text x=\"{:.1}\" y=\"{ky:.1}\">{}</text>\n",
            ky - 4.0,
            kx + 9.0,
            xml(text)
        ));
        kx += 150.0;
    }
    s.push_str("</svg>\n");
    s
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
        searches.push(Searched {
            score: result.score,
            best: result.best_move,
            pv: result.pv,
            chance: chance(result.score, &pos),
        });
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
        if let Err(e) = std::fs::write(path, annotated_pgn(game, &reviewed, &settings)) {
            return fail(format!("{path}: {e}"));
        }
        say!("Annotated PGN written to {path}.");
    }
    if let Some(path) = &args.graph {
        // Red's chance at every position: the side to move's turned round
        // on Black's turns.
        let mut pos = game.start.clone();
        let mut red = Vec::with_capacity(searches.len());
        for (i, s) in searches.iter().enumerate() {
            red.push(if pos.side_to_move() == Color::Red {
                s.chance
            } else {
                1000 - s.chance
            });
            if let Some(&m) = moves.get(i) {
                pos.make_move(m);
            }
        }
        if let Err(e) = std::fs::write(path, graph_svg(game, &reviewed, &red)) {
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
        assert!(
            report.contains("1… 卒1进1(a6a5)?? loses 33.2 points; better 马8进7(h9g7)"),
            "{report}"
        );

        // The annotated PGN reads back: the same moves, the better line a
        // variation.
        let pgn = annotated_pgn(&game, &reviewed, "test");
        assert!(pgn.contains("a6a5 $4"), "{pgn}");
        let back = read_games(pgn.as_bytes()).expect("reads").remove(0);
        let lines: Vec<Vec<String>> = back
            .lines()
            .iter()
            .map(|l| l.iter().map(ToString::to_string).collect())
            .collect();
        assert_eq!(lines, [vec!["h2e2", "a6a5"], vec!["h2e2", "h9g7"]]);
        assert_eq!(back.tag("Red"), Some("R"));

        let svg = graph_svg(&game, &reviewed, &[510, 510, 100]);
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
