//! The network's inputs: one feature per piece on a point, seen from one
//! side (a *perspective*), optionally in one of several sets chosen by
//! where that side's own king stands (*king buckets*).
//!
//! From perspective `p`, a piece is "ours" or "theirs" (7 kinds each) and
//! stands on a point seen from `p`'s side of the board: Red reads the
//! board as it is, Black reads it turned half a turn ([`Square::flip`]), so
//! both see their own pieces at the bottom. That gives
//! [`INPUTS`] = 2 × 7 × 90 = 1260 features per perspective, and the same
//! weights serve both sides.
//!
//! # King buckets
//!
//! A network may instead have one such set of 1260 features per *king
//! bucket* ([`KingBuckets`]): the perspective's own king, seen from its
//! side, stands on one of the 9 points of its palace, and a table of those
//! 9 points gives the bucket. With mirroring, a perspective whose king
//! stands on the right-hand file of the palace (file f from its side)
//! reads every point mirrored left to right (file a ↔ i), so its king is
//! always on file d or e and the network learns each left–right pair of
//! positions once. The feature of a piece is then `bucket × 1260 +` the
//! index above, of the mirrored point when mirrored ([`View::index`]).
//!
//! Why: a piece's worth depends on where the enemy's attack meets the own
//! king (a rook on the king's open file, a horse near its palace), which
//! a feature set blind to the king can only learn as an average. With king
//! buckets the first layer sees the king's point at no cost in the output
//! layer; the price is that a king move that changes the bucket or the
//! mirroring recomputes that perspective's accumulator.
//!
//! The layout without buckets ([`KingBuckets::NONE`]) is exactly the
//! original feature set: [`View::index`] equals [`feature_index`] for it.
//! The trainer (`shuai-tools train`) computes its samples' features with
//! [`KingBuckets::view`] and [`View::index`] too, so the two cannot differ.

use shuai_board::{Color, Piece, Position, Square, FILES, SQUARES};
use std::fmt;

/// Features per perspective and king bucket: ours/theirs × 7 kinds × 90
/// points. A network without king buckets has exactly these; one with
/// `n` king buckets has `n × INPUTS`.
pub const INPUTS: usize = 2 * 7 * SQUARES;

/// Points in a palace (3 files × 3 ranks), the entries of a
/// [`KingBuckets`] table.
pub const PALACE_POINTS: usize = 9;

/// Most king buckets a layout may have: one per palace point.
pub const MAX_KING_BUCKETS: usize = PALACE_POINTS;

/// The feature of `piece` on `sq` from `perspective`'s point of view in a
/// network without king buckets: `(relation × 7 + kind) × 90 + point`,
/// relation 0 for the perspective's own pieces and 1 for the other
/// side's, point turned half a turn for Black.
#[inline]
pub fn feature_index(perspective: Color, piece: Piece, sq: Square) -> usize {
    let relation = usize::from(piece.color() != perspective);
    let point = match perspective {
        Color::Red => sq.index(),
        Color::Black => sq.flip().index(),
    };
    (relation * 7 + piece.kind().index()) * SQUARES + point
}

/// The active features of `pos` from `perspective` in a network without
/// king buckets, in the order of the board's points.
pub fn active_features(pos: &Position, perspective: Color) -> impl Iterator<Item = usize> + '_ {
    pos.occupied().into_iter().filter_map(move |sq| {
        pos.piece_at(sq)
            .map(|piece| feature_index(perspective, piece, sq))
    })
}

/// The active features of `pos` from `perspective` in a network whose
/// king buckets are `layout`, in the order of the board's points (for
/// [`KingBuckets::NONE`], those of [`active_features`]).
pub fn active_features_with<'a>(
    pos: &'a Position,
    perspective: Color,
    layout: &KingBuckets,
) -> impl Iterator<Item = usize> + 'a {
    let view = layout.view(perspective, pos.king_square(perspective));
    pos.occupied()
        .into_iter()
        .filter_map(move |sq| pos.piece_at(sq).map(|piece| view.index(piece, sq)))
}

/// How the own king's point chooses a perspective's feature set: a table
/// of the 9 palace points (seen from the perspective: rank 0 is its back
/// rank, files d, e, f left to right) to buckets `0..count`, and whether
/// a king on file f mirrors the board.
///
/// The table is indexed by `rank × 3 + (file − d)`. With mirroring the
/// file-f entries are never read (the king is mirrored onto file d
/// first); they must equal the file-d ones, so that a layout has one way
/// to be written down. Every bucket must be reachable, so that no weights
/// of a network go unused.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct KingBuckets {
    map: [u8; PALACE_POINTS],
    mirror: bool,
    count: u8,
}

impl fmt::Debug for KingBuckets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "KingBuckets({})", self.name())
    }
}

impl Default for KingBuckets {
    /// [`KingBuckets::NONE`].
    fn default() -> KingBuckets {
        KingBuckets::NONE
    }
}

impl KingBuckets {
    /// No king buckets and no mirroring: the original 1260 features.
    pub const NONE: KingBuckets = KingBuckets {
        map: [0; PALACE_POINTS],
        mirror: false,
        count: 1,
    };

    /// Six buckets, the king's file (d or e) × its rank (0, 1, 2), with a
    /// king on file f mirrored onto file d: the default of
    /// `shuai-tools train --king-buckets`.
    pub const MIRRORED_6: KingBuckets = KingBuckets {
        map: [0, 1, 0, 2, 3, 2, 4, 5, 4],
        mirror: true,
        count: 6,
    };

    /// Three buckets by the king's rank, mirrored.
    pub const MIRRORED_3: KingBuckets = KingBuckets {
        map: [0, 0, 0, 1, 1, 1, 2, 2, 2],
        mirror: true,
        count: 3,
    };

    /// Nine buckets, one per palace point, unmirrored.
    pub const POINTS_9: KingBuckets = KingBuckets {
        map: [0, 1, 2, 3, 4, 5, 6, 7, 8],
        mirror: false,
        count: 9,
    };

    /// The named layouts, by the names [`KingBuckets::by_name`] takes.
    pub const NAMED: [(&'static str, KingBuckets); 4] = [
        ("none", KingBuckets::NONE),
        ("mirrored6", KingBuckets::MIRRORED_6),
        ("mirrored3", KingBuckets::MIRRORED_3),
        ("points9", KingBuckets::POINTS_9),
    ];

    /// A layout from its table and mirror flag; the number of buckets is
    /// the largest entry plus one. Refused, with the reason: an entry of
    /// [`MAX_KING_BUCKETS`] or more, a bucket no king point reaches, or
    /// (mirrored) a file-f entry that differs from its file-d one.
    pub fn new(map: [u8; PALACE_POINTS], mirror: bool) -> Result<KingBuckets, String> {
        if let Some(&e) = map.iter().find(|&&e| usize::from(e) >= MAX_KING_BUCKETS) {
            return Err(format!(
                "king bucket {e} in the table, at most {}",
                MAX_KING_BUCKETS - 1
            ));
        }
        let count = map.iter().max().map_or(1, |m| m + 1);
        let mut reached = [false; MAX_KING_BUCKETS];
        for (i, &b) in map.iter().enumerate() {
            let on_f = i % 3 == 2;
            if mirror && on_f && b != map[i - 2] {
                return Err(format!(
                    "mirrored king buckets: file f of rank {} is bucket {b}, file d {} \
                     (a mirrored king on f uses d's bucket; write the same)",
                    i / 3,
                    map[i - 2]
                ));
            }
            if !(mirror && on_f) {
                reached[usize::from(b)] = true;
            }
        }
        if let Some(b) = (0..usize::from(count)).find(|&b| !reached[b]) {
            return Err(format!("king bucket {b} is reached from no king point"));
        }
        Ok(KingBuckets { map, mirror, count })
    }

    /// The layout named `name` (see [`KingBuckets::NAMED`]).
    pub fn by_name(name: &str) -> Option<KingBuckets> {
        KingBuckets::NAMED
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, k)| k)
    }

    /// The number of buckets (1 to [`MAX_KING_BUCKETS`]).
    #[inline]
    pub fn count(&self) -> usize {
        usize::from(self.count)
    }

    /// Whether a king on file f mirrors the board.
    pub fn mirrored(&self) -> bool {
        self.mirror
    }

    /// The table: the bucket of each palace point, `rank × 3 + (file − d)`.
    pub fn map(&self) -> [u8; PALACE_POINTS] {
        self.map
    }

    /// Whether this is [`KingBuckets::NONE`], the features without king
    /// buckets (one bucket, no mirroring).
    #[inline]
    pub fn is_none(&self) -> bool {
        self.count == 1 && !self.mirror
    }

    /// Features per perspective: `count × INPUTS`.
    pub fn inputs(&self) -> usize {
        self.count() * INPUTS
    }

    /// A name for descriptions and architecture lines: `no king buckets`,
    /// or e.g. `6 king buckets 0,1,0/2,3,2/4,5,4 mirrored` (the table
    /// rank by rank from the back rank, files d, e, f).
    pub fn name(&self) -> String {
        if self.is_none() {
            return "no king buckets".into();
        }
        let rank = |r: usize| {
            self.map[3 * r..3 * r + 3]
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(",")
        };
        format!(
            "{} king bucket{} {}/{}/{}{}",
            self.count,
            if self.count == 1 { "" } else { "s" },
            rank(0),
            rank(1),
            rank(2),
            if self.mirror { " mirrored" } else { "" }
        )
    }

    /// How `perspective` reads the board when its own king stands on
    /// `own_king`. A king outside its palace (no position has one) counts
    /// as standing on the nearest palace point.
    #[inline]
    pub fn view(&self, perspective: Color, own_king: Square) -> View {
        let point = match perspective {
            Color::Red => own_king,
            Color::Black => own_king.flip(),
        };
        let file = point.file().index();
        let rank = point.rank().index().min(2);
        let mirrored = self.mirror && file > FILES / 2;
        let file = if mirrored { FILES - 1 - file } else { file };
        let palace = rank * 3 + file.clamp(3, 5) - 3;
        let bucket = usize::from(self.map[palace]);
        View {
            offset: (bucket * INPUTS) as u16,
            table: (perspective.index() * 2 + usize::from(mirrored)) as u8,
        }
    }
}

/// How one perspective reads the board for a given own-king point
/// ([`KingBuckets::view`]): the bucket's offset and whether points are
/// mirrored. Two positions whose views are equal for a perspective share
/// its feature indices, so an accumulator can be updated from one to the
/// other; when they differ it must be recomputed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct View {
    /// `bucket × INPUTS`.
    offset: u16,
    /// `perspective × 2 + mirrored`: the row of [`POINTS`] and
    /// [`PIECE_BASE`].
    table: u8,
}

/// The point each square is read as, by `perspective × 2 + mirrored`: the
/// square itself, mirrored, turned half a turn (Black), turned and
/// mirrored. A table so that [`View::index`] costs two loads and two adds.
static POINTS: [[u8; 128]; 4] = {
    let mut t = [[0u8; 128]; 4];
    let mut i = 0;
    while i < SQUARES {
        let (file, rank) = (i % FILES, i / FILES);
        let mirror = rank * FILES + (FILES - 1 - file);
        t[0][i] = i as u8;
        t[1][i] = mirror as u8;
        t[2][i] = (SQUARES - 1 - i) as u8;
        t[3][i] = (SQUARES - 1 - mirror) as u8;
        i += 1;
    }
    t
};

/// `(relation × 7 + kind) × 90` of each piece (by [`Piece::index`], Red's
/// kinds first), by perspective: for Red its own pieces come first, for
/// Black the other way round.
static PIECE_BASE: [[u16; 16]; 2] = {
    let mut t = [[0u16; 16]; 2];
    let mut i = 0;
    while i < 14 {
        t[0][i] = (i * SQUARES) as u16;
        t[1][i] = (((i + 7) % 14) * SQUARES) as u16;
        i += 1;
    }
    t
};

impl View {
    /// The feature of `piece` on `sq` for this view: `bucket × INPUTS +
    /// (relation × 7 + kind) × 90 + point`, the point turned half a turn
    /// for Black and mirrored when the view is.
    #[inline(always)]
    pub fn index(self, piece: Piece, sq: Square) -> usize {
        let t = usize::from(self.table);
        // The masks let the compiler drop the bounds checks (the tables
        // are padded to the masks' sizes): a piece index is below 14, a
        // point below 90 and the table below 4 by construction.
        usize::from(self.offset)
            + usize::from(PIECE_BASE[(t >> 1) & 1][piece.index() & 15])
            + usize::from(POINTS[t & 3][sq.index() & 127])
    }

    /// The king bucket.
    pub fn bucket(self) -> usize {
        usize::from(self.offset) / INPUTS
    }

    /// Whether points are mirrored left to right.
    pub fn mirrored(self) -> bool {
        self.table & 1 == 1
    }

    /// The perspective.
    pub fn perspective(self) -> Color {
        Color::ALL[usize::from(self.table >> 1) & 1]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shuai_board::PieceKind;

    #[test]
    fn indices_cover_the_input_range_once() {
        let mut seen = vec![false; INPUTS];
        for p in Color::ALL {
            seen.iter_mut().for_each(|s| *s = false);
            for c in Color::ALL {
                for k in PieceKind::ALL {
                    for sq in Square::all() {
                        let f = feature_index(p, Piece::new(c, k), sq);
                        assert!(!seen[f], "feature {f} twice");
                        seen[f] = true;
                    }
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn each_side_sees_its_own_king_the_same_way() {
        let pos = Position::startpos();
        let red = feature_index(
            Color::Red,
            Piece::new(Color::Red, PieceKind::King),
            pos.king_square(Color::Red),
        );
        let black = feature_index(
            Color::Black,
            Piece::new(Color::Black, PieceKind::King),
            pos.king_square(Color::Black),
        );
        // e0 for Red is index 4; Black's e9 (85) turned is 4 too.
        assert_eq!(red, PieceKind::King.index() * SQUARES + 4);
        assert_eq!(red, black);
        let mut r: Vec<usize> = active_features(&pos, Color::Red).collect();
        let mut b: Vec<usize> = active_features(&pos, Color::Black).collect();
        r.sort_unstable();
        b.sort_unstable();
        assert_eq!(r, b, "the start position is the same from both sides");
        assert_eq!(r.len(), 32);
    }

    fn palace(color: Color) -> Vec<Square> {
        Square::all().filter(|s| s.in_palace(color)).collect()
    }

    fn all_pieces() -> impl Iterator<Item = Piece> {
        Color::ALL
            .into_iter()
            .flat_map(|c| PieceKind::ALL.map(|k| Piece::new(c, k)))
    }

    #[test]
    fn the_layout_without_buckets_is_the_original_features() {
        for p in Color::ALL {
            for king in palace(p) {
                let view = KingBuckets::NONE.view(p, king);
                assert_eq!(view, View::default().with_perspective(p));
                for piece in all_pieces() {
                    for sq in Square::all() {
                        assert_eq!(view.index(piece, sq), feature_index(p, piece, sq));
                    }
                }
            }
        }
        let pos = Position::from_fen("3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 b - - 0 1").unwrap();
        for p in Color::ALL {
            let a: Vec<usize> = active_features(&pos, p).collect();
            let b: Vec<usize> = active_features_with(&pos, p, &KingBuckets::NONE).collect();
            assert_eq!(a, b);
        }
    }

    impl View {
        /// The view of `p` with this one's bucket and mirroring (tests).
        fn with_perspective(self, p: Color) -> View {
            View {
                table: (p.index() * 2) as u8 | (self.table & 1),
                ..self
            }
        }
    }

    #[test]
    fn six_mirrored_buckets_by_the_kings_point() {
        let k = KingBuckets::MIRRORED_6;
        let sq = |s: &str| s.parse::<Square>().unwrap();
        // (perspective, king point, bucket, mirrored). Black's points are
        // read turned: its e9 is e0, its d9 is f0 (so mirrored).
        let cases = [
            (Color::Red, "d0", 0, false),
            (Color::Red, "e0", 1, false),
            (Color::Red, "f0", 0, true),
            (Color::Red, "d1", 2, false),
            (Color::Red, "e1", 3, false),
            (Color::Red, "f1", 2, true),
            (Color::Red, "d2", 4, false),
            (Color::Red, "e2", 5, false),
            (Color::Red, "f2", 4, true),
            (Color::Black, "e9", 1, false),
            (Color::Black, "d9", 0, true),
            (Color::Black, "f9", 0, false),
            (Color::Black, "e8", 3, false),
            (Color::Black, "d7", 4, true),
        ];
        for (p, king, bucket, mirrored) in cases {
            let v = k.view(p, sq(king));
            assert_eq!(
                (v.bucket(), v.mirrored()),
                (bucket, mirrored),
                "{p:?} {king}"
            );
            assert_eq!(v.perspective(), p);
        }
        // A red rook on a0, Red's king on f0: mirrored to i0 (point 8),
        // bucket 0; from Black, whose king is on e9 (bucket 1, not
        // mirrored), an enemy rook on a0 turned: i9 (point 89).
        let rook = Piece::new(Color::Red, PieceKind::Rook);
        let r = PieceKind::Rook.index();
        assert_eq!(
            k.view(Color::Red, sq("f0")).index(rook, sq("a0")),
            r * 90 + 8
        );
        assert_eq!(
            k.view(Color::Black, sq("e9")).index(rook, sq("a0")),
            INPUTS + (7 + r) * 90 + 89
        );
        // Black's king on d9 reads as f0 turned, so mirrored: a0 turned is
        // i9 (89), mirrored a9 (81).
        assert_eq!(
            k.view(Color::Black, sq("d9")).index(rook, sq("a0")),
            (7 + r) * 90 + 81
        );
        assert_eq!(k.name(), "6 king buckets 0,1,0/2,3,2/4,5,4 mirrored");
        assert_eq!(KingBuckets::NONE.name(), "no king buckets");
    }

    #[test]
    fn every_view_covers_its_own_bucket_once() {
        for (name, layout) in KingBuckets::NAMED {
            assert_eq!(
                KingBuckets::new(layout.map(), layout.mirrored()),
                Ok(layout)
            );
            assert_eq!(KingBuckets::by_name(name), Some(layout));
            let mut buckets_seen = vec![false; layout.count()];
            for p in Color::ALL {
                for king in palace(p) {
                    let view = layout.view(p, king);
                    buckets_seen[view.bucket()] = true;
                    let mut seen = vec![false; INPUTS];
                    for piece in all_pieces() {
                        for sq in Square::all() {
                            let f = view.index(piece, sq);
                            let local = f - view.bucket() * INPUTS;
                            assert!(local < INPUTS && !seen[local], "{name}: {f} twice");
                            seen[local] = true;
                        }
                    }
                }
            }
            assert!(buckets_seen.iter().all(|&b| b), "{name}: every bucket used");
            assert_eq!(layout.inputs(), layout.count() * INPUTS);
        }
    }

    #[test]
    fn bad_layouts_are_refused_with_reasons() {
        let err = |map, mirror| KingBuckets::new(map, mirror).unwrap_err();
        assert!(err([0, 9, 0, 0, 0, 0, 0, 0, 0], false).contains("bucket 9"));
        assert!(err([0, 2, 0, 0, 0, 0, 0, 0, 0], false).contains("bucket 1 is reached"));
        // Mirrored, bucket 2 only on file f: never read.
        assert!(err([0, 1, 2, 0, 1, 0, 0, 1, 0], true).contains("file f of rank 0"));
        assert!(err([0, 1, 0, 0, 1, 0, 0, 1, 2], true).contains("file f of rank 2"));
        // One bucket, mirrored: a layout of its own, not NONE.
        let one = KingBuckets::new([0; 9], true).unwrap();
        assert!(!one.is_none() && one.count() == 1);
        assert_eq!(one.name(), "1 king bucket 0,0,0/0,0,0/0,0,0 mirrored");
        assert!(KingBuckets::new([0; 9], false).unwrap().is_none());
    }
}
