//! Table values: what a position is worth to the side to move, and how it
//! is stored (one `u16` per index).

use std::fmt;

/// Win, draw or loss for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    /// The side to move wins.
    Win,
    /// Neither side can force a win (see the crate documentation for what
    /// that assumes).
    Draw,
    /// The side to move loses.
    Loss,
}

/// The value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// Neither side can force mate, and neither can force the other into
    /// a perpetual check it would have to give up.
    Draw,
    /// The side to move mates in this many plies (odd), against any
    /// defence.
    Win(u16),
    /// The side to move is mated (or stalemated) in this many plies (even;
    /// 0: now), against the best defence.
    Loss(u16),
    /// The side to move wins by the perpetual-check rule: the opponent can
    /// avoid mate only by checking forever, which both rule books forbid.
    /// The number is the plies until the opponent is in that trap
    /// (`LossByRule(0)`), a measure of progress, not a distance to mate.
    WinByRule(u16),
    /// The side to move can avoid mate only by perpetual check, so it
    /// loses by rule; the number as in [`Value::WinByRule`].
    LossByRule(u16),
}

impl Value {
    /// Win, draw or loss.
    pub fn wdl(self) -> Wdl {
        match self {
            Value::Draw => Wdl::Draw,
            Value::Win(_) | Value::WinByRule(_) => Wdl::Win,
            Value::Loss(_) | Value::LossByRule(_) => Wdl::Loss,
        }
    }

    /// Plies to mate with best play, for mates the table proves.
    pub fn mate_plies(self) -> Option<u16> {
        match self {
            Value::Win(n) | Value::Loss(n) => Some(n),
            _ => None,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let moves = |plies: u16| plies.div_ceil(2);
        match *self {
            Value::Draw => write!(f, "draw"),
            Value::Win(n) => write!(f, "win, mate in {} ({n} plies)", moves(n)),
            Value::Loss(0) => write!(f, "loss, no legal move"),
            Value::Loss(n) => write!(f, "loss, mated in {} ({n} plies)", moves(n)),
            Value::WinByRule(_) => write!(f, "win by the perpetual-check rule"),
            Value::LossByRule(_) => write!(f, "loss by the perpetual-check rule"),
        }
    }
}

/// The stored form: 0 is "not a position", 1 a draw, `2 + plies` a mate
/// distance (odd plies: the side to move wins), `RULE | plies` a result
/// by the perpetual-check rule (same parity convention).
pub(crate) mod code {
    use super::Value;

    /// Not a legal position, or the duplicate of a smaller index.
    pub const NONE: u16 = 0;
    /// A draw.
    pub const DRAW: u16 = 1;
    /// The first mate-distance code (0 plies: mated now).
    pub const MATE: u16 = 2;
    /// The flag of rule results.
    pub const RULE: u16 = 0x8000;
    /// Longest distance a code holds, in plies.
    pub const MAX_PLIES: u16 = RULE - MATE - 1;
    /// Not yet decided (only while generating; never written).
    pub const UNKNOWN: u16 = u16::MAX;

    /// The value of a code, `None` for [`NONE`] and [`UNKNOWN`].
    pub fn decode(c: u16) -> Option<Value> {
        match c {
            NONE | UNKNOWN => None,
            DRAW => Some(Value::Draw),
            c if c & RULE != 0 => {
                let n = c & !RULE;
                Some(if n % 2 == 1 {
                    Value::WinByRule(n)
                } else {
                    Value::LossByRule(n)
                })
            }
            c => {
                let n = c - MATE;
                Some(if n % 2 == 1 {
                    Value::Win(n)
                } else {
                    Value::Loss(n)
                })
            }
        }
    }

    /// The code of a mate distance in plies.
    pub fn mate(plies: u16) -> u16 {
        debug_assert!(plies <= MAX_PLIES);
        MATE + plies
    }

    /// The code of a rule result at `plies`.
    pub fn rule(plies: u16) -> u16 {
        debug_assert!(plies < RULE - 1);
        RULE | plies
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        assert_eq!(code::decode(code::NONE), None);
        assert_eq!(code::decode(code::DRAW), Some(Value::Draw));
        assert_eq!(code::decode(code::mate(0)), Some(Value::Loss(0)));
        assert_eq!(code::decode(code::mate(7)), Some(Value::Win(7)));
        assert_eq!(code::decode(code::rule(0)), Some(Value::LossByRule(0)));
        assert_eq!(code::decode(code::rule(3)), Some(Value::WinByRule(3)));
        assert_eq!(Value::Win(7).to_string(), "win, mate in 4 (7 plies)");
    }
}
