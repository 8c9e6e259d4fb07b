#!/usr/bin/env python3
"""Compare Shuai's endgame tables with Felicity EGTB's, position by position.

Felicity EGTB (https://github.com/nguyenpham/FelicityEgtb, MIT) is an
independent generator and prober of Xiangqi distance-to-mate tables. Neither
its code nor its files are part of Shuai: build its Xiangqi program
yourself, outside this repository, generate the endings there, and give this
script the program and the directory of its files. Shuai's side comes from
`shuai-tools egtb dump` (every legal position of an ending, or a random
sample, with its value).

For each ending the positions are sent to Felicity's `-fenfile` probe, one
FEN a line, and its answer (`score: S`) is read back. Felicity's score is
from the side to move's view: 0 a draw, 1000 - n a win in n plies, -(1000 - n)
a loss in n plies (-1000: no legal move now), and 1004-1007 illegal,
unknown, missing, unset. Shuai's values are in plies too (`win N`, `loss N`,
`draw`), so the two are compared exactly: win/draw/loss, and for wins and
losses the number of plies. Both score a position without a legal move as
lost (checkmate and stalemate alike). Felicity has no result by the
perpetual-check rule (its Xiangqi generator does not look at cycles; a
position it cannot decide stays a draw), so Shuai's `win-by-rule` and
`loss-by-rule` positions are counted apart and printed with Felicity's value,
not as disagreements. Felicity writes an ending with no attacking piece as a
draw without a table; Shuai generates those endings, so this matters only if
Shuai found a mate there.

Prints one line per ending (positions compared, win/draw/loss agreement,
distance agreement) and the first disagreements; `--out FILE` writes every
disagreement as tab-separated FEN, Shuai's value, Felicity's score. Exits 1
when any position disagrees.

Example (the Felicity program and files built and generated outside the
repository):

    tools/scripts/crosscheck_felicity.py KRK,KRKA,KHKAE \\
        --shuai-tools target/release/shuai-tools --shuai-dir /tmp/egtb \\
        --felicity /opt/felicity/fegtbxq --felicity-dir /opt/felicity/db
"""
import argparse
import os
import subprocess
import sys
import tempfile

# Felicity's special scores (src/fegtb/egtb.h).
MATE = 1000
SPECIAL = {1004: "illegal", 1005: "unknown", 1006: "missing", 1007: "unset"}


def felicity_name(ending):
    """Felicity's name of a Shuai ending: lower case, horse n, elephant b."""
    return ending.upper().replace("H", "N").replace("E", "B").lower()


def felicity_value(score):
    """(kind, plies) of a Felicity score for the side to move."""
    if score in SPECIAL:
        return (SPECIAL[score], None)
    if score == 0:
        return ("draw", None)
    if 0 < score <= MATE:
        return ("win", MATE - score)
    if -MATE <= score < 0:
        return ("loss", MATE + score)
    return ("bad", score)


def shuai_value(text):
    """(kind, plies) of a value printed by `shuai-tools egtb dump`."""
    parts = text.split()
    return (parts[0], int(parts[1]) if len(parts) > 1 else None)


def dump(args, ending):
    """Shuai's (FEN, value text) pairs of an ending."""
    cmd = [args.shuai_tools, "egtb", "dump", ending, "--dir", args.shuai_dir,
           "--sample", str(args.sample), "--seed", str(args.seed)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return [tuple(line.split("\t")) for line in out.splitlines() if line]


def felicity_scores(args, fens):
    """Felicity's score of each FEN (None where it printed none)."""
    with tempfile.NamedTemporaryFile("w", suffix=".fen", delete=False) as f:
        f.write("".join(fen + "\n" for fen in fens))
        path = f.name
    try:
        proc = subprocess.Popen(
            [args.felicity, "-d", args.felicity_dir, "-fenfile", path],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            errors="replace")
        scores = [None] * len(fens)
        boards = [fen.split()[0] for fen in fens]
        at = 0          # the next input FEN to match
        current = None  # the input FEN the last "Board to probe" stands for
        expect_fen = False
        for line in proc.stdout:
            if expect_fen:
                expect_fen = False
                board = line.split()[0] if line.strip() else ""
                # Felicity skips FENs it finds invalid: find this board
                # among the inputs still to come.
                current = None
                for k in range(at, len(boards)):
                    if boards[k] == board:
                        current, at = k, k + 1
                        break
            elif line.startswith("Board to probe"):
                expect_fen = True
            elif line.startswith("score: ") and current is not None:
                scores[current] = int(line[len("score: "):].split(",")[0])
                current = None
        proc.wait()
    finally:
        os.unlink(path)
    return scores


def compare(args, ending, report):
    rows = dump(args, ending)
    scores = felicity_scores(args, [fen for fen, _ in rows])
    n = {"positions": len(rows), "wdl": 0, "dtm_pairs": 0, "dtm": 0, "rule": 0,
         "no_score": 0, "wrong": 0}
    rule_values = {}
    shown = 0
    for (fen, text), score in zip(rows, scores):
        kind, plies = shuai_value(text)
        if score is None:
            n["no_score"] += 1
            fkind, fplies = ("none", None)
        else:
            fkind, fplies = felicity_value(score)
        if kind in ("win-by-rule", "loss-by-rule"):
            n["rule"] += 1
            key = f"{kind} / Felicity {fkind}"
            rule_values[key] = rule_values.get(key, 0) + 1
            continue
        ok = kind == fkind
        if ok:
            n["wdl"] += 1
            if plies is not None:
                n["dtm_pairs"] += 1
                if plies == fplies:
                    n["dtm"] += 1
                else:
                    ok = False
        if not ok:
            n["wrong"] += 1
            report.append((fen, text, score))
            if shown < args.show:
                shown += 1
                print(f"  {ending}: {fen}  Shuai {text}, Felicity {score} "
                      f"({fkind}{'' if fplies is None else ' ' + str(fplies)})")
    decided = n["positions"] - n["rule"]
    print(f"{ending} ({felicity_name(ending)}): {n['positions']} positions, "
          f"win/draw/loss agree {n['wdl']}/{decided}, "
          f"plies to mate agree {n['dtm']}/{n['dtm_pairs']} of the wins and losses, "
          f"{n['wrong']} disagree"
          + (f", {n['no_score']} without a Felicity score" if n["no_score"] else "")
          + (f", {n['rule']} by the perpetual-check rule ("
             + ", ".join(f"{v} {k}" for k, v in sorted(rule_values.items())) + ")"
             if n["rule"] else ""))
    sys.stdout.flush()
    return n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("endings", help="Shuai ending names, comma-separated (KRKA,KHKAE)")
    ap.add_argument("--shuai-tools", default="target/release/shuai-tools")
    ap.add_argument("--shuai-dir", required=True, help="Shuai's .egtb files")
    ap.add_argument("--felicity", required=True, help="Felicity's Xiangqi program")
    ap.add_argument("--felicity-dir", required=True, help="Felicity's generated files")
    ap.add_argument("--sample", type=int, default=0,
                    help="random positions per ending (0: every position)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--show", type=int, default=10,
                    help="disagreements printed per ending")
    ap.add_argument("--out", help="write every disagreement to this file")
    args = ap.parse_args()

    totals = {}
    report = []
    endings = [e for e in args.endings.split(",") if e]
    for ending in endings:
        n = compare(args, ending, report)
        for k, v in n.items():
            totals[k] = totals.get(k, 0) + v
    print(f"total: {len(endings)} endings, {totals['positions']} positions, "
          f"win/draw/loss agree {totals['wdl']}/{totals['positions'] - totals['rule']}, "
          f"plies to mate agree {totals['dtm']}/{totals['dtm_pairs']}, "
          f"{totals['wrong']} disagree, {totals['rule']} by the perpetual-check rule")
    if args.out:
        with open(args.out, "w") as f:
            for fen, text, score in report:
                f.write(f"{fen}\t{text}\t{score}\n")
    return 1 if totals["wrong"] else 0


if __name__ == "__main__":
    sys.exit(main())
