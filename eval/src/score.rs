//! A midgame/endgame pair of centipawn values.

use std::fmt;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A pair of centipawn values: one for the midgame, one for the endgame.
///
/// Every weight of the evaluation is a `Score`; the evaluation sums them per
/// side and blends the two halves by the game phase at the end.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(C)]
pub struct Score {
    /// The midgame value.
    pub mg: i32,
    /// The endgame value.
    pub eg: i32,
}

impl Score {
    /// Zero in both phases.
    pub const ZERO: Score = Score { mg: 0, eg: 0 };

    /// The pair `(mg, eg)`.
    #[inline]
    pub const fn new(mg: i32, eg: i32) -> Score {
        Score { mg, eg }
    }
}

/// Shorthand for [`Score::new`], used by the weight tables.
#[inline]
pub const fn s(mg: i32, eg: i32) -> Score {
    Score { mg, eg }
}

impl Add for Score {
    type Output = Score;
    #[inline]
    fn add(self, rhs: Score) -> Score {
        Score::new(self.mg + rhs.mg, self.eg + rhs.eg)
    }
}

impl AddAssign for Score {
    #[inline]
    fn add_assign(&mut self, rhs: Score) {
        self.mg += rhs.mg;
        self.eg += rhs.eg;
    }
}

impl Sub for Score {
    type Output = Score;
    #[inline]
    fn sub(self, rhs: Score) -> Score {
        Score::new(self.mg - rhs.mg, self.eg - rhs.eg)
    }
}

impl SubAssign for Score {
    #[inline]
    fn sub_assign(&mut self, rhs: Score) {
        self.mg -= rhs.mg;
        self.eg -= rhs.eg;
    }
}

impl Neg for Score {
    type Output = Score;
    #[inline]
    fn neg(self) -> Score {
        Score::new(-self.mg, -self.eg)
    }
}

impl Mul<i32> for Score {
    type Output = Score;
    #[inline]
    fn mul(self, rhs: i32) -> Score {
        Score::new(self.mg * rhs, self.eg * rhs)
    }
}

impl fmt::Debug for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "s({}, {})", self.mg, self.eg)
    }
}

impl fmt::Display for Score {
    /// `mg/eg`, e.g. `450/420`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.mg, self.eg)
    }
}
