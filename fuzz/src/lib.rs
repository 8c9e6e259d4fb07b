//! What the fuzz targets share: the file a book target writes its input
//! to (books are opened by path, as the engine opens them), and the
//! positions the book targets probe.

use shuai_board::Position;
use std::path::PathBuf;

/// A file of this process's own under the system's temporary directory
/// (tmpfs on most Linux machines), written afresh for every input:
/// `Book::open` reads from a path, as `setoption name BookFile` does.
pub fn scratch_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shuai-fuzz-{}", std::process::id()));
    // Already there after the first input; an error shows at the write.
    let _ = std::fs::create_dir_all(&dir);
    dir.join(name)
}

/// The positions the book targets look up: the start, and two plies
/// in, where the seed books have moves (so the fuzzer reaches the code that
/// decodes and checks a book's moves, not only the lookup that finds none).
pub fn book_positions() -> Vec<Position> {
    let mut out = vec![Position::startpos()];
    let mut pos = Position::startpos();
    for m in ["h2e2", "h9g7"] {
        let Ok(m) = pos.parse_move(m) else { break };
        pos.make_move(m);
        out.push(pos.clone());
    }
    out
}

/// Uses every part of games read, as the engine's commands do (a read
/// that succeeds must give games that can be replayed move by move).
pub fn walk(games: Result<Vec<shuai_engine::game::Game>, shuai_engine::game::ReadError>) {
    let Ok(games) = games else { return };
    for g in &games {
        let _ = g.title();
        let _ = g.move_count();
        let _ = g.main_line();
        // Every line replayed, up to 20,000 moves in all: a tree of n
        // nodes has up to n lines of up to n moves, and the fuzzer's time
        // is better spent on other inputs than on replaying one.
        let mut budget = 20_000usize;
        for line in g.lines() {
            budget = budget.saturating_sub(line.len());
            if budget == 0 {
                break;
            }
            let mut pos = g.start.clone();
            for m in line {
                assert!(pos.is_legal(m), "a game line holds an illegal move");
                pos.make_move(m);
            }
        }
    }
}
