//! Every weight of the evaluation, in one struct, readable and writable as a
//! flat parameter vector for tuning.
//!
//! The layout of the flat vector is the field order of [`Weights`] (the
//! struct is `#[repr(C)]` and holds nothing but [`Score`]s), each `Score`
//! giving two consecutive parameters, midgame first. Parameter `2 * i` and
//! `2 * i + 1` are the two halves of score number `i`; [`Weights::names`]
//! says what each one is.

use crate::score::{s, Score};
use shuai_board::{Color, PieceKind, Square, SQUARES};
use std::fmt;

/// Number of entries of a piece-square table: ten ranks by the five files
/// `a`–`e`; files `f`–`i` read the mirror entry (`f` = `d`, ..., `i` = `a`).
pub const PST_SIZE: usize = 50;

/// Entries of the rook mobility table (0..=17 reachable points).
pub const ROOK_MOBILITY: usize = 18;
/// Entries of the horse mobility table (0..=8).
pub const HORSE_MOBILITY: usize = 9;
/// Entries of the cannon mobility table (quiet moves plus capture targets, 0..=17).
pub const CANNON_MOBILITY: usize = 18;
/// Entries of the elephant mobility table (0..=4).
pub const ELEPHANT_MOBILITY: usize = 5;

/// Entries of the king-danger table (attack units 0..=15).
pub const KING_DANGER: usize = 16;

/// Attack units a piece adds to [`Weights::king_danger`] when it attacks a
/// point of the enemy palace, by [`PieceKind::index`]: rook 3, horse and
/// cannon 2, a crossed pawn 1. Fixed, not tuned: they choose the table
/// entry; the table's values are what the tuner learns.
pub const ATTACK_UNITS: [usize; 7] = [0, 0, 0, 2, 3, 2, 1];

/// The attacking kinds the king-safety arrays are indexed by, in order:
/// `[horse, rook, cannon]`.
pub const ATTACKERS: [PieceKind; 3] = [PieceKind::Horse, PieceKind::Rook, PieceKind::Cannon];

/// Index of a point in a piece-square table for a piece of `color`: the rank
/// counted from `color`'s own back rank times five, plus the file folded onto
/// `a`–`e`. Black thus reads Red's tables with the ranks flipped.
#[inline]
pub fn pst_index(color: Color, sq: Square) -> usize {
    PST_INDEX[color.index()][sq.index()] as usize
}

static PST_INDEX: [[u8; SQUARES]; 2] = {
    let mut t = [[0u8; SQUARES]; 2];
    let mut i = 0;
    while i < SQUARES {
        let (file, rank) = (i % 9, i / 9);
        let folded = if file > 4 { 8 - file } else { file };
        t[0][i] = (rank * 5 + folded) as u8;
        t[1][i] = ((9 - rank) * 5 + folded) as u8;
        i += 1;
    }
    t
};

/// A trait for the field types of [`Weights`]: a view as a slice of scores.
trait Scores {
    fn scores(&self) -> &[Score];
    fn scores_mut(&mut self) -> &mut [Score];
}

impl Scores for Score {
    fn scores(&self) -> &[Score] {
        std::slice::from_ref(self)
    }
    fn scores_mut(&mut self) -> &mut [Score] {
        std::slice::from_mut(self)
    }
}

impl<const N: usize> Scores for [Score; N] {
    fn scores(&self) -> &[Score] {
        self
    }
    fn scores_mut(&mut self) -> &mut [Score] {
        self
    }
}

impl<const N: usize, const M: usize> Scores for [[Score; N]; M] {
    fn scores(&self) -> &[Score] {
        self.as_flattened()
    }
    fn scores_mut(&mut self) -> &mut [Score] {
        self.as_flattened_mut()
    }
}

/// A named group of consecutive scores in the flat layout (one field of
/// [`Weights`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamGroup {
    /// The field name.
    pub name: &'static str,
    /// Index of the group's first score (parameter `2 * first`).
    pub first: usize,
    /// Number of scores in the group.
    pub len: usize,
}

macro_rules! weights {
    ($( $(#[doc = $doc:literal])* $name:ident : $ty:ty, )*) => {
        /// All weights of the evaluation, as midgame/endgame [`Score`]s in
        /// centipawns, each from the point of view of the side owning the
        /// feature (a penalty is a negative weight).
        ///
        /// Piece-square tables are written from Red's side; Black reads them
        /// with the ranks flipped (see [`pst_index`]).
        #[derive(Clone, PartialEq, Eq, Debug)]
        #[repr(C)]
        pub struct Weights {
            $( $(#[doc = $doc])* pub $name: $ty, )*
        }

        impl Weights {
            /// The fields in layout order, with their place in the flat vector.
            pub const GROUPS: &'static [ParamGroup] = &[
                $( ParamGroup {
                    name: stringify!($name),
                    first: std::mem::offset_of!(Weights, $name) / std::mem::size_of::<Score>(),
                    len: std::mem::size_of::<$ty>() / std::mem::size_of::<Score>(),
                }, )*
            ];

            fn groups(&self) -> Vec<&[Score]> {
                vec![ $( Scores::scores(&self.$name), )* ]
            }

            fn groups_mut(&mut self) -> Vec<&mut [Score]> {
                vec![ $( Scores::scores_mut(&mut self.$name), )* ]
            }
        }
    };
}

weights! {
    /// Material per piece kind, indexed by [`PieceKind::index`] (the king's
    /// entry is never used).
    material: [Score; 7],
    /// Piece-square tables per kind (indexed by [`PieceKind::index`], then
    /// [`pst_index`]), added to the material value.
    pst: [[Score; PST_SIZE]; 7],
    /// Rook mobility by number of points it reaches (empty or enemy).
    mobility_rook: [Score; ROOK_MOBILITY],
    /// Horse mobility by number of points it reaches (legs honoured).
    mobility_horse: [Score; HORSE_MOBILITY],
    /// Cannon mobility by quiet moves plus capture targets (screens honoured).
    mobility_cannon: [Score; CANNON_MOBILITY],
    /// Elephant mobility by number of points it reaches (eyes honoured).
    mobility_elephant: [Score; ELEPHANT_MOBILITY],
    /// Per point of the enemy palace attacked, by attacker ([`ATTACKERS`]
    /// order). A cannon counts the points it controls beyond its screens.
    palace_attack: [Score; 3],
    /// King danger by the attack units ([`ATTACK_UNITS`]) of the pieces
    /// attacking the enemy palace, capped at the last entry: a table, so
    /// that several attackers together can be worth more than their sum.
    king_danger: [Score; KING_DANGER],
    /// Per missing own advisor per enemy attacker of the kind ([`ATTACKERS`]
    /// order). Negative: a penalty.
    missing_advisor: [Score; 3],
    /// Per missing own elephant per enemy attacker of the kind ([`ATTACKERS`]
    /// order). Negative: a penalty.
    missing_elephant: [Score; 3],
    /// A cannon on the enemy king's file, by the number of pieces between
    /// them: 0 (空头炮, the empty-headed cannon), 1 (a pinned screen, or
    /// check), 2 (the central-cannon pressure of 当头炮).
    cannon_king_file: [Score; 3],
    /// A cannon on the enemy's back rank while the enemy king is on it too
    /// (沉底炮, the bottom cannon).
    bottom_cannon: Score,
    /// A rook on the enemy king's file.
    rook_king_file: Score,
    /// A rook on a file without pawns.
    rook_open_file: Score,
    /// A rook on a file with enemy pawns only.
    rook_half_open_file: Score,
    /// Per pair of crossed pawns side by side on one rank (连兵).
    pawn_connected: Score,
    /// Per pawn on the enemy's back rank (老兵/底兵, which can only move
    /// sideways), on top of its piece-square value. Negative: a penalty.
    pawn_bottom: Score,
    /// For the side to move.
    tempo: Score,
}

/// Number of scores in [`Weights`]; the flat vector has twice as many
/// parameters.
pub const SCORE_COUNT: usize = std::mem::size_of::<Weights>() / std::mem::size_of::<Score>();

/// Number of parameters (integers) in the flat vector of [`Weights`].
pub const PARAM_COUNT: usize = 2 * SCORE_COUNT;

// `Weights` must be nothing but scores, without padding, for the flat view
// to be exact: the fields' lengths must add up to the struct's size.
const _: () = {
    let mut total = 0;
    let mut i = 0;
    while i < Weights::GROUPS.len() {
        total += Weights::GROUPS[i].len;
        i += 1;
    }
    assert!(total == SCORE_COUNT);
    assert!(total * std::mem::size_of::<Score>() == std::mem::size_of::<Weights>());
};

/// The flat vector given to [`Weights::from_vec`] has the wrong length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WrongLength {
    /// The length given.
    pub got: usize,
    /// [`PARAM_COUNT`].
    pub expected: usize,
}

impl fmt::Display for WrongLength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "weight vector has {} parameters, expected {}",
            self.got, self.expected
        )
    }
}

impl std::error::Error for WrongLength {}

impl Default for Weights {
    fn default() -> Weights {
        Weights::DEFAULT
    }
}

impl Weights {
    /// The parameters as a flat vector: score by score in field order,
    /// midgame then endgame (see the module docs).
    pub fn to_vec(&self) -> Vec<i32> {
        let mut out = Vec::with_capacity(PARAM_COUNT);
        for group in self.groups() {
            for sc in group {
                out.push(sc.mg);
                out.push(sc.eg);
            }
        }
        out
    }

    /// Weights from a flat vector laid out as [`Weights::to_vec`] makes it.
    pub fn from_vec(params: &[i32]) -> Result<Weights, WrongLength> {
        if params.len() != PARAM_COUNT {
            return Err(WrongLength {
                got: params.len(),
                expected: PARAM_COUNT,
            });
        }
        let mut w = Weights::DEFAULT;
        let mut it = params.chunks_exact(2);
        for group in w.groups_mut() {
            for sc in group {
                let pair = it.next().expect("length checked");
                *sc = s(pair[0], pair[1]);
            }
        }
        Ok(w)
    }

    /// The name of score number `index` in the flat layout, such as
    /// `material.horse`, `pst.rook.d6` or `mobility_horse[3]`; `None` past
    /// the end. Parameter `2 * index` is its `.mg` half, `2 * index + 1`
    /// its `.eg` half.
    pub fn score_name(index: usize) -> Option<String> {
        let group = Weights::GROUPS
            .iter()
            .find(|g| (g.first..g.first + g.len).contains(&index))?;
        let i = index - group.first;
        let kind = |k: usize| format!("{:?}", PieceKind::ALL[k]).to_lowercase();
        Some(match group.name {
            "material" => format!("material.{}", kind(i)),
            "pst" => {
                let (k, cell) = (i / PST_SIZE, i % PST_SIZE);
                let (rank, file) = (cell / 5, cell % 5);
                format!("pst.{}.{}{}", kind(k), (b'a' + file as u8) as char, rank)
            }
            "palace_attack" | "missing_advisor" | "missing_elephant" => {
                format!("{}.{}", group.name, kind(ATTACKERS[i].index()))
            }
            name if group.len == 1 => name.to_string(),
            name => format!("{name}[{i}]"),
        })
    }

    /// The names of all parameters, in the order of [`Weights::to_vec`]:
    /// each score's name with `.mg` or `.eg` appended.
    pub fn names() -> Vec<String> {
        (0..SCORE_COUNT)
            .flat_map(|i| {
                let n = Weights::score_name(i).expect("index in range");
                [format!("{n}.mg"), format!("{n}.eg")]
            })
            .collect()
    }
}

// ----- the hand-set default values -------------------------------------------

/// A piece-square table from two 10×5 grids drawn as on a diagram: the first
/// row is rank 9 (the enemy's back rank), the last rank 0 (one's own), the
/// columns files `a`–`e` (the other four files mirror them).
const fn table(mg: [[i32; 5]; 10], eg: [[i32; 5]; 10]) -> [Score; PST_SIZE] {
    let mut t = [Score::ZERO; PST_SIZE];
    let mut rank = 0;
    while rank < 10 {
        let mut file = 0;
        while file < 5 {
            t[rank * 5 + file] = s(mg[9 - rank][file], eg[9 - rank][file]);
            file += 1;
        }
        rank += 1;
    }
    t
}

/// A grid with every entry multiplied by `num / den` (for endgame tables
/// that follow the midgame one at a smaller scale).
const fn scaled(grid: [[i32; 5]; 10], num: i32, den: i32) -> [[i32; 5]; 10] {
    let mut out = grid;
    let mut r = 0;
    while r < 10 {
        let mut f = 0;
        while f < 5 {
            out[r][f] = grid[r][f] * num / den;
            f += 1;
        }
        r += 1;
    }
    out
}

/// Mobility tables from parallel midgame and endgame arrays.
const fn pairs<const N: usize>(mg: [i32; N], eg: [i32; N]) -> [Score; N] {
    let mut t = [Score::ZERO; N];
    let mut i = 0;
    while i < N {
        t[i] = s(mg[i], eg[i]);
        i += 1;
    }
    t
}

// ----- BEGIN GENERATED by `shuai-tools weights-rs` -----
const KING_MG: [[i32; 5]; 10] = [
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, -25, -30], // the top of the palace: exposed
    [0, 0, 0, -10, -8],
    [0, 0, 0, -4, 4],
];
const KING_EG: [[i32; 5]; 10] = [
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, -6, -4],
    [0, 0, 0, 0, 4],
    [0, 0, 0, -2, 0],
];
const ADVISOR: [[i32; 5]; 10] = [
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, -6, 0], // d2/f2: the advisor has left the king
    [0, 0, 0, 0, 6],  // e1: the palace heart
    [0, 0, 0, 0, 0],
];
const ELEPHANT: [[i32; 5]; 10] = [
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, -2, 0, 0], // c4/g4: the high elephant
    [0, 0, 0, 0, 0],
    [-6, 0, 0, 0, 8], // a2/i2 on the edge; e2 guards the centre
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
];
const HORSE: [[i32; 5]; 10] = [
    [-4, -4, 2, 0, -4],
    [0, 10, 22, 14, 4], // c8/g8: 卧槽
    [6, 14, 18, 22, 16],
    [6, 16, 20, 24, 20],
    [4, 12, 14, 18, 16],
    [2, 8, 12, 14, 10],
    [0, 4, 8, 6, 8],
    [-2, 2, 6, 4, 0],
    [-6, -2, 0, -4, -20], // e1: 窝心马, the horse in the palace heart
    [-10, -6, -2, -6, -10],
];
const ROOK: [[i32; 5]; 10] = [
    [0, 4, 2, 10, 10],
    [2, 8, 6, 14, 20],
    [2, 6, 6, 12, 14],
    [4, 10, 10, 14, 14],
    [4, 8, 8, 12, 12],
    [2, 8, 8, 12, 12],
    [-2, 4, 2, 8, 8],
    [-4, 4, 2, 8, 6],
    [-2, 4, 2, 6, 0],
    [-10, 0, -4, 6, 0],
];
const CANNON: [[i32; 5]; 10] = [
    [6, 4, 0, -4, -6],
    [2, 2, 0, -4, -8],
    [2, 2, 0, -2, 0],
    [0, 0, 0, 2, 4],
    [0, 2, 4, 2, 6],
    [0, 0, 2, 2, 6],
    [-2, 0, 4, 2, 6],
    [0, 2, 4, 6, 10],
    [0, 0, 2, 2, 4],
    [0, 0, 2, 4, 4],
];
const PAWN_MG: [[i32; 5]; 10] = [
    [10, 20, 30, 40, 45],
    [30, 50, 70, 90, 100],
    [30, 50, 70, 85, 90],
    [30, 45, 60, 70, 75],
    [20, 35, 45, 55, 60],
    [0, 0, 5, 0, 10],
    [0, 0, 0, 0, 5],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
];
const PAWN_EG: [[i32; 5]; 10] = [
    [10, 15, 20, 25, 25],
    [40, 55, 70, 80, 85],
    [55, 70, 90, 105, 110],
    [55, 70, 85, 95, 100],
    [45, 55, 65, 75, 80],
    [5, 10, 15, 10, 20],
    [0, 0, 5, 0, 10],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
];

impl Weights {
    /// The hand-set weights the engine starts from, before tuning.
    pub const DEFAULT: Weights = Weights {
        material: [
            s(0, 0), // king
            // Advisors and elephants: their full worth only shows against
            // attackers, through `missing_advisor` and `missing_elephant`.
            s(180, 150), // advisor
            s(180, 150), // elephant
            s(410, 470), // horse: stronger in the endgame
            s(950, 1020),
            s(470, 420), // cannon: weaker in the endgame
            s(100, 120),
        ],
        pst: [
            table(KING_MG, KING_EG),
            table(ADVISOR, ADVISOR),
            table(ELEPHANT, ELEPHANT),
            table(HORSE, scaled(HORSE, 3, 4)),
            table(ROOK, scaled(ROOK, 1, 2)),
            table(CANNON, scaled(CANNON, 1, 2)),
            table(PAWN_MG, PAWN_EG),
        ],
        mobility_rook: pairs(
            [
                -40, -30, -22, -15, -9, -4, 0, 4, 8, 11, 14, 16, 18, 20, 22, 23, 24, 25,
            ],
            [
                -50, -38, -27, -18, -10, -4, 1, 6, 10, 14, 17, 20, 22, 24, 26, 27, 28, 29,
            ],
        ),
        mobility_horse: pairs(
            [-40, -20, -8, 0, 6, 11, 15, 18, 20],
            [-40, -22, -10, -2, 5, 10, 14, 17, 19],
        ),
        mobility_cannon: pairs(
            [
                -20, -14, -9, -5, -2, 0, 2, 4, 6, 8, 10, 11, 12, 13, 14, 15, 16, 17,
            ],
            [
                -15, -10, -6, -3, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 10, 10,
            ],
        ),
        mobility_elephant: pairs([-8, -2, 2, 4, 5], [-6, -2, 1, 3, 4]),
        palace_attack: [s(8, 4), s(6, 4), s(6, 3)],
        king_danger: [Score::ZERO; KING_DANGER],
        missing_advisor: [s(-14, -18), s(-18, -28), s(-8, -10)],
        missing_elephant: [s(-5, -8), s(-8, -12), s(-18, -24)],
        cannon_king_file: [s(70, 30), s(10, 5), s(20, 5)],
        bottom_cannon: s(20, 5),
        rook_king_file: s(12, 6),
        rook_open_file: s(12, 8),
        rook_half_open_file: s(6, 4),
        pawn_connected: s(15, 25),
        pawn_bottom: s(-10, -20),
        tempo: s(20, 10),
    };
}
// ----- END GENERATED by `shuai-tools weights-rs` -----

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_index_flips_for_black_and_mirrors() {
        for sq in Square::all() {
            assert_eq!(
                pst_index(Color::Red, sq),
                pst_index(Color::Black, sq.flip())
            );
            assert_eq!(
                pst_index(Color::Red, sq),
                pst_index(Color::Red, sq.mirror())
            );
            assert!(pst_index(Color::Black, sq) < PST_SIZE);
        }
        // Red's e0 is the first rank's centre; Black's e9 reads the same entry.
        let e0: Square = "e0".parse().unwrap();
        let e9: Square = "e9".parse().unwrap();
        assert_eq!(pst_index(Color::Red, e0), 4);
        assert_eq!(pst_index(Color::Black, e9), 4);
    }

    #[test]
    fn tables_are_drawn_with_the_enemy_at_the_top() {
        // The pawn table's top rows (the enemy's side) are worth more.
        let w = Weights::DEFAULT;
        let pawn = &w.pst[PieceKind::Pawn.index()];
        let e3 = pst_index(Color::Red, "e3".parse().unwrap());
        let e7 = pst_index(Color::Red, "e7".parse().unwrap());
        assert!(pawn[e7].mg > pawn[e3].mg + 50);
        // The horse in the palace heart (窝心马) is bad.
        let horse = &w.pst[PieceKind::Horse.index()];
        assert!(horse[pst_index(Color::Red, "e1".parse().unwrap())].mg < 0);
    }

    #[test]
    fn score_names() {
        assert_eq!(Weights::score_name(0).as_deref(), Some("material.king"));
        let tempo = Weights::GROUPS.last().unwrap();
        assert_eq!(tempo.name, "tempo");
        assert_eq!(Weights::score_name(tempo.first).as_deref(), Some("tempo"));
        assert_eq!(Weights::score_name(SCORE_COUNT), None);
        let mob = Weights::GROUPS
            .iter()
            .find(|g| g.name == "mobility_horse")
            .unwrap();
        assert_eq!(
            Weights::score_name(mob.first + 3).as_deref(),
            Some("mobility_horse[3]")
        );
    }
}
