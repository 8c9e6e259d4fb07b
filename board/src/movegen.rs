//! Legal move generation.
//!
//! Moves are generated per piece kind against a target mask, then filtered
//! for legality. Most moves need no real test: a move is only examined when
//! the king moves, the side is in check, the moving piece is one of the
//! points whose vacating can expose the king (the first two blockers on each
//! line from the king, the horse legs beside it), or it lands on an empty
//! point of a line from the king (where it could become a cannon screen).
//! Under a single check, moves that cannot answer it (a piece other than
//! the king or the checking cannon's screen landing neither on the checker
//! nor between it and the king, nor on a checking horse's leg) are not
//! generated at all.

use crate::attacks;
use crate::{Bitboard, KingShield, Move, MoveList, PieceKind, Position};

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
        let start = list.len();
        // Under a single check most pseudo-legal moves cannot answer it;
        // skipping them before the legality test saves most of the test's
        // cost in those nodes.
        self.generate_targets(kind, Some(shield), list);
        let moves = list.as_mut_slice();
        let mut kept = start;
        for i in start..moves.len() {
            let m = moves[i];
            let safe = !shield.is_risky(m.from(), m.to()) || self.king_safe_after(m);
            if safe {
                moves[kept] = m;
                kept += 1;
            }
        }
        list.truncate(kept);
    }

    /// Appends the pseudo-legal moves of `kind` (legal by each piece's rules,
    /// perhaps leaving the king attacked).
    pub fn generate_pseudo(&self, kind: GenKind, list: &mut MoveList) {
        self.generate_targets(kind, None, list);
    }

    /// [`Position::generate_pseudo`], leaving out the moves that `shield`
    /// shows cannot answer a check (if given).
    #[inline]
    fn generate_targets(&self, kind: GenKind, shield: Option<&KingShield>, list: &mut MoveList) {
        let us = self.side_to_move();
        let occ = self.occupied();
        let ours = self.color_bb(us);
        let theirs = self.color_bb(!us);
        let targets = match kind {
            GenKind::All => !ours,
            GenKind::Captures => theirs,
            GenKind::Quiets => !occ,
        };
        let mut push_all = |from, set: Bitboard| {
            let allowed = shield.map_or(Bitboard::FULL, |s| s.answer_targets(from));
            for to in set & targets & allowed {
                list.push(Move::new(from, to));
            }
        };
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
