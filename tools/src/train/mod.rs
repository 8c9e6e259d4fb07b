//! `shuai-tools train`: fits the engine's network to self-play positions
//! on the CPU.
//!
//! - [`model`]: the float network, its forward pass and gradients (with a
//!   finite-difference check).
//! - [`adamw`]: the optimiser and the learning-rate schedule.
//! - [`checkpoint`]: saving and resuming a run.
//!
//! Each position's target is the side to move's expected points,
//! `λ · sigmoid(score / SCALE) + (1 − λ) · result`: the game result is one
//! noisy bit per game, the search score a position-specific signal (the
//! evaluation tuner found a blend best, `tools/README.md`). The loss is the
//! squared error of `sigmoid(o)`.
//!
//! A batch is cut into one fixed chunk per thread; each thread sums its
//! chunk's gradients into its own buffer (touching only the feature rows
//! its positions use), and the optimiser adds the buffers in thread order.
//! The data order of epoch `e` depends only on the seed and `e`. So a run
//! is deterministic for a given seed and thread count, and a resumed run
//! continues exactly where the interrupted one stopped.
//!
//! With king buckets (`TrainConfig::king`), a sample's features come
//! from the engine's [`KingBuckets::view`] and [`View::index`]
//! (shuai_eval::nnue::View), so trainer and engine share one definition;
//! see [`model`] for the factoriser.

pub mod adamw;
pub mod checkpoint;
pub mod model;

use crate::data::PackedPosition;
use adamw::{cosine_lr, AdamW};
use checkpoint::Checkpoint;
use model::{sigmoid, Gradients, Model, Sample, FEATURE_CLIP, MAX_ACTIVE};
use rayon::prelude::*;
use shuai_board::Rng;
use shuai_board::{Color, File, Piece, PieceKind, Rank, Square};
use shuai_eval::nnue::{KingBuckets, Network, NetworkParts, INPUTS, OUTPUT_SCALE, QB, QFT, SCALE};
use std::path::PathBuf;
use std::time::Instant;

/// How a network is trained.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Passes over the training data.
    pub epochs: u32,
    /// Positions per optimiser step.
    pub batch: usize,
    /// Learning rate at the start; it falls along a cosine to `lr_end`.
    pub lr: f32,
    /// Learning rate at the end.
    pub lr_end: f32,
    /// AdamW's decoupled weight decay.
    pub weight_decay: f32,
    /// Weight of the search score in the target (0: results only).
    pub lambda: f32,
    /// Worker threads.
    pub threads: usize,
    /// Seed of the initial weights and the data order.
    pub seed: u64,
    /// Use each position mirrored left to right half of the time (Xiangqi
    /// is symmetric, so this doubles the data the network sees).
    pub mirror: bool,
    /// Accumulator size; must be the engine's [`shuai_eval::nnue::HIDDEN`]
    /// for the network to be written.
    pub hidden: usize,
    /// Output buckets by material (1 to
    /// [`shuai_eval::nnue::MAX_OUTPUT_BUCKETS`]; 1 is the network without
    /// buckets).
    pub buckets: usize,
    /// King buckets ([`KingBuckets::NONE`]: the features without them).
    pub king: KingBuckets,
    /// With king buckets, train a factoriser: shared feature rows added to
    /// every bucket's, folded into them when the network is written.
    pub factoriser: bool,
    /// Where checkpoints, networks and the log go.
    pub out_dir: PathBuf,
    /// How the run was started, for the networks' descriptions.
    pub command: String,
}

/// What one epoch did.
#[derive(Clone, Debug)]
pub struct EpochReport {
    /// 1-based epoch number.
    pub epoch: u32,
    /// Learning rate at the epoch's end.
    pub lr: f32,
    /// Mean training loss over the epoch.
    pub train_loss: f64,
    /// Mean loss of the float network on the validation set.
    pub valid_loss: f64,
    /// The quantised network against the float one on the validation set.
    pub quantised: Option<QuantisationReport>,
    /// Seconds the epoch took.
    pub seconds: f64,
    /// Training positions per second.
    pub positions_per_second: f64,
}

/// How far the engine's integer network is from the float one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QuantisationReport {
    /// Positions compared.
    pub positions: usize,
    /// Mean |float − integer| evaluation, centipawns.
    pub mean_abs_cp: f64,
    /// Largest |float − integer| evaluation, centipawns.
    pub max_abs_cp: f64,
    /// Validation loss of the integer network's evaluations.
    pub loss: f64,
}

impl EpochReport {
    /// One line for the log.
    pub fn line(&self) -> String {
        let q = match &self.quantised {
            Some(q) => format!(
                " | quantised loss {:.6}, |float-int| mean {:.2} cp max {:.1} cp",
                q.loss, q.mean_abs_cp, q.max_abs_cp
            ),
            None => String::new(),
        };
        format!(
            "epoch {:3} | lr {:.2e} | train {:.6} | valid {:.6}{q} | {:.1} s, {:.0} pos/s",
            self.epoch,
            self.lr,
            self.train_loss,
            self.valid_loss,
            self.seconds,
            self.positions_per_second
        )
    }
}

/// The side to move's expected points in `0..=1`, blended from the
/// search score and the game result by `lambda`.
pub fn target(p: &PackedPosition, lambda: f32) -> f32 {
    let red = p.side_to_move() == Color::Red;
    let points = p.outcome().red_points();
    let result = if red { points } else { 1.0 - points };
    let score = f32::from(p.red_score()) * if red { 1.0 } else { -1.0 };
    lambda * sigmoid(score / SCALE as f32) + (1.0 - lambda) * result
}

/// The training sample of a record, mirrored left to right if asked, with
/// the features of king-bucket layout `king` (the engine's
/// [`KingBuckets::view`] of each side's king, after the mirroring).
pub fn sample(p: &PackedPosition, lambda: f32, mirror: bool, king: &KingBuckets) -> Sample {
    let stm = p.side_to_move();
    let mut s = Sample {
        us: [0; MAX_ACTIVE],
        them: [0; MAX_ACTIVE],
        len: 0,
        pieces: 0,
        target: target(p, lambda),
    };
    let a0 = Square::new(File::ALL[0], Rank::ALL[0]);
    let mut pieces = [(Piece::new(Color::Red, PieceKind::King), a0); MAX_ACTIVE];
    // Where a record without a king (`pack` refuses one) would have it.
    let mut kings = [
        Square::new(File::ALL[4], Rank::ALL[0]),
        Square::new(File::ALL[4], Rank::ALL[9]),
    ];
    p.for_each_piece(|piece, sq| {
        // Records never hold more than MAX_ACTIVE pieces (`pack` refuses).
        if s.len < MAX_ACTIVE {
            // The engine counts the occupied points less the two kings.
            s.pieces += u8::from(piece.kind() != PieceKind::King);
            let sq = if mirror { sq.mirror() } else { sq };
            if piece.kind() == PieceKind::King {
                kings[piece.color().index()] = sq;
            }
            pieces[s.len] = (piece, sq);
            s.len += 1;
        }
    });
    let us = king.view(stm, kings[stm.index()]);
    let them = king.view(stm.opponent(), kings[stm.opponent().index()]);
    for (i, &(piece, sq)) in pieces[..s.len].iter().enumerate() {
        s.us[i] = us.index(piece, sq) as u16;
        s.them[i] = them.index(piece, sq) as u16;
    }
    s
}

/// Whether position `index` is mirrored in `epoch`: a hash of the three,
/// so the choice is fixed by the seed.
fn mirrored(seed: u64, epoch: u32, index: usize) -> bool {
    let mut r = Rng::new(seed ^ (u64::from(epoch) << 40) ^ index as u64 ^ 0x6d69_7272_6f72);
    r.next_u64() & 1 == 1
}

/// The data order of `epoch`.
fn order(n: usize, seed: u64, epoch: u32) -> Vec<u32> {
    let mut idx: Vec<u32> = (0..n as u32).collect();
    Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(epoch)).shuffle(&mut idx);
    idx
}

/// The mean loss of `model` on `records` (not mirrored), summed in fixed
/// chunks so the result does not depend on the thread count.
pub fn mean_loss(model: &Model, records: &[PackedPosition], lambda: f32) -> f64 {
    if records.is_empty() {
        return 0.0;
    }
    // Folded once: the same outputs as the factorised model, at half the
    // cost per sample.
    let unfactorised = model.unfactorised();
    let model: &Model = &unfactorised;
    let sums: Vec<f64> = records
        .par_chunks(4096)
        .map(|chunk| {
            chunk
                .iter()
                .map(|p| {
                    let s = sample(p, lambda, false, &model.king);
                    let e = f64::from(sigmoid(model.output(&s)) - s.target);
                    e * e
                })
                .sum()
        })
        .collect();
    sums.iter().sum::<f64>() / records.len() as f64
}

/// The mean loss of the hand-written evaluation on `records`, read as a
/// prediction `sigmoid(eval / SCALE)`: the yardstick a network must beat.
pub fn hand_written_loss(records: &[PackedPosition], lambda: f32) -> Result<f64, String> {
    if records.is_empty() {
        return Ok(0.0);
    }
    let errors: Vec<f64> = records
        .par_iter()
        .map(|p| {
            let pos = p.to_position()?;
            let e = sigmoid(shuai_eval::evaluate(&pos) as f32 / SCALE as f32) - target(p, lambda);
            Ok(f64::from(e * e))
        })
        .collect::<Result<_, String>>()?;
    Ok(errors.iter().sum::<f64>() / records.len() as f64)
}

/// The engine's integer network for `model`: weights rounded to the
/// scales [`QFT`] and [`QB`] (the output biases to `OUTPUT_SCALE`; the
/// float weights are clipped so they fit), a factoriser folded into the
/// king buckets' rows first.
pub fn quantise(model: &Model, description: &str) -> Result<Network, String> {
    let unfactorised = model.unfactorised();
    let model: &Model = &unfactorised;
    let q16 = |xs: &[f32], scale: i32| -> Vec<i16> {
        xs.iter()
            .map(|x| {
                (x * scale as f32)
                    .round()
                    .clamp(i16::MIN as f32, i16::MAX as f32) as i16
            })
            .collect()
    };
    // The feature clip is what keeps the engine's i16 accumulators from
    // overflowing: apply it here too, whatever a checkpoint holds.
    let ft = |xs: &[f32]| -> Vec<f32> {
        xs.iter()
            .map(|x| x.clamp(-FEATURE_CLIP, FEATURE_CLIP))
            .collect()
    };
    Network::from_parts_with_king_buckets(
        model.king,
        q16(&ft(&model.ft_weights), QFT),
        q16(&ft(&model.ft_bias), QFT),
        q16(&model.out_weights, QB),
        model
            .out_bias
            .iter()
            .map(|&b| {
                (f64::from(b) * OUTPUT_SCALE as f64)
                    .round()
                    .clamp(i32::MIN as f64, i32::MAX as f64) as i32
            })
            .collect(),
        description,
    )
    .map_err(|e| e.to_string())
}

/// The float model an integer network stands for (each parameter divided
/// by the scale [`quantise`] multiplied it by), to continue training from
/// a network instead of random weights. With `king` buckets where `net`
/// has none, every bucket starts as `net`'s one set of rows: in the
/// factoriser's shared rows when `factoriser` is set (the bucket rows
/// zero, so the buckets learn only how they differ), else copied into
/// each bucket. Any other change of layout is refused. The model has
/// the network's hidden size, whatever the engine's ([`Model::widened`]
/// grows it).
pub fn dequantise(p: &NetworkParts, king: KingBuckets, factoriser: bool) -> Result<Model, String> {
    let hidden = p.hidden;
    let buckets = p.out_bias.len();
    let ft: Vec<f32> = p
        .ft_weights
        .iter()
        .map(|&w| f32::from(w) / QFT as f32)
        .collect();
    let factoriser = factoriser && !king.is_none();
    let (ft_weights, ft_factor) = if p.king == king {
        // Same layout: the rows as they are, a factoriser (if any) zero.
        let factor = if factoriser {
            vec![0.0; INPUTS * hidden]
        } else {
            Vec::new()
        };
        (ft, factor)
    } else if p.king.is_none() {
        if factoriser {
            (vec![0.0; king.inputs() * hidden], ft)
        } else {
            (ft.repeat(king.count()), Vec::new())
        }
    } else {
        return Err(format!(
            "cannot start {} from a network with {}",
            king.name(),
            p.king.name()
        ));
    };
    Ok(Model {
        hidden,
        buckets,
        king,
        ft_weights,
        ft_factor,
        ft_bias: p
            .ft_bias
            .iter()
            .map(|&b| f32::from(b) / QFT as f32)
            .collect(),
        out_weights: p
            .out_weights
            .iter()
            .map(|&w| f32::from(w) / QB as f32)
            .collect(),
        out_bias: p
            .out_bias
            .iter()
            .map(|&b| (f64::from(b) / OUTPUT_SCALE as f64) as f32)
            .collect(),
    })
}

/// Compares the integer network with the float model on up to `limit`
/// records.
pub fn compare(
    model: &Model,
    net: &Network,
    records: &[PackedPosition],
    lambda: f32,
) -> Result<QuantisationReport, String> {
    let unfactorised = model.unfactorised();
    let model: &Model = &unfactorised;
    let rows: Vec<(f64, f64)> = records
        .par_iter()
        .map(|p| {
            let s = sample(p, lambda, false, &model.king);
            let float_cp = f64::from(model.output(&s)) * f64::from(SCALE);
            let pos = p.to_position()?;
            let int_cp = f64::from(net.evaluate(&pos));
            let e = 1.0 / (1.0 + (-int_cp / f64::from(SCALE)).exp()) - f64::from(s.target);
            Ok(((float_cp - int_cp).abs(), e * e))
        })
        .collect::<Result<_, String>>()?;
    let n = rows.len().max(1) as f64;
    Ok(QuantisationReport {
        positions: rows.len(),
        mean_abs_cp: rows.iter().map(|r| r.0).sum::<f64>() / n,
        max_abs_cp: rows.iter().map(|r| r.0).fold(0.0, f64::max),
        loss: rows.iter().map(|r| r.1).sum::<f64>() / n,
    })
}

/// The state a run starts from: a checkpoint to resume, else a fresh
/// model, random or (with `init`) the float form of a network
/// ([`dequantise`]), widened to `cfg.hidden` when the network is
/// narrower ([`Model::widened`], seeded by `cfg.seed`) and split into
/// `cfg.buckets` output rows when it has one ([`Model::split_output`]).
pub fn start(
    cfg: &TrainConfig,
    resume: Option<Checkpoint>,
    init: Option<&NetworkParts>,
) -> Result<Checkpoint, String> {
    match resume {
        Some(c) if c.model.hidden != cfg.hidden => Err(format!(
            "checkpoint has hidden size {}, the run asks for {}",
            c.model.hidden, cfg.hidden
        )),
        Some(c) if c.model.buckets != cfg.buckets => Err(format!(
            "checkpoint has {} output buckets, the run asks for {}",
            c.model.buckets, cfg.buckets
        )),
        Some(c) if c.model.king != cfg.king => Err(format!(
            "checkpoint has {}, the run asks for {}",
            c.model.king.name(),
            cfg.king.name()
        )),
        Some(c) if c.model.factorised() != (cfg.factoriser && !cfg.king.is_none()) => Err(format!(
            "checkpoint {} a factoriser, the run asks for {}",
            if c.model.factorised() {
                "has"
            } else {
                "has no"
            },
            if cfg.factoriser { "one" } else { "none" }
        )),
        Some(c) => Ok(c),
        None => {
            let model = match init {
                Some(net) => {
                    let mut model = dequantise(net, cfg.king, cfg.factoriser)?;
                    if model.hidden < cfg.hidden {
                        model = model.widened(cfg.hidden, cfg.seed)?;
                    }
                    if model.buckets == 1 && cfg.buckets > 1 {
                        model = model.split_output(cfg.buckets)?;
                    }
                    if model.hidden != cfg.hidden || model.buckets != cfg.buckets {
                        return Err(format!(
                            "the starting network has hidden size {} and {} output buckets, \
                             the run asks for {} and {}",
                            model.hidden, model.buckets, cfg.hidden, cfg.buckets
                        ));
                    }
                    model
                }
                None => Model::with_king_buckets(
                    cfg.hidden,
                    cfg.buckets,
                    cfg.king,
                    cfg.factoriser,
                    cfg.seed,
                ),
            };
            Ok(Checkpoint {
                optimiser: AdamW::new(&model),
                model,
                epochs_done: 0,
            })
        }
    }
}

/// Runs epochs from `state` up to `cfg.epochs`, calling `after_epoch`
/// with the report and the state after each (to save it); the final
/// state comes back.
pub fn train(
    cfg: &TrainConfig,
    mut state: Checkpoint,
    train_set: &[PackedPosition],
    valid_set: &[PackedPosition],
    after_epoch: &mut (dyn FnMut(&EpochReport, &Checkpoint) -> Result<(), String> + Send),
) -> Result<Checkpoint, String> {
    if train_set.is_empty() {
        return Err("no training positions".into());
    }
    let threads = cfg.threads.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    let batch = cfg.batch.clamp(1, train_set.len());
    let batches_per_epoch = train_set.len().div_ceil(batch);
    let total_batches = (batches_per_epoch * cfg.epochs as usize).max(1);
    let mut grads: Vec<Gradients> = (0..threads)
        .map(|_| Gradients::for_model(&state.model))
        .collect();
    // The factorised model folded, refolded after every step: the forward
    // and backward passes run on it (see `model`).
    let mut folded = state.model.factorised().then(|| state.model.folded());
    let mut lr = cfg.lr;
    while state.epochs_done < cfg.epochs {
        let epoch = state.epochs_done + 1;
        let started = Instant::now();
        let idx = order(train_set.len(), cfg.seed, epoch);
        let mut loss = 0.0;
        for (b, ids) in idx.chunks(batch).enumerate() {
            let done = (epoch as usize - 1) * batches_per_epoch + b;
            lr = cosine_lr(cfg.lr, cfg.lr_end, done as f64 / total_batches as f64);
            let per = ids.len().div_ceil(threads);
            pool.install(|| {
                let model = folded.as_ref().unwrap_or(&state.model);
                grads
                    .par_iter_mut()
                    .zip(ids.par_chunks(per))
                    .for_each(|(g, chunk)| {
                        g.clear();
                        let samples: Vec<Sample> = chunk
                            .iter()
                            .map(|&i| {
                                let i = i as usize;
                                sample(
                                    &train_set[i],
                                    cfg.lambda,
                                    cfg.mirror && mirrored(cfg.seed, epoch, i),
                                    &model.king,
                                )
                            })
                            .collect();
                        model.backprop(&samples, g);
                    });
                // A last batch shorter than the thread count leaves
                // buffers with no chunk: they must not add stale sums.
                for g in grads.iter_mut().skip(ids.len().div_ceil(per)) {
                    g.clear();
                }
                state
                    .optimiser
                    .step(&mut state.model, &grads, ids.len(), lr, cfg.weight_decay);
                if let Some(folded) = folded.as_mut() {
                    state.model.fold_into(folded);
                }
            });
            loss += grads.iter().map(|g| g.loss).sum::<f64>();
        }
        let seconds = started.elapsed().as_secs_f64();
        let valid_loss = pool.install(|| mean_loss(&state.model, valid_set, cfg.lambda));
        state.epochs_done = epoch;
        let report = EpochReport {
            epoch,
            lr,
            train_loss: loss / train_set.len() as f64,
            valid_loss,
            quantised: None,
            seconds,
            positions_per_second: train_set.len() as f64 / seconds.max(1e-9),
        };
        pool.install(|| after_epoch(&report, &state))?;
    }
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Outcome;
    use shuai_board::Position;

    fn record(fen: &str, red_score: i16, outcome: Outcome) -> PackedPosition {
        PackedPosition::pack(&Position::from_fen(fen).unwrap(), red_score, outcome).unwrap()
    }

    #[test]
    fn targets_are_from_the_side_to_move() {
        let red = record(shuai_board::START_FEN, 400, Outcome::RedWins);
        let black_fen = shuai_board::START_FEN.replace(" w ", " b ");
        let black = record(&black_fen, 400, Outcome::RedWins);
        assert_eq!(target(&red, 0.0), 1.0);
        assert_eq!(target(&black, 0.0), 0.0);
        assert!((target(&red, 1.0) - sigmoid(1.0)).abs() < 1e-6);
        assert!((target(&black, 1.0) - sigmoid(-1.0)).abs() < 1e-6);
        assert!((target(&red, 0.5) - (0.5 + 0.5 * sigmoid(1.0))).abs() < 1e-6);
    }

    #[test]
    fn samples_match_the_engine_features() {
        let fen = "3ak4/9/4b4/p3C3p/9/2B6/P3c3P/4B4/4A4/3AK4 b - - 0 1";
        let pos = Position::from_fen(fen).unwrap();
        let none = KingBuckets::NONE;
        let s = sample(&record(fen, 0, Outcome::Draw), 1.0, false, &none);
        let mut us: Vec<u16> = s.us[..s.len].to_vec();
        let mut want: Vec<u16> = shuai_eval::nnue::active_features(&pos, Color::Black)
            .map(|f| f as u16)
            .collect();
        us.sort_unstable();
        want.sort_unstable();
        assert_eq!(us, want);
        let m = sample(&record(fen, 0, Outcome::Draw), 1.0, true, &none);
        assert_eq!(m.len, s.len);
        assert_ne!(
            m.us[..m.len],
            s.us[..s.len],
            "mirroring moves the off-centre pieces"
        );
    }

    /// Positions of a few pseudo-random games, with made-up scores and
    /// results.
    fn game_records(n: usize) -> Vec<PackedPosition> {
        let mut rng = Rng::new(77);
        let mut out = Vec::new();
        while out.len() < n {
            let mut pos = Position::startpos();
            for _ in 0..60 {
                let moves = pos.legal_moves();
                if moves.is_empty() || out.len() == n {
                    break;
                }
                let score = (rng.below(1200) as i16) - 600;
                let outcome =
                    [Outcome::BlackWins, Outcome::Draw, Outcome::RedWins][rng.below(3) as usize];
                out.push(PackedPosition::pack(&pos, score, outcome).unwrap());
                pos.make_move(moves.as_slice()[rng.below(moves.len() as u64) as usize]);
            }
        }
        out
    }

    fn tiny_config(epochs: u32, threads: usize, buckets: usize) -> TrainConfig {
        TrainConfig {
            king: KingBuckets::NONE,
            factoriser: false,
            epochs,
            batch: 64,
            lr: 0.01,
            lr_end: 0.001,
            weight_decay: 0.01,
            lambda: 0.75,
            threads,
            seed: 9,
            mirror: true,
            hidden: 8,
            buckets,
            out_dir: PathBuf::new(),
            command: String::new(),
        }
    }

    fn run(
        cfg: &TrainConfig,
        state: Checkpoint,
        data: &[PackedPosition],
    ) -> (Checkpoint, Vec<f64>) {
        let mut losses = Vec::new();
        let end = train(cfg, state, data, &data[..50], &mut |r, _| {
            losses.push(r.valid_loss);
            Ok(())
        })
        .unwrap();
        (end, losses)
    }

    #[test]
    fn training_learns_is_deterministic_and_resumes_exactly() {
        for buckets in [1, 31] {
            learns_deterministic_resumes(tiny_config(4, 2, buckets));
        }
    }

    #[test]
    fn training_with_king_buckets_learns_is_deterministic_and_resumes_exactly() {
        // With and without the factoriser; 31 output buckets on top.
        // Eight epochs: with six times the feature rows, each seen by
        // fewer samples, the tiny run needs longer than four to gain.
        for factoriser in [true, false] {
            let mut cfg = tiny_config(8, 2, 1 + 30 * usize::from(factoriser));
            cfg.king = KingBuckets::MIRRORED_6;
            cfg.factoriser = factoriser;
            learns_deterministic_resumes(cfg);
        }
    }

    /// The runs without king buckets and 8 output buckets, as the trainer
    /// computed them before king buckets existed (main 9e9e0b1, the same
    /// test's run there): the checkpoint after two epochs, the quantised
    /// network and the validation loss, bit for bit. King buckets are an
    /// addition that leaves the default run alone.
    #[test]
    fn the_default_run_is_the_run_before_king_buckets() {
        let data = game_records(300);
        let mut cfg = tiny_config(2, 2, 8);
        cfg.hidden = shuai_eval::nnue::HIDDEN;
        let (end, losses) = run(&cfg, start(&cfg, None, None).unwrap(), &data);
        let net = quantise(&end.model, "pinned").unwrap();
        assert_eq!(shuai_eval::fnv1a(end.to_bytes()), 0xf1de_a6f4_92ce_e0d6);
        assert_eq!(net.hash(), 0xfd2f_31cc_5710_211f);
        assert_eq!(losses[1], 0.03234429562202006);
    }

    /// The run of `training_learns_is_deterministic_and_resumes_exactly`
    /// with `cfg` (31 output buckets: one per piece count, so the games'
    /// positions spread over several).
    fn learns_deterministic_resumes(cfg: TrainConfig) {
        let buckets = cfg.buckets;
        let data = game_records(300);
        let (a, losses) = run(&cfg, start(&cfg, None, None).unwrap(), &data);
        let (b, _) = run(&cfg, start(&cfg, None, None).unwrap(), &data);
        // (assert! rather than assert_eq!: a checkpoint prints as 1.3 M floats)
        assert!(a == b, "same seed, data and threads: the same bits");
        assert_eq!(a.epochs_done, cfg.epochs);
        assert_eq!(
            a.optimiser.step,
            u64::from(cfg.epochs) * 300u64.div_ceil(64)
        );
        let last = losses[losses.len() - 1];
        assert!(last < losses[0] - 1e-3, "the loss falls: {losses:?}");
        // Interrupted after two epochs (the state saved through bytes, as
        // `last.ckpt` is), then resumed: the same run.
        let mut saved = None;
        let interrupted = train(
            &cfg,
            start(&cfg, None, None).unwrap(),
            &data,
            &data[..50],
            &mut |r, state| {
                if r.epoch == 2 {
                    saved = Some(Checkpoint::from_bytes(&state.to_bytes()).unwrap());
                    return Err("interrupted".into());
                }
                Ok(())
            },
        );
        assert_eq!(interrupted.unwrap_err(), "interrupted");
        let saved = saved.unwrap();
        assert_eq!(saved.epochs_done, 2);
        let (resumed, _) = run(&cfg, start(&cfg, Some(saved), None).unwrap(), &data);
        assert!(
            resumed == a,
            "a resumed run ends where an uninterrupted one does"
        );
        // Another thread count sums in another order: close, not equal.
        let one_thread = TrainConfig {
            threads: 1,
            ..cfg.clone()
        };
        let (one, _) = run(&one_thread, start(&cfg, None, None).unwrap(), &data);
        let gap = one.model.out_bias[buckets - 1] - a.model.out_bias[buckets - 1];
        assert!(gap.abs() < 1e-3, "{gap}");
        // Resuming with another bucket count, king-bucket layout or
        // factoriser is refused.
        let other = TrainConfig {
            buckets: buckets % 31 + 1,
            ..cfg.clone()
        };
        let err = start(&other, Some(a.clone()), None).unwrap_err();
        assert!(err.contains("output buckets"), "{err}");
        let other = TrainConfig {
            king: if cfg.king.is_none() {
                KingBuckets::POINTS_9
            } else {
                KingBuckets::NONE
            },
            ..cfg.clone()
        };
        let err = start(&other, Some(a.clone()), None).unwrap_err();
        assert!(err.contains("king bucket"), "{err}");
        if !cfg.king.is_none() {
            let other = TrainConfig {
                factoriser: !cfg.factoriser,
                ..cfg.clone()
            };
            let err = start(&other, Some(a.clone()), None).unwrap_err();
            assert!(err.contains("factoriser"), "{err}");
            assert_eq!(a.model.factorised(), cfg.factoriser);
        }
    }

    #[test]
    fn quantising_applies_the_feature_clip() {
        // A checkpoint from before the ±0.97 clip may hold larger
        // weights; quantised, they must still fit the accumulators.
        let mut model = Model::new(shuai_eval::nnue::HIDDEN, 1, 3);
        model.ft_weights[5] = 1.98;
        model.ft_bias[2] = -1.5;
        let bytes = quantise(&model, "clip").unwrap().to_bytes();
        let header =
            bytes.len() - 2 * (shuai_eval::nnue::INPUTS + 3) * shuai_eval::nnue::HIDDEN - 4;
        let i16_at =
            |i: usize| i16::from_le_bytes([bytes[header + 2 * i], bytes[header + 2 * i + 1]]);
        assert_eq!(i16_at(5), 989);
        assert_eq!(
            i16_at(shuai_eval::nnue::INPUTS * shuai_eval::nnue::HIDDEN + 2),
            -989
        );
    }

    #[test]
    fn quantised_network_agrees_with_the_float_model() {
        // A random model evaluated both ways on real positions. The
        // rounding left is the squared activation's (1/254 of its range)
        // and the feature weights' (1/1020): a centipawn or two. A wrong
        // scale, a swapped half or a wrong bucket would be off by far
        // more.
        let mut pos = Position::startpos();
        let mut records = Vec::new();
        for i in 0..60 {
            records.push(PackedPosition::pack(&pos, 0, Outcome::Draw).unwrap());
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves.as_slice()[(i * 31) % moves.len()]);
        }
        // Endings, so that several buckets are used: 0, 4, 13 pieces.
        for fen in [
            "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1",
            "3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 b - - 0 1",
            "rnbakabnr/9/1c5c1/p1p1p4/9/9/9/9/9/4K4 w - - 0 1",
        ] {
            records.push(record(fen, 0, Outcome::Draw));
        }
        for buckets in [1, 8] {
            let model = Model::new(shuai_eval::nnue::HIDDEN, buckets, 3);
            let net = quantise(&model, "test").unwrap();
            assert_eq!(net.buckets(), buckets);
            let r = compare(&model, &net, &records, 1.0).unwrap();
            assert_eq!(r.positions, records.len());
            assert!(r.mean_abs_cp < 3.0 && r.max_abs_cp < 10.0, "{r:?}");
        }
    }

    #[test]
    fn a_network_dequantised_and_quantised_again_is_the_same_network() {
        // The round trip is exact: every integer divided by its scale and
        // multiplied again rounds back to itself.
        let net = quantise(&Model::new(shuai_eval::nnue::HIDDEN, 8, 11), "round trip").unwrap();
        let model = dequantise(&net.parts(), KingBuckets::NONE, true).unwrap();
        assert!(!model.factorised(), "no king buckets: nothing to share");
        assert_eq!(quantise(&model, "round trip").unwrap(), net);
        // Started with king buckets, each bucket is the old network: with
        // the factoriser in the shared rows, without it in copies. Where
        // both kings stand on file e nothing is mirrored (a king on file d
        // is on file f from its own side), and the
        // bucketed network evaluates exactly as the old one.
        let positions = [
            Position::startpos(),
            Position::from_fen("3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 w - - 0 1").unwrap(),
            Position::from_fen("4k4/4a4/4b4/9/2p6/9/9/4B4/4A4/4KA3 b - - 0 1").unwrap(),
        ];
        for factoriser in [true, false] {
            let model = dequantise(&net.parts(), KingBuckets::MIRRORED_6, factoriser).unwrap();
            assert_eq!(model.factorised(), factoriser);
            let bucketed = quantise(&model, "bucketed").unwrap();
            assert_eq!(bucketed.king_buckets(), KingBuckets::MIRRORED_6);
            for pos in &positions {
                assert_eq!(
                    bucketed.evaluate(pos),
                    net.evaluate(pos),
                    "{}",
                    pos.to_fen()
                );
            }
        }
        // A bucketed network cannot become another layout.
        let bucketed = quantise(
            &dequantise(&net.parts(), KingBuckets::MIRRORED_6, true).unwrap(),
            "b",
        )
        .unwrap();
        assert_eq!(
            dequantise(&bucketed.parts(), KingBuckets::MIRRORED_3, true).unwrap_err(),
            format!(
                "cannot start {} from a network with {}",
                KingBuckets::MIRRORED_3.name(),
                KingBuckets::MIRRORED_6.name()
            )
        );
    }

    #[test]
    fn king_bucket_samples_are_the_engine_features() {
        // Both perspectives, king on and off file e, Red and Black to
        // move; mirrored, the sample is the mirrored position's features.
        let fens = [
            "3ak4/9/4b4/p3C3p/9/2B6/P3c3P/4B4/4A4/3AK4 b - - 0 1",
            "5k3/4a4/4b4/p3C3p/9/2B6/P3c3P/4B4/4K4/3A5 w - - 0 1",
            "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1",
            shuai_board::START_FEN,
        ];
        for king in [KingBuckets::MIRRORED_6, KingBuckets::POINTS_9] {
            for fen in fens {
                for mirror in [false, true] {
                    let pos = Position::from_fen(fen).unwrap();
                    let seen = if mirror {
                        let placement = fen.split(' ').next().unwrap();
                        let mirrored: Vec<String> = placement
                            .split('/')
                            .map(|r| r.chars().rev().collect())
                            .collect();
                        let rest = fen.split_once(' ').unwrap().1;
                        Position::from_fen(&format!("{} {rest}", mirrored.join("/"))).unwrap()
                    } else {
                        pos.clone()
                    };
                    let s = sample(&record(fen, 0, Outcome::Draw), 1.0, mirror, &king);
                    let stm = pos.side_to_move();
                    for (got, p) in [(&s.us, stm), (&s.them, stm.opponent())] {
                        let mut got: Vec<usize> = got[..s.len].iter().map(|&f| f.into()).collect();
                        let mut want: Vec<usize> =
                            shuai_eval::nnue::active_features_with(&seen, p, &king).collect();
                        got.sort_unstable();
                        want.sort_unstable();
                        assert_eq!(got, want, "{fen} {} mirror {mirror}", king.name());
                    }
                }
            }
        }
    }

    #[test]
    fn a_factorised_model_quantises_as_its_folded_self() {
        // Random factor and bucket rows (the bucket rows start at zero):
        // the factorised model, its folded copy and the integer network
        // agree on real positions, and the factoriser changes the outputs
        // of every bucket.
        let records = game_records(80);
        let hidden = shuai_eval::nnue::HIDDEN;
        let mut model = Model::with_king_buckets(hidden, 4, KingBuckets::MIRRORED_6, true, 3);
        assert!(model.factorised() && model.ft_weights.iter().all(|&w| w == 0.0));
        let mut r = Rng::new(5);
        for w in model.ft_weights.iter_mut() {
            *w = (r.unit() - 0.5) * 0.2;
        }
        let folded = model.folded();
        assert!(!folded.factorised());
        let (a, b) = (
            quantise(&model, "f").unwrap(),
            quantise(&folded, "f").unwrap(),
        );
        assert_eq!(a.hash(), b.hash());
        assert_eq!(a.king_buckets(), KingBuckets::MIRRORED_6);
        for p in &records[..20] {
            let s = sample(p, 1.0, false, &model.king);
            assert_eq!(model.output(&s), folded.output(&s));
        }
        let r = compare(&model, &a, &records, 1.0).unwrap();
        assert!(r.mean_abs_cp < 3.0 && r.max_abs_cp < 10.0, "{r:?}");
        // Without the factor rows the network is another one.
        let mut bare = model.clone();
        bare.ft_factor.iter_mut().for_each(|w| *w = 0.0);
        let s = sample(&records[7], 1.0, false, &model.king);
        assert!((bare.output(&s) - model.output(&s)).abs() > 1e-3);
        // A sum beyond the clip is clipped, as the engine's weights are.
        let mut big = model.clone();
        big.ft_factor[0] = 0.9;
        big.ft_weights[0] = 0.9;
        assert_eq!(big.folded().ft_weights[0], FEATURE_CLIP);
    }

    #[test]
    fn samples_count_the_pieces_besides_the_kings() {
        // The trainer's count picks the same bucket as the engine's.
        let net = quantise(&Model::new(shuai_eval::nnue::HIDDEN, 8, 1), "t").unwrap();
        let model = Model::new(8, 8, 1);
        for (fen, pieces) in [
            (shuai_board::START_FEN, 30),
            ("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", 0),
            ("rnbakabnr/9/1c5c1/p1p1p4/9/9/9/9/9/4K4 w - - 0 1", 13),
        ] {
            let s = sample(
                &record(fen, 0, Outcome::Draw),
                1.0,
                true,
                &KingBuckets::NONE,
            );
            assert_eq!(s.pieces, pieces, "{fen}");
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(model.bucket(&s), net.bucket_of(&pos), "{fen}");
        }
    }
}
