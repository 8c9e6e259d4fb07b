//! Shared by the tests and the benchmark: a deterministic sample of varied
//! positions and FEN transformations.

#![allow(dead_code)]

use shuai_board::Position;

/// Hand-picked positions: openings, middlegames, endings.
pub const FENS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RB1KAB2 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
    "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w - - 0 1",
    "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/R1BAKABR1 b - - 0 1",
    "3akab2/9/4b4/9/9/9/9/9/9/3K1R3 w - - 0 1",
    "3akab2/9/4b4/9/9/9/9/9/9/3K1N3 w - - 0 1",
    "3ak4/4a4/9/9/9/9/4P4/9/4A4/3K5 b - - 0 1",
];

/// The project's generator, so the sample is the same on every run.
pub use shuai_board::Rng;

/// `n` positions: the hand-picked ones, then positions sampled every few
/// plies from random games. Captures are mildly preferred and games are cut
/// at a random length, so the sample runs from full boards to bare endings
/// with most positions in between (about 22 pieces on average).
pub fn sample_positions(n: usize) -> Vec<Position> {
    let mut out: Vec<Position> = FENS
        .iter()
        .map(|f| Position::from_fen(f).expect("valid FEN"))
        .collect();
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    while out.len() < n {
        let mut pos = Position::startpos();
        let capture_bias = rng.index(3);
        let length = 20 + rng.index(180);
        for ply in 0..length {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let captures = pos.legal_captures();
            let m = if !captures.is_empty() && rng.index(4) < capture_bias {
                captures.as_slice()[rng.index(captures.len())]
            } else {
                moves.as_slice()[rng.index(moves.len())]
            };
            pos.make_move(m);
            if ply % 7 == 3 && out.len() < n {
                let mut p = pos.clone();
                p.clear_history();
                out.push(p);
            }
        }
    }
    out
}

/// Swaps the case of every piece letter.
fn swap_case(c: char) -> char {
    if c.is_ascii_uppercase() {
        c.to_ascii_lowercase()
    } else {
        c.to_ascii_uppercase()
    }
}

/// The colour-flipped FEN: ranks reversed, colours swapped, the other side
/// to move. Red's position becomes Black's exactly.
pub fn flip_colors(fen: &str) -> String {
    let mut fields = fen.split_whitespace();
    let placement = fields.next().expect("placement");
    let side = match fields.next().unwrap_or("w") {
        "b" => "w",
        _ => "b",
    };
    let ranks: Vec<String> = placement
        .split('/')
        .rev()
        .map(|r| r.chars().map(swap_case).collect())
        .collect();
    format!("{} {side}", ranks.join("/"))
}

/// The left–right mirrored FEN (file a ↔ i), same side to move.
pub fn mirror(fen: &str) -> String {
    let mut fields = fen.split_whitespace();
    let placement = fields.next().expect("placement");
    let side = fields.next().unwrap_or("w");
    let ranks: Vec<String> = placement
        .split('/')
        .map(|r| r.chars().rev().collect())
        .collect();
    format!("{} {side}", ranks.join("/"))
}
