//! The protocol loop on stdin/stdout.
//!
//! This is the first slice of the UCCI/UCI front-end: the handshake words,
//! `isready`, `position` and `go perft`. Every reply is one line, flushed;
//! problems with the input are reported on a protocol line (`info message`
//! in UCCI, `info string` in UCI) and the last good position is kept.

use shuai_board::{FenError, Position};
use std::io::{self, BufRead, Write};

/// Which protocol the GUI chose with its handshake word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// UCI with ranks 0–9 (the Pikafish dialect); also the default before a
    /// handshake.
    Uci,
    /// UCCI (xqbase).
    Ucci,
}

/// The engine's state between commands.
pub struct Session {
    dialect: Dialect,
    position: Position,
}

/// Whether the loop should keep reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// Leave the loop (after `quit`).
    Quit,
}

/// Engine name announced to GUIs.
pub const ENGINE_NAME: &str = concat!("Shuai ", env!("CARGO_PKG_VERSION"));
/// Author line announced to GUIs.
pub const ENGINE_AUTHOR: &str = "the Shuai developers";

impl Default for Session {
    fn default() -> Session {
        Session::new()
    }
}

impl Session {
    /// A session at the start position, speaking UCI until told otherwise.
    pub fn new() -> Session {
        Session {
            dialect: Dialect::Uci,
            position: Position::startpos(),
        }
    }

    /// The current position (with the moves of the last `position` command
    /// as its history).
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The dialect in use.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Handles one input line, writing replies to `out`.
    pub fn handle_line(&mut self, line: &str, out: &mut impl Write) -> io::Result<Flow> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&first, rest)) = tokens.split_first() else {
            return Ok(Flow::Continue);
        };
        match first.to_ascii_lowercase().as_str() {
            "uci" => {
                self.dialect = Dialect::Uci;
                writeln!(out, "id name {ENGINE_NAME}")?;
                writeln!(out, "id author {ENGINE_AUTHOR}")?;
                writeln!(out, "uciok")?;
            }
            "ucci" => {
                self.dialect = Dialect::Ucci;
                writeln!(out, "id name {ENGINE_NAME}")?;
                writeln!(out, "id author {ENGINE_AUTHOR}")?;
                writeln!(out, "ucciok")?;
            }
            "isready" => writeln!(out, "readyok")?,
            "position" => self.set_position(rest, out)?,
            // Cyclone dialect: the position command without its keyword.
            "fen" | "startpos" => self.set_position(&tokens, out)?,
            "go" => self.go(rest, out)?,
            "d" | "display" => writeln!(out, "{}Fen: {}", self.position, self.position.to_fen())?,
            "quit" => {
                if self.dialect == Dialect::Ucci {
                    writeln!(out, "bye")?;
                }
                out.flush()?;
                return Ok(Flow::Quit);
            }
            _ => self.message(out, &format!("unknown command: {}", line.trim()))?,
        }
        out.flush()?;
        Ok(Flow::Continue)
    }

    /// Writes a free-text line in the dialect's syntax.
    fn message(&self, out: &mut impl Write, text: &str) -> io::Result<()> {
        match self.dialect {
            Dialect::Ucci => writeln!(out, "info message {text}"),
            Dialect::Uci => writeln!(out, "info string {text}"),
        }
    }

    /// `position {startpos | fen FEN} [moves m1 m2 …]`. A bad FEN keeps the
    /// previous position; a bad move keeps the position reached before it.
    fn set_position(&mut self, args: &[&str], out: &mut impl Write) -> io::Result<()> {
        let moves_at = args
            .iter()
            .position(|t| t.eq_ignore_ascii_case("moves"))
            .unwrap_or(args.len());
        let (setup, moves) = (&args[..moves_at], args.get(moves_at + 1..).unwrap_or(&[]));
        let parsed: Result<Position, FenError> = match setup.split_first() {
            Some((kw, _)) if kw.eq_ignore_ascii_case("startpos") => Ok(Position::startpos()),
            Some((kw, fen)) if kw.eq_ignore_ascii_case("fen") => Position::from_fen(&fen.join(" ")),
            _ => {
                return self.message(
                    out,
                    "position needs 'startpos' or 'fen <FEN>'; position unchanged",
                );
            }
        };
        let mut pos = match parsed {
            Ok(p) => p,
            Err(e) => return self.message(out, &format!("invalid FEN ({e}); position unchanged")),
        };
        for (i, text) in moves.iter().enumerate() {
            match pos.parse_move(text) {
                Ok(m) => pos.make_move(m),
                Err(e) => {
                    self.position = pos;
                    return self.message(
                        out,
                        &format!(
                            "move {} of the list: {e}; position set up to the move before it",
                            i + 1
                        ),
                    );
                }
            }
        }
        self.position = pos;
        Ok(())
    }

    /// `go perft N`; other searches arrive with the search issue.
    fn go(&mut self, args: &[&str], out: &mut impl Write) -> io::Result<()> {
        match args {
            [kw, depth, ..] if kw.eq_ignore_ascii_case("perft") => match depth.parse::<u32>() {
                Ok(d) => crate::perft::run(&mut self.position, d, out).map(|_| ()),
                Err(_) => self.message(out, &format!("go perft needs a depth, got '{depth}'")),
            },
            [kw] if kw.eq_ignore_ascii_case("perft") => self.message(out, "go perft needs a depth"),
            _ => self.message(out, "only 'go perft N' is available in this build"),
        }
    }
}

/// Reads commands from `input` until `quit` or end of input.
pub fn run(input: impl BufRead, out: &mut impl Write) -> io::Result<()> {
    let mut session = Session::new();
    for line in input.lines() {
        let line = match line {
            Ok(l) => l,
            // Invalid UTF-8 is bad input, not a reason to stop.
            Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                session.message(out, "input line is not valid UTF-8; ignored")?;
                out.flush()?;
                continue;
            }
            Err(e) => return Err(e),
        };
        if session.handle_line(&line, out)? == Flow::Quit {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn talk(lines: &[&str]) -> (Session, String) {
        let mut s = Session::new();
        let mut out = Vec::new();
        for l in lines {
            s.handle_line(l, &mut out).unwrap();
        }
        (s, String::from_utf8(out).unwrap())
    }

    #[test]
    fn handshake_and_ready() {
        let (_, out) = talk(&["uci", "isready"]);
        assert!(out.starts_with("id name Shuai"));
        assert!(out.ends_with("uciok\nreadyok\n"));
        let (s, out) = talk(&["ucci"]);
        assert!(out.ends_with("ucciok\n"));
        assert_eq!(s.dialect(), Dialect::Ucci);
    }

    #[test]
    fn bad_fen_keeps_the_previous_position() {
        let (s, out) = talk(&[
            "position startpos moves h2e2",
            "position fen rnbakabnr/9/9 w",
        ]);
        assert_eq!(
            out,
            "info string invalid FEN (FEN has 3 ranks, expected 10); position unchanged\n"
        );
        assert_eq!(s.position().ply_count(), 1);
    }

    #[test]
    fn illegal_move_keeps_the_position_before_it() {
        let (s, out) = talk(&["ucci", "position startpos moves h2e2 h9g7 e2e9 b0c2"]);
        assert!(out.ends_with(
            "info message move 3 of the list: 'e2e9' is not a legal move in this position; position set up to the move before it\n"
        ));
        assert_eq!(s.position().ply_count(), 2);
    }

    #[test]
    fn cyclone_position_and_perft() {
        let (_, out) = talk(&[
            "fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r moves",
            "go perft 2",
        ]);
        assert!(out.contains("h2e2: 44\n"));
        assert!(out.ends_with("\nNodes searched: 1920\n"));
    }

    #[test]
    fn malformed_commands_get_a_message() {
        let (_, out) = talk(&["go perft", "go perft x", "position", "bogus"]);
        assert_eq!(out.lines().count(), 4);
        assert!(out.lines().all(|l| l.starts_with("info string ")));
    }
}
