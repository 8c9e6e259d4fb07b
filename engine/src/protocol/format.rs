//! Text in and out for each dialect: moves (ranks 0–9, or 1–10 after
//! `UCI_Variant xiangqi`), scores, `info` lines, `bestmove` and `pophash`.

use crate::engine::{book_name, BookPick, Outcome, PopHash};
use shuai_board::{Move, Position, Square};
use shuai_search::score::{is_rule_score, is_tb_rule_score, MATE, MATE_BOUND, RULE_WIN, TB_WIN};
use shuai_search::{Bound, DisplayScore, Event, Info, Status};

/// Which protocol the GUI chose with its handshake word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// UCI (the Pikafish dialect; also Cyclone and the default before a
    /// handshake).
    Uci,
    /// UCCI (xqbase).
    Ucci,
}

/// How to write and read protocol text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    /// The dialect.
    pub dialect: Dialect,
    /// Ranks numbered 1–10 (Fairy-Stockfish UCI, cutechess-xiangqi),
    /// entered by `setoption name UCI_Variant value xiangqi`.
    pub one_based: bool,
}

impl Format {
    /// UCCI (ranks 0–9).
    pub const UCCI: Format = Format {
        dialect: Dialect::Ucci,
        one_based: false,
    };
    /// UCI with ranks 0–9 (the Pikafish dialect).
    pub const UCI: Format = Format {
        dialect: Dialect::Uci,
        one_based: false,
    };
    /// UCI with ranks 1–10 (after `UCI_Variant xiangqi`).
    pub const UCI1: Format = Format {
        dialect: Dialect::Uci,
        one_based: true,
    };
}

impl Default for Format {
    fn default() -> Format {
        Format {
            dialect: Dialect::Uci,
            one_based: false,
        }
    }
}

/// The UCCI score of a mate in `n` plies is `UCCI_MATE - n` (as ElephantEye:
/// magnitudes above 9800 mean a forced result).
pub const UCCI_MATE: i32 = 10_000;
/// UCCI score of a win by the repetition rules `n` plies away:
/// `UCCI_RULE_WIN - n` (ElephantEye's ban value).
pub const UCCI_RULE_WIN: i32 = 9_900;
/// Ordinary UCCI scores are kept below this magnitude.
pub const UCCI_MAX_EVAL: i32 = 9_799;

/// A search score as a UCCI plain integer.
pub fn ucci_score(score: i32) -> i32 {
    let sign = score.signum();
    let abs = score.abs();
    if abs >= MATE_BOUND {
        sign * (UCCI_MATE - (MATE - abs))
    } else if is_rule_score(score) {
        sign * (UCCI_RULE_WIN - (RULE_WIN - abs).max(0)).max(UCCI_MAX_EVAL + 1)
    } else if is_tb_rule_score(score) {
        // An endgame table's win by the perpetual-check rule: forced, so
        // beyond 9800 like the search's own rule verdicts.
        sign * (UCCI_RULE_WIN - (TB_WIN - abs)).max(UCCI_MAX_EVAL + 1)
    } else {
        score.clamp(-UCCI_MAX_EVAL, UCCI_MAX_EVAL)
    }
}

impl Format {
    /// A move as the GUI writes it.
    pub fn mv(&self, m: Move) -> String {
        if self.one_based {
            let point = |s: Square| {
                let file = char::from(b'a' + s.file().index() as u8);
                format!("{file}{}", s.rank().index() + 1)
            };
            format!("{}{}", point(m.from()), point(m.to()))
        } else {
            m.to_string()
        }
    }

    /// Moves separated by spaces.
    pub fn moves(&self, moves: &[Move]) -> String {
        moves
            .iter()
            .map(|&m| self.mv(m))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Reads a move that must be legal in `pos`. The error names the text
    /// and the problem.
    pub fn parse_move(&self, pos: &Position, text: &str) -> Result<Move, String> {
        if !self.one_based {
            return pos.parse_move(text).map_err(|e| e.to_string());
        }
        let malformed = || {
            format!("'{text}' is not a move in the 1-10 rank form (like h3e3 or a10a9) that UCI_Variant xiangqi uses")
        };
        let squares = split_squares(text).ok_or_else(malformed)?;
        let m = Move::new(squares.0, squares.1);
        if pos.is_legal(m) {
            Ok(m)
        } else {
            Err(format!("'{text}' is not a legal move in this position"))
        }
    }

    /// A free-text line: `info message …` (UCCI) or `info string …` (UCI).
    pub fn message(&self, text: &str) -> String {
        match self.dialect {
            Dialect::Ucci => format!("info message {text}"),
            Dialect::Uci => format!("info string {text}"),
        }
    }

    /// `score …`: a plain integer in UCCI, `cp X` or `mate Y` in UCI.
    pub fn score(&self, score: i32) -> String {
        match self.dialect {
            Dialect::Ucci => format!("score {}", ucci_score(score)),
            Dialect::Uci => match DisplayScore::from_score(score) {
                DisplayScore::Centipawns(cp) => format!("score cp {cp}"),
                DisplayScore::Mate(n) => format!("score mate {n}"),
            },
        }
    }

    /// The `info` line of a search report.
    pub fn event(&self, event: &Event) -> String {
        self.event_with_wdl(event, None)
    }

    /// The `info` line of a search report, with `wdl W D L` after the
    /// score when `attackers` (the root's, see [`crate::wdl::attackers`])
    /// is given.
    pub fn event_with_wdl(&self, event: &Event, attackers: Option<u32>) -> String {
        match event {
            Event::Iteration(info) => self.iteration(info, attackers),
            Event::CurrMove { depth, mv, number } => match self.dialect {
                Dialect::Uci => format!(
                    "info depth {depth} currmove {} currmovenumber {number}",
                    self.mv(*mv)
                ),
                Dialect::Ucci => {
                    format!("info currmove {} currmovenumber {number}", self.mv(*mv))
                }
            },
            Event::Status(status) => self.status(status),
        }
    }

    /// The counters between iterations: `info time T nodes N` in UCCI (the
    /// form its specification gives), `info nodes … nps … hashfull …
    /// [tbhits …] time …` in UCI.
    pub fn status(&self, status: &Status) -> String {
        let ms = status.time.as_millis();
        match self.dialect {
            Dialect::Ucci => format!("info time {ms} nodes {}", status.nodes),
            Dialect::Uci => {
                let mut line = format!(
                    "info nodes {} nps {} hashfull {}",
                    status.nodes, status.nps, status.hashfull
                );
                if let Some(hits) = status.tbhits {
                    line.push_str(&format!(" tbhits {hits}"));
                }
                line.push_str(&format!(" time {ms}"));
                line
            }
        }
    }

    /// `info depth … pv …` for a completed iteration (with the win/draw/
    /// loss chances when `attackers` is given).
    pub fn iteration(&self, info: &Info, attackers: Option<u32>) -> String {
        let mut line = format!("info depth {} seldepth {}", info.depth, info.seldepth);
        if self.dialect == Dialect::Uci || info.multipv > 1 {
            line.push_str(&format!(" multipv {}", info.multipv));
        }
        line.push(' ');
        line.push_str(&self.score(info.score));
        match info.bound {
            Some(Bound::Lower) => line.push_str(" lowerbound"),
            Some(Bound::Upper) => line.push_str(" upperbound"),
            _ => {}
        }
        if let Some(a) = attackers {
            let w = crate::wdl::wdl(info.score, a);
            line.push_str(&format!(" wdl {} {} {}", w.win, w.draw, w.loss));
        }
        line.push_str(&format!(
            " nodes {} nps {} hashfull {}",
            info.nodes, info.nps, info.hashfull
        ));
        if let Some(hits) = info.tbhits {
            line.push_str(&format!(" tbhits {hits}"));
        }
        line.push_str(&format!(" time {}", info.time.as_millis()));
        if !info.pv.is_empty() {
            line.push_str(" pv ");
            line.push_str(&self.moves(&info.pv));
        }
        line
    }

    /// The lines that end a search: `bestmove …` (with `ponder`, and in
    /// UCCI `draw`/`resign`), or when there is no move UCCI `nobestmove`
    /// and UCI `bestmove (none)`, each after an explanatory line.
    pub fn outcome(&self, o: &Outcome) -> Vec<String> {
        let mut lines = Vec::new();
        match (o.best_move, self.dialect) {
            (Some(m), dialect) => {
                if dialect == Dialect::Ucci {
                    lines.push(format!(
                        "info time {} nodes {}",
                        o.time.as_millis(),
                        o.nodes
                    ));
                }
                let mut line = format!("bestmove {}", self.mv(m));
                if let Some(p) = o.ponder_move {
                    line.push_str(&format!(" ponder {}", self.mv(p)));
                }
                if dialect == Dialect::Ucci {
                    if o.draw {
                        line.push_str(" draw");
                    } else if o.resign {
                        line.push_str(" resign");
                    }
                }
                lines.push(line);
            }
            (None, Dialect::Ucci) => {
                if o.all_banned {
                    lines.push(self.message("every legal move is banned"));
                } else {
                    lines.push(format!("info depth 0 score {}", -UCCI_MATE));
                }
                lines.push("nobestmove".to_string());
            }
            (None, Dialect::Uci) => {
                if o.all_banned {
                    lines.push(self.message("every legal move is banned"));
                } else {
                    lines.push("info depth 0 score mate 0".to_string());
                }
                lines.push("bestmove (none)".to_string());
            }
        }
        lines
    }

    /// The lines announcing a book move, before its `bestmove`: one line
    /// saying it is a book move, its weight among the moves it was chosen
    /// from and the book (with the book's results for it when the book
    /// has them); UCCI GUIs also get `info depth 0 score 0 pv <move>`, as
    /// ElephantEye prints for its book moves, so they show the move.
    pub fn book_move(&self, pick: &BookPick) -> Vec<String> {
        let e = &pick.entry;
        let mut text = format!(
            "book move {} weight {} of {} ({} move{}) in {}",
            self.mv(e.mv),
            e.weight,
            pick.total_weight,
            pick.choices,
            if pick.choices == 1 { "" } else { "s" },
            book_name(&pick.book)
        );
        if let (Some(w), Some(d), Some(l)) = (e.wins, e.draws, e.losses) {
            text.push_str(&format!(", won {w} drawn {d} lost {l}"));
        }
        let mut lines = Vec::new();
        if self.dialect == Dialect::Ucci {
            lines.push(format!("info depth 0 score 0 pv {}", self.mv(e.mv)));
        }
        lines.push(self.message(&text));
        lines
    }

    /// The `pophash` answer to `probe` (scores as UCCI integers).
    pub fn pophash(&self, r: &PopHash) -> String {
        let mut line = String::from("pophash");
        if let Some(m) = r.best_move {
            line.push_str(&format!(" bestmove {}", self.mv(m)));
        }
        if let Some((s, d)) = r.lower {
            line.push_str(&format!(" lowerbound {} depth {d}", ucci_score(s)));
        }
        if let Some((s, d)) = r.upper {
            line.push_str(&format!(" upperbound {} depth {d}", ucci_score(s)));
        }
        line
    }
}

/// Splits `h3e3` / `a10a9` (ranks 1–10) into two points.
fn split_squares(text: &str) -> Option<(Square, Square)> {
    let bytes = text.as_bytes();
    let mut points = Vec::with_capacity(2);
    let mut i = 0;
    while i < bytes.len() {
        let file = bytes[i].to_ascii_lowercase();
        if !(b'a'..=b'i').contains(&file) {
            return None;
        }
        let start = i + 1;
        let mut end = start;
        while end < bytes.len() && bytes[end].is_ascii_digit() {
            end += 1;
        }
        let rank: usize = text.get(start..end)?.parse().ok()?;
        if end - start > 2 || !(1..=10).contains(&rank) {
            return None;
        }
        points.push(Square::from_coords(
            i32::from(file - b'a'),
            rank as i32 - 1,
        )?);
        i = end;
    }
    match points[..] {
        [from, to] if from != to => Some((from, to)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    const UCCI: Format = Format::UCCI;
    const UCI: Format = Format::UCI;
    const UCI1: Format = Format::UCI1;

    #[test]
    fn scores_per_dialect() {
        assert_eq!(UCCI.score(35), "score 35");
        assert_eq!(UCCI.score(-MATE + 3), "score -9997");
        assert_eq!(UCCI.score(MATE - 1), "score 9999");
        assert_eq!(UCI.score(35), "score cp 35");
        assert_eq!(UCI.score(MATE - 1), "score mate 1");
        assert_eq!(UCI.score(-MATE + 2), "score mate -1");
        assert_eq!(ucci_score(RULE_WIN - 4), 9896);
        assert_eq!(ucci_score(-(RULE_WIN - 4)), -9896);
        assert_eq!(ucci_score(15_000), UCCI_MAX_EVAL);
    }

    #[test]
    fn status_lines_per_dialect() {
        let status = Status {
            nodes: 123_456,
            nps: 1_800_000,
            time: Duration::from_millis(3_004),
            hashfull: 17,
            tbhits: None,
        };
        let event = Event::Status(status.clone());
        assert_eq!(UCCI.event(&event), "info time 3004 nodes 123456");
        assert_eq!(
            UCI.event(&event),
            "info nodes 123456 nps 1800000 hashfull 17 time 3004"
        );
        let with_tables = Status {
            tbhits: Some(9),
            ..status
        };
        assert_eq!(
            UCI1.status(&with_tables),
            "info nodes 123456 nps 1800000 hashfull 17 tbhits 9 time 3004"
        );
    }

    #[test]
    fn one_based_moves_both_ways() {
        let pos = Position::startpos();
        let m = UCI1.parse_move(&pos, "h3e3").unwrap();
        assert_eq!(UCI.mv(m), "h2e2");
        assert_eq!(UCI1.mv(m), "h3e3");
        assert!(UCI1.parse_move(&pos, "h2e2").is_err());
        let black =
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b")
                .unwrap();
        let m = UCI1.parse_move(&black, "a10a9").unwrap();
        assert_eq!(UCI1.mv(m), "a10a9");
        assert_eq!(UCI.mv(m), "a9a8");
        for bad in [
            "", "a", "a11a9", "a0a1", "j1j2", "a1", "a1a1", "a001a2", "a1a2a3",
        ] {
            assert!(UCI1.parse_move(&pos, bad).is_err(), "{bad}");
        }
    }

    fn info(multipv: usize, score: i32, bound: Option<Bound>) -> Info {
        Info {
            depth: 5,
            seldepth: 8,
            multipv,
            score,
            bound,
            nodes: 1234,
            nps: 100_000,
            time: Duration::from_millis(12),
            hashfull: 3,
            tbhits: None,
            pv: vec![Position::startpos().parse_move("h2e2").unwrap()],
        }
    }

    #[test]
    fn info_lines() {
        assert_eq!(
            UCI.iteration(&info(1, 20, None), None),
            "info depth 5 seldepth 8 multipv 1 score cp 20 nodes 1234 nps 100000 hashfull 3 time 12 pv h2e2"
        );
        assert_eq!(
            UCCI.iteration(&info(1, 20, Some(Bound::Lower)), None),
            "info depth 5 seldepth 8 score 20 lowerbound nodes 1234 nps 100000 hashfull 3 time 12 pv h2e2"
        );
        assert!(UCCI
            .iteration(&info(2, 20, None), None)
            .contains(" multipv 2 score 20 "));
        assert!(!UCCI
            .iteration(&info(1, MATE - 3, None), None)
            .contains("mate"));
        // UCI_ShowWDL: the fitted model's chances right after the score
        // (+20 cp with every attacker on the board).
        assert_eq!(
            UCI.iteration(&info(1, 20, None), Some(16)),
            "info depth 5 seldepth 8 multipv 1 score cp 20 wdl 404 230 366 nodes 1234 nps 100000 hashfull 3 time 12 pv h2e2"
        );
        assert!(UCI
            .iteration(&info(1, MATE - 3, None), Some(16))
            .contains("score mate 2 wdl 1000 0 0 "));
        // With endgame tables, their hits after the table fill (UCI's
        // order), in both protocols.
        let with_tables = Info {
            tbhits: Some(7),
            ..info(1, 20, None)
        };
        assert_eq!(
            UCI.iteration(&with_tables, None),
            "info depth 5 seldepth 8 multipv 1 score cp 20 nodes 1234 nps 100000 hashfull 3 tbhits 7 time 12 pv h2e2"
        );
        assert!(UCCI
            .iteration(&with_tables, None)
            .contains(" hashfull 3 tbhits 7 time 12 "));
        // A table win by the perpetual-check rule is forced: beyond 9800.
        assert_eq!(ucci_score(TB_WIN - 3), UCCI_RULE_WIN - 3);
        assert_eq!(ucci_score(-(TB_WIN - 3)), -(UCCI_RULE_WIN - 3));
    }

    #[test]
    fn end_of_search_lines() {
        let mut pos = Position::startpos();
        let m = pos.parse_move("h2e2").unwrap();
        pos.make_move(m);
        let p = pos.parse_move("h9g7").unwrap();
        let mut o = Outcome {
            best_move: Some(m),
            ponder_move: Some(p),
            score: 0,
            depth: 3,
            nodes: 99,
            time: Duration::from_millis(5),
            pv: vec![m, p],
            draw: true,
            resign: false,
            all_banned: false,
        };
        assert_eq!(
            UCCI.outcome(&o),
            vec!["info time 5 nodes 99", "bestmove h2e2 ponder h9g7 draw"]
        );
        assert_eq!(UCI.outcome(&o), vec!["bestmove h2e2 ponder h9g7"]);
        o.best_move = None;
        assert_eq!(
            UCCI.outcome(&o),
            vec!["info depth 0 score -10000", "nobestmove"]
        );
        assert_eq!(
            UCI.outcome(&o),
            vec!["info depth 0 score mate 0", "bestmove (none)"]
        );
    }

    #[test]
    fn pophash_lines() {
        let m = Position::startpos().parse_move("h2e2").unwrap();
        let r = PopHash {
            best_move: Some(m),
            lower: Some((12, 7)),
            upper: Some((12, 7)),
        };
        assert_eq!(
            UCCI.pophash(&r),
            "pophash bestmove h2e2 lowerbound 12 depth 7 upperbound 12 depth 7"
        );
        assert_eq!(UCCI.pophash(&PopHash::default()), "pophash");
    }
}
