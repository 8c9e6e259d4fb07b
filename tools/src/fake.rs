//! A scripted fake engine for the runner's tests (`shuai-tools
//! fake-engine`, hidden from the help): it speaks UCI or UCCI, plays a
//! legal move chosen from the position's key, and after `--after` searches
//! misbehaves as told: an illegal move, a crash, silence, a late move, no
//! move, garbage or a resignation.

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
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        let toks: Vec<&str> = line.split_whitespace().collect();
        let say = |out: &mut std::io::Stdout, s: &str| {
            let _ = writeln!(out, "{s}");
            let _ = out.flush();
        };
        match toks.first().copied() {
            Some("uci") => {
                say(&mut out, "id name fake");
                say(&mut out, "uciok");
            }
            Some("ucci") => {
                say(&mut out, "id name fake");
                say(&mut out, "ucciok");
            }
            Some("isready") => say(&mut out, "readyok"),
            Some("quit") => return,
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
                searches += 1;
                let legal = pos.legal_moves();
                let scripted = (cfg.mode == Mode::Script)
                    .then(|| cfg.script.get(plies))
                    .flatten()
                    .filter(|m| pos.parse_move(m).is_ok());
                let pick = if let Some(m) = scripted {
                    Some(m.clone())
                } else if legal.is_empty() {
                    None
                } else {
                    let slice = legal.as_slice();
                    Some(slice[(pos.key() % slice.len() as u64) as usize].to_string())
                };
                let misbehave = searches > cfg.after;
                let mode = if misbehave { cfg.mode } else { Mode::Good };
                let answer = |out: &mut std::io::Stdout, suffix: &str| match &pick {
                    Some(m) => {
                        let m = to_engine(m, cfg.ranks1);
                        say(
                            out,
                            &format!(
                                "info depth 1 score cp {} nodes 100 time 1 pv {m}",
                                cfg.score
                            ),
                        );
                        say(out, &format!("bestmove {m}{suffix}"));
                    }
                    None => say(out, "bestmove (none)"),
                };
                match mode {
                    Mode::Good | Mode::Script => answer(&mut out, ""),
                    Mode::Illegal => say(
                        &mut out,
                        &format!("bestmove {}", to_engine("e0e5", cfg.ranks1)),
                    ),
                    Mode::Crash => std::process::exit(3),
                    Mode::Silent => {}
                    Mode::Late => {
                        std::thread::sleep(Duration::from_millis(cfg.delay_ms));
                        answer(&mut out, "");
                    }
                    Mode::Nomove => say(&mut out, "bestmove (none)"),
                    Mode::Garbage => say(&mut out, "bestmove xyz"),
                    Mode::Resign => answer(&mut out, " resign"),
                }
            }
            _ => {}
        }
    }
}
