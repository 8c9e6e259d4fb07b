//! Prints what `shuai_engine::game` reads from game files, one JSON line a
//! game: the file, the game's number, the start FEN, every line of the
//! move tree in ICCS, the problems met; or the file's error. For
//! cross-checking the readers against another reader
//! (`tools/scripts/game-readers/crosscheck.py`).
//!
//! `cargo run --release -p shuai-engine --example read_games -- FILE…`

use shuai_engine::game::read_games;

use shuai_engine::json::quote as json;

fn main() {
    for path in std::env::args().skip(1) {
        let result = std::fs::read(&path)
            .map_err(|e| e.to_string())
            .and_then(|bytes| read_games(&bytes).map_err(|e| e.to_string()));
        match result {
            Err(e) => println!("{{\"file\": {}, \"error\": {}}}", json(&path), json(&e)),
            Ok(games) => {
                for (i, g) in games.iter().enumerate() {
                    let lines: Vec<String> = g
                        .lines()
                        .iter()
                        .map(|l| {
                            let moves: Vec<String> =
                                l.iter().map(|m| json(&m.to_string())).collect();
                            format!("[{}]", moves.join(", "))
                        })
                        .collect();
                    let problems: Vec<String> = g.problems.iter().map(|p| json(p)).collect();
                    println!(
                        "{{\"file\": {}, \"game\": {}, \"fen\": {}, \"result\": {}, \"lines\": [{}], \"problems\": [{}]}}",
                        json(&path),
                        i + 1,
                        json(&g.start.to_fen()),
                        json(g.tag("Result").unwrap_or("*")),
                        lines.join(", "),
                        problems.join(", ")
                    );
                }
            }
        }
    }
}
