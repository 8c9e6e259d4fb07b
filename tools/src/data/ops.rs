//! What the `data` subcommands do to a set of records: statistics,
//! shuffling, splitting by game and deduplication. All deterministic.

use super::packed::{PackedPosition, MAX_PIECES};
use shuai_board::Rng;
use std::collections::HashSet;
use std::fmt;

/// Upper bounds (exclusive) of the score histogram's buckets, centipawns
/// from Red's view; the last bucket holds the rest.
pub const SCORE_BUCKETS: [i32; 12] = [
    -1600, -800, -400, -200, -100, -50, 50, 100, 200, 400, 800, 1600,
];

/// Statistics of a set of records.
#[derive(Clone, Debug, PartialEq)]
pub struct Stats {
    /// Records.
    pub positions: usize,
    /// Records flagged last of their game.
    pub games: usize,
    /// Positions by outcome: Black wins, draws, Red wins (`Outcome as usize`).
    pub positions_by_outcome: [usize; 3],
    /// Games (flagged records) by outcome, the same order.
    pub games_by_outcome: [usize; 3],
    /// Positions by side to move: Red, Black.
    pub side_to_move: [usize; 2],
    /// Positions per score bucket (see [`SCORE_BUCKETS`]; 13 buckets).
    pub score_histogram: [usize; SCORE_BUCKETS.len() + 1],
    /// Positions by number of pieces on the board (index = pieces, 0..=32).
    pub piece_counts: [usize; MAX_PIECES + 1],
    /// Sum of |score|.
    pub abs_score_sum: u64,
}

impl Default for Stats {
    fn default() -> Stats {
        Stats {
            positions: 0,
            games: 0,
            positions_by_outcome: [0; 3],
            games_by_outcome: [0; 3],
            side_to_move: [0; 2],
            score_histogram: [0; SCORE_BUCKETS.len() + 1],
            piece_counts: [0; MAX_PIECES + 1],
            abs_score_sum: 0,
        }
    }
}

impl Stats {
    /// The statistics of `records`.
    pub fn of(records: &[PackedPosition]) -> Stats {
        let mut s = Stats::default();
        for p in records {
            s.add(p);
        }
        s
    }

    /// Counts one more record.
    pub fn add(&mut self, p: &PackedPosition) {
        self.positions += 1;
        let o = p.outcome() as usize;
        self.positions_by_outcome[o] += 1;
        if p.last_in_game() {
            self.games += 1;
            self.games_by_outcome[o] += 1;
        }
        self.side_to_move[p.side_to_move().index()] += 1;
        let score = p.red_score() as i32;
        let bucket = SCORE_BUCKETS.partition_point(|&edge| edge <= score);
        self.score_histogram[bucket] += 1;
        self.piece_counts[p.piece_count().min(MAX_PIECES)] += 1;
        self.abs_score_sum += score.unsigned_abs() as u64;
    }

    /// Mean |score| in centipawns (0 without records).
    pub fn mean_abs_score(&self) -> f64 {
        if self.positions == 0 {
            0.0
        } else {
            self.abs_score_sum as f64 / self.positions as f64
        }
    }
}

fn pct(n: usize, of: usize) -> f64 {
    if of == 0 {
        0.0
    } else {
        100.0 * n as f64 / of as f64
    }
}

fn bar(n: usize, max: usize) -> String {
    "#".repeat((n * 40).checked_div(max).unwrap_or(0))
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.positions;
        writeln!(f, "positions        {n}")?;
        writeln!(
            f,
            "games            {} (records flagged last of their game)",
            self.games
        )?;
        if self.games > 0 {
            writeln!(f, "positions/game   {:.1}", n as f64 / self.games as f64)?;
        }
        let [b, d, r] = self.positions_by_outcome;
        writeln!(
            f,
            "results (positions)  Red wins {r} ({:.1}%), draws {d} ({:.1}%), Black wins {b} ({:.1}%)",
            pct(r, n),
            pct(d, n),
            pct(b, n)
        )?;
        let g = self.games;
        let [b, d, r] = self.games_by_outcome;
        writeln!(
            f,
            "results (games)      Red wins {r} ({:.1}%), draws {d} ({:.1}%), Black wins {b} ({:.1}%)",
            pct(r, g),
            pct(d, g),
            pct(b, g)
        )?;
        let [red, black] = self.side_to_move;
        writeln!(
            f,
            "side to move     Red {red} ({:.1}%), Black {black} ({:.1}%)",
            pct(red, n),
            pct(black, n)
        )?;
        writeln!(f, "mean |score|     {:.1} cp", self.mean_abs_score())?;
        writeln!(f, "score (Red's view, cp):")?;
        let max = self.score_histogram.iter().copied().max().unwrap_or(0);
        for (i, &c) in self.score_histogram.iter().enumerate() {
            let label = match i {
                0 => format!("< {}", SCORE_BUCKETS[0]),
                i if i == SCORE_BUCKETS.len() => format!(">= {}", SCORE_BUCKETS[i - 1]),
                i => format!("{}..{}", SCORE_BUCKETS[i - 1], SCORE_BUCKETS[i]),
            };
            writeln!(
                f,
                "  {label:>12} {c:>10} {:5.1}% {}",
                pct(c, n),
                bar(c, max)
            )?;
        }
        writeln!(f, "pieces on the board:")?;
        let max = self.piece_counts.iter().copied().max().unwrap_or(0);
        for (pieces, &c) in self.piece_counts.iter().enumerate() {
            if c > 0 {
                writeln!(
                    f,
                    "  {pieces:>12} {c:>10} {:5.1}% {}",
                    pct(c, n),
                    bar(c, max)
                )?;
            }
        }
        Ok(())
    }
}

/// The records shuffled in an order fixed by `seed`.
pub fn shuffle(records: &mut [PackedPosition], seed: u64) {
    Rng::new(seed).shuffle(records);
}

/// The games of `records`: index ranges ending at each record flagged last
/// of its game (records after the last flag form one more game).
pub fn games(records: &[PackedPosition]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, p) in records.iter().enumerate() {
        if p.last_in_game() {
            out.push(start..i + 1);
            start = i + 1;
        }
    }
    if start < records.len() {
        out.push(start..records.len());
    }
    out
}

/// Splits `records` by game: `round(valid_fraction × games)` games chosen
/// by `seed` go to the validation set, the rest to the training set, each
/// keeping the file's order. A game is never cut in two.
pub fn split_by_game(
    records: &[PackedPosition],
    valid_fraction: f64,
    seed: u64,
) -> (Vec<PackedPosition>, Vec<PackedPosition>) {
    let games = games(records);
    let n_valid =
        ((valid_fraction.clamp(0.0, 1.0) * games.len() as f64).round() as usize).min(games.len());
    let mut order: Vec<usize> = (0..games.len()).collect();
    Rng::new(seed).shuffle(&mut order);
    let mut is_valid = vec![false; games.len()];
    for &g in &order[..n_valid] {
        is_valid[g] = true;
    }
    let (mut train, mut valid) = (Vec::new(), Vec::new());
    for (g, range) in games.into_iter().enumerate() {
        let to = if is_valid[g] { &mut valid } else { &mut train };
        to.extend_from_slice(&records[range]);
    }
    (train, valid)
}

/// A 64-bit fingerprint of the placement and side to move.
fn placement_hash(p: &PackedPosition) -> u64 {
    let key = p.placement_key();
    key.chunks(8).fold(0x243F_6A88_85A3_08D3u64, |h, c| {
        let mut w = [0u8; 8];
        w[..c.len()].copy_from_slice(c);
        // One SplitMix64 step mixes each word in.
        Rng::new(h ^ u64::from_le_bytes(w)).next_u64()
    })
}

/// Drops records whose pieces and side to move appeared earlier (by a
/// 64-bit fingerprint: a false match is about one in 10^12 at ten million
/// records), keeping the first. When the record dropped ended its game,
/// the game's last kept record takes the flag. Returns how many were
/// dropped.
pub fn dedup(records: &mut Vec<PackedPosition>) -> usize {
    let mut seen = HashSet::with_capacity(records.len());
    let before = records.len();
    let mut kept: Vec<PackedPosition> = Vec::with_capacity(records.len());
    // Whether the last kept record belongs to the game being read.
    let mut game_has_kept = false;
    for p in records.iter() {
        if seen.insert(placement_hash(p)) {
            kept.push(*p);
            game_has_kept = !p.last_in_game();
        } else if p.last_in_game() {
            if game_has_kept {
                if let Some(last) = kept.last_mut() {
                    last.set_last_in_game(true);
                }
            }
            game_has_kept = false;
        }
    }
    *records = kept;
    before - records.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Outcome;
    use shuai_board::Position;

    /// Records of the positions after `plies` moves along a fixed line
    /// from the start, with `score` and `outcome`.
    fn line(plies: usize, outcome: Outcome) -> Vec<PackedPosition> {
        let mut pos = Position::startpos();
        let mut out = Vec::new();
        for i in 0..plies {
            let moves = pos.legal_moves();
            pos.make_move(moves.as_slice()[(i * 7) % moves.len()]);
            out.push(PackedPosition::pack(&pos, (i as i16 - 2) * 60, outcome).unwrap());
        }
        if let Some(l) = out.last_mut() {
            l.set_last_in_game(true);
        }
        out
    }

    #[test]
    fn stats_of_a_known_set() {
        let mut recs = line(4, Outcome::RedWins);
        recs.extend(line(2, Outcome::Draw));
        // Scores: -120, -60, 0, 60 then -120, -60.
        let s = Stats::of(&recs);
        assert_eq!(s.positions, 6);
        assert_eq!(s.games, 2);
        assert_eq!(s.positions_by_outcome, [0, 2, 4]);
        assert_eq!(s.games_by_outcome, [0, 1, 1]);
        assert_eq!(s.side_to_move, [3, 3]);
        assert_eq!(s.abs_score_sum, 120 + 60 + 60 + 120 + 60);
        assert!((s.mean_abs_score() - 70.0).abs() < 1e-12);
        // -120 twice in -200..-100 (bucket 4), -60 twice in -100..-50
        // (bucket 5), 0 in -50..50 (6), 60 in 50..100 (7).
        let mut h = [0; 13];
        h[4] = 2;
        h[5] = 2;
        h[6] = 1;
        h[7] = 1;
        assert_eq!(s.score_histogram, h);
        assert_eq!(s.piece_counts[32], 6);
        let text = s.to_string();
        assert!(text.contains("positions        6"), "{text}");
        assert!(text.contains("Red wins 1 (50.0%)"), "{text}");
    }

    #[test]
    fn split_keeps_games_whole_and_is_deterministic() {
        let mut recs = Vec::new();
        for g in 0..20 {
            let o = [Outcome::BlackWins, Outcome::Draw, Outcome::RedWins][g % 3];
            recs.extend(line(1 + g % 5, o));
        }
        let (train, valid) = split_by_game(&recs, 0.25, 9);
        assert_eq!(games(&valid).len(), 5);
        assert_eq!(games(&train).len(), 15);
        assert_eq!(train.len() + valid.len(), recs.len());
        // Every game of each part is a game of the input.
        let input: Vec<&[PackedPosition]> = games(&recs).into_iter().map(|r| &recs[r]).collect();
        for part in [&train, &valid] {
            for r in games(part) {
                assert!(input.contains(&&part[r]));
            }
        }
        assert_eq!(
            split_by_game(&recs, 0.25, 9),
            (train.clone(), valid.clone())
        );
        assert_ne!(split_by_game(&recs, 0.25, 10).1, valid);
        let (all, none) = split_by_game(&recs, 0.0, 1);
        assert_eq!((all, none.len()), (recs.clone(), 0));
    }

    #[test]
    fn dedup_drops_repeats_and_keeps_game_ends() {
        let a = line(5, Outcome::RedWins);
        // Game 2 repeats game 1's first three positions (other scores and
        // outcome): its last record, a repeat, passes the flag back.
        let mut b = line(3, Outcome::Draw);
        for p in &mut b {
            *p = PackedPosition::pack(&p.to_position().unwrap(), 999, Outcome::Draw).unwrap();
        }
        b[2].set_last_in_game(true);
        let c = line(6, Outcome::BlackWins);
        let mut recs = [a.clone(), b, c.clone()].concat();
        let dropped = dedup(&mut recs);
        // Game 2 entirely and game 3's first five positions are repeats.
        assert_eq!(dropped, 3 + 5);
        assert_eq!(recs.len(), 5 + 1);
        assert_eq!(&recs[..5], &a[..]);
        assert_eq!(recs[5], c[5]);
        assert_eq!(games(&recs).len(), 2);
        // A game losing only its last record hands the flag back.
        let mut d = line(3, Outcome::Draw);
        d.push(d[0]);
        d[2].set_last_in_game(false);
        d[3].set_last_in_game(true);
        assert_eq!(dedup(&mut d), 1);
        assert_eq!(d.len(), 3);
        assert!(d[2].last_in_game());
    }
}
