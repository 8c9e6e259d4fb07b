//! The float network the trainer fits, and its gradients.
//!
//! The same architecture as the engine's quantised network
//! (`shuai_eval::nnue::network`): one feature transformer shared by both
//! perspectives, `a = b + Σ W[f]`, SCReLU `clamp(a, 0, 1)²` on the side
//! to move's accumulator and then the other side's, one linear output `o`,
//! and the prediction `sigmoid(o)` of the side to move's expected points.
//! The output layer has one row (weights and bias) per output bucket; a
//! sample is scored by the row of its material's bucket
//! ([`shuai_eval::nnue::output_bucket`], as the engine picks it), and only
//! that row gets its gradient.
//! The hidden size is a run-time value here, so the gradient check can use
//! a tiny network; quantisation needs the engine's size.
//!
//! # King buckets and the factoriser
//!
//! With king buckets ([`KingBuckets`]) the feature transformer has one
//! set of `INPUTS` rows per bucket, and a sample's features are already
//! the bucketed indices (computed by the engine's own
//! [`KingBuckets::view`]). Most positions have the king on its starting
//! point, so the rarer buckets would see few samples and learn little. The
//! *factoriser* ([`Model::ft_factor`]) is one more set of `INPUTS` rows,
//! shared: the weight of feature `f` in bucket `b` is `W[b][f] + F[f]`,
//! so what a piece on a point is worth whatever the king's point is learnt
//! from every sample, and each bucket learns only its difference. The
//! engine needs no factoriser: the sum is folded into each bucket's rows
//! when the network is quantised ([`Model::folded`]); the training loop
//! folds it once per step too and runs the forward and backward passes on
//! the folded rows, which gives the bucket rows' gradients exactly; the
//! factor row's gradient is their sum over the buckets
//! ([`Gradients::factor_row`]).
//!
//! The effective weight is clipped to the feature clip when it is folded
//! (each of `W` and `F` is clipped by the optimiser, so their sum could
//! reach twice it): the float network then computes what the engine's
//! integer one does. The gradient is passed through the clip unchanged.

use shuai_board::Rng;
use shuai_eval::nnue::{output_bucket, KingBuckets, INPUTS};

/// Largest absolute value of an output weight (as bullet and Stockfish
/// trainers do): at ×4096 it fits in `i16`, and the engine's sum of 512
/// products with squared activations (≤ 254) stays inside `i32`.
pub const OUTPUT_CLIP: f32 = 1.98;

/// Largest absolute value of a feature weight or bias: at ×1020 a sum of
/// 33 of them (32 pieces and the bias) stays inside `i16`.
pub const FEATURE_CLIP: f32 = 0.97;

/// Most features one perspective can have: one per piece.
pub const MAX_ACTIVE: usize = 32;

/// The parameters of the float network.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// Accumulator size per perspective.
    pub hidden: usize,
    /// Output buckets (rows of the output layer).
    pub buckets: usize,
    /// How the own king's point picks the feature rows
    /// ([`KingBuckets::NONE`]: one set of `INPUTS`).
    pub king: KingBuckets,
    /// Feature weights, `king.count() × INPUTS × hidden`, feature by
    /// feature (bucket by bucket).
    pub ft_weights: Vec<f32>,
    /// The factoriser: `INPUTS × hidden` weights added to every king
    /// bucket's rows, or empty (no factoriser).
    pub ft_factor: Vec<f32>,
    /// Feature biases, `hidden`.
    pub ft_bias: Vec<f32>,
    /// Output weights, `buckets × 2 × hidden`, bucket by bucket: the side
    /// to move's half first.
    pub out_weights: Vec<f32>,
    /// Output biases, one per bucket.
    pub out_bias: Vec<f32>,
}

/// One training example: the active features of both perspectives and the
/// target, the side to move's expected points in `0..=1`.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// Features seen from the side to move.
    pub us: [u16; MAX_ACTIVE],
    /// Features seen from the other side.
    pub them: [u16; MAX_ACTIVE],
    /// How many entries of `us` and `them` are used.
    pub len: usize,
    /// Pieces on the board other than the two kings: they choose the
    /// output bucket.
    pub pieces: u8,
    /// The target.
    pub target: f32,
}

/// Gradients of the loss summed over a chunk of samples, with the feature
/// rows they touch (only those rows are cleared, summed and stepped). The
/// factoriser's gradient is not stored: it is the sum of the bucket rows'
/// ([`Gradients::factor_row`]).
#[derive(Clone, Debug)]
pub struct Gradients {
    /// Same layout as [`Model::ft_weights`].
    pub ft_weights: Vec<f32>,
    /// Same layout as [`Model::ft_bias`].
    pub ft_bias: Vec<f32>,
    /// Same layout as [`Model::out_weights`].
    pub out_weights: Vec<f32>,
    /// d loss / d output bias, per bucket.
    pub out_bias: Vec<f32>,
    /// Feature rows with a non-zero gradient.
    pub touched: Vec<bool>,
    /// Sum of the squared errors of the chunk.
    pub loss: f64,
    /// Scratch: the two accumulators and their gradients.
    scratch: Vec<f32>,
}

/// Uniform initial weights in `[-1, 1)` from `seed`.
fn init_stream(seed: u64) -> impl FnMut() -> f32 {
    let mut rng = Rng::new(seed);
    move || rng.unit() * 2.0 - 1.0
}

impl Model {
    /// A network of `buckets` output buckets with uniform random weights
    /// scaled to the fan-in (`±1/√24` for the feature rows, about the
    /// number of pieces on a board; `±1/√(2·hidden)` for the output) and
    /// zero biases. The random stream fills the feature weights, then the
    /// output rows bucket by bucket, so a one-bucket model is the one
    /// earlier trainers started from.
    pub fn new(hidden: usize, buckets: usize, seed: u64) -> Model {
        Model::with_king_buckets(hidden, buckets, KingBuckets::NONE, false, seed)
    }

    /// [`Model::new`] with king buckets `king` and, if `factoriser`, a
    /// factoriser. With the factoriser, the factor rows take the random
    /// weights [`Model::new`] gives its feature rows and the bucket rows
    /// start at zero, so the network starts as the one without king
    /// buckets would (but for the mirroring); without it, every bucket's
    /// rows are drawn from the stream in turn. The output rows follow
    /// either way, so they are [`Model::new`]'s when the factoriser is on.
    /// `factoriser` without king buckets is ignored (there is nothing to
    /// share).
    pub fn with_king_buckets(
        hidden: usize,
        buckets: usize,
        king: KingBuckets,
        factoriser: bool,
        seed: u64,
    ) -> Model {
        let mut r = init_stream(seed);
        let ft = 1.0 / 24f32.sqrt();
        let out = 1.0 / ((2 * hidden) as f32).sqrt();
        let factoriser = factoriser && !king.is_none();
        let (ft_weights, ft_factor) = if factoriser {
            let factor = (0..INPUTS * hidden).map(|_| r() * ft).collect();
            (vec![0.0; king.inputs() * hidden], factor)
        } else {
            let w = (0..king.inputs() * hidden).map(|_| r() * ft).collect();
            (w, Vec::new())
        };
        Model {
            hidden,
            buckets,
            king,
            ft_weights,
            ft_factor,
            ft_bias: vec![0.0; hidden],
            out_weights: (0..buckets * 2 * hidden).map(|_| r() * out).collect(),
            out_bias: vec![0.0; buckets],
        }
    }

    /// The model with `hidden` accumulator values instead of
    /// `self.hidden` (at least as many): the old neurons keep their
    /// weights, the new ones get random feature weights drawn as
    /// [`Model::with_king_buckets`] draws them (in the factoriser's rows
    /// when there is one, the bucket rows zero), a zero bias and **zero
    /// output weights**, so the wider model computes exactly what this one
    /// does and training grows the new neurons from there. Refused when
    /// `hidden` is smaller.
    pub fn widened(&self, hidden: usize, seed: u64) -> Result<Model, String> {
        if hidden < self.hidden {
            return Err(format!(
                "cannot narrow a model of hidden size {} to {hidden}",
                self.hidden
            ));
        }
        let old = self.hidden;
        let mut r = init_stream(seed);
        let ft = 1.0 / 24f32.sqrt();
        // Every row of `old` values grows to `hidden`, the new values from
        // `fill`.
        let widen = |rows: &[f32], fill: &mut dyn FnMut() -> f32| -> Vec<f32> {
            rows.chunks_exact(old.max(1))
                .flat_map(|row| {
                    let new: Vec<f32> = (old..hidden).map(|_| fill()).collect();
                    row.iter().copied().chain(new)
                })
                .collect()
        };
        let (ft_weights, ft_factor) = if self.factorised() {
            (
                widen(&self.ft_weights, &mut || 0.0),
                widen(&self.ft_factor, &mut || r() * ft),
            )
        } else {
            (widen(&self.ft_weights, &mut || r() * ft), Vec::new())
        };
        Ok(Model {
            hidden,
            buckets: self.buckets,
            king: self.king,
            ft_weights,
            ft_factor,
            ft_bias: widen(&self.ft_bias, &mut || 0.0),
            out_weights: widen(&self.out_weights, &mut || 0.0),
            out_bias: self.out_bias.clone(),
        })
    }

    /// The model with its single output row copied into `buckets` rows,
    /// so it computes exactly what it did for every sample and training
    /// lets the rows of different material drift apart (how a network
    /// trained without output buckets starts a run with them). Refused
    /// unless the model has one bucket.
    pub fn split_output(&self, buckets: usize) -> Result<Model, String> {
        if self.buckets != 1 {
            return Err(format!(
                "only a one-bucket model splits into output buckets, this one has {}",
                self.buckets
            ));
        }
        let mut out = self.clone();
        out.buckets = buckets;
        out.out_weights = self.out_weights.repeat(buckets);
        out.out_bias = self.out_bias.repeat(buckets);
        Ok(out)
    }

    /// Whether the model has a factoriser.
    pub fn factorised(&self) -> bool {
        !self.ft_factor.is_empty()
    }

    /// The model with the factoriser folded into the bucket rows, each
    /// weight `clamp(W[b][f] + F[f], ±FEATURE_CLIP)`, and no factoriser:
    /// the same network, as the engine runs it. Without a factoriser, a
    /// copy.
    pub fn folded(&self) -> Model {
        let mut out = self.clone();
        if self.factorised() {
            out.ft_factor = Vec::new();
            self.fold_into(&mut out);
        }
        out
    }

    /// The model itself without a factoriser, else [`Model::folded`]:
    /// the same network either way, to evaluate many samples.
    pub fn unfactorised(&self) -> std::borrow::Cow<'_, Model> {
        if self.factorised() {
            std::borrow::Cow::Owned(self.folded())
        } else {
            std::borrow::Cow::Borrowed(self)
        }
    }

    /// Writes the folded feature rows ([`Model::folded`]) into `out`'s,
    /// which must have this model's shape (the rest of `out` is set to
    /// this model's too). Cheap next to a batch: one pass over the rows.
    pub fn fold_into(&self, out: &mut Model) {
        out.hidden = self.hidden;
        out.buckets = self.buckets;
        out.king = self.king;
        out.ft_factor.clear();
        out.ft_bias.clone_from(&self.ft_bias);
        out.out_weights.clone_from(&self.out_weights);
        out.out_bias.clone_from(&self.out_bias);
        if !self.factorised() {
            out.ft_weights.clone_from(&self.ft_weights);
            return;
        }
        let block = INPUTS * self.hidden;
        out.ft_weights.resize(self.ft_weights.len(), 0.0);
        for (o, w) in out
            .ft_weights
            .chunks_mut(block)
            .zip(self.ft_weights.chunks(block))
        {
            for ((o, w), f) in o.iter_mut().zip(w).zip(&self.ft_factor) {
                *o = (w + f).clamp(-FEATURE_CLIP, FEATURE_CLIP);
            }
        }
    }

    /// The output bucket of a sample.
    #[inline(always)]
    pub fn bucket(&self, s: &Sample) -> usize {
        output_bucket(usize::from(s.pieces), self.buckets)
    }

    /// The raw output `o` for a sample (the prediction is `sigmoid(o)`,
    /// the engine's score `SCALE · o`).
    pub fn output(&self, s: &Sample) -> f32 {
        let h = self.hidden;
        let mut acc = vec![0.0; 2 * h];
        self.accumulate(s, &mut acc);
        self.head(&acc, self.bucket(s))
    }

    /// Bucket `b`'s output weights, both halves.
    #[inline(always)]
    fn out_row(&self, b: usize) -> &[f32] {
        let w = 2 * self.hidden;
        &self.out_weights[b * w..(b + 1) * w]
    }

    fn accumulate(&self, s: &Sample, acc: &mut [f32]) {
        let h = self.hidden;
        let (us, them) = acc.split_at_mut(h);
        us.copy_from_slice(&self.ft_bias);
        them.copy_from_slice(&self.ft_bias);
        if self.factorised() {
            // The folded weight of each row, as [`Model::fold_into`]
            // computes it (the training loop folds once a step instead).
            for i in 0..s.len {
                for (f, acc) in [(s.us[i], &mut *us), (s.them[i], &mut *them)] {
                    let factor = &self.ft_factor[(f as usize % INPUTS) * h..][..h];
                    for ((a, w), x) in acc.iter_mut().zip(self.row(f)).zip(factor) {
                        *a += (w + x).clamp(-FEATURE_CLIP, FEATURE_CLIP);
                    }
                }
            }
            return;
        }
        for i in 0..s.len {
            add_row(us, self.row(s.us[i]));
            add_row(them, self.row(s.them[i]));
        }
    }

    fn head(&self, acc: &[f32], bucket: usize) -> f32 {
        let dot: f32 = acc
            .iter()
            .zip(self.out_row(bucket))
            .map(|(a, w)| {
                let c = a.clamp(0.0, 1.0);
                c * c * w
            })
            .sum();
        dot + self.out_bias[bucket]
    }

    #[inline(always)]
    fn row(&self, f: u16) -> &[f32] {
        let h = self.hidden;
        let f = f as usize;
        &self.ft_weights[f * h..(f + 1) * h]
    }

    /// Adds the gradients of `(sigmoid(o) − target)²` over `samples` to
    /// `g` (which must be [`Gradients::clear`]ed first for a fresh sum).
    /// For a factorised model the feature gradients are those of the
    /// bucket rows (the factor rows' are their sums); the training loop
    /// calls this on the [`Model::folded`] model, which has the same
    /// gradients and a forward pass half as dear.
    pub fn backprop(&self, samples: &[Sample], g: &mut Gradients) {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
                // SAFETY: the processor supports AVX2 and FMA (checked just
                // above), the features this copy is compiled for.
                unsafe { self.backprop_avx2(samples, g) };
                return;
            }
        }
        self.backprop_generic(samples, g);
    }

    /// [`Model::backprop_generic`] compiled for AVX2 and FMA: the loops
    /// over the hidden units then run eight floats at a time.
    ///
    /// # Safety
    /// The processor must support AVX2 and FMA.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    unsafe fn backprop_avx2(&self, samples: &[Sample], g: &mut Gradients) {
        self.backprop_generic(samples, g);
    }

    #[inline(always)]
    fn backprop_generic(&self, samples: &[Sample], g: &mut Gradients) {
        let h = self.hidden;
        let mut scratch = std::mem::take(&mut g.scratch);
        scratch.resize(4 * h, 0.0);
        let (acc, grad) = scratch.split_at_mut(2 * h);
        let row_len = 2 * h;
        for s in samples {
            self.accumulate(s, acc);
            let b = self.bucket(s);
            let out = self.head(acc, b);
            let p = sigmoid(out);
            let e = p - s.target;
            g.loss += f64::from(e * e);
            let d = 2.0 * e * p * (1.0 - p);
            // Only the sample's bucket took part in the output, so only
            // its row and bias get a gradient.
            g.out_bias[b] += d;
            for (((a, w), gw), ga) in acc
                .iter()
                .zip(self.out_row(b))
                .zip(g.out_weights[b * row_len..(b + 1) * row_len].iter_mut())
                .zip(grad.iter_mut())
            {
                let c = a.clamp(0.0, 1.0);
                *gw += d * c * c;
                // d clamp(a,0,1)²/da = 2a inside (0, 1), 0 outside.
                *ga = if *a > 0.0 && *a < 1.0 {
                    2.0 * d * w * c
                } else {
                    0.0
                };
            }
            let (g_us, g_them) = grad.split_at(h);
            for ((b, x), y) in g.ft_bias.iter_mut().zip(g_us).zip(g_them) {
                *b += x + y;
            }
            for i in 0..s.len {
                for (f, gr) in [(s.us[i], g_us), (s.them[i], g_them)] {
                    let f = f as usize;
                    g.touched[f] = true;
                    add_row(&mut g.ft_weights[f * h..(f + 1) * h], gr);
                }
            }
        }
        g.scratch = scratch;
    }
}

#[inline(always)]
fn add_row(acc: &mut [f32], row: &[f32]) {
    for (a, r) in acc.iter_mut().zip(row) {
        *a += r;
    }
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Gradients {
    /// Zero gradients for a model of `hidden` units and `buckets` output
    /// buckets without king buckets.
    pub fn new(hidden: usize, buckets: usize) -> Gradients {
        Gradients::with_inputs(hidden, buckets, INPUTS)
    }

    /// Zero gradients for `model`'s shape (its king buckets included).
    pub fn for_model(model: &Model) -> Gradients {
        Gradients::with_inputs(model.hidden, model.buckets, model.king.inputs())
    }

    fn with_inputs(hidden: usize, buckets: usize, inputs: usize) -> Gradients {
        Gradients {
            ft_weights: vec![0.0; inputs * hidden],
            ft_bias: vec![0.0; hidden],
            out_weights: vec![0.0; buckets * 2 * hidden],
            out_bias: vec![0.0; buckets],
            touched: vec![false; inputs],
            loss: 0.0,
            scratch: Vec::new(),
        }
    }

    /// Adds the gradient of factor row `f` (`0..INPUTS`), the sum of the
    /// touched bucket rows `b × INPUTS + f` in bucket order, to `sum`;
    /// whether any was touched.
    pub fn factor_row(&self, f: usize, sum: &mut [f32]) -> bool {
        let h = sum.len();
        let mut any = false;
        for row in (f..self.touched.len()).step_by(INPUTS) {
            if self.touched[row] {
                any = true;
                for (s, x) in sum.iter_mut().zip(&self.ft_weights[row * h..(row + 1) * h]) {
                    *s += x;
                }
            }
        }
        any
    }

    /// Back to zero, clearing only the touched feature rows.
    pub fn clear(&mut self) {
        let h = self.ft_bias.len();
        for (f, t) in self.touched.iter_mut().enumerate() {
            if *t {
                self.ft_weights[f * h..(f + 1) * h].fill(0.0);
                *t = false;
            }
        }
        self.ft_bias.fill(0.0);
        self.out_weights.fill(0.0);
        self.out_bias.fill(0.0);
        self.loss = 0.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(us: &[u16], them: &[u16], pieces: u8, target: f32) -> Sample {
        let mut s = Sample {
            us: [0; MAX_ACTIVE],
            them: [0; MAX_ACTIVE],
            len: us.len(),
            pieces,
            target,
        };
        s.us[..us.len()].copy_from_slice(us);
        s.them[..them.len()].copy_from_slice(them);
        s
    }

    /// A tiny network of `buckets` output buckets whose accumulators stay
    /// inside (0, 1) for the test samples, away from SCReLU's kinks where
    /// finite differences break. The samples have 0, 15 and 30 pieces
    /// besides the kings: with four buckets, buckets 0, 1 and 3.
    fn tiny(buckets: usize) -> (Model, Vec<Sample>) {
        let h = 4;
        let mut m = Model::new(h, buckets, 5);
        m.ft_weights.iter_mut().for_each(|w| *w = 0.0);
        let mut r = init_stream(9);
        for f in [3usize, 17, 400, 999, 1259] {
            for j in 0..h {
                m.ft_weights[f * h + j] = 0.1 + 0.05 * r();
            }
        }
        m.ft_bias = vec![0.2, 0.3, 0.25, 0.15];
        m.out_weights = (0..buckets * 2 * h).map(|_| r()).collect();
        m.out_bias = (0..buckets).map(|b| 0.1 - 0.05 * b as f32).collect();
        let samples = vec![
            sample(&[3, 17, 400], &[999, 1259, 17], 30, 0.9),
            sample(&[1259, 999], &[3, 400], 0, 0.2),
            sample(&[17, 400, 999, 3], &[1259, 3, 17, 400], 15, 0.5),
        ];
        (m, samples)
    }

    fn loss(m: &Model, samples: &[Sample]) -> f64 {
        samples
            .iter()
            .map(|s| {
                let e = f64::from(sigmoid(m.output(s)) - s.target);
                e * e
            })
            .sum()
    }

    /// A parameter of the model, by kind and index.
    #[derive(Clone, Copy, Debug)]
    enum Param {
        Ft(usize),
        Factor(usize),
        FtBias(usize),
        Out(usize),
        OutBias(usize),
    }

    fn param(m: &mut Model, p: Param) -> &mut f32 {
        match p {
            Param::Ft(i) => &mut m.ft_weights[i],
            Param::Factor(i) => &mut m.ft_factor[i],
            Param::FtBias(i) => &mut m.ft_bias[i],
            Param::Out(i) => &mut m.out_weights[i],
            Param::OutBias(i) => &mut m.out_bias[i],
        }
    }

    fn gradient(g: &Gradients, p: Param) -> f32 {
        match p {
            Param::Ft(i) => g.ft_weights[i],
            Param::Factor(i) => {
                let h = g.ft_bias.len();
                let mut sum = vec![0.0; h];
                assert!(g.factor_row(i / h, &mut sum));
                sum[i % h]
            }
            Param::FtBias(i) => g.ft_bias[i],
            Param::Out(i) => g.out_weights[i],
            Param::OutBias(i) => g.out_bias[i],
        }
    }

    /// Checks each of `probes` against a central finite difference of the
    /// loss; each must have a gradient worth testing.
    fn check_gradients(m: &Model, samples: &[Sample], probes: &[Param]) -> Gradients {
        let mut g = Gradients::for_model(m);
        m.backprop(samples, &mut g);
        assert!((g.loss - loss(m, samples)).abs() < 1e-6);
        let eps = 1e-2f32;
        for &p in probes {
            let mut plus = m.clone();
            *param(&mut plus, p) += eps;
            let mut minus = m.clone();
            *param(&mut minus, p) -= eps;
            let numeric = (loss(&plus, samples) - loss(&minus, samples)) / (2.0 * f64::from(eps));
            let a = f64::from(gradient(&g, p));
            assert!(
                (numeric - a).abs() <= 1e-3 * a.abs().max(1e-2),
                "{p:?}: analytic {a}, numeric {numeric}"
            );
            assert!(
                a.abs() > 1e-4,
                "{p:?}: a gradient that is zero tests nothing"
            );
        }
        g
    }

    #[test]
    fn gradients_match_finite_differences() {
        // Every parameter kind: feature rows (touched and not), biases,
        // output weights of both halves, the output bias.
        let (m, samples) = tiny(1);
        let g = check_gradients(
            &m,
            &samples,
            &[
                Param::Ft(3 * 4),
                Param::Ft(400 * 4 + 2),
                Param::Ft(1259 * 4 + 3),
                Param::FtBias(1),
                Param::Out(2),
                Param::Out(6),
                Param::OutBias(0),
            ],
        );
        // A row no sample uses has no gradient and is not touched.
        assert!(!g.touched[5]);
        assert!(g.touched[3] && g.touched[1259]);
    }

    #[test]
    fn gradients_match_finite_differences_with_output_buckets() {
        // Four buckets, samples in buckets 0, 1 and 3: the feature
        // transformer gathers from all three, each used bucket's row and
        // bias from its own sample.
        let (m, samples) = tiny(4);
        let buckets: Vec<usize> = samples.iter().map(|s| m.bucket(s)).collect();
        assert_eq!(buckets, [3, 0, 1]);
        let row = |b: usize, i: usize| Param::Out(b * 8 + i);
        let g = check_gradients(
            &m,
            &samples,
            &[
                Param::Ft(3 * 4),
                Param::Ft(999 * 4 + 1),
                Param::FtBias(2),
                row(0, 1),
                row(0, 5),
                row(1, 0),
                row(1, 7),
                row(3, 3),
                row(3, 4),
                Param::OutBias(0),
                Param::OutBias(1),
                Param::OutBias(3),
            ],
        );
        // Bucket 2 scored no sample: no gradient at all.
        assert!(g.out_weights[16..24].iter().all(|&x| x == 0.0));
        assert_eq!(g.out_bias[2], 0.0);
        // Each sample alone puts gradient in its own bucket's row only.
        for (s, &b) in samples.iter().zip(&buckets) {
            let mut g = Gradients::new(m.hidden, m.buckets);
            m.backprop(std::slice::from_ref(s), &mut g);
            for other in 0..4 {
                let used = g.out_weights[other * 8..(other + 1) * 8]
                    .iter()
                    .any(|&x| x != 0.0);
                assert_eq!(used, other == b, "sample in bucket {b}, row {other}");
                assert_eq!(g.out_bias[other] != 0.0, other == b);
            }
        }
    }

    #[test]
    fn gradients_match_finite_differences_with_king_buckets_and_a_factoriser() {
        // Three king buckets (by rank) and a factoriser: each feature's
        // weight is its bucket row plus the shared factor row. The samples
        // use rows of buckets 0, 1 and 2; a factor row's gradient is the
        // sum of its bucket rows', whichever buckets used it.
        let h = 4;
        let king = KingBuckets::MIRRORED_3;
        let mut m = Model::with_king_buckets(h, 2, king, true, 5);
        assert_eq!(m.ft_weights.len(), 3 * INPUTS * h);
        assert_eq!(m.ft_factor.len(), INPUTS * h);
        let mut r = init_stream(9);
        m.ft_factor.iter_mut().for_each(|w| *w = 0.0);
        for f in [3usize, 17, 400, 999, 1259] {
            for j in 0..h {
                m.ft_factor[f * h + j] = 0.1 + 0.05 * r();
                for b in 0..3 {
                    m.ft_weights[(b * INPUTS + f) * h + j] = 0.02 * r();
                }
            }
        }
        m.ft_bias = vec![0.2, 0.3, 0.25, 0.15];
        // Small output weights: the loss is then close enough to linear
        // in each parameter for the finite difference to be exact to the
        // check's tolerance.
        m.out_weights = (0..2 * 2 * h).map(|_| 0.5 * r()).collect();
        let b = |bucket: usize, f: u16| bucket as u16 * INPUTS as u16 + f;
        let samples = vec![
            sample(
                &[b(0, 3), b(0, 17), b(0, 400)],
                &[b(2, 999), b(2, 1259)],
                30,
                0.9,
            ),
            sample(&[b(1, 1259), b(1, 999)], &[b(0, 3), b(0, 400)], 0, 0.2),
            sample(&[b(2, 17), b(2, 400)], &[b(1, 3), b(1, 17)], 15, 0.5),
        ];
        let g = check_gradients(
            &m,
            &samples,
            &[
                Param::Ft(3 * h),
                Param::Ft((INPUTS + 999) * h + 1),
                Param::Ft((2 * INPUTS + 17) * h + 2),
                Param::Factor(3 * h),
                Param::Factor(17 * h + 3),
                Param::Factor(400 * h + 1),
                Param::Factor(1259 * h + 2),
                Param::FtBias(0),
                Param::Out(5),
                Param::OutBias(1),
            ],
        );
        // Factor row 3 collects buckets 0 and 1; row 5 was never used.
        assert!(g.touched[3] && g.touched[INPUTS + 3] && !g.touched[2 * INPUTS + 3]);
        assert!(!g.factor_row(5, &mut [0.0; 4]));
        // The folded model has the same outputs and, for the bucket rows,
        // the same gradients.
        let folded = m.folded();
        let mut gf = Gradients::for_model(&folded);
        folded.backprop(&samples, &mut gf);
        for s in &samples {
            assert!((folded.output(s) - m.output(s)).abs() < 1e-6);
        }
        assert_eq!(gf.touched, g.touched);
        for (a, b) in gf.ft_weights.iter().zip(&g.ft_weights) {
            assert!((a - b).abs() < 1e-6);
        }
    }

    #[test]
    fn one_bucket_model_starts_as_before_and_buckets_share_the_stream() {
        // The first bucket's row of a multi-bucket model is the one-bucket
        // model's row (the stream goes on to the next buckets), so
        // `--output-buckets 1` starts exactly where earlier trainers did.
        let one = Model::new(4, 1, 7);
        let three = Model::new(4, 3, 7);
        assert_eq!(one.ft_weights, three.ft_weights);
        assert_eq!(one.out_weights[..], three.out_weights[..8]);
        assert_ne!(three.out_weights[..8], three.out_weights[8..16]);
        assert_eq!(three.out_bias, [0.0; 3]);
    }

    #[test]
    fn a_widened_model_computes_what_the_narrow_one_did() {
        // With and without the factoriser (king buckets), and one or four
        // output buckets: the new neurons' zero output weights add exact
        // zeros, so the output is the same float.
        let samples = [
            sample(&[3, 17, 400], &[999, 1259, 17], 30, 0.9),
            sample(&[1259, 999], &[3, 400], 0, 0.2),
        ];
        for (king, factoriser, buckets) in [
            (KingBuckets::NONE, false, 1),
            (KingBuckets::MIRRORED_6, true, 4),
            (KingBuckets::MIRRORED_6, false, 4),
        ] {
            let narrow = Model::with_king_buckets(4, buckets, king, factoriser, 3);
            let wide = narrow.widened(12, 5).unwrap();
            assert_eq!(wide.hidden, 12);
            assert_eq!(wide.factorised(), narrow.factorised());
            assert_eq!(wide.ft_weights.len(), narrow.ft_weights.len() * 3);
            assert_eq!(wide.out_weights.len(), buckets * 2 * 12);
            // The old neurons keep their weights: row 17's first four.
            assert_eq!(
                wide.ft_weights[17 * 12..17 * 12 + 4],
                narrow.ft_weights[17 * 4..17 * 4 + 4]
            );
            assert_eq!(wide.out_weights[12..16], narrow.out_weights[4..8]);
            assert!(wide.out_weights[4..12].iter().all(|&w| w == 0.0));
            // The new ones have random feature weights to grow from.
            let new_rows = if factoriser {
                &wide.ft_factor
            } else {
                &wide.ft_weights
            };
            assert!(new_rows[17 * 12 + 4..18 * 12].iter().all(|&w| w != 0.0));
            for s in &samples {
                assert_eq!(wide.output(s), narrow.output(s));
            }
        }
        assert_eq!(
            Model::new(8, 1, 1).widened(4, 1).unwrap_err(),
            "cannot narrow a model of hidden size 8 to 4"
        );
    }

    #[test]
    fn a_split_model_computes_what_the_one_bucket_model_did() {
        // Samples of few and many pieces land in different rows of the
        // split model; every row starts as the old one.
        let samples = [
            sample(&[3, 17, 400], &[999, 1259, 17], 30, 0.9),
            sample(&[1259, 999], &[3, 400], 0, 0.2),
            sample(&[5, 6], &[7, 8], 12, 0.5),
        ];
        let one = Model::with_king_buckets(4, 1, KingBuckets::MIRRORED_6, true, 3);
        let eight = one.split_output(8).unwrap();
        assert_eq!(eight.buckets, 8);
        assert_eq!(eight.out_weights.len(), 8 * 2 * 4);
        assert_eq!(eight.out_weights[7 * 8..8 * 8], one.out_weights[..]);
        assert_eq!(eight.bucket(&samples[0]), 7);
        assert_eq!(eight.bucket(&samples[1]), 0);
        for s in &samples {
            assert_eq!(eight.output(s), one.output(s));
        }
        assert_eq!(
            eight.split_output(16).unwrap_err(),
            "only a one-bucket model splits into output buckets, this one has 8"
        );
    }

    #[test]
    fn clear_zeroes_everything() {
        let (m, samples) = tiny(4);
        let mut g = Gradients::new(m.hidden, m.buckets);
        m.backprop(&samples, &mut g);
        g.clear();
        assert!(g.ft_weights.iter().all(|&x| x == 0.0));
        assert!(g.out_weights.iter().all(|&x| x == 0.0));
        assert!(g.touched.iter().all(|&t| !t));
        assert_eq!(g.out_bias, [0.0; 4]);
        assert_eq!(g.loss, 0.0);
    }
}
