//! The hostile operator: how the engine under test is driven during a
//! soak game. Its searches get random interjections while they run
//! (`isready`, `stop`, a stray `ponderhit`, `position` + `go` again); it
//! ponders on the opponent's time (`go ponder`, then `ponderhit` on a hit,
//! `stop` or a new `position` + `go` on a miss); between searches it gets
//! `setoption` and `go` out of turn. Every answer is timed and checked:
//! `readyok` within the limit, `bestmove` promptly after `stop`, every
//! `bestmove` legal, none that was not asked for.

use super::tally::{Incident, IncidentKind, Tally};
use crate::engine::{BestMove, Engine, GoOutcome, Received, SearchInfo};
use crate::game::go_command;
use crate::tc::{Clock, Limit};
use shuai_board::{Color, Position, Rng};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// How often each interjection is made: the chance per search (or per
/// turn) that it is sent. High enough that a few hundred games send each
/// kind hundreds of times, low enough that most searches run as a GUI's
/// would, so time losses still measure the clock handling.
pub mod rates {
    /// Pondering after a move that suggests one (when pondering is on);
    /// the other turns leave the engine idle for `setoption` and `go` out
    /// of turn.
    pub const PONDER: f64 = 0.85;
    /// `isready` at a random moment of a search.
    pub const ISREADY: f64 = 0.5;
    /// `ponderhit` during a search that is not a ponder search.
    pub const STRAY_PONDERHIT: f64 = 0.1;
    /// `stop` at a random moment of a search.
    pub const STOP: f64 = 0.1;
    /// `position` + `go` again at a random moment of a search (when no
    /// `stop` is planned): the engine must answer the first `go`, then
    /// the second.
    pub const POSITION_GO: f64 = 0.1;
    /// `setoption` before a search (not after a `ponderhit`).
    pub const SETOPTION: f64 = 0.1;
    /// A short `go` on the opponent's position while the opponent thinks
    /// (when not pondering).
    pub const GO_OUT_OF_TURN: f64 = 0.1;
    /// `isready` to a ponder search before `ponderhit` or `stop`.
    pub const ISREADY_PONDER: f64 = 0.3;
    /// On a ponder miss, `stop` (otherwise `position` + `go` straight
    /// away, which must stop the ponder search first).
    pub const MISS_BY_STOP: f64 = 0.7;
}

/// Limits the engine's answers are held to.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// `readyok` after `isready`.
    pub isready: Duration,
    /// `bestmove` after `stop`.
    pub stop_grace: Duration,
    /// Over the clock before a move is late.
    pub margin: Duration,
}

/// A failure that ends the game at once (the engine is gone or hung); it
/// is already counted and logged as an incident.
#[derive(Debug)]
pub struct Fault;

/// A ponder search running on the opponent's time.
pub struct Pondering {
    /// The move it ponders on (ICCS).
    pub mv: String,
    /// The position it searches (after that move).
    pub pos: Position,
}

/// How a search of the engine under test is begun.
pub enum Begin {
    /// `position` and `go` (answers to discard may still be due).
    Go,
    /// `ponderhit` on the running ponder search.
    Ponderhit,
}

/// One search of the engine under test for a move to play.
pub struct Search<'a> {
    /// How it starts.
    pub begin: Begin,
    /// The position searched.
    pub pos: &'a Position,
    /// The `position` command for it.
    pub position: String,
    /// The limit and clocks, for the `go` command.
    pub limit: Limit,
    /// Both clocks (Red, Black) before the search.
    pub clocks: [Clock; 2],
    /// Whether interjections are made during it.
    pub hostile: bool,
    /// Answers due from earlier searches this one stops, first to last,
    /// with the position to check each against (`None`: not checked).
    pub discard: VecDeque<Option<Position>>,
}

/// How a search for a move ended.
pub struct Searched {
    /// The answer, as the runner's own `go` would report it.
    pub outcome: GoOutcome,
    /// The `ponder` move the engine suggested.
    pub ponder: Option<String>,
    /// What it reported.
    pub info: SearchInfo,
    /// How long it was given before `stop`, ms.
    pub deadline_ms: u64,
}

/// An interjection planned during a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Interjection {
    Isready,
    StrayPonderhit,
    Stop,
    PositionGo,
}

/// The operator of one game: its random choices, what it has counted and
/// the incidents it has seen.
pub struct Operator<'t> {
    /// Random choices of this game.
    pub rng: Rng,
    /// The running totals.
    pub tally: &'t mut Tally,
    /// Incidents of this game, in order.
    pub incidents: Vec<Incident>,
    /// Game number.
    pub game: usize,
    /// Engine moves played so far in the game.
    pub ply: usize,
    /// The game's clock, as text.
    pub tc: String,
    /// Limits on the answers.
    pub limits: Limits,
    /// Largest `Hash` the operator may set, MB.
    pub max_hash_mb: u32,
}

fn ms(d: Duration) -> u64 {
    d.as_millis() as u64
}

/// `go …` → `go ponder …`.
fn ponder_go(go: &str) -> String {
    match go.strip_prefix("go") {
        Some(rest) => format!("go ponder{rest}"),
        None => go.to_string(),
    }
}

/// `position …` with one more move.
pub fn with_move(position: &str, mv: &str) -> String {
    if position.contains(" moves") {
        format!("{position} {mv}")
    } else {
        format!("{position} moves {mv}")
    }
}

/// Whether `b` names a legal move of `pos`.
fn is_legal(pos: &Position, b: &BestMove) -> bool {
    b.iccs.as_deref().is_some_and(|m| pos.parse_move(m).is_ok())
}

impl Operator<'_> {
    /// Logs and counts an incident, with the engine's last lines.
    pub fn incident(&mut self, kind: IncidentKind, what: String, engine: &Engine) {
        let i = Incident {
            game: self.game,
            ply: self.ply,
            tc: self.tc.clone(),
            kind,
            what,
            transcript: engine.recent_lines(),
        };
        self.tally.count(&i);
        self.incidents.push(i);
    }

    /// A fault that ends the game: logged, counted, and the engine killed
    /// so that it is restarted for the next game.
    fn fault(&mut self, kind: IncidentKind, what: String, engine: &mut Engine) -> Fault {
        self.incident(kind, what, engine);
        engine.kill();
        Fault
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        (self.rng.unit() as f64) < p
    }

    fn send(&mut self, engine: &mut Engine, line: &str) -> Result<(), Fault> {
        engine.send(line).map_err(|e| {
            let what = format!("could not send '{line}': {e}");
            self.fault(IncidentKind::Crash, what, engine)
        })
    }

    /// Reads what the engine printed while nobody waited: `info` and stray
    /// `readyok` lines are dropped, a `bestmove` is a protocol fault.
    /// Returns whether a `bestmove` was among them.
    pub fn drain(&mut self, engine: &mut Engine, when: &str) -> Result<bool, Fault> {
        let mut answered = false;
        loop {
            match engine.read(Duration::ZERO) {
                Received::Timeout => return Ok(answered),
                Received::Ended => {
                    let what = format!("the process ended ({when})");
                    return Err(self.fault(IncidentKind::Crash, what, engine));
                }
                Received::Line(_, l) => {
                    if BestMove::parse(engine.spec.proto, &l).is_some() {
                        answered = true;
                        let what = format!("'{l}' that nobody asked for ({when})");
                        self.incident(IncidentKind::Protocol, what, engine);
                    }
                }
            }
        }
    }

    /// Sends `isready` and waits for `readyok` within the limit.
    pub fn isready(&mut self, engine: &mut Engine, kind: &str) -> Result<(), Fault> {
        self.tally.sent(kind);
        self.send(engine, "isready")?;
        if self.readyok_by(engine, Instant::now(), "waiting for readyok")? {
            return Ok(());
        }
        let what = format!(
            "isready ({kind}) not answered within {} ms",
            ms(self.limits.isready)
        );
        Err(self.fault(IncidentKind::Hang, what, engine))
    }

    /// Waits for the `readyok` of the `isready` sent at `sent`, up to the
    /// limit after it: whether it came. A `bestmove` on the way is a
    /// protocol fault (`when` says where in the game).
    fn readyok_by(
        &mut self,
        engine: &mut Engine,
        sent: Instant,
        when: &str,
    ) -> Result<bool, Fault> {
        let end = sent + self.limits.isready;
        loop {
            match engine.read(end.saturating_duration_since(Instant::now())) {
                Received::Line(t, l) if l.trim() == "readyok" => {
                    self.tally
                        .isready
                        .add(ms(t.saturating_duration_since(sent)));
                    return Ok(true);
                }
                Received::Line(_, l) => {
                    if BestMove::parse(engine.spec.proto, &l).is_some() {
                        let what = format!("'{l}' that nobody asked for ({when})");
                        self.incident(IncidentKind::Protocol, what, engine);
                    }
                }
                Received::Timeout => return Ok(false),
                Received::Ended => {
                    let what = format!("the process ended {when}");
                    return Err(self.fault(IncidentKind::Crash, what, engine));
                }
            }
        }
    }

    /// Between games: new `Threads` and `Hash`, a new game, and `isready`
    /// answered within the limit (a large table must not delay it).
    pub fn new_game(
        &mut self,
        engine: &mut Engine,
        threads: u32,
        hash_mb: u32,
        new_game: &str,
    ) -> Result<(), Fault> {
        for (name, value) in [("Threads", threads), ("Hash", hash_mb)] {
            self.tally.sent("setoption");
            if let Err(e) = engine.set_option(name, &value.to_string()) {
                let what = format!("could not set {name}: {e}");
                return Err(self.fault(IncidentKind::Crash, what, engine));
            }
        }
        self.send(engine, new_game)?;
        self.isready(engine, "isready")
    }

    /// Maybe a `setoption` before a search: a new `Hash`, `Clear Hash`
    /// or `MultiPV`, as GUIs send when the user changes a setting.
    pub fn maybe_setoption(&mut self, engine: &mut Engine) -> Result<(), Fault> {
        if !self.chance(rates::SETOPTION) {
            return Ok(());
        }
        self.tally.sent("setoption");
        let sizes = hash_sizes(self.max_hash_mb);
        let line = match self.rng.below(3) {
            0 => format!("setoption name Hash value {}", self.rng.pick(&sizes)),
            1 => "setoption name Clear Hash".to_string(),
            _ => format!("setoption name MultiPV value {}", 1 + self.rng.below(3)),
        };
        self.send(engine, &line)
    }

    /// Maybe a short `go` on the opponent's position while it is the
    /// opponent's turn: the engine must answer it, legally and in time.
    pub fn maybe_go_out_of_turn(
        &mut self,
        engine: &mut Engine,
        pos: &Position,
        position: String,
    ) -> Result<(), Fault> {
        if !self.chance(rates::GO_OUT_OF_TURN) {
            return Ok(());
        }
        self.tally.sent("go_out_of_turn");
        let limit = Limit::MoveTime(20 + self.rng.below(40));
        let s = Search {
            begin: Begin::Go,
            pos,
            position,
            limit,
            clocks: [Clock::new(&limit); 2],
            hostile: false,
            discard: VecDeque::new(),
        };
        let r = self.search(engine, s)?;
        let what = match r.outcome {
            GoOutcome::Move { iccs, raw, .. } => {
                if iccs.is_some_and(|m| pos.parse_move(&m).is_ok()) {
                    return Ok(());
                }
                (
                    IncidentKind::IllegalMove,
                    format!(
                        "out-of-turn go answered '{raw}', not legal in {}",
                        pos.to_fen()
                    ),
                )
            }
            GoOutcome::NoMove { .. } => (
                IncidentKind::Protocol,
                format!("out-of-turn go answered no move in {}", pos.to_fen()),
            ),
            GoOutcome::Late { elapsed_ms } => (
                IncidentKind::Hang,
                format!("out-of-turn go ({limit}) answered only after stop, {elapsed_ms} ms"),
            ),
            GoOutcome::NoAnswer => {
                let what = format!("out-of-turn go ({limit}) not answered even after stop");
                return Err(self.fault(IncidentKind::Hang, what, engine));
            }
            GoOutcome::Crash => {
                let what = "the process ended during an out-of-turn go".to_string();
                return Err(self.fault(IncidentKind::Crash, what, engine));
            }
        };
        self.incident(what.0, what.1, engine);
        Ok(())
    }

    /// Starts pondering on `mv` after the engine's own move: `position`
    /// with that move and `go ponder` with the clocks as they stand.
    #[allow(clippy::too_many_arguments)] // one call's worth of game state
    pub fn start_ponder(
        &mut self,
        engine: &mut Engine,
        pos: &Position,
        position: &str,
        mv: &str,
        limit: &Limit,
        clocks: &[Clock; 2],
        me: Color,
    ) -> Result<Option<Pondering>, Fault> {
        let Ok(m) = pos.parse_move(mv) else {
            let what = format!("ponder move {mv} is not legal in {}", pos.to_fen());
            self.incident(IncidentKind::Protocol, what, engine);
            return Ok(None);
        };
        let mut pondered = pos.clone();
        pondered.make_move(m);
        if !pondered.has_legal_move() {
            return Ok(None);
        }
        let proto = engine.spec.proto;
        self.tally.sent("go_ponder");
        self.send(engine, &with_move(position, &proto.move_to_engine(mv)))?;
        self.send(engine, &ponder_go(&go_command(proto, limit, clocks, me)))?;
        Ok(Some(Pondering {
            mv: mv.to_string(),
            pos: pondered,
        }))
    }

    /// Ends a ponder search nobody needs (the game ended on the
    /// opponent's move): `stop`, and its answer within the grace.
    pub fn end_ponder(&mut self, engine: &mut Engine, p: Pondering) -> Result<(), Fault> {
        self.tally.sent("stop_ponder");
        self.stop_and_collect(engine, &p.pos, "a ponder search at the end of the game")
    }

    /// Sends `stop` and waits for the one `bestmove` due, within the grace.
    fn stop_and_collect(
        &mut self,
        engine: &mut Engine,
        pos: &Position,
        what: &str,
    ) -> Result<(), Fault> {
        self.send(engine, "stop")?;
        let sent = Instant::now();
        let end = sent + self.limits.stop_grace;
        loop {
            match engine.read(end.saturating_duration_since(Instant::now())) {
                Received::Line(t, l) => {
                    if let Some(b) = BestMove::parse(engine.spec.proto, &l) {
                        self.tally.stop.add(ms(t.saturating_duration_since(sent)));
                        if !b.is_none() && !is_legal(pos, &b) {
                            let why = format!("'{l}' from {what}: not legal in {}", pos.to_fen());
                            self.incident(IncidentKind::IllegalMove, why, engine);
                        }
                        return Ok(());
                    }
                }
                Received::Timeout => {
                    let why = format!(
                        "stop of {what} not answered within {} ms",
                        ms(self.limits.stop_grace)
                    );
                    return Err(self.fault(IncidentKind::Hang, why, engine));
                }
                Received::Ended => {
                    let why = format!("the process ended after stop of {what}");
                    return Err(self.fault(IncidentKind::Crash, why, engine));
                }
            }
        }
    }

    /// The engine's turn after it pondered on `p`: maybe an `isready`
    /// first; then `ponderhit` when the opponent played `p.mv`, else
    /// `stop` (or straight `position` + `go`) and a new search. Returns the
    /// search to run.
    pub fn resolve_ponder<'a>(
        &mut self,
        engine: &mut Engine,
        p: Pondering,
        played: &str,
        search: Search<'a>,
    ) -> Result<Search<'a>, Fault> {
        if self.drain(engine, "a ponder search before ponderhit or stop")? {
            // It answered on its own: it is idle, so a plain search.
            return Ok(search);
        }
        if self.chance(rates::ISREADY_PONDER) {
            self.isready(engine, "isready_ponder")?;
        }
        if p.mv == played {
            self.tally.sent("ponderhit");
            return Ok(Search {
                begin: Begin::Ponderhit,
                ..search
            });
        }
        if self.chance(rates::MISS_BY_STOP) {
            self.tally.sent("stop_ponder");
            self.stop_and_collect(engine, &p.pos, "a ponder search on a miss")?;
            return Ok(search);
        }
        self.tally.sent("position_go_ponder");
        let mut search = search;
        search.discard.push_back(Some(p.pos));
        Ok(search)
    }

    /// Plans the interjections of one search over its first `span`.
    fn plan(&mut self, span: Duration) -> Vec<(Instant, Interjection)> {
        let now = Instant::now();
        let span_ms = ms(span).max(1);
        let mut plan = Vec::new();
        let at = |rng: &mut Rng, k| (now + Duration::from_millis(rng.below(span_ms)), k);
        if self.chance(rates::ISREADY) {
            plan.push(at(&mut self.rng, Interjection::Isready));
        }
        if self.chance(rates::STRAY_PONDERHIT) {
            plan.push(at(&mut self.rng, Interjection::StrayPonderhit));
        }
        if self.chance(rates::STOP) {
            plan.push(at(&mut self.rng, Interjection::Stop));
        } else if self.chance(rates::POSITION_GO) {
            plan.push(at(&mut self.rng, Interjection::PositionGo));
        }
        // Latest first, so that `pop` gives the next one.
        plan.sort_by_key(|p| std::cmp::Reverse(p.0));
        plan
    }

    /// Runs one search for a move: begins it, makes the planned
    /// interjections, discards the answers of searches it stopped, and
    /// returns its answer (or `stop` at the clock's deadline, and the
    /// engine killed when even that is not answered).
    pub fn search(&mut self, engine: &mut Engine, s: Search<'_>) -> Result<Searched, Fault> {
        let proto = engine.spec.proto;
        let me = s.pos.side_to_move();
        let clock = s.clocks[me.index()];
        let deadline_ms = match s.limit {
            Limit::Clock { .. } => clock.remaining_ms,
            Limit::MoveTime(t) => t,
            Limit::Nodes(_) | Limit::Depth(_) => 60_000,
        } + ms(self.limits.margin);
        let go_after = |used_ms: u64| {
            let mut clocks = s.clocks;
            clocks[me.index()].remaining_ms = clock.remaining_ms.saturating_sub(used_ms);
            go_command(proto, &s.limit, &clocks, me)
        };
        let start = match s.begin {
            Begin::Go => {
                self.send(engine, &s.position)?;
                self.send(engine, &go_after(0))?;
                Instant::now()
            }
            Begin::Ponderhit => {
                self.send(engine, "ponderhit")?;
                Instant::now()
            }
        };
        let deadline = start + Duration::from_millis(deadline_ms);
        let mut plan = if s.hostile {
            // Interjections fall in the time a search typically takes:
            // about a twentieth of the clock plus the increment.
            let typical = match s.limit {
                Limit::Clock { inc_ms, .. } => clock.remaining_ms / 20 + inc_ms,
                _ => deadline_ms / 2,
            };
            self.plan(Duration::from_millis(typical.min(deadline_ms)))
        } else {
            Vec::new()
        };
        let mut discard = s.discard;
        let mut info = SearchInfo::default();
        let mut ready: Option<Instant> = None;
        // When `stop` was sent, and whether by the runner at the deadline.
        let mut stopped: Option<(Instant, bool)> = None;
        loop {
            let mut wake = match stopped {
                Some((t, _)) => t + self.limits.stop_grace,
                None => deadline,
            };
            if let Some(r) = ready {
                wake = wake.min(r + self.limits.isready);
            }
            if let Some(&(t, _)) = plan.last() {
                wake = wake.min(t);
            }
            match engine.read(wake.saturating_duration_since(Instant::now())) {
                Received::Ended => {
                    return Ok(Searched {
                        outcome: GoOutcome::Crash,
                        ponder: None,
                        info,
                        deadline_ms,
                    })
                }
                // Every line falls through to the checks below, so that a
                // flood of `info` lines cannot hold off the deadline or the
                // planned interjections.
                Received::Line(t, line) => {
                    if line.trim() == "readyok" {
                        if let Some(r) = ready.take() {
                            self.tally.isready.add(ms(t.saturating_duration_since(r)));
                        }
                    } else if line.starts_with("info") {
                        info.update(proto, &line);
                    } else if let Some(b) = BestMove::parse(proto, &line) {
                        if let Some(check) = discard.pop_front() {
                            if let Some(p) = check.filter(|p| !b.is_none() && !is_legal(p, &b)) {
                                let what = format!(
                                    "'{line}' for a search stopped by a new go: not legal in {}",
                                    p.to_fen()
                                );
                                self.incident(IncidentKind::IllegalMove, what, engine);
                            }
                        } else {
                            let late = matches!(stopped, Some((_, true)));
                            if let Some((ts, false)) = stopped {
                                self.tally.stop.add(ms(t.saturating_duration_since(ts)));
                            }
                            if let Some(r) = ready {
                                self.await_readyok(engine, r)?;
                            }
                            let elapsed_ms = ms(t.saturating_duration_since(start));
                            let ponder = b.ponder.clone();
                            return Ok(Searched {
                                outcome: b.outcome(elapsed_ms, late),
                                ponder,
                                info,
                                deadline_ms,
                            });
                        }
                    }
                }
                Received::Timeout => {}
            }
            let now = Instant::now();
            if ready.is_some_and(|r| now >= r + self.limits.isready) {
                ready = None;
                let what = format!(
                    "isready during a search not answered within {} ms",
                    ms(self.limits.isready)
                );
                self.incident(IncidentKind::Hang, what, engine);
            }
            match stopped {
                Some((t, _)) if now >= t + self.limits.stop_grace => {
                    engine.kill();
                    return Ok(Searched {
                        outcome: GoOutcome::NoAnswer,
                        ponder: None,
                        info,
                        deadline_ms,
                    });
                }
                None if now >= deadline => {
                    self.send(engine, "stop")?;
                    stopped = Some((Instant::now(), true));
                    plan.clear();
                }
                _ => {}
            }
            while plan.last().is_some_and(|&(t, _)| t <= now) {
                let Some((_, what)) = plan.pop() else { break };
                match what {
                    Interjection::Isready if ready.is_none() => {
                        self.tally.sent("isready");
                        self.send(engine, "isready")?;
                        ready = Some(Instant::now());
                    }
                    Interjection::Isready => {}
                    Interjection::StrayPonderhit => {
                        self.tally.sent("stray_ponderhit");
                        self.send(engine, "ponderhit")?;
                    }
                    Interjection::Stop => {
                        self.tally.sent("stop");
                        self.send(engine, "stop")?;
                        stopped = Some((Instant::now(), false));
                    }
                    Interjection::PositionGo => {
                        self.tally.sent("position_go");
                        let used = ms(start.elapsed());
                        self.send(engine, &s.position)?;
                        self.send(engine, &go_after(used))?;
                        discard.push_back(Some(s.pos.clone()));
                    }
                }
            }
        }
    }

    /// After the answer of a search, the `readyok` still due for the
    /// `isready` sent at `sent`: late is a hang, but the game goes on.
    fn await_readyok(&mut self, engine: &mut Engine, sent: Instant) -> Result<(), Fault> {
        if !self.readyok_by(engine, sent, "after a search")? {
            let what = format!(
                "isready sent during a search not answered within {} ms",
                ms(self.limits.isready)
            );
            self.incident(IncidentKind::Hang, what, engine);
        }
        Ok(())
    }
}

/// The `Hash` sizes the operator chooses from: powers of two up to
/// `max_mb`, and `max_mb` itself.
pub fn hash_sizes(max_mb: u32) -> Vec<u32> {
    let mut v: Vec<u32> = (0..31)
        .map(|i| 1u32 << i)
        .take_while(|&s| s <= max_mb)
        .collect();
    if v.last() != Some(&max_mb) && max_mb > 0 {
        v.push(max_mb);
    }
    if v.is_empty() {
        v.push(1);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands() {
        assert_eq!(
            ponder_go("go wtime 100 btime 100"),
            "go ponder wtime 100 btime 100"
        );
        assert_eq!(
            with_move("position fen X", "h2e2"),
            "position fen X moves h2e2"
        );
        assert_eq!(
            with_move("position fen X moves a0a1", "h2e2"),
            "position fen X moves a0a1 h2e2"
        );
        assert_eq!(hash_sizes(1024).len(), 11);
        assert_eq!(hash_sizes(100).last(), Some(&100));
        assert_eq!(hash_sizes(0), vec![1]);
    }
}
