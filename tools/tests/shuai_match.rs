//! A real match: Shuai against Shuai at a fixed depth through the command
//! line, in the exact form scripts use, checked game by game: the PGN
//! replays legally from its FEN header, every result agrees with the rules
//! code's verdict on the final position, the JSON carries the documented
//! fields, and the same seed gives the same games.

use serde_json::Value;
use shuai_board::rules::{judge_game_end_with, RuleOptions};
use shuai_board::Position;
use shuai_tools::pgn::read_games;
use std::path::Path;
use std::process::Command;

mod common;
use common::shuai_binary;

const EXE: &str = env!("CARGO_BIN_EXE_shuai-tools");

fn run_match(shuai: &Path, dir: &Path, tag: &str) -> (String, Value) {
    let pgn = dir.join(format!("{tag}.pgn"));
    let json = dir.join(format!("{tag}.json"));
    let a = format!("name=A,cmd={},proto=uci,opt.Hash=8", shuai.display());
    let b = format!("name=B,cmd={},proto=ucci,opt.hashsize=8", shuai.display());
    let out = Command::new(EXE)
        .args(["match", "--engine", &a, "--engine", &b, "--depth", "4"])
        .args(["--games", "4", "--concurrency", "2", "--seed", "7"])
        .args([
            "--pgn",
            pgn.to_str().unwrap(),
            "--json",
            json.to_str().unwrap(),
        ])
        .args(["--sprt", "elo0=0,elo1=5,alpha=0.05,beta=0.05"])
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("Results of A vs B"), "{stdout}");
    assert!(stdout.contains("Ptnml(0-2)"), "{stdout}");
    assert!(stdout.contains("LLR"), "{stdout}");
    assert!(stderr.contains("4/4"), "progress: {stderr}");
    let pgn = std::fs::read_to_string(pgn).unwrap();
    let json: Value = serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    (pgn, json)
}

#[test]
fn shuai_vs_shuai_four_games() {
    let shuai = shuai_binary();
    let dir = std::env::temp_dir().join(format!("shuai-tools-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (pgn, json) = run_match(&shuai, &dir, "one");

    // JSON: the documented fields.
    for k in [
        "wdl",
        "elo",
        "elo_ci95",
        "los",
        "terminations",
        "games_played",
        "games",
    ] {
        assert!(json.get(k).is_some(), "missing {k}");
    }
    assert_eq!(json["games_played"], 4);
    let wdl = &json["wdl"];
    let total =
        wdl["w"].as_u64().unwrap() + wdl["d"].as_u64().unwrap() + wdl["l"].as_u64().unwrap();
    assert_eq!(total, 4);
    let games = json["games"].as_array().unwrap();
    assert_eq!(games.len(), 4);
    let term_total: u64 = json["terminations"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(term_total, 4);

    // PGN: four games, each legal from its FEN, results as in the JSON.
    let parsed = read_games(&pgn);
    assert_eq!(parsed.len(), 4, "{pgn}");
    for (i, ((headers, moves), g)) in parsed.iter().zip(games).enumerate() {
        let h = |k: &str| {
            headers
                .iter()
                .find(|(n, _)| n == k)
                .map(|(_, v)| v.clone())
                .unwrap_or_else(|| panic!("game {i}: no [{k}]"))
        };
        assert_eq!(h("Variant"), "xiangqi");
        assert_eq!(h("SetUp"), "1");
        assert_eq!(h("Format"), "ICCS");
        assert_eq!(h("Round"), (i + 1).to_string());
        assert_eq!(h("FEN"), g["fen"].as_str().unwrap());
        assert_eq!(h("Result"), g["result"].as_str().unwrap());
        assert_eq!(h("Termination"), g["termination"].as_str().unwrap());
        let (red, black) = if i % 2 == 0 { ("A", "B") } else { ("B", "A") };
        assert_eq!((h("Red").as_str(), h("Black").as_str()), (red, black));
        let json_moves: Vec<&str> = g["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        assert_eq!(moves, &json_moves, "game {i}");
        assert_eq!(h("PlyCount"), moves.len().to_string());
        let mut pos = Position::from_fen(&h("FEN")).unwrap();
        for m in moves {
            let mv = pos
                .parse_move(m)
                .unwrap_or_else(|e| panic!("game {i}: {e}"));
            pos.make_move(mv);
        }
        // Every termination is one the rules code gives on the final
        // position (no engine failures between two healthy Shuais).
        let verdict = judge_game_end_with(&pos, &RuleOptions::default());
        let t = h("Termination");
        match t.as_str() {
            "max_length" | "resign" => assert!(verdict.is_none()),
            _ => {
                let v = verdict.unwrap_or_else(|| panic!("game {i}: {t} but the rules see no end"));
                let result = match v.winner(pos.side_to_move()) {
                    Some(shuai_board::Color::Red) => "1-0",
                    Some(shuai_board::Color::Black) => "0-1",
                    None => "1/2-1/2",
                };
                assert_eq!(h("Result"), result, "game {i}: {}", v.explanation);
            }
        }
    }

    // Same seed, same openings, same order (and, at a fixed depth, the
    // same games).
    let (_, again) = run_match(&shuai, &dir, "two");
    for (a, b) in games.iter().zip(again["games"].as_array().unwrap()) {
        assert_eq!(a["fen"], b["fen"]);
        assert_eq!(a["moves"], b["moves"]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_complaining_about_its_options_is_heard() {
    use shuai_tools::engine::Engine;
    use shuai_tools::spec::EngineSpec;
    let shuai = shuai_binary();
    let text = format!(
        "name=S,cmd={},proto=ucci,opt.weightsfile=/no/such/table.txt,opt.hashsize=8",
        shuai.display()
    );
    let spec = EngineSpec::parse(&text, None).expect("a valid spec");
    let engine = Engine::start(&spec, None, "S").expect("starts");
    assert_eq!(
        engine.option_replies.len(),
        1,
        "{:?}",
        engine.option_replies
    );
    assert!(
        engine.option_replies[0].starts_with("info message setoption weightsfile: cannot read"),
        "{:?}",
        engine.option_replies
    );
    engine.quit();
    // Options it takes draw no reply.
    let quiet = EngineSpec::parse(
        &format!("name=S,cmd={},proto=uci,opt.Hash=8", shuai.display()),
        None,
    )
    .expect("a valid spec");
    let engine = Engine::start(&quiet, None, "S").expect("starts");
    assert_eq!(engine.option_replies, Vec::<String>::new());
    engine.quit();
}
