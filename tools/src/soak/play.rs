//! One soak game: the opponent plays through the match runner's own
//! search and judging code (`game::engine_move`), the engine under test
//! through the hostile [`Operator`], its answers judged by the same
//! `game::conclude_move`; the referee is the match runner's.

use super::operator::{rates, Begin, Fault, Operator, Pondering, Search};
use super::tally::IncidentKind;
use crate::engine::{Engine, GoOutcome};
use crate::game::{conclude_move, engine_move, Ending, Game, GameConfig, Termination};
use crate::openings::EpdLine;
use shuai_board::Color;
use std::collections::VecDeque;

/// The two engines of a soak game and their names.
pub struct Players<'e> {
    /// The engine under test.
    pub tested: &'e mut Engine,
    /// The opponent.
    pub opponent: &'e mut Engine,
    /// The colour of the engine under test.
    pub tested_color: Color,
    /// Whether the engine under test ponders.
    pub ponder: bool,
}

/// Plays one game from `opening`. `Ok` is the game's end as the referee
/// (or a failure judged by the runner's rules) saw it; `Err` is a fault
/// of the engine under test outside a search for a move, already counted,
/// which aborts the game.
pub fn play(
    op: &mut Operator<'_>,
    p: Players<'_>,
    opening: &EpdLine,
    cfg: &GameConfig,
) -> Result<(Ending, usize), Fault> {
    let limits = [cfg.limit; 2];
    let mut game = Game::new(opening, &limits);
    let me = p.tested_color;
    let first = game.pos.side_to_move();
    let mut pondering: Option<Pondering> = None;
    let tested_name = p.tested.spec.name.clone();
    let opponent_name = p.opponent.spec.name.clone();
    loop {
        op.ply = game.played.len();
        if let Some(end) = game.referee(cfg) {
            if let Some(pd) = pondering.take() {
                op.end_ponder(p.tested, pd)?;
            }
            return Ok((end, tested_moves(&game, first, me)));
        }
        let stm = game.pos.side_to_move();
        if stm != me {
            if pondering.is_none() {
                let position = game.position_command(p.tested.spec.proto);
                op.maybe_go_out_of_turn(p.tested, &game.pos, position)?;
            }
            if let Err(end) = engine_move(&mut game, p.opponent, &opponent_name, &cfg.limit, cfg) {
                if let Some(pd) = pondering.take() {
                    op.end_ponder(p.tested, pd)?;
                }
                return Ok((end, tested_moves(&game, first, me)));
            }
            continue;
        }
        let search = Search {
            begin: Begin::Go,
            pos: &game.pos,
            position: game.position_command(p.tested.spec.proto),
            limit: cfg.limit,
            clocks: game.clocks,
            hostile: true,
            discard: VecDeque::new(),
        };
        let search = match pondering.take() {
            Some(pd) => {
                let played = game.played.last().map_or("", |m| m.iccs.as_str());
                op.resolve_ponder(p.tested, pd, played, search)?
            }
            None => {
                op.drain(p.tested, "between searches")?;
                search
            }
        };
        if matches!(search.begin, Begin::Go) && search.discard.is_empty() {
            // The engine is idle: a setting may change between searches.
            op.maybe_setoption(p.tested)?;
        }
        let r = op.search(p.tested, search)?;
        if matches!(r.outcome, GoOutcome::NoMove { .. }) {
            let what = format!("no move in {}, which has legal moves", game.pos.to_fen());
            op.incident(IncidentKind::Protocol, what, p.tested);
        }
        if let Err(end) = conclude_move(
            &mut game,
            p.tested,
            &tested_name,
            &cfg.limit,
            cfg,
            r.outcome,
            &r.info,
            r.deadline_ms,
        ) {
            return Ok((end, tested_moves(&game, first, me)));
        }
        let ponder = p.ponder && op.chance(rates::PONDER);
        if let Some(mv) = r.ponder.filter(|_| ponder) {
            let position = game.position_command(p.tested.spec.proto);
            pondering = op.start_ponder(
                p.tested,
                &game.pos,
                &position,
                &mv,
                &cfg.limit,
                &game.clocks,
                me,
            )?;
        }
    }
}

/// Moves the engine under test (`me`) played in the game, when `first`
/// moved first after the book.
fn tested_moves(game: &Game<'_>, first: Color, me: Color) -> usize {
    let n = game.played.len();
    if first == me {
        n.div_ceil(2)
    } else {
        n / 2
    }
}

/// How a failure that ended the game counts against the engine under
/// test: the incident kind, if it was its failure.
pub fn tested_failure(end: &Ending, me: Color) -> Option<IncidentKind> {
    let lost = end.0.winner() == Some(!me);
    if !lost {
        return None;
    }
    match end.1 {
        Termination::IllegalMove => Some(IncidentKind::IllegalMove),
        Termination::TimeForfeit => Some(IncidentKind::TimeLoss),
        Termination::NoAnswer => Some(IncidentKind::Hang),
        Termination::Crash => Some(IncidentKind::Crash),
        // No move with legal moves on the board is counted when it is
        // read (a protocol fault); resigning is the engine's right.
        _ => None,
    }
}
