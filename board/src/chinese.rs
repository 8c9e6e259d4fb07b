//! Chinese move notation (炮二平五, 马8进7, 前车进一): both ways.

use std::fmt;

/// Why a move in Chinese notation was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChineseNotationError {
    /// The text could not be read as Chinese notation.
    Malformed(String),
}

impl fmt::Display for ChineseNotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChineseNotationError::Malformed(s) => write!(f, "'{s}' is not a move in Chinese notation"),
        }
    }
}

impl std::error::Error for ChineseNotationError {}
