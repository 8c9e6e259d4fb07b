//! The search's own constants in one table: each with its value, the range
//! a tuner may move it in, and the step a tuner perturbs it by.
//!
//! The search reads them from a [`Params`] value that the [`Searcher`](crate::Searcher)
//! holds and hands to every thread, through a method of
//! the row's name (`params.futility_base()`). In a normal build `Params` is
//! empty and each method returns the constant, so the compiler folds it
//! like a literal. Built with the cargo feature `tune` (`cargo build
//! --release --features tune`), `Params` holds a value per row that
//! [`Params::set`] changes, and the engine offers every row as a UCI/UCCI
//! spin option, which is how `shuai-tools spsa` plays matches between
//! perturbed settings. Nothing is global: two searchers (or two tests) with
//! different settings do not see each other's.
//!
//! Fractions are stored in hundredths (`lmr_base` 80 means 0.80) so every
//! row is an integer with an integer step.

/// One tunable constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// Its name (also the option name in a `tune` build).
    pub name: &'static str,
    /// The value the search uses by default.
    pub default: i32,
    /// Smallest value a tuner may try.
    pub min: i32,
    /// Largest value a tuner may try.
    pub max: i32,
    /// The perturbation a tuner starts with (SPSA's `c`), in value units.
    pub step: i32,
    /// What it controls.
    pub doc: &'static str,
}

macro_rules! params {
    ($($name:ident = $value:literal, $min:literal..=$max:literal, step $step:literal: $doc:literal;)*) => {
        /// Every tunable constant of the search, in one place.
        pub const PARAMS: &[Param] = &[
            $(Param {
                name: stringify!($name),
                default: $value,
                min: $min,
                max: $max,
                step: $step,
                doc: $doc,
            },)*
        ];

        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[repr(usize)]
        enum Id {
            $($name,)*
        }

        /// The values the search uses: the defaults of [`PARAMS`], or in a
        /// `tune` build whatever [`Params::set`] made them.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Params {
            #[cfg(feature = "tune")]
            values: [i32; PARAMS.len()],
        }

        impl Default for Params {
            fn default() -> Params {
                Params {
                    #[cfg(feature = "tune")]
                    values: [$($value,)*],
                }
            }
        }

        impl Params {
            $(
                #[doc = $doc]
                #[inline(always)]
                pub fn $name(&self) -> i32 {
                    #[cfg(feature = "tune")]
                    {
                        self.values[Id::$name as usize]
                    }
                    #[cfg(not(feature = "tune"))]
                    {
                        let _ = Id::$name;
                        $value
                    }
                }
            )*
        }
    };
}

params! {
    asp_delta = 20, 5..=80, step 4: "Aspiration window: half-width at a score of 0";
    asp_score_div = 16, 4..=64, step 4: "Aspiration window: widened by |score| / this";
    asp_growth = 10, 0..=60, step 4: "Aspiration window: added to the half-width after each failure (besides half of it)";
    nmp_min_depth = 3, 2..=6, step 1: "Null move: smallest depth tried";
    nmp_base = 3, 1..=5, step 1: "Null move: reduction at small depths";
    nmp_depth_div = 3, 2..=10, step 1: "Null move: one more ply of reduction per this many plies of depth";
    nmp_eval_div = 200, 50..=600, step 20: "Null move: one more ply of reduction per this many centipawns the evaluation is above beta (at most three)";
    rfp_max_depth = 6, 1..=10, step 1: "Reverse futility pruning: largest depth pruned";
    rfp_margin = 90, 30..=250, step 10: "Reverse futility pruning: margin per ply of depth, centipawns";
    probcut_pull = 0, 0..=1, step 1: "ProbCut: the node returns the capture's score less the margin (1) instead of the score itself (0)";
    probcut_min_depth = 5, 3..=10, step 1: "ProbCut: smallest depth tried";
    probcut_margin = 200, 50..=500, step 20: "ProbCut: a capture must beat beta by this much, centipawns, at a depth four plies less";
    iir_depth = 4, 2..=10, step 1: "Internal iterative reduction: smallest depth reduced";
    se_min_depth = 6, 4..=10, step 1: "Singular extensions: smallest depth tried";
    se_margin = 32, 8..=96, step 4: "Singular extensions: the other moves must stay below the table score minus depth * this / 16 centipawns";
    se_double_margin = 20, 0..=100, step 4: "Singular extensions: two plies (off the principal variation) when the others stay this far below the singular bound, centipawns";
    se_negative = 1, 0..=3, step 1: "Singular extensions: plies taken off a hash move that is not singular when its table score is at least beta";
    se_cut_negative = 0, 0..=3, step 1: "Singular extensions: plies taken off a hash move that is not singular at an expected cut node whose table score is below beta (0: off)";
    se_multicut_beta = 0, 0..=1, step 1: "Singular extensions: the node is cut when the other moves' reduced search reaches beta (1), not only when the singular bound does (0)";
    check_extension = 1, 0..=2, step 1: "Extensions: a checking move searched one ply deeper, within twice the iteration's depth in plies: every check (1), only a check that does not lose material by SEE (2), none (0)";
    lmp_base = 3, 1..=10, step 1: "Late-move pruning: quiet moves allowed at depth d are (this + d*d), halved when not improving";
    lmp_max_depth = 6, 2..=10, step 1: "Late-move pruning: largest depth pruned";
    futility_base = 120, 20..=300, step 12: "Futility pruning of quiet moves: margin at depth 0, centipawns";
    futility_per_depth = 100, 30..=250, step 10: "Futility pruning: margin added per ply of depth";
    futility_max_depth = 6, 2..=10, step 1: "Futility pruning: largest depth pruned";
    futility_history_div = 0, 0..=20000, step 500: "Futility pruning of quiet moves: one ply added to the depth it judges per this much history score, fewer when negative (0: off)";
    history_prune_depth = 4, 1..=8, step 1: "History pruning of quiet moves: largest depth pruned";
    history_prune_margin = 3000, 500..=10000, step 300: "History pruning: a quiet move whose history is below -(this * depth) is skipped";
    see_prune_margin = 80, 10..=250, step 10: "Losing captures: skipped when SEE is below -(this * depth)";
    see_prune_max_depth = 6, 2..=10, step 1: "Losing captures: largest depth pruned";
    cap_futility_base = 0, 0..=600, step 20: "Futility pruning of captures: a capture (not checking) whose victim, this margin and cap_futility_per_depth per ply of its reduced depth leave the evaluation at or below alpha is skipped, centipawns (0: off)";
    cap_futility_per_depth = 150, 30..=400, step 15: "Futility pruning of captures: margin added per ply of the reduced depth";
    cap_futility_max_depth = 8, 1..=20, step 1: "Futility pruning of captures: largest reduced depth pruned";
    cap_futility_history_div = 160, 40..=1000, step 20: "Futility pruning of captures: the capture history divided by this is added to the margin (centipawns)";
    check_see_margin = 0, 0..=300, step 10: "SEE pruning of checks: at a depth up to see_prune_max_depth, a checking move (quiet or capture) that loses more than this times the depth by SEE is skipped, with the network only (0: off; checks are never pruned then)";
    quiet_see_max_depth = 0, 0..=10, step 1: "SEE pruning of quiet moves: largest depth pruned (0: off)";
    quiet_see_margin = 20, 5..=100, step 5: "SEE pruning of quiet moves: skipped when SEE is below -(this * depth * depth)";
    pv_prune = 0, 0..=1, step 1: "Shallow pruning of late, futile and losing moves in PV nodes too (1; never at the root)";
    prune_lmr_depth = 1, 0..=1, step 1: "Futility pruning of quiet moves judges the depth a move would be searched at after its reduction (1) instead of the node's (with the network only)";
    order_check_bonus = 0, 0..=30000, step 1000: "Quiet move ordering: added to the history score of a checking quiet move that SEE does not lose (0: off)";
    order_threat = 0, 0..=3000, step 100: "Quiet move ordering: hundredths of the piece's SEE value added for moving it off a point a less valuable enemy piece attacks, taken for moving onto one (0: off)";
    lmr_captures = 0, 0..=1, step 1: "Late-move reductions: 1 reduces late captures too (one ply less than quiet moves)";
    lmr_base = 120, 0..=200, step 10: "Late-move reductions: base of the table, hundredths of a ply";
    lmr_divisor = 220, 100..=450, step 15: "Late-move reductions: ln(depth) * ln(move number) / (this / 100)";
    lmr_cut_node = 1, 0..=3, step 1: "Late-move reductions: plies more at an expected cut node";
    lmr_tt_pv = 0, 0..=3, step 1: "Late-move reductions: plies less at a node that is or was on a principal variation (by the hash table), PV nodes included";
    lmr_not_tt_pv = 0, 0..=3, step 1: "Late-move reductions: plies more at a node that is not and was not on a principal variation";
    lmr_deeper = 0, 0..=200, step 10: "Late-move reductions: a reduced search that fails high by more than this over the node's best score is searched again a ply deeper (0: off)";
    lmr_shallower = 0, 0..=60, step 3: "Late-move reductions: a reduced search that fails high by less than this over the node's best score is searched again a ply shallower (0: off)";
    pv_alpha_reduction = 0, 0..=3, step 1: "PV nodes: plies taken off the remaining moves' depth each time a move raises alpha without a cutoff, at depths 4 to 10 (0: off)";
    quiet_malus_pct = 100, 50..=500, step 25: "History: the punishment of quiet moves tried before a cutoff, hundredths of the cutoff move's reward";
    lmr_history_div = 10000, 2000..=40000, step 1000: "Late-move reductions: one ply less per this much history score (more when negative)";
    nnue_endgame_scale = 0, 0..=1, step 1: "The network's evaluation scaled by the hand-written evaluation's endgame draw knowledge (1), e.g. a lone cannon without an advisor for a screen";
    natural_damp = 0, 0..=600, step 20: "Evaluation scaled by (this - plies since the last capture) / this, so that an advantage that makes no progress toward the natural-move limit is worth less (0: off)";
    qs_see_margin = 0, 0..=200, step 10: "Quiescence: captures that lose no more than this by SEE are searched (0: only those that lose nothing)";
    qs_evasion_history = 0, -16000..=16000, step 1000: "Quiescence in check: once a move has escaped mate, quiet evasions whose history score is below this are skipped";
    qs_evasion_see = 40, 0..=400, step 20: "Quiescence in check: once a move has escaped mate, evasions that lose more than this by SEE are skipped";
    qs_evasion_prune = 1, 0..=1, step 1: "Quiescence in check: quiet evasions ordered by history, and the pruning of qs_evasion_history and qs_evasion_see (1)";
    qs_futility_margin = 150, 30..=400, step 15: "Quiescence: captures that cannot lift the score within this of alpha are skipped";
    tm_moves_horizon = 20, 10..=60, step 3: "Time: the clock is shared over at most this many moves to come (plus 2)";
    tm_increment_share = 75, 30..=100, step 5: "Time: hundredths of the increment added to each move's budget";
    tm_hard_ratio = 400, 150..=800, step 30: "Time: hard limit as hundredths of the soft budget";
    tm_iteration_cutoff = 60, 30..=95, step 4: "Time: no new iteration past these hundredths of the soft budget";
    tm_instability = 50, 0..=150, step 8: "Time: hundredths of the budget added per recent change of best move";
    tm_score_drop_div = 150, 40..=500, step 20: "Time: a score drop of this many centipawns doubles the budget";
    tm_stable_iterations = 4, 2..=12, step 1: "Time: the best move counts as settled after this many iterations unchanged";
    tm_stable_scale = 100, 30..=100, step 5: "Time: hundredths of the budget kept once the best move is settled";
    tm_effort_share = 90, 60..=100, step 3: "Time: percent of the nodes under the best move that makes it an easy move";
    tm_effort_scale = 100, 30..=100, step 5: "Time: hundredths of the budget kept for an easy move";
}

/// Whether this build can change the constants at run time (the `tune`
/// feature).
pub const TUNABLE: bool = cfg!(feature = "tune");

/// The row named `name` (exact, or ignoring case, `_`, `-` and spaces).
pub fn find(name: &str) -> Option<&'static Param> {
    let squash = |s: &str| {
        s.chars()
            .filter(|c| !matches!(c, '_' | '-' | ' '))
            .map(|c| c.to_ascii_lowercase())
            .collect::<String>()
    };
    let wanted = squash(name);
    PARAMS.iter().find(|p| squash(p.name) == wanted)
}

impl Params {
    /// Sets the constant named `name` (see [`find`]) for the searches that
    /// use these values. Fails with a message when the name is unknown,
    /// the value is outside the row's range, or the build has no `tune`
    /// feature.
    pub fn set(&mut self, name: &str, value: i32) -> Result<(), String> {
        let p = find(name).ok_or_else(|| format!("unknown search parameter '{name}'"))?;
        if !(p.min..=p.max).contains(&value) {
            return Err(format!(
                "{} must be in {}..={}, got {value}",
                p.name, p.min, p.max
            ));
        }
        #[cfg(feature = "tune")]
        {
            self.values[index(p)] = value;
            Ok(())
        }
        #[cfg(not(feature = "tune"))]
        {
            Err(format!(
                "cannot set {}: this build has no `tune` feature",
                p.name
            ))
        }
    }

    /// The value of the row named `name` (see [`find`]).
    pub fn get(&self, name: &str) -> Option<i32> {
        let p = find(name)?;
        #[cfg(feature = "tune")]
        {
            Some(self.values[index(p)])
        }
        #[cfg(not(feature = "tune"))]
        {
            Some(p.default)
        }
    }
}

/// The position of `p` in [`PARAMS`].
#[cfg(feature = "tune")]
fn index(p: &Param) -> usize {
    PARAMS
        .iter()
        .position(|q| q.name == p.name)
        .expect("rows come from the table")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_is_consistent_and_readable() {
        let mut names = std::collections::HashSet::new();
        for p in PARAMS {
            assert!(names.insert(p.name), "{} twice", p.name);
            assert!(p.min <= p.default && p.default <= p.max, "{}", p.name);
            assert!(p.step > 0 && p.step <= p.max - p.min, "{}", p.name);
            assert_eq!(find(p.name), Some(p));
        }
        assert_eq!(find("Futility Base").map(|p| p.name), Some("futility_base"));
        let params = Params::default();
        assert_eq!(params.futility_base(), params.get("futility_base").unwrap());
        assert_eq!(params.lmr_divisor(), 220);
    }

    #[test]
    fn bad_settings_are_refused() {
        let mut params = Params::default();
        assert!(params.set("no_such", 1).unwrap_err().contains("unknown"));
        assert_eq!(
            params.set("lmp_base", 99).unwrap_err(),
            "lmp_base must be in 1..=10, got 99"
        );
        if TUNABLE {
            params.set("LMP Base", 4).unwrap();
            assert_eq!(params.lmp_base(), 4);
            assert_eq!(params.get("lmp_base"), Some(4));
            assert_eq!(Params::default().lmp_base(), 3, "other values untouched");
        } else {
            assert!(params
                .set("lmp_base", 4)
                .unwrap_err()
                .contains("no `tune` feature"));
            assert_eq!(params, Params::default());
        }
    }
}
