//! Behaviour of the search: it finds mates, respects limits, stops on
//! request, is deterministic on one thread and scores repetitions by the
//! rules.

use shuai_board::Position;
use shuai_search::score::{mate_in, DisplayScore};
use shuai_search::{Control, Event, Limits, Searcher, Status, STATUS_AFTER_MS, STATUS_EVERY_MS};
use std::sync::Mutex;

fn search(fen: &str, moves: &str, limits: Limits) -> shuai_search::SearchResult {
    let mut pos = Position::from_fen(fen).unwrap();
    for m in moves.split_whitespace() {
        let m = pos.parse_move(m).unwrap();
        pos.make_move(m);
    }
    Searcher::new(16).search(&pos, &limits, &Control::new(), &|_| {})
}

#[test]
fn finds_mate_in_one() {
    // The rook on a8 holds rank 8; the other rook mates on rank 9.
    let r = search("4k4/R8/9/9/9/9/9/9/9/1R1K5 w", "", Limits::depth(3));
    assert_eq!(r.best_move.map(|m| m.to_string()).as_deref(), Some("b0b9"));
    assert_eq!(r.score, mate_in(1));
    assert_eq!(DisplayScore::from_score(r.score), DisplayScore::Mate(1));
}

#[test]
fn mated_side_has_no_move() {
    // Black to move, checkmated: the result says so instead of a move.
    let r = search("1R2k4/R8/9/9/9/9/9/9/9/3K5 b", "", Limits::depth(3));
    assert_eq!(r.best_move, None);
}

/// The bench node totals are the search's signature: the same on every
/// run and machine, and the numbers README.md and `shuai bench` state.
#[test]
fn single_thread_search_is_deterministic() {
    use shuai_search::bench::{run, DEFAULT_DEPTH, HCE_SIGNATURE, SIGNATURE};
    let network = shuai_eval::nnue::shared_default_network();
    let with_network = run(DEFAULT_DEPTH, 1, Some(network), |_, _, _| {});
    assert_eq!(with_network.nodes, SIGNATURE);
    let hand_written = run(DEFAULT_DEPTH, 1, None, |_, _, _| {});
    assert_eq!(hand_written.nodes, HCE_SIGNATURE);
}

#[test]
fn node_limit_is_respected_closely() {
    let r = search(shuai_board::START_FEN, "", Limits::nodes(20_000));
    assert!(r.best_move.is_some());
    assert!(r.nodes >= 20_000 && r.nodes < 20_000 + 2048, "{}", r.nodes);
    // A small limit is checked more often, so it is kept as closely (the
    // weak playing levels search 64 nodes and up); the first iteration
    // always completes, so a move is still found.
    for limit in [64, 300] {
        let r = search(shuai_board::START_FEN, "", Limits::nodes(limit));
        assert!(r.best_move.is_some());
        assert!(
            r.nodes >= limit && r.nodes < limit + limit / 4,
            "{limit}: {}",
            r.nodes
        );
    }
}

#[test]
fn banned_and_restricted_root_moves() {
    let pos = Position::startpos();
    let h2e2 = pos.parse_move("h2e2").unwrap();
    let b2e2 = pos.parse_move("b2e2").unwrap();
    let limits = Limits {
        search_moves: vec![h2e2, b2e2],
        banned_moves: vec![h2e2],
        ..Limits::depth(3)
    };
    let r = Searcher::new(1).search(&pos, &limits, &Control::new(), &|_| {});
    assert_eq!(r.best_move, Some(b2e2));
}

/// A stop is seen within one check interval (1024 nodes) of being given,
/// however fast or loaded the machine: stopped by the reporter as the
/// sixth iteration ends, an infinite search returns that iteration's
/// result having searched at most 1024 nodes more.
#[test]
fn stops_within_a_check_interval_of_the_request() {
    let pos = Position::startpos();
    let control = Control::new();
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let nodes_at_stop = Mutex::new(0);
    let r = Searcher::new(16).search(&pos, &limits, &control, &|e| {
        if let Event::Iteration(info) = e {
            if info.depth == 6 {
                *nodes_at_stop.lock().unwrap() = info.nodes;
                control.stop();
            }
        }
    });
    let at_stop = *nodes_at_stop.lock().unwrap();
    assert!(at_stop > 1000, "{at_stop}");
    assert!(
        (at_stop..=at_stop + 1024).contains(&r.nodes),
        "stopped at {at_stop} nodes, returned at {}",
        r.nodes
    );
    assert_eq!(r.depth, 6);
    assert!(r.best_move.is_some());
}

/// A stop from another thread (the protocol's reader) ends an infinite
/// search: the searcher returns its move instead of waiting for ever.
#[test]
fn a_stop_from_another_thread_ends_an_infinite_search() {
    let pos = Position::startpos();
    let control = Control::new();
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let reached = (Mutex::new(0u32), std::sync::Condvar::new());
    let mut searcher = Searcher::new(16);
    std::thread::scope(|s| {
        s.spawn(|| {
            // Wait for the fourth iteration, then stop.
            let (depth, cv) = &reached;
            let _deep = cv.wait_while(depth.lock().unwrap(), |d| *d < 4).unwrap();
            control.stop();
        });
        let r = searcher.search(&pos, &limits, &control, &|e| {
            if let Event::Iteration(info) = e {
                let (depth, cv) = &reached;
                *depth.lock().unwrap() = info.depth;
                cv.notify_all();
            }
        });
        assert!(r.best_move.is_some());
        assert!(r.depth >= 4, "{}", r.depth);
    });
}

#[test]
fn reports_iterations_with_growing_depth() {
    let depths = Mutex::new(Vec::new());
    let pos = Position::startpos();
    Searcher::new(16).search(&pos, &Limits::depth(5), &Control::new(), &|e| {
        if let Event::Iteration(info) = e {
            depths.lock().unwrap().push(info.depth);
            assert!(!info.pv.is_empty());
        }
    });
    assert_eq!(*depths.lock().unwrap(), vec![1, 2, 3, 4, 5]);
}

#[test]
fn multipv_reports_distinct_lines() {
    let lines = Mutex::new(Vec::new());
    let pos = Position::startpos();
    let limits = Limits {
        multipv: 3,
        ..Limits::depth(3)
    };
    Searcher::new(16).search(&pos, &limits, &Control::new(), &|e| {
        if let Event::Iteration(info) = e {
            if info.depth == 3 {
                lines
                    .lock()
                    .unwrap()
                    .push((info.multipv, info.pv[0], info.score));
            }
        }
    });
    let lines = lines.into_inner().unwrap();
    assert_eq!(lines.iter().map(|l| l.0).collect::<Vec<_>>(), vec![1, 2, 3]);
    assert!(lines[0].1 != lines[1].1 && lines[1].1 != lines[2].1 && lines[0].1 != lines[2].1);
    assert!(lines[0].2 >= lines[1].2 && lines[1].2 >= lines[2].2);
}

#[test]
fn two_threads_find_the_same_mate() {
    let pos = Position::from_fen("4k4/R8/9/9/9/9/9/9/9/1R1K5 w").unwrap();
    let mut s = Searcher::new(16);
    s.set_threads(2);
    let r = s.search(&pos, &Limits::depth(5), &Control::new(), &|_| {});
    assert_eq!(r.best_move.map(|m| m.to_string()).as_deref(), Some("b0b9"));
}

#[test]
fn helper_threads_serve_search_after_search_and_follow_the_thread_count() {
    let pos = Position::from_fen("4k4/R8/9/9/9/9/9/9/9/1R1K5 w").unwrap();
    let mut s = Searcher::new(16);
    for threads in [3, 3, 2, 1, 2] {
        s.set_threads(threads);
        assert_eq!(s.threads(), threads);
        let r = s.search(&pos, &Limits::depth(6), &Control::new(), &|_| {});
        assert_eq!(r.best_move.map(|m| m.to_string()).as_deref(), Some("b0b9"));
        assert!(r.depth >= 6, "{threads} threads: depth {}", r.depth);
    }
}

/// With several threads the move played may be a helper's (the threads
/// vote): whichever it is, the last line reported shows it, with the
/// result's score and line.
#[test]
fn the_last_line_reported_is_the_move_played() {
    let mut s = Searcher::new(16);
    s.set_threads(2);
    for fen in &shuai_search::bench::POSITIONS[..8] {
        let pos = Position::from_fen(fen).unwrap();
        let last = Mutex::new(None);
        let r = s.search(&pos, &Limits::nodes(60_000), &Control::new(), &|e| {
            if let Event::Iteration(info) = e {
                *last.lock().unwrap() = Some(info.clone());
            }
        });
        let last = last.into_inner().unwrap().expect("at least one iteration");
        assert_eq!(last.pv.first().copied(), r.best_move, "{fen}");
        assert_eq!(last.pv, r.pv, "{fen}");
        assert_eq!(last.score, r.score, "{fen}");
    }
}

/// Mating attacks ElephantEye announced against Shuai in a 10s+0.1s match
/// (game index, FEN, plies to mate). Reverse futility pruning, a heavy
/// null-move reduction and SEE pruning of checking captures hid every one
/// of them from a depth-10 search; each is now found by depth 8.
const MATES_FROM_MATCH: [(&str, &str, usize); 6] = [
    (
        "game 6",
        "3aka3/9/9/9/9/P1P3P2/9/1R1nBr3/3p5/3AK1B2 b - - 1 53",
        7,
    ),
    (
        "game 8",
        "3aka3/9/8R/4c4/4n4/5p3/P1c5P/2Nr4C/4N4/3AKAB2 b - - 2 27",
        7,
    ),
    (
        "game 36",
        "2bak4/4a4/n8/2p6/9/2C6/P1P1r1P1P/3K4N/5r3/R1B3B2 b - - 1 22",
        5,
    ),
    (
        "game 79",
        "2baka3/4n4/4b3r/p1R5p/6N2/4C4/c3P1P1P/9/4A4/c2K1ABN1 w - - 0 20",
        5,
    ),
    (
        "game 157",
        "3aka3/4n4/4b4/3R5/2b5r/p5B2/9/B3C4/4A4/4K4 w - - 3 46",
        7,
    ),
    (
        "game 175",
        "2bakn3/4a4/4b2R1/p5p1p/4C4/9/9/9/5K3/2B2NB1c w - - 3 43",
        5,
    ),
];

#[test]
fn finds_mating_attacks_the_old_pruning_hid() {
    for (game, fen, plies) in MATES_FROM_MATCH {
        let r = search(fen, "", Limits::depth(8));
        assert_eq!(r.score, mate_in(plies), "{game}: {fen}");
    }
}

/// When the search stops in the middle of an iteration, a root move that
/// has already beaten the first one with a full-window search is played
/// (and its score reported), not the first move. The cases are pinned to
/// today's search tree (hand-written evaluation, one thread): a change of
/// the bench signature may move them. To find new ones, print the best
/// move for node limits of 1..60 K on the bench positions with and without
/// the fix (the rotation at the `stopped` exit of `root_search`) and take
/// limits where the two differ (with moves of equal order score handed
/// out in generation order, over 1–60 K on the start position and the
/// position below: the start position at 17–23 K and the other at
/// 29–31 K).
#[test]
fn interrupted_iteration_keeps_a_better_move() {
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let fen = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";
    let cases = [
        // (position, nodes in K, last completed depth, move, score): depth 7
        // ends on d2f2 (-202); at depth 8 f3d3 beats it with -134 before
        // the stop (without the fix, d2f2 -202 is played at 29–31 K).
        (fen, 29, 7, "f3d3", -134),
        (fen, 30, 7, "f3d3", -134),
        (fen, 31, 7, "f3d3", -134),
        // Depth 6 ends on b0c2 (28); at depth 7 b2g2 beats it with 25.
        (start, 17, 6, "b2g2", 25),
        (start, 23, 6, "b2g2", 25),
    ];
    for (fen, k, depth, best, score) in cases {
        let pos = Position::from_fen(fen).unwrap();
        let r = Searcher::new(4).search(&pos, &Limits::nodes(k * 1024), &Control::new(), &|_| {});
        let got = (r.depth, r.best_move.map(|m| m.to_string()), r.score);
        assert_eq!(
            got,
            (depth, Some(best.to_string()), score),
            "{fen} at {k} K nodes"
        );
        assert_eq!(r.pv.first().copied(), r.best_move, "{fen}");
    }
}

/// Absurd evaluation weights (a rook worth a million) cannot produce a
/// score the search reads as a mate or a repetition verdict.
#[test]
fn huge_weights_cannot_produce_a_mate_score() {
    use shuai_eval::Weights;
    use shuai_search::score::{is_mate, is_rule_score, EVAL_LIMIT};
    let names = Weights::names();
    let mut params = Weights::DEFAULT.to_vec();
    for (i, name) in names.iter().enumerate() {
        if name.starts_with("material.rook") {
            params[i] = 1_000_000;
        }
    }
    let weights = std::sync::Arc::new(Weights::from_vec(&params).unwrap());
    // Red has an extra rook: the evaluation is far beyond any real score.
    let pos =
        Position::from_fen("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")
            .unwrap();
    let mut s = Searcher::new(4);
    s.set_weights(weights);
    let r = s.search(&pos, &Limits::depth(4), &Control::new(), &|_| {});
    assert!(!is_mate(r.score) && !is_rule_score(r.score), "{}", r.score);
    assert!(r.score > 5000 && r.score <= EVAL_LIMIT, "{}", r.score);
}

/// A long search keeps reporting its counters between iterations: no
/// status before `STATUS_AFTER_MS`, then one at least every
/// `STATUS_EVERY_MS` apart, their nodes growing; a short search sends
/// none. (Stopped by the reporter at the second status: about four
/// seconds.)
#[test]
fn long_searches_report_their_counters_between_iterations() {
    let pos = Position::startpos();
    let control = Control::new();
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let statuses = Mutex::new(Vec::new());
    let mut searcher = Searcher::new(16);
    let r = searcher.search(&pos, &limits, &control, &|e| {
        if let Event::Status(s) = e {
            let mut seen = statuses.lock().unwrap();
            seen.push(s.clone());
            if seen.len() == 2 {
                control.stop();
            }
        }
    });
    assert!(r.best_move.is_some());
    let seen = statuses.into_inner().unwrap();
    assert_eq!(seen.len(), 2, "{seen:?}");
    let ms = |s: &Status| s.time.as_millis() as u64;
    assert!(ms(&seen[0]) >= STATUS_AFTER_MS, "{seen:?}");
    assert!(ms(&seen[1]) >= ms(&seen[0]) + STATUS_EVERY_MS, "{seen:?}");
    assert!(seen[1].nodes > seen[0].nodes && seen[0].nodes > 0);
    assert!(seen.iter().all(|s| s.nps > 0 && s.tbhits.is_none()));

    let short = Mutex::new(0);
    searcher.search(&pos, &Limits::depth(4), &Control::new(), &|e| {
        if matches!(e, Event::Status(_)) {
            *short.lock().unwrap() += 1;
        }
    });
    assert_eq!(short.into_inner().unwrap(), 0);
}
