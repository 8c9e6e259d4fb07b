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
    /// Per enemy piece of the kind ([`PieceKind::index`]) that one of ours
    /// attacks and none of the enemy's defends (the king's entry is unused).
    hanging: [Score; 7],
    /// Per enemy piece of the kind attacked by a piece of lower value: a rook
    /// by a horse, cannon, pawn, advisor or elephant; a horse or cannon by a
    /// pawn, advisor or elephant. Only those three entries are used.
    threat_by_lesser: [Score; 7],
    /// Per enemy piece of the kind pinned to its king: the only piece between
    /// one of our rooks and the king, or one of two between a cannon of ours
    /// and the king (its moving would give check).
    pinned: [Score; 7],
    /// Per own piece of the kind defended by another own piece (the king's
    /// entry is unused): pieces that guard each other.
    protected: [Score; 7],
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
            "hanging" | "threat_by_lesser" | "pinned" | "protected" => {
                format!("{}.{}", group.name, kind(i))
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
// Piece-square tables drawn as on a diagram: the first row is rank 9 (the
// enemy's back rank), the last rank 0, the columns files a-e (f-i mirror
// them). Regenerate rather than edit by hand (tools/README.md).
const KING_MG: [[i32; 5]; 10] = [
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, -160, -140],
    [0, 0, 0, -37, -2],
    [0, 0, 0, 29, 51],
];
const KING_EG: [[i32; 5]; 10] = [
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 11, 17],
    [0, 0, 0, 1, -2],
    [0, 0, 0, -10, -6],
];
const ADVISOR_MG: [[i32; 5]; 10] = [
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, -48, 0],
    [0, 0, 0, 0, 24],
    [0, 0, 0, -3, 0],
];
const ADVISOR_EG: [[i32; 5]; 10] = [
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, -4, 0],
    [0, 0, 0, 0, 4],
    [0, 0, 0, -7, 0],
];
const ELEPHANT_MG: [[i32; 5]; 10] = [
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, -30, 0, 0],
    [0, 0, 0, 0, 0],
    [-13, 0, 0, 0, 38],
    [0, 0, 0, 0, 0],
    [0, 0, -1, 0, 0],
];
const ELEPHANT_EG: [[i32; 5]; 10] = [
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 2, 0, 0],
    [0, 0, 0, 0, 0],
    [-8, 0, 0, 0, 4],
    [0, 0, 0, 0, 0],
    [0, 0, -1, 0, 0],
];
const HORSE_MG: [[i32; 5]; 10] = [
    [-140, -124, -105, 124, -92],
    [-40, -29, 63, 75, 277],
    [77, -22, 8, 124, 268],
    [-7, 52, -19, 74, -11],
    [-81, 9, 23, 48, 5],
    [-40, 6, 35, 36, 43],
    [-34, -68, -30, 13, 8],
    [-6, -46, 5, -4, 11],
    [-21, 21, -24, -14, -9],
    [-18, -28, -15, 14, 27],
];
const HORSE_EG: [[i32; 5]; 10] = [
    [58, 61, 76, 11, 62],
    [14, 53, 17, 9, -127],
    [15, 44, 27, -1, -45],
    [5, 19, 34, 27, 30],
    [44, 28, 26, 21, 28],
    [24, 24, 20, 13, 13],
    [-18, 40, 22, -4, 3],
    [-25, 6, -13, 18, -8],
    [-34, -64, -11, -24, -16],
    [-55, -20, -19, -16, -20],
];
const ROOK_MG: [[i32; 5]; 10] = [
    [8, 22, -22, 78, 161],
    [-19, 41, 44, 48, 163],
    [-7, 4, 22, 45, 56],
    [3, 19, 51, 38, 9],
    [-26, -7, 17, 15, 15],
    [1, 2, 18, 17, -17],
    [-29, -2, 4, 10, -46],
    [-30, -19, -17, 1, -30],
    [-31, -8, -20, -22, -48],
    [-46, -9, -22, -1, 62],
];
const ROOK_EG: [[i32; 5]; 10] = [
    [8, 10, 13, -29, -3],
    [19, 8, -3, 4, -43],
    [18, 25, 18, 13, -8],
    [10, 21, 13, 25, 33],
    [23, 19, 14, 26, 30],
    [3, 19, 3, 22, 34],
    [28, 22, 27, 27, 58],
    [-7, 21, 9, 24, 29],
    [-26, -15, -34, 9, -40],
    [-37, -23, -50, 1, -199],
];
const CANNON_MG: [[i32; 5]; 10] = [
    [92, 29, 9, -90, 121],
    [14, -26, -27, -38, -114],
    [-56, -31, -30, -31, -135],
    [2, -3, 9, -1, -20],
    [4, -30, -31, -24, 31],
    [18, 12, 29, -3, 29],
    [-3, -14, 26, -3, 15],
    [15, -13, 29, -7, 35],
    [4, -17, 16, -5, 26],
    [-45, -24, 30, -8, -92],
];
const CANNON_EG: [[i32; 5]; 10] = [
    [-26, -4, -4, -13, -57],
    [13, 21, 21, -31, 2],
    [33, 16, 18, -24, 28],
    [5, -3, 2, -8, 13],
    [-4, 11, 17, 8, -3],
    [-14, -4, -35, 3, 0],
    [3, 0, -8, 5, 5],
    [-2, 20, -15, 15, 11],
    [15, 17, -1, 15, 17],
    [25, 16, -31, 24, 58],
];
const PAWN_MG: [[i32; 5]; 10] = [
    [97, 45, 24, 68, -76],
    [-108, 109, 175, 348, 330],
    [-48, 28, 87, 198, 160],
    [16, 23, 39, 81, 75],
    [0, 35, 33, 67, 53],
    [-24, 0, -9, 0, 0],
    [-27, 0, -19, 0, 10],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
];
const PAWN_EG: [[i32; 5]; 10] = [
    [-2, 6, 35, 21, 38],
    [74, 52, 66, 58, 79],
    [48, 84, 88, 98, 107],
    [53, 84, 97, 106, 107],
    [45, 66, 59, 85, 93],
    [5, 10, 9, 10, 25],
    [1, 0, 0, 0, 1],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
];

impl Weights {
    /// The weights the engine plays with: tuned by `shuai-tools tune --lambda 1 --epochs 150`
    /// (Texel-style logistic fit of the 5000-node search scores) on 530206 quiet
    /// positions from 4400 self-play games of the hand-set weights at 5000 nodes
    /// per move (`shuai-tools datagen`, seeds 1001-1011). The hand-set values
    /// they replace are in `eval/tables/hand-set.txt`.
    pub const DEFAULT: Weights = Weights {
        material: [
            s(0, 0),      // king
            s(180, 144),  // advisor
            s(197, 144),  // elephant
            s(401, 480),  // horse
            s(960, 1074), // rook
            s(466, 434),  // cannon
            s(101, 122),  // pawn
        ],
        pst: [
            table(KING_MG, KING_EG),
            table(ADVISOR_MG, ADVISOR_EG),
            table(ELEPHANT_MG, ELEPHANT_EG),
            table(HORSE_MG, HORSE_EG),
            table(ROOK_MG, ROOK_EG),
            table(CANNON_MG, CANNON_EG),
            table(PAWN_MG, PAWN_EG),
        ],
        mobility_rook: pairs(
            [
                -14, -11, -13, -8, -6, -6, 13, 7, 7, 10, 5, 11, 11, 6, 21, 28, 21, 23,
            ],
            [
                -34, -61, -76, -56, -4, 15, 15, 22, 23, 26, 40, 37, 35, 39, 37, 34, 39, 33,
            ],
        ),
        mobility_horse: pairs(
            [-36, -23, -14, -6, 5, 12, 22, 26, 16],
            [-73, -27, -1, 14, 11, 16, 10, 20, 21],
        ),
        mobility_cannon: pairs(
            [
                -74, -45, -24, -4, -4, 2, 4, 3, 3, 8, 10, 15, 20, 16, 20, 23, 20, 28,
            ],
            [
                -11, -44, -18, -5, -11, 5, 7, 3, 9, 14, 14, 10, 8, 16, 17, 11, 12, 18,
            ],
        ),
        mobility_elephant: pairs([3, 6, 9, -1, -23], [19, -1, -3, -5, -3]),
        palace_attack: [s(32, -4), s(-2, 2), s(10, 2)],
        king_danger: [
            s(-4, 7),
            s(-20, -2),
            s(-16, 0),
            s(-1, -13),
            s(-12, -9),
            s(0, -11),
            s(9, -6),
            s(7, 23),
            s(14, 50),
            s(86, 35),
            s(47, 150),
            s(0, 0),
            s(13, 5),
            s(0, 0),
            s(0, 0),
            s(0, 0),
        ],
        missing_advisor: [s(0, -25), s(-41, -24), s(12, -9)],
        missing_elephant: [s(-1, -13), s(0, -12), s(-20, -24)],
        cannon_king_file: [s(88, 5), s(10, 5), s(7, 35)],
        bottom_cannon: s(-17, 24),
        rook_king_file: s(8, 1),
        rook_open_file: s(15, 8),
        rook_half_open_file: s(-2, 28),
        pawn_connected: s(51, -2),
        pawn_bottom: s(-14, -17),
        hanging: [s(0, 0); 7],
        threat_by_lesser: [s(0, 0); 7],
        pinned: [s(0, 0); 7],
        protected: [s(0, 0); 7],
        tempo: s(12, 0),
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
