//! Static exchange evaluation: the material outcome of the exchange a
//! capture starts on its target point, both sides always recapturing with
//! their least valuable attacker and free to stop when ahead.

use crate::{Bitboard, Move, PieceKind, Position};

/// Piece values used by SEE, in centipawns. The king's value is only a
/// sentinel: it may capture last, never into an attacked point.
pub const SEE_VALUES: [i32; 7] = [10_000, 200, 200, 400, 900, 450, 100];

/// The SEE value of a piece kind.
#[inline]
pub const fn see_value(kind: PieceKind) -> i32 {
    SEE_VALUES[kind.index()]
}

impl Position {
    /// The expected material gain of `m` for the side to move after the
    /// exchange on `m.to()`. Quiet moves score the loss of the moved piece if
    /// the point is attacked and the exchange goes badly. Pins are ignored;
    /// cannon screens are recomputed as pieces leave the board.
    pub fn see(&self, m: Move) -> i32 {
        let (from, to) = (m.from(), m.to());
        let Some(mover) = self.piece_at(from) else {
            return 0;
        };
        let mut gain = [0i32; 40];
        gain[0] = self.piece_at(to).map_or(0, |p| see_value(p.kind()));
        let mut occ = self.occupied().without(from).with(to);
        let mut on_target = see_value(mover.kind());
        let mut side = !self.side_to_move();
        let mut used = Bitboard::from_square(from);
        let mut depth = 0;
        loop {
            let attackers = self.attackers_to(to, side, occ) & !used;
            let Some((sq, value)) = self.least_valuable(attackers) else {
                break;
            };
            // A king may only take when the other side has nothing left.
            if value == see_value(PieceKind::King)
                && (self.attackers_to(to, !side, occ.without(sq)) & !used).any()
            {
                break;
            }
            depth += 1;
            gain[depth] = on_target - gain[depth - 1];
            on_target = value;
            occ = occ.without(sq);
            used = used.with(sq);
            side = !side;
            if depth + 1 >= gain.len() {
                break;
            }
        }
        while depth > 0 {
            gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
            depth -= 1;
        }
        gain[0]
    }

    /// Whether the SEE of `m` is at least `threshold`.
    #[inline]
    pub fn see_ge(&self, m: Move, threshold: i32) -> bool {
        self.see(m) >= threshold
    }

    fn least_valuable(&self, attackers: Bitboard) -> Option<(crate::Square, i32)> {
        const ORDER: [PieceKind; 7] = [
            PieceKind::Pawn,
            PieceKind::Advisor,
            PieceKind::Elephant,
            PieceKind::Horse,
            PieceKind::Cannon,
            PieceKind::Rook,
            PieceKind::King,
        ];
        ORDER.iter().find_map(|&k| {
            (attackers & self.kind_bb(k))
                .first()
                .map(|sq| (sq, see_value(k)))
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::Position;

    fn see(fen: &str, mv: &str) -> i32 {
        let pos = Position::from_fen(fen).unwrap();
        let m = pos.parse_move(mv).unwrap();
        pos.see(m)
    }

    #[test]
    fn free_capture_wins_the_piece() {
        // Red rook takes an undefended black horse.
        assert_eq!(see("3k5/9/9/9/4n4/9/9/9/9/R3K4 w", "a0a5"), 0);
        assert_eq!(see("3k5/9/9/9/n8/9/9/9/9/R3K4 w", "a0a5"), 400);
    }

    #[test]
    fn defended_piece_costs_the_attacker() {
        // Rook takes a horse defended by a rook: +400 - 900.
        assert_eq!(see("r2k5/9/9/9/n8/9/9/9/9/R3K4 w", "a0a5"), -500);
        // Pawn takes a defended horse: wins horse, loses pawn.
        assert_eq!(see("3k5/9/9/r8/n8/P8/9/9/9/4K4 w", "a4a5"), 300);
    }

    #[test]
    fn cannon_screens_change_during_the_exchange() {
        // Red cannon on a0 takes the pawn on a5 using the horse on a3 as the
        // screen; black rook a9 recaptures; the red rook behind is blocked
        // by the horse, so Red loses its cannon for a pawn.
        assert_eq!(see("r2k5/9/9/9/p8/9/N8/9/C8/R3K4 w", "a1a5"), 100 - 450);
    }
}
