//! SPSA (simultaneous perturbation stochastic approximation) over the
//! search's parameter table, [`shuai_search::params::PARAMS`].
//!
//! Each iteration perturbs every tuned parameter at once by ±`c_k` (a
//! random sign per parameter), plays game pairs between the two perturbed
//! engines, and moves every parameter along its sign by the result: the
//! plus side's wins minus losses. The schedule is the one fishtest uses:
//! `c_k = c / k^γ` and `a_k = a / (A + k)^α`, with `c` chosen so that the
//! last perturbation is each row's `step`, and `a` so that the last update
//! is `r_end · step²` per point of result (`r_end` 0.002 by default).
//!
//! The whole state (the values as floats, the iteration, the seed and each
//! iteration's result) is a small JSON file written after every iteration,
//! so a run stopped at any point resumes where it was.

use crate::game::GameConfig;
use crate::openings::{self, EpdLine};
use crate::runner::{run_match, MatchConfig};
use crate::spec::EngineSpec;
use serde::{Deserialize, Serialize};
use shuai_board::Rng;
use shuai_search::params::{Param, PARAMS};
use std::path::{Path, PathBuf};

/// The settings of a run (kept in the state file so a resume cannot mix
/// two schedules).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Schedule {
    /// Iterations planned.
    pub iterations: u32,
    /// Game pairs per iteration.
    pub pairs: u32,
    /// Learning-rate exponent (0.602 in the literature).
    pub alpha: f64,
    /// Perturbation exponent (0.101).
    pub gamma: f64,
    /// Stability constant `A` (a tenth of the iterations by default).
    pub big_a: f64,
    /// The last update's size in units of `step²` per point of result.
    pub r_end: f64,
}

impl Schedule {
    /// The defaults for `iterations` iterations of `pairs` pairs.
    pub fn new(iterations: u32, pairs: u32) -> Schedule {
        Schedule {
            iterations: iterations.max(1),
            pairs: pairs.max(1),
            alpha: 0.602,
            gamma: 0.101,
            big_a: f64::from(iterations) / 10.0,
            r_end: 0.002,
        }
    }

    /// The perturbation of a parameter with `step` at iteration `k` (from 1).
    pub fn c_k(&self, step: f64, k: u32) -> f64 {
        let n = f64::from(self.iterations);
        step * n.powf(self.gamma) / f64::from(k).powf(self.gamma)
    }

    /// The gain of a parameter with `step` at iteration `k` (from 1).
    pub fn a_k(&self, step: f64, k: u32) -> f64 {
        let n = f64::from(self.iterations);
        let a = self.r_end * step * step * (self.big_a + n).powf(self.alpha);
        a / (self.big_a + f64::from(k)).powf(self.alpha)
    }
}

/// One tuned parameter's current value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tuned {
    /// Its name in the table.
    pub name: String,
    /// The current estimate (a float: updates are fractions of a unit).
    pub value: f64,
}

/// A run in progress: what the state file holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The schedule.
    pub schedule: Schedule,
    /// The seed of the signs and openings.
    pub seed: u64,
    /// Iterations done.
    pub done: u32,
    /// The parameters being tuned and their estimates.
    pub params: Vec<Tuned>,
    /// Each iteration's result (plus side's wins minus losses).
    pub results: Vec<i32>,
}

/// The two settings one iteration plays: `(name, plus value, minus value)`
/// rounded and clamped to each row's range.
pub type Perturbation = Vec<(String, i32, i32)>;

impl State {
    /// A new run over the rows named in `names` (all rows when empty).
    pub fn new(names: &[String], schedule: Schedule, seed: u64) -> Result<State, String> {
        let rows: Vec<&Param> = if names.is_empty() {
            PARAMS.iter().collect()
        } else {
            names
                .iter()
                .map(|n| {
                    shuai_search::params::find(n)
                        .ok_or_else(|| format!("unknown search parameter '{n}'"))
                })
                .collect::<Result<_, _>>()?
        };
        Ok(State {
            schedule,
            seed,
            done: 0,
            params: rows
                .iter()
                .map(|p| Tuned {
                    name: p.name.to_string(),
                    value: f64::from(p.default),
                })
                .collect(),
            results: Vec::new(),
        })
    }

    /// Whether every planned iteration is done.
    pub fn finished(&self) -> bool {
        self.done >= self.schedule.iterations
    }

    fn row(name: &str) -> &'static Param {
        shuai_search::params::find(name).expect("tuned rows come from the table")
    }

    /// The signs of the next iteration (+1 or −1 per parameter), drawn from
    /// the seed and the iteration number, so a resumed run draws the same.
    fn signs(&self) -> Vec<f64> {
        let k = u64::from(self.done + 1);
        let mut rng = Rng::new(self.seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        self.params
            .iter()
            .map(|_| if rng.below(2) == 0 { -1.0 } else { 1.0 })
            .collect()
    }

    /// The next iteration's two settings.
    pub fn perturbation(&self) -> Perturbation {
        let k = self.done + 1;
        self.params
            .iter()
            .zip(self.signs())
            .map(|(t, sign)| {
                let p = State::row(&t.name);
                let c = self.schedule.c_k(f64::from(p.step), k);
                let clamp = |v: f64| (v.round() as i32).clamp(p.min, p.max);
                (
                    t.name.clone(),
                    clamp(t.value + sign * c),
                    clamp(t.value - sign * c),
                )
            })
            .collect()
    }

    /// Records the next iteration's `result` (the plus side's wins minus
    /// losses over its pairs) and moves every estimate.
    pub fn update(&mut self, result: i32) {
        let k = self.done + 1;
        let signs = self.signs();
        for (t, sign) in self.params.iter_mut().zip(signs) {
            let p = State::row(&t.name);
            let step = f64::from(p.step);
            let (a, c) = (self.schedule.a_k(step, k), self.schedule.c_k(step, k));
            t.value = (t.value + a * f64::from(result) * sign / c)
                .clamp(f64::from(p.min), f64::from(p.max));
        }
        self.results.push(result);
        self.done = k;
    }

    /// The current values rounded, with their defaults: `(row, value)`.
    pub fn values(&self) -> Vec<(&'static Param, i32)> {
        self.params
            .iter()
            .map(|t| (State::row(&t.name), t.value.round() as i32))
            .collect()
    }

    /// The rows whose rounded value moved, as replacement lines for
    /// `search/src/params.rs` (`-` the table's line, `+` the tuned one).
    pub fn patch(&self) -> String {
        let mut out = String::new();
        for (p, v) in self.values() {
            if v != p.default {
                out.push_str(&format!(
                    "-    {}\n+    {}\n",
                    row_text(p, p.default),
                    row_text(p, v)
                ));
            }
        }
        out
    }
}

/// A row of the `params!` table as `search/src/params.rs` writes it, up to
/// its description.
fn row_text(p: &Param, value: i32) -> String {
    format!(
        "{} = {value}, {}..={}, step {}:",
        p.name, p.min, p.max, p.step
    )
}

/// Rewrites the rows of `source` (the text of `search/src/params.rs`) whose
/// tuned value moved; returns the new text and how many rows changed.
pub fn apply_to_table(source: &str, state: &State) -> Result<(String, usize), String> {
    let mut text = source.to_string();
    let mut changed = 0;
    for (p, v) in state.values() {
        if v == p.default {
            continue;
        }
        let old = row_text(p, p.default);
        if text.matches(&old).count() != 1 {
            return Err(format!("cannot find the row '{old}' once in the table"));
        }
        text = text.replace(&old, &row_text(p, v));
        changed += 1;
    }
    Ok((text, changed))
}

/// How `shuai-tools spsa` plays its iterations.
#[derive(Clone, Debug)]
pub struct SpsaConfig {
    /// The engine to tune (a build with the `tune` feature); its name is
    /// replaced by `plus` and `minus`.
    pub engine: EngineSpec,
    /// How each game is played and judged.
    pub game: GameConfig,
    /// The openings (each pair plays one twice, colours reversed).
    pub book: Vec<EpdLine>,
    /// Games played at the same time.
    pub concurrency: usize,
    /// The state file, written after every iteration.
    pub state_path: PathBuf,
}

/// Plays the remaining iterations of `state`, writing it to the state file
/// after each and printing a progress line with the current values.
pub fn run(cfg: &SpsaConfig, state: &mut State) -> Result<(), String> {
    while !state.finished() {
        let k = state.done + 1;
        let settings = state.perturbation();
        let side = |name: &str, pick: fn(&(String, i32, i32)) -> i32| {
            let mut e = cfg.engine.clone();
            e.name = name.to_string();
            e.options
                .extend(settings.iter().map(|s| (s.0.clone(), pick(s).to_string())));
            e
        };
        let seed = state.seed ^ u64::from(k).wrapping_mul(0xD1B5_4A32_D192_ED03);
        let match_cfg = MatchConfig {
            engines: [side("plus", |s| s.1), side("minus", |s| s.2)],
            game: cfg.game.clone(),
            openings: openings::shuffled(cfg.book.clone(), seed),
            book_name: "spsa".to_string(),
            games: 2 * state.schedule.pairs as usize,
            concurrency: cfg.concurrency,
            seed,
            sprt: None,
            pgn: None,
            debug_log: None,
            progress: false,
        };
        let report = run_match(&match_cfg)?;
        let result = report.wdl.w as i32 - report.wdl.l as i32;
        state.update(result);
        save(&cfg.state_path, state)?;
        let total: i32 = state.results.iter().sum();
        let values: Vec<String> = state
            .params
            .iter()
            .map(|t| format!("{}={:.1}", t.name, t.value))
            .collect();
        eprintln!(
            "spsa {k}/{}: result {result:+} (total {total:+}) | {}",
            state.schedule.iterations,
            values.join(" ")
        );
    }
    Ok(())
}

/// Reads a state file.
pub fn load(path: &Path) -> Result<State, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: not an SPSA state: {e}", path.display()))
}

/// Writes a state file (through a temporary file, so a stop while writing
/// keeps the previous state).
pub fn save(path: &Path, state: &State) -> Result<(), String> {
    let text = serde_json::to_string_pretty(state).map_err(|e| e.to_string())?;
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text + "\n")
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_ends_at_each_rows_step() {
        let s = Schedule::new(1000, 1);
        assert!((s.c_k(10.0, 1000) - 10.0).abs() < 1e-9);
        assert!(s.c_k(10.0, 1) > s.c_k(10.0, 500));
        let last = s.a_k(10.0, 1000);
        assert!((last - 0.002 * 100.0).abs() < 1e-9, "{last}");
    }

    /// On a noiseless objective that rewards moving `futility_base` up and
    /// `lmp_base` down, SPSA moves them that way, stays in range, and a
    /// state written and read back continues identically.
    #[test]
    fn climbs_a_simple_objective_and_resumes_identically() {
        let names = vec!["futility_base".to_string(), "lmp_base".to_string()];
        let mut state = State::new(&names, Schedule::new(200, 1), 7).unwrap();
        let play = |p: &Perturbation| {
            // The plus side wins when its futility_base is higher and its
            // lmp_base lower.
            let f = p[0].1 - p[0].2;
            let l = p[1].2 - p[1].1;
            (f.signum() + l.signum()).clamp(-2, 2)
        };
        for _ in 0..100 {
            let r = play(&state.perturbation());
            state.update(r);
        }
        let text = serde_json::to_string(&state).unwrap();
        let mut resumed: State = serde_json::from_str(&text).unwrap();
        for _ in 0..100 {
            let r = play(&state.perturbation());
            state.update(r);
            let r = play(&resumed.perturbation());
            resumed.update(r);
        }
        assert_eq!(state, resumed);
        assert!(state.finished());
        let values = state.values();
        assert!(values[0].1 > 120 && values[0].1 <= 300, "{values:?}");
        assert!(values[1].1 < 3 && values[1].1 >= 1, "{values:?}");
        let patch = state.patch();
        assert!(patch
            .starts_with("-    futility_base = 120, 20..=300, step 12:\n+    futility_base = "));
    }

    #[test]
    fn the_patch_applies_to_the_table() {
        let source = include_str!("../../search/src/params.rs");
        let mut state = State::new(&["asp_delta".to_string()], Schedule::new(10, 1), 1).unwrap();
        state.params[0].value = 23.4;
        let (text, changed) = apply_to_table(source, &state).unwrap();
        assert_eq!(changed, 1);
        assert!(text.contains("    asp_delta = 23, 5..=80, step 4: \"Aspiration"));
        assert_eq!(text.len(), source.len());
        assert!(State::new(&["nonsense".to_string()], Schedule::new(1, 1), 1).is_err());
    }
}
