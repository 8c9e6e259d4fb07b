//! The evaluation proper: every term, written once and reported through a
//! [`Sink`] so that the fast path, the trace and the tuner's feature
//! extraction run the same code.

use crate::endgame;
use crate::score::Score;
use crate::weights::{pst_index, Weights, PST_SIZE};
use shuai_board::attacks;
use shuai_board::{Bitboard, Color, File, PieceKind, Position, Rank};
use std::mem::{offset_of, size_of};

/// The groups of terms the trace reports, one row each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// Material.
    Material,
    /// Piece-square tables.
    Placement,
    /// Mobility of rooks, horses, cannons and elephants.
    Mobility,
    /// Points of the enemy palace attacked by rooks, horses and cannons.
    PalaceAttack,
    /// Missing advisors and elephants against the enemy's attackers.
    MissingDefenders,
    /// Cannons on the enemy king's file (空头炮 and 当头炮).
    CannonKingFile,
    /// Cannons on the enemy's back rank with its king (沉底炮).
    BottomCannon,
    /// Rooks on the enemy king's file.
    RookKingFile,
    /// Rooks on open and half-open files.
    RookFiles,
    /// Connected crossed pawns and pawns stuck on the last rank.
    Pawns,
    /// The side to move's bonus.
    Tempo,
}

impl Term {
    /// Number of terms.
    pub const COUNT: usize = 11;

    /// All terms in report order.
    pub const ALL: [Term; Term::COUNT] = [
        Term::Material,
        Term::Placement,
        Term::Mobility,
        Term::PalaceAttack,
        Term::MissingDefenders,
        Term::CannonKingFile,
        Term::BottomCannon,
        Term::RookKingFile,
        Term::RookFiles,
        Term::Pawns,
        Term::Tempo,
    ];

    /// Index 0..COUNT in report order.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// A short English label for tables.
    pub const fn label(self) -> &'static str {
        match self {
            Term::Material => "Material",
            Term::Placement => "Placement (PST)",
            Term::Mobility => "Mobility",
            Term::PalaceAttack => "Palace attacks",
            Term::MissingDefenders => "Missing defenders",
            Term::CannonKingFile => "Cannon on king file",
            Term::BottomCannon => "Bottom cannon",
            Term::RookKingFile => "Rook on king file",
            Term::RookFiles => "Rook open files",
            Term::Pawns => "Pawn structure",
            Term::Tempo => "Tempo",
        }
    }
}

/// Receives every evaluation feature as it is found.
///
/// `param` is the index of the weight's score in the flat layout of
/// [`Weights`], `count` how many times the feature occurs for `color`, and
/// `score` the weight times `count` (what the feature adds for `color`).
pub(crate) trait Sink {
    fn add(&mut self, term: Term, color: Color, param: usize, count: i32, score: Score);
}

/// The phase at the start: every rook, horse and cannon on the board.
pub const PHASE_MAX: i32 = 32;

/// The phase contribution of one piece of each kind, indexed by
/// [`PieceKind::index`]: rooks 4, horses and cannons 2, nothing else. With all
/// sixteen such pieces the sum is [`PHASE_MAX`]; it falls to 0 without them.
pub const PHASE_WEIGHTS: [i32; 7] = [0, 0, 0, 2, 4, 2, 0];

/// The game phase, 0 (bare endgame) to [`PHASE_MAX`] (all pieces on).
#[inline]
pub fn phase(pos: &Position) -> i32 {
    let n = |k: PieceKind| pos.kind_bb(k).count() as i32 * PHASE_WEIGHTS[k.index()];
    (n(PieceKind::Rook) + n(PieceKind::Horse) + n(PieceKind::Cannon)).min(PHASE_MAX)
}

/// The place of a field's first score in the flat layout.
macro_rules! param {
    ($field:ident) => {
        offset_of!(Weights, $field) / size_of::<Score>()
    };
}

/// Reports `count` occurrences of the feature weighted by `w.$field[$i]`.
macro_rules! add {
    ($sink:expr, $w:expr, $term:expr, $color:expr, $field:ident, $count:expr) => {{
        let count: i32 = $count;
        $sink.add($term, $color, param!($field), count, $w.$field * count)
    }};
    ($sink:expr, $w:expr, $term:expr, $color:expr, $field:ident[$i:expr], $count:expr) => {{
        let (i, count): (usize, i32) = ($i, $count);
        $sink.add(
            $term,
            $color,
            param!($field) + i,
            count,
            $w.$field[i] * count,
        )
    }};
}

const NOT_FILE_I: u128 = !Bitboard::file(File::ALL[8]).bits();

/// Runs every term for both sides into `sink`.
#[inline(always)]
pub(crate) fn run<S: Sink>(pos: &Position, w: &Weights, sink: &mut S) {
    let occ = pos.occupied();
    let pawns = pos.kind_bb(PieceKind::Pawn);
    for us in Color::ALL {
        side(pos, w, sink, us, occ, pawns);
    }
    add!(sink, w, Term::Tempo, pos.side_to_move(), tempo, 1);
}

#[inline(always)]
fn side<S: Sink>(
    pos: &Position,
    w: &Weights,
    sink: &mut S,
    us: Color,
    occ: Bitboard,
    all_pawns: Bitboard,
) {
    let them = !us;
    let own = pos.color_bb(us);
    let enemy = pos.color_bb(them);
    let not_own = !own;
    let their_king = pos.king_square(them);
    let king_file = Bitboard::file(their_king.file());
    let their_palace = Bitboard::palace(them);
    let count = |c: Color, k: PieceKind| pos.pieces(c, k).count() as i32;

    // Material and placement.
    for kind in PieceKind::ALL {
        let set = pos.pieces(us, kind);
        if kind != PieceKind::King {
            add!(
                sink,
                w,
                Term::Material,
                us,
                material[kind.index()],
                set.count() as i32
            );
        }
        let base = param!(pst) + kind.index() * PST_SIZE;
        let table = &w.pst[kind.index()];
        for sq in set {
            let i = pst_index(us, sq);
            sink.add(Term::Placement, us, base + i, 1, table[i]);
        }
    }

    // Rooks: mobility, palace attacks, files.
    let own_pawns = all_pawns & own;
    for sq in pos.pieces(us, PieceKind::Rook) {
        let att = attacks::rook(sq, occ);
        let mob = (att & not_own).count() as usize;
        add!(sink, w, Term::Mobility, us, mobility_rook[mob], 1);
        let pa = (att & their_palace).count() as i32;
        add!(sink, w, Term::PalaceAttack, us, palace_attack[1], pa);
        let file = Bitboard::file(sq.file());
        if (file & all_pawns).is_empty() {
            add!(sink, w, Term::RookFiles, us, rook_open_file, 1);
        } else if (file & own_pawns).is_empty() {
            add!(sink, w, Term::RookFiles, us, rook_half_open_file, 1);
        }
        if file == king_file {
            add!(sink, w, Term::RookKingFile, us, rook_king_file, 1);
        }
    }

    // Horses: mobility (legs honoured), palace attacks.
    for sq in pos.pieces(us, PieceKind::Horse) {
        let att = attacks::horse(sq, occ);
        let mob = (att & not_own).count() as usize;
        add!(sink, w, Term::Mobility, us, mobility_horse[mob], 1);
        let pa = (att & their_palace).count() as i32;
        add!(sink, w, Term::PalaceAttack, us, palace_attack[0], pa);
    }

    // Cannons: quiet moves plus capture targets, control beyond the screens,
    // the king's file and the bottom rank.
    let their_back_rank = Bitboard::rank(Rank::ALL[if us == Color::Red { 9 } else { 0 }]);
    let king_on_back_rank = their_back_rank.has(their_king);
    for sq in pos.pieces(us, PieceKind::Cannon) {
        let lines = attacks::rook(sq, occ);
        let quiet = lines & !occ;
        let captures = attacks::cannon_captures(sq, occ) & enemy;
        let mob = (quiet.count() + captures.count()) as usize;
        add!(sink, w, Term::Mobility, us, mobility_cannon[mob], 1);
        // With the screens lifted the lines reach on to the next piece:
        // those points (beyond the screens) are what the cannon controls.
        let screens = lines & occ;
        let control = attacks::rook(sq, occ ^ screens) & !lines;
        let pa = (control & their_palace).count() as i32;
        add!(sink, w, Term::PalaceAttack, us, palace_attack[2], pa);
        if king_file.has(sq) {
            let between = (attacks::between(sq, their_king) & occ).count() as usize;
            if between < 3 {
                add!(
                    sink,
                    w,
                    Term::CannonKingFile,
                    us,
                    cannon_king_file[between],
                    1
                );
            }
        }
        if king_on_back_rank && their_back_rank.has(sq) {
            add!(sink, w, Term::BottomCannon, us, bottom_cannon, 1);
        }
    }

    // Elephants: mobility (eyes honoured).
    for sq in pos.pieces(us, PieceKind::Elephant) {
        let mob = (attacks::elephant(sq, occ) & not_own).count() as usize;
        add!(sink, w, Term::Mobility, us, mobility_elephant[mob], 1);
    }

    // Pawns: side-by-side crossed pawns, pawns on the last rank.
    let crossed = (own_pawns & !Bitboard::own_half(us)).bits();
    let pairs = (crossed & (crossed >> 1) & NOT_FILE_I).count_ones() as i32;
    add!(sink, w, Term::Pawns, us, pawn_connected, pairs);
    let bottom = (own_pawns & their_back_rank).count() as i32;
    add!(sink, w, Term::Pawns, us, pawn_bottom, bottom);

    // King safety: missing advisors and elephants against enemy attackers.
    let missing_advisors = 2 - count(us, PieceKind::Advisor);
    let missing_elephants = 2 - count(us, PieceKind::Elephant);
    for (i, kind) in crate::weights::ATTACKERS.into_iter().enumerate() {
        let attackers = count(them, kind);
        add!(
            sink,
            w,
            Term::MissingDefenders,
            us,
            missing_advisor[i],
            missing_advisors * attackers
        );
        add!(
            sink,
            w,
            Term::MissingDefenders,
            us,
            missing_elephant[i],
            missing_elephants * attackers
        );
    }
}

/// How the per-side sums turn into the final score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Outcome {
    pub phase: i32,
    pub blended: i32,
    pub scale: i32,
    pub red: i32,
}

/// Blends `total` (Red minus Black) by the phase and applies the draw scale
/// of the side ahead.
#[inline(always)]
pub(crate) fn finish(pos: &Position, total: Score) -> Outcome {
    let phase = phase(pos);
    let blended = (total.mg * phase + total.eg * (PHASE_MAX - phase)) / PHASE_MAX;
    let scale = match blended.signum() {
        1 => endgame::scale_factor(pos, Color::Red),
        -1 => endgame::scale_factor(pos, Color::Black),
        _ => endgame::SCALE_NORMAL,
    };
    let red = blended * scale / endgame::SCALE_NORMAL;
    Outcome {
        phase,
        blended,
        scale,
        red,
    }
}

/// The fast sink: per-side sums only.
#[derive(Default)]
pub(crate) struct Totals([Score; 2]);

impl Sink for Totals {
    #[inline(always)]
    fn add(&mut self, _: Term, color: Color, _: usize, _: i32, score: Score) {
        self.0[color.index()] += score;
    }
}

impl Totals {
    #[inline(always)]
    pub fn total(&self) -> Score {
        self.0[0] - self.0[1]
    }
}
