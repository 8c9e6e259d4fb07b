"""Score the model the engine ships (engine/src/wdl.rs) on another data file.

The network's score scale can move from one round to the next; this tells
whether the fitted model still holds on the current network's games before
anyone refits it.  Every position of DATA.bin is out of sample for the
shipped model (it was fitted on other games), and every tenth game is also
reported alone so the figure compares with fit.py's held-out column.

usage: nice -n 10 python3 check.py DATA.bin [path/to/wdl.rs]
"""
import re
import sys

import numpy as np

import load
from fit import nll_terms, poly, probs

EDGES = [-np.inf, -1500, -1000, -700, -500, -350, -250, -150, -75, -25, 25,
         75, 150, 250, 350, 500, 700, 1000, 1500, np.inf]
ATTACKERS = np.array([0, 0, 0, 1, 2, 1, 0])  # 2·rooks + horses + cannons


def shipped_coefficients(path):
    """WDL_AS and WDL_BS as the engine's source states them."""
    text = open(path).read()

    def array(name):
        m = re.search(name + r": \[f64; 4\] = \[([^\]]*)\]", text)
        if not m:
            sys.exit(f"{path}: no {name}")
        return [float(v) for v in m.group(1).split(",") if v.strip()]

    return array("WDL_AS"), array("WDL_BS")


def label(lo, hi):
    left = "−∞" if np.isinf(lo) else str(int(lo))
    right = "∞" if np.isinf(hi) else str(int(hi))
    return f"{left} … {right}"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    source = sys.argv[2] if len(sys.argv) > 2 else "../../../engine/src/wdl.rs"
    a_coef, b_coef = shipped_coefficients(source)
    d = load.load(sys.argv[1])
    print(d["note"])
    x = d["score"].astype(float)
    res, game = d["res"], d["game"]
    ok = np.abs(x) <= 10000
    m = d["kind_counts"] @ ATTACKERS / 16.0
    pw, pd, pl = probs(x, poly(a_coef, m), poly(b_coef, m))
    every_tenth = ok & ((game % 10) == 9)
    for name, s in (("all positions", ok), ("every tenth game", every_tenth)):
        nll = nll_terms(pw[s], pd[s], pl[s], res[s]).mean()
        print(f"{name}: {s.sum()} positions in {len(np.unique(game[s]))} games, "
              f"mean log-loss {nll:.5f} nats")
    print("\n| score bin | positions | predicted W/D/L ‰ | observed W/D/L ‰ |")
    print("|---|---:|---|---|")
    for lo, hi in zip(EDGES[:-1], EDGES[1:]):
        k = ok & (x >= lo) & (x < hi)
        if not k.any():
            continue
        p = [round(1000 * v[k].mean()) for v in (pw, pd, pl)]
        o = [round(1000 * (res[k] == v).mean()) for v in (1.0, 0.5, 0.0)]
        print(f"| {label(lo, hi)} | {k.sum()} | {p[0]} / {p[1]} / {p[2]} | {o[0]} / {o[1]} / {o[2]} |")
    p = [round(1000 * v[ok].mean()) for v in (pw, pd, pl)]
    o = [round(1000 * (res[ok] == v).mean()) for v in (1.0, 0.5, 0.0)]
    print(f"\noverall predicted {p[0]}/{p[1]}/{p[2]} ‰, observed {o[0]}/{o[1]}/{o[2]} ‰")


if __name__ == "__main__":
    main()
