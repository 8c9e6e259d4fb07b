//! `shuai-tools analysis`: hours of `go infinite`, as a user leaves an
//! analysis running. Each sample (every minute by default) records the
//! engine's resident memory (`VmRSS` in `/proc/PID/status`), the `info`
//! lines since the last sample and the longest silence between two of
//! them, and checks that `isready` is answered at once; at the end `stop`
//! is sent and its delay to `bestmove` measured.

use crate::engine::{BestMove, Engine, Received, SearchInfo};
use crate::spec::EngineSpec;
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// What to run.
#[derive(Clone, Debug)]
pub struct AnalysisConfig {
    /// The engine (its options are sent first; `Threads` and `Hash` below
    /// after them).
    pub engine: EngineSpec,
    /// `Threads`.
    pub threads: u32,
    /// `Hash`, MB.
    pub hash_mb: u32,
    /// How long to analyse.
    pub duration: Duration,
    /// Time between samples.
    pub every: Duration,
    /// The `position` command (default: the start position).
    pub position: String,
    /// Each sample is appended here as a JSON line, if given.
    pub log: Option<PathBuf>,
    /// `readyok` must come within this.
    pub isready_limit: Duration,
    /// Longest wait for `bestmove` after the final `stop`.
    pub stop_limit: Duration,
}

/// One sample.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Sample {
    /// Seconds since `go infinite`.
    pub secs: f64,
    /// Resident memory, kB (`None` where `/proc` cannot be read).
    pub rss_kb: Option<u64>,
    /// `info` lines since the last sample.
    pub info_lines: u64,
    /// The longest time without an `info` line since the last sample, ms
    /// (counted up to the sample).
    pub max_silence_ms: u64,
    /// Depth of the last scored line.
    pub depth: Option<u32>,
    /// Nodes reported last.
    pub nodes: Option<u64>,
    /// Delay of `readyok`, ms (`None`: not within the limit).
    pub isready_ms: Option<u64>,
}

/// The result of a long analysis.
#[derive(Clone, Debug, Default, Serialize)]
pub struct AnalysisReport {
    /// The samples, in order.
    pub samples: Vec<Sample>,
    /// Delay of `bestmove` after the final `stop`, ms (`None`: none came
    /// within the limit).
    pub stop_ms: Option<u64>,
    /// The longest silence of the `info` stream over the whole run, ms.
    pub max_silence_ms: u64,
    /// What went wrong, if anything (a crash, a missing answer).
    pub failures: Vec<String>,
}

impl AnalysisReport {
    /// The memory curve and the checks in plain words.
    pub fn summary(&self) -> String {
        let mut s = String::from("minute  rss_MB  info_lines  max_silence_s  depth  isready_ms\n");
        for x in &self.samples {
            s.push_str(&format!(
                "{:6.1}  {:>6}  {:>10}  {:>13.1}  {:>5}  {:>10}\n",
                x.secs / 60.0,
                x.rss_kb
                    .map_or("?".into(), |k| format!("{:.1}", k as f64 / 1024.0)),
                x.info_lines,
                x.max_silence_ms as f64 / 1000.0,
                x.depth.map_or("-".into(), |d| d.to_string()),
                x.isready_ms.map_or("none".into(), |d| d.to_string()),
            ));
        }
        let rss: Vec<u64> = self.samples.iter().filter_map(|x| x.rss_kb).collect();
        if let (Some(first), Some(last), Some(max)) = (rss.first(), rss.last(), rss.iter().max()) {
            s.push_str(&format!(
                "resident memory: first sample {:.1} MB, last {:.1} MB, peak {:.1} MB\n",
                *first as f64 / 1024.0,
                *last as f64 / 1024.0,
                *max as f64 / 1024.0
            ));
        }
        s.push_str(&format!(
            "longest info silence {:.1} s; stop answered {}\n",
            self.max_silence_ms as f64 / 1000.0,
            self.stop_ms
                .map_or("never (within the limit)".into(), |m| format!("in {m} ms"))
        ));
        if self.failures.is_empty() {
            s.push_str("failures: none\n");
        } else {
            for f in &self.failures {
                s.push_str(&format!("failure: {f}\n"));
            }
        }
        s
    }
}

/// The `VmRSS` line of a `/proc/PID/status` text, in kB.
pub fn parse_vmrss(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The resident memory of process `pid`, kB (Linux; `None` elsewhere).
pub fn rss_kb(pid: u32) -> Option<u64> {
    parse_vmrss(&std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?)
}

fn ms(d: Duration) -> u64 {
    d.as_millis() as u64
}

/// Runs the analysis; `on_sample` sees each sample as it is taken (the
/// command prints it). Errors only when the engine cannot be started or
/// the log written; the engine's failures are in the report.
pub fn run_analysis(
    cfg: &AnalysisConfig,
    on_sample: &mut dyn FnMut(&Sample),
) -> Result<AnalysisReport, String> {
    let mut spec = cfg.engine.clone();
    spec.options
        .push(("Threads".into(), cfg.threads.to_string()));
    spec.options.push(("Hash".into(), cfg.hash_mb.to_string()));
    let mut engine = Engine::start(&spec, None, &spec.name)?;
    let mut log = match &cfg.log {
        Some(p) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| format!("cannot open {}: {e}", p.display()))?,
        ),
        None => None,
    };
    let mut report = AnalysisReport::default();
    let sent = engine
        .send(&cfg.position)
        .and_then(|_| engine.send("go infinite"));
    if let Err(e) = sent {
        report.failures.push(e);
        return Ok(report);
    }
    let start = Instant::now();
    let end = start + cfg.duration;
    let proto = engine.spec.proto;
    let mut info = SearchInfo::default();
    let mut last_info = start;
    let mut sample = Sample::default();
    let mut next = start + cfg.every;
    'run: while Instant::now() < end {
        let wake = next.min(end);
        // Until the sample is due, even while lines keep coming.
        while Instant::now() < wake {
            match engine.read(wake.saturating_duration_since(Instant::now())) {
                Received::Line(t, l) => {
                    if l.starts_with("info") {
                        info.update(proto, &l);
                        sample.info_lines += 1;
                        sample.max_silence_ms = sample
                            .max_silence_ms
                            .max(ms(t.saturating_duration_since(last_info)));
                        last_info = t;
                    } else if BestMove::parse(proto, &l).is_some() {
                        report.failures.push(format!(
                            "'{l}' during go infinite, after {:.0} s",
                            start.elapsed().as_secs_f64()
                        ));
                        break 'run;
                    }
                }
                Received::Timeout => break,
                Received::Ended => {
                    report.failures.push(format!(
                        "the engine's process ended after {:.0} s; last lines:\n{}",
                        start.elapsed().as_secs_f64(),
                        engine.recent_lines().join("\n")
                    ));
                    break 'run;
                }
            }
        }
        let now = Instant::now();
        sample.max_silence_ms = sample.max_silence_ms.max(ms(now - last_info));
        sample.secs = (now - start).as_secs_f64();
        sample.rss_kb = rss_kb(engine.pid());
        sample.depth = info.depth;
        sample.nodes = info.nodes;
        sample.isready_ms = timed_isready(&mut engine, cfg.isready_limit, &mut info);
        if sample.isready_ms.is_none() {
            report.failures.push(format!(
                "isready not answered within {} ms after {:.0} s",
                ms(cfg.isready_limit),
                sample.secs
            ));
        }
        report.max_silence_ms = report.max_silence_ms.max(sample.max_silence_ms);
        if let Some(f) = log.as_mut() {
            let line = serde_json::to_string(&sample).map_err(|e| e.to_string())?;
            writeln!(f, "{line}").map_err(|e| format!("cannot write the log: {e}"))?;
        }
        on_sample(&sample);
        report.samples.push(std::mem::take(&mut sample));
        next += cfg.every;
    }
    if !engine.is_dead() {
        report.stop_ms = timed_stop(&mut engine, cfg.stop_limit);
        if report.stop_ms.is_none() {
            report.failures.push(format!(
                "stop not answered within {} ms",
                ms(cfg.stop_limit)
            ));
        }
    }
    engine.quit();
    Ok(report)
}

/// `isready` during the search: the delay of `readyok`, `info` lines on
/// the way merged into `info`.
fn timed_isready(engine: &mut Engine, limit: Duration, info: &mut SearchInfo) -> Option<u64> {
    engine.send("isready").ok()?;
    let sent = Instant::now();
    let proto = engine.spec.proto;
    loop {
        match engine.read(limit.saturating_sub(sent.elapsed())) {
            Received::Line(t, l) if l.trim() == "readyok" => {
                return Some(ms(t.saturating_duration_since(sent)))
            }
            Received::Line(_, l) => {
                if l.starts_with("info") {
                    info.update(proto, &l);
                }
            }
            Received::Timeout | Received::Ended => return None,
        }
    }
}

/// `stop` and the delay of `bestmove`.
fn timed_stop(engine: &mut Engine, limit: Duration) -> Option<u64> {
    engine.send("stop").ok()?;
    let sent = Instant::now();
    let proto = engine.spec.proto;
    loop {
        match engine.read(limit.saturating_sub(sent.elapsed())) {
            Received::Line(t, l) if BestMove::parse(proto, &l).is_some() => {
                return Some(ms(t.saturating_duration_since(sent)))
            }
            Received::Line(..) => {}
            Received::Timeout | Received::Ended => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_vmrss() {
        let status = "Name:\tshuai\nVmPeak:\t  2000 kB\nVmRSS:\t   12345 kB\nThreads:\t3\n";
        assert_eq!(parse_vmrss(status), Some(12345));
        assert_eq!(parse_vmrss("Name: x\n"), None);
        // This process has a resident set on Linux.
        if cfg!(target_os = "linux") {
            assert!(rss_kb(std::process::id()).is_some_and(|k| k > 0));
        }
    }
}
