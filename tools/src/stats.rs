//! Match statistics: W/D/L and pentanomial counts, Elo with a 95%
//! interval, likelihood of superiority (LOS), normalized Elo, and the
//! sequential probability ratio test (SPRT) with a pentanomial
//! log-likelihood ratio.
//!
//! The formulas are the ones fastchess and fishtest use, so numbers can be
//! compared with theirs:
//!
//! * score `s` = mean pair score / 2, variance `σ²` of the pair scores
//!   (0, ¼, ½, ¾, 1), per-pair variance `σ²/N`;
//! * Elo = `-400·log10(1/s − 1)`, interval from `s ± 1.959964·√(σ²/N)`;
//! * LOS = `½·(1 + erf((s − ½)/√(2σ²/N)))`;
//! * normalized Elo = `(s − ½)/√(2σ²) · 800/ln 10`;
//! * LLR: maximum-likelihood pentanomial distributions under H0 and H1
//!   (M. Van den Bergh, "Comments on Normalized Elo"), either with the
//!   expected score fixed (logistic Elo bounds) or with the normalized
//!   t-value fixed (normalized Elo bounds, fishtest's and fastchess's
//!   default). Empty cells count as 0.001 games.

use serde::Serialize;

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The result of one game from the first engine's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Score {
    /// The first engine won.
    Win,
    /// Draw.
    Draw,
    /// The first engine lost.
    Loss,
}

impl Score {
    /// Points: 1, ½ or 0.
    pub fn points(self) -> f64 {
        match self {
            Score::Win => 1.0,
            Score::Draw => 0.5,
            Score::Loss => 0.0,
        }
    }
}

/// Win, draw and loss counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Wdl {
    /// Wins.
    pub w: u32,
    /// Draws.
    pub d: u32,
    /// Losses.
    pub l: u32,
}

impl Wdl {
    /// Counts one game.
    pub fn add(&mut self, s: Score) {
        match s {
            Score::Win => self.w += 1,
            Score::Draw => self.d += 1,
            Score::Loss => self.l += 1,
        }
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.w + self.d + self.l
    }

    /// Points scored.
    pub fn points(&self) -> f64 {
        self.w as f64 + 0.5 * self.d as f64
    }
}

/// Pair counts (two games of one opening with colours reversed), from the
/// first engine's point of view. `wl` and `dd` both score one point of two.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Penta {
    /// Two losses.
    pub ll: u32,
    /// A loss and a draw.
    pub ld: u32,
    /// A win and a loss.
    pub wl: u32,
    /// Two draws.
    pub dd: u32,
    /// A win and a draw.
    pub wd: u32,
    /// Two wins.
    pub ww: u32,
}

impl Penta {
    /// From the five counts of pair scores 0, ½, 1, 1½, 2 (`Ptnml(0-2)`);
    /// the middle count is stored as draws-draws.
    pub fn from_counts(c: [u32; 5]) -> Penta {
        Penta {
            ll: c[0],
            ld: c[1],
            wl: 0,
            dd: c[2],
            wd: c[3],
            ww: c[4],
        }
    }

    /// Counts a completed pair.
    pub fn add_pair(&mut self, a: Score, b: Score) {
        use Score::*;
        match (a, b) {
            (Loss, Loss) => self.ll += 1,
            (Loss, Draw) | (Draw, Loss) => self.ld += 1,
            (Win, Loss) | (Loss, Win) => self.wl += 1,
            (Draw, Draw) => self.dd += 1,
            (Win, Draw) | (Draw, Win) => self.wd += 1,
            (Win, Win) => self.ww += 1,
        }
    }

    /// The five counts of pair scores 0, ½, 1, 1½, 2.
    pub fn counts(&self) -> [u32; 5] {
        [self.ll, self.ld, self.wl + self.dd, self.wd, self.ww]
    }

    /// Completed pairs.
    pub fn pairs(&self) -> u32 {
        self.counts().iter().sum()
    }
}

/// Pair scores of the pentanomial model (per game).
const PENTA_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];
/// Game scores of the trinomial model.
const WDL_SCORES: [f64; 3] = [0.0, 0.5, 1.0];

/// Logistic Elo of an expected score.
pub fn score_to_elo(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Expected score of a logistic Elo difference.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function (Numerical Recipes' Chebyshev fit of erfc,
/// fractional error below 1.2e-7 everywhere).
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    // Horner's rule from the highest coefficient down, in the same order
    // of operations as the nested textbook form (which rustfmt takes
    // seconds to lay out).
    const COEFFS: [f64; 9] = [
        1.000_023_68,
        0.374_091_96,
        0.096_784_18,
        -0.186_288_06,
        0.278_868_07,
        -1.135_203_98,
        1.488_515_87,
        -0.822_152_23,
        0.170_872_77,
    ];
    let mut poly = COEFFS[8];
    for &c in COEFFS[..8].iter().rev() {
        poly = c + t * poly;
    }
    let r = t * (-z * z - 1.265_512_23 + t * poly).exp();
    if x >= 0.0 {
        1.0 - r
    } else {
        r - 1.0
    }
}

/// An Elo estimate with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EloEstimate {
    /// Mean score per game of the first engine (0–1).
    pub score: f64,
    /// Logistic Elo difference.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub lo: f64,
    /// Upper end of the 95% interval.
    pub hi: f64,
    /// Half the interval's width (what "Elo ± error" prints).
    pub error: f64,
    /// Normalized Elo.
    pub nelo: f64,
    /// Half width of the normalized Elo interval.
    pub nelo_error: f64,
    /// Likelihood of superiority of the first engine (0–1).
    pub los: f64,
}

fn mean_var(scores: &[f64], p: &[f64]) -> (f64, f64) {
    let mu: f64 = scores.iter().zip(p).map(|(a, q)| a * q).sum();
    let var = scores
        .iter()
        .zip(p)
        .map(|(a, q)| q * (a - mu) * (a - mu))
        .sum();
    (mu, var)
}

/// `samples` outcomes with the given frequencies; `var_scale` turns the
/// sample variance into the variance of one game's score (2 for pairs).
fn estimate(scores: &[f64], counts: &[u32], var_scale: f64) -> Option<EloEstimate> {
    let n: f64 = counts.iter().map(|&c| c as f64).sum();
    if n == 0.0 {
        return None;
    }
    let p: Vec<f64> = counts.iter().map(|&c| c as f64 / n).collect();
    let (s, var) = mean_var(scores, &p);
    let per = var / n;
    let (slo, shi) = (s - Z95 * per.sqrt(), s + Z95 * per.sqrt());
    let (lo, hi) = (score_to_elo(slo), score_to_elo(shi));
    let nelo_of = |x: f64| (x - 0.5) / (var_scale * var).sqrt() * (800.0 / 10f64.ln());
    let los = if per > 0.0 {
        0.5 * (1.0 + erf((s - 0.5) / (2.0 * per).sqrt()))
    } else if s > 0.5 {
        1.0
    } else if s < 0.5 {
        0.0
    } else {
        0.5
    };
    Some(EloEstimate {
        score: s,
        elo: score_to_elo(s),
        lo,
        hi,
        error: (hi - lo) / 2.0,
        nelo: nelo_of(s),
        nelo_error: (nelo_of(shi) - nelo_of(slo)) / 2.0,
        los,
    })
}

/// Elo from the pentanomial model (completed pairs only).
pub fn elo_pentanomial(p: &Penta) -> Option<EloEstimate> {
    estimate(&PENTA_SCORES, &p.counts(), 2.0)
}

/// Elo from the trinomial model (every game counted alone).
pub fn elo_wdl(w: &Wdl) -> Option<EloEstimate> {
    estimate(&WDL_SCORES, &[w.l, w.d, w.w], 1.0)
}

/// Which Elo the SPRT bounds are in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SprtModel {
    /// Logistic Elo (the expected score is fixed under each hypothesis).
    Logistic,
    /// Normalized Elo (fishtest, fastchess default).
    Normalized,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SprtStatus {
    /// Keep playing.
    Continue,
    /// The lower bound was crossed: H0 (elo ≤ elo0) accepted.
    H0,
    /// The upper bound was crossed: H1 (elo ≥ elo1) accepted.
    H1,
}

/// SPRT parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
    /// How elo0 and elo1 are read.
    pub model: SprtModel,
}

impl Sprt {
    /// Parses `elo0=0,elo1=5,alpha=0.05,beta=0.05[,model=normalized|logistic]`
    /// (commas or spaces between fields; missing fields take these defaults).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let mut s = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Normalized,
        };
        for field in text.split([',', ' ']).filter(|f| !f.is_empty()) {
            let (k, v) = field
                .split_once('=')
                .ok_or_else(|| format!("SPRT field '{field}' is not KEY=VALUE"))?;
            let num = || {
                v.parse::<f64>()
                    .map_err(|_| format!("SPRT {k}: '{v}' is not a number"))
            };
            match k {
                "elo0" => s.elo0 = num()?,
                "elo1" => s.elo1 = num()?,
                "alpha" => s.alpha = num()?,
                "beta" => s.beta = num()?,
                "model" => {
                    s.model = match v {
                        "normalized" => SprtModel::Normalized,
                        "logistic" => SprtModel::Logistic,
                        _ => return Err(format!("SPRT model '{v}' (normalized or logistic)")),
                    }
                }
                _ => return Err(format!("unknown SPRT field '{k}'")),
            }
        }
        if s.elo0 >= s.elo1 {
            return Err("SPRT: elo0 must be below elo1".into());
        }
        if !(s.alpha > 0.0 && s.beta > 0.0 && s.alpha + s.beta < 1.0) {
            return Err("SPRT: need 0 < alpha, 0 < beta, alpha + beta < 1".into());
        }
        Ok(s)
    }

    /// The (lower, upper) LLR bounds: ln(β/(1−α)), ln((1−β)/α).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The pentanomial log-likelihood ratio of H1 against H0.
    pub fn llr(&self, p: &Penta) -> f64 {
        let c = p.counts();
        if c.iter().sum::<u32>() == 0 {
            return 0.0;
        }
        let t = |elo: f64| 2f64.sqrt() * elo / (800.0 / 10f64.ln());
        self.llr_of(&PENTA_SCORES, &c, t(self.elo0), t(self.elo1))
    }

    /// The trinomial log-likelihood ratio (games counted alone).
    pub fn llr_wdl(&self, w: &Wdl) -> f64 {
        if w.games() == 0 {
            return 0.0;
        }
        let t = |elo: f64| elo / (800.0 / 10f64.ln());
        self.llr_of(&WDL_SCORES, &[w.l, w.d, w.w], t(self.elo0), t(self.elo1))
    }

    fn llr_of(&self, scores: &[f64], counts: &[u32], t0: f64, t1: f64) -> f64 {
        let reg: Vec<f64> = counts
            .iter()
            .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
            .collect();
        let n: f64 = reg.iter().sum();
        let phat: Vec<f64> = reg.iter().map(|c| c / n).collect();
        let (p0, p1) = match self.model {
            SprtModel::Logistic => (
                mle_score(scores, &phat, elo_to_score(self.elo0)),
                mle_score(scores, &phat, elo_to_score(self.elo1)),
            ),
            SprtModel::Normalized => (
                mle_normalized(scores, &phat, 0.5, t0),
                mle_normalized(scores, &phat, 0.5, t1),
            ),
        };
        n * phat
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|(q, (a, b))| q * (b.ln() - a.ln()))
            .sum::<f64>()
    }

    /// Whether a bound is crossed.
    pub fn status(&self, llr: f64) -> SprtStatus {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtStatus::H1
        } else if llr <= lo {
            SprtStatus::H0
        } else {
            SprtStatus::Continue
        }
    }
}

/// Solves Σ q_i·φ_i/(1 + θ·φ_i) = 0 for θ (decreasing in θ between the
/// poles) by bisection.
fn solve_theta(phat: &[f64], phi: &[f64]) -> Option<f64> {
    let u = phi.iter().cloned().fold(f64::INFINITY, f64::min);
    let v = phi.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    if !(u < 0.0 && v > 0.0) {
        return None;
    }
    let f = |x: f64| -> f64 {
        phat.iter()
            .zip(phi)
            .map(|(q, f)| q * f / (1.0 + x * f))
            .sum()
    };
    let (mut lo, mut hi) = (-1.0 / v, -1.0 / u);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

/// The distribution closest (maximum likelihood) to `phat` whose mean
/// score is `s`.
fn mle_score(scores: &[f64], phat: &[f64], s: f64) -> Vec<f64> {
    let phi: Vec<f64> = scores.iter().map(|a| a - s).collect();
    match solve_theta(phat, &phi) {
        Some(theta) => phat
            .iter()
            .zip(&phi)
            .map(|(q, f)| q / (1.0 + theta * f))
            .collect(),
        None => phat.to_vec(),
    }
}

/// The distribution closest to `phat` whose normalized score
/// (μ − μref)/σ is `t`, by the fixed-point iteration of Van den Bergh.
fn mle_normalized(scores: &[f64], phat: &[f64], mu_ref: f64, t: f64) -> Vec<f64> {
    let n = scores.len();
    let mut p = vec![1.0 / n as f64; n];
    for _ in 0..10_000 {
        let (mu, var) = mean_var(scores, &p);
        let sigma = var.sqrt();
        let phi: Vec<f64> = scores
            .iter()
            .map(|a| {
                let z = (a - mu) / sigma;
                a - mu_ref - 0.5 * t * sigma * (1.0 + z * z)
            })
            .collect();
        let Some(theta) = solve_theta(phat, &phi) else {
            return p;
        };
        let mut diff = 0.0f64;
        for i in 0..n {
            let q = phat[i] / (1.0 + theta * phi[i]);
            diff = diff.max((q - p[i]).abs());
            p[i] = q;
        }
        if diff < 1e-10 {
            break;
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn erf_values() {
        assert!(close(erf(0.0), 0.0, 1e-7));
        assert!(close(erf(1.0), 0.842_700_79, 1e-7));
        assert!(close(erf(-0.5), -0.520_499_88, 1e-7));
        assert!(close(erf(3.0), 0.999_977_91, 1e-7));
    }

    #[test]
    fn pairs_are_counted() {
        let mut p = Penta::default();
        p.add_pair(Score::Win, Score::Loss);
        p.add_pair(Score::Draw, Score::Draw);
        p.add_pair(Score::Draw, Score::Win);
        assert_eq!(p.counts(), [0, 0, 2, 1, 0]);
        assert_eq!(p.pairs(), 3);
    }

    #[test]
    fn sprt_parse_and_bounds() {
        let s = Sprt::parse("elo0=0,elo1=5,alpha=0.05,beta=0.05").unwrap();
        let (lo, hi) = s.bounds();
        assert!(close(lo, -2.944_438_979, 1e-8) && close(hi, 2.944_438_979, 1e-8));
        assert_eq!(Sprt::parse("elo0=0 elo1=5 alpha=0.05 beta=0.05"), Ok(s));
        assert!(Sprt::parse("elo0=5,elo1=0").is_err());
        assert!(Sprt::parse("elo0=0,elo1=5,alpha=0").is_err());
    }
}
