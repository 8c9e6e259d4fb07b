//! Search scores: centipawns, mate distances, and the band of rule verdicts.

/// Greatest search depth in plies (including extensions and quiescence).
pub const MAX_PLY: usize = 128;

/// The score of giving mate now; `MATE - n` is mate in `n` plies.
pub const MATE: i32 = 32_000;
/// Scores at or beyond this magnitude are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Winning by a repetition rule (the opponent must deviate or lose) scores
/// `RULE_WIN - ply`: above every evaluation, below every mate.
pub const RULE_WIN: i32 = 25_000;
/// Scores at or beyond this magnitude (and below the mate band) come from a
/// repetition verdict; they depend on the path and are never stored in the
/// transposition table.
pub const RULE_BOUND: i32 = RULE_WIN - MAX_PLY as i32;
/// Static evaluations (hand-written, from a weights file, or a network's)
/// are clamped to this magnitude, far inside the bands of rule verdicts and
/// mates: no evaluation, however odd its weights, can be read as either,
/// and every one fits the hash table's 16-bit field.
pub const EVAL_LIMIT: i32 = 10_000;
/// A won (or, negated, lost) position whose mate the hash table remembers but
/// which the natural-move limit may forbid: above every evaluation, below
/// the band of rule verdicts, so it is neither a mate nor path dependent.
pub const UNPROVEN_WIN: i32 = RULE_BOUND - 1;
/// A win (or, negated, loss) the endgame tables give by the perpetual-check
/// rule, which has no distance to mate: `TB_WIN - ply`, above every
/// evaluation, below the unproven wins, the rule verdicts of the search
/// and the mates. Unlike a repetition verdict it does not depend on the
/// path, so the hash table keeps it.
pub const TB_WIN: i32 = 20_000;
/// Scores at or beyond this magnitude, up to [`TB_WIN`], are endgame table results
/// by the perpetual-check rule.
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;
/// A value outside every real score.
pub const INFINITE: i32 = MATE + 1;
/// The score of a draw.
pub const DRAW: i32 = 0;

/// The score for the side to move when it is mated (or stalemated: in
/// Xiangqi both lose) `ply` plies from the root.
#[inline]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// The score of giving mate `ply` plies from the root.
#[inline]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// Whether `score` is a mate score (for either side).
#[inline]
pub const fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND && score.abs() <= MATE
}

/// Whether `score` comes from a repetition verdict (path dependent).
#[inline]
pub const fn is_rule_score(score: i32) -> bool {
    score.abs() >= RULE_BOUND && score.abs() < MATE_BOUND
}

/// Whether `score` is an endgame table's result by the perpetual-check
/// rule (see [`TB_WIN`]).
#[inline]
pub const fn is_tb_rule_score(score: i32) -> bool {
    score.abs() >= TB_WIN_BOUND && score.abs() <= TB_WIN
}

/// Converts a score relative to the root into one relative to the node at
/// `ply` for storing in the hash table (mate distances count from the node).
#[inline]
pub const fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_tt`].
#[inline]
pub const fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// A mate score read from the hash table at a node `ply` plies from the root,
/// checked against the natural-move limit: a mate that needs more plies
/// than the `plies_left` before the limit draws the game (when no capture
/// on the way resets the count, which the hash table cannot know) becomes
/// [`UNPROVEN_WIN`] for the same side. Other scores pass unchanged.
#[inline]
pub const fn limit_mate(score: i32, ply: usize, plies_left: u32) -> i32 {
    if score >= MATE_BOUND && MATE - score - ply as i32 > plies_left as i32 {
        UNPROVEN_WIN
    } else if score <= -MATE_BOUND && MATE + score - ply as i32 > plies_left as i32 {
        -UNPROVEN_WIN
    } else {
        score
    }
}

/// A score as a GUI shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DisplayScore {
    /// Centipawns from the side to move's view.
    Centipawns(i32),
    /// Mate in this many moves (negative: being mated), counted in full
    /// moves as UCI does.
    Mate(i32),
}

impl DisplayScore {
    /// Classifies a search score.
    pub fn from_score(score: i32) -> DisplayScore {
        if score >= MATE_BOUND {
            DisplayScore::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            DisplayScore::Mate(-(MATE + score) / 2)
        } else {
            DisplayScore::Centipawns(score)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_round_trip_through_the_table() {
        for ply in [0usize, 1, 7, 60] {
            for s in [mate_in(ply + 3), mated_in(ply + 4), 123, -77, 0] {
                assert_eq!(from_tt(to_tt(s, ply), ply), s);
            }
        }
        assert_eq!(to_tt(mate_in(5), 2), mate_in(3));
    }

    #[test]
    fn display_in_moves() {
        assert_eq!(DisplayScore::from_score(mate_in(1)), DisplayScore::Mate(1));
        assert_eq!(DisplayScore::from_score(mate_in(3)), DisplayScore::Mate(2));
        assert_eq!(DisplayScore::from_score(mated_in(0)), DisplayScore::Mate(0));
        assert_eq!(
            DisplayScore::from_score(mated_in(2)),
            DisplayScore::Mate(-1)
        );
        assert_eq!(DisplayScore::from_score(35), DisplayScore::Centipawns(35));
        assert!(is_rule_score(RULE_WIN - 3) && !is_mate(RULE_WIN));
    }

    #[test]
    fn table_mates_beyond_the_natural_limit_are_only_wins() {
        // Mate in 5 plies from a node at ply 2: fine with 5 plies left.
        assert_eq!(limit_mate(mate_in(7), 2, 5), mate_in(7));
        assert_eq!(limit_mate(mate_in(7), 2, 4), UNPROVEN_WIN);
        assert_eq!(limit_mate(mated_in(6), 2, 4), mated_in(6));
        assert_eq!(limit_mate(mated_in(6), 2, 3), -UNPROVEN_WIN);
        assert_eq!(limit_mate(350, 2, 0), 350);
        let win = UNPROVEN_WIN;
        assert!(!is_mate(win) && !is_rule_score(win) && win > EVAL_LIMIT);
    }
}
