//! `shuai-tools suite`: test suites.
//!
//! * EPD files with `bm` (best moves), `am` (moves to avoid) and `dm N`
//!   (mate in N) are run against an engine at a fixed depth, node count
//!   or time; a position is solved when the engine's final move is right
//!   (and, for `dm`, its score announces a mate in at most N). The time to
//!   solution is when the engine's principal variation last became right
//!   and stayed so.
//! * TSV files of `id  FEN  moves  verdict  description` (the repetition
//!   cases) are judged by the project's rules code; no engine is needed.
//!   The verdict (`win`, `loss`, `draw`, or `none` for a game that goes
//!   on) is for the side to move after the moves.

use crate::engine::{Engine, EngineScore, GoOutcome, SearchInfo};
use crate::openings::{parse_line, EpdLine};
use crate::spec::{EngineSpec, Protocol};
use crate::tc::Limit;
use serde::Serialize;
use shuai_board::rules::{judge_game_end_with, RuleBook, RuleOptions};
use shuai_board::{Move, Position};
use std::time::Duration;

/// One suite position's outcome.
#[derive(Clone, Debug, Serialize)]
pub struct CaseResult {
    /// File and line (`file:line`).
    pub source: String,
    /// The position's id (EPD `id`, TSV first column).
    pub id: String,
    /// `bm`, `am`, `dm`, `verdict`.
    pub kind: String,
    /// Whether it was solved.
    pub solved: bool,
    /// What was expected.
    pub expected: String,
    /// What happened (move and score, or the rules' verdict).
    pub got: String,
    /// Time to solution, ms (engine cases that were solved).
    pub time_ms: Option<u64>,
    /// Depth reached.
    pub depth: Option<u32>,
    /// Explanation of the rules' verdict (TSV cases).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
}

/// A suite run's outcome.
#[derive(Clone, Debug, Serialize)]
pub struct SuiteReport {
    /// Solved cases.
    pub solved: usize,
    /// All cases.
    pub total: usize,
    /// Each case.
    pub results: Vec<CaseResult>,
}

/// Settings of a suite run with an engine.
#[derive(Clone, Debug)]
pub struct SuiteConfig {
    /// The engine (not needed for TSV files).
    pub engine: Option<EngineSpec>,
    /// Limit per position (no clock limits).
    pub limit: Limit,
    /// Longest wait per position, ms.
    pub timeout_ms: u64,
}

fn parse_move_any(pos: &Position, text: &str) -> Option<Move> {
    let t = text.trim_end_matches(['+', '#', '!', '?']);
    pos.parse_move(t).ok().or_else(|| pos.parse_chinese(t).ok())
}

/// Judges the TSV lines of `text` with the rules code, by `book`.
pub fn run_tsv(text: &str, source: &str, book: RuleBook) -> Result<Vec<CaseResult>, String> {
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let l = raw.trim_end_matches('\r');
        if l.trim().is_empty() || l.starts_with('#') {
            continue;
        }
        let cols: Vec<&str> = l.split('\t').collect();
        if cols.len() < 4 {
            return Err(format!(
                "{source}:{}: expected id, FEN, moves, verdict",
                n + 1
            ));
        }
        let mut pos =
            Position::from_fen(cols[1]).map_err(|e| format!("{source}:{}: bad FEN: {e}", n + 1))?;
        for m in cols[2].split_whitespace() {
            let mv = pos
                .parse_move(m)
                .map_err(|e| format!("{source}:{}: {e}", n + 1))?;
            pos.make_move(mv);
        }
        let verdict = judge_game_end_with(&pos, &RuleOptions::with_book(book));
        let got = verdict
            .as_ref()
            .map_or("none".to_string(), |v| v.result.to_string());
        let expected = cols[3].trim().to_ascii_lowercase();
        out.push(CaseResult {
            source: format!("{source}:{}", n + 1),
            id: cols[0].to_string(),
            kind: "verdict".into(),
            solved: got == expected,
            expected,
            got: match &verdict {
                Some(v) => format!("{} ({})", v.result, v.reason),
                None => "none".into(),
            },
            time_ms: None,
            depth: None,
            explanation: verdict.map(|v| v.explanation),
        });
    }
    Ok(out)
}

/// What an EPD line asks.
struct Task {
    bm: Vec<Move>,
    am: Vec<Move>,
    dm: Option<i32>,
}

fn task_of(l: &EpdLine, pos: &Position) -> Result<Task, String> {
    let moves = |op: &str| -> Result<Vec<Move>, String> {
        match l.op(op) {
            None => Ok(Vec::new()),
            Some(v) => v
                .split_whitespace()
                .map(|t| {
                    parse_move_any(pos, t)
                        .ok_or_else(|| format!("line {}: {op} move '{t}' is not legal", l.line))
                })
                .collect(),
        }
    };
    let dm = match l.op("dm") {
        None => None,
        Some(v) => Some(
            v.trim()
                .parse::<i32>()
                .map_err(|_| format!("line {}: dm '{v}' is not a number", l.line))?,
        ),
    };
    let t = Task {
        bm: moves("bm")?,
        am: moves("am")?,
        dm,
    };
    if t.bm.is_empty() && t.am.is_empty() && t.dm.is_none() {
        return Err(format!("line {}: no bm, am or dm operation", l.line));
    }
    Ok(t)
}

impl Task {
    fn right(&self, mv: Option<&str>, score: Option<EngineScore>, proto_mate: bool) -> bool {
        let Some(mv) = mv else { return false };
        if !self.bm.is_empty() && !self.bm.iter().any(|m| m.to_string() == mv) {
            return false;
        }
        if self.am.iter().any(|m| m.to_string() == mv) {
            return false;
        }
        if let Some(n) = self.dm {
            return match score {
                Some(EngineScore::Mate(k)) => k > 0 && k <= n,
                // UCCI engines give mates as plain scores near 10000.
                Some(EngineScore::Cp(c)) if proto_mate => c > 9000 && (10_000 - c + 1) / 2 <= n,
                _ => false,
            };
        }
        true
    }

    fn expected(&self) -> String {
        let mut parts = Vec::new();
        let list = |v: &[Move]| {
            v.iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        if !self.bm.is_empty() {
            parts.push(format!("bm {}", list(&self.bm)));
        }
        if !self.am.is_empty() {
            parts.push(format!("am {}", list(&self.am)));
        }
        if let Some(n) = self.dm {
            parts.push(format!("dm {n}"));
        }
        parts.join("; ")
    }
}

/// Runs the EPD positions of `text` with a running engine.
pub fn run_epd(
    engine: &mut Engine,
    text: &str,
    source: &str,
    cfg: &SuiteConfig,
    report: &mut dyn FnMut(&CaseResult),
) -> Result<Vec<CaseResult>, String> {
    let mut lines = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        lines.push(parse_line(l, n + 1).map_err(|e| format!("{source}: {e}"))?);
    }
    let proto = engine.spec.proto;
    let mut out = Vec::new();
    for l in &lines {
        let pos = l.position();
        let task = task_of(l, &pos).map_err(|e| format!("{source}: {e}"))?;
        let mut position_cmd = format!("position fen {}", l.fen);
        if !l.moves.is_empty() {
            position_cmd.push_str(" moves");
            for m in &l.moves {
                position_cmd.push(' ');
                position_cmd.push_str(&proto.move_to_engine(m));
            }
        }
        let go_cmd = match cfg.limit {
            Limit::Depth(d) => format!("go depth {d}"),
            Limit::Nodes(n) => format!("go nodes {n}"),
            Limit::MoveTime(ms) => match proto {
                Protocol::Ucci => format!("go time {ms} movestogo 1"),
                _ => format!("go movetime {ms}"),
            },
            Limit::Clock { .. } => return Err("suite: use --depth, --nodes or --movetime".into()),
        };
        let deadline = match cfg.limit {
            Limit::MoveTime(ms) => ms + 1000,
            _ => cfg.timeout_ms,
        };
        if engine.is_dead() {
            return Err(format!("{source}: the engine died"));
        }
        engine.new_game()?;
        let mut solved_since: Option<u64> = None;
        let mut info = SearchInfo::default();
        let ucci = proto == Protocol::Ucci;
        let outcome = engine.go(
            &position_cmd,
            &go_cmd,
            Duration::from_millis(deadline),
            Duration::from_millis(1000),
            &mut info,
            &mut |t, i| {
                if i.pv.is_empty() {
                    return;
                }
                if task.right(i.pv.first().map(String::as_str), i.score, ucci) {
                    solved_since.get_or_insert(t);
                } else {
                    solved_since = None;
                }
            },
        );
        let (got, solved, time) = match outcome {
            GoOutcome::Move {
                iccs, elapsed_ms, ..
            } => {
                let ok = task.right(iccs.as_deref(), info.score, ucci);
                let score = info.score.map(|s| s.pgn_text()).unwrap_or_default();
                (
                    format!("{} {score}", iccs.unwrap_or_default())
                        .trim()
                        .to_string(),
                    ok,
                    ok.then(|| solved_since.unwrap_or(elapsed_ms).min(elapsed_ms)),
                )
            }
            GoOutcome::NoMove { .. } => ("no move".into(), false, None),
            GoOutcome::Late { .. } | GoOutcome::NoAnswer => {
                ("no answer in time".into(), false, None)
            }
            GoOutcome::Crash => return Err(format!("{source}: the engine crashed")),
        };
        let r = CaseResult {
            source: format!("{source}:{}", l.line),
            id: l.op("id").unwrap_or("").to_string(),
            kind: if task.dm.is_some() {
                "dm"
            } else if !task.bm.is_empty() {
                "bm"
            } else {
                "am"
            }
            .into(),
            solved,
            expected: task.expected(),
            got,
            time_ms: time,
            depth: info.depth,
            explanation: None,
        };
        report(&r);
        out.push(r);
    }
    Ok(out)
}

/// Whether a file is a TSV verdict file (by extension or by its first
/// data line having tab-separated columns).
pub fn is_tsv(path: &str, text: &str) -> bool {
    if path.ends_with(".tsv") {
        return true;
    }
    text.lines()
        .find(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .is_some_and(|l| l.split('\t').count() >= 4)
}

/// The plain-text report.
pub fn summary(r: &SuiteReport) -> String {
    let mut s = String::new();
    let failures: Vec<&CaseResult> = r.results.iter().filter(|c| !c.solved).collect();
    if !failures.is_empty() {
        s.push_str("Failures:\n");
        for c in failures {
            s.push_str(&format!(
                "  {} {}: expected {}, got {}\n",
                c.source, c.id, c.expected, c.got
            ));
            if let Some(e) = &c.explanation {
                s.push_str(&format!("    {e}\n"));
            }
        }
    }
    let times: Vec<u64> = r.results.iter().filter_map(|c| c.time_ms).collect();
    s.push_str(&format!("Solved {}/{}", r.solved, r.total));
    if !times.is_empty() {
        s.push_str(&format!(
            ", average time to solution {:.0} ms",
            times.iter().sum::<u64>() as f64 / times.len() as f64
        ));
    }
    s.push('\n');
    s
}
