//! The options each protocol announces, and `setoption` in both syntaxes.
//!
//! Names are matched case-insensitively with spaces, `_` and `-` ignored,
//! so `Hash`, `hashsize`, `Natural Move Limit` and `naturalmovelimit` all
//! work in either protocol. Legacy names (ElephantEye's and Pikafish's
//! old options) are accepted silently and change nothing.

use super::format::Dialect;
use crate::engine::{
    max_hash_mb, EngineOptions, EvalNetwork, EvalWeights, Level, Randomness, Skill, Style,
    DEFAULT_HASH_MB, FULL_SKILL, MAX_BOOK_DEPTH, MAX_HASH_MB, MAX_MOVE_OVERHEAD_MS, MAX_MULTIPV,
    MAX_THREADS, NATURAL_LIMIT_RANGE,
};
use shuai_board::rules::RuleBook;
use std::time::Duration;

/// The rule books' option values, the default first.
const RULE_BOOKS: [&str; 2] = ["chinese", "asian"];

/// Settings that belong to the protocol front-end, not the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrontSettings {
    /// UCCI `go` times are milliseconds (else seconds).
    pub usemillisec: bool,
    /// UCCI batch mode: lines read during a search wait until it ends.
    pub batch: bool,
    /// Echo received lines and say more.
    pub debug: bool,
    /// UCI `UCI_ShowWDL`: `info` lines carry `wdl W D L`.
    pub show_wdl: bool,
    /// UCI ranks 1–10 (set by `UCI_Variant xiangqi`).
    pub one_based: bool,
}

impl Default for FrontSettings {
    fn default() -> FrontSettings {
        FrontSettings {
            usemillisec: true,
            batch: false,
            debug: false,
            show_wdl: false,
            one_based: false,
        }
    }
}

/// Every option the engine understands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// Table size in MiB (`Hash`, `hashsize`).
    Hash,
    /// Search threads.
    Threads,
    /// Principal variations.
    MultiPv,
    /// Pondering allowed (time allocation only).
    Ponder,
    /// Time kept back per move, ms.
    MoveOverhead,
    /// Clear the table (`Clear Hash`, `newgame`).
    NewGame,
    /// Natural-move limit, plies.
    NaturalLimit,
    /// UCCI time unit.
    UseMillisec,
    /// UCCI batch mode.
    Batch,
    /// Debug output.
    Debug,
    /// Own opening book.
    UseBook,
    /// Book files.
    BookFiles,
    /// Play the heaviest book move (`Best Book Move`, UCCI `bestbookmove`).
    BookBest,
    /// Plies into the game the books are used (`Book Depth`, `bookdepth`).
    BookDepth,
    /// CPU to leave free.
    Idle,
    /// Pruning level.
    Pruning,
    /// Evaluation knowledge level.
    Knowledge,
    /// Move randomness.
    Randomness,
    /// Playing style.
    Style,
    /// Promotion variant.
    Promotion,
    /// Keep the table between moves.
    UseHash,
    /// Resign hopeless games (UCCI).
    Resign,
    /// `UCI_Variant`.
    Variant,
    /// A weights table for the evaluation.
    WeightsFile,
    /// A network file for the NNUE evaluation.
    EvalFile,
    /// Evaluate with the network.
    UseNnue,
    /// The repetition rule book (`Repetition Rules`, UCCI `rules`).
    Rules,
    /// Win/draw/loss chances in `info` lines (`UCI_ShowWDL`).
    ShowWdl,
    /// `Skill Level` (UCCI `skill`): 0–20, 20 full strength.
    SkillLevel,
    /// `UCI_LimitStrength` (UCCI `limitstrength`): play at `UCI_Elo`.
    LimitStrength,
    /// `UCI_Elo` (UCCI `elo`).
    Elo,
    /// A legacy option: accepted, ignored.
    Legacy,
}

/// Names of legacy options accepted silently (normalised form).
const LEGACY: &[&str] = &[
    // ElephantEye / UCCI 1.x–3.0
    "useegtb",
    "egtbpaths",
    "evalapi",
    "repetition",
    "drawmoves",
    "selectivity",
    "loadbook",
    "nullmove",
    // Pikafish, current and historic
    "debuglogfile",
    "numapolicy",
    "nodestime",
    "ucishowwdl",
    "slowmover",
    "sixtymoverule",
    "rule60",
    "strict3fold",
    "matethreatdepth",
    "repetitionfold",
    "repetitionrule",
    "uciwdlcentipawn",
    "ucianalysemode",
    "ucichess960",
    "minimumthinkingtime",
    "contempt",
    "analysiscontempt",
    "variantpath",
    "uciopponent",
];

/// Lower case without spaces, `_` and `-`.
pub fn normalise(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-' | '\t'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The option a name refers to.
pub fn lookup(name: &str) -> Option<Key> {
    let n = normalise(name);
    let key = match n.as_str() {
        "hash" | "hashsize" => Key::Hash,
        "threads" => Key::Threads,
        "multipv" => Key::MultiPv,
        "ponder" => Key::Ponder,
        "moveoverhead" => Key::MoveOverhead,
        "clearhash" | "newgame" => Key::NewGame,
        "naturalmovelimit" | "naturallimit" => Key::NaturalLimit,
        "usemillisec" => Key::UseMillisec,
        "batch" => Key::Batch,
        "debug" => Key::Debug,
        "usebook" | "ownbook" => Key::UseBook,
        "bookfiles" | "bookfile" => Key::BookFiles,
        "bestbookmove" | "bookbest" => Key::BookBest,
        "bookdepth" => Key::BookDepth,
        "idle" => Key::Idle,
        "pruning" => Key::Pruning,
        "knowledge" => Key::Knowledge,
        "randomness" => Key::Randomness,
        "style" => Key::Style,
        "promotion" => Key::Promotion,
        "usehash" => Key::UseHash,
        "resign" => Key::Resign,
        "ucivariant" => Key::Variant,
        "weightsfile" => Key::WeightsFile,
        "evalfile" => Key::EvalFile,
        "usennue" => Key::UseNnue,
        "repetitionrules" | "rules" | "rulebook" => Key::Rules,
        "ucishowwdl" | "showwdl" => Key::ShowWdl,
        "skilllevel" | "skill" | "level" => Key::SkillLevel,
        "ucilimitstrength" | "limitstrength" => Key::LimitStrength,
        "ucielo" | "elo" => Key::Elo,
        other if LEGACY.contains(&other) => Key::Legacy,
        _ => return None,
    };
    Some(key)
}

fn combo(names: &[&str]) -> String {
    names
        .iter()
        .map(|v| format!("var {v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn onoff(b: bool) -> &'static str {
    if b {
        "true"
    } else {
        "false"
    }
}

/// The option lines of the handshake (before `uciok` / `ucciok`), with
/// the engine's initial values as defaults.
pub fn announce(dialect: Dialect) -> Vec<String> {
    let d = EngineOptions::default();
    let f = FrontSettings::default();
    let overhead = d.move_overhead.as_millis();
    let (nmin, nmax) = NATURAL_LIMIT_RANGE;
    let levels = combo(&Level::NAMES);
    let (elo_min, elo_max) = Skill::elo_range();
    match dialect {
        Dialect::Ucci => vec![
            format!("option usemillisec type check default {}", onoff(f.usemillisec)),
            format!("option batch type check default {}", onoff(f.batch)),
            format!("option debug type check default {}", onoff(f.debug)),
            format!("option ponder type check default {}", onoff(d.ponder)),
            format!("option usehash type check default {}", onoff(d.use_hash)),
            format!("option usebook type check default {}", onoff(d.use_book)),
            "option bookfiles type string default <empty>".to_string(),
            format!(
                "option bestbookmove type check default {}",
                onoff(d.book_best)
            ),
            format!(
                "option bookdepth type spin min 0 max {MAX_BOOK_DEPTH} default {}",
                d.book_depth
            ),
            "option weightsfile type string default <empty>".to_string(),
            "option evalfile type string default <empty>".to_string(),
            format!("option usennue type check default {}", onoff(d.use_nnue)),
            format!(
                "option rules type combo {} default {}",
                combo(&RULE_BOOKS),
                d.rule_book
            ),
            format!(
                "option hashsize type spin min 0 max {MAX_HASH_MB} default {}",
                d.hash_mb
            ),
            format!(
                "option threads type spin min 0 max {MAX_THREADS} default {}",
                d.threads
            ),
            format!(
                "option multipv type spin min 1 max {MAX_MULTIPV} default {}",
                d.multipv
            ),
            format!(
                "option moveoverhead type spin min 0 max {MAX_MOVE_OVERHEAD_MS} default {overhead}"
            ),
            format!(
                "option naturalmovelimit type spin min {nmin} max {nmax} default {}",
                d.natural_limit
            ),
            format!("option idle type combo {levels} default {}", d.idle.name()),
            format!(
                "option pruning type combo {levels} default {}",
                d.pruning.name()
            ),
            format!(
                "option knowledge type combo {levels} default {}",
                d.knowledge.name()
            ),
            format!(
                "option randomness type combo {} default {}",
                combo(&Randomness::NAMES),
                d.randomness.name()
            ),
            format!(
                "option style type combo {} default {}",
                combo(&Style::NAMES),
                d.style.name()
            ),
            format!("option promotion type check default {}", onoff(d.promotion)),
            format!("option resign type check default {}", onoff(d.resign)),
            format!(
                "option skill type spin min 0 max {FULL_SKILL} default {}",
                d.skill_level
            ),
            format!(
                "option limitstrength type check default {}",
                onoff(d.limit_strength)
            ),
            format!(
                "option elo type spin min {elo_min} max {elo_max} default {}",
                d.elo
            ),
            "option newgame type button".to_string(),
        ],
        Dialect::Uci => vec![
            format!(
                "option name Threads type spin default {} min 1 max {MAX_THREADS}",
                d.threads
            ),
            format!(
                "option name Hash type spin default {} min 1 max {MAX_HASH_MB}",
                d.hash_mb
            ),
            "option name Clear Hash type button".to_string(),
            format!("option name Ponder type check default {}", onoff(d.ponder)),
            format!(
                "option name MultiPV type spin default {} min 1 max {MAX_MULTIPV}",
                d.multipv
            ),
            format!(
                "option name Move Overhead type spin default {overhead} min 0 max {MAX_MOVE_OVERHEAD_MS}"
            ),
            format!(
                "option name Natural Move Limit type spin default {} min {nmin} max {nmax}",
                d.natural_limit
            ),
            format!("option name OwnBook type check default {}", onoff(d.use_book)),
            "option name Book File type string default <empty>".to_string(),
            format!(
                "option name Best Book Move type check default {}",
                onoff(d.book_best)
            ),
            format!(
                "option name Book Depth type spin default {} min 0 max {MAX_BOOK_DEPTH}",
                d.book_depth
            ),
            "option name WeightsFile type string default <empty>".to_string(),
            "option name EvalFile type string default <empty>".to_string(),
            format!("option name Use NNUE type check default {}", onoff(d.use_nnue)),
            format!(
                "option name Repetition Rules type combo default {} {}",
                d.rule_book,
                combo(&RULE_BOOKS)
            ),
            format!("option name Idle type combo default {} {levels}", d.idle.name()),
            format!(
                "option name Pruning type combo default {} {levels}",
                d.pruning.name()
            ),
            format!(
                "option name Knowledge type combo default {} {levels}",
                d.knowledge.name()
            ),
            format!(
                "option name Randomness type combo default {} {}",
                d.randomness.name(),
                combo(&Randomness::NAMES)
            ),
            format!(
                "option name Style type combo default {} {}",
                d.style.name(),
                combo(&Style::NAMES)
            ),
            format!(
                "option name Skill Level type spin default {} min 0 max {FULL_SKILL}",
                d.skill_level
            ),
            format!(
                "option name UCI_LimitStrength type check default {}",
                onoff(d.limit_strength)
            ),
            format!(
                "option name UCI_Elo type spin default {} min {elo_min} max {elo_max}",
                d.elo
            ),
            format!("option name UCI_ShowWDL type check default {}", onoff(f.show_wdl)),
            "option name UCI_Variant type combo default xiangqi var xiangqi".to_string(),
        ],
    }
    .into_iter()
    .chain(tuning_options(dialect))
    .collect()
}

/// In a build with the `tune` feature, every search constant of
/// [`shuai_search::params`] as a spin option (none otherwise).
fn tuning_options(dialect: Dialect) -> Vec<String> {
    if !shuai_search::params::TUNABLE {
        return Vec::new();
    }
    shuai_search::params::PARAMS
        .iter()
        .map(|p| match dialect {
            Dialect::Ucci => format!(
                "option {} type spin min {} max {} default {}",
                p.name, p.min, p.max, p.default
            ),
            Dialect::Uci => format!(
                "option name {} type spin default {} min {} max {}",
                p.name, p.default, p.min, p.max
            ),
        })
        .collect()
}

/// The text after the first `n` whitespace-separated words of `line`,
/// trimmed (keeps the inner spacing of values such as paths).
pub fn rest_after(line: &str, n: usize) -> &str {
    let mut rest = line.trim_start();
    for _ in 0..n {
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        rest = rest[end..].trim_start();
    }
    rest.trim_end()
}

/// Splits the text after `setoption` into name and value. UCI form:
/// `name <words> [value <text>]`; UCCI form: `<name> [<text>]`.
pub fn split_setoption(args: &str) -> (String, Option<String>) {
    let words: Vec<&str> = args.split_whitespace().collect();
    let value_of = |text: &str| {
        let t = text.trim();
        (!t.is_empty()).then(|| t.to_string())
    };
    if words
        .first()
        .is_some_and(|w| w.eq_ignore_ascii_case("name"))
    {
        match words.iter().position(|w| w.eq_ignore_ascii_case("value")) {
            Some(v) => (words[1..v].join(" "), value_of(rest_after(args, v + 1))),
            None => (words[1..].join(" "), None),
        }
    } else {
        match words.first() {
            Some(name) => (name.to_string(), value_of(rest_after(args, 1))),
            None => (String::new(), None),
        }
    }
}

/// What the front-end must do after an option was set.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Applied {
    /// Clear the table and game history now.
    pub new_game: bool,
    /// Lines to show the user (one per problem).
    pub messages: Vec<String>,
}

fn parse_bool(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "on" | "yes" | "1" => Some(true),
        "false" | "off" | "no" | "0" => Some(false),
        _ => None,
    }
}

fn parse_int(v: &str) -> Option<i64> {
    v.parse::<i64>().ok().or_else(|| {
        v.parse::<f64>()
            .ok()
            .filter(|f| f.is_finite())
            .map(|f| f as i64)
    })
}

/// Sets option `name` to `value` in `opts` (engine) or `front` (protocol).
/// Unknown names: silently ignored in UCCI (XQWizard sends options it never
/// read), one message in UCI. Bad values keep the old value and say so.
pub fn apply(
    name: &str,
    value: Option<&str>,
    opts: &mut EngineOptions,
    front: &mut FrontSettings,
    dialect: Dialect,
) -> Applied {
    let mut out = Applied::default();
    let Some(key) = lookup(name) else {
        if shuai_search::params::TUNABLE && shuai_search::params::find(name).is_some() {
            let text = value.unwrap_or("").trim();
            let set = parse_int(text)
                .and_then(|v| i32::try_from(v).ok())
                .ok_or_else(|| format!("setoption {name}: expected an integer, got '{text}'"))
                .and_then(|v| shuai_search::params::set(name, v));
            if let Err(e) = set {
                out.messages.push(format!("{e}; value unchanged"));
            }
            return out;
        }
        if name.is_empty() {
            out.messages
                .push("setoption needs an option name".to_string());
        } else if dialect == Dialect::Uci {
            out.messages
                .push(format!("unknown option '{name}'; ignored"));
        } else {
            log::info!("setoption {name}: unknown option, ignored");
        }
        return out;
    };
    let text = value.unwrap_or("").trim();
    macro_rules! bad {
        ($what:expr) => {
            out.messages.push(format!(
                "setoption {name}: {}, got '{text}'; value unchanged",
                $what
            ))
        };
    }
    macro_rules! check {
        ($target:expr) => {
            match parse_bool(text) {
                Some(b) => $target = b,
                None => bad!("needs true/false (or on/off)"),
            }
        };
    }
    macro_rules! spin {
        ($lo:expr, $hi:expr, $set:expr) => {
            match parse_int(text) {
                Some(n) => {
                    let (lo, hi) = ($lo as i64, $hi as i64);
                    let c = n.clamp(lo, hi);
                    if c != n {
                        out.messages.push(format!(
                            "setoption {name}: {n} is outside {lo}..{hi}; using {c}"
                        ));
                    }
                    #[allow(clippy::redundant_closure_call)]
                    ($set)(c);
                }
                None => bad!("needs a whole number"),
            }
        };
    }
    macro_rules! choice {
        ($parse:expr, $target:expr, $names:expr) => {
            match $parse(text) {
                Some(v) => $target = v,
                None => bad!(format!("needs one of {}", $names.join("/"))),
            }
        };
    }
    match key {
        Key::Hash => {
            // UCCI: 0 lets the engine choose.
            let cap = max_hash_mb();
            spin!(0, MAX_HASH_MB, |n: i64| {
                let mb = if n == 0 { DEFAULT_HASH_MB } else { n as usize };
                if mb > cap {
                    out.messages.push(format!(
                        "setoption {name}: {mb} MB exceeds the memory available; using {cap}"
                    ));
                }
                opts.hash_mb = mb.min(cap);
            })
        }
        Key::Threads => spin!(0, MAX_THREADS, |n: i64| {
            opts.threads = if n == 0 {
                std::thread::available_parallelism().map_or(1, |p| p.get())
            } else {
                n as usize
            }
        }),
        Key::MultiPv => spin!(1, MAX_MULTIPV, |n: i64| opts.multipv = n as usize),
        Key::MoveOverhead => spin!(0, MAX_MOVE_OVERHEAD_MS, |n: i64| opts.move_overhead =
            Duration::from_millis(n as u64)),
        Key::NaturalLimit => spin!(NATURAL_LIMIT_RANGE.0, NATURAL_LIMIT_RANGE.1, |n: i64| {
            opts.natural_limit = n as u32
        }),
        Key::Ponder => check!(opts.ponder),
        Key::UseHash => check!(opts.use_hash),
        Key::UseBook => check!(opts.use_book),
        Key::Resign => check!(opts.resign),
        Key::UseMillisec => check!(front.usemillisec),
        Key::Batch => check!(front.batch),
        Key::Debug => check!(front.debug),
        Key::ShowWdl => check!(front.show_wdl),
        Key::Promotion => {
            check!(opts.promotion);
            if opts.promotion {
                out.messages.push(
                    "the promotion variant is not supported; playing standard Xiangqi".to_string(),
                );
            }
        }
        Key::NewGame => out.new_game = true,
        // The files are opened at the first `go` that uses them, which
        // reports any that cannot be read (nothing is read that is not
        // used).
        Key::BookFiles => {
            opts.book_files = if text == "<empty>" {
                String::new()
            } else {
                text.to_string()
            }
        }
        Key::BookBest => check!(opts.book_best),
        Key::BookDepth => spin!(0, MAX_BOOK_DEPTH, |n: i64| opts.book_depth = n as u32),
        Key::Idle => choice!(Level::parse, opts.idle, Level::NAMES),
        Key::Pruning => choice!(Level::parse, opts.pruning, Level::NAMES),
        Key::Knowledge => choice!(Level::parse, opts.knowledge, Level::NAMES),
        Key::Randomness => choice!(Randomness::parse, opts.randomness, Randomness::NAMES),
        Key::Rules => choice!(
            |t: &str| t.parse::<RuleBook>().ok(),
            opts.rule_book,
            RULE_BOOKS
        ),
        Key::Style => choice!(Style::parse, opts.style, Style::NAMES),
        Key::Variant => {
            if text.eq_ignore_ascii_case("xiangqi") {
                front.one_based = true;
            } else {
                out.messages.push(format!(
                    "variant '{text}' is not supported; this engine plays xiangqi only"
                ));
            }
        }
        Key::WeightsFile => match EvalWeights::load(text) {
            Ok(w) => opts.weights = w,
            Err(e) => {
                let current = match opts.weights.file.as_str() {
                    "" => "the built-in weights",
                    file => file,
                };
                out.messages
                    .push(format!("setoption {name}: {e}; keeping {current}"))
            }
        },
        Key::EvalFile => match EvalNetwork::load(text) {
            Ok(n) => opts.network = n,
            Err(e) => out.messages.push(format!(
                "setoption {name}: {e}; keeping {}",
                opts.network.source()
            )),
        },
        Key::UseNnue => check!(opts.use_nnue),
        Key::SkillLevel => spin!(0, FULL_SKILL, |n: i64| opts.skill_level = n as u8),
        Key::LimitStrength => check!(opts.limit_strength),
        Key::Elo => {
            let (lo, hi) = Skill::elo_range();
            spin!(lo, hi, |n: i64| opts.elo = n as i32)
        }
        Key::Legacy => log::info!("setoption {name}: legacy option, ignored"),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use shuai_board::Position;
    use shuai_eval::nnue::{Network, HIDDEN, INPUTS, OUTPUT_SCALE, SCALE};
    use shuai_eval::Weights;

    fn set(
        name: &str,
        value: Option<&str>,
        dialect: Dialect,
    ) -> (EngineOptions, FrontSettings, Applied) {
        let mut o = EngineOptions::default();
        let mut f = FrontSettings::default();
        let a = apply(name, value, &mut o, &mut f, dialect);
        (o, f, a)
    }

    #[test]
    fn both_syntaxes_split() {
        assert_eq!(
            split_setoption("name Move Overhead value 100"),
            ("Move Overhead".to_string(), Some("100".to_string()))
        );
        assert_eq!(
            split_setoption("name Clear Hash"),
            ("Clear Hash".to_string(), None)
        );
        assert_eq!(
            split_setoption("bookfiles C:\\books\\a b.dat;x.dat "),
            (
                "bookfiles".to_string(),
                Some("C:\\books\\a b.dat;x.dat".to_string())
            )
        );
        assert_eq!(split_setoption("newgame"), ("newgame".to_string(), None));
        assert_eq!(
            split_setoption("NAME hash VALUE 32"),
            ("hash".to_string(), Some("32".to_string()))
        );
        assert_eq!(rest_after("  a  b   c d  ", 2), "c d");
    }

    #[test]
    fn names_are_loose() {
        assert_eq!(lookup("Hash"), Some(Key::Hash));
        assert_eq!(lookup("HASHSIZE"), Some(Key::Hash));
        assert_eq!(lookup("natural_move_limit"), Some(Key::NaturalLimit));
        assert_eq!(lookup("Sixty Move Rule"), Some(Key::Legacy));
        assert_eq!(lookup("UCI_Variant"), Some(Key::Variant));
        assert_eq!(lookup("bogus"), None);
    }

    #[test]
    fn values() {
        let (o, _, a) = set("hashsize", Some("64"), Dialect::Ucci);
        assert_eq!(o.hash_mb, 64.min(max_hash_mb()));
        assert!(a.messages.is_empty());
        let (o, _, _) = set("hashsize", Some("0"), Dialect::Ucci);
        assert_eq!(o.hash_mb, DEFAULT_HASH_MB);
        let (_, f, a) = set("usemillisec", Some("off"), Dialect::Ucci);
        assert!(!f.usemillisec && a.messages.is_empty());
        let (o, _, a) = set("usebook", Some("maybe"), Dialect::Ucci);
        assert!(!o.use_book);
        assert_eq!(a.messages.len(), 1);
        let (o, _, a) = set("MultiPV", Some("1000"), Dialect::Uci);
        assert_eq!(o.multipv, MAX_MULTIPV);
        assert_eq!(a.messages.len(), 1);
        let (o, _, a) = set("Repetition Rules", Some("asian"), Dialect::Uci);
        assert_eq!((o.rule_book, a.messages.len()), (RuleBook::Asian, 0));
        let (o, _, a) = set("rules", Some("Asian"), Dialect::Ucci);
        assert_eq!(o.rule_book, RuleBook::Asian);
        assert!(a.messages.is_empty());
        let (o, _, a) = set("rules", Some("fide"), Dialect::Ucci);
        assert_eq!(o.rule_book, RuleBook::Chinese);
        assert_eq!(
            a.messages,
            ["setoption rules: needs one of chinese/asian, got 'fide'; value unchanged"]
        );
        let (o, _, a) = set("randomness", Some("Huge"), Dialect::Ucci);
        assert_eq!(o.randomness, Randomness::Huge);
        assert!(a.messages.is_empty());
        let (_, _, a) = set("newgame", None, Dialect::Ucci);
        assert!(a.new_game);
        let (_, f, _) = set("UCI_Variant", Some("xiangqi"), Dialect::Uci);
        assert!(f.one_based);
        let (_, f, a) = set("UCI_Variant", Some("chess"), Dialect::Uci);
        assert!(!f.one_based && a.messages.len() == 1);
    }

    #[test]
    fn unknown_names() {
        let (_, _, a) = set("whatever", Some("1"), Dialect::Ucci);
        assert!(a.messages.is_empty());
        let (_, _, a) = set("whatever", Some("1"), Dialect::Uci);
        assert_eq!(a.messages.len(), 1);
        let (_, _, a) = set("nullmove", Some("off"), Dialect::Uci);
        assert!(a.messages.is_empty());
    }

    #[test]
    fn announcements() {
        let ucci = announce(Dialect::Ucci);
        assert!(ucci.contains(&"option usemillisec type check default true".to_string()));
        assert!(ucci.iter().all(|l| !l.contains(" name ")));
        assert!(ucci.iter().all(|l| l
            .split_whitespace()
            .nth(1)
            .is_some_and(|n| n.chars().all(|c| c.is_ascii_lowercase()))));
        assert!(ucci
            .iter()
            .all(|l| lookup(l.split_whitespace().nth(1).unwrap()).is_some()));
        let uci = announce(Dialect::Uci);
        for l in &uci {
            let name = l
                .strip_prefix("option name ")
                .and_then(|r| r.split(" type ").next())
                .unwrap();
            assert!(lookup(name).is_some(), "{name}");
        }
    }

    #[test]
    fn a_weights_file_is_loaded_and_a_bad_one_keeps_the_last_good_weights() {
        let dir = std::env::temp_dir().join(format!("shuai-weights-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.txt");
        let bad = dir.join("bad.txt");
        std::fs::write(&good, "# tuned\ntempo.mg 41\n").unwrap();
        std::fs::write(&bad, "tempo.mg 1\nno.such.weight 5\n").unwrap();
        let good = good.to_str().unwrap();
        let bad = bad.to_str().unwrap();

        let mut o = EngineOptions::default();
        let mut f = FrontSettings::default();
        let a = apply("WeightsFile", Some(good), &mut o, &mut f, Dialect::Uci);
        assert!(a.messages.is_empty(), "{:?}", a.messages);
        assert_eq!(o.weights.file, good);
        assert_eq!(o.weights.weights.tempo.mg, 41);
        assert_eq!(o.weights.weights.material, Weights::DEFAULT.material);

        let a = apply("weightsfile", Some(bad), &mut o, &mut f, Dialect::Ucci);
        assert_eq!(
            a.messages,
            [format!(
                "setoption weightsfile: {bad}: line 2: unknown parameter no.such.weight; keeping {good}"
            )]
        );
        assert_eq!(o.weights.weights.tempo.mg, 41);

        let missing = dir.join("missing.txt");
        let a = apply(
            "weightsfile",
            missing.to_str(),
            &mut o,
            &mut f,
            Dialect::Ucci,
        );
        assert_eq!(a.messages.len(), 1);
        assert!(a.messages[0].contains("cannot read"), "{:?}", a.messages);
        assert_eq!(o.weights.file, good);

        let a = apply(
            "weightsfile",
            Some("<empty>"),
            &mut o,
            &mut f,
            Dialect::Ucci,
        );
        assert!(a.messages.is_empty());
        assert_eq!(o.weights, EvalWeights::default());
        assert_eq!(*o.weights.weights, Weights::DEFAULT);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_network_file_is_loaded_and_a_bad_one_keeps_the_last_good_network() {
        let dir = std::env::temp_dir().join(format!("shuai-network-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.nnue");
        let bad = dir.join("bad.nnue");
        // Zero weights and an output bias worth 300 cp: every position
        // scores +300 for the side to move.
        let constant = Network::from_parts(
            vec![0; INPUTS * HIDDEN],
            vec![0; HIDDEN],
            vec![0; 2 * HIDDEN],
            vec![(300 * OUTPUT_SCALE / i64::from(SCALE)) as i32],
            "constant",
        )
        .unwrap();
        std::fs::write(&good, constant.to_bytes()).unwrap();
        std::fs::write(&bad, "not a network").unwrap();
        let good = good.to_str().unwrap();
        let bad = bad.to_str().unwrap();

        let mut o = EngineOptions::default();
        let mut f = FrontSettings::default();
        assert!(o.use_nnue, "the network is the default evaluation");
        assert_eq!(
            o.active_network().unwrap().hash(),
            shuai_eval::nnue::default_network().hash()
        );
        let a = apply("Use NNUE", Some("false"), &mut o, &mut f, Dialect::Uci);
        assert!(a.messages.is_empty() && o.active_network().is_none());
        let a = apply("EvalFile", Some(good), &mut o, &mut f, Dialect::Uci);
        assert!(a.messages.is_empty(), "{:?}", a.messages);
        assert_eq!(o.network.file, good);
        assert_eq!(o.network.network.evaluate(&Position::startpos()), 300);
        assert!(o.active_network().is_none());
        let a = apply("Use NNUE", Some("true"), &mut o, &mut f, Dialect::Uci);
        assert!(a.messages.is_empty() && o.use_nnue);
        assert_eq!(*o.active_network().unwrap(), constant);

        let a = apply("evalfile", Some(bad), &mut o, &mut f, Dialect::Ucci);
        assert_eq!(
            a.messages,
            [format!(
                "setoption evalfile: {bad}: not a Shuai network file (no SHUAINNU magic); keeping {good}"
            )]
        );
        let missing = dir.join("missing.nnue");
        let a = apply("evalfile", missing.to_str(), &mut o, &mut f, Dialect::Ucci);
        assert_eq!(a.messages.len(), 1);
        assert!(a.messages[0].contains("cannot read"), "{:?}", a.messages);
        assert_eq!(o.network.file, good);

        let a = apply("evalfile", Some("<empty>"), &mut o, &mut f, Dialect::Ucci);
        assert!(a.messages.is_empty());
        assert_eq!(o.network, EvalNetwork::default());
        assert_eq!(o.network.source(), "the embedded network");
        let a = apply("usennue", Some("off"), &mut o, &mut f, Dialect::Ucci);
        assert!(a.messages.is_empty() && !o.use_nnue);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
