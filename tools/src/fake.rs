//! A scripted fake engine for the runner's tests (`shuai-tools
//! fake-engine`, hidden from the help): it speaks UCI or UCCI, plays a
//! legal move chosen from the position's key, and after `--after` searches
//! misbehaves as told: an illegal move, a crash, silence, a late move, no
//! move, garbage, a resignation or no more `readyok`. It ponders as UCI
//! asks: `bestmove … ponder …`, and a `go ponder` or `go infinite` holds
//! its answer until `ponderhit`, `stop` or the next `go`.

use shuai_board::Position;
use std::io::{BufRead, Write};
use std::time::Duration;

/// How the fake engine misbehaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Mode {
    /// Always a legal move.
    Good,
    /// A well-formed illegal move (`e0e5`).
    Illegal,
    /// Exit without answering.
    Crash,
    /// Never answer (and ignore `stop`).
    Silent,
    /// Sleep `--delay` ms, then answer.
    Late,
    /// `bestmove (none)`.
    Nomove,
    /// `bestmove xyz`.
    Garbage,
    /// A legal move followed by `resign`.
    Resign,
    /// Play `--script` move number k when the position command carries k
    /// moves (a legal move when the script has none).
    Script,
    /// Moves as `good`, but no longer answers `isready`.
    Deaf,
}

/// Settings of the fake engine.
#[derive(Clone, Debug)]
pub struct FakeConfig {
    /// What to do once misbehaving.
    pub mode: Mode,
    /// Searches answered normally first.
    pub after: u32,
    /// Delay before answering in `late` mode, ms.
    pub delay_ms: u64,
    /// Score printed with each move, centipawns.
    pub score: i32,
    /// Whether to use ranks 1–10 (as Fairy-Stockfish in UCI mode).
    pub ranks1: bool,
    /// Moves (ICCS, ranks 0–9) for `script` mode.
    pub script: Vec<String>,
    /// Time each search takes, ms (the engine reads nothing meanwhile).
    pub think_ms: u64,
}

fn to_engine(m: &str, ranks1: bool) -> String {
    if ranks1 {
        crate::spec::Protocol::Uci1.move_to_engine(m)
    } else {
        m.to_string()
    }
}

fn from_engine(m: &str, ranks1: bool) -> Option<String> {
    if ranks1 {
        crate::spec::Protocol::Uci1.move_from_engine(m)
    } else {
        Some(m.to_string())
    }
}

/// Runs the fake engine on standard input and output.
pub fn run(cfg: FakeConfig) {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut pos = Position::startpos();
    let mut searches = 0u32;
    let mut plies = 0usize;
    // The answer of a ponder or infinite search, held until it ends.
    let mut held: Option<String> = None;
    let say = |out: &mut std::io::Stdout, s: &str| {
        let _ = writeln!(out, "{s}");
        let _ = out.flush();
    };
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        let toks: Vec<&str> = line.split_whitespace().collect();
        match toks.first().copied() {
            Some("uci") => {
                say(&mut out, "id name fake");
                say(&mut out, "uciok");
            }
            Some("ucci") => {
                say(&mut out, "id name fake");
                say(&mut out, "ucciok");
            }
            // A deaf engine no longer answers.
            Some("isready") if cfg.mode == Mode::Deaf && searches > cfg.after => {}
            Some("isready") => say(&mut out, "readyok"),
            Some("quit") => return,
            Some("stop" | "ponderhit") => {
                if let Some(h) = held.take() {
                    say(&mut out, &h);
                }
            }
            Some("position") => {
                let fen_end = toks
                    .iter()
                    .position(|t| *t == "moves")
                    .unwrap_or(toks.len());
                plies = toks.len().saturating_sub(fen_end + 1);
                let mut p = if toks.get(1) == Some(&"startpos") {
                    Position::startpos()
                } else {
                    match Position::from_fen(&toks[2.min(fen_end)..fen_end].join(" ")) {
                        Ok(p) => p,
                        Err(_) => continue,
                    }
                };
                for t in toks.iter().skip(fen_end + 1) {
                    match from_engine(t, cfg.ranks1).and_then(|m| p.parse_move(&m).ok()) {
                        Some(m) => p.make_move(m),
                        None => break,
                    }
                }
                pos = p;
            }
            Some("go") => {
                // A go during a held search ends it first.
                if let Some(h) = held.take() {
                    say(&mut out, &h);
                }
                searches += 1;
                if cfg.think_ms > 0 {
                    std::thread::sleep(Duration::from_millis(cfg.think_ms));
                }
                let hold = toks.contains(&"ponder") || toks.contains(&"infinite");
                let misbehave = searches > cfg.after;
                let mode = if misbehave { cfg.mode } else { Mode::Good };
                let lines = answer(&pos, plies, mode, &cfg);
                let Some((last, infos)) = lines.split_last() else {
                    continue;
                };
                for l in infos {
                    say(&mut out, l);
                }
                if hold {
                    held = Some(last.clone());
                } else {
                    say(&mut out, last);
                }
            }
            _ => {}
        }
    }
}

/// A legal move of `pos`: the script's for ply `plies` in `script` mode,
/// otherwise one chosen by the position's key.
fn pick(pos: &Position, plies: usize, cfg: &FakeConfig) -> Option<shuai_board::Move> {
    let scripted = (cfg.mode == Mode::Script)
        .then(|| cfg.script.get(plies))
        .flatten()
        .and_then(|m| pos.parse_move(m).ok());
    let legal = pos.legal_moves();
    let slice = legal.as_slice();
    scripted
        .or_else(|| (!slice.is_empty()).then(|| slice[(pos.key() % slice.len() as u64) as usize]))
}

/// The lines answering a `go` in `mode`, the `bestmove` last (none at
/// all when silent). A mode that exits does so here.
fn answer(pos: &Position, plies: usize, mode: Mode, cfg: &FakeConfig) -> Vec<String> {
    let Some(mv) = pick(pos, plies, cfg) else {
        return vec!["bestmove (none)".into()];
    };
    let m = to_engine(&mv.to_string(), cfg.ranks1);
    let mut after = pos.clone();
    after.make_move(mv);
    let ponder = pick(&after, plies + 1, cfg)
        .map(|r| format!(" ponder {}", to_engine(&r.to_string(), cfg.ranks1)))
        .unwrap_or_default();
    let good = |suffix: &str| {
        vec![
            format!(
                "info depth 1 score cp {} nodes 100 time 1 pv {m}",
                cfg.score
            ),
            format!("bestmove {m}{suffix}"),
        ]
    };
    match mode {
        Mode::Good | Mode::Script | Mode::Deaf => good(&ponder),
        Mode::Illegal => vec![format!("bestmove {}", to_engine("e0e5", cfg.ranks1))],
        Mode::Crash => std::process::exit(3),
        Mode::Silent => Vec::new(),
        Mode::Late => {
            std::thread::sleep(Duration::from_millis(cfg.delay_ms));
            good("")
        }
        Mode::Nomove => vec!["bestmove (none)".into()],
        Mode::Garbage => vec!["bestmove xyz".into()],
        Mode::Resign => good(" resign"),
    }
}
