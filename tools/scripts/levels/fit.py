"""Fit one Elo rating per player to the strength-level calibration matches.

Reads the JSON reports that `calibrate.sh` writes (`shuai-tools match
--json`), treats every game as a result between the two named players
(levels `lvN`, anchors `ee-dN`), and finds the ratings of maximum likelihood
under the logistic Elo model, E = 1 / (1 + 10^(-(Ra - Rb) / 400)), with a
draw counted as half a win for each side. The scale is fixed by one anchor
(default: ElephantEye 3.31 at depth 3 = 1500). Standard errors come from
the inverse of the likelihood's curvature (the Fisher information).

usage: python3 fit.py DIR [--anchor ee-d3=1500]

Prints a table of players with rating and ±95% interval (relative to the
anchor), the steps between neighbouring levels with their own intervals,
and the observed against the fitted score of every match.
"""
import glob
import json
import math
import sys

import numpy as np

K = math.log(10) / 400.0


def load(directory):
    """(player a, player b, points of a, games) for every match report."""
    matches = []
    for path in sorted(glob.glob(f"{directory}/*.json")):
        if path.endswith(".tmp.json"):
            continue
        with open(path) as f:
            r = json.load(f)
        a, b = r["engines"]
        matches.append((a, b, float(r["points"]), int(r["games_played"])))
    return matches


def fit(matches, anchor, anchor_elo):
    players = sorted({p for m in matches for p in m[:2]})
    index = {p: i for i, p in enumerate(players)}
    free = [p for p in players if p != anchor]
    col = {p: i for i, p in enumerate(free)}
    r = np.zeros(len(players))
    r[index[anchor]] = anchor_elo
    for _ in range(100):
        grad = np.zeros(len(free))
        info = np.zeros((len(free), len(free)))
        for a, b, pts, n in matches:
            e = 1.0 / (1.0 + math.exp(-K * (r[index[a]] - r[index[b]])))
            g = K * (pts - n * e)
            h = K * K * n * e * (1.0 - e)
            for p, sign in ((a, 1.0), (b, -1.0)):
                if p in col:
                    grad[col[p]] += sign * g
            for p, q, sign in ((a, a, 1.0), (b, b, 1.0), (a, b, -1.0), (b, a, -1.0)):
                if p in col and q in col:
                    info[col[p], col[q]] += sign * h
        # A little damping keeps players with all-won or all-lost matches finite.
        step = np.linalg.solve(info + 1e-9 * np.eye(len(free)), grad)
        step = np.clip(step, -200, 200)
        for p in free:
            r[index[p]] += step[col[p]]
        if np.max(np.abs(step)) < 1e-6:
            break
    cov = np.linalg.inv(info)
    def var(p, q):
        return cov[col[p], col[q]] if p in col and q in col else 0.0

    err = {p: 1.96 * math.sqrt(var(p, p)) for p in players}

    def step_err(p, q):
        return 1.96 * math.sqrt(max(var(p, p) + var(q, q) - 2 * var(p, q), 0.0))

    return {p: r[index[p]] for p in players}, err, step_err


def order(p):
    kind, _, num = p.partition("-d") if p.startswith("ee") else ("lv", "", p[2:])
    return (kind != "lv", int(num) if num.isdigit() else 0)


def main():
    args = sys.argv[1:]
    anchor, anchor_elo = "ee-d3", 1500.0
    if "--anchor" in args:
        i = args.index("--anchor")
        name, _, value = args[i + 1].partition("=")
        anchor, anchor_elo = name, float(value)
        del args[i : i + 2]
    matches = load(args[0])
    ratings, err, step_err = fit(matches, anchor, anchor_elo)
    print(f"{'player':<8} {'Elo':>6} {'±95%':>6}   (anchor {anchor} = {anchor_elo:.0f})")
    for p in sorted(ratings, key=order):
        print(f"{p:<8} {ratings[p]:6.0f} {err[p]:6.0f}")
    print()
    levels = sorted((p for p in ratings if p.startswith("lv")), key=order)
    print("steps between neighbouring levels (their own ±95%, free of the anchor's chain):")
    for p, q in zip(levels, levels[1:]):
        print(f"  {p} -> {q}: {ratings[q] - ratings[p]:+5.0f} ± {step_err(p, q):3.0f}")
    print()
    print(f"{'match':<18} {'games':>5} {'observed':>9} {'fitted':>7}")
    for a, b, pts, n in matches:
        e = 1.0 / (1.0 + math.exp(-K * (ratings[a] - ratings[b])))
        print(f"{a + ' v ' + b:<18} {n:5d} {pts / n:9.3f} {e:7.3f}")


if __name__ == "__main__":
    main()
