//! ICCS move text (`h2e2`): the coordinates UCCI and UCI engines speak.

use crate::{Move, Position, Square};
use std::fmt;

/// Why a move text was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveParseError {
    /// Not four characters of the form file-rank-file-rank (`a`–`i`, `0`–`9`).
    Malformed(String),
    /// Well formed, but not a legal move in the position.
    Illegal(String),
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveParseError::Malformed(s) => write!(
                f,
                "'{s}' is not a move in ICCS form (like h2e2: files a-i, ranks 0-9)"
            ),
            MoveParseError::Illegal(s) => write!(f, "'{s}' is not a legal move in this position"),
        }
    }
}

impl std::error::Error for MoveParseError {}

/// Parses ICCS text into a move without checking legality. Accepts either
/// case (`H2E2` from some GUIs).
pub fn parse_iccs(text: &str) -> Result<Move, MoveParseError> {
    let malformed = || MoveParseError::Malformed(text.to_string());
    if text.len() != 4 || !text.is_ascii() {
        return Err(malformed());
    }
    let lower = text.to_ascii_lowercase();
    let from: Square = lower[0..2].parse().map_err(|_| malformed())?;
    let to: Square = lower[2..4].parse().map_err(|_| malformed())?;
    if from == to {
        return Err(malformed());
    }
    Ok(Move::new(from, to))
}

impl Position {
    /// Parses ICCS text into a move that is legal here.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveParseError> {
        let m = parse_iccs(text)?;
        if self.is_legal(m) {
            Ok(m)
        } else {
            Err(MoveParseError::Illegal(text.to_string()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        let pos = Position::startpos();
        let m = pos.parse_move("h2e2").unwrap();
        assert_eq!(m.to_string(), "h2e2");
        assert_eq!(pos.parse_move("H2E2"), Ok(m));
        assert_eq!(
            pos.parse_move("h2e3"),
            Err(MoveParseError::Illegal("h2e3".into()))
        );
        for bad in ["", "h2", "h2e", "h2e2x", "j2e2", "h2e:", "h2h2", "炮二平五"] {
            assert_eq!(
                parse_iccs(bad),
                Err(MoveParseError::Malformed(bad.into())),
                "{bad}"
            );
        }
    }
}
