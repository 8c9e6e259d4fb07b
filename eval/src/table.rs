//! The text form of [`Weights`]: one `name value` line per parameter.
//!
//! The tuner writes its result in this form and the engine can play with
//! such a file (its `EvalFile` option) without being rebuilt, so a tuned
//! table can be tested against the built-in one before it replaces
//! [`Weights::DEFAULT`].
//!
//! ```text
//! # any comment lines
//! material.rook.mg 1000
//! material.rook.eg 1050
//! pst.horse.c3.mg 12
//! ```
//!
//! Names are those of [`Weights::names`]. Parameters a file does not list
//! keep their default values, so a file may change only a few.

use crate::weights::{Weights, PARAM_COUNT};
use std::collections::HashMap;
use std::fmt;

/// Why a weights table could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableError {
    /// The 1-based line number.
    pub line: usize,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for TableError {}

/// The largest magnitude a table may give a parameter. The built-in
/// weights stay below 1,500; a value beyond this is a typing error or a
/// broken tuner run, and (summed over the board) could overflow the
/// evaluation or read like a mate score.
pub const MAX_WEIGHT: i32 = 10_000;

impl Weights {
    /// The weights as a table: the `header` as `#` comment lines, then one
    /// `name value` line per parameter in [`Weights::names`] order.
    pub fn to_table(&self, header: &str) -> String {
        let mut out = String::new();
        for l in header.lines() {
            out.push_str("# ");
            out.push_str(l);
            out.push('\n');
        }
        for (name, v) in Weights::names().iter().zip(self.to_vec()) {
            out.push_str(&format!("{name} {v}\n"));
        }
        out
    }

    /// Reads a table written by [`Weights::to_table`] (or by hand): blank
    /// lines and `#` comments are skipped, unlisted parameters keep their
    /// [`Weights::DEFAULT`] values. An unknown name, a value that is not an
    /// integer, a value beyond ±[`MAX_WEIGHT`] or a name given twice is an
    /// error.
    pub fn from_table(text: &str) -> Result<Weights, TableError> {
        let index: HashMap<String, usize> = Weights::names()
            .into_iter()
            .enumerate()
            .map(|(i, n)| (n, i))
            .collect();
        let mut params = Weights::DEFAULT.to_vec();
        let mut seen = vec![false; PARAM_COUNT];
        for (n, line) in text.lines().enumerate() {
            let err = |reason: String| TableError {
                line: n + 1,
                reason,
            };
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let mut words = t.split_whitespace();
            let (Some(name), Some(value), None) = (words.next(), words.next(), words.next()) else {
                return Err(err("expected `name value`".to_string()));
            };
            let &i = index
                .get(name)
                .ok_or_else(|| err(format!("unknown parameter {name}")))?;
            if std::mem::replace(&mut seen[i], true) {
                return Err(err(format!("{name} given twice")));
            }
            let v: i32 = value
                .parse()
                .map_err(|_| err(format!("bad value {value:?} for {name}")))?;
            if v.abs() > MAX_WEIGHT {
                return Err(err(format!(
                    "value {v} for {name} is outside -{MAX_WEIGHT}..={MAX_WEIGHT}"
                )));
            }
            params[i] = v;
        }
        Ok(Weights::from_vec(&params).expect("a full parameter vector"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_with_the_header_as_comments() {
        let mut params = Weights::DEFAULT.to_vec();
        params[4] += 7;
        params[PARAM_COUNT - 1] -= 3;
        let w = Weights::from_vec(&params).unwrap();
        let text = w.to_table("header\nline two");
        assert!(text.starts_with("# header\n# line two\nmaterial.king.mg "));
        assert_eq!(text.lines().count(), 2 + PARAM_COUNT);
        assert_eq!(Weights::from_table(&text), Ok(w));
    }

    #[test]
    fn unlisted_parameters_keep_their_defaults() {
        let w = Weights::from_table("# only one\n\n  tempo.mg   33  \n").unwrap();
        assert_eq!(w.tempo.mg, 33);
        assert_eq!(w.tempo.eg, Weights::DEFAULT.tempo.eg);
        assert_eq!(w.material, Weights::DEFAULT.material);
    }

    #[test]
    fn bad_lines_are_reported_with_their_number() {
        let cases = [
            ("tempo.mg\n", 1, "expected `name value`"),
            ("tempo.mg 1 2\n", 1, "expected `name value`"),
            ("\nnonsense.mg 5\n", 2, "unknown parameter nonsense.mg"),
            ("tempo.mg x\n", 1, "bad value \"x\" for tempo.mg"),
            ("tempo.mg 1\ntempo.mg 2\n", 2, "tempo.mg given twice"),
            (
                "material.rook.mg 1000000\n",
                1,
                "value 1000000 for material.rook.mg is outside -10000..=10000",
            ),
            (
                "tempo.eg -10001\n",
                1,
                "value -10001 for tempo.eg is outside -10000..=10000",
            ),
        ];
        for (text, line, reason) in cases {
            let e = Weights::from_table(text).unwrap_err();
            assert_eq!((e.line, e.reason.as_str()), (line, reason), "{text:?}");
        }
    }
}
