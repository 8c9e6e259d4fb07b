//! `shuai-tools book build`: an opening book from games, written as a
//! BHGUI `.obk` (which Shuai, BHGUI and the GUIs that read `.obk` open).
//!
//! 1. **Read** the games: PGN in ICCS (`h2e2`, also `H2-E2`) or Chinese
//!    notation (炮二平五), with a `[FEN]` tag or from the start position and
//!    a result, or the JSON report of `shuai-tools match --json`. A game
//!    that cannot be read is skipped with a message; a file without any
//!    usable game is an error.
//! 2. **Count** every move played in a position before ply `max_ply`
//!    (plies of the game, counted from the FEN's move number as the
//!    engine's `Book Depth` counts them): wins, draws and losses from the
//!    mover's point of view. A position and its left-right mirror are one
//!    book position (the readers look both up), stored under whichever has
//!    the smaller key, as ElephantEye stores its book; in a position that
//!    is its own mirror a move and its mirror are one book move.
//! 3. **Keep** the moves played in at least `min_games` games.
//! 4. **Check** each kept move with the Shuai search to a fixed depth: the
//!    position is searched once over all its moves and once over the move
//!    alone, and the move is dropped when it scores more than `margin`
//!    centipawns below the best. Games say what was played and how it
//!    went; the search catches the blunders they contain.
//! 5. **Write** each kept move with its counts (`vwin`, `vdraw`, `vlost`)
//!    and a weight (`vscore`, see [`weight`]).

use crate::game::Outcome;
use crate::pgn::{self, PgnRecord};
use crate::stats::{Score, Wdl};
use shuai_board::{Move, Position};
use shuai_engine::book::{mirror_move, obk_key, BookEntry, SqliteFormat, SqliteWriter};
use shuai_engine::engine::game_ply;
use shuai_eval::nnue::Network;
use shuai_search::{Control, Limits, Searcher};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;

/// One game to count: where it starts, its moves and how it ended.
#[derive(Clone, Debug)]
pub struct BookGame {
    /// The position before the first move.
    pub start: Position,
    /// The moves, all legal.
    pub moves: Vec<Move>,
    /// The result.
    pub result: Outcome,
}

/// The games of one file: those that could be read, and a message for
/// each one that could not.
#[derive(Clone, Debug, Default)]
pub struct GameFile {
    /// The games read.
    pub games: Vec<BookGame>,
    /// Why each skipped game was skipped (`game N (line L): …`).
    pub skipped: Vec<String>,
}

/// Reads games from a file's text: the JSON report of `shuai-tools match
/// --json` when it starts with `{`, PGN otherwise. Fails when the text
/// holds no usable game at all (the message gives the first reasons).
pub fn read_games(text: &str) -> Result<GameFile, String> {
    let file = if text.trim_start().starts_with('{') {
        read_json(text)?
    } else {
        let records = pgn::parse(text);
        if records.is_empty() {
            return Err("no games in it (expected PGN, or a match --json report)".into());
        }
        let mut file = GameFile::default();
        for (i, r) in records.iter().enumerate() {
            match pgn_game(r) {
                Ok(g) => file.games.push(g),
                Err(why) => file
                    .skipped
                    .push(format!("game {} (line {}): {why}", i + 1, r.line)),
            }
        }
        file
    };
    if file.games.is_empty() {
        let mut why = String::from("no usable game in it");
        for s in file.skipped.iter().take(3) {
            why.push_str("; ");
            why.push_str(s);
        }
        return Err(why);
    }
    Ok(file)
}

/// The games of a match report's `games` array.
fn read_json(text: &str) -> Result<GameFile, String> {
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
    let games = v["games"]
        .as_array()
        .ok_or("JSON without a \"games\" array (expected a shuai-tools match --json report)")?;
    let mut file = GameFile::default();
    for (i, g) in games.iter().enumerate() {
        match json_game(g) {
            Ok(g) => file.games.push(g),
            Err(why) => file.skipped.push(format!("game {}: {why}", i + 1)),
        }
    }
    Ok(file)
}

/// One game of a match report: `fen`, `moves` (ICCS, book moves first)
/// and `result`.
fn json_game(g: &serde_json::Value) -> Result<BookGame, String> {
    let fen = g["fen"].as_str().ok_or("no \"fen\"")?;
    let result = g["result"].as_str().ok_or("no \"result\"")?;
    let moves = g["moves"].as_array().ok_or("no \"moves\" array")?;
    let moves: Vec<&str> = moves
        .iter()
        .map(|m| m.as_str().ok_or("a move that is not a string"))
        .collect::<Result<_, _>>()?;
    make_game(Some(fen), Some(result), &moves)
}

/// The game of a PGN record: the `[Result]` tag, or the marker after the
/// moves when the tag is missing or `*`.
fn pgn_game(r: &PgnRecord) -> Result<BookGame, String> {
    let result = r
        .tag("Result")
        .filter(|t| Outcome::parse(t).is_some())
        .or(r.result.as_deref());
    let moves: Vec<&str> = r.moves.iter().map(String::as_str).collect();
    make_game(r.tag("FEN"), result, &moves)
}

/// A game from its FEN (the start position when `None`), result text and
/// move texts; the first unreadable thing is the error.
fn make_game(fen: Option<&str>, result: Option<&str>, moves: &[&str]) -> Result<BookGame, String> {
    let start = match fen {
        Some(f) => Position::from_fen(f).map_err(|e| format!("bad FEN '{f}': {e}"))?,
        None => Position::startpos(),
    };
    let result = result
        .and_then(Outcome::parse)
        .ok_or("no result (1-0, 0-1 or 1/2-1/2)")?;
    if moves.is_empty() {
        return Err("no moves".into());
    }
    let mut pos = start.clone();
    let mut played = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let mv = parse_move(&pos, text).map_err(|e| format!("move {}: {e}", i + 1))?;
        pos.make_move(mv);
        played.push(mv);
    }
    Ok(BookGame {
        start,
        moves: played,
        result,
    })
}

/// A move in ICCS (`h2e2`, `H2-E2` as XQF exports write it) or Chinese
/// notation, legal in `pos`.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, String> {
    if text.is_ascii() {
        let iccs = match text.as_bytes() {
            [a, b, b'-', c, d] => String::from_utf8_lossy(&[*a, *b, *c, *d]).into_owned(),
            _ => text.to_string(),
        };
        pos.parse_move(&iccs).map_err(|e| e.to_string())
    } else {
        pos.parse_chinese(text).map_err(|e| e.to_string())
    }
}

/// The position mirrored left to right (`None` cannot happen for a
/// position we made, but a FEN round trip is not assumed to be total).
fn mirrored(pos: &Position) -> Option<Position> {
    Position::from_fen(&crate::book::mirror_fen(&pos.to_fen())).ok()
}

/// A book position: the position as stored (itself or its mirror) and
/// the counts of the moves played in it, in the stored orientation.
#[derive(Clone, Debug)]
struct Node {
    pos: Position,
    ply: u32,
    moves: BTreeMap<Move, Wdl>,
}

/// Move counts over games, one entry per book position.
#[derive(Clone, Debug, Default)]
pub struct Tree {
    nodes: HashMap<i64, Node>,
    games: usize,
}

impl Tree {
    /// Counts the moves of `game` played before ply `max_ply`.
    pub fn add_game(&mut self, game: &BookGame, max_ply: u32) {
        self.games += 1;
        let mut pos = game.start.clone();
        for &mv in &game.moves {
            let ply = game_ply(&pos);
            if ply >= max_ply {
                break;
            }
            let mover = pos.side_to_move();
            let score = match game.result.winner() {
                None => Score::Draw,
                Some(c) if c == mover => Score::Win,
                Some(_) => Score::Loss,
            };
            let (key, stored, mv_stored) = canonical(&pos, mv);
            let node = self.nodes.entry(key).or_insert_with(|| Node {
                pos: stored,
                ply,
                moves: BTreeMap::new(),
            });
            node.ply = node.ply.min(ply);
            node.moves.entry(mv_stored).or_default().add(score);
            pos.make_move(mv);
        }
    }

    /// Games counted.
    pub fn games(&self) -> usize {
        self.games
    }

    /// Book positions counted.
    pub fn positions(&self) -> usize {
        self.nodes.len()
    }

    /// The positions with the moves played in at least `min_games` games
    /// (positions left without moves are left out), by ply then key.
    pub fn select(&self, min_games: u32) -> Vec<BookPosition> {
        let mut out: Vec<BookPosition> = self
            .nodes
            .iter()
            .filter_map(|(&key, n)| {
                let moves: Vec<BookMoveStats> = n
                    .moves
                    .iter()
                    .filter(|(_, wdl)| wdl.games() >= min_games.max(1))
                    .map(|(&mv, &wdl)| BookMoveStats {
                        mv,
                        wdl,
                        score: None,
                        dropped: false,
                    })
                    .collect();
                (!moves.is_empty()).then(|| BookPosition {
                    key,
                    pos: n.pos.clone(),
                    ply: n.ply,
                    moves,
                    best: None,
                })
            })
            .collect();
        out.sort_by_key(|p| (p.ply, p.key));
        out
    }
}

/// The position and move as stored: under the position or its mirror,
/// whichever has the smaller `.obk` key, with the key; in a symmetric
/// position the smaller of the move and its mirror.
fn canonical(pos: &Position, mv: Move) -> (i64, Position, Move) {
    // A fresh position: the stored one carries no game history.
    let plain = || Position::from_fen(&pos.to_fen()).unwrap_or_else(|_| pos.clone());
    let key = obk_key(pos);
    let Some(mirror) = mirrored(pos) else {
        return (key, plain(), mv);
    };
    let mirror_key = obk_key(&mirror);
    let mirror_mv = mirror_move(mv);
    match mirror_key.cmp(&key) {
        std::cmp::Ordering::Less => (mirror_key, mirror, mirror_mv),
        std::cmp::Ordering::Equal => (key, plain(), mv.min(mirror_mv)),
        std::cmp::Ordering::Greater => (key, plain(), mv),
    }
}

/// A kept move: its counts and, once checked, its search score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMoveStats {
    /// The move (in the stored orientation of its position).
    pub mv: Move,
    /// Games won, drawn and lost by the side playing it.
    pub wdl: Wdl,
    /// Its score by the search check (centipawns, mover's view).
    pub score: Option<i32>,
    /// Whether the search check dropped it.
    pub dropped: bool,
}

/// A book position with its kept moves.
#[derive(Clone, Debug)]
pub struct BookPosition {
    /// Its `.obk` key (of the stored orientation).
    pub key: i64,
    /// The position as stored (itself or its left-right mirror).
    pub pos: Position,
    /// The lowest game ply it was reached at.
    pub ply: u32,
    /// The moves kept by the game counts.
    pub moves: Vec<BookMoveStats>,
    /// The search's best move and score, once checked.
    pub best: Option<(Move, i32)>,
}

/// How the search checks the moves.
#[derive(Clone, Debug)]
pub struct CheckConfig {
    /// Search depth.
    pub depth: u32,
    /// Drop moves scoring more than this many centipawns below the best.
    pub margin: i32,
    /// Transposition table, MiB (cleared before each position).
    pub hash_mb: usize,
    /// The network to evaluate with (`None`: the hand-written evaluation).
    pub network: Option<Arc<Network>>,
}

/// Searches each position and each of its moves, marking the moves that
/// score more than the margin below the best as dropped. `report` sees
/// (positions checked, positions in all) after each position.
pub fn check(
    positions: &mut [BookPosition],
    cfg: &CheckConfig,
    report: &mut dyn FnMut(usize, usize),
) {
    let mut searcher = Searcher::new(cfg.hash_mb);
    searcher.set_network(cfg.network.clone());
    let control = Control::new();
    let total = positions.len();
    for (i, p) in positions.iter_mut().enumerate() {
        // A fresh table per position: the verdicts do not depend on the
        // order the positions are checked in.
        searcher.clear();
        let limits = Limits::depth(cfg.depth);
        control.reset();
        let all = searcher.search(&p.pos, &limits, &control, &|_| {});
        let Some(best_move) = all.best_move else {
            // No legal move: no book move can be right (cannot happen for
            // positions games were played on).
            for m in &mut p.moves {
                m.dropped = true;
            }
            continue;
        };
        p.best = Some((best_move, all.score));
        for m in &mut p.moves {
            let score = if m.mv == best_move {
                all.score
            } else {
                let only = Limits {
                    search_moves: vec![m.mv],
                    ..Limits::depth(cfg.depth)
                };
                control.reset();
                searcher.search(&p.pos, &only, &control, &|_| {}).score
            };
            m.score = Some(score);
            m.dropped = all.score.saturating_sub(score) > cfg.margin;
        }
        report(i + 1, total);
    }
}

/// The weight written as `vscore`: two per win and one per draw, the
/// weight the readers give moves without a score, so GUIs that sort or
/// choose by `vscore` see the same preference as Shuai. A move that only
/// lost weighs 0: listed, never chosen.
pub fn weight(wdl: &Wdl) -> i32 {
    let w = u64::from(wdl.w) * 2 + u64::from(wdl.d);
    i32::try_from(w).unwrap_or(i32::MAX)
}

/// Writes the moves not dropped as a BHGUI `.obk`; returns the number of
/// positions and moves written.
pub fn write_obk(positions: &[BookPosition], path: &Path) -> Result<(usize, usize), String> {
    let mut writer = SqliteWriter::new(SqliteFormat::Obk);
    let (mut written_positions, mut rows) = (0, 0);
    for p in positions {
        let mut any = false;
        for m in p.moves.iter().filter(|m| !m.dropped) {
            let entry = BookEntry {
                score: weight(&m.wdl),
                wins: m.wdl.w,
                draws: m.wdl.d,
                losses: m.wdl.l,
            };
            writer.add(&p.pos, m.mv, entry);
            rows += 1;
            any = true;
        }
        written_positions += usize::from(any);
    }
    writer
        .write(path)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok((written_positions, rows))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shuai_engine::book::Book;

    /// Three games from the start position: the second Black answer
    /// (马2进3 after 炮八平五) is the mirror of 马8进7 after 炮二平五, and
    /// the third game opens with the mirror of the first.
    const GAMES: &str = "\
[Event \"t\"]
[Result \"1-0\"]
1. h2e2 h9g7 2. h0g2 1-0

[Event \"t\"]
[Result \"0-1\"]
[Format \"ICCS\"]
1. H2-E2 B9-C7 2. h0g2 0-1

[Event \"t\"]
[Result \"1/2-1/2\"]
[Format \"Chinese\"]
1. 炮八平五 马2进3 2. 马八进七 1/2-1/2
";

    fn tree(max_ply: u32) -> Tree {
        let file = read_games(GAMES).unwrap();
        assert!(file.skipped.is_empty(), "{:?}", file.skipped);
        let mut t = Tree::default();
        for g in &file.games {
            t.add_game(g, max_ply);
        }
        t
    }

    fn wdl(w: u32, d: u32, l: u32) -> Wdl {
        Wdl { w, d, l }
    }

    fn after(moves: &[&str]) -> Position {
        let mut pos = Position::startpos();
        for m in moves {
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
        }
        pos
    }

    /// (move, wins, draws, losses) as the engine's reader gives them.
    fn probe(book: &Book, pos: &Position) -> Vec<(String, u32, u32, u32, u32)> {
        let mut v: Vec<_> = book
            .probe(pos)
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m.mv.to_string(),
                    m.weight,
                    m.wins.unwrap(),
                    m.draws.unwrap(),
                    m.losses.unwrap(),
                )
            })
            .collect();
        v.sort();
        v
    }

    #[test]
    fn counts_read_back_by_the_engine() {
        let t = tree(3);
        assert_eq!(t.games(), 3);
        // The start position, after 炮二平五 (= after 炮八平五 mirrored), and
        // the two positions after Black's answers, up to mirroring.
        assert_eq!(t.positions(), 4);
        let kept = t.select(1);
        let dir = std::env::temp_dir().join(format!("shuai-book-build-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("counts.obk");
        assert_eq!(write_obk(&kept, &path).unwrap(), (4, 5));
        let book = Book::open(&path).unwrap();
        // The start position: 炮二平五 and 炮八平五 are one move (1-1-1),
        // which the reader shows both ways. Weight 2·1 + 1.
        assert_eq!(
            probe(&book, &Position::startpos()),
            [
                ("b2e2".to_string(), 3, 1, 1, 1),
                ("h2e2".to_string(), 3, 1, 1, 1)
            ]
        );
        // After 炮二平五: 马8进7 lost once and drew once (the mirrored
        // third game); 马2进3 won once. The same seen from 炮八平五.
        let e = |m: &str, w, d, l| (m.to_string(), weight(&wdl(w, d, l)) as u32, w, d, l);
        assert_eq!(
            probe(&book, &after(&["h2e2"])),
            [e("b9c7", 1, 0, 0), e("h9g7", 0, 1, 1)]
        );
        assert_eq!(
            probe(&book, &after(&["b2e2"])),
            [e("b9c7", 0, 1, 1), e("h9g7", 1, 0, 0)]
        );
        // Red's second moves. 马八进七 after 炮八平五 马2进3 is the mirror of
        // 马二进三 after 炮二平五 马8进7.
        assert_eq!(
            probe(&book, &after(&["h2e2", "h9g7"])),
            [e("h0g2", 1, 1, 0)]
        );
        // A position whose only move lost: weight 0 as written, which the
        // reader turns into an equal weight of 1 (no move scores).
        assert_eq!(
            probe(&book, &after(&["h2e2", "b9c7"])),
            [("h0g2".to_string(), 1, 0, 0, 1)]
        );
        // Ply 3 is past max_ply: no book move.
        assert!(probe(&book, &after(&["h2e2", "h9g7", "h0g2"])).is_empty());
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn minimum_games_and_maximum_ply() {
        let only_start = tree(1);
        assert_eq!(only_start.positions(), 1);
        let kept = tree(3).select(2);
        // 炮二平五 (3 games), 马8进7 after it (2 games) and 马二进三 after
        // those (2 games) remain.
        let moves: Vec<(u32, String, Wdl)> = kept
            .iter()
            .flat_map(|p| p.moves.iter().map(|m| (p.ply, m.mv.to_string(), m.wdl)))
            .collect();
        let plies_and_counts: Vec<(u32, Wdl)> = moves.iter().map(|m| (m.0, m.2)).collect();
        assert_eq!(
            plies_and_counts,
            [(0, wdl(1, 1, 1)), (1, wdl(0, 1, 1)), (2, wdl(1, 1, 0))],
            "{moves:?}"
        );
    }

    #[test]
    fn the_search_drops_a_blunder() {
        // Red's rook can take Black's on i4; the games say 车九平八 (a4b4)
        // is as good, the search says it gives up a rook for nothing.
        let fen = "3k5/9/9/9/9/R7r/9/9/9/4K4 w - - 0 1";
        let text = format!(
            "[FEN \"{fen}\"]\n[Result \"1-0\"]\na4i4 1-0\n\n\
             [FEN \"{fen}\"]\n[Result \"1-0\"]\na4b4 1-0\n"
        );
        let file = read_games(&text).unwrap();
        let mut t = Tree::default();
        for g in &file.games {
            t.add_game(g, 10);
        }
        let mut kept = t.select(1);
        assert_eq!(kept.len(), 1);
        let cfg = CheckConfig {
            depth: 4,
            margin: 50,
            hash_mb: 1,
            network: None,
        };
        let mut reports = Vec::new();
        check(&mut kept, &cfg, &mut |n, all| reports.push((n, all)));
        assert_eq!(reports, [(1, 1)]);
        // Stored as itself or its mirror: compare up to mirroring.
        let same = |m: Move| m.min(mirror_move(m));
        let p = &kept[0];
        let mut verdict: Vec<(Move, bool)> =
            p.moves.iter().map(|m| (same(m.mv), m.dropped)).collect();
        verdict.sort();
        let start = Position::from_fen(fen).unwrap();
        let take = start.parse_move("a4i4").unwrap();
        let blunder = start.parse_move("a4b4").unwrap();
        let mut expected = vec![(same(take), false), (same(blunder), true)];
        expected.sort();
        assert_eq!(verdict, expected);
        assert_eq!(p.best.map(|b| same(b.0)), Some(same(take)));
    }

    #[test]
    fn bad_games_are_skipped_with_a_reason() {
        let text = "[Result \"1-0\"]\n1. h2e2 h2e3 1-0\n\n\
                    [Result \"*\"]\n1. h2e2 *\n\n\
                    [FEN \"not a fen\"]\n[Result \"1-0\"]\n1. h2e2 1-0\n\n\
                    [Result \"0-1\"]\n1. 炮二平五 马8进7 0-1\n";
        let file = read_games(text).unwrap();
        assert_eq!(file.games.len(), 1);
        assert_eq!(file.skipped.len(), 3, "{:?}", file.skipped);
        assert!(file.skipped[0].starts_with("game 1 (line 1): move 2:"));
        assert!(file.skipped[1].contains("no result"));
        assert!(file.skipped[2].contains("bad FEN"));
        for bad in [
            "",
            "just words",
            "[Result \"1-0\"]\n1. 炮二进九 1-0\n",
            "{]",
            "{\"games\": 3}",
        ] {
            assert!(read_games(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_match_report_is_read() {
        let json = r#"{"games": [{"fen": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
                       "moves": ["h2e2", "h9g7"], "result": "0-1"}, {"fen": "x"}]}"#;
        let file = read_games(json).unwrap();
        assert_eq!(file.games.len(), 1);
        assert_eq!(file.games[0].result, Outcome::BlackWins);
        assert_eq!(file.skipped.len(), 1);
    }
}
