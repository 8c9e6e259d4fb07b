//! A game's review without a terminal: the marks, the winning chance and
//! the graph, shared by `shuai review` (the command line) and the browser
//! page (through the WebAssembly module), so the two agree.
//!
//! **Winning chance** is the expected score of the side to move, win plus
//! half a draw, from the win/draw/loss model ([`crate::wdl`]) applied to
//! the search score and the attacking material. A move's **loss** is the
//! mover's winning chance before it (best play, as searched) less after it
//! (the reply position's search, turned round); the engine's own best move
//! loses nothing. Marks by loss, as lichess marks chess games:
//! inaccuracy `?!` from 10 points (percent of a game), mistake `?` from
//! 20, blunder `??` from 30.

mod pgn;

pub use pgn::annotated_pgn;

use crate::wdl::{attackers, wdl};
use shuai_board::{Color, Move, Position};

/// Loss (per mille of winning chance) that marks an inaccuracy.
pub const INACCURACY: u32 = 100;
/// Loss that marks a mistake.
pub const MISTAKE: u32 = 200;
/// Loss that marks a blunder.
pub const BLUNDER: u32 = 300;

/// The search of one position of the game.
#[derive(Clone, Debug)]
pub struct Searched {
    /// The score for the side to move (centipawns or mate).
    pub score: i32,
    /// The best move, if there is a legal one.
    pub best: Option<Move>,
    /// The main line from the best move.
    pub pv: Vec<Move>,
    /// The side to move's winning chance, per mille (win + draw / 2).
    pub chance: u32,
}

impl Searched {
    /// The search of `pos` that found `score` (side to move's view),
    /// `best` and the line `pv`, with its winning chance.
    pub fn new(pos: &Position, score: i32, best: Option<Move>, pv: Vec<Move>) -> Searched {
        Searched {
            score,
            best,
            pv,
            chance: chance(score, pos),
        }
    }
}

/// The mark for a loss of `loss` per mille of winning chance.
pub fn mark(loss: u32) -> &'static str {
    if loss >= BLUNDER {
        "??"
    } else if loss >= MISTAKE {
        "?"
    } else if loss >= INACCURACY {
        "?!"
    } else {
        ""
    }
}

/// The winning chance (per mille) of `score` for the side to move in
/// `pos`.
pub fn chance(score: i32, pos: &Position) -> u32 {
    let w = wdl(score, attackers(pos));
    w.win + w.draw / 2
}

/// One reviewed move.
#[derive(Clone, Debug)]
pub struct Reviewed {
    /// The position before the move.
    pub before: Position,
    /// The move played.
    pub played: Move,
    /// The mover.
    pub mover: Color,
    /// The search before the move.
    pub search: Searched,
    /// The mover's winning chance after the move (per mille).
    pub chance_after: u32,
    /// The mover's score after the move (the reply's search turned round).
    pub score_after: i32,
    /// Winning chance given away (per mille; 0 for the best move).
    pub loss: u32,
    /// Centipawns given away (0 to 1000).
    pub cp_loss: i32,
}

impl Reviewed {
    /// The mark (`?!`, `?`, `??` or empty).
    pub fn mark(&self) -> &'static str {
        mark(self.loss)
    }
}

/// Judges every move from the searches of the positions before and after
/// (`searches[i]` is the search of the position before move `i`; there is
/// one more search than moves).
pub fn judge(start: &Position, moves: &[Move], searches: &[Searched]) -> Vec<Reviewed> {
    let mut pos = start.clone();
    let mut out = Vec::with_capacity(moves.len());
    for (i, &mv) in moves.iter().enumerate() {
        let (Some(now), Some(next)) = (searches.get(i), searches.get(i + 1)) else {
            break;
        };
        let chance_after = 1000 - next.chance;
        let score_after = -next.score;
        let is_best = now.best == Some(mv);
        let loss = if is_best {
            0
        } else {
            now.chance.saturating_sub(chance_after)
        };
        let clamp = |s: i32| s.clamp(-1000, 1000);
        let cp_loss = if is_best {
            0
        } else {
            (clamp(now.score) - clamp(score_after)).clamp(0, 1000)
        };
        out.push(Reviewed {
            before: pos.clone(),
            played: mv,
            mover: pos.side_to_move(),
            search: now.clone(),
            chance_after,
            score_after,
            loss,
            cp_loss,
        });
        pos.make_move(mv);
    }
    out
}

/// The move number and dots of the move made in `pos`: `12.` for Red,
/// `12…` for Black.
pub fn number(pos: &Position, ply_from_start: usize, start: &Position) -> String {
    let red_first = start.side_to_move() == Color::Red;
    let n = start.fullmove_number() as usize + (ply_from_start + usize::from(!red_first)) / 2;
    match pos.side_to_move() {
        Color::Red => format!("{n}."),
        Color::Black => format!("{n}…"),
    }
}

/// Red's winning chance (per mille) at every position searched: the side
/// to move's, turned round on Black's turns (`searches[i]` is the search
/// of the position after `moves[..i]`).
pub fn red_chances(start: &Position, moves: &[Move], searches: &[Searched]) -> Vec<u32> {
    let mut pos = start.clone();
    let mut red = Vec::with_capacity(searches.len());
    for (i, s) in searches.iter().enumerate() {
        red.push(if pos.side_to_move() == Color::Red {
            s.chance
        } else {
            1000 - s.chance.min(1000)
        });
        if let Some(&m) = moves.get(i) {
            pos.make_move(m);
        }
    }
    red
}

/// Escapes text for SVG.
fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The graph: Red's winning chance over the plies (top: Red wins; bottom:
/// Black wins), the marked moves as dots coloured by mark, an SVG drawing
/// headed `title`; `start` is the game's first position (for the move
/// numbers), `red_chances` Red's chance at every position (see
/// [`red_chances`]).
///
/// For a page that maps a click to a ply, the root element carries the
/// plot's place: `data-left`, `data-plot-width`, `data-top` and
/// `data-plot-height` (in the drawing's units) and `data-plies` (the
/// plies across it); each mark's dot has
/// `class="mark"` and `data-ply`, the ply after the marked move.
pub fn graph_svg(
    title: &str,
    start: &Position,
    reviewed: &[Reviewed],
    red_chances: &[u32],
) -> String {
    let (w, h) = (900.0f64, 320.0f64);
    let (left, right, top, bottom) = (50.0, 20.0, 40.0, 50.0);
    let plot_w = w - left - right;
    let plot_h = h - top - bottom;
    let plies = red_chances.len().saturating_sub(1).max(1) as f64;
    let x = |ply: usize| left + plot_w * ply as f64 / plies;
    let y = |chance: u32| top + plot_h * (1.0 - f64::from(chance) / 1000.0);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
         font-family=\"sans-serif\" font-size=\"12\" data-left=\"{left}\" data-plot-width=\"{plot_w}\" \
         data-top=\"{top}\" data-plot-height=\"{plot_h}\" data-plies=\"{plies}\">\n\
         <rect width=\"{w}\" height=\"{h}\" fill=\"#fdfaf3\"/>\n\
         <text x=\"{left}\" y=\"22\" font-size=\"15\">{}</text>\n",
        xml(&format!("{title} — Red's winning chance"))
    );
    // Halves: Red's above, Black's below.
    s.push_str(&format!(
        "<rect x=\"{left}\" y=\"{top}\" width=\"{plot_w}\" height=\"{}\" fill=\"#f6e3e0\"/>\n\
         <rect x=\"{left}\" y=\"{}\" width=\"{plot_w}\" height=\"{}\" fill=\"#e4e4e4\"/>\n",
        plot_h / 2.0,
        top + plot_h / 2.0,
        plot_h / 2.0
    ));
    for pct in [0u32, 25, 50, 75, 100] {
        let yy = y(pct * 10);
        s.push_str(&format!(
            "<line x1=\"{left}\" y1=\"{yy:.1}\" x2=\"{:.1}\" y2=\"{yy:.1}\" stroke=\"#999\" stroke-width=\"{}\"/>\n\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{pct}%</text>\n",
            left + plot_w,
            if pct == 50 { 1.2 } else { 0.4 },
            left - 6.0,
            yy + 4.0
        ));
    }
    // Move numbers every 10 moves (20 plies).
    let mut ply = 0;
    while ply < red_chances.len() {
        let xx = x(ply);
        s.push_str(&format!(
            "<line x1=\"{xx:.1}\" y1=\"{top}\" x2=\"{xx:.1}\" y2=\"{:.1}\" stroke=\"#bbb\" stroke-width=\"0.4\"/>\n\
             <text x=\"{xx:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>\n",
            top + plot_h,
            top + plot_h + 16.0,
            ply / 2
        ));
        ply += 20;
    }
    s.push_str(&format!(
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">move</text>\n",
        left - 6.0,
        top + plot_h + 16.0
    ));
    // The curve, filled towards the 50% line.
    let points: Vec<String> = red_chances
        .iter()
        .enumerate()
        .map(|(i, &c)| format!("{:.1},{:.1}", x(i), y(c)))
        .collect();
    s.push_str(&format!(
        "<polygon points=\"{left},{:.1} {} {:.1},{:.1}\" fill=\"#c0392b\" fill-opacity=\"0.25\"/>\n\
         <polyline points=\"{}\" fill=\"none\" stroke=\"#8e1b10\" stroke-width=\"1.8\"/>\n",
        y(500),
        points.join(" "),
        x(red_chances.len().saturating_sub(1)),
        y(500),
        points.join(" ")
    ));
    // The marks, at the position after the marked move.
    for (i, r) in reviewed.iter().enumerate() {
        let colour = match r.mark() {
            "??" => "#d0021b",
            "?" => "#f5a623",
            "?!" => "#e8d44d",
            _ => continue,
        };
        let c = red_chances.get(i + 1).copied().unwrap_or(500);
        let label = format!(
            "{} {}{} (loses {:.1})",
            number(&r.before, i, start),
            r.before.to_chinese(r.played),
            r.mark(),
            f64::from(r.loss) / 10.0
        );
        s.push_str(&format!(
            "<circle class=\"mark\" data-ply=\"{}\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"5\" fill=\"{colour}\" stroke=\"#333\"><title>{}</title></circle>\n\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" text-anchor=\"middle\">{}</text>\n",
            i + 1,
            x(i + 1),
            y(c),
            xml(&label),
            x(i + 1),
            y(c) - 8.0,
            xml(r.mark())
        ));
    }
    // The key.
    let mut kx = left + 6.0;
    let ky = h - 10.0;
    for (colour, text) in [
        ("#e8d44d", "?! inaccuracy ≥10"),
        ("#f5a623", "? mistake ≥20"),
        ("#d0021b", "?? blunder ≥30"),
    ] {
        s.push_str(&format!(
            "<circle cx=\"{kx:.1}\" cy=\"{:.1}\" r=\"5\" fill=\"{colour}\" stroke=\"#333\"/>\
             <text x=\"{:.1}\" y=\"{ky:.1}\">{}</text>\n",
            ky - 4.0,
            kx + 9.0,
            xml(text)
        ));
        kx += 150.0;
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn red_chances_turn_blacks_round_and_the_graph_says_where_its_plot_is() {
        let start = Position::startpos();
        let h2e2 = start.parse_move("h2e2").expect("legal");
        let mut after = start.clone();
        after.make_move(h2e2);
        let a6a5 = after.parse_move("a6a5").expect("legal");
        let mut last = after.clone();
        last.make_move(a6a5);
        let searches = [
            Searched::new(&start, 0, Some(h2e2), vec![h2e2]),
            Searched::new(&after, -30, None, vec![]),
            Searched::new(&last, 480, None, vec![]),
        ];
        assert_eq!(searches[0].chance, 500);
        let red = red_chances(&start, &[h2e2, a6a5], &searches);
        assert_eq!(red[0], 500);
        assert_eq!(red[1], 1000 - searches[1].chance);
        assert_eq!(red[2], searches[2].chance);
        assert!(red[1] > 500 && red[2] > red[1], "{red:?}");
        let reviewed = judge(&start, &[h2e2, a6a5], &searches);
        assert_eq!(reviewed[1].mark(), "??");
        let svg = graph_svg("R – B", &start, &reviewed, &red);
        assert!(
            svg.contains(
                "data-left=\"50\" data-plot-width=\"830\" data-top=\"40\" data-plot-height=\"230\" \
                 data-plies=\"2\""
            ),
            "{svg}"
        );
        assert!(
            svg.contains("<circle class=\"mark\" data-ply=\"2\""),
            "{svg}"
        );
        assert!(svg.contains("R – B — Red's winning chance"), "{svg}");
        assert_eq!(number(&after, 1, &start), "1…");
    }
}
