//! `shuai-tools book openings`: builds an openings file (for `match`)
//! from a large set of positions: shuffles them with a seed, drops
//! left-right mirror duplicates, searches each with the Shuai search to a
//! fixed depth, and keeps those scored within a margin of equal
//! (balanced), or with one side ahead by an amount in a band
//! (unbalanced: fewer draws, so a match between two close engines says
//! more per game).

use crate::openings::EpdLine;
use shuai_board::Position;
use shuai_board::Rng;
use shuai_search::{Control, Limits, Searcher};
use std::collections::HashSet;
use std::io::Write;
use std::time::Instant;

/// Book-building settings.
#[derive(Clone, Debug)]
pub struct BookConfig {
    /// Search depth.
    pub depth: u32,
    /// Keep positions with |score| ≤ margin (centipawns, side to move).
    pub margin: i32,
    /// And with |score| ≥ this (0: balanced; more: one side ahead).
    pub min_margin: i32,
    /// Stop after this many kept positions.
    pub count: usize,
    /// Shuffle seed.
    pub seed: u64,
    /// Hash table size, MiB.
    pub hash_mb: usize,
    /// Extra header lines.
    pub notes: Vec<String>,
}

/// One kept position with its score.
#[derive(Clone, Debug)]
pub struct BookEntry {
    /// The FEN (after any moves of the input line).
    pub fen: String,
    /// Score for the side to move.
    pub score: i32,
    /// Search depth.
    pub depth: u32,
}

/// The placement and side of a FEN mirrored left-right.
pub fn mirror_key(fen: &str) -> String {
    key(&mirror_fen(fen))
}

/// A FEN mirrored left-right (files a–i reversed; side, counters kept).
/// Reversing each rank's text is enough: a run of empty points is one
/// digit (at most 9).
pub fn mirror_fen(fen: &str) -> String {
    let mut f = fen.split_whitespace();
    let placement = f.next().unwrap_or("");
    let rows: Vec<String> = placement
        .split('/')
        .map(|r| r.chars().rev().collect())
        .collect();
    std::iter::once(rows.join("/"))
        .chain(f.map(str::to_string))
        .collect::<Vec<_>>()
        .join(" ")
}

fn key(fen: &str) -> String {
    let mut f = fen.split_whitespace();
    format!("{} {}", f.next().unwrap_or(""), f.next().unwrap_or("w"))
}

/// Selects balanced positions; `report` sees (examined, kept) as it goes.
pub fn build(
    input: Vec<EpdLine>,
    cfg: &BookConfig,
    report: &mut dyn FnMut(usize, usize),
) -> Vec<BookEntry> {
    let mut lines = input;
    Rng::new(cfg.seed).shuffle(&mut lines);
    let mut seen = HashSet::new();
    let mut searcher = Searcher::new(cfg.hash_mb);
    let mut kept = Vec::new();
    for (n, l) in lines.iter().enumerate() {
        if kept.len() >= cfg.count {
            break;
        }
        // Every line counts as examined, kept or not.
        report(n + 1, kept.len());
        let pos: Position = l.position();
        let fen = pos.to_fen();
        let (k, mirror) = (key(&fen), mirror_key(&fen));
        // Both looked up before either is added: a position that is its
        // own mirror (the start) has one key and is no duplicate of itself.
        let duplicate = seen.contains(&k) || seen.contains(&mirror);
        seen.insert(k);
        seen.insert(mirror);
        if duplicate || pos.in_check() || !pos.has_legal_move() {
            continue;
        }
        searcher.clear();
        let r = searcher.search(&pos, &Limits::depth(cfg.depth), &Control::new(), &|_| {});
        if r.best_move.is_some() && (cfg.min_margin..=cfg.margin).contains(&r.score.abs()) {
            kept.push(BookEntry {
                fen: Position::from_fen(&fen).expect("valid").to_fen(),
                score: r.score,
                depth: r.depth,
            });
            report(n + 1, kept.len());
        }
    }
    kept
}

/// Writes the book with a header saying how it was made.
pub fn write(
    out: &mut dyn Write,
    entries: &[BookEntry],
    cfg: &BookConfig,
    source: &str,
    examined: usize,
    started: Instant,
) -> std::io::Result<()> {
    writeln!(
        out,
        "# {} Xiangqi openings for shuai-tools match ({} positions).",
        if cfg.min_margin > 0 {
            "Unbalanced"
        } else {
            "Balanced"
        },
        entries.len()
    )?;
    writeln!(out, "#")?;
    for n in &cfg.notes {
        writeln!(out, "# {n}")?;
    }
    let min_flag = if cfg.min_margin > 0 {
        format!(" --min-margin {}", cfg.min_margin)
    } else {
        String::new()
    };
    writeln!(out, "# Made with: shuai-tools book openings --input {source} --depth {}{min_flag} --margin {} --count {} --seed {}", cfg.depth, cfg.margin, cfg.count, cfg.seed)?;
    writeln!(
        out,
        "# The input positions were shuffled with the seed; left-right mirror"
    )?;
    writeln!(
        out,
        "# duplicates, positions in check and positions without a legal move were"
    )?;
    writeln!(
        out,
        "# dropped; each remaining position was searched by the Shuai search"
    )?;
    writeln!(
        out,
        "# (shuai-search, one thread, {} MiB hash cleared before each search) to",
        cfg.hash_mb
    )?;
    if cfg.min_margin > 0 {
        writeln!(
            out,
            "# depth {} and kept when one side was ahead by {} to {} centipawns.",
            cfg.depth, cfg.min_margin, cfg.margin
        )?;
        writeln!(
            out,
            "# {examined} positions examined in {:.0} s.",
            started.elapsed().as_secs_f64()
        )?;
    } else {
        writeln!(
            out,
            "# depth {} and kept when its score for the side to move was within",
            cfg.depth
        )?;
        writeln!(
            out,
            "# {} centipawns of equal. {examined} positions examined in {:.0} s.",
            cfg.margin,
            started.elapsed().as_secs_f64()
        )?;
    }
    writeln!(
        out,
        "# The c0 operation of each line holds the score (side to move) and depth."
    )?;
    for e in entries {
        writeln!(out, "{} c0 \"score {} depth {}\";", e.fen, e.score, e.depth)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_positions_are_kept_and_mirrors_dropped() {
        let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        let central = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
        let input =
            crate::openings::parse_text(&format!("{start}\n{central}\n{}\n", mirror_fen(central)))
                .unwrap();
        let cfg = BookConfig {
            depth: 1,
            margin: 10_000,
            min_margin: 0,
            count: 10,
            seed: 1,
            hash_mb: 1,
            notes: Vec::new(),
        };
        let mut examined = 0;
        let kept = build(input, &cfg, &mut |n, _| examined = n);
        assert_eq!(examined, 3);
        assert_eq!(kept.len(), 2, "{kept:?}");
        assert!(kept.iter().any(|e| e.fen == start));
    }

    #[test]
    fn an_unbalanced_book_keeps_only_positions_with_one_side_ahead() {
        let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        // Red without its left rook: Black is a rook up.
        let rook_down = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w - - 0 1";
        let input = crate::openings::parse_text(&format!("{start}\n{rook_down}\n")).unwrap();
        let cfg = BookConfig {
            depth: 2,
            margin: 10_000,
            min_margin: 300,
            count: 10,
            seed: 1,
            hash_mb: 1,
            notes: Vec::new(),
        };
        let kept = build(input, &cfg, &mut |_, _| {});
        assert_eq!(kept.len(), 1, "{kept:?}");
        assert_eq!(kept[0].fen, rook_down);
        assert!(kept[0].score <= -300, "{kept:?}");
        let mut text = Vec::new();
        write(&mut text, &kept, &cfg, "in.epd", 2, Instant::now()).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(text.starts_with("# Unbalanced Xiangqi openings"), "{text}");
        assert!(text.contains("--min-margin 300 --margin 10000"), "{text}");
    }

    #[test]
    fn mirror() {
        assert_eq!(
            mirror_key("rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"),
            "r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/4C2C1/9/RNBAKABNR w"
        );
        assert_eq!(
            mirror_fen("rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"),
            "r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/4C2C1/9/RNBAKABNR w - - 2 2"
        );
    }
}
