//! `position`, bare Cyclone `fen …`/`startpos …`, `probe` and `banmoves`
//! arguments: a setup (`startpos`, `fen <FEN>`, or a FEN alone) and an
//! optional `moves` list.

use super::format::Format;
use crate::fen::read_fen;
use shuai_board::{Move, Position};

/// A position read from a command.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// The position reached (up to the move before a bad one).
    pub position: Position,
    /// What was wrong with the move list, if anything.
    pub problem: Option<String>,
    /// The FEN is a composed position no game can reach (accepted).
    pub warning: Option<String>,
    /// The moves only made sense with ranks 0–9 although the GUI had set
    /// `UCI_Variant xiangqi`: they were read that way.
    pub zero_based_fallback: bool,
}

/// Reads `{startpos | fen <FEN> | <FEN>} [moves m1 m2 …]`. A bad setup is an
/// error (the caller keeps its previous position); a bad move ends the list
/// with the position reached before it and a problem description.
pub fn parse_position(args: &[&str], fmt: Format) -> Result<Parsed, String> {
    let moves_at = args
        .iter()
        .position(|t| t.eq_ignore_ascii_case("moves"))
        .unwrap_or(args.len());
    let (setup, moves) = (&args[..moves_at], args.get(moves_at + 1..).unwrap_or(&[]));
    let (start, warning) = match setup.split_first() {
        Some((kw, rest)) if kw.eq_ignore_ascii_case("startpos") => {
            if !rest.is_empty() {
                log::info!("position: ignored words after startpos: {}", rest.join(" "));
            }
            (Position::startpos(), None)
        }
        Some((kw, fen)) if kw.eq_ignore_ascii_case("fen") => {
            if fen.is_empty() {
                return Err("position fen needs a FEN; position unchanged".to_string());
            }
            read_fen(&fen.join(" "))
                .map_err(|e| format!("invalid FEN ({e}); position unchanged"))?
        }
        // A FEN without the `fen` word.
        Some((first, _)) if first.contains('/') => read_fen(&setup.join(" "))
            .map_err(|e| format!("invalid FEN ({e}); position unchanged"))?,
        _ => {
            return Err("position needs 'startpos' or 'fen <FEN>'; position unchanged".to_string())
        }
    };
    let (position, problem) = play(start.clone(), moves, fmt);
    if problem.is_some() && fmt.one_based {
        let zero = Format {
            one_based: false,
            ..fmt
        };
        let (p0, problem0) = play(start, moves, zero);
        if problem0.is_none() {
            return Ok(Parsed {
                position: p0,
                problem: None,
                warning,
                zero_based_fallback: true,
            });
        }
    }
    Ok(Parsed {
        position,
        problem,
        warning,
        zero_based_fallback: false,
    })
}

/// Plays `moves` from `pos`, stopping at the first one that is not legal.
///
/// One exception: a move that repeats the move before it, word for word,
/// is skipped with a note. No game can do that (the piece has left the
/// point it would start from), but the XBoard adapter UCI2WB sometimes
/// replays a `usermove` and sends the move list with it doubled; skipping
/// the copy leaves the game the GUI is playing (issue 51).
fn play(mut pos: Position, moves: &[&str], fmt: Format) -> (Position, Option<String>) {
    let mut notes = Vec::new();
    for (i, text) in moves.iter().enumerate() {
        match fmt.parse_move(&pos, text) {
            Ok(m) => pos.make_move(m),
            Err(_) if i > 0 && moves[i - 1].eq_ignore_ascii_case(text) => notes.push(format!(
                "move {} of the list repeats move {i} ('{text}'), which no game can do; skipped",
                i + 1
            )),
            Err(e) => {
                notes.push(format!(
                    "move {} of the list: {e}; position set up to the move before it",
                    i + 1
                ));
                break;
            }
        }
    }
    let problem = (!notes.is_empty()).then(|| notes.join("; "));
    (pos, problem)
}

/// Reads `banmoves m1 m2 …` against `pos`: the legal ones, and one
/// problem line per word that is not a legal move.
pub fn parse_banmoves(args: &[&str], pos: &Position, fmt: Format) -> (Vec<Move>, Vec<String>) {
    let mut moves = Vec::new();
    let mut problems = Vec::new();
    for t in args {
        match fmt.parse_move(pos, t) {
            Ok(m) if !moves.contains(&m) => moves.push(m),
            Ok(_) => {}
            Err(e) => problems.push(format!("banmoves: {e}; ignored")),
        }
    }
    (moves, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    const UCI: Format = Format::UCI;
    const UCI1: Format = Format::UCI1;

    fn parse(line: &str, fmt: Format) -> Result<Parsed, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        parse_position(&words, fmt)
    }

    #[test]
    fn setups() {
        let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
        for line in [
            "startpos".to_string(),
            "STARTPOS MOVES".to_string(),
            format!("fen {start} w - - 0 1"),
            format!("fen {start} r"),
            format!("fen {start} w"),
            format!("fen {start} w - - 0 0 moves"),
            format!("{start} w"),
            "fen rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w".to_string(),
        ] {
            let p = parse(&line, UCI).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(p.position.key(), Position::startpos().key(), "{line}");
            assert!(p.problem.is_none());
        }
        let p = parse("startpos moves h2e2 h9g7", UCI).unwrap();
        assert_eq!(p.position.ply_count(), 2);
    }

    #[test]
    fn bad_setups_and_moves() {
        assert!(parse("fen rnbakabnr/9/9 w", UCI)
            .unwrap_err()
            .contains("invalid FEN"));
        assert!(parse("fen", UCI).is_err());
        assert!(parse("", UCI).is_err());
        assert!(parse("garbage", UCI).is_err());
        let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
        assert!(parse(&format!("fen {start} x"), UCI).is_err());
        let p = parse("startpos moves h2e2 h9g7 e2e9 b0c2", UCI).unwrap();
        assert_eq!(p.position.ply_count(), 2);
        assert!(p.problem.unwrap().starts_with("move 3 of the list: 'e2e9'"));
        let p = parse("startpos moves h2e2 zz", UCI).unwrap();
        assert_eq!(p.position.ply_count(), 1);
    }

    /// UCI2WB's replayed `usermove` (issue 51): the doubled move is
    /// skipped and the rest of the list played.
    #[test]
    fn a_doubled_move_is_skipped() {
        let p = parse("startpos moves g0e2 g0e2 h9g7 b0c2", UCI).unwrap();
        assert_eq!(p.position.ply_count(), 3);
        assert_eq!(
            p.position.to_fen(),
            "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1B2C1/9/R1BAKA1NR b - - 3 2"
        );
        assert_eq!(
            p.problem.as_deref(),
            Some("move 2 of the list repeats move 1 ('g0e2'), which no game can do; skipped")
        );
        // A later illegal move still ends the list.
        let p = parse("startpos moves g0e2 g0e2 h9g7 h9g7 e2e9", UCI).unwrap();
        assert_eq!(p.position.ply_count(), 2);
        assert!(p.problem.unwrap().ends_with(
            "move 5 of the list: 'e2e9' is not a legal move in this position; position set up to the move before it"
        ));
    }

    #[test]
    fn very_long_lists() {
        // Horses shuffling back and forth: 400 plies.
        let mut line = String::from("startpos moves");
        for _ in 0..100 {
            line.push_str(" b0c2 b9c7 c2b0 c7b9");
        }
        let p = parse(&line, UCI).unwrap();
        assert_eq!(p.position.ply_count(), 400);
        assert!(p.problem.is_none());
    }

    #[test]
    fn one_based_and_the_fallback() {
        let p = parse("startpos moves h3e3 h10g8", UCI1).unwrap();
        assert_eq!(p.position.ply_count(), 2);
        assert!(!p.zero_based_fallback);
        // A GUI that set UCI_Variant but speaks ranks 0-9.
        let p = parse("startpos moves h2e2 h9g7", UCI1).unwrap();
        assert!(p.zero_based_fallback && p.problem.is_none());
        assert_eq!(p.position.ply_count(), 2);
    }

    #[test]
    fn banmoves() {
        let pos = Position::startpos();
        let words = ["h2e2", "h2e2", "a0a5", "xx"];
        let (moves, problems) = parse_banmoves(&words, &pos, UCI);
        assert_eq!(moves.len(), 1);
        assert_eq!(problems.len(), 2);
    }
}
