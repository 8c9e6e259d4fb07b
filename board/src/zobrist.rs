//! Zobrist hashing keys, generated at compile time from a fixed seed so that
//! every build and every run hashes a position the same way.

use crate::rng::splitmix64;
use crate::{Piece, Square, SQUARES};

const SEED: u64 = 0x5348_5541_495F_5851; // "SHUAI_XQ"

struct Keys {
    pieces: [[u64; SQUARES]; Piece::COUNT],
    black_to_move: u64,
}

static KEYS: Keys = {
    let mut pieces = [[0u64; SQUARES]; Piece::COUNT];
    let mut state = SEED;
    let mut p = 0;
    while p < Piece::COUNT {
        let mut s = 0;
        while s < SQUARES {
            let (next, key) = splitmix64(state);
            state = next;
            pieces[p][s] = key;
            s += 1;
        }
        p += 1;
    }
    let (_, black_to_move) = splitmix64(state);
    Keys {
        pieces,
        black_to_move,
    }
};

/// The key of `piece` standing on `sq`.
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    KEYS.pieces[piece.index()][sq.index()]
}

/// The key XORed in when Black is to move.
#[inline]
pub fn side_key() -> u64 {
    KEYS.black_to_move
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut seen = HashSet::new();
        for p in 0..Piece::COUNT {
            for s in 0..SQUARES {
                let k = KEYS.pieces[p][s];
                assert_ne!(k, 0);
                assert!(seen.insert(k));
            }
        }
        assert!(seen.insert(side_key()));
    }
}
