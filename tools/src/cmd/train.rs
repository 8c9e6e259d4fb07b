//! `shuai-tools train`: NNUE training on the CPU, one network file per epoch.

use super::read_all;
use shuai_tools::data;
use std::path::PathBuf;

/// The arguments of `train`.
#[derive(clap::Args)]
pub struct Args {
    /// Training positions (binary or text data files; several are concatenated).
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// Validation positions; without it, `--valid-fraction` of the games of --data are held out.
    #[arg(long, num_args = 1..)]
    valid: Vec<PathBuf>,
    /// Share of the games held out for validation when --valid is not given.
    #[arg(long, default_value_t = 0.05)]
    valid_fraction: f64,
    /// Directory for checkpoints (last.ckpt), networks (epoch-NNN.nnue) and train.log.
    #[arg(long)]
    out: PathBuf,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 30)]
    epochs: u32,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// Starting learning rate (cosine decay to --lr-end).
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Final learning rate.
    #[arg(long, default_value_t = 0.00001)]
    lr_end: f32,
    /// AdamW weight decay (0.1 beat 0.01 on validation loss, tools/README.md).
    #[arg(long, default_value_t = 0.1)]
    weight_decay: f32,
    /// Weight of the search score in the target: λ·sigmoid(score/400) + (1−λ)·result
    /// (1.0 played 75 Elo better than 0.75 on the same data, tools/README.md).
    #[arg(long, default_value_t = 1.0)]
    lambda: f32,
    /// Worker threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Seed of the initial weights, the data order and the validation split.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Use each position mirrored left to right half of the time.
    #[arg(long)]
    mirror: bool,
    /// Output buckets by material: one output row per bucket, chosen by the
    /// pieces on the board besides the kings (1 = no buckets, format version
    /// 2; more = format version 3).
    #[arg(long, default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=shuai_eval::nnue::MAX_OUTPUT_BUCKETS as i64))]
    output_buckets: u32,
    /// King buckets: the first layer's inputs chosen by the own king's point in
    /// its palace (format version 4). Alone it means mirrored6 (the king's file
    /// d/e × rank, a king on file f mirrored onto d); also mirrored3 (by rank),
    /// points9 (each point, unmirrored), none (the default: no king buckets).
    #[arg(long, value_name = "LAYOUT", default_value = "none", num_args = 0..=1,
          default_missing_value = "mirrored6", value_parser = parse_king_buckets)]
    king_buckets: shuai_eval::nnue::KingBuckets,
    /// With --king-buckets, train without the factoriser (shared feature weights
    /// added to every king bucket's, folded into them when a network is written).
    #[arg(long)]
    no_factoriser: bool,
    /// Start from this network's weights instead of random ones (a network
    /// file, or `embedded` for the engine's own): to train a new round on
    /// top of the last one. A network without king buckets can start a run
    /// with them (each bucket begins as its rows); a network narrower than
    /// this build's hidden size starts a wider one (the new neurons with zero
    /// output weights, so it begins as the same network).
    #[arg(long, value_name = "NET")]
    init: Option<PathBuf>,
    /// Continue from OUT/last.ckpt (same data and flags: the run continues exactly).
    #[arg(long)]
    resume: bool,
    /// Validation positions on which the integer network is compared with the float one each epoch.
    #[arg(long, default_value_t = 20000)]
    compare: usize,
}

/// A king-bucket layout by name (`shuai_eval::nnue::KingBuckets::NAMED`).
fn parse_king_buckets(name: &str) -> Result<shuai_eval::nnue::KingBuckets, String> {
    shuai_eval::nnue::KingBuckets::by_name(name).ok_or_else(|| {
        let names: Vec<&str> = shuai_eval::nnue::KingBuckets::NAMED
            .iter()
            .map(|(n, _)| *n)
            .collect();
        format!(
            "no king-bucket layout {name:?}; one of {}",
            names.join(", ")
        )
    })
}

/// Trains (or resumes), writing a checkpoint, a network and a log line
/// after every epoch.
pub fn run(a: Args) -> Result<(), String> {
    use shuai_tools::train::{self, checkpoint::Checkpoint, TrainConfig};
    use std::io::Write;
    let all = read_all(&a.data)?;
    let (train_set, valid_set) = if a.valid.is_empty() {
        data::split_by_game(&all, a.valid_fraction, a.seed)
    } else {
        (all, read_all(&a.valid)?)
    };
    eprintln!(
        "{} training positions, {} validation positions",
        train_set.len(),
        valid_set.len()
    );
    std::fs::create_dir_all(&a.out)
        .map_err(|e| format!("cannot create {}: {e}", a.out.display()))?;
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let cfg = TrainConfig {
        epochs: a.epochs,
        batch: a.batch,
        lr: a.lr,
        lr_end: a.lr_end,
        weight_decay: a.weight_decay,
        lambda: a.lambda,
        threads: a.threads,
        seed: a.seed,
        mirror: a.mirror,
        hidden: shuai_eval::nnue::HIDDEN,
        buckets: a.output_buckets as usize,
        king: a.king_buckets,
        factoriser: !a.no_factoriser,
        out_dir: a.out.clone(),
        command: command.clone(),
    };
    let ckpt_path = a.out.join("last.ckpt");
    let resume = if a.resume && ckpt_path.exists() {
        let c = Checkpoint::load(&ckpt_path)?;
        eprintln!("resuming after epoch {}", c.epochs_done);
        Some(c)
    } else {
        None
    };
    let init = match &a.init {
        Some(p) if p.as_os_str() == "embedded" => Some(shuai_eval::nnue::default_network().parts()),
        Some(p) => {
            let bytes =
                std::fs::read(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            // Any hidden size: a narrower network starts a wider run.
            let (parts, _) = shuai_eval::nnue::NetworkParts::from_bytes(&bytes)
                .map_err(|e| format!("{}: {e}", p.display()))?;
            Some(parts)
        }
        None => None,
    };
    if resume.is_some() && init.is_some() {
        eprintln!("--init is ignored: the run resumes from its checkpoint");
    }
    let state = train::start(&cfg, resume, init.as_ref())?;
    let log_path = a.out.join("train.log");
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log_path)
        .map_err(|e| format!("cannot open {}: {e}", log_path.display()))?;
    writeln!(log, "# {command}").map_err(|e| e.to_string())?;
    let compare_set = &valid_set[..valid_set.len().min(a.compare)];
    let baseline = format!(
        "hand-written evaluation: valid loss {:.6}",
        train::hand_written_loss(&valid_set, a.lambda)?
    );
    eprintln!("{baseline}");
    writeln!(log, "# {baseline}").map_err(|e| e.to_string())?;
    if let (Some(path), 0) = (&a.init, state.epochs_done) {
        // The starting network's loss on the same positions: what the new
        // round must beat.
        let line = format!(
            "starting network {}: valid loss {:.6}",
            path.display(),
            train::mean_loss(&state.model, &valid_set, a.lambda)
        );
        eprintln!("{line}");
        writeln!(log, "# {line}").map_err(|e| e.to_string())?;
    }
    let n_train = train_set.len();
    // The network's description holds at most 4096 bytes: a command with
    // many data files is cut short.
    let mut short_command = command.clone();
    if short_command.len() > 2000 {
        let mut end = 2000;
        while !short_command.is_char_boundary(end) {
            end -= 1;
        }
        short_command = format!("{}… ({} data files)", &command[..end], a.data.len());
    }
    train::train(&cfg, state, &train_set, &valid_set, &mut |report, state| {
        // The checkpoint first: nothing after it can lose the epoch.
        state.save(&ckpt_path)?;
        let factorised = if state.model.factorised() {
            " (trained with a factoriser)"
        } else {
            ""
        };
        let description = format!(
            "{}{factorised}; epoch {}/{}; {} training positions; valid loss {:.6}; {}",
            shuai_eval::nnue::Network::architecture_with(
                &a.king_buckets,
                a.output_buckets as usize
            ),
            report.epoch,
            a.epochs,
            n_train,
            report.valid_loss,
            short_command
        );
        let net = train::quantise(&state.model, &description)?;
        let mut report = report.clone();
        report.quantised = Some(train::compare(&state.model, &net, compare_set, a.lambda)?);
        let net_path = a.out.join(format!("epoch-{:03}.nnue", report.epoch));
        std::fs::write(&net_path, net.to_bytes())
            .map_err(|e| format!("cannot write {}: {e}", net_path.display()))?;
        let line = report.line();
        eprintln!("{line}");
        writeln!(log, "{line}").map_err(|e| format!("cannot write {}: {e}", log_path.display()))?;
        Ok(())
    })?;
    println!("networks in {}", a.out.display());
    Ok(())
}
