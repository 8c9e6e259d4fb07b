//! The options each protocol announces, and `setoption` in both syntaxes.
//!
//! Every option is one row of `OPTIONS`: its UCI and UCCI names, more
//! names it answers to, its type with range and default, and how a value
//! is set. The name lookup, both handshakes and `setoption` are read from
//! the rows, and each handshake lists its options in the rows' order, so
//! an option is added or changed in one place.
//!
//! Names are matched case-insensitively with spaces, `_` and `-` ignored,
//! so `Hash`, `hashsize`, `Natural Move Limit` and `naturalmovelimit` all
//! work in either protocol. Legacy names (ElephantEye's and Pikafish's
//! old options) are accepted silently and change nothing.

use super::format::Dialect;
use crate::engine::{
    max_hash_mb, EgtbFiles, EngineOptions, EvalNetwork, EvalWeights, Level, Randomness, Skill,
    Style, DEFAULT_HASH_MB, EGTB_CACHE_RANGE, FULL_SKILL, MAX_BOOK_DEPTH, MAX_HASH_MB,
    MAX_MOVE_OVERHEAD_MS, MAX_MULTIPV, MAX_THREADS, NATURAL_LIMIT_RANGE,
};
use shuai_board::rules::RuleBook;
use std::fmt::Display;
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

/// What a setter changes, and where it reports.
struct Target<'a> {
    engine: &'a mut EngineOptions,
    front: &'a mut FrontSettings,
    /// The option's name as the GUI sent it, for messages.
    name: &'a str,
    out: &'a mut Applied,
}

impl Target<'_> {
    /// Tells the user about the value just set: `setoption NAME: what`.
    fn say(&mut self, what: impl Display) {
        self.out
            .messages
            .push(format!("setoption {}: {what}", self.name));
    }
}

/// Reads an option's default from the initial settings (so the
/// handshake announces what the engine starts with).
type Get<T> = fn(&EngineOptions, &FrontSettings) -> T;
/// Sets an option to a value already parsed and in range.
type Set<T> = fn(&mut Target<'_>, T);

/// An option's type: how its value is read, checked and announced.
#[derive(Clone, Copy)]
enum Kind {
    /// `true` or `false` (also on/off, yes/no, 1/0).
    Check { default: Get<bool>, set: Set<bool> },
    /// A whole number in `min..=max`: values outside are clamped, with a
    /// message. With `zero_is_auto`, 0 is taken too and lets the engine
    /// choose: UCCI's convention, so UCCI announces `min 0` and UCI, which
    /// has no such convention, `min`.
    Spin {
        min: i64,
        max: i64,
        zero_is_auto: bool,
        default: Get<i64>,
        set: Set<i64>,
    },
    /// One of `vars`, any case. `set` returns false for a word it does not
    /// know (the message then lists `vars`).
    Combo {
        vars: &'static [&'static str],
        default: Get<&'static str>,
        set: fn(&mut Target<'_>, &str) -> bool,
    },
    /// Free text (file names): an empty default is announced `<empty>`,
    /// as GUIs expect of a string option.
    Text {
        default: Get<String>,
        set: fn(&mut Target<'_>, &str),
    },
    /// An action without a value.
    Button { press: fn(&mut Target<'_>) },
}

/// One option: everything its name lookup, the handshakes and
/// `setoption` need.
struct Row {
    /// The UCI name; `None`: not announced to UCI GUIs (still accepted).
    uci: Option<&'static str>,
    /// The UCCI name; `None`: not announced to UCCI GUIs (still accepted).
    ucci: Option<&'static str>,
    /// More names the option answers to in either protocol, normalised
    /// (see [`normalise`]): other engines' names for it.
    aliases: &'static [&'static str],
    /// Its type, range, default and setter.
    kind: Kind,
}

/// Every option, in the order both handshakes announce them (a new row
/// goes where GUIs should list it): UCI's order as its GUIs have always
/// seen it, the UCCI-only options beside their kin (the front-end's
/// `usemillisec`, `batch` and `debug` first, as ElephantEye has them;
/// `usehash` after the hash size).
static OPTIONS: &[Row] = &[
    Row {
        uci: None,
        ucci: Some("usemillisec"),
        aliases: &[],
        kind: Kind::Check {
            default: |_, f| f.usemillisec,
            set: |t, b| t.front.usemillisec = b,
        },
    },
    Row {
        uci: None,
        ucci: Some("batch"),
        aliases: &[],
        kind: Kind::Check {
            default: |_, f| f.batch,
            set: |t, b| t.front.batch = b,
        },
    },
    Row {
        uci: None,
        ucci: Some("debug"),
        aliases: &[],
        kind: Kind::Check {
            default: |_, f| f.debug,
            set: |t, b| t.front.debug = b,
        },
    },
    Row {
        uci: Some("Threads"),
        ucci: Some("threads"),
        aliases: &[],
        kind: Kind::Spin {
            min: 1,
            max: MAX_THREADS as i64,
            zero_is_auto: true,
            default: |o, _| o.threads as i64,
            set: |t, n| {
                t.engine.threads = if n == 0 {
                    std::thread::available_parallelism().map_or(1, |p| p.get())
                } else {
                    n as usize
                }
            },
        },
    },
    Row {
        uci: Some("Hash"),
        ucci: Some("hashsize"),
        aliases: &[],
        kind: Kind::Spin {
            min: 1,
            max: MAX_HASH_MB as i64,
            zero_is_auto: true,
            default: |o, _| o.hash_mb as i64,
            set: |t, n| {
                let mb = if n == 0 { DEFAULT_HASH_MB } else { n as usize };
                let cap = max_hash_mb();
                if mb > cap {
                    t.say(format!("{mb} MB exceeds the memory available; using {cap}"));
                }
                t.engine.hash_mb = mb.min(cap);
            },
        },
    },
    Row {
        uci: None,
        ucci: Some("usehash"),
        aliases: &[],
        kind: Kind::Check {
            default: |o, _| o.use_hash,
            set: |t, b| t.engine.use_hash = b,
        },
    },
    Row {
        uci: Some("Clear Hash"),
        ucci: Some("newgame"),
        aliases: &[],
        kind: Kind::Button {
            press: |t| t.out.new_game = true,
        },
    },
    Row {
        uci: Some("Ponder"),
        ucci: Some("ponder"),
        aliases: &[],
        kind: Kind::Check {
            default: |o, _| o.ponder,
            set: |t, b| t.engine.ponder = b,
        },
    },
    Row {
        uci: Some("MultiPV"),
        ucci: Some("multipv"),
        aliases: &[],
        kind: Kind::Spin {
            min: 1,
            max: MAX_MULTIPV as i64,
            zero_is_auto: false,
            default: |o, _| o.multipv as i64,
            set: |t, n| t.engine.multipv = n as usize,
        },
    },
    Row {
        uci: Some("Move Overhead"),
        ucci: Some("moveoverhead"),
        aliases: &[],
        kind: Kind::Spin {
            min: 0,
            max: MAX_MOVE_OVERHEAD_MS as i64,
            zero_is_auto: false,
            default: |o, _| o.move_overhead.as_millis() as i64,
            set: |t, n| t.engine.move_overhead = Duration::from_millis(n as u64),
        },
    },
    Row {
        uci: Some("Natural Move Limit"),
        ucci: Some("naturalmovelimit"),
        aliases: &["naturallimit"],
        kind: Kind::Spin {
            min: NATURAL_LIMIT_RANGE.0 as i64,
            max: NATURAL_LIMIT_RANGE.1 as i64,
            zero_is_auto: false,
            default: |o, _| i64::from(o.natural_limit),
            set: |t, n| t.engine.natural_limit = n as u32,
        },
    },
    Row {
        uci: Some("OwnBook"),
        ucci: Some("usebook"),
        aliases: &[],
        kind: Kind::Check {
            default: |o, _| o.use_book,
            set: |t, b| t.engine.use_book = b,
        },
    },
    Row {
        uci: Some("Book File"),
        ucci: Some("bookfiles"),
        aliases: &[],
        // The files are opened at the first `go` that uses them, which
        // reports any that cannot be read (nothing is read that is not
        // used).
        kind: Kind::Text {
            default: |o, _| o.book_files.clone(),
            set: |t, text| {
                t.engine.book_files = if text == "<empty>" {
                    String::new()
                } else {
                    text.to_string()
                }
            },
        },
    },
    Row {
        uci: Some("Best Book Move"),
        ucci: Some("bestbookmove"),
        aliases: &["bookbest"],
        kind: Kind::Check {
            default: |o, _| o.book_best,
            set: |t, b| t.engine.book_best = b,
        },
    },
    Row {
        uci: Some("Book Depth"),
        ucci: Some("bookdepth"),
        aliases: &[],
        kind: Kind::Spin {
            min: 0,
            max: MAX_BOOK_DEPTH as i64,
            zero_is_auto: false,
            default: |o, _| i64::from(o.book_depth),
            set: |t, n| t.engine.book_depth = n as u32,
        },
    },
    Row {
        uci: Some("WeightsFile"),
        ucci: Some("weightsfile"),
        aliases: &[],
        kind: Kind::Text {
            default: |o, _| o.weights.file.clone(),
            set: |t, text| match EvalWeights::load(text) {
                Ok(w) => t.engine.weights = w,
                Err(e) => {
                    let current = match t.engine.weights.file.as_str() {
                        "" => "the built-in weights".to_string(),
                        file => file.to_string(),
                    };
                    t.say(format!("{e}; keeping {current}"))
                }
            },
        },
    },
    Row {
        uci: Some("EvalFile"),
        ucci: Some("evalfile"),
        aliases: &[],
        kind: Kind::Text {
            default: |o, _| o.network.file.clone(),
            set: |t, text| match EvalNetwork::load(text) {
                Ok(n) => t.engine.network = n,
                Err(e) => {
                    let current = t.engine.network.source();
                    t.say(format!("{e}; keeping {current}"))
                }
            },
        },
    },
    Row {
        uci: Some("Use NNUE"),
        ucci: Some("usennue"),
        aliases: &[],
        kind: Kind::Check {
            default: |o, _| o.use_nnue,
            set: |t, b| t.engine.use_nnue = b,
        },
    },
    Row {
        uci: Some("Repetition Rules"),
        ucci: Some("rules"),
        aliases: &["rulebook"],
        kind: Kind::Combo {
            vars: &RULE_BOOKS,
            default: |o, _| o.rule_book.option_value(),
            set: |t, text| {
                text.parse::<RuleBook>()
                    .map(|r| t.engine.rule_book = r)
                    .is_ok()
            },
        },
    },
    Row {
        uci: Some("Idle"),
        ucci: Some("idle"),
        aliases: &[],
        kind: Kind::Combo {
            vars: &Level::NAMES,
            default: |o, _| o.idle.name(),
            set: |t, text| Level::parse(text).map(|l| t.engine.idle = l).is_some(),
        },
    },
    Row {
        uci: Some("Pruning"),
        ucci: Some("pruning"),
        aliases: &[],
        kind: Kind::Combo {
            vars: &Level::NAMES,
            default: |o, _| o.pruning.name(),
            set: |t, text| Level::parse(text).map(|l| t.engine.pruning = l).is_some(),
        },
    },
    Row {
        uci: Some("Knowledge"),
        ucci: Some("knowledge"),
        aliases: &[],
        kind: Kind::Combo {
            vars: &Level::NAMES,
            default: |o, _| o.knowledge.name(),
            set: |t, text| Level::parse(text).map(|l| t.engine.knowledge = l).is_some(),
        },
    },
    Row {
        uci: Some("Randomness"),
        ucci: Some("randomness"),
        aliases: &[],
        kind: Kind::Combo {
            vars: &Randomness::NAMES,
            default: |o, _| o.randomness.name(),
            set: |t, text| {
                Randomness::parse(text)
                    .map(|r| t.engine.randomness = r)
                    .is_some()
            },
        },
    },
    Row {
        uci: Some("Style"),
        ucci: Some("style"),
        aliases: &[],
        kind: Kind::Combo {
            vars: &Style::NAMES,
            default: |o, _| o.style.name(),
            set: |t, text| Style::parse(text).map(|s| t.engine.style = s).is_some(),
        },
    },
    Row {
        uci: None,
        ucci: Some("promotion"),
        aliases: &[],
        kind: Kind::Check {
            default: |o, _| o.promotion,
            set: |t, b| {
                t.engine.promotion = b;
                if b {
                    t.out.messages.push(
                        "the promotion variant is not supported; playing standard Xiangqi"
                            .to_string(),
                    );
                }
            },
        },
    },
    Row {
        uci: None,
        ucci: Some("resign"),
        aliases: &[],
        kind: Kind::Check {
            default: |o, _| o.resign,
            set: |t, b| t.engine.resign = b,
        },
    },
    Row {
        uci: Some("Skill Level"),
        ucci: Some("skill"),
        aliases: &["level"],
        kind: Kind::Spin {
            min: 0,
            max: FULL_SKILL as i64,
            zero_is_auto: false,
            default: |o, _| i64::from(o.skill_level),
            set: |t, n| t.engine.skill_level = n as u8,
        },
    },
    Row {
        uci: Some("UCI_LimitStrength"),
        ucci: Some("limitstrength"),
        aliases: &[],
        kind: Kind::Check {
            default: |o, _| o.limit_strength,
            set: |t, b| t.engine.limit_strength = b,
        },
    },
    Row {
        uci: Some("UCI_Elo"),
        ucci: Some("elo"),
        aliases: &[],
        kind: Kind::Spin {
            min: Skill::elo_range().0 as i64,
            max: Skill::elo_range().1 as i64,
            zero_is_auto: false,
            default: |o, _| i64::from(o.elo),
            set: |t, n| t.engine.elo = n as i32,
        },
    },
    Row {
        uci: Some("UCI_ShowWDL"),
        ucci: None,
        aliases: &["showwdl"],
        kind: Kind::Check {
            default: |_, f| f.show_wdl,
            set: |t, b| t.front.show_wdl = b,
        },
    },
    Row {
        uci: Some("UCI_Variant"),
        ucci: None,
        aliases: &[],
        // Announced as xiangqi, the value GUIs send to ask for ranks 1–10
        // (the front-end starts with ranks 0–9 until they do). Another
        // variant gets its own message rather than "needs one of".
        kind: Kind::Combo {
            vars: &["xiangqi"],
            default: |_, _| "xiangqi",
            set: |t, text| {
                if text.eq_ignore_ascii_case("xiangqi") {
                    t.front.one_based = true;
                } else {
                    t.out.messages.push(format!(
                        "variant '{text}' is not supported; this engine plays xiangqi only"
                    ));
                }
                true
            },
        },
    },
    Row {
        uci: Some("EGTB Path"),
        ucci: Some("egtbpaths"),
        aliases: &[],
        // The directories are listed now, so a wrong path is said at once
        // (once: the last good tables stay); the files are read when a
        // search first needs them.
        kind: Kind::Text {
            default: |o, _| o.egtb.paths.clone(),
            set: |t, text| match EgtbFiles::open(text) {
                Ok(files) => {
                    if files.tablebase.is_some() {
                        t.say(files.summary());
                    }
                    t.engine.egtb = files;
                }
                Err(e) => {
                    let current = t.engine.egtb.summary();
                    t.say(format!("{e}; keeping {current}"))
                }
            },
        },
    },
    Row {
        uci: Some("Use EGTB"),
        ucci: Some("useegtb"),
        aliases: &[],
        kind: Kind::Check {
            default: |o, _| o.use_egtb,
            set: |t, b| t.engine.use_egtb = b,
        },
    },
    Row {
        uci: Some("EGTB Cache"),
        // UCCI has no name for it: one lower-case word, as for the other
        // options of ours (`setoption egtbcache 512`).
        ucci: Some("egtbcache"),
        aliases: &[],
        kind: Kind::Spin {
            min: EGTB_CACHE_RANGE.0 as i64,
            max: EGTB_CACHE_RANGE.1 as i64,
            zero_is_auto: false,
            default: |o, _| o.egtb_cache_mb as i64,
            // The engine hands the budget to the tables when it takes the
            // options (`Engine::set_options`), after any search has ended.
            set: |t, n| t.engine.egtb_cache_mb = n as usize,
        },
    },
];

/// Other engines' names for options Shuai does not have, normalised (see
/// [`normalise`]): accepted silently, never announced, changing nothing.
static LEGACY: &[&str] = &[
    // ElephantEye / UCCI 1.x–3.0
    "evalapi",
    "repetition",
    "drawmoves",
    "selectivity",
    "loadbook",
    "nullmove",
    // Pikafish, current and historic (its `UCI_ShowWDL` is ours)
    "debuglogfile",
    "numapolicy",
    "nodestime",
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

impl Row {
    /// Every name the option answers to, normalised.
    fn names(&self) -> impl Iterator<Item = String> + '_ {
        [self.uci, self.ucci]
            .into_iter()
            .flatten()
            .map(normalise)
            .chain(self.aliases.iter().map(|a| a.to_string()))
    }

    /// The name `dialect` announces.
    fn announced(&self, dialect: Dialect) -> Option<&'static str> {
        match dialect {
            Dialect::Uci => self.uci,
            Dialect::Ucci => self.ucci,
        }
    }
}

/// Lower case without spaces, `_` and `-`.
pub fn normalise(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-' | '\t'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The row of the option a name refers to.
fn row(name: &str) -> Option<&'static Row> {
    let n = normalise(name);
    OPTIONS.iter().find(|r| r.names().any(|m| m == n))
}

/// The option a name refers to, by the name it is announced under (its
/// UCI name, or its UCCI name for a UCCI-only option).
pub fn lookup(name: &str) -> Option<&'static str> {
    row(name).and_then(|r| r.uci.or(r.ucci))
}

/// Whether `name` is another engine's option that Shuai accepts and
/// ignores.
fn is_legacy(name: &str) -> bool {
    LEGACY.contains(&normalise(name).as_str())
}

/// One handshake line: `option name NAME type TAIL` in UCI,
/// `option NAME type TAIL` in UCCI.
fn option_line(dialect: Dialect, name: &str, tail: &str) -> String {
    match dialect {
        Dialect::Uci => format!("option name {name} type {tail}"),
        Dialect::Ucci => format!("option {name} type {tail}"),
    }
}

/// A spin option's type: UCI puts the default first, UCCI last.
fn spin_type(dialect: Dialect, default: i64, min: i64, max: i64) -> String {
    match dialect {
        Dialect::Uci => format!("spin default {default} min {min} max {max}"),
        Dialect::Ucci => format!("spin min {min} max {max} default {default}"),
    }
}

impl Kind {
    /// The option's type as `dialect` announces it, with the default read
    /// from `o` and `f`.
    fn announced_type(&self, dialect: Dialect, o: &EngineOptions, f: &FrontSettings) -> String {
        match *self {
            Kind::Check { default, .. } => format!("check default {}", default(o, f)),
            Kind::Spin {
                min,
                max,
                zero_is_auto,
                default,
                ..
            } => {
                let min = if zero_is_auto && dialect == Dialect::Ucci {
                    0
                } else {
                    min
                };
                spin_type(dialect, default(o, f), min, max)
            }
            Kind::Combo { vars, default, .. } => {
                let vars = vars
                    .iter()
                    .map(|v| format!("var {v}"))
                    .collect::<Vec<_>>()
                    .join(" ");
                match dialect {
                    Dialect::Uci => format!("combo default {} {vars}", default(o, f)),
                    Dialect::Ucci => format!("combo {vars} default {}", default(o, f)),
                }
            }
            Kind::Text { default, .. } => match default(o, f) {
                d if d.is_empty() => "string default <empty>".to_string(),
                d => format!("string default {d}"),
            },
            Kind::Button { .. } => "button".to_string(),
        }
    }
}

/// The option lines of the handshake (before `uciok` / `ucciok`), with
/// the engine's initial values as defaults, in the order of `OPTIONS`.
pub fn announce(dialect: Dialect) -> Vec<String> {
    let (o, f) = (EngineOptions::default(), FrontSettings::default());
    OPTIONS
        .iter()
        .filter_map(|r| {
            let name = r.announced(dialect)?;
            Some(option_line(
                dialect,
                name,
                &r.kind.announced_type(dialect, &o, &f),
            ))
        })
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
        .map(|p| {
            let tail = spin_type(
                dialect,
                i64::from(p.default),
                i64::from(p.min),
                i64::from(p.max),
            );
            option_line(dialect, p.name, &tail)
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
    if is_legacy(name) {
        log::info!("setoption {name}: legacy option, ignored");
        return out;
    }
    let Some(row) = row(name) else {
        if shuai_search::params::TUNABLE && shuai_search::params::find(name).is_some() {
            let text = value.unwrap_or("").trim();
            let set = parse_int(text)
                .and_then(|v| i32::try_from(v).ok())
                .ok_or_else(|| format!("setoption {name}: expected an integer, got '{text}'"))
                .and_then(|v| opts.params.set(name, v));
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
    let mut t = Target {
        engine: opts,
        front,
        name,
        out: &mut out,
    };
    let bad = |t: &mut Target<'_>, what: &str| {
        t.say(format!("{what}, got '{text}'; value unchanged"));
    };
    match row.kind {
        Kind::Check { set, .. } => match parse_bool(text) {
            Some(b) => set(&mut t, b),
            None => bad(&mut t, "needs true/false (or on/off)"),
        },
        Kind::Spin {
            min,
            max,
            zero_is_auto,
            set,
            ..
        } => match parse_int(text) {
            Some(n) => {
                let lo = if zero_is_auto { 0 } else { min };
                let c = n.clamp(lo, max);
                if c != n {
                    t.say(format!("{n} is outside {lo}..{max}; using {c}"));
                }
                set(&mut t, c);
            }
            None => bad(&mut t, "needs a whole number"),
        },
        Kind::Combo { vars, set, .. } => {
            if !set(&mut t, text) {
                bad(&mut t, &format!("needs one of {}", vars.join("/")));
            }
        }
        Kind::Text { set, .. } => set(&mut t, text),
        Kind::Button { press } => press(&mut t),
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
        assert_eq!(lookup("Hash"), Some("Hash"));
        assert_eq!(lookup("HASHSIZE"), Some("Hash"));
        assert_eq!(lookup("natural_move_limit"), Some("Natural Move Limit"));
        assert_eq!(lookup("usemillisec"), Some("usemillisec"));
        assert!(is_legacy("Sixty Move Rule") && lookup("Sixty Move Rule").is_none());
        assert_eq!(lookup("UCI_Variant"), Some("UCI_Variant"));
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

    /// The UCI handshake's option lines, as GUIs have seen them since the
    /// book options came (a change here is a change GUIs see).
    const UCI_HANDSHAKE: &[&str] = &[
        "option name Threads type spin default 1 min 1 max 256",
        "option name Hash type spin default 16 min 1 max 65536",
        "option name Clear Hash type button",
        "option name Ponder type check default false",
        "option name MultiPV type spin default 1 min 1 max 128",
        "option name Move Overhead type spin default 30 min 0 max 5000",
        "option name Natural Move Limit type spin default 120 min 2 max 1000",
        "option name OwnBook type check default false",
        "option name Book File type string default <empty>",
        "option name Best Book Move type check default false",
        "option name Book Depth type spin default 0 min 0 max 1000",
        "option name WeightsFile type string default <empty>",
        "option name EvalFile type string default <empty>",
        "option name Use NNUE type check default true",
        "option name Repetition Rules type combo default chinese var chinese var asian",
        "option name Idle type combo default none var none var small var medium var large",
        "option name Pruning type combo default large var none var small var medium var large",
        "option name Knowledge type combo default large var none var small var medium var large",
        "option name Randomness type combo default none var none var tiny var small var medium var large var huge",
        "option name Style type combo default normal var solid var normal var risky",
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 3031 min 808 max 3031",
        "option name UCI_ShowWDL type check default false",
        "option name UCI_Variant type combo default xiangqi var xiangqi",
        "option name EGTB Path type string default <empty>",
        "option name Use EGTB type check default true",
        "option name EGTB Cache type spin default 256 min 1 max 65536",
    ];

    /// The UCCI handshake's option lines, in the rows' order (a change
    /// here is a change GUIs see).
    const UCCI_HANDSHAKE: &[&str] = &[
        "option usemillisec type check default true",
        "option batch type check default false",
        "option debug type check default false",
        "option threads type spin min 0 max 256 default 1",
        "option hashsize type spin min 0 max 65536 default 16",
        "option usehash type check default true",
        "option newgame type button",
        "option ponder type check default false",
        "option multipv type spin min 1 max 128 default 1",
        "option moveoverhead type spin min 0 max 5000 default 30",
        "option naturalmovelimit type spin min 2 max 1000 default 120",
        "option usebook type check default false",
        "option bookfiles type string default <empty>",
        "option bestbookmove type check default false",
        "option bookdepth type spin min 0 max 1000 default 0",
        "option weightsfile type string default <empty>",
        "option evalfile type string default <empty>",
        "option usennue type check default true",
        "option rules type combo var chinese var asian default chinese",
        "option idle type combo var none var small var medium var large default none",
        "option pruning type combo var none var small var medium var large default large",
        "option knowledge type combo var none var small var medium var large default large",
        "option randomness type combo var none var tiny var small var medium var large var huge default none",
        "option style type combo var solid var normal var risky default normal",
        "option promotion type check default false",
        "option resign type check default true",
        "option skill type spin min 0 max 20 default 20",
        "option limitstrength type check default false",
        "option elo type spin min 808 max 3031 default 3031",
        "option egtbpaths type string default <empty>",
        "option useegtb type check default true",
        "option egtbcache type spin min 1 max 65536 default 256",
    ];

    #[test]
    fn the_handshakes_are_pinned_line_for_line() {
        for (dialect, pinned) in [
            (Dialect::Uci, UCI_HANDSHAKE),
            (Dialect::Ucci, UCCI_HANDSHAKE),
        ] {
            let lines = announce(dialect);
            // A `tune` build adds the search parameters after these.
            assert_eq!(
                &lines[..pinned.len().min(lines.len())],
                pinned,
                "{dialect:?}"
            );
            assert_eq!(lines.len() - pinned.len(), tuning_options(dialect).len());
        }
    }

    #[test]
    fn every_name_belongs_to_one_row_and_no_handshake_names_an_option_twice() {
        let mut seen = std::collections::HashMap::new();
        for (i, r) in OPTIONS.iter().enumerate() {
            for a in r.aliases {
                assert_eq!(normalise(a), *a, "alias {a} is not normalised");
            }
            // A row's UCI and UCCI names may be the same word.
            let names: std::collections::BTreeSet<String> = r.names().collect();
            for n in names {
                assert_eq!(seen.insert(n.clone(), i), None, "{n} is in two rows");
                assert_eq!(lookup(&n), r.uci.or(r.ucci));
                assert!(!is_legacy(&n), "{n} is an option and a legacy name");
            }
            assert!(
                r.uci.is_some() || r.ucci.is_some(),
                "row {i} is never announced"
            );
        }
        for l in LEGACY {
            assert_eq!(normalise(l), *l, "legacy name {l} is not normalised");
        }
        for dialect in [Dialect::Uci, Dialect::Ucci] {
            let lines = announce(dialect);
            let mut names = std::collections::BTreeSet::new();
            for l in &lines {
                let name = l
                    .strip_prefix("option name ")
                    .or_else(|| l.strip_prefix("option "))
                    .and_then(|r| r.split(" type ").next())
                    .unwrap();
                assert!(names.insert(normalise(name)), "{dialect:?}: {name} twice");
            }
            assert_eq!(names.len(), lines.len());
        }
    }

    #[test]
    fn a_gui_that_sends_back_every_default_changes_nothing() {
        for dialect in [Dialect::Uci, Dialect::Ucci] {
            for r in OPTIONS {
                let Some(name) = r.announced(dialect) else {
                    continue;
                };
                let mut o = EngineOptions::default();
                let mut f = FrontSettings::default();
                let line = option_line(dialect, name, &r.kind.announced_type(dialect, &o, &f));
                let value = match r.kind {
                    Kind::Button { .. } => None,
                    // The default is the line's last word in UCCI, the one
                    // after `default` in UCI.
                    _ => {
                        let words: Vec<&str> = line.split_whitespace().collect();
                        let at = words.iter().rposition(|w| *w == "default").unwrap();
                        Some(words[at + 1])
                    }
                };
                let applied = apply(name, value, &mut o, &mut f, dialect);
                assert!(
                    applied.messages.is_empty(),
                    "{line}: {:?}",
                    applied.messages
                );
                assert_eq!(o, EngineOptions::default(), "{line}");
                if r.uci == Some("UCI_Variant") {
                    // Sending `UCI_Variant xiangqi` asks for ranks 1–10.
                    assert!(f.one_based);
                } else {
                    assert_eq!(f, FrontSettings::default(), "{line}");
                }
                let button = matches!(r.kind, Kind::Button { .. });
                assert_eq!(applied.new_game, button, "{line}");
            }
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

    /// `EGTB Cache` in both syntaxes: a number is taken, one out of range
    /// is clamped with a message, anything else keeps the last good value.
    #[test]
    fn egtb_cache_takes_megabytes_and_a_bad_value_keeps_the_last_good_one() {
        let mut o = EngineOptions::default();
        let mut f = FrontSettings::default();
        assert_eq!(o.egtb_cache_mb, 256);
        let a = apply("EGTB Cache", Some("1"), &mut o, &mut f, Dialect::Uci);
        assert!(a.messages.is_empty(), "{:?}", a.messages);
        assert_eq!(o.egtb_cache_mb, 1);
        let a = apply("egtbcache", Some("512"), &mut o, &mut f, Dialect::Ucci);
        assert!(a.messages.is_empty(), "{:?}", a.messages);
        assert_eq!(o.egtb_cache_mb, 512);
        let a = apply("EGTB Cache", Some("lots"), &mut o, &mut f, Dialect::Uci);
        assert_eq!(
            a.messages,
            ["setoption EGTB Cache: needs a whole number, got 'lots'; value unchanged"]
        );
        assert_eq!(o.egtb_cache_mb, 512);
        let a = apply("egtbcache", Some("0"), &mut o, &mut f, Dialect::Ucci);
        assert_eq!(
            a.messages,
            ["setoption egtbcache: 0 is outside 1..65536; using 1"]
        );
        assert_eq!(o.egtb_cache_mb, 1);
    }
}
