"""Fit Stockfish-style win/draw/loss models to Shuai's self-play data.

  p_win  = 1 / (1 + exp((a - x) / b))
  p_loss = 1 / (1 + exp((a + x) / b))
  p_draw = 1 - p_win - p_loss
x: search score in cp, side to move's view; a, b: constants or polynomials
in a covariate (material or move number).  Maximum likelihood on the
training games, evaluated on held-out games (every 10th game).

usage: nice -n 10 python3 fit.py [DATA.bin] [--out results.json]
"""
import json
import sys

import numpy as np
from scipy.optimize import minimize

import load

# material weights per kind: king, advisor, elephant, horse, rook, cannon, pawn
MATERIAL_SCALES = {
    "R13 H6 C6 A2 E2 P1": np.array([0, 2, 2, 6, 13, 6, 1]),
    "R9 H4 C4.5 A2 E2 P1": np.array([0, 2, 2, 4, 9, 4.5, 1]),
    "pieces (all 1)": np.array([0, 1, 1, 1, 1, 1, 1]),
    "R2 H1 C1 (no A/E/P)": np.array([0, 0, 0, 1, 2, 1, 0]),
}
MAT_FULL = {k: float(w @ np.array([2, 4, 4, 4, 4, 4, 10])) for k, w in MATERIAL_SCALES.items()}

S = 100.0  # internal unit: 100 cp


def probs(x, a, b):
    """x, a, b in cp (arrays); returns (pw, pd, pl)."""
    pw = 1.0 / (1.0 + np.exp((a - x) / b))
    pl = 1.0 / (1.0 + np.exp((a + x) / b))
    pd = 1.0 - pw - pl
    return pw, pd, pl


def poly(c, t):
    # c[0] + c[1] t + c[2] t^2 ...  (Horner)
    r = np.zeros_like(t) + c[-1]
    for k in c[-2::-1]:
        r = r * t + k
    return r


class Model:
    def __init__(self, name, deg_a, deg_b, cov=None):
        self.name, self.deg_a, self.deg_b, self.cov = name, deg_a, deg_b, cov
        self.theta = None

    def ab(self, theta, t):
        ca = theta[: self.deg_a + 1] * S
        cb = theta[self.deg_a + 1:] * S
        a = poly(ca, t)
        b = poly(cb, t)
        return a, b

    def coeffs(self):
        ca = self.theta[: self.deg_a + 1] * S
        cb = self.theta[self.deg_a + 1:] * S
        return ca, cb

    def predict(self, x, t):
        a, b = self.ab(self.theta, t)
        return probs(x, a, np.maximum(b, 1.0))


def nll_terms(pw, pd, pl, res):
    eps = 1e-12
    p = np.where(res == 1.0, pw, np.where(res == 0.0, pl, pd))
    return -np.log(np.clip(p, eps, 1.0))


def brier_terms(pw, pd, pl, res):
    ow = (res == 1.0).astype(float)
    od = (res == 0.5).astype(float)
    ol = (res == 0.0).astype(float)
    return (pw - ow) ** 2 + (pd - od) ** 2 + (pl - ol) ** 2


def fit(model, x, t, res):
    def f(theta):
        a, b = model.ab(theta, t)
        if np.any(b <= 1.0):
            return 1e30
        pw, pd, pl = probs(x, a, b)
        return nll_terms(pw, pd, pl, res).mean()

    theta0 = np.zeros(model.deg_a + model.deg_b + 2)
    theta0[0] = 2.0
    theta0[model.deg_a + 1] = 1.5
    r = minimize(f, theta0, method="Nelder-Mead" if len(theta0) <= 2 else "BFGS",
                 options={"maxiter": 20000, "gtol": 1e-9} if len(theta0) > 2 else
                 {"maxiter": 20000, "xatol": 1e-8, "fatol": 1e-12})
    # polish with Nelder-Mead from BFGS's point (finite differences can stall)
    r2 = minimize(f, r.x, method="Nelder-Mead",
                  options={"maxiter": 40000, "xatol": 1e-9, "fatol": 1e-13, "adaptive": True})
    model.theta = r2.x if r2.fun <= r.fun else r.x
    return model


def clustered_se(per_pos, game):
    """Standard error of the mean over positions, clustered by game."""
    g = game.astype(np.int64)
    tot = np.bincount(g, per_pos)
    cnt = np.bincount(g)
    keep = cnt > 0
    tot, cnt = tot[keep], cnt[keep]
    n = cnt.sum()
    mean = tot.sum() / n
    resid = tot - mean * cnt
    return np.sqrt((resid ** 2).sum() * len(tot) / (len(tot) - 1)) / n


def main():
    args = sys.argv[1:]
    out = "results.json"
    if "--out" in args:
        i = args.index("--out")
        out = args[i + 1]
        del args[i:i + 2]
    path = args[0] if args else "../../../train-data/r1/s5001.bin"
    d = load.load(path)
    print(d["note"])
    x = d["score"].astype(float)
    res = d["res"]
    game = d["game"]
    ok = np.abs(x) <= 10000
    hold = (game % 10) == 9
    tr, te = ok & ~hold, ok & hold
    print(f"positions {len(x)} (|score|>10000 dropped: {(~ok).sum()}), "
          f"train {tr.sum()} in {len(np.unique(game[tr]))} games, "
          f"held out {te.sum()} in {len(np.unique(game[te]))} games")

    covs = {}
    for k, w in MATERIAL_SCALES.items():
        covs["mat:" + k] = d["kind_counts"] @ w / MAT_FULL[k]
    covs["ply"] = np.minimum(d["ply"], 300) / 100.0
    covs["none"] = np.zeros_like(x)

    models = [Model("hand-chosen a=100 b=80 (current terminal)", 0, 0, "none")]
    models[0].theta = np.array([1.0, 0.8])
    specs = [("score only", 0, 0, "none")]
    for k in MATERIAL_SCALES:
        for deg in (1, 2, 3):
            specs.append((f"score + material [{k}] deg {deg}", deg, deg, "mat:" + k))
    for deg in (1, 2, 3):
        specs.append((f"score + ply deg {deg}", deg, deg, "ply"))
    for name, da, db, cov in specs:
        m = fit(Model(name, da, db, cov), x[tr], covs[cov][tr], res[tr])
        models.append(m)

    # baseline: outcome frequencies only
    fw, fd, fl = [(res[tr] == v).mean() for v in (1.0, 0.5, 0.0)]
    base_te = nll_terms(np.full(te.sum(), fw), np.full(te.sum(), fd), np.full(te.sum(), fl), res[te])

    ref = None
    rows = []
    print(f"\nbaseline (frequencies only) held-out NLL {base_te.mean():.5f}")
    print(f"{'model':52s} {'train NLL':>10s} {'test NLL':>10s} {'test Brier':>10s} {'dNLL vs score-only (SE)':>24s}")
    for m in models:
        t = covs[m.cov]
        ptr = m.predict(x[tr], t[tr])
        pte = m.predict(x[te], t[te])
        ltr = nll_terms(*ptr, res[tr])
        lte = nll_terms(*pte, res[te])
        bte = brier_terms(*pte, res[te])
        if m.name == "score only":
            ref = lte
        diff = ""
        if ref is not None and m.name != "score only":
            dd = lte - ref
            diff = f"{dd.mean():+.5f} ({clustered_se(dd, game[te]):.5f})"
        ca, cb = m.coeffs()
        rows.append(dict(name=m.name, cov=m.cov, a=list(ca), b=list(cb),
                         train_nll=ltr.mean(), test_nll=lte.mean(), test_brier=bte.mean(),
                         test_nll_se=clustered_se(lte, game[te]),
                         d_test_nll_vs_score_only=(lte - ref).mean() if ref is not None else None,
                         d_se=clustered_se(lte - ref, game[te]) if ref is not None else None))
        print(f"{m.name:52s} {ltr.mean():10.5f} {lte.mean():10.5f} {bte.mean():10.5f} {diff:>24s}")
        print(f"{'':6s}a = {np.array2string(ca, precision=4, max_line_width=200)}  "
              f"b = {np.array2string(cb, precision=4, max_line_width=200)}")
    json.dump(dict(data=path, note=d["note"], base_test_nll=base_te.mean(),
                   freq=[fw, fd, fl], models=rows), open(out, "w"), indent=1)


if __name__ == "__main__":
    main()
