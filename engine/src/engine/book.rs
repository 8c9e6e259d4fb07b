//! Playing from opening books: which `go` may answer from a book, the
//! books opened on first use, and the choice of a book move.

use super::go::GoParams;
use super::options::EngineOptions;
use super::paths::{file_names, locate};
use crate::book::{Book, BookMove};
use shuai_board::{Color, Move, Position};
use std::path::{Path, PathBuf};

/// The book move a `go` answered with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookPick {
    /// What the book says of the move played.
    pub entry: BookMove,
    /// The weights of all the moves it was chosen from, added up.
    pub total_weight: u64,
    /// How many moves it was chosen from.
    pub choices: usize,
    /// The book's file.
    pub book: PathBuf,
}

/// Plies played since the start of the game: from the FEN's move number
/// and side to move (a GUI may send the position after the last capture
/// with the moves since, so the move list alone does not say).
pub fn game_ply(pos: &Position) -> u32 {
    let black = u32::from(pos.side_to_move() == Color::Black);
    2 * (u32::from(pos.fullmove_number()).max(1) - 1) + black
}

/// Whether a `go` with `params` may be answered from a book: only a `go`
/// that asks for a move to play (a clock, a move time, or nothing at all),
/// never analysis (`infinite`), pondering, a mate search, or a search of a
/// fixed depth or node count (benchmarks and tests want the search), and
/// only while the game is shorter than the book depth.
pub fn wants_book(opts: &EngineOptions, params: &GoParams, pos: &Position) -> bool {
    let l = &params.limits;
    opts.use_book
        && file_names(&opts.book_files).next().is_some()
        && !params.ponder
        && !l.infinite
        && l.mate.is_none()
        && l.depth.is_none()
        && l.nodes.is_none()
        && (opts.book_depth == 0 || game_ply(pos) < opts.book_depth)
}

/// The books of one `Book File` value, opened on first use.
pub(super) struct Books {
    /// The option value they were opened for.
    pub(super) spec: String,
    /// The books that opened, in the order given.
    books: Vec<Book>,
}

impl Books {
    /// Opens every file of `spec`; each one that cannot be used gets one
    /// line in `problems`.
    pub(super) fn open(spec: &str, problems: &mut Vec<String>) -> Books {
        let mut books = Vec::new();
        for name in file_names(spec) {
            match Book::open(locate(name)) {
                Ok(b) => {
                    log::info!("opening book {}: {}", b.path().display(), b.format());
                    books.push(b);
                }
                Err(e) => problems.push(format!("{e}; playing without it")),
            }
        }
        Books {
            spec: spec.to_string(),
            books,
        }
    }

    /// A book move for `pos`: from the first book (in the order given)
    /// that has a playable move, i.e. one with a positive weight, not
    /// banned, among `search_moves` when given, and not repeating a
    /// position of the game. `random` chooses by weight (`None`: the
    /// heaviest). Books that fail while being read add a line to
    /// `problems` and are passed over.
    pub(super) fn choose(
        &self,
        pos: &Position,
        banned: &[Move],
        search_moves: &[Move],
        random: Option<u64>,
        problems: &mut Vec<String>,
    ) -> Option<(BookPick, Option<Move>)> {
        for book in &self.books {
            let moves = match book.probe(pos) {
                Ok(m) => m,
                Err(e) => {
                    problems.push(format!("{e}; searching instead"));
                    continue;
                }
            };
            let playable: Vec<BookMove> = moves
                .into_iter()
                .filter(|m| m.weight > 0)
                .filter(|m| !banned.contains(&m.mv))
                .filter(|m| search_moves.is_empty() || search_moves.contains(&m.mv))
                .filter(|m| !repeats(pos, m.mv))
                .collect();
            let total: u64 = playable.iter().map(|m| u64::from(m.weight)).sum();
            if total == 0 {
                continue;
            }
            let entry = match random {
                None => playable[0],
                Some(r) => {
                    let mut left = r % total;
                    *playable
                        .iter()
                        .find(|m| {
                            let w = u64::from(m.weight);
                            if left < w {
                                true
                            } else {
                                left -= w;
                                false
                            }
                        })
                        .unwrap_or(&playable[0])
                }
            };
            let ponder = expected_reply(book, pos, entry.mv);
            let pick = BookPick {
                entry,
                total_weight: total,
                choices: playable.len(),
                book: book.path().to_path_buf(),
            };
            return Some((pick, ponder));
        }
        None
    }

    /// Whether no book opened.
    pub(super) fn is_empty(&self) -> bool {
        self.books.is_empty()
    }
}

/// Whether playing `m` brings back a position of the game.
fn repeats(pos: &Position, m: Move) -> bool {
    let mut after = pos.clone();
    after.make_move(m);
    let repeated = after.earlier_occurrences().next().is_some();
    repeated
}

/// The book's heaviest answer to `m`, to ponder on.
fn expected_reply(book: &Book, pos: &Position, m: Move) -> Option<Move> {
    let mut after = pos.clone();
    after.make_move(m);
    let replies = book.probe(&after).ok()?;
    replies.iter().find(|r| r.weight > 0).map(|r| r.mv)
}

/// The file name of a book, for messages.
pub fn book_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use shuai_search::Limits;

    #[test]
    fn game_plies_count_from_the_fen() {
        let mut pos = Position::startpos();
        assert_eq!(game_ply(&pos), 0);
        pos.make_move(pos.parse_move("h2e2").unwrap());
        assert_eq!(game_ply(&pos), 1);
        pos.make_move(pos.parse_move("h9g7").unwrap());
        assert_eq!(game_ply(&pos), 2);
        let later = Position::from_fen(
            "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 12",
        )
        .unwrap();
        assert_eq!(game_ply(&later), 23);
    }

    #[test]
    fn only_a_go_for_a_move_to_play_uses_the_book() {
        let on = EngineOptions {
            use_book: true,
            book_files: "a.dat".into(),
            ..EngineOptions::default()
        };
        let pos = Position::startpos();
        let timed = GoParams {
            limits: Limits {
                movetime: Some(std::time::Duration::from_millis(100)),
                ..Limits::default()
            },
            ..GoParams::default()
        };
        assert!(wants_book(&on, &timed, &pos));
        assert!(wants_book(&on, &GoParams::default(), &pos));
        assert!(!wants_book(&on, &GoParams::depth(5), &pos));
        let nodes = GoParams {
            limits: Limits::nodes(1000),
            ..GoParams::default()
        };
        assert!(!wants_book(&on, &nodes, &pos));
        let ponder = GoParams {
            ponder: true,
            ..timed.clone()
        };
        assert!(!wants_book(&on, &ponder, &pos));
        let infinite = GoParams {
            limits: Limits {
                infinite: true,
                ..Limits::default()
            },
            ..GoParams::default()
        };
        assert!(!wants_book(&on, &infinite, &pos));
        let mate = GoParams {
            limits: Limits {
                mate: Some(3),
                ..Limits::default()
            },
            ..GoParams::default()
        };
        assert!(!wants_book(&on, &mate, &pos));
        let off = EngineOptions {
            use_book: false,
            ..on.clone()
        };
        assert!(!wants_book(&off, &timed, &pos));
        let no_files = EngineOptions {
            book_files: " ; ".into(),
            ..on.clone()
        };
        assert!(!wants_book(&no_files, &timed, &pos));
        let shallow = EngineOptions {
            book_depth: 1,
            ..on
        };
        assert!(wants_book(&shallow, &timed, &pos));
        let mut later = pos.clone();
        later.make_move(pos.parse_move("h2e2").unwrap());
        assert!(!wants_book(&shallow, &timed, &later));
    }

    #[test]
    fn files_are_split_on_semicolons() {
        let names: Vec<&str> = file_names(" a.dat ;; b c.obk;").collect();
        assert_eq!(names, ["a.dat", "b c.obk"]);
        assert_eq!(book_name(Path::new("/x/y/BOOK.DAT")), "BOOK.DAT");
    }
}
