"""Calibration of the recommended WDL model on held-out games (every 10th game),
using the coefficients fit.py wrote to results.json.

usage: nice -n 10 python3 calib.py [DATA.bin] [results.json]
"""
import json
import sys

import numpy as np

import fit
import load

REC = "score + material [R2 H1 C1 (no A/E/P)] deg 3"


# score bins (cp, side to move) of the calibration tables
SCORE_EDGES = [-np.inf, -1500, -1000, -700, -500, -350, -250, -150, -75, -25, 25, 75, 150, 250, 350,
               500, 700, 1000, 1500, np.inf]
SCORE_LABELS = [f"{'−∞' if lo == -np.inf else int(lo)} … {'∞' if hi == np.inf else int(hi)}"
                for lo, hi in zip(SCORE_EDGES[:-1], SCORE_EDGES[1:])]


def table(title, key, values, edges, labels, pw, pd, pl, res, game):
    """Predicted against observed W/D/L per bin of `values` (one per position)."""
    print(f"\n{title}")
    print(f"| {key} | positions | games | predicted W/D/L ‰ | observed W/D/L ‰ |")
    print("|---|---:|---:|---|---|")
    for lo, hi, lab in zip(edges[:-1], edges[1:], labels):
        s = (values >= lo) & (values < hi)
        n = s.sum()
        if n == 0:
            continue
        p = [1000 * v[s].mean() for v in (pw, pd, pl)]
        o = [1000 * (res[s] == r).mean() for r in (1.0, 0.5, 0.0)]
        print(f"| {lab} | {n} | {len(np.unique(game[s]))} | "
              f"{p[0]:.0f} / {p[1]:.0f} / {p[2]:.0f} | {o[0]:.0f} / {o[1]:.0f} / {o[2]:.0f} |")


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "../../../train-data/r1/s5001.bin"
    rj = sys.argv[2] if len(sys.argv) > 2 else "results.json"
    R = {m["name"]: m for m in json.load(open(rj))["models"]}
    d = load.load(path)
    x = d["score"].astype(float)
    res, game = d["res"], d["game"]
    te = ((game % 10) == 9) & (np.abs(x) <= 10000)
    w = fit.MATERIAL_SCALES["R2 H1 C1 (no A/E/P)"]
    cnt = d["kind_counts"] @ w            # 2*rooks + horses + cannons, 0..16
    m = cnt / 16.0

    def pred(name, t):
        r = R[name]
        a = fit.poly(np.array(r["a"]), t)
        b = np.maximum(fit.poly(np.array(r["b"]), t), 1.0)
        return fit.probs(x, a, b)

    rec = R[REC]
    print("recommended:", REC)
    print("a(m) coefficients (m^0..m^3):", ", ".join(f"{c:.4f}" for c in rec["a"]))
    print("b(m) coefficients (m^0..m^3):", ", ".join(f"{c:.4f}" for c in rec["b"]))
    print("\n| count (2R+H+C) | share of positions | a (cp) | b (cp) | W/D/L ‰ at 0 | at +100 | at +300 |")
    print("|---:|---:|---:|---:|---|---|---|")
    for c in range(17):
        mm = np.array([c / 16.0])
        a = fit.poly(np.array(rec["a"]), mm)[0]
        b = fit.poly(np.array(rec["b"]), mm)[0]
        cells = []
        for s in (0, 100, 300):
            pw, pd, pl = fit.probs(np.array([s]), a, b)
            cells.append(f"{1000*pw[0]:.0f}/{1000*pd[0]:.0f}/{1000*pl[0]:.0f}")
        print(f"| {c} | {100*(cnt==c).mean():.1f}% | {a:.1f} | {b:.1f} | " + " | ".join(cells) + " |")

    # paired comparisons on held-out games, clustered by game
    def nll(name, t):
        return fit.nll_terms(*[v[te] for v in pred(name, t)], res[te])
    covs = {"none": np.zeros_like(x), "ply": np.minimum(d["ply"], 300) / 100.0}
    for k, ww in fit.MATERIAL_SCALES.items():
        covs["mat:" + k] = d["kind_counts"] @ ww / fit.MAT_FULL[k]
    lrec = nll(REC, m)
    print("\nheld-out NLL difference, other model minus recommended (game-clustered SE):")
    for name in ["score only", "score + material [R13 H6 C6 A2 E2 P1] deg 3",
                 "score + material [R2 H1 C1 (no A/E/P)] deg 2", "score + ply deg 3"]:
        dd = nll(name, covs[R[name]["cov"]]) - lrec
        print(f"  {name:50s} {dd.mean():+.5f} ({fit.clustered_se(dd, game[te]):.5f})")

    pw, pd, pl = [v[te] for v in pred(REC, m)]
    r, g = res[te], game[te]
    print(f"\nheld-out: {te.sum()} positions, {len(np.unique(g))} games; "
          f"NLL {fit.nll_terms(pw, pd, pl, r).mean():.5f}, Brier {fit.brier_terms(pw, pd, pl, r).mean():.5f}")
    print(f"overall predicted W/D/L ‰ {1000*pw.mean():.0f}/{1000*pd.mean():.0f}/{1000*pl.mean():.0f}, "
          f"observed {1000*(r==1).mean():.0f}/{1000*(r==.5).mean():.0f}/{1000*(r==0).mean():.0f}")

    table("Calibration by score (cp, side to move), held-out games:", "score bin", x[te],
          SCORE_EDGES, SCORE_LABELS, pw, pd, pl, r, g)
    edges = [0, .02, .05, .1, .2, .3, .4, .5, .6, .7, .8, .9, .95, .98, 1.0001]
    labels = [f"{100*lo:.0f}–{100*min(hi,1):.0f}%" for lo, hi in zip(edges[:-1], edges[1:])]
    table("Calibration by predicted win chance, held-out games:", "predicted win", pw,
          edges, labels, pw, pd, pl, r, g)
    edges = [0, .1, .2, .3, .4, .5, .6, .7, .8, 1.0001]
    labels = [f"{100*lo:.0f}–{100*min(hi,1):.0f}%" for lo, hi in zip(edges[:-1], edges[1:])]
    table("Calibration by predicted draw chance, held-out games:", "predicted draw", pd,
          edges, labels, pw, pd, pl, r, g)
    edges = [0, 3, 5, 7, 9, 11, 13, 15, 17]
    labels = ["0–2", "3–4", "5–6", "7–8", "9–10", "11–12", "13–14", "15–16"]
    table("Calibration by material count (2R+H+C), held-out games:", "count", cnt[te],
          edges, labels, pw, pd, pl, r, g)
    # score-only model by material, for contrast
    qw, qd, ql = [v[te] for v in pred("score only", m)]
    table("Same bins, score-only model (for contrast):", "count", cnt[te],
          edges, labels, qw, qd, ql, r, g)


if __name__ == "__main__":
    main()
