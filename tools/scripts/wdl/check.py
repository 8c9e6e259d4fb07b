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

import calib
import load
from fit import MATERIAL_SCALES, nll_terms, poly, probs

ATTACKERS = MATERIAL_SCALES["R2 H1 C1 (no A/E/P)"]  # 2·rooks + horses + cannons


def shipped_coefficients(path):
    """WDL_AS and WDL_BS as the engine's source states them."""
    text = open(path).read()

    def array(name):
        m = re.search(name + r": \[f64; 4\] = \[([^\]]*)\]", text)
        if not m:
            sys.exit(f"{path}: no {name}")
        return [float(v) for v in m.group(1).split(",") if v.strip()]

    return array("WDL_AS"), array("WDL_BS")


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
    calib.table("Calibration by score (cp, side to move), all positions:", "score bin", x[ok],
                calib.SCORE_EDGES, calib.SCORE_LABELS, pw[ok], pd[ok], pl[ok], res[ok], game[ok])
    p = [round(1000 * v[ok].mean()) for v in (pw, pd, pl)]
    o = [round(1000 * (res[ok] == v).mean()) for v in (1.0, 0.5, 0.0)]
    print(f"\noverall predicted {p[0]}/{p[1]}/{p[2]} ‰, observed {o[0]}/{o[1]}/{o[2]} ‰")


if __name__ == "__main__":
    main()
