//! Material signatures: which pieces each side has, the table an ending
//! belongs to, and its name (`KRKAA`).

use shuai_board::{Color, PieceKind, Position};
use std::fmt;

/// The non-king kinds in the order names are written and tables are
/// indexed: attackers first, then the defenders.
pub const KINDS: [PieceKind; 6] = [
    PieceKind::Rook,
    PieceKind::Horse,
    PieceKind::Cannon,
    PieceKind::Pawn,
    PieceKind::Advisor,
    PieceKind::Elephant,
];

/// The letters of [`KINDS`] in ending names: `H` and `E` as Xiangqi
/// literature writes them (FEN's `N` and `B` are accepted when parsing).
const LETTERS: [char; 6] = ['R', 'H', 'C', 'P', 'A', 'E'];

/// How many pieces of each non-king kind a side has (both sides always
/// have their king). The array follows [`KINDS`].
pub type Side = [u8; 6];

/// The pieces of both sides of an ending, Red's first.
///
/// A table is stored for the *canonical* orientation only: Red holds the
/// side that sorts higher by [`KINDS`] order (a rook before a horse, any
/// attacker before advisors), so `KAKR` is the table `KRKA` seen with the
/// colours swapped.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    sides: [Side; 2],
}

/// Why a material name was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MaterialError(pub String);

impl fmt::Display for MaterialError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MaterialError {}

impl Material {
    /// The material with `red` and `black` counts, if every count is one a
    /// side can have.
    pub fn new(red: Side, black: Side) -> Option<Material> {
        let ok = |s: &Side| {
            s.iter()
                .zip(KINDS)
                .all(|(&n, k)| u32::from(n) <= k.max_count())
        };
        (ok(&red) && ok(&black)).then_some(Material {
            sides: [red, black],
        })
    }

    /// The pieces on the board of `pos`.
    pub fn of(pos: &Position) -> Material {
        let side = |c: Color| KINDS.map(|k| pos.pieces(c, k).count() as u8);
        Material {
            sides: [side(Color::Red), side(Color::Black)],
        }
    }

    /// The counts of `color`.
    pub fn side(&self, color: Color) -> &Side {
        &self.sides[color.index()]
    }

    /// How many `kind` pieces `color` has (kings: 1).
    pub fn count(&self, color: Color, kind: PieceKind) -> u8 {
        match KINDS.iter().position(|&k| k == kind) {
            Some(i) => self.sides[color.index()][i],
            None => 1,
        }
    }

    /// Whether `color` has a piece that can give check: a rook, horse,
    /// cannon or pawn (advisors and elephants never reach the other
    /// palace).
    pub fn has_attacker(&self, color: Color) -> bool {
        KINDS
            .iter()
            .zip(self.side(color))
            .any(|(&kind, &n)| n > 0 && !matches!(kind, PieceKind::Advisor | PieceKind::Elephant))
    }

    /// How many attacking pieces (rooks, horses, cannons, pawns) the two
    /// sides have together: the stage whose tables hold the ending (1:
    /// [`stage1`], 2: [`stage2`]; 0 needs no table, a bare king with
    /// defenders cannot mate, so it is a draw).
    pub fn attackers(&self) -> usize {
        self.sides
            .iter()
            .map(|s| s[..4].iter().map(|&n| usize::from(n)).sum::<usize>())
            .sum()
    }

    /// The same ending with the colours swapped.
    pub fn swapped(&self) -> Material {
        Material {
            sides: [self.sides[1], self.sides[0]],
        }
    }

    /// Whether this is the orientation tables are stored in.
    pub fn is_canonical(&self) -> bool {
        self.sides[0] >= self.sides[1]
    }

    /// The stored orientation and whether the colours had to be swapped to
    /// reach it.
    pub fn canonical(&self) -> (Material, bool) {
        if self.is_canonical() {
            (*self, false)
        } else {
            (self.swapped(), true)
        }
    }

    /// Pieces on the board, kings included.
    pub fn piece_count(&self) -> usize {
        2 + self
            .sides
            .iter()
            .flatten()
            .map(|&n| n as usize)
            .sum::<usize>()
    }

    /// The materials one capture away (one non-king piece of either side
    /// removed), each in its canonical orientation, without repeats.
    pub fn captures(&self) -> Vec<Material> {
        let mut out = Vec::new();
        for c in 0..2 {
            for i in 0..KINDS.len() {
                if self.sides[c][i] > 0 {
                    let mut m = *self;
                    m.sides[c][i] -= 1;
                    let canon = m.canonical().0;
                    if !out.contains(&canon) {
                        out.push(canon);
                    }
                }
            }
        }
        out
    }

    /// This material and every material reachable from it by captures,
    /// canonical, smallest first (the order to generate them in).
    pub fn closure(&self) -> Vec<Material> {
        let mut all = vec![self.canonical().0];
        let mut i = 0;
        while i < all.len() {
            for m in all[i].captures() {
                if !all.contains(&m) {
                    all.push(m);
                }
            }
            i += 1;
        }
        all.sort_by_key(|m| (m.piece_count(), *m));
        all
    }

    /// Parses a name such as `KRKAA` or `KHAEKAAEE`: Red's pieces from
    /// its `K` up to Black's `K`, then Black's. Letters are FEN letters in
    /// either case (`N`/`B` are read as horse/elephant too); the order
    /// within a side does not matter.
    pub fn parse(name: &str) -> Result<Material, MaterialError> {
        let upper = name.trim().to_ascii_uppercase();
        let err = |why: &str| MaterialError(format!("ending '{}': {why}", name.trim()));
        let Some(rest) = upper.strip_prefix('K') else {
            return Err(err("must start with Red's K"));
        };
        let Some((red, black)) = rest.split_once('K') else {
            return Err(err("needs a second K for Black"));
        };
        let side = |text: &str| -> Result<Side, MaterialError> {
            let mut s = [0u8; 6];
            for ch in text.chars() {
                let kind = PieceKind::from_letter(ch).ok_or_else(|| err("unknown piece letter"))?;
                // A king here cannot happen: the text was split at the kings.
                let i = KINDS
                    .iter()
                    .position(|&k| k == kind)
                    .ok_or_else(|| err("a side has one king"))?;
                s[i] += 1;
            }
            Ok(s)
        };
        Material::new(side(red)?, side(black)?)
            .ok_or_else(|| err("more pieces of a kind than a side has"))
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for side in &self.sides {
            f.write_str("K")?;
            for (&n, letter) in side.iter().zip(LETTERS) {
                for _ in 0..n {
                    write!(f, "{letter}")?;
                }
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The stage-1 endings: one rook, horse, cannon or pawn for Red, any
/// advisors and elephants for both sides (324 tables), smallest first.
pub fn stage1() -> Vec<Material> {
    let attackers = (0..4).map(|a| {
        let mut red = [0u8; 6];
        red[a] = 1;
        (red, [0u8; 6])
    });
    with_defenders(attackers)
}

/// The stage-2 endings: two attacking pieces in all, either both for one
/// side (two rooks, rook and pawn, horse and pawn, two pawns, …) or one
/// for each (rook against horse, cannon against pawn, …), with any
/// advisors and elephants for both sides (1,476 tables), smallest first.
/// Most are far larger than stage 1's; `shuai-tools egtb gen stage2
/// --max-entries N` generates those that fit.
pub fn stage2() -> Vec<Material> {
    let mut attackers = Vec::new();
    for a in 0..4 {
        for b in a..4 {
            let mut both = [0u8; 6];
            both[a] += 1;
            both[b] += 1;
            attackers.push((both, [0u8; 6]));
            let (mut red, mut black) = ([0u8; 6], [0u8; 6]);
            red[a] = 1;
            black[b] = 1;
            attackers.push((red, black));
        }
    }
    with_defenders(attackers)
}

/// Every canonical ending with the attackers of `attackers` (Red's,
/// Black's) and any advisors and elephants for both sides, without
/// repeats, smallest first.
fn with_defenders(attackers: impl IntoIterator<Item = (Side, Side)>) -> Vec<Material> {
    let mut out = Vec::new();
    for (red, black) in attackers {
        for defenders in 0..81u8 {
            let count = |k: u8| defenders / 3u8.pow(u32::from(k)) % 3;
            let (mut red, mut black) = (red, black);
            (red[4], red[5], black[4], black[5]) = (count(0), count(1), count(2), count(3));
            if let Some(m) = Material::new(red, black) {
                out.push(m.canonical().0);
            }
        }
    }
    out.sort_by_key(|m| (m.piece_count(), *m));
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_orient() {
        let m = Material::parse("KRAEKAA").unwrap();
        assert_eq!(m.to_string(), "KRAEKAA");
        assert!(m.is_canonical());
        // FEN letters, any order, either case.
        assert_eq!(Material::parse("kearkaa").unwrap(), m);
        assert_eq!(Material::parse("KNKB").unwrap().to_string(), "KHKE");
        // The bare king holding the rook is the same table, colours swapped.
        let swapped = Material::parse("KAAKRAE").unwrap();
        assert_eq!(swapped.canonical(), (m, true));
        assert!(Material::parse("KRR").is_err());
        assert!(Material::parse("RKK").is_err());
        assert!(Material::parse("KAAAK").is_err());
        assert!(Material::parse("KXK").is_err());
    }

    #[test]
    fn attackers_are_rooks_horses_cannons_and_pawns() {
        let m = |name: &str| Material::parse(name).unwrap();
        assert!(m("KRKAAEE").has_attacker(Color::Red));
        assert!(!m("KRKAAEE").has_attacker(Color::Black));
        assert!(m("KPKH").has_attacker(Color::Black));
        assert!(m("KAAEEKC").has_attacker(Color::Black));
        assert!(!m("KAAEEKC").has_attacker(Color::Red));
        assert_eq!(m("KRKAAEE").attackers(), 1);
        assert_eq!(m("KPKH").attackers(), 2);
        assert_eq!(m("KRHPKAA").attackers(), 3);
        assert_eq!(m("KAAEEKAE").attackers(), 0);
        assert_eq!(m("KRRHHCCPPPPPKPPPPP").attackers(), 16);
    }

    #[test]
    fn captures_and_closure() {
        let m = Material::parse("KPKA").unwrap();
        let caps: Vec<String> = m.captures().iter().map(|c| c.to_string()).collect();
        assert_eq!(caps, ["KAK", "KPK"]);
        let all: Vec<String> = m.closure().iter().map(|c| c.to_string()).collect();
        assert_eq!(all, ["KK", "KAK", "KPK", "KPKA"]);
    }

    #[test]
    fn stage_one_has_324_endings() {
        let s = stage1();
        assert_eq!(s.len(), 324);
        assert!(s.iter().all(Material::is_canonical));
        // Smallest first: three pieces, then by the counts.
        assert_eq!(s[0].to_string(), "KPK");
        assert_eq!(s[323].to_string(), "KRAAEEKAAEE");
        assert!(s.iter().all(|m| m.attackers() == 1));
    }

    #[test]
    fn stage_two_has_1476_endings() {
        let s = stage2();
        assert_eq!(s.len(), 1476);
        assert!(s.iter().all(Material::is_canonical));
        let name = |i: usize| s[i].to_string();
        assert_eq!((name(0), name(1)), ("KPKP".to_string(), "KPPK".to_string()));
        assert_eq!(name(1475), "KRRAAEEKAAEE");
        // Two attackers in all, on one side or one each, none in stage 1.
        let attackers = |side: &Side| side[..4].iter().sum::<u8>();
        for m in &s {
            let [red, black] = m.sides;
            assert_eq!(attackers(&red) + attackers(&black), 2, "{m}");
            assert_eq!(m.attackers(), 2, "{m}");
        }
        let one = stage1();
        assert!(s.iter().all(|m| !one.contains(m)));
        for name in ["KRKH", "KHPK", "KCPKAA", "KPPKAE", "KRAKCAE", "KHKH"] {
            let m = Material::parse(name).unwrap().canonical().0;
            assert!(s.contains(&m), "{name}");
        }
    }
}
