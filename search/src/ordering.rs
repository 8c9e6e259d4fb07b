//! Move ordering: the table move, captures, killers and the counter move
//! are scored at once; quiet moves only when the picker reaches them (most
//! nodes cut off before that). The best remaining move is picked one at a
//! time, since sorting the whole list would waste work.

use shuai_board::{see_value, Move, MoveList, PieceKind, Position};

/// Score bands, from first tried to last.
const TT_MOVE: i32 = 30_000_000;
const GOOD_CAPTURE: i32 = 20_000_000;
const KILLER: [i32; 2] = [19_000_000, 18_900_000];
const COUNTER: i32 = 18_800_000;
/// Quiet moves whose history score is not computed yet.
const QUIET_PENDING: i32 = 10_000_000;
const BAD_CAPTURE: i32 = -20_000_000;

/// Whether `m` captures in `pos`.
#[inline]
pub fn is_capture(pos: &Position, m: Move) -> bool {
    pos.piece_at(m.to()).is_some()
}

/// Most valuable victim, least valuable attacker.
#[inline]
fn mvv_lva(pos: &Position, m: Move) -> i32 {
    let victim = pos.piece_at(m.to()).map_or(0, |p| see_value(p.kind()));
    let attacker = pos.piece_at(m.from()).map_or(0, |p| see_value(p.kind()));
    victim * 16 - attacker / 16
}

/// Whether a capture is at least even by SEE, skipping SEE when the victim
/// is worth at least the attacker.
#[inline]
pub fn good_capture(pos: &Position, m: Move, threshold: i32) -> bool {
    let victim = pos.piece_at(m.to()).map_or(0, |p| see_value(p.kind()));
    let attacker = pos.piece_at(m.from()).map(|p| p.kind());
    let attacker_value = attacker.map_or(0, see_value);
    if attacker != Some(PieceKind::King) && victim - attacker_value >= threshold {
        return true;
    }
    pos.see_ge(m, threshold)
}

/// What the picker knows beyond the position.
pub struct OrderingHints {
    /// The transposition table's move, if legal here.
    pub tt_move: Option<Move>,
    /// Quiet moves that caused cutoffs at this ply in sibling nodes.
    pub killers: [Move; 2],
    /// The refutation of the opponent's last move.
    pub counter: Move,
}

/// Hands out the moves of a list, best first.
pub struct MovePicker {
    moves: MoveList,
    scores: [i32; shuai_board::MAX_MOVES],
    next: usize,
    /// Whether quiet moves still carry the pending mark.
    quiets_pending: bool,
}

impl MovePicker {
    /// Scores the moves of `moves`, leaving quiet moves (other than
    /// killers and the counter move) to be scored when first reached.
    pub fn new(pos: &Position, moves: MoveList, hints: &OrderingHints) -> MovePicker {
        let mut scores = [0; shuai_board::MAX_MOVES];
        for (i, &m) in moves.iter().enumerate() {
            scores[i] = if Some(m) == hints.tt_move {
                TT_MOVE
            } else if is_capture(pos, m) {
                if good_capture(pos, m, 0) {
                    GOOD_CAPTURE + mvv_lva(pos, m)
                } else {
                    BAD_CAPTURE + mvv_lva(pos, m)
                }
            } else if m == hints.killers[0] {
                KILLER[0]
            } else if m == hints.killers[1] {
                KILLER[1]
            } else if m == hints.counter {
                COUNTER
            } else {
                QUIET_PENDING
            };
        }
        MovePicker {
            moves,
            scores,
            next: 0,
            quiets_pending: true,
        }
    }

    /// Captures only, by MVV-LVA (quiescence search).
    pub fn captures(pos: &Position, moves: MoveList) -> MovePicker {
        let mut scores = [0; shuai_board::MAX_MOVES];
        for (i, &m) in moves.iter().enumerate() {
            scores[i] = mvv_lva(pos, m);
        }
        MovePicker {
            moves,
            scores,
            next: 0,
            quiets_pending: false,
        }
    }

    /// The next move, best first. `quiet_score` gives the history score of
    /// a quiet move; it is called (for all remaining quiet moves at once)
    /// only when the quiet moves are reached.
    #[inline]
    pub fn next(&mut self, quiet_score: impl Fn(Move) -> i32) -> Option<Move> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let mut best = self.best_remaining();
        if self.quiets_pending && self.scores[best] == QUIET_PENDING {
            self.quiets_pending = false;
            for i in self.next..n {
                if self.scores[i] == QUIET_PENDING {
                    self.scores[i] = quiet_score(self.moves[i]);
                }
            }
            best = self.best_remaining();
        }
        let moves = self.moves.as_mut_slice();
        moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        let m = moves[self.next];
        self.next += 1;
        Some(m)
    }

    /// Index of the best-scored move not handed out yet.
    #[inline]
    fn best_remaining(&self) -> usize {
        let mut best = self.next;
        for i in self.next + 1..self.moves.len() {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tt_move_first_then_good_captures_then_quiets_then_bad_captures() {
        // The rook on a0 can take a free horse on a5; the rook on i1 can
        // take a pawn on i4 that the black rook on i9 defends.
        let pos = Position::from_fen("3k4r/9/9/9/n8/8p/9/9/8R/R3K4 w").unwrap();
        let tt = pos.parse_move("e0e1").unwrap();
        let hints = OrderingHints {
            tt_move: Some(tt),
            killers: [Move::NULL; 2],
            counter: Move::NULL,
        };
        let mut picker = MovePicker::new(&pos, pos.legal_moves(), &hints);
        let order: Vec<String> = std::iter::from_fn(|| picker.next(|_| 0))
            .map(|m| m.to_string())
            .collect();
        assert_eq!(order[0], "e0e1");
        assert_eq!(order[1], "a0a5", "the free horse next");
        assert_eq!(
            order.last().map(String::as_str),
            Some("i1i4"),
            "losing captures last"
        );
    }
}
