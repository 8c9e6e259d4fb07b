//! `shuai analyze`: the board, then one line per completed depth with the
//! score, a win/draw/loss estimate and the main line in Chinese notation.

use super::live::{self, Progress};
use super::{board, emit, notation, parse_position, say, score, side_name, Style, StyleArgs};
use clap::Args;
use shuai_board::rules::RuleBook;
use shuai_board::Position;
use shuai_search::score::is_mate;
use shuai_search::{Control, Info, Limits, Searcher};
use std::io::{BufRead, IsTerminal};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Search time when no limit is given and standard input is not a
/// terminal (at a terminal the search runs until stopped).
pub const DEFAULT_NONINTERACTIVE_MS: u64 = 10_000;

/// Arguments of `shuai analyze`.
#[derive(Args, Debug, Clone)]
#[command(after_help = "\
Examples:
  shuai analyze                                  analyse the start position until Enter or Ctrl-C
  shuai analyze --moves 炮二平五 马8进7 --depth 12
  shuai analyze 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w' --movetime 5000
  shuai analyze startpos moves h2e2 h9g7 --multipv 3 --ascii

Scores are from the side to move's view: centipawns (+100 is about a pawn
up) or mate in N moves, with win/draw/loss chances from a model fitted to
Shuai's own games (score and attacking material; Shuai against itself).")]
pub struct AnalyzeArgs {
    /// The position: `startpos` (the default) or a FEN, quoted or as
    /// separate words, optionally followed by `moves m1 m2 …`.
    #[arg(value_name = "FEN|startpos")]
    pub position: Vec<String>,
    /// Moves to play from that position first, in ICCS (h2e2) or Chinese
    /// notation (炮二平五), separated by spaces.
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    pub moves: Vec<String>,
    /// Search to this depth.
    #[arg(long, group = "limit", value_parser = clap::value_parser!(u32).range(1..=120))]
    pub depth: Option<u32>,
    /// Search exactly this many milliseconds.
    #[arg(long, group = "limit", value_name = "MS")]
    pub movetime: Option<u64>,
    /// Search about this many nodes.
    #[arg(long, group = "limit")]
    pub nodes: Option<u64>,
    /// Search until Enter or Ctrl-C (the default at a terminal; otherwise
    /// the default is 10 seconds).
    #[arg(long, group = "limit")]
    pub infinite: bool,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// The repetition rules: chinese (the default) or asian.
    #[arg(long, default_value_t = RuleBook::Chinese, value_name = "chinese|asian")]
    pub rules: RuleBook,
    /// Show the best K lines.
    #[arg(long, default_value_t = 1, value_name = "K",
          value_parser = clap::value_parser!(u32).range(1..=128))]
    pub multipv: u32,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 16, value_name = "MB",
          value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
    /// Board and move display.
    #[command(flatten)]
    pub style: StyleArgs,
    /// Endgame tables to probe.
    #[command(flatten)]
    pub egtb: super::egtb::EgtbArgs,
}

/// The column titles above the lines.
pub fn header(multipv: bool) -> String {
    format!(
        "{:<7}{} {:>11}  {:<17}  {:>7} {:>7} {:>7}  main line",
        "depth",
        if multipv { " line" } else { "" },
        "score",
        "win/draw/loss",
        "nodes",
        "nps",
        "time"
    )
}

/// One completed line: depth/seldepth, (line number,) score, win/draw/loss,
/// nodes, nodes per second, time, and the main line from `pos`, cut to fit
/// in `columns` terminal columns if given.
pub fn info_line(
    pos: &Position,
    info: &Info,
    multipv: bool,
    style: Style,
    columns: Option<usize>,
) -> String {
    let depth = format!("{:>3}/{}", info.depth, info.seldepth);
    let line = if multipv {
        format!(" {:>4}", format!("#{}", info.multipv))
    } else {
        String::new()
    };
    let head = format!(
        "{depth:<7}{line} {:>11}  {}  {:>7} {:>7} {:>7}  ",
        score::score_text(info.score),
        score::wdl(info.score, pos),
        score::count_text(info.nodes),
        score::count_text(info.nps),
        score::time_text(info.time),
    );
    // Keep one column free so the terminal does not wrap.
    let room = columns.map_or(usize::MAX, |c| c.saturating_sub(head.len() + 1).max(20));
    head + &notation::line_text_within(pos, &info.pv, style, room)
}

/// Runs `shuai analyze`.
pub fn run(args: &AnalyzeArgs) -> ExitCode {
    let pos = match parse_position(&args.position, &args.moves) {
        Ok(p) => p,
        Err(msg) => {
            eprintln!("shuai analyze: {msg}");
            return ExitCode::from(2);
        }
    };
    let tablebase = match args.egtb.open() {
        Ok(tb) => tb,
        Err(msg) => {
            eprintln!("shuai analyze: {msg}");
            return ExitCode::from(2);
        }
    };
    let style = args.style.style();
    let interactive = std::io::stdin().is_terminal();
    emit(&board::render(&pos, style, pos.last_move()));
    say!(
        "{} to move   FEN {}",
        side_name(pos.side_to_move()),
        pos.to_fen()
    );
    if let Some(verdict) = super::game_over(&pos, args.rules) {
        say!("Game over: {}. {verdict}", verdict.reason);
        return ExitCode::SUCCESS;
    }
    if let Some(line) = tablebase
        .as_deref()
        .and_then(|tb| super::egtb::analyze_line(&pos, tb))
    {
        say!("{line}");
    }

    let mut limits = Limits {
        multipv: args.multipv as usize,
        ..Limits::default()
    };
    // A time limit is kept exactly: the search runs as an infinite one and
    // a timer stops it (the search's own time manager would stop early
    // once another depth looks too costly, which suits games, not
    // analysis).
    let mut think_for = None;
    let until_stopped = if let Some(d) = args.depth {
        limits.depth = Some(d);
        format!("to depth {d}")
    } else if let Some(n) = args.nodes {
        limits.nodes = Some(n);
        format!("for {} nodes", score::count_text(n))
    } else if args.infinite || (interactive && args.movetime.is_none()) {
        limits.infinite = true;
        "until stopped".to_string()
    } else {
        let (ms, note) = match args.movetime {
            Some(ms) => (ms, ""),
            None => (DEFAULT_NONINTERACTIVE_MS, " (no limit given)"),
        };
        let t = Duration::from_millis(ms);
        limits.infinite = true;
        think_for = Some(t);
        format!("for {}{note}", score::time_text(t))
    };
    let multipv = args.multipv > 1;
    say!(
        "Searching {until_stopped} on {} thread{}, {} MiB table; scores for {} (to move). \
         Enter or Ctrl-C stops.",
        args.threads,
        if args.threads == 1 { "" } else { "s" },
        args.hash,
        side_name(pos.side_to_move()),
    );
    say!("{}", header(multipv));

    let control = Arc::new(Control::new());
    // Enter (any line on standard input) stops the search; the end of
    // input does not.
    let entered = Arc::new(AtomicBool::new(false));
    {
        let control = Arc::clone(&control);
        let entered = Arc::clone(&entered);
        std::thread::spawn(move || {
            let mut line = String::new();
            if matches!(std::io::stdin().lock().read_line(&mut line), Ok(n) if n > 0) {
                if interactive {
                    live::enter_echoed();
                }
                entered.store(true, Ordering::SeqCst);
                control.stop();
            }
        });
    }

    if let Some(t) = think_for {
        let control = Arc::clone(&control);
        std::thread::spawn(move || {
            std::thread::sleep(t);
            control.stop();
        });
    }

    let mut searcher = Searcher::new(args.hash as usize);
    searcher.set_threads(args.threads as usize);
    searcher.set_rule_book(args.rules);
    searcher.set_tablebase(tablebase.clone());
    let columns = super::terminal_columns();
    // The last completed best line: what the summary shows when it starts
    // with the search's move (an interrupted depth may leave a shorter line
    // and a partly searched score behind).
    let last_best: Mutex<Option<Info>> = Mutex::new(None);
    // Once a mate is found every further depth repeats it: such repeats
    // (same line number, score and moves) are not printed again.
    let shown: Mutex<Vec<(usize, i32, Vec<shuai_board::Move>)>> = Mutex::new(Vec::new());
    let print = |info: &Info| {
        let repeat = is_mate(info.score)
            && shown.lock().is_ok_and(|shown| {
                shown
                    .iter()
                    .any(|(n, s, pv)| *n == info.multipv && *s == info.score && *pv == info.pv)
            });
        if !repeat {
            say!("{}", info_line(&pos, info, multipv, style, columns));
        }
        if let Ok(mut shown) = shown.lock() {
            shown.retain(|(n, _, _)| *n != info.multipv);
            shown.push((info.multipv, info.score, info.pv.clone()));
        }
        if info.multipv == 1 {
            if let Ok(mut last) = last_best.lock() {
                *last = Some(info.clone());
            }
        }
    };
    let progress = Progress {
        style,
        live: true,
        note: "Enter/Ctrl-C stops",
    };
    let result = live::search(&mut searcher, &pos, &limits, &control, progress, &print);

    if entered.load(Ordering::SeqCst) || super::interrupt::pressed() {
        say!("Stopped.");
    }
    let Some(best) = result.best_move else {
        say!("No legal move.");
        return ExitCode::SUCCESS;
    };
    let last = last_best.into_inner().ok().flatten();
    let (score, depth, pv) = match last {
        Some(info) if info.pv.first() == Some(&best) => (info.score, info.depth, info.pv),
        _ if result.pv.first() == Some(&best) => (result.score, result.depth, result.pv),
        _ => (result.score, result.depth, vec![best]),
    };
    say!(
        "Best move {}   score {} ({:#})   depth {}   {} nodes",
        notation::move_text(&pos, best, style),
        score::score_text(score),
        score::wdl(score, &pos),
        depth,
        score::count_text(result.nodes),
    );
    say!("Main line {}", notation::line_text(&pos, &pv, style));
    if let Some(tb) = &tablebase {
        for problem in tb.take_errors() {
            eprintln!("shuai analyze: {problem}");
        }
    }
    ExitCode::SUCCESS
}
