//! Which endings games reach (`shuai-tools egtb census`): for each game,
//! the material at the first position with at most two attacking pieces
//! (rooks, horses, cannons, pawns) on the board, the most the tables of
//! stages 1 and 2 cover, counted by ending so that the endings met most
//! often can be generated first.
//!
//! Two counts are kept per ending. *Entered* is the material of that first
//! position, exactly what a search probes when a capture leads there. It is
//! often the middle of an exchange (a rook takes a rook, the king takes the
//! rook back), so *settled* is the material of the first position from
//! there on that the next move does not change (or the game's last): the
//! ending that is then played out.

use crate::data::PackedPosition;
use shuai_board::{Color, Move, Position};
use shuai_egtb::material::KINDS;
use shuai_egtb::Material;
use std::collections::HashMap;

/// The most attacking pieces (both sides together) of an ending the
/// tables cover: stage 2's two.
pub const MAX_ATTACKERS: usize = 2;

/// How often one ending was reached.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games whose first position within the tables' material had it.
    pub entered: u64,
    /// Games whose first position within the tables' material that the
    /// next move does not change had it.
    pub settled: u64,
}

/// The endings reached by a set of games.
#[derive(Clone, Debug, Default)]
pub struct Census {
    /// Per canonical ending.
    endings: HashMap<Material, Tally>,
    /// Games counted (those that started within the tables' material are
    /// not among them).
    pub games: u64,
    /// Games that reached the tables' material.
    pub reached: u64,
    /// Games left out because their first position already had at most
    /// [`MAX_ATTACKERS`] attackers (set-up endgame positions, not reached
    /// by play).
    pub started_within: u64,
}

impl Census {
    /// An empty census.
    pub fn new() -> Census {
        Census::default()
    }

    /// Counts one game given as the material of each of its positions in
    /// order, the start first.
    pub fn add_materials(&mut self, materials: &[Material]) {
        let Some(first) = materials.first() else {
            return;
        };
        if first.attackers() <= MAX_ATTACKERS {
            self.started_within += 1;
            return;
        }
        self.games += 1;
        let Some(i) = materials
            .iter()
            .position(|m| m.attackers() <= MAX_ATTACKERS)
        else {
            return;
        };
        self.reached += 1;
        let entered = materials[i].canonical().0;
        self.endings.entry(entered).or_default().entered += 1;
        // The first from `i` on that the next position keeps.
        let settled = (i..materials.len())
            .find(|&j| {
                materials
                    .get(j + 1)
                    .is_none_or(|next| *next == materials[j])
            })
            .map_or(entered, |j| materials[j].canonical().0);
        self.endings.entry(settled).or_default().settled += 1;
    }

    /// Counts one game from its start and the moves played (legal moves:
    /// the caller has checked them, as a game reader does).
    pub fn add_game(&mut self, start: &Position, moves: &[Move]) {
        let mut pos = start.clone();
        let mut materials = Vec::with_capacity(moves.len() + 1);
        materials.push(Material::of(&pos));
        for &m in moves {
            pos.make_move(m);
            materials.push(Material::of(&pos));
        }
        self.add_materials(&materials);
    }

    /// Counts the games of training records (in file order, each game's
    /// last record flagged). Only the positions the records keep are
    /// seen (self-play data keeps quiet ones), so an ending entered and
    /// left between two records is missed, and *entered* is close to
    /// *settled* here.
    pub fn add_records(&mut self, records: &[PackedPosition]) {
        for game in crate::data::games(records) {
            let materials: Vec<Material> =
                records[game].iter().filter_map(record_material).collect();
            self.add_materials(&materials);
        }
    }

    /// Adds another census's counts to this one.
    pub fn merge(&mut self, other: &Census) {
        for (m, t) in &other.endings {
            let e = self.endings.entry(*m).or_default();
            e.entered += t.entered;
            e.settled += t.settled;
        }
        self.games += other.games;
        self.reached += other.reached;
        self.started_within += other.started_within;
    }

    /// The same counts with the defenders left out: one ending per set of
    /// attackers (rook against rook, horse and pawn against none, …),
    /// named without advisors and elephants (`KRKR`, `KHPK`).
    pub fn by_attackers(&self) -> Census {
        let mut out = Census {
            games: self.games,
            reached: self.reached,
            started_within: self.started_within,
            ..Census::default()
        };
        for (m, t) in &self.endings {
            let e = out.endings.entry(attackers_of(m)).or_default();
            e.entered += t.entered;
            e.settled += t.settled;
        }
        out
    }

    /// The tally of `material` (either orientation).
    pub fn tally(&self, material: &Material) -> Tally {
        self.endings
            .get(&material.canonical().0)
            .copied()
            .unwrap_or_default()
    }

    /// Every ending reached, most often entered first (then most often
    /// settled, then smallest first, so the order is always the same).
    pub fn ranking(&self) -> Vec<(Material, Tally)> {
        let mut all: Vec<(Material, Tally)> = self.endings.iter().map(|(m, t)| (*m, *t)).collect();
        all.sort_by_key(|(m, t)| {
            (
                std::cmp::Reverse(t.entered),
                std::cmp::Reverse(t.settled),
                m.piece_count(),
                *m,
            )
        });
        all
    }
}

/// `material` without its advisors and elephants, canonical: the set of
/// attackers it stands for (`KRAAKHE` → `KRKH`).
pub fn attackers_of(material: &Material) -> Material {
    let strip = |c: Color| {
        let mut s = *material.side(c);
        s[4..].fill(0);
        s
    };
    // Fewer pieces than a valid material always make a valid one.
    Material::new(strip(Color::Red), strip(Color::Black))
        .unwrap_or(*material)
        .canonical()
        .0
}

/// The material of a training record; `None` for a record with more
/// pieces of a kind than a side has (a corrupt one).
fn record_material(p: &PackedPosition) -> Option<Material> {
    let mut sides = [[0u8; 6]; 2];
    p.for_each_piece(|piece, _| {
        if let Some(i) = KINDS.iter().position(|&k| k == piece.kind()) {
            let side = usize::from(piece.color() != Color::Red);
            sides[side][i] = sides[side][i].saturating_add(1);
        }
    });
    Material::new(sides[0], sides[1])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(name: &str) -> Material {
        Material::parse(name).unwrap()
    }

    #[test]
    fn counts_the_first_position_within_the_tables_and_where_it_settles() {
        let mut c = Census::new();
        // A rook exchange: rook takes rook (KRHKAA, two attackers: entered),
        // an advisor takes it back (KHKAA: settled).
        c.add_materials(&[
            m("KRHKRAA"),
            m("KRHKRAA"),
            m("KRHKAA"),
            m("KHKAA"),
            m("KHKAA"),
        ]);
        // Black holds the stronger side: counted under the canonical name.
        c.add_materials(&[m("KAKRHC"), m("KAKRH"), m("KAKRH")]);
        // Never within the tables.
        c.add_materials(&[m("KRHCKRH"), m("KRHCKRH")]);
        // Set up within the tables: left out.
        c.add_materials(&[m("KRKA"), m("KRK")]);
        // Entered on the last position.
        c.add_materials(&[m("KRPPK"), m("KRPK")]);
        assert_eq!((c.games, c.reached, c.started_within), (4, 3, 1));
        assert_eq!(
            c.tally(&m("KRHKAA")),
            Tally {
                entered: 1,
                settled: 0
            }
        );
        assert_eq!(
            c.tally(&m("KHKAA")),
            Tally {
                entered: 0,
                settled: 1
            }
        );
        assert_eq!(
            c.tally(&m("KRHKA")),
            Tally {
                entered: 1,
                settled: 1
            }
        );
        assert_eq!(
            c.tally(&m("KRPK")),
            Tally {
                entered: 1,
                settled: 1
            }
        );
        let names: Vec<String> = c.ranking().iter().map(|(m, _)| m.to_string()).collect();
        // Ties on entered broken by settled, then by size (pieces on the
        // board): KRPK before KRHKA.
        assert_eq!(names, ["KRPK", "KRHKA", "KRHKAA", "KHKAA"]);
        // Without defenders: KRHKA and KRHKAA are both KRHK.
        let bare = c.by_attackers();
        assert_eq!(
            bare.tally(&m("KRHK")),
            Tally {
                entered: 2,
                settled: 1
            }
        );
        assert_eq!(
            bare.tally(&m("KHK")),
            Tally {
                entered: 0,
                settled: 1
            }
        );
        assert_eq!(bare.ranking().len(), 3);
        assert_eq!(attackers_of(&m("KAAEKRH")), m("KRHK"));
        assert_eq!(attackers_of(&m("KPAKAAEE")), m("KPK"));
        assert_eq!(bare.reached, 3);
    }

    #[test]
    fn games_are_played_through_from_their_moves() {
        // Red's rook takes Black's rook with check (d0d9: rook and horse
        // against an advisor), the advisor takes it back (e8d9: horse
        // against advisor), then a quiet king move.
        let start = Position::from_fen("3rk4/4a4/9/9/9/9/9/9/9/3R1K1N1 w - - 0 1").unwrap();
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for text in ["d0d9", "e8d9", "f0f1"] {
            let mv = pos.parse_move(text).unwrap();
            pos.make_move(mv);
            moves.push(mv);
        }
        let mut c = Census::new();
        c.add_game(&start, &moves);
        assert_eq!((c.games, c.reached), (1, 1));
        assert_eq!(
            c.tally(&m("KRHKA")),
            Tally {
                entered: 1,
                settled: 0
            }
        );
        assert_eq!(
            c.tally(&m("KHKA")),
            Tally {
                entered: 0,
                settled: 1
            }
        );
    }
}
