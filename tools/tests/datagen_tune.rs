//! `shuai-tools datagen` and `shuai-tools tune`: well-formed data,
//! determinism, K fitting and a falling error.

use shuai_board::Position;
use shuai_board::Rng;
use shuai_eval::{features, Weights};
use shuai_tools::datagen::{self, parse_line, DatagenConfig};
use shuai_tools::openings::{self, DEFAULT_BOOK};
use shuai_tools::tune::{self, eval_red_exact, fit_k, sigmoid, Sample, TuneConfig};

fn tiny(games: usize, threads: usize) -> DatagenConfig {
    DatagenConfig {
        games,
        nodes: 300,
        threads,
        seed: 11,
        hash_mb: 1,
        random_plies: 4,
        max_plies: 80,
        natural_limit: 120,
        book: openings::parse_text(DEFAULT_BOOK).unwrap(),
        weights: std::sync::Arc::new(shuai_eval::Weights::DEFAULT),
        network: None,
        rules: shuai_board::rules::RuleBook::Chinese,
    }
}

#[test]
fn datagen_writes_well_formed_lines() {
    let records = datagen::run(&tiny(2, 2), &|_, _| {});
    assert_eq!(records.len(), 2);
    let mut lines = 0;
    for g in &records {
        assert!(g.plies <= 80);
        assert_eq!(g.lines().len(), g.positions.len());
        for (line, kept) in g.lines().iter().zip(&g.positions) {
            let d = parse_line(line).unwrap_or_else(|e| panic!("{e}"));
            assert!(
                d.result == 0.0 || d.result == 0.5 || d.result == 1.0,
                "{line}"
            );
            assert_eq!(d.result, g.result);
            assert!(!d.pos.in_check(), "{line}");
            assert_eq!(d.pos.to_fen(), kept.fen);
            assert_eq!(line.split(';').next(), Some(kept.fen.as_str()));
            assert_eq!(d.red_score, Some(kept.red_score));
            assert!(kept.red_score.abs() < datagen::MATE_BOUND, "{line}");
            lines += 1;
        }
    }
    assert!(lines > 0);
}

#[test]
fn datagen_is_deterministic_whatever_the_threads() {
    let a = datagen::run(&tiny(3, 1), &|_, _| {});
    let b = datagen::run(&tiny(3, 3), &|_, _| {});
    assert_eq!(a, b);
}

#[test]
fn datagen_plays_with_the_weights_it_is_given() {
    let built_in = datagen::run(&tiny(2, 2), &|_, _| {});
    let hand_set = Weights::from_table(include_str!("../../eval/tables/hand-set.txt")).unwrap();
    let cfg = DatagenConfig {
        weights: std::sync::Arc::new(hand_set),
        ..tiny(2, 2)
    };
    let other = datagen::run(&cfg, &|_, _| {});
    // Same openings, other evaluation: the games (or at least the scores
    // written with the positions) differ.
    assert_ne!(built_in, other);
    assert_eq!(other, datagen::run(&cfg, &|_, _| {}));
}

#[test]
fn parse_line_rejects_bad_input() {
    assert!(parse_line("no separator").is_err());
    assert!(parse_line(&format!("{};2.0", shuai_board::START_FEN)).is_err());
    assert!(parse_line("not a fen;0.5").is_err());
    assert!(parse_line(&format!("{};0.5;12x", shuai_board::START_FEN)).is_err());
    assert!(parse_line(&format!("{};0.5;12;3", shuai_board::START_FEN)).is_err());
    let d = parse_line(&format!("{};[0.5]", shuai_board::START_FEN)).unwrap();
    assert_eq!((d.result, d.red_score), (0.5, None));
    let d = parse_line(&format!("{};1.0;-37", shuai_board::START_FEN)).unwrap();
    assert_eq!((d.result, d.red_score), (1.0, Some(-37)));
}

#[test]
fn the_search_score_is_from_reds_point_of_view() {
    // Black to move with two rooks against none: Black's search scores it
    // far ahead, so Red's view is far behind.
    let pos = Position::from_fen("r2akab1r/9/9/p1p1p1p1p/9/9/P1P1P1P1P/9/9/2BAKAB2 b").unwrap();
    let mut cfg = tiny(1, 1);
    cfg.book = vec![openings::parse_line(&pos.to_fen(), 1).unwrap()];
    cfg.random_plies = 0;
    cfg.max_plies = 1;
    let g = datagen::play_game(&cfg, 0);
    assert_eq!(g.positions.len(), 1, "the first position is quiet");
    assert!(g.positions[0].red_score < -500, "{:?}", g.positions[0]);
}

#[test]
fn blending_mixes_result_and_score() {
    let f = features(&Position::startpos());
    let mut samples = vec![
        Sample {
            features: f.clone(),
            result: 1.0,
            red_score: Some(0.0),
        },
        Sample {
            features: f,
            result: 0.0,
            red_score: None,
        },
    ];
    tune::blend_targets(&mut samples, 1.0, 0.25);
    // σ(0) = 0.5: 0.75 · 1 + 0.25 · 0.5.
    assert!((samples[0].result - 0.875).abs() < 1e-12);
    // Without a score the result stays.
    assert_eq!(samples[1].result, 0.0);
}

/// Positions from the book with random plies, seeded.
fn positions(n: usize, seed: u64) -> Vec<Position> {
    let book = openings::parse_text(DEFAULT_BOOK).unwrap();
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = book[rng.below(book.len() as u64) as usize].position();
        for _ in 0..rng.below(40) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves.as_slice()[rng.below(moves.len() as u64) as usize]);
        }
        if pos.has_legal_move() {
            out.push(pos);
        }
    }
    out
}

/// Synthetic data: results drawn from a "true" evaluation that values the
/// pieces differently from the defaults.
fn synthetic(n: usize) -> Vec<Sample> {
    let mut truth = Weights::DEFAULT;
    for m in truth.material.iter_mut() {
        m.mg = m.mg * 3 / 2;
        m.eg = m.eg * 3 / 2;
    }
    let truth = truth.to_vec();
    let mut rng = Rng::new(5);
    positions(n, 3)
        .iter()
        .map(|p| {
            let f = features(p);
            let prob = sigmoid(1.0, eval_red_exact(&f, &truth));
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            let result = if u < prob * 0.8 {
                1.0
            } else if u < prob * 0.8 + 0.2 {
                0.5
            } else {
                0.0
            };
            Sample {
                features: f,
                result,
                red_score: None,
            }
        })
        .collect()
}

#[test]
fn fit_k_recovers_the_constant() {
    let defaults = Weights::DEFAULT.to_vec();
    for k0 in [0.5, 1.3] {
        let samples: Vec<Sample> = positions(200, 9)
            .iter()
            .map(|p| {
                let f = features(p);
                let result = sigmoid(k0, eval_red_exact(&f, &defaults));
                Sample {
                    features: f,
                    result,
                    red_score: None,
                }
            })
            .collect();
        let k = fit_k(&samples, &defaults);
        assert!((k - k0).abs() < 1e-3, "fitted {k}, expected {k0}");
        assert!(tune::mse_exact(&samples, &defaults, k) < 1e-9);
    }
}

#[test]
fn tuning_lowers_the_error_and_is_reproducible() {
    let samples = synthetic(400);
    let cfg = TuneConfig {
        epochs: 8,
        lr: 0.5,
        batch: 0,
        k: Some(1.0),
        ..TuneConfig::default()
    };
    let start = Weights::DEFAULT.to_vec();
    let mut seen = Vec::new();
    let r = tune::tune(&samples, &start, &cfg, &mut |e, mse| seen.push((e, mse)));
    assert_eq!(seen.len(), 8);
    assert_eq!(seen.iter().map(|x| x.1).collect::<Vec<_>>(), r.epoch_mse);
    let mut prev = r.start_mse;
    for &m in &r.epoch_mse {
        assert!(
            m < prev,
            "error rose: {:?} from {}",
            r.epoch_mse,
            r.start_mse
        );
        prev = m;
    }
    assert!(r.final_mse < r.start_mse);
    assert!(r.active > 0 && r.active < start.len());

    let again = tune::tune(&samples, &start, &cfg, &mut |_, _| {});
    assert_eq!(r, again);

    // Mini-batches in seeded order are reproducible too.
    let mb = TuneConfig {
        batch: 64,
        k: None,
        ..cfg.clone()
    };
    let a = tune::tune(&samples, &start, &mb, &mut |_, _| {});
    let b = tune::tune(&samples, &start, &mb, &mut |_, _| {});
    assert_eq!(a, b);
}
