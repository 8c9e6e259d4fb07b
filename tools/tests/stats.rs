//! Elo, LOS and SPRT numbers checked against published fastchess and
//! cutechess output (the values they printed for the given counts).

use shuai_tools::stats::{elo_pentanomial, elo_wdl, Penta, Sprt, SprtStatus, Wdl};

fn near(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol,
        "{what}: got {got}, want {want} ± {tol}"
    );
}

/// fastchess prints `Elo: E +/- e, nElo: N +/- n` and `LOS: L %` with two
/// decimals for `Ptnml(0-2): [..]`.
fn check_fastchess(ptnml: [u32; 5], elo: f64, err: f64, nelo: f64, nerr: f64, los: Option<f64>) {
    let e = elo_pentanomial(&Penta::from_counts(ptnml)).unwrap();
    let tol = 0.006;
    near(e.elo, elo, tol, "elo");
    near(e.error, err, tol, "elo error");
    near(e.nelo, nelo, tol, "nelo");
    near(e.nelo_error, nerr, tol, "nelo error");
    if let Some(l) = los {
        near(e.los * 100.0, l, tol, "los");
    }
}

#[test]
fn pentanomial_elo_matches_fastchess() {
    // "Ptnml(0-2): [352, 579, 1264, 743, 464]  Elo: 19.83 +/- 6.77,
    // nElo: 24.25 +/- 8.26  LOS: 100.00 %"
    check_fastchess(
        [352, 579, 1264, 743, 464],
        19.83,
        6.77,
        24.25,
        8.26,
        Some(100.0),
    );
    // "Ptnml(0-2): [1, 10, 78, 48, 13]  Elo: 72.85 +/- 22.33,
    // nElo: 132.30 +/- 39.32  LOS: 100.00 %"
    check_fastchess(
        [1, 10, 78, 48, 13],
        72.85,
        22.33,
        132.30,
        39.32,
        Some(100.0),
    );
    // "Ptnml(0-2): [0, 0, 1, 8, 1]  Elo: 190.85 +/- 65.54,
    // nElo: 549.34 +/- 152.27"
    check_fastchess([0, 0, 1, 8, 1], 190.85, 65.54, 549.34, 152.27, None);
    // "Ptnml(0-2): [0, 1, 0, 1, 0]  Elo: -0.00 +/- 296.58,
    // nElo: 0.00 +/- 340.48  LOS: 50.00 %"
    check_fastchess([0, 1, 0, 1, 0], 0.0, 296.58, 0.0, 340.48, Some(50.0));
}

#[test]
fn trinomial_elo_matches_cutechess() {
    // cutechess-cli: "Score of midnight-dev vs midnight-latest: 449 - 276 - 275
    // [0.587] ... Elo difference: 60.7 +/- 18.5"
    let e = elo_wdl(&Wdl {
        w: 449,
        l: 276,
        d: 275,
    })
    .unwrap();
    near(e.elo, 60.7, 0.06, "elo");
    near(e.error, 18.5, 0.06, "error");
    // "382 - 320 - 298 [0.531] ... Elo difference: 21.6 +/- 18.1"
    let e = elo_wdl(&Wdl {
        w: 382,
        l: 320,
        d: 298,
    })
    .unwrap();
    near(e.elo, 21.6, 0.06, "elo");
    near(e.error, 18.1, 0.06, "error");
}

#[test]
fn sprt_llr_matches_fastchess() {
    // fastchess, normalized model: "Ptnml(0-2): [0, 0, 1, 8, 1] ...
    // LLR: 1.24 (42.1%) (-2.94, 2.94) [0.00, 50.00]"
    let s = Sprt::parse("elo0=0,elo1=50,alpha=0.05,beta=0.05").unwrap();
    let llr = s.llr(&Penta::from_counts([0, 0, 1, 8, 1]));
    near(llr, 1.24, 0.005, "llr");
    assert_eq!(s.status(llr), SprtStatus::Continue);
    // "Ptnml(0-2): [352, 579, 1264, 743, 464] ... LLR: 4.60 (100.0%)
    // (-4.60, 4.60) [9.00, 16.00]" and H1 accepted (alpha = beta = 0.01).
    let s = Sprt::parse("elo0=9 elo1=16 alpha=0.01 beta=0.01").unwrap();
    let (lo, hi) = s.bounds();
    near(lo, -4.60, 0.005, "lower bound");
    near(hi, 4.60, 0.005, "upper bound");
    let llr = s.llr(&Penta::from_counts([352, 579, 1264, 743, 464]));
    near(llr, 4.60, 0.05, "llr");
    assert!(llr >= hi, "{llr}");
    assert_eq!(s.status(llr), SprtStatus::H1);
}

#[test]
fn sprt_properties() {
    // Logistic model: for many balanced games the LLR approaches the
    // normal approximation N·(s1−s0)(2μ−s0−s1)/(2σ²).
    let s = Sprt::parse("elo0=0,elo1=5,model=logistic").unwrap();
    let p = Penta::from_counts([400, 2000, 5000, 2200, 450]);
    let n = p.pairs() as f64;
    let c = p.counts();
    let xs = [0.0, 0.25, 0.5, 0.75, 1.0];
    let mu: f64 = (0..5).map(|i| xs[i] * c[i] as f64).sum::<f64>() / n;
    let var: f64 = (0..5)
        .map(|i| c[i] as f64 * (xs[i] - mu).powi(2))
        .sum::<f64>()
        / n;
    let s0 = 0.5;
    let s1 = 1.0 / (1.0 + 10f64.powf(-5.0 / 400.0));
    let approx = n * (s1 - s0) * (2.0 * mu - s0 - s1) / (2.0 * var);
    near(
        s.llr(&p),
        approx,
        0.02 * approx.abs().max(1.0),
        "gsprt approximation",
    );
    // A better result raises the LLR; the mirror image lowers it.
    let worse = Penta::from_counts([450, 2200, 5000, 2000, 400]);
    assert!(s.llr(&worse) < 0.0 && s.llr(&p) > 0.0);
    // Bounds end the test.
    let strong = Penta::from_counts([0, 10, 100, 300, 200]);
    assert_eq!(s.status(s.llr(&strong)), SprtStatus::H1);
    let weak = Penta::from_counts([200, 300, 100, 10, 0]);
    assert_eq!(s.status(s.llr(&weak)), SprtStatus::H0);
}
