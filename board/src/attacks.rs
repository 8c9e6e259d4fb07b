//! Attack sets of every piece kind, from tables computed at compile time.
//!
//! Rooks and cannons look sideways through a table indexed by the nine
//! occupancy bits of their rank (a shift and a mask away in the `u128`),
//! and up and down the file by the classical ray method: one precomputed
//! ray per direction and the nearest blocker on it. The rank table
//! measured 4% fewer instructions than scanning rays in all four
//! directions; a file's ten points are nine bits apart, so its occupancy is
//! not contiguous and the ray method stays. Northwards the nearest blocker
//! is the lowest set bit, which two's complement arithmetic isolates
//! without a bit scan; southwards it takes one. Both work with any
//! occupancy, which the legality test relies on (it asks about positions
//! after a move without making it).
//!
//! Horse and elephant tables store, per point, each blocking point (leg or
//! eye) with the targets it guards. "Which horses attack this point" has its
//! own table because a horse's leg is next to the horse, not to its target.

use crate::{Bitboard, Color, Square, SQUARES};

const NORTH: usize = 0;
const EAST: usize = 1;
const SOUTH: usize = 2;
const WEST: usize = 3;
const STEPS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const DIAGONALS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];

const fn bit(file: i32, rank: i32) -> u128 {
    match Square::from_coords(file, rank) {
        Some(sq) => 1u128 << sq.index(),
        None => 0,
    }
}

const fn coords(i: usize) -> (i32, i32) {
    ((i % 9) as i32, (i / 9) as i32)
}

const fn in_palace(file: i32, rank: i32) -> bool {
    file >= 3 && file <= 5 && (rank <= 2 || rank >= 7)
}

/// Rays from each point in the four directions, excluding the point itself.
static RAYS: [[u128; SQUARES]; 4] = {
    let mut rays = [[0u128; SQUARES]; 4];
    let mut dir = 0;
    while dir < 4 {
        let mut i = 0;
        while i < SQUARES {
            let (mut f, mut r) = coords(i);
            loop {
                f += STEPS[dir].0;
                r += STEPS[dir].1;
                let b = bit(f, r);
                if b == 0 {
                    break;
                }
                rays[dir][i] |= b;
            }
            i += 1;
        }
        dir += 1;
    }
    rays
};

/// `RANK_LINES[file][occupancy of the rank]`: for a piece on `file`, the
/// rook targets (bits 0..9) and, shifted by 16, the cannon capture targets
/// along its rank. Nine bits of occupancy index the table directly, so
/// sideways attacks need no bit scan.
static RANK_LINES: [[u32; 512]; 9] = {
    let mut table = [[0u32; 512]; 9];
    let mut f = 0;
    while f < 9 {
        let mut occ = 0;
        while occ < 512 {
            let mut rook = 0u32;
            let mut cannon = 0u32;
            let mut side = 0;
            while side < 2 {
                let step: i32 = if side == 0 { 1 } else { -1 };
                let mut x = f as i32 + step;
                let mut screens = 0;
                while x >= 0 && x < 9 {
                    let occupied = (occ >> x) & 1 == 1;
                    if screens == 0 {
                        rook |= 1 << x;
                    }
                    if occupied {
                        screens += 1;
                        if screens == 2 {
                            cannon |= 1 << x;
                            break;
                        }
                    }
                    x += step;
                }
                side += 1;
            }
            table[f][occ] = rook | cannon << 16;
            occ += 1;
        }
        f += 1;
    }
    table
};

/// Along the rank of `sq` given `occ`: the rook targets and the cannon
/// capture targets.
#[inline]
pub(crate) fn rank_lines(sq: Square, occ: Bitboard) -> (Bitboard, Bitboard) {
    let shift = sq.rank().index() * 9;
    let entry = RANK_LINES[sq.file().index()][(occ.0 >> shift) as usize & 0x1FF];
    (
        Bitboard(u128::from(entry & 0x1FF) << shift),
        Bitboard(u128::from(entry >> 16) << shift),
    )
}

/// The highest point of a non-empty set, as a one-point set.
#[inline]
fn highest(set: u128) -> u128 {
    debug_assert!(set != 0);
    1u128 << (127 - set.leading_zeros())
}

/// Along the file of `sq` given `occ`, both ways: the nearest occupied
/// points (rook and flying-general targets that are occupied) and the
/// occupied points just beyond them (cannon capture targets).
///
/// Northwards the nearest point is the lowest set bit, which two's
/// complement isolates without a bit scan; southwards it is the highest,
/// which needs one.
#[inline]
pub(crate) fn file_screens(sq: Square, occ: Bitboard) -> (Bitboard, Bitboard) {
    let s = sq.index();
    let north = RAYS[NORTH][s] & occ.0;
    let n1 = north & north.wrapping_neg();
    let rest = north ^ n1;
    let n2 = rest & rest.wrapping_neg();
    let south = RAYS[SOUTH][s] & occ.0;
    if south == 0 {
        return (Bitboard(n1), Bitboard(n2));
    }
    let s1 = highest(south);
    let rest = south ^ s1;
    let s2 = if rest == 0 { 0 } else { highest(rest) };
    (Bitboard(n1 | s1), Bitboard(n2 | s2))
}

static KING_STEPS: [u128; SQUARES] = {
    let mut table = [0u128; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let (f, r) = coords(i);
        if in_palace(f, r) {
            let mut d = 0;
            while d < 4 {
                let (tf, tr) = (f + STEPS[d].0, r + STEPS[d].1);
                // Both palaces are 3×3 and far apart, so staying inside "a"
                // palace means staying inside the same one.
                if in_palace(tf, tr) {
                    table[i] |= bit(tf, tr);
                }
                d += 1;
            }
        }
        i += 1;
    }
    table
};

static ADVISOR_STEPS: [u128; SQUARES] = {
    let mut table = [0u128; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let (f, r) = coords(i);
        if in_palace(f, r) {
            let mut d = 0;
            while d < 4 {
                let (tf, tr) = (f + DIAGONALS[d].0, r + DIAGONALS[d].1);
                if in_palace(tf, tr) {
                    table[i] |= bit(tf, tr);
                }
                d += 1;
            }
        }
        i += 1;
    }
    table
};

/// Per point and diagonal: the elephant's eye (as a one-point set) and the
/// target beyond it, restricted to the half of the board the point is on.
/// Both are empty where there is no move, so an empty eye never blocks an
/// empty target.
///
/// Blocking points are stored as sets rather than indices because testing
/// a `u128` against a mask is a few instructions, while shifting it by a
/// variable index is several more (the same holds for the horse tables).
static ELEPHANT: [[(u128, u128); 4]; SQUARES] = {
    let mut table = [[(0u128, 0u128); 4]; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let (f, r) = coords(i);
        let mut d = 0;
        while d < 4 {
            let (tf, tr) = (f + 2 * DIAGONALS[d].0, r + 2 * DIAGONALS[d].1);
            let same_half = (r <= 4) == (tr <= 4);
            let target = bit(tf, tr);
            if target != 0 && same_half {
                table[i][d] = (bit(f + DIAGONALS[d].0, r + DIAGONALS[d].1), target);
            }
            d += 1;
        }
        i += 1;
    }
    table
};

/// Per point and orthogonal leg: the leg (a one-point set) and the two
/// targets it guards; both empty where no move goes that way.
static HORSE: [[(u128, u128); 4]; SQUARES] = {
    let mut table = [[(0u128, 0u128); 4]; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let (f, r) = coords(i);
        let mut d = 0;
        while d < 4 {
            let (sf, sr) = STEPS[d];
            let leg = bit(f + sf, r + sr);
            // Two steps along the leg direction, one step to either side.
            let t = bit(f + 2 * sf + sr, r + 2 * sr + sf) | bit(f + 2 * sf - sr, r + 2 * sr - sf);
            if leg != 0 && t != 0 {
                table[i][d] = (leg, t);
            }
            d += 1;
        }
        i += 1;
    }
    table
};

/// Per point, the union over its four paths of the blocking points (if
/// `blocks`) or of the targets, of a (block, targets) table.
const fn path_union(table: &[[(u128, u128); 4]; SQUARES], blocks: bool) -> [u128; SQUARES] {
    let mut out = [0u128; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let mut d = 0;
        while d < 4 {
            let (block, targets) = table[i][d];
            out[i] |= if blocks { block } else { targets };
            d += 1;
        }
        i += 1;
    }
    out
}

/// Per point: every target of a horse there on an empty board, to rule
/// out a horse check before looking at its legs.
static HORSE_REACH: [u128; SQUARES] = path_union(&HORSE, false);

/// Per point and diagonal neighbour: that neighbour (the leg of any horse
/// attacking through it, as a one-point set) and the two horse points that
/// attack through it; both empty where no horse can.
static HORSE_ATTACKERS: [[(u128, u128); 4]; SQUARES] = {
    let mut table = [[(0u128, 0u128); 4]; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let (f, r) = coords(i);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIAGONALS[d];
            let leg = bit(f + df, r + dr);
            let s = bit(f + 2 * df, r + dr) | bit(f + df, r + 2 * dr);
            if leg != 0 && s != 0 {
                table[i][d] = (leg, s);
            }
            d += 1;
        }
        i += 1;
    }
    table
};

const fn pawn_steps(color: usize, i: usize) -> u128 {
    let (f, r) = coords(i);
    let forward = if color == 0 { 1 } else { -1 };
    let crossed = if color == 0 { r >= 5 } else { r <= 4 };
    let mut t = bit(f, r + forward);
    if crossed {
        t |= bit(f - 1, r) | bit(f + 1, r);
    }
    t
}

/// `PAWN[color][sq]`: where a pawn of `color` on `sq` may step.
static PAWN: [[u128; SQUARES]; 2] = {
    let mut table = [[0u128; SQUARES]; 2];
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < SQUARES {
            table[c][i] = pawn_steps(c, i);
            i += 1;
        }
        c += 1;
    }
    table
};

/// `PAWN_ATTACKERS[color][sq]`: the points from which a pawn of `color` attacks `sq`.
static PAWN_ATTACKERS: [[u128; SQUARES]; 2] = {
    let mut table = [[0u128; SQUARES]; 2];
    let mut c = 0;
    while c < 2 {
        let mut from = 0;
        while from < SQUARES {
            let targets = pawn_steps(c, from);
            let mut to = 0;
            while to < SQUARES {
                if targets >> to & 1 != 0 {
                    table[c][to] |= 1u128 << from;
                }
                to += 1;
            }
            from += 1;
        }
        c += 1;
    }
    table
};

/// `CHECK_ZONES[king][point]`: bit [`LANDS_NEAR_KING`] when a piece landing
/// on `point` could check a king on `king` directly or become a cannon's
/// screen (the king's file and rank, a horse's reach, either colour's
/// pawn attackers); bit [`LEAVES_NEAR_KING`] when a piece leaving `point`
/// could uncover a check (the file and rank, the horse legs). A byte per
/// pair, so [`may_give_check`] is two loads and no 128-bit shifts.
static CHECK_ZONES: [[u8; SQUARES]; SQUARES] = {
    let mut zones = [[0u8; SQUARES]; SQUARES];
    let mut king = 0;
    while king < SQUARES {
        let lines = RAYS[0][king] | RAYS[1][king] | RAYS[2][king] | RAYS[3][king];
        let landing = lines | HORSE_REACH[king] | PAWN_ATTACKERS[0][king] | PAWN_ATTACKERS[1][king];
        let leaving = lines | HORSE_ATTACKER_LEGS[king];
        let mut sq = 0;
        while sq < SQUARES {
            if landing >> sq & 1 != 0 {
                zones[king][sq] |= LANDS_NEAR_KING;
            }
            if leaving >> sq & 1 != 0 {
                zones[king][sq] |= LEAVES_NEAR_KING;
            }
            sq += 1;
        }
        king += 1;
    }
    zones
};

/// See [`CHECK_ZONES`].
const LANDS_NEAR_KING: u8 = 1;

/// See [`CHECK_ZONES`].
const LEAVES_NEAR_KING: u8 = 2;

/// Whether a move from `from` to `to` can give check to a king on `king`
/// at all: false when it neither lands where any piece could check or
/// screen nor leaves where it could uncover a check. Most moves are far
/// from the enemy king, and this rules them out with two byte loads
/// before the full test reads any line.
#[inline]
pub(crate) fn may_give_check(king: Square, from: Square, to: Square) -> bool {
    let zones = &CHECK_ZONES[king.index()];
    (zones[to.index()] & LANDS_NEAR_KING) | (zones[from.index()] & LEAVES_NEAR_KING) != 0
}

#[inline]
fn nearest(dir: usize, blockers: u128) -> usize {
    if dir == NORTH || dir == EAST {
        blockers.trailing_zeros() as usize
    } else {
        127 - blockers.leading_zeros() as usize
    }
}

/// The four line directions, for code that walks rays itself.
pub(crate) const DIRECTIONS: [usize; 4] = [NORTH, EAST, SOUTH, WEST];

/// Whether `dir` runs along a file (the flying-general line).
#[inline]
pub(crate) const fn is_vertical(dir: usize) -> bool {
    dir == NORTH || dir == SOUTH
}

/// The points from `sq` in direction `dir`, excluding `sq`.
#[inline]
pub(crate) fn ray(dir: usize, sq: Square) -> Bitboard {
    Bitboard(RAYS[dir][sq.index()])
}

/// The point of the non-empty `set` (a subset of a ray in `dir`) nearest
/// the ray's origin.
#[inline]
pub(crate) fn nearest_on_ray(dir: usize, set: Bitboard) -> Square {
    debug_assert!(set.any());
    Square::from_index_unchecked(nearest(dir, set.0))
}

/// Per point: its diagonal neighbours, the legs of the horses that may
/// attack it.
static HORSE_ATTACKER_LEGS: [u128; SQUARES] = path_union(&HORSE_ATTACKERS, true);

/// Per diagonal neighbour of `sq`: the neighbour (a horse leg, as a
/// one-point set) and the points from which a horse attacks `sq` through
/// it. Both sets are empty for a neighbour no horse can use.
#[inline]
pub(crate) fn horse_attack_paths(sq: Square) -> impl Iterator<Item = (Bitboard, Bitboard)> {
    HORSE_ATTACKERS[sq.index()]
        .into_iter()
        .map(|(leg, sources)| (Bitboard(leg), Bitboard(sources)))
}

/// Sets the points of `paths` (leg, targets) whose leg is empty in `occ`.
#[inline]
fn unblocked(paths: &[(u128, u128); 4], occ: u128) -> u128 {
    let mut set = 0;
    for &(block, targets) in paths {
        if occ & block == 0 {
            set |= targets;
        }
    }
    set
}

/// The other points of the file of `sq`.
#[inline]
pub(crate) fn file_through(sq: Square) -> Bitboard {
    Bitboard(RAYS[NORTH][sq.index()] | RAYS[SOUTH][sq.index()])
}

/// The other points of the rank of `sq`.
#[inline]
pub(crate) fn rank_through(sq: Square) -> Bitboard {
    Bitboard(RAYS[EAST][sq.index()] | RAYS[WEST][sq.index()])
}

/// Points a rook on `sq` attacks (moves to or captures on) given `occupied`.
///
/// The result includes the first occupied point in each direction, whatever
/// its colour; callers mask out their own pieces.
#[inline]
pub fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
    let (sideways, _) = rank_lines(sq, occupied);
    file_line(sq, occupied) | sideways
}

/// Points a rook on `sq` attacks along its file only (the flying-general line).
#[inline]
pub fn file_line(sq: Square, occupied: Bitboard) -> Bitboard {
    let s = sq.index();
    let occ = occupied.0;
    // Northwards: the ray up to its lowest occupied point. `b ^ (b - 1)`
    // sets every bit up to the lowest set bit of `b`, and all bits when `b`
    // is empty, so no bit scan or branch is needed.
    let north = RAYS[NORTH][s];
    let blockers = north & occ;
    let mut attacks = north & (blockers ^ blockers.wrapping_sub(1));
    let south = RAYS[SOUTH][s];
    let blockers = south & occ;
    attacks |= if blockers == 0 {
        south
    } else {
        south ^ RAYS[SOUTH][nearest(SOUTH, blockers)]
    };
    Bitboard(attacks)
}

/// Points a cannon on `sq` can capture on given `occupied`: in each direction
/// the first occupied point beyond the first occupied point (the screen).
///
/// Cannons attack symmetrically, so this is also the set of points from which
/// a cannon would attack `sq`.
#[inline]
pub fn cannon_captures(sq: Square, occupied: Bitboard) -> Bitboard {
    let (_, sideways) = rank_lines(sq, occupied);
    let (_, beyond_screens) = file_screens(sq, occupied);
    sideways | beyond_screens
}

/// Points a king on `sq` steps to (inside its palace).
#[inline]
pub fn king(sq: Square) -> Bitboard {
    Bitboard(KING_STEPS[sq.index()])
}

/// Points an advisor on `sq` steps to (inside its palace).
#[inline]
pub fn advisor(sq: Square) -> Bitboard {
    Bitboard(ADVISOR_STEPS[sq.index()])
}

/// Points an elephant on `sq` reaches given `occupied` (eyes block), without
/// crossing the river. Elephant moves are symmetric, so this also answers
/// "which elephants attack `sq`".
#[inline]
pub fn elephant(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(unblocked(&ELEPHANT[sq.index()], occupied.0))
}

/// Points a horse on `sq` attacks given `occupied` (legs block).
#[inline]
pub fn horse(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(unblocked(&HORSE[sq.index()], occupied.0))
}

/// Points from which a horse would attack `sq` given `occupied`. The legs
/// that matter are the diagonal neighbours of `sq`, not its orthogonal ones.
#[inline]
pub fn horse_attackers(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(unblocked(&HORSE_ATTACKERS[sq.index()], occupied.0))
}

/// The four diagonal neighbours of `sq`: the legs of every horse that could
/// attack `sq`.
#[inline]
pub fn horse_attacker_legs(sq: Square) -> Bitboard {
    Bitboard(HORSE_ATTACKER_LEGS[sq.index()])
}

/// Points a horse on `sq` would attack on an empty board (no leg blocked).
#[inline]
pub fn horse_reach(sq: Square) -> Bitboard {
    Bitboard(HORSE_REACH[sq.index()])
}

/// Points a pawn of `color` on `sq` attacks (forward; sideways once across).
#[inline]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

/// Points from which a pawn of `color` attacks `sq`.
#[inline]
pub fn pawn_attackers(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN_ATTACKERS[color.index()][sq.index()])
}

/// The points strictly between `a` and `b` when they share a file or rank;
/// empty otherwise.
pub fn between(a: Square, b: Square) -> Bitboard {
    let (s, t) = (a.index(), b.index());
    for dir in [NORTH, EAST, SOUTH, WEST] {
        if RAYS[dir][s] >> t & 1 != 0 {
            return Bitboard(RAYS[dir][s] & !RAYS[dir][t] & !(1u128 << t));
        }
    }
    Bitboard::EMPTY
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    fn set(points: &[&str]) -> Bitboard {
        points.iter().map(|p| sq(p)).collect()
    }

    /// A slow, obviously correct slider walk to check the ray code against.
    fn walk(from: Square, occ: Bitboard, cannon: bool) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for (df, dr) in STEPS {
            let mut screens = 0;
            let mut cur = from;
            while let Some(next) = cur.offset(df, dr) {
                cur = next;
                if !cannon {
                    out = out.with(cur);
                    if occ.has(cur) {
                        break;
                    }
                } else if occ.has(cur) {
                    screens += 1;
                    if screens == 2 {
                        out = out.with(cur);
                        break;
                    }
                }
            }
        }
        out
    }

    #[test]
    fn sliders_match_a_slow_walk_on_random_occupancies() {
        let mut rng = crate::Rng::new(0x9E37_79B9_7F4A_7C15);
        for _ in 0..2000 {
            let a = rng.next_u64() as u128;
            let seed = rng.next_u64();
            // Sparse-ish occupancies: AND of two random words.
            let occ =
                Bitboard::from_bits(a & ((seed as u128) << 64 | seed as u128) & (a >> 3 | a << 40));
            for from in Square::all() {
                assert_eq!(rook(from, occ), walk(from, occ, false));
                assert_eq!(cannon_captures(from, occ), walk(from, occ, true));
            }
        }
    }

    #[test]
    fn horse_legs_block() {
        assert_eq!(horse(sq("b0"), Bitboard::EMPTY), set(&["a2", "c2", "d1"]));
        assert_eq!(horse(sq("b0"), set(&["b1"])), set(&["d1"]));
        assert_eq!(horse(sq("b0"), set(&["c0"])), set(&["a2", "c2"]));
        assert_eq!(horse(sq("e4"), Bitboard::EMPTY).count(), 8);
    }

    #[test]
    fn horse_attackers_are_the_reverse_of_horse_attacks() {
        let mut seed = 12345u64;
        for _ in 0..300 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let occ = Bitboard::from_bits((seed as u128) << 40 ^ (seed as u128) << 3);
            for target in Square::all() {
                let slow: Bitboard = Square::all()
                    .filter(|&h| horse(h, occ).has(target))
                    .collect();
                assert_eq!(horse_attackers(target, occ), slow, "target {target}");
            }
        }
    }

    #[test]
    fn elephants_stay_home_and_respect_eyes() {
        assert_eq!(elephant(sq("c0"), Bitboard::EMPTY), set(&["a2", "e2"]));
        assert_eq!(elephant(sq("c4"), Bitboard::EMPTY), set(&["a2", "e2"]));
        assert_eq!(elephant(sq("c4"), set(&["d3"])), set(&["a2"]));
        assert_eq!(elephant(sq("g5"), Bitboard::EMPTY), set(&["e7", "i7"]));
    }

    #[test]
    fn palace_pieces() {
        assert_eq!(king(sq("e0")), set(&["d0", "f0", "e1"]));
        assert_eq!(king(sq("d2")), set(&["d1", "e2"]));
        assert_eq!(advisor(sq("e1")), set(&["d0", "f0", "d2", "f2"]));
        assert_eq!(advisor(sq("d9")), set(&["e8"]));
        assert_eq!(advisor(sq("a0")), Bitboard::EMPTY);
    }

    #[test]
    fn pawns_before_and_after_the_river() {
        assert_eq!(pawn(Color::Red, sq("c3")), set(&["c4"]));
        assert_eq!(pawn(Color::Red, sq("c5")), set(&["c6", "b5", "d5"]));
        assert_eq!(pawn(Color::Red, sq("a9")), set(&["b9"]));
        assert_eq!(pawn(Color::Black, sq("c6")), set(&["c5"]));
        assert_eq!(pawn(Color::Black, sq("c4")), set(&["c3", "b4", "d4"]));
        assert_eq!(
            pawn_attackers(Color::Red, sq("c6")),
            set(&["c5", "b6", "d6"])
        );
        assert_eq!(
            pawn_attackers(Color::Red, sq("c5")),
            set(&["c4", "b5", "d5"])
        );
        assert_eq!(pawn_attackers(Color::Red, sq("c4")), set(&["c3"]));
    }

    #[test]
    fn between_points() {
        assert_eq!(between(sq("e0"), sq("e4")), set(&["e1", "e2", "e3"]));
        assert_eq!(between(sq("a3"), sq("d3")), set(&["b3", "c3"]));
        assert_eq!(between(sq("a3"), sq("d4")), Bitboard::EMPTY);
    }
}
