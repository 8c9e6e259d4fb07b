//! What the generator reports while it works, for the generator and the
//! perpetual-check rule alike.

/// What the generator reports while it works.
#[derive(Clone, Copy, Debug)]
pub struct GenProgress {
    /// `"init"`, `"mate"` (retrograde by distance) or `"rule"`.
    pub phase: &'static str,
    /// Plies of the level just finished (mate phase), sweeps (rule phase).
    pub step: u32,
    /// Positions decided so far.
    pub decided: u64,
}
