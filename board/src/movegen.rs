//! Legal move generation.
//!
//! Moves are generated per piece kind against a target mask and tested for
//! legality as they are added. Most moves need no real test: a move is only examined when
//! the king moves, the side is in check, the moving piece is one of the
//! points whose vacating can expose the king (the first two blockers on each
//! line from the king, the horse legs beside it), or it lands on an empty
//! point of a line from the king (where it could become a cannon screen).
//! Under a single check, moves that cannot answer it (a piece other than
//! the king or the checking cannon's screen landing neither on the checker
//! nor between it and the king, nor on a checking horse's leg) are not
//! generated at all.

use crate::attacks;
use crate::{Bitboard, KingShield, Move, MoveList, PieceKind, Position, Square};

/// Which moves to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenKind {
    /// Every legal move.
    All,
    /// Legal captures only.
    Captures,
    /// Legal non-captures only.
    Quiets,
}

impl Position {
    /// Every legal move of the side to move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(GenKind::All, &mut list);
        list
    }

    /// The legal captures of the side to move.
    pub fn legal_captures(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(GenKind::Captures, &mut list);
        list
    }

    /// The legal non-captures of the side to move.
    pub fn legal_quiets(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(GenKind::Quiets, &mut list);
        list
    }

    /// The legal moves when in check (every legal move is an evasion then);
    /// empty when not in check.
    pub fn check_evasions(&self) -> MoveList {
        let mut list = MoveList::new();
        if self.in_check() {
            self.generate(GenKind::All, &mut list);
        }
        list
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        !self.legal_moves().is_empty()
    }

    /// Number of legal moves (cheaper than keeping the list).
    #[inline]
    pub fn count_legal_moves(&self) -> usize {
        let mut list = MoveList::new();
        self.generate(GenKind::All, &mut list);
        list.len()
    }

    /// Appends the legal moves of `kind` to `list`.
    pub fn generate(&self, kind: GenKind, list: &mut MoveList) {
        self.generate_with_shield(kind, &self.king_shield(), list);
    }

    /// [`Position::generate`] with the king shield already computed (by
    /// [`Position::king_shield`] on this same position), for callers that
    /// needed it anyway to know whether they are in check.
    pub fn generate_with_shield(&self, kind: GenKind, shield: &KingShield, list: &mut MoveList) {
        // Each piece's targets are split once into those that need the full
        // legality test and those that do not, so the usual piece (no test
        // at all) pushes its moves without looking at each one. Under a
        // single check most pseudo-legal moves cannot answer it and are not
        // generated at all. Moves stay in generation order either way.
        self.for_each_piece(kind, |from, set| {
            let set = set & shield.answer_targets(from);
            let risky = shield.risky_targets(from, set);
            if risky.is_empty() {
                for to in set {
                    list.push(Move::new(from, to));
                }
            } else {
                for to in set {
                    let m = Move::new(from, to);
                    if !risky.has(to) || self.king_safe_after(m) {
                        list.push(m);
                    }
                }
            }
        });
    }

    /// [`Position::generate_with_shield`] without the full legality test of
    /// the risky moves: the same moves in the same order, plus those that
    /// leave the king attacked. A move `m` of the list is legal exactly
    /// when [`Position::legal_given`]`(shield, m)`. For a search, which
    /// plays only some of a node's moves (most nodes cut off after one or
    /// two, and pruned moves are never played), so that only the moves it
    /// plays pay for the test. An empty list still means no legal move;
    /// a non-empty one may hold none.
    pub fn generate_unverified(&self, kind: GenKind, shield: &KingShield, list: &mut MoveList) {
        self.for_each_piece(kind, |from, set| {
            for to in set & shield.answer_targets(from) {
                list.push(Move::new(from, to));
            }
        });
    }

    /// Whether `m`, one of the moves [`Position::generate_unverified`]
    /// gave with this `shield` (computed on this position), is legal.
    #[inline]
    pub fn legal_given(&self, shield: &KingShield, m: Move) -> bool {
        !shield.needs_test(m) || self.king_safe_after(m)
    }

    /// Appends the pseudo-legal moves of `kind` (legal by each piece's rules,
    /// perhaps leaving the king attacked).
    pub fn generate_pseudo(&self, kind: GenKind, list: &mut MoveList) {
        self.for_each_piece(kind, |from, set| {
            for to in set {
                list.push(Move::new(from, to));
            }
        });
    }

    /// Calls `visit` with each piece of the side to move and the points it
    /// may move to for moves of `kind` (pseudo-legal: the king may be left
    /// attacked), in the generator's fixed order.
    #[inline]
    fn for_each_piece(&self, kind: GenKind, mut visit: impl FnMut(Square, Bitboard)) {
        let us = self.side_to_move();
        let occ = self.occupied();
        let ours = self.color_bb(us);
        let theirs = self.color_bb(!us);
        let targets = match kind {
            GenKind::All => !ours,
            GenKind::Captures => theirs,
            GenKind::Quiets => !occ,
        };
        let mut push_all = |from, set: Bitboard| visit(from, set & targets);
        for from in self.pieces(us, PieceKind::Rook) {
            push_all(from, attacks::rook(from, occ));
        }
        for from in self.pieces(us, PieceKind::Cannon) {
            let mut set = Bitboard::EMPTY;
            if kind != GenKind::Captures {
                set |= attacks::rook(from, occ) & !occ;
            }
            if kind != GenKind::Quiets {
                set |= attacks::cannon_captures(from, occ) & theirs;
            }
            push_all(from, set);
        }
        for from in self.pieces(us, PieceKind::Horse) {
            push_all(from, attacks::horse(from, occ));
        }
        for from in self.pieces(us, PieceKind::Pawn) {
            push_all(from, attacks::pawn(us, from));
        }
        for from in self.pieces(us, PieceKind::Elephant) {
            push_all(from, attacks::elephant(from, occ));
        }
        for from in self.pieces(us, PieceKind::Advisor) {
            push_all(from, attacks::advisor(from));
        }
        for from in self.pieces(us, PieceKind::King) {
            push_all(from, attacks::king(from));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{GenKind, MoveList, Position};

    /// The legal moves found the slow way: every pseudo-legal move played
    /// and the king looked at.
    fn slow_legal(pos: &mut Position) -> Vec<crate::Move> {
        let us = pos.side_to_move();
        let mut pseudo = MoveList::new();
        pos.generate_pseudo(GenKind::All, &mut pseudo);
        pseudo
            .iter()
            .copied()
            .filter(|&m| {
                pos.make_move(m);
                let safe = !pos.king_attacked(us);
                pos.unmake_move();
                safe
            })
            .collect()
    }

    #[test]
    fn single_checks_keep_every_answer() {
        for fen in [
            // Cannon check through our rook: the rook steps off the file,
            // takes the cannon, or a piece adds a second screen.
            "3k5/9/4c4/9/9/9/9/4R4/2H6/4K4 w",
            // Cannon check through their pawn: take the screen or block.
            "3k5/9/4c4/9/9/4p4/9/R8/9/4K4 w",
            // Horse check: take the horse or block its leg.
            "3k5/9/9/9/9/9/9/3n5/9/R3K3H w",
            // Rook check along the rank, with a pinned-looking horse.
            "3k5/9/9/9/9/9/9/9/4H4/r3K3R w",
        ] {
            let mut pos = Position::from_fen(fen).unwrap();
            assert!(pos.in_check(), "{fen}");
            let fast: Vec<_> = pos.legal_moves().iter().copied().collect();
            assert_eq!(fast, slow_legal(&mut pos), "{fen}");
            assert!(!fast.is_empty(), "{fen}");
        }
    }
}
