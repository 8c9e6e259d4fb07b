//! The evaluation proper: every term, written once and reported through a
//! [`Sink`] so that the fast path, the trace and the tuner's feature
//! extraction run the same code.

use crate::endgame;
use crate::score::Score;
use crate::weights::{pst_index, Weights, ATTACK_UNITS, KING_DANGER, PST_SIZE};
use shuai_board::attacks;
use shuai_board::{Bitboard, Color, File, PieceKind, Position, Rank, Square};
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
    /// The attackers of the enemy palace together.
    KingDanger,
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
    /// Enemy pieces attacked and undefended, or attacked by lesser pieces.
    Threats,
    /// Enemy pieces pinned to their king by rooks and cannons.
    Pins,
    /// Own pieces defended by own pieces.
    Protection,
    /// The side to move's bonus.
    Tempo,
}

impl Term {
    /// Number of terms.
    pub const COUNT: usize = 15;

    /// All terms in report order.
    pub const ALL: [Term; Term::COUNT] = [
        Term::Material,
        Term::Placement,
        Term::Mobility,
        Term::PalaceAttack,
        Term::KingDanger,
        Term::MissingDefenders,
        Term::CannonKingFile,
        Term::BottomCannon,
        Term::RookKingFile,
        Term::RookFiles,
        Term::Pawns,
        Term::Threats,
        Term::Pins,
        Term::Protection,
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
            Term::KingDanger => "King danger",
            Term::MissingDefenders => "Missing defenders",
            Term::CannonKingFile => "Cannon on king file",
            Term::BottomCannon => "Bottom cannon",
            Term::RookKingFile => "Rook on king file",
            Term::RookFiles => "Rook open files",
            Term::Pawns => "Pawn structure",
            Term::Threats => "Threats",
            Term::Pins => "Pins",
            Term::Protection => "Protected pieces",
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

const NOT_FILE_A: u128 = !Bitboard::file(File::ALL[0]).bits();
const NOT_FILE_I: u128 = !Bitboard::file(File::ALL[8]).bits();

/// The size of a set that lies in `color`'s half of the board (one 64-bit
/// population count instead of two).
#[inline(always)]
fn count_in_half(set: Bitboard, color: Color) -> i32 {
    let bits = match color {
        Color::Red => set.bits() as u64,
        Color::Black => (set.bits() >> 45) as u64,
    };
    bits.count_ones() as i32
}

/// The size of a set that lies within two ranks of `sq`'s rank (a horse's
/// reach): seven ranks starting at most two below fit in 64 bits.
#[inline(always)]
fn count_near(set: Bitboard, sq: Square) -> i32 {
    let low_rank = sq.rank().index().saturating_sub(2).min(3);
    ((set.bits() >> (9 * low_rank)) as u64).count_ones() as i32
}

/// Per point: the eye and target of each of the elephant's four steps, as
/// indices into its own half of the board (bit 0 = the half's first point);
/// steps off the board or across the river use the elephant's own point,
/// which is always occupied, so they count as blocked.
static ELEPHANT_STEPS: [[(u8, u8); 4]; 90] = {
    let mut t = [[(0u8, 0u8); 4]; 90];
    let mut i = 0;
    while i < 90 {
        let (f, r) = ((i % 9) as i32, (i / 9) as i32);
        let base = if r <= 4 { 0 } else { 45 };
        let own = (i - base) as u8;
        let mut d = 0;
        while d < 4 {
            let (df, dr) = [(1, 1), (1, -1), (-1, -1), (-1, 1)][d];
            let (tf, tr) = (f + 2 * df, r + 2 * dr);
            let same_half = (tr <= 4) == (r <= 4);
            t[i][d] = if tf >= 0 && tf < 9 && tr >= 0 && tr < 10 && same_half {
                let eye = (r + dr) * 9 + f + df - base as i32;
                let target = tr * 9 + tf - base as i32;
                (eye as u8, target as u8)
            } else {
                (own, own)
            };
            d += 1;
        }
        i += 1;
    }
    t
};

/// The points an elephant of side `US` on `sq` attacks and the number it
/// can step to (eyes empty, targets not its own pieces):
/// `attacks::elephant(sq, occ)` and `(attacks::elephant(sq, occ) &
/// !own).count()` without 128-bit arithmetic.
#[inline(always)]
fn elephant_reach<const US: usize>(sq: Square, occ: Bitboard, own: Bitboard) -> (Bitboard, usize) {
    let shift = if US == 0 { 0 } else { 45 };
    let (occ, own) = ((occ.bits() >> shift) as u64, (own.bits() >> shift) as u64);
    let (mut reach, mut n) = (0u64, 0);
    for (eye, target) in ELEPHANT_STEPS[sq.index()] {
        let open = !(occ >> eye) & 1;
        reach |= open << target;
        n += (open & !(own >> target) & 1) as usize;
    }
    (Bitboard::from_bits((reach as u128) << shift), n)
}

/// The points `US`'s pawns attack: one step forward, and sideways for the
/// pawns across the river (the union of `attacks::pawn` over the pawns, by
/// shifts).
#[inline(always)]
fn pawn_attacks<const US: usize>(pawns: Bitboard) -> Bitboard {
    let bits = pawns.bits();
    let (forward, crossed) = if US == 0 {
        (bits << 9, bits & !Bitboard::own_half(Color::Red).bits())
    } else {
        (bits >> 9, bits & !Bitboard::own_half(Color::Black).bits())
    };
    let sideways = ((crossed << 1) & NOT_FILE_A) | ((crossed >> 1) & NOT_FILE_I);
    Bitboard::from_bits((forward | sideways) & Bitboard::FULL.bits())
}

/// The points of `file`, from a table.
#[inline(always)]
fn file_mask(file: File) -> Bitboard {
    static MASKS: [Bitboard; 9] = {
        let mut t = [Bitboard::EMPTY; 9];
        let mut f = 0;
        while f < 9 {
            t[f] = Bitboard::file(File::ALL[f]);
            f += 1;
        }
        t
    };
    MASKS[file.index()]
}

/// Piece counts per side ([`Color::index`]) and kind ([`PieceKind::index`]),
/// found while scoring the pieces; the phase and the draw scale use them.
pub(crate) type Counts = [[i32; 7]; 2];

/// Runs every term for both sides into `sink`; returns the piece counts.
#[inline(always)]
pub(crate) fn run<S: Sink>(pos: &Position, w: &Weights, sink: &mut S) -> Counts {
    let occ = pos.occupied();
    let pawns = pos.kind_bb(PieceKind::Pawn);
    let mut counts: Counts = [[0; 7]; 2];
    // One copy of the code per side, so that every colour test, mask and
    // accumulator index is a constant.
    let red = pieces::<S, 0>(pos, w, sink, occ, pawns, &mut counts[0]);
    let black = pieces::<S, 1>(pos, w, sink, occ, pawns, &mut counts[1]);
    threats::<S, 0>(pos, w, sink, &red, &black);
    threats::<S, 1>(pos, w, sink, &black, &red);
    missing_defenders::<S, 0>(w, sink, &counts);
    missing_defenders::<S, 1>(w, sink, &counts);
    add!(sink, w, Term::Tempo, pos.side_to_move(), tempo, 1);
    counts
}

/// The back rank of `color`'s opponent.
#[inline(always)]
fn enemy_back_rank(color: Color) -> Bitboard {
    Bitboard::rank(Rank::ALL[if color == Color::Red { 9 } else { 0 }])
}

/// The points from which a pawn of `us` can step into the enemy palace:
/// files c–g, from the enemy's palace ranks and the rank before them.
#[inline(always)]
fn their_palace_zone(us: Color) -> Bitboard {
    static ZONES: [Bitboard; 2] = {
        let (mut red, mut black) = (0u128, 0u128);
        let mut i = 0;
        while i < 90 {
            let (f, r) = (i % 9, i / 9);
            if f >= 2 && f <= 6 && r >= 6 {
                red |= 1 << i;
            }
            if f >= 2 && f <= 6 && r <= 3 {
                black |= 1 << i;
            }
            i += 1;
        }
        [Bitboard::from_bits(red), Bitboard::from_bits(black)]
    };
    ZONES[us.index()]
}

/// The points one side's pieces attack, whoever stands there (so a piece on
/// them is defended if it is the side's own). Pins and the flying general
/// are ignored. Exact for occupied points (what the threat terms read); of
/// the empty points a cannon's are left out.
#[derive(Clone, Copy, Default)]
pub(crate) struct AttackMap {
    /// Attacked by any piece.
    all: Bitboard,
    /// Attacked by a pawn, advisor or elephant.
    low: Bitboard,
    /// Attacked by a horse or cannon.
    mid: Bitboard,
}

/// The pieces of `theirs` pinned to their king on `king` by a rook
/// (`screens` = 1) or cannon (`screens` = 2) of the other side on `sq`: the
/// pieces between, when there are exactly `screens` of them (pieces of the
/// rook's or cannon's own side between are not counted).
#[inline(always)]
fn pinned_by(sq: Square, king: Square, occ: Bitboard, theirs: Bitboard, screens: u32) -> Bitboard {
    if sq.file() != king.file() && sq.rank() != king.rank() {
        return Bitboard::EMPTY;
    }
    let between = attacks::between(sq, king) & occ;
    if between.count() == screens {
        between & theirs
    } else {
        Bitboard::EMPTY
    }
}

/// Material, placement, mobility, attacks and structure of `us`'s pieces;
/// returns the points they attack.
#[inline(always)]
fn pieces<S: Sink, const US: usize>(
    pos: &Position,
    w: &Weights,
    sink: &mut S,
    occ: Bitboard,
    all_pawns: Bitboard,
    counts: &mut [i32; 7],
) -> AttackMap {
    let us = Color::ALL[US];
    let them = !us;
    let own = pos.color_bb(us);
    let enemy = pos.color_bb(them);
    let not_own = !own;
    let their_king = pos.king_square(them);
    let king_file = file_mask(their_king.file());
    let their_palace = Bitboard::palace(them);
    let their_back_rank = enemy_back_rank(us);
    // Attack units of the pieces reaching the enemy palace.
    let mut units = 0;
    let mut map = AttackMap::default();
    let mut pins = Bitboard::EMPTY;

    // Placement of one piece; the loops count the pieces for material.
    macro_rules! place {
        ($kind:expr, $sq:expr) => {{
            let i = pst_index(us, $sq);
            let k = $kind.index();
            sink.add(
                Term::Placement,
                us,
                param!(pst) + k * PST_SIZE + i,
                1,
                w.pst[k][i],
            );
            counts[k] += 1;
        }};
    }
    macro_rules! material {
        ($kind:expr) => {{
            let k = $kind.index();
            add!(sink, w, Term::Material, us, material[k], counts[k]);
        }};
    }

    for sq in pos.pieces(us, PieceKind::King) {
        place!(PieceKind::King, sq);
        map.all |= attacks::king(sq);
    }
    for sq in pos.pieces(us, PieceKind::Advisor) {
        place!(PieceKind::Advisor, sq);
        map.low |= attacks::advisor(sq);
    }
    material!(PieceKind::Advisor);

    // Elephants: mobility (eyes honoured).
    for sq in pos.pieces(us, PieceKind::Elephant) {
        place!(PieceKind::Elephant, sq);
        let (reach, mob) = elephant_reach::<US>(sq, occ, own);
        map.low |= reach;
        add!(sink, w, Term::Mobility, us, mobility_elephant[mob], 1);
    }
    material!(PieceKind::Elephant);

    // Horses: mobility (legs honoured), palace attacks.
    for sq in pos.pieces(us, PieceKind::Horse) {
        place!(PieceKind::Horse, sq);
        let att = attacks::horse(sq, occ);
        map.mid |= att;
        let mob = count_near(att & not_own, sq) as usize;
        add!(sink, w, Term::Mobility, us, mobility_horse[mob], 1);
        let pa = att & their_palace;
        if pa.any() {
            add!(
                sink,
                w,
                Term::PalaceAttack,
                us,
                palace_attack[0],
                count_in_half(pa, them)
            );
            units += ATTACK_UNITS[PieceKind::Horse.index()];
        }
    }
    material!(PieceKind::Horse);

    // Rooks: mobility, palace attacks, files.
    let own_pawns = all_pawns & own;
    for sq in pos.pieces(us, PieceKind::Rook) {
        place!(PieceKind::Rook, sq);
        let att = attacks::rook(sq, occ);
        map.all |= att;
        pins |= pinned_by(sq, their_king, occ, enemy, 1);
        let mob = (att & not_own).count() as usize;
        add!(sink, w, Term::Mobility, us, mobility_rook[mob], 1);
        let pa = att & their_palace;
        if pa.any() {
            add!(
                sink,
                w,
                Term::PalaceAttack,
                us,
                palace_attack[1],
                count_in_half(pa, them)
            );
            units += ATTACK_UNITS[PieceKind::Rook.index()];
        }
        let file = file_mask(sq.file());
        if (file & all_pawns).is_empty() {
            add!(sink, w, Term::RookFiles, us, rook_open_file, 1);
        } else if (file & own_pawns).is_empty() {
            add!(sink, w, Term::RookFiles, us, rook_half_open_file, 1);
        }
        if file == king_file {
            add!(sink, w, Term::RookKingFile, us, rook_king_file, 1);
        }
    }
    material!(PieceKind::Rook);

    // Cannons: quiet moves plus capture targets, control beyond the screens,
    // the king's file and the bottom rank.
    let king_on_back_rank = their_back_rank.has(their_king);
    for sq in pos.pieces(us, PieceKind::Cannon) {
        place!(PieceKind::Cannon, sq);
        // With the screens lifted, the lines run on to the next piece: the
        // points beyond the screens are what the cannon controls, and the
        // pieces ending them are what it can capture.
        let lines = attacks::rook(sq, occ);
        let screens = lines & occ;
        let through = occ ^ screens;
        let beyond = attacks::rook(sq, through);
        map.mid |= beyond & through;
        pins |= pinned_by(sq, their_king, occ, enemy, 2);
        let captures = beyond & through & enemy;
        let mob = ((lines & !occ) | captures).count() as usize;
        add!(sink, w, Term::Mobility, us, mobility_cannon[mob], 1);
        let pa = beyond & !lines & their_palace;
        if pa.any() {
            add!(
                sink,
                w,
                Term::PalaceAttack,
                us,
                palace_attack[2],
                count_in_half(pa, them)
            );
            units += ATTACK_UNITS[PieceKind::Cannon.index()];
        }
        if sq.file() == their_king.file() {
            // The king ends the line (nothing between), ends it beyond one
            // screen, or stands further.
            let between = if lines.has(their_king) {
                0
            } else if beyond.has(their_king) {
                1
            } else {
                (attacks::between(sq, their_king) & occ).count() as usize
            };
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
    material!(PieceKind::Cannon);

    // Pawns: side-by-side crossed pawns, pawns on the last rank.
    for sq in own_pawns {
        place!(PieceKind::Pawn, sq);
    }
    map.low |= pawn_attacks::<US>(own_pawns);
    for sq in own_pawns & their_palace_zone(us) {
        if (attacks::pawn(us, sq) & their_palace).any() {
            units += ATTACK_UNITS[PieceKind::Pawn.index()];
        }
    }
    add!(
        sink,
        w,
        Term::KingDanger,
        us,
        king_danger[units.min(KING_DANGER - 1)],
        1
    );
    material!(PieceKind::Pawn);
    let crossed = own_pawns & !Bitboard::own_half(us);
    if crossed.more_than_one() {
        let bits = crossed.bits();
        let pairs = (bits & (bits >> 1) & NOT_FILE_I).count_ones() as i32;
        add!(sink, w, Term::Pawns, us, pawn_connected, pairs);
    }
    let bottom = own_pawns & their_back_rank;
    if bottom.any() {
        add!(sink, w, Term::Pawns, us, pawn_bottom, bottom.count() as i32);
    }
    for sq in pins {
        if let Some(piece) = pos.piece_at(sq) {
            add!(sink, w, Term::Pins, us, pinned[piece.kind().index()], 1);
        }
    }
    map.all |= map.low | map.mid;
    map
}

/// The kinds that can be defended or attacked as pieces: all but the king,
/// which comes first in [`PieceKind::ALL`].
#[inline(always)]
fn targets() -> impl Iterator<Item = PieceKind> {
    PieceKind::ALL[1..].iter().copied()
}

/// Threats of `us` against the enemy's pieces (undefended or attacked by
/// something cheaper) and `us`'s own pieces that guard each other, from both
/// sides' attack maps.
#[inline(always)]
fn threats<S: Sink, const US: usize>(
    pos: &Position,
    w: &Weights,
    sink: &mut S,
    ours: &AttackMap,
    theirs: &AttackMap,
) {
    let us = Color::ALL[US];
    let them = !us;
    // Usually none or one: look each up rather than test every kind.
    let loose = pos.color_bb(them).without(pos.king_square(them)) & ours.all & !theirs.all;
    for sq in loose {
        if let Some(piece) = pos.piece_at(sq) {
            add!(sink, w, Term::Threats, us, hanging[piece.kind().index()], 1);
        }
    }
    let rooks = pos.pieces(them, PieceKind::Rook) & (ours.low | ours.mid);
    if rooks.any() {
        let k = PieceKind::Rook.index();
        add!(
            sink,
            w,
            Term::Threats,
            us,
            threat_by_lesser[k],
            rooks.count() as i32
        );
    }
    for kind in [PieceKind::Horse, PieceKind::Cannon] {
        let n = (pos.pieces(them, kind) & ours.low).count() as i32;
        if n != 0 {
            add!(
                sink,
                w,
                Term::Threats,
                us,
                threat_by_lesser[kind.index()],
                n
            );
        }
    }
    let guarded = pos.color_bb(us) & ours.all;
    if guarded.any() {
        for kind in targets() {
            let n = (pos.pieces(us, kind) & guarded).count() as i32;
            if n != 0 {
                add!(sink, w, Term::Protection, us, protected[kind.index()], n);
            }
        }
    }
}

/// King safety: `us`'s missing advisors and elephants against the enemy's
/// horses, rooks and cannons.
#[inline(always)]
fn missing_defenders<S: Sink, const US: usize>(w: &Weights, sink: &mut S, counts: &Counts) {
    let us = Color::ALL[US];
    let (ours, theirs) = (&counts[us.index()], &counts[(!us).index()]);
    let missing_advisors = 2 - ours[PieceKind::Advisor.index()];
    let missing_elephants = 2 - ours[PieceKind::Elephant.index()];
    if missing_advisors + missing_elephants == 0 {
        return;
    }
    for (i, kind) in crate::weights::ATTACKERS.into_iter().enumerate() {
        let attackers = theirs[kind.index()];
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

/// The phase from piece counts (what [`phase`] computes from the board).
#[inline(always)]
fn phase_of(counts: &Counts) -> i32 {
    let mut sum = 0;
    for side in counts {
        for (n, weight) in side.iter().zip(PHASE_WEIGHTS) {
            sum += n * weight;
        }
    }
    sum.min(PHASE_MAX)
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
pub(crate) fn finish(pos: &Position, total: Score, counts: &Counts) -> Outcome {
    let phase = phase_of(counts);
    let blended = (total.mg * phase + total.eg * (PHASE_MAX - phase)) / PHASE_MAX;
    let scale = match blended.signum() {
        1 => endgame::scale_with_counts(pos, Color::Red, counts),
        -1 => endgame::scale_with_counts(pos, Color::Black, counts),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_counts_match_full_counts() {
        let mut state = shuai_board::Rng::new(0x1234_5678_9ABC_DEF1u64);
        for _ in 0..2000 {
            let seed = state.next_u64();
            let occ = Bitboard::from_bits((seed as u128) << 45 ^ (seed.rotate_left(29) as u128));
            for sq in Bitboard::FULL {
                let att = attacks::horse(sq, occ) & !occ.without(sq);
                assert_eq!(count_near(att, sq), att.count() as i32, "{sq}");
            }
            for c in Color::ALL {
                let set = occ & Bitboard::own_half(c);
                assert_eq!(count_in_half(set, c), set.count() as i32);
            }
        }
    }

    #[test]
    fn attack_maps_agree_with_the_board_on_every_occupied_point() {
        let mut state = shuai_board::Rng::new(0x51F1_5EED_0BAD_CAFEu64);
        let mut checked = 0;
        for _game in 0..40 {
            let mut pos = Position::startpos();
            for _ply in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let pick = (state.next_u64() % moves.len() as u64) as usize;
                pos.make_move(moves.as_slice()[pick]);
                let (occ, pawns) = (pos.occupied(), pos.kind_bb(PieceKind::Pawn));
                let w = Weights::DEFAULT;
                let mut sink = Totals::default();
                let mut counts: Counts = [[0; 7]; 2];
                let maps = [
                    pieces::<_, 0>(&pos, &w, &mut sink, occ, pawns, &mut counts[0]),
                    pieces::<_, 1>(&pos, &w, &mut sink, occ, pawns, &mut counts[1]),
                ];
                for c in Color::ALL {
                    let map = &maps[c.index()];
                    let kinds = |ks: &[PieceKind]| {
                        ks.iter()
                            .fold(Bitboard::EMPTY, |acc, &k| acc | pos.pieces(c, k))
                    };
                    let low = kinds(&[PieceKind::Pawn, PieceKind::Advisor, PieceKind::Elephant]);
                    let mid = kinds(&[PieceKind::Horse, PieceKind::Cannon]);
                    for sq in occ {
                        let by = pos.attackers_to(sq, c, occ);
                        assert_eq!(map.all.has(sq), by.any(), "{} {sq}", pos.to_fen());
                        assert_eq!(map.low.has(sq), (by & low).any(), "{} {sq}", pos.to_fen());
                        assert_eq!(map.mid.has(sq), (by & mid).any(), "{} {sq}", pos.to_fen());
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 100_000, "{checked}");
    }

    #[test]
    fn pawn_attacks_by_shifts_match_the_attack_table() {
        let mut state = shuai_board::Rng::new(0x9E37_79B9_7F4A_7C15u64);
        for _ in 0..3000 {
            let seed = state.next_u64();
            let pawns = Bitboard::from_bits(
                ((seed as u128) << 45 ^ (seed.rotate_left(31) as u128)) & Bitboard::FULL.bits(),
            );
            for (us, fast) in [
                (Color::Red, pawn_attacks::<0>(pawns)),
                (Color::Black, pawn_attacks::<1>(pawns)),
            ] {
                let slow = pawns
                    .into_iter()
                    .fold(Bitboard::EMPTY, |acc, sq| acc | attacks::pawn(us, sq));
                assert_eq!(fast, slow, "{us:?} {pawns:?}");
            }
        }
    }

    #[test]
    fn elephant_reach_matches_the_attack_table() {
        let mut state = shuai_board::Rng::new(0x2545_F491_4F6C_DD1Du64);
        for _ in 0..3000 {
            let seed = state.next_u64();
            let a = (seed as u128) << 64 | (seed.rotate_left(23) as u128);
            let occ = Bitboard::from_bits(a & a >> 5);
            let own = Bitboard::from_bits(occ.bits() & (seed as u128 * 0x9E37_79B9));
            for sq in Bitboard::FULL {
                let (occ, own) = (occ.with(sq), own.with(sq));
                let reach = attacks::elephant(sq, occ);
                let slow = (reach, (reach & !own).count() as usize);
                let fast = if sq.on_own_side(Color::Red) {
                    elephant_reach::<0>(sq, occ, own)
                } else {
                    elephant_reach::<1>(sq, occ, own)
                };
                assert_eq!(fast, slow, "{sq}");
            }
        }
    }
}
