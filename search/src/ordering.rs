//! Move ordering: the hash move, captures, killers and the counter move
//! are scored at once; quiet moves only when the picker reaches them (most
//! nodes cut off before that). The best remaining move is picked one at a
//! time, since sorting the whole list would waste work.

use crate::history::History;
use shuai_board::{
    attacks, see_value, Bitboard, Move, MoveList, Piece, PieceKind, Position, Square,
};

/// Score bands, from first tried to last. Every score stays below
/// `SCORE_LIMIT` in magnitude (captures add at most 14,400 by MVV-LVA,
/// history scores at most 3 × 16,384), so that a move's index can be packed
/// below its score in an `i32` (see [`MovePicker`]). Only the order of
/// the scores matters: the bands were ten times wider before, which ordered
/// every move the same way.
const TT_MOVE: i32 = 3_000_000;
const GOOD_CAPTURE: i32 = 2_000_000;
const KILLER: [i32; 2] = [1_900_000, 1_890_000];
const COUNTER: i32 = 1_880_000;
/// Quiet moves whose history score is not computed yet.
const QUIET_PENDING: i32 = 1_000_000;
const BAD_CAPTURE: i32 = -2_000_000;

/// Bits of a packed selection key that hold the move's index.
const INDEX_BITS: u32 = 7;
/// The index part of a packed key.
const INDEX_MASK: i32 = (1 << INDEX_BITS) - 1;
const _: () = assert!(shuai_board::MAX_MOVES <= 1 << INDEX_BITS);
/// Scores must stay below this in magnitude to be packed into a key.
const SCORE_LIMIT: i32 = 1 << (31 - INDEX_BITS);
const _: () = assert!(TT_MOVE < SCORE_LIMIT && BAD_CAPTURE > -SCORE_LIMIT);
/// Keys compared at once when selecting the best move.
const LANES: usize = 4;
/// Room for the keys: the moves, then up to a lane of padding.
const KEY_SLOTS: usize = shuai_board::MAX_MOVES + LANES;
/// The key of the padding after the moves and of a move handed out: it
/// loses to every other.
const SPENT: i32 = i32::MIN;

/// The selection key of the move at `index` with `score`: the score
/// shifted up, the index reversed in the low bits, so that the largest key
/// is the largest score at the smallest index.
#[inline(always)]
fn key(score: i32, index: usize) -> i32 {
    (score << INDEX_BITS) | (INDEX_MASK - index as i32)
}

/// The score a key was made from.
#[inline(always)]
fn score_of(key: i32) -> i32 {
    key >> INDEX_BITS
}

/// Whether `m` captures in `pos`.
#[inline]
pub fn is_capture(pos: &Position, m: Move) -> bool {
    pos.piece_at(m.to()).is_some()
}

/// The SEE value of what `m` captures in `pos` (0 for a quiet move).
#[inline]
pub fn victim_value(pos: &Position, m: Move) -> i32 {
    pos.piece_at(m.to()).map_or(0, |p| see_value(p.kind()))
}

/// Most valuable victim, least valuable attacker.
#[inline]
fn mvv_lva(pos: &Position, m: Move) -> i32 {
    let victim = victim_value(pos, m);
    let attacker = pos.piece_at(m.from()).map_or(0, |p| see_value(p.kind()));
    victim * 16 - attacker / 16
}

/// A capture's place among captures: its victim first, then how often it
/// caused cutoffs (capture history, at half weight so that only a strong
/// record lifts a capture above one of a more valuable victim).
#[inline]
fn capture_score(pos: &Position, m: Move, history: &History) -> i32 {
    mvv_lva(pos, m) + history.capture(pos, m) / 2
}

/// Whether a capture is at least even by SEE, skipping SEE when the victim
/// is worth at least the attacker.
#[inline]
pub fn good_capture(pos: &Position, m: Move, threshold: i32) -> bool {
    let victim = victim_value(pos, m);
    let attacker = pos.piece_at(m.from()).map(|p| p.kind());
    let attacker_value = attacker.map_or(0, see_value);
    if attacker != Some(PieceKind::King) && victim - attacker_value >= threshold {
        return true;
    }
    pos.see_ge(m, threshold)
}

/// What a quiet move's place adds to its history score (Pikafish's quiet
/// ordering, both terms off at 0): a bonus for a check that does not hang
/// the checking piece by SEE, and for moving a piece off a point attacked
/// by a less valuable enemy piece (a malus for moving onto one), in
/// proportion to the piece's value. Made once per node, when its quiet
/// moves are first reached.
pub struct QuietExtras {
    check_bonus: i32,
    /// Per piece kind: the points enemy pieces worth less attack.
    threatened: [Bitboard; PieceKind::ALL.len()],
    /// Per piece kind: the score of one threat escaped (`threat_scale`
    /// hundredths of its SEE value), worked out once a node rather than
    /// once a move.
    threat_value: [i32; PieceKind::ALL.len()],
}

impl QuietExtras {
    /// The extras for the side to move in `pos`: `check_bonus` for a check,
    /// `threat_scale` hundredths of a piece's SEE value for each lesser
    /// attacker's threat escaped or entered (0: that term is off, and
    /// the threats are not even looked for).
    pub fn new(pos: &Position, check_bonus: i32, threat_scale: i32) -> QuietExtras {
        let mut threatened = [Bitboard::EMPTY; PieceKind::ALL.len()];
        if threat_scale != 0 {
            let them = !pos.side_to_move();
            let occ = pos.occupied();
            let attacks_of = |kind: PieceKind, f: &dyn Fn(Square) -> Bitboard| {
                pos.pieces(them, kind)
                    .into_iter()
                    .fold(Bitboard::EMPTY, |acc, sq| acc | f(sq))
            };
            let by_pawns = attacks_of(PieceKind::Pawn, &|sq| attacks::pawn(them, sq));
            let by_minors = by_pawns
                | attacks_of(PieceKind::Advisor, &attacks::advisor)
                | attacks_of(PieceKind::Elephant, &|sq| attacks::elephant(sq, occ));
            let by_majors = by_minors
                | attacks_of(PieceKind::Horse, &|sq| attacks::horse(sq, occ))
                | attacks_of(PieceKind::Cannon, &|sq| attacks::cannon_captures(sq, occ));
            for (kind, bb) in [
                (PieceKind::Advisor, by_pawns),
                (PieceKind::Elephant, by_pawns),
                (PieceKind::Horse, by_minors),
                (PieceKind::Cannon, by_minors),
                (PieceKind::Rook, by_majors),
            ] {
                threatened[kind.index()] = bb;
            }
        }
        let threat_value = PieceKind::ALL.map(|kind| see_value(kind) * threat_scale / 100);
        QuietExtras {
            check_bonus,
            threatened,
            threat_value,
        }
    }

    /// The extra score of the quiet move `m` of `piece` in `pos`.
    #[inline]
    pub fn score(&self, pos: &Position, piece: Piece, m: Move) -> i32 {
        let mut extra = 0;
        if self.check_bonus != 0 && pos.gives_check(m) && pos.see_ge(m, 0) {
            extra += self.check_bonus;
        }
        let threatened = self.threatened[piece.kind().index()];
        let steps = i32::from(threatened.has(m.from())) - i32::from(threatened.has(m.to()));
        extra += steps * self.threat_value[piece.kind().index()];
        extra
    }
}

/// What the picker knows beyond the position.
pub struct OrderingHints {
    /// The hash table's move, if legal here.
    pub tt_move: Option<Move>,
    /// Quiet moves that caused cutoffs at this ply in sibling nodes.
    pub killers: [Move; 2],
    /// The refutation of the opponent's last move.
    pub counter: Move,
}

/// Hands out the moves of a list, best first.
///
/// The moves stay where they were generated; each has a selection key
/// ([`key`]: its score with its index below it), and a move handed out gets
/// the key [`SPENT`]. So equal scores are always handed out in generation
/// order, whatever else the list holds (moves a search skips as illegal,
/// for one), without moving any move: bringing the chosen move forward and
/// shifting the ones it passed (which keeps that order too) cost a
/// `memmove` per move handed out, 3% of a search's time.
pub struct MovePicker {
    moves: MoveList,
    keys: [i32; KEY_SLOTS],
    /// Moves handed out so far.
    next: usize,
    /// Whether quiet moves still carry the pending mark.
    quiets_pending: bool,
}

impl Default for MovePicker {
    fn default() -> MovePicker {
        MovePicker::new()
    }
}

impl MovePicker {
    /// A picker with no moves yet: generate them into [`Self::moves_mut`],
    /// then score them with [`Self::score`] or [`Self::score_captures`].
    /// (The list lives in the picker from the start so that it is not
    /// copied in: passing it by value cost a `memcpy` of 264 bytes a node.)
    #[inline]
    pub fn new() -> MovePicker {
        MovePicker {
            moves: MoveList::new(),
            keys: [SPENT; KEY_SLOTS],
            next: 0,
            quiets_pending: false,
        }
    }

    /// The list to generate the moves into.
    #[inline]
    pub fn moves_mut(&mut self) -> &mut MoveList {
        &mut self.moves
    }

    /// Whether there are no moves at all.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Scores the moves, leaving quiet moves (other than killers and the
    /// counter move) to be scored when first reached.
    pub fn score(&mut self, pos: &Position, hints: &OrderingHints, history: &History) {
        for (i, (k, &m)) in self.keys.iter_mut().zip(self.moves.iter()).enumerate() {
            let score = if Some(m) == hints.tt_move {
                TT_MOVE
            } else if is_capture(pos, m) {
                // Good until `next` finds otherwise (see there).
                GOOD_CAPTURE + capture_score(pos, m, history)
            } else if m == hints.killers[0] {
                KILLER[0]
            } else if m == hints.killers[1] {
                KILLER[1]
            } else if m == hints.counter {
                COUNTER
            } else {
                QUIET_PENDING
            };
            *k = key(score, i);
        }
        self.quiets_pending = true;
    }

    /// Scores captures only, by victim and capture history (quiescence
    /// search; quiet evasions score 0).
    pub fn score_captures(&mut self, pos: &Position, history: &History) {
        for (i, (k, &m)) in self.keys.iter_mut().zip(self.moves.iter()).enumerate() {
            *k = key(capture_score(pos, m, history), i);
        }
    }

    /// The next move in `pos`, best first. `quiet_scorer` makes the
    /// function giving the history score of a quiet move; both are called
    /// (for all remaining quiet moves at once) only when the quiet moves
    /// are reached, so a node cut off before them looks up no history.
    #[inline]
    pub fn next<F: Fn(Move) -> i32>(
        &mut self,
        pos: &Position,
        quiet_scorer: impl FnOnce() -> F,
    ) -> Option<Move> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let mut best = self.best_remaining();
        // Captures wait in the good band until they lead, and only then
        // does SEE move a losing one down to the bad band, so SEE runs
        // only for captures a cutoff does not make moot. The order is the
        // same as with every capture placed by SEE at once: a capture that
        // does not lead loses to the leader in either band, and the
        // demoted one is the only score changed before the search again.
        while (GOOD_CAPTURE..TT_MOVE).contains(&score_of(self.keys[best])) {
            let m = self.moves[best];
            if good_capture(pos, m, 0) {
                break;
            }
            self.keys[best] += (BAD_CAPTURE - GOOD_CAPTURE) << INDEX_BITS;
            best = self.best_remaining();
        }
        if self.quiets_pending && score_of(self.keys[best]) == QUIET_PENDING {
            self.quiets_pending = false;
            let quiet_score = quiet_scorer();
            for i in 0..n {
                // Moves handed out are SPENT, never pending.
                if score_of(self.keys[i]) == QUIET_PENDING {
                    let score = quiet_score(self.moves[i]);
                    debug_assert!(score.abs() < QUIET_PENDING, "history out of its band");
                    self.keys[i] = key(score, i);
                }
            }
            best = self.best_remaining();
        }
        self.keys[best] = SPENT;
        self.next += 1;
        Some(self.moves[best])
    }

    /// Index of the best-scored move not handed out yet (there must be
    /// one).
    #[inline]
    fn best_remaining(&self) -> usize {
        // The largest key, the first index holding the largest score, in
        // one pass that the compiler vectorises. The pass runs over whole
        // lanes of `LANES` keys (the padding after the list is SPENT), so
        // no scalar loop handles a remainder. This runs once per move
        // handed out; the plain scan (a compare and two conditional moves
        // per move left) was an eighth of the search's instructions.
        let end = self.moves.len().next_multiple_of(LANES);
        let mut best = [SPENT; LANES];
        for keys in self.keys[..end].chunks_exact(LANES) {
            for lane in 0..LANES {
                best[lane] = best[lane].max(keys[lane]);
            }
        }
        let key = best.into_iter().fold(SPENT, i32::max);
        (INDEX_MASK - (key & INDEX_MASK)) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quiet_extras_reward_checks_and_escapes_and_punish_threatened_points() {
        // Red: king d0, rook c4 (attacked by the horse on b6), cannon g0.
        // Black: king e9, horse b6, a pawn over the river on f4 (which
        // attacks e4, g4 and f3).
        let pos = Position::from_fen("4k4/9/9/1n7/9/2R2p3/9/9/9/3K2C2 w - - 0 1").unwrap();
        let mv = |s: &str| pos.parse_move(s).unwrap();
        let rook = pos.piece_at(mv("c4c2").from()).unwrap();
        let cannon = pos.piece_at(mv("g0g4").from()).unwrap();
        let extras = QuietExtras::new(&pos, 5000, 100);
        // Off the horse's point: the rook's value.
        assert_eq!(extras.score(&pos, rook, mv("c4c2")), 900);
        // Off one threatened point onto another (the pawn's e4): nothing.
        assert_eq!(extras.score(&pos, rook, mv("c4e4")), 0);
        // A safe check along rank 9, escaping the horse as well.
        assert_eq!(extras.score(&pos, rook, mv("c4c9")), 5000 + 900);
        // The cannon onto the pawn's g4: its value taken.
        assert_eq!(extras.score(&pos, cannon, mv("g0g4")), -450);
        assert_eq!(extras.score(&pos, cannon, mv("g0g2")), 0);
        // Both terms off: nothing, and the threats are not looked for.
        let off = QuietExtras::new(&pos, 0, 0);
        assert_eq!(off.score(&pos, rook, mv("c4c9")), 0);
        assert_eq!(off.score(&pos, cannon, mv("g0g4")), 0);
    }

    #[test]
    fn selection_hands_out_equal_scores_in_list_order() {
        // A stable sort by score, best first: equal scores keep the order
        // of the list. The search's node counts depend on it, ties
        // included, and the search relies on the order of the legal moves
        // not depending on the illegal ones the list also holds.
        let scores: Vec<i32> = (0..100)
            .map(|i: i32| [5, -3, 5, 0, 7, 0, 5, -2_000_000, 1_900_000][(i * 7 % 9) as usize])
            .collect();
        for len in [1, 2, 3, 4, 5, 7, 8, 9, 31, 100] {
            let mut moves = MoveList::new();
            for i in 0..len {
                moves.push(Move::new(
                    shuai_board::Square::from_index(i / 90).unwrap(),
                    shuai_board::Square::from_index(i % 90).unwrap(),
                ));
            }
            let mut expected: Vec<(i32, Move)> = scores[..len]
                .iter()
                .copied()
                .zip(moves.iter().copied())
                .collect();
            expected.sort_by_key(|e| std::cmp::Reverse(e.0));
            let mut picker = MovePicker {
                moves,
                keys: [SPENT; KEY_SLOTS],
                next: 0,
                quiets_pending: false,
            };
            for (i, &score) in scores[..len].iter().enumerate() {
                picker.keys[i] = key(score, i);
            }
            let pos = Position::startpos();
            let order: Vec<Move> = std::iter::from_fn(|| picker.next(&pos, || |_| 0)).collect();
            let expected: Vec<Move> = expected.iter().map(|&(_, m)| m).collect();
            assert_eq!(order, expected, "{len} moves");
        }
    }

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
        let mut picker = MovePicker::new();
        *picker.moves_mut() = pos.legal_moves();
        picker.score(&pos, &hints, &History::new());
        let order: Vec<String> = std::iter::from_fn(|| picker.next(&pos, || |_| 0))
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

    /// The captures of `fen` in the order the picker hands them out, after
    /// `reward` was rewarded `times` times in capture history.
    fn captures_in_order(fen: &str, reward: &str, times: usize) -> Vec<String> {
        let pos = Position::from_fen(fen).unwrap();
        let mut history = History::new();
        for _ in 0..times {
            history.update_capture(&pos, pos.parse_move(reward).unwrap(), 1600);
        }
        let hints = OrderingHints {
            tt_move: None,
            killers: [Move::NULL; 2],
            counter: Move::NULL,
        };
        let mut picker = MovePicker::new();
        *picker.moves_mut() = pos.legal_moves();
        picker.score(&pos, &hints, &history);
        std::iter::from_fn(|| picker.next(&pos, || |_| 0))
            .filter(|&m| is_capture(&pos, m))
            .map(|m| m.to_string())
            .collect()
    }

    #[test]
    fn capture_history_orders_captures_of_equal_victims() {
        // Each rook can take a free pawn; by victim and attacker they tie.
        let fen = "3k5/9/9/9/p7p/9/9/9/9/R3K3R w";
        assert_eq!(captures_in_order(fen, "i0i5", 0), ["a0a5", "i0i5"]);
        assert_eq!(captures_in_order(fen, "i0i5", 1), ["i0i5", "a0a5"]);
    }

    #[test]
    fn capture_history_never_lifts_a_pawn_over_a_rook() {
        let fen = "3k5/9/9/9/r7p/9/9/9/9/R3K3R w";
        assert_eq!(captures_in_order(fen, "i0i5", 100), ["a0a5", "i0i5"]);
    }
}
