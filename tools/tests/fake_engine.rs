//! The runner's failure paths, driven by the scripted fake engine
//! (`shuai-tools fake-engine`): illegal move, crash, silence, late move,
//! no move, garbage, resignation; score adjudication; protocol dialects;
//! repetition verdicts applied by the rules code.

use shuai_board::rules::RuleOptions;
use shuai_tools::game::{DrawRule, GameConfig, ResignRule, Termination};
use shuai_tools::openings::{parse_text, shuffled, DEFAULT_BOOK};
use shuai_tools::runner::{run_match, MatchConfig, MatchReport};
use shuai_tools::spec::{EngineSpec, Protocol};
use shuai_tools::tc::Limit;

const EXE: &str = env!("CARGO_BIN_EXE_shuai-tools");

fn fake(name: &str, proto: Protocol, args: &str) -> EngineSpec {
    let mut a = vec!["fake-engine".to_string()];
    a.extend(args.split_whitespace().map(str::to_string));
    if proto == Protocol::Uci1 {
        a.push("--ranks1".into());
    }
    EngineSpec {
        name: name.into(),
        cmd: EXE.into(),
        args: a,
        dir: None,
        proto,
        options: vec![("Hash".into(), "1".into())],
        depth: None,
        nodes: None,
    }
}

fn config(a: EngineSpec, b: EngineSpec, limit: Limit, games: usize) -> MatchConfig {
    MatchConfig {
        engines: [a, b],
        game: GameConfig {
            limit,
            own_limits: [None, None],
            margin_ms: 50,
            timeout_ms: 2000,
            stop_grace_ms: 300,
            rules: RuleOptions::default(),
            max_plies: 40,
            resign: None,
            draw: None,
        },
        openings: shuffled(parse_text(DEFAULT_BOOK).unwrap(), 1),
        book_name: "default".into(),
        games,
        concurrency: 2,
        seed: 1,
        sprt: None,
        pgn: None,
        debug_log: None,
        progress: false,
    }
}

fn only(r: &MatchReport, t: Termination) {
    assert_eq!(
        r.terminations.keys().cloned().collect::<Vec<_>>(),
        vec![t.name().to_string()],
        "{:?}",
        r.games.iter().map(|g| &g.reason).collect::<Vec<_>>()
    );
}

#[test]
fn illegal_move_loses() {
    let cfg = config(
        fake("good", Protocol::Uci, ""),
        fake("bad", Protocol::Uci, "--mode illegal --after 2"),
        Limit::Depth(1),
        4,
    );
    let r = run_match(&cfg).unwrap();
    assert_eq!((r.wdl.w, r.wdl.d, r.wdl.l), (4, 0, 0));
    only(&r, Termination::IllegalMove);
    assert!(r.games[0].reason.contains("e0e5"), "{}", r.games[0].reason);
    assert_eq!(r.engine_stats[1].failures["illegal_move"], 4);
}

#[test]
fn garbage_and_no_move() {
    let cfg = config(
        fake("garbage", Protocol::Uci, "--mode garbage --after 1"),
        fake("good", Protocol::Uci, ""),
        Limit::Depth(1),
        2,
    );
    let r = run_match(&cfg).unwrap();
    assert_eq!(r.wdl.l, 2);
    only(&r, Termination::IllegalMove);
    let cfg = config(
        fake("none", Protocol::Uci, "--mode nomove"),
        fake("good", Protocol::Uci, ""),
        Limit::Depth(1),
        2,
    );
    let r = run_match(&cfg).unwrap();
    assert_eq!(r.wdl.l, 2);
    only(&r, Termination::Resign);
}

#[test]
fn crash_loses_and_engine_restarts() {
    let mut cfg = config(
        fake("good", Protocol::Uci, ""),
        fake("crasher", Protocol::Uci, "--mode crash --after 3"),
        Limit::Depth(1),
        6,
    );
    cfg.concurrency = 1;
    let r = run_match(&cfg).unwrap();
    assert_eq!(r.wdl.w, 6);
    only(&r, Termination::Crash);
    // Started fresh for every game after the first.
    assert_eq!(r.engine_stats[1].restarts, 5);
    assert_eq!(r.engine_stats[0].restarts, 0);
}

#[test]
fn silence_loses_and_engine_is_killed() {
    let mut cfg = config(
        fake("silent", Protocol::Uci, "--mode silent --after 1"),
        fake("good", Protocol::Uci, ""),
        Limit::Nodes(1000),
        2,
    );
    cfg.game.timeout_ms = 300;
    cfg.game.stop_grace_ms = 200;
    let t = std::time::Instant::now();
    let r = run_match(&cfg).unwrap();
    assert_eq!(r.wdl.l, 2);
    only(&r, Termination::NoAnswer);
    assert!(t.elapsed().as_secs() < 20);
}

#[test]
fn late_move_loses_on_time() {
    // Fixed time per move: 100 ms, margin 50 ms, the engine takes 400 ms.
    let cfg = config(
        fake("good", Protocol::Uci, ""),
        fake("slow", Protocol::Uci, "--mode late --after 2 --delay 400"),
        Limit::MoveTime(100),
        2,
    );
    let r = run_match(&cfg).unwrap();
    assert_eq!(r.wdl.w, 2);
    only(&r, Termination::TimeForfeit);
    // A real clock: 0.3 s for the game, the engine takes 500 ms once.
    let cfg = config(
        fake("good", Protocol::Uci, ""),
        fake("slow", Protocol::Uci, "--mode late --after 3 --delay 500"),
        Limit::parse_tc("0.3").unwrap(),
        2,
    );
    let r = run_match(&cfg).unwrap();
    assert_eq!(r.wdl.w, 2);
    only(&r, Termination::TimeForfeit);
    assert!(r.games[0].reason.contains("on time"));
}

#[test]
fn an_engine_with_its_own_fixed_depth_has_no_clock() {
    // The same slow engine given `depth=3`: it searches by depth, so the
    // match's 100 ms a move does not apply to it and the game goes on to
    // the length limit (a draw), with the colours swapped in game two.
    let slow = EngineSpec {
        depth: Some(3),
        ..fake("slow", Protocol::Uci, "--mode late --after 2 --delay 400")
    };
    let mut cfg = config(
        fake("good", Protocol::Uci, ""),
        slow,
        Limit::MoveTime(100),
        2,
    );
    cfg.game.max_plies = 6;
    let r = run_match(&cfg).unwrap();
    assert_eq!((r.wdl.w, r.wdl.d, r.wdl.l), (0, 2, 0));
    assert_eq!(r.tc, "movetime 100ms; slow: depth 3");
}

#[test]
fn engine_resignation() {
    let cfg = config(
        fake("good", Protocol::Uci, ""),
        fake("quitter", Protocol::Ucci, "--mode resign --after 2"),
        Limit::Depth(1),
        2,
    );
    let r = run_match(&cfg).unwrap();
    assert_eq!(r.wdl.w, 2);
    only(&r, Termination::Resign);
}

#[test]
fn dialects_play_full_games() {
    // uci1 (ranks 1-10) against ucci: legal games to the length limit.
    let cfg = config(
        fake("one", Protocol::Uci1, ""),
        fake("ucci", Protocol::Ucci, ""),
        Limit::parse_tc("10+0.1").unwrap(),
        4,
    );
    let r = run_match(&cfg).unwrap();
    assert_eq!(r.games_played, 4);
    for g in &r.games {
        assert!(
            !g.termination.is_failure(),
            "{}: {}",
            g.termination,
            g.reason
        );
        assert!(g.moves.len() > g.book_plies);
    }
}

#[test]
fn score_adjudication() {
    // Both engines think the first is +20: resign adjudication for it.
    let mut cfg = config(
        fake("up", Protocol::Uci, "--score 2000"),
        fake("down", Protocol::Uci, "--score=-2000"),
        Limit::Depth(1),
        4,
    );
    cfg.game.resign = Some(ResignRule {
        move_count: 3,
        score: 1000,
    });
    let r = run_match(&cfg).unwrap();
    assert_eq!(r.wdl.w, 4);
    only(&r, Termination::ResignAdjudication);
    for g in &r.games {
        assert_eq!(g.moves.len() - g.book_plies, 6);
    }
    // Both think the game is level: draw adjudication after move 5.
    let mut cfg = config(
        fake("a", Protocol::Uci, "--score 3"),
        fake("b", Protocol::Uci, "--score=-3"),
        Limit::Depth(1),
        2,
    );
    cfg.game.draw = Some(DrawRule {
        move_number: 5,
        move_count: 2,
        score: 10,
    });
    let r = run_match(&cfg).unwrap();
    assert_eq!(r.wdl.d, 2);
    only(&r, Termination::DrawAdjudication);
    assert_eq!(r.games[0].moves.len() - r.games[0].book_plies, 10);
}

#[test]
fn repetition_verdicts_are_applied() {
    // fsf-1174: Black checks perpetually with a pawn (Black loses), from the
    // rules reference cases; both engines follow the script.
    let tsv = include_str!("data/repetition-cases.tsv");
    let line = tsv.lines().find(|l| l.starts_with("fsf-1174\t")).unwrap();
    let cols: Vec<&str> = line.split('\t').collect();
    let script = cols[2].to_string();
    let mk = |name: &str| {
        let mut s = fake(name, Protocol::Uci, "--mode script");
        s.args.push("--script".into());
        s.args.push(script.clone());
        s
    };
    let mut cfg = config(mk("a"), mk("b"), Limit::Depth(1), 2);
    cfg.openings = parse_text(cols[1]).unwrap();
    cfg.concurrency = 1;
    let r = run_match(&cfg).unwrap();
    only(&r, Termination::PerpetualCheck);
    for g in &r.games {
        assert_eq!(g.result.pgn(), "1-0", "{}", g.reason);
        assert_eq!(g.moves.join(" "), cols[2]);
    }
    // One win each: the first engine is Red in game 1, Black in game 2.
    assert_eq!((r.wdl.w, r.wdl.l), (1, 1));
    assert_eq!(r.penta.wl, 1);
}

#[test]
fn bad_command_is_an_error() {
    let mut bad = fake("bad", Protocol::Uci, "");
    bad.cmd = "/nonexistent/engine".into();
    let cfg = config(fake("good", Protocol::Uci, ""), bad, Limit::Depth(1), 2);
    let e = run_match(&cfg).unwrap_err();
    assert!(e.contains("cannot start"), "{e}");
}

#[test]
fn sprt_stops_the_match() {
    // The first engine wins every game (resign adjudication): H1 is
    // accepted long before 400 games.
    let mut cfg = config(
        fake("up", Protocol::Uci, "--score 2000"),
        fake("down", Protocol::Uci, "--score=-2000"),
        Limit::Depth(1),
        400,
    );
    cfg.concurrency = 1;
    cfg.game.resign = Some(ResignRule {
        move_count: 1,
        score: 1000,
    });
    cfg.sprt = Some(shuai_tools::stats::Sprt::parse("elo0=0,elo1=100,model=logistic").unwrap());
    let r = run_match(&cfg).unwrap();
    let sprt = r.sprt.unwrap();
    assert_eq!(sprt.status, shuai_tools::stats::SprtStatus::H1);
    assert!(sprt.llr >= sprt.upper);
    assert!(r.games_played < 60, "{}", r.games_played);
    assert_eq!(r.wdl.w as usize, r.games_played);
}
