//! The engine's settings: their ranges, the four-step levels and the
//! choices a GUI's dialog offers.

use super::egtb::EgtbFiles;
use super::eval_files::{EvalNetwork, EvalWeights};
use super::strength::{Skill, FULL_SKILL};
use shuai_board::rules::RuleBook;
use shuai_egtb::Tablebase;
use shuai_eval::nnue::Network;
use shuai_search::{Params, Searcher};
use std::sync::Arc;
use std::time::Duration;

/// Default hash table size, MiB.
pub const DEFAULT_HASH_MB: usize = 16;
/// Largest hash table size accepted, MiB (further capped by available memory).
pub const MAX_HASH_MB: usize = 65_536;
/// Most search threads.
pub const MAX_THREADS: usize = 256;
/// Most principal variations.
pub const MAX_MULTIPV: usize = 128;
/// Default margin kept back from every clock for communication delays, ms.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 30;
/// Largest move overhead, ms.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5000;
/// Largest book depth, plies (0 means no limit).
pub const MAX_BOOK_DEPTH: u32 = 1000;
/// Smallest and largest natural-move limit, plies.
pub const NATURAL_LIMIT_RANGE: (u32, u32) = (2, 1000);
/// Default memory budget of the endgame tables' cached blocks (`EGTB
/// Cache`), MiB.
pub const DEFAULT_EGTB_CACHE_MB: usize = shuai_egtb::DEFAULT_CACHE_MB;
/// Smallest and largest `EGTB Cache`, MiB. 1 is allowed (a table block is
/// then read again whenever 16 others were read in between): a test can
/// make the cache drop blocks with a tiny directory.
pub const EGTB_CACHE_RANGE: (usize, usize) = (1, 65_536);

/// A four-step setting (`idle`, `pruning`, `knowledge` in UCCI).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// none
    None,
    /// small
    Small,
    /// medium
    Medium,
    /// large
    Large,
}

impl Level {
    /// The UCCI words, in order.
    pub const NAMES: [&'static str; 4] = ["none", "small", "medium", "large"];

    /// Parses a UCCI word (case-insensitive).
    pub fn parse(text: &str) -> Option<Level> {
        match text.to_ascii_lowercase().as_str() {
            "none" => Some(Level::None),
            "small" => Some(Level::Small),
            "medium" => Some(Level::Medium),
            "large" => Some(Level::Large),
            _ => None,
        }
    }

    /// The UCCI word.
    pub fn name(self) -> &'static str {
        Level::NAMES[self as usize]
    }
}

/// How much to vary the choice between nearly equal moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Randomness {
    /// Always the best move.
    None,
    /// Within 5 cp.
    Tiny,
    /// Within 10 cp.
    Small,
    /// Within 20 cp.
    Medium,
    /// Within 40 cp.
    Large,
    /// Within 80 cp.
    Huge,
}

impl Randomness {
    /// The UCCI words, in order.
    pub const NAMES: [&'static str; 6] = ["none", "tiny", "small", "medium", "large", "huge"];

    /// Parses a UCCI word (case-insensitive).
    pub fn parse(text: &str) -> Option<Randomness> {
        let i = Randomness::NAMES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(text))?;
        Some(
            [
                Randomness::None,
                Randomness::Tiny,
                Randomness::Small,
                Randomness::Medium,
                Randomness::Large,
                Randomness::Huge,
            ][i],
        )
    }

    /// The UCCI word.
    pub fn name(self) -> &'static str {
        Randomness::NAMES[self as usize]
    }

    /// Moves scoring within this many centipawns of the best may be chosen.
    pub fn margin(self) -> i32 {
        match self {
            Randomness::None => 0,
            Randomness::Tiny => 5,
            Randomness::Small => 10,
            Randomness::Medium => 20,
            Randomness::Large => 40,
            Randomness::Huge => 80,
        }
    }
}

/// Playing style (accepted and remembered; the search has no style knobs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// solid
    Solid,
    /// normal
    Normal,
    /// risky
    Risky,
}

impl Style {
    /// The UCCI words, in order.
    pub const NAMES: [&'static str; 3] = ["solid", "normal", "risky"];

    /// Parses a UCCI word (case-insensitive).
    pub fn parse(text: &str) -> Option<Style> {
        match text.to_ascii_lowercase().as_str() {
            "solid" => Some(Style::Solid),
            "normal" => Some(Style::Normal),
            "risky" => Some(Style::Risky),
            _ => None,
        }
    }

    /// The UCCI word.
    pub fn name(self) -> &'static str {
        Style::NAMES[self as usize]
    }
}

/// The engine's settings. Fields the search cannot honour (pruning,
/// knowledge, style, promotion) are remembered and reported back so
/// a GUI's dialog round-trips, but change nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Hash table size, MiB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Principal variations to report.
    pub multipv: usize,
    /// The GUI will let us ponder: spend a little more time per move.
    pub ponder: bool,
    /// Margin kept back from every clock.
    pub move_overhead: Duration,
    /// Natural-move limit, plies without capture until a draw.
    pub natural_limit: u32,
    /// Keep the hash table between moves (off: cleared before every search).
    pub use_hash: bool,
    /// Play from the opening books in `book_files` (`OwnBook`, `usebook`).
    pub use_book: bool,
    /// Book files, `;`-separated (ElephantEye `BOOK.DAT`, BHGUI `.obk`,
    /// Pengfei `.pfBook`; the first with a playable move is used).
    pub book_files: String,
    /// Play the heaviest book move instead of choosing by weight.
    pub book_best: bool,
    /// Use the books only this many plies into the game (0: no limit).
    pub book_depth: u32,
    /// How much CPU to leave free (limits the threads used).
    pub idle: Level,
    /// Pruning level (remembered only).
    pub pruning: Level,
    /// Evaluation knowledge level (remembered only).
    pub knowledge: Level,
    /// Randomise between nearly equal moves.
    pub randomness: Randomness,
    /// Style (remembered only).
    pub style: Style,
    /// Advisor/elephant promotion variant (not supported; remembered only).
    pub promotion: bool,
    /// Resign hopeless positions (reported in [`Outcome::resign`](super::Outcome::resign)).
    pub resign: bool,
    /// The evaluation weights: the built-in ones, or a table read from a
    /// file (the `WeightsFile` option).
    pub weights: EvalWeights,
    /// The NNUE network: the embedded one, or one read from a file (the
    /// `EvalFile` option).
    pub network: EvalNetwork,
    /// Evaluate with the network (`Use NNUE`); off: the hand-written
    /// evaluation with [`EngineOptions::weights`].
    pub use_nnue: bool,
    /// The repetition rules the search plays by (`Repetition Rules`).
    pub rule_book: RuleBook,
    /// `Skill Level`: 0 (weakest) to [`FULL_SKILL`] (full strength).
    pub skill_level: u8,
    /// `UCI_LimitStrength`: play at [`EngineOptions::elo`] instead of the
    /// skill level.
    pub limit_strength: bool,
    /// `UCI_Elo`: the strength to play at when limiting strength.
    pub elo: i32,
    /// The search's constants (changeable only in a `tune` build, where
    /// each is an option of its own name).
    pub params: Params,
    /// The endgame tables of `EGTB Path` (UCCI `egtbpaths`).
    pub egtb: EgtbFiles,
    /// Probe them (`Use EGTB`, UCCI `useegtb`).
    pub use_egtb: bool,
    /// The memory budget of the tables' cached blocks, MiB (`EGTB Cache`, UCCI
    /// `egtbcache`); see [`shuai_egtb::Tablebase`].
    pub egtb_cache_mb: usize,
}

impl EngineOptions {
    /// The network the search evaluates with: `None` when `use_nnue` is
    /// off.
    pub fn active_network(&self) -> Option<Arc<Network>> {
        self.use_nnue.then(|| Arc::clone(&self.network.network))
    }

    /// The endgame tables the search probes: `None` when `use_egtb` is
    /// off or no directory with tables is set.
    pub fn active_tablebase(&self) -> Option<Arc<Tablebase>> {
        self.egtb
            .tablebase
            .as_ref()
            .filter(|tb| self.use_egtb && !tb.is_empty())
            .cloned()
    }

    /// The weakened level these options ask for, if any: the Elo when
    /// limiting strength, else the skill level below full.
    pub fn skill(&self) -> Option<Skill> {
        if self.limit_strength {
            Some(Skill::from_elo(self.elo))
        } else {
            Skill::from_level(self.skill_level)
        }
    }

    /// A searcher set up with these options (hash table size, natural-move
    /// limit, evaluation).
    pub(super) fn searcher(&self) -> Searcher {
        let mut s = Searcher::new(self.hash_mb);
        s.set_natural_limit(self.natural_limit);
        s.set_rule_book(self.rule_book);
        s.set_params(self.params.clone());
        s.set_weights(Arc::clone(&self.weights.weights));
        s.set_network(self.active_network());
        s.set_tablebase(self.active_tablebase());
        s
    }
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            multipv: 1,
            ponder: false,
            move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
            natural_limit: shuai_search::DEFAULT_NATURAL_LIMIT,
            use_hash: true,
            use_book: false,
            book_files: String::new(),
            book_best: false,
            book_depth: 0,
            idle: Level::None,
            pruning: Level::Large,
            knowledge: Level::Large,
            randomness: Randomness::None,
            style: Style::Normal,
            promotion: false,
            resign: true,
            weights: EvalWeights::default(),
            network: EvalNetwork::default(),
            // The network: +115 ± 62 Elo over the hand-written evaluation
            // at 10s+0.1s and +107 ± 66 at 2s+0.05s, 100 games each
            // (tools/README.md, "How the networks were made").
            use_nnue: true,
            rule_book: RuleBook::Chinese,
            skill_level: FULL_SKILL,
            limit_strength: false,
            elo: Skill::elo_range().1,
            params: Params::default(),
            egtb: EgtbFiles::default(),
            use_egtb: true,
            egtb_cache_mb: DEFAULT_EGTB_CACHE_MB,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse() {
        assert_eq!(Level::parse("Medium"), Some(Level::Medium));
        assert_eq!(Randomness::parse("huge"), Some(Randomness::Huge));
        assert_eq!(Style::parse("x"), None);
        assert_eq!(Randomness::Small.name(), "small");
    }
}
