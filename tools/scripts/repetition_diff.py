#!/usr/bin/env python3
"""Differential test of Shuai's Asian repetition book against pyffish.

Makes repetition cycles (issue 46) and judges each one twice: by
`shuai-tools suite --rules asian` (Shuai's rules code, one batch) and by
Fairy-Stockfish's Asian-rule judge through pyffish (`pip install pyffish`,
`is_optional_game_end` on the xiangqi variant). Every disagreement is
classified and the counts are printed by kind.

Cycles come from two sources:

* made here: random middlegame and endgame positions (random play from the
  start position, captures preferred so that material thins out), in which
  each side moves one piece back and forth (4-ply cycles) or two pieces
  back and forth (8-ply cycles), the moves picked with a bias towards
  checks and moves whose piece then attacks an enemy piece, so that
  checks, chases, mate threats and idle moves mix;
* games (`--pgn FILE`, shuai-tools match PGNs in ICCS) that ended in a
  repetition, cut at the first of the three occurrences.

Each cycle is given to both judges from the position where it starts,
played to the third occurrence: pyffish 0.0.90 also charges the move that
entered a cycle, so judging from the cycle's start keeps the comparison to
the cycle itself (see crosscheck_pyffish.py). Moves are ICCS with ranks
0-9 for Shuai and 1-10 for pyffish.

A disagreement is classified by who the two judges convict and by what
Shuai's explanation says of the convicted side's moves; a chase Shuai
sees is further described by where its attack came from, worked out on
the board here: `new` (the moved piece's new attack), `line` (a rook or
cannon attacking along the line it moved on), `discovered` (another piece
whose attack the move uncovered or made), `stood` (an attack that stood
before the move, by a piece that did not move), `mutual` (the victim is of
the attacker's kind and attacks it back).

    python3 tools/scripts/repetition_diff.py --cycles 10000 \\
        --tools target/release/shuai-tools [--pgn games.pgn ...] [--show 5]

Issue 46 (seed 46, 10,000 made cycles and the repetition endings of the
/work/exp match PGNs, about 3 minutes on a loaded machine): 8
disagreements before the fix (4 perpetual chases Shuai saw in attacks
that stood, 4 idle moves along the line of a standing attack that pyffish
calls chases), 4 after (the latter kind, decided against pyffish in the
module docs of board/src/rules).
"""
import argparse
import collections
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time

import pyffish as sf

V = "xiangqi"
START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


# ----- notation ----------------------------------------------------------

def sq_parse(text):
    """'h10' (pyffish) -> (7, 9)."""
    return ord(text[0]) - 97, int(text[1:]) - 1


def split_move(m):
    """pyffish move 'h3h10' -> ((7, 2), (7, 9))."""
    i = 1
    while m[i].isdigit():
        i += 1
    return sq_parse(m[:i]), sq_parse(m[i:])


def to_shuai(m):
    (f1, r1), (f2, r2) = split_move(m)
    return f"{chr(97 + f1)}{r1}{chr(97 + f2)}{r2}"


def to_ffish(m):
    """ICCS with ranks 0-9 -> pyffish with ranks 1-10."""
    return f"{m[0]}{int(m[1]) + 1}{m[2]}{int(m[3]) + 1}"


def reverse(m):
    a, b = split_move(m)
    return f"{chr(97 + b[0])}{b[1] + 1}{chr(97 + a[0])}{a[1] + 1}"


# ----- the board, for classifying ----------------------------------------

def board_of(fen):
    """{(file, rank): piece letter}, rank 0 at Red's side, uppercase Red."""
    board = {}
    for i, row in enumerate(fen.split()[0].split("/")):
        rank, f = 9 - i, 0
        for c in row:
            if c.isdigit():
                f += int(c)
            else:
                board[(f, rank)] = c
                f += 1
    return board


def red(p):
    return p.isupper()


def on_board(f, r):
    return 0 <= f < 9 and 0 <= r < 10


def attacks(board, s):
    """Points the piece on s attacks (pseudo-legally, own pieces excluded)."""
    p = board[s]
    k, f, r, out = p.lower(), s[0], s[1], []
    if k in "rc":
        for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            x, y, screens = f + df, r + dr, 0
            while on_board(x, y):
                if (x, y) in board:
                    if (k == "r" and screens == 0) or (k == "c" and screens == 1):
                        out.append((x, y))
                        break
                    screens += 1
                    if screens > 1:
                        break
                x, y = x + df, y + dr
    elif k == "n":
        for df, dr in ((1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)):
            leg = (f + (df // 2 if abs(df) == 2 else 0), r + (dr // 2 if abs(dr) == 2 else 0))
            if on_board(f + df, r + dr) and leg not in board:
                out.append((f + df, r + dr))
    elif k == "b":
        for df, dr in ((2, 2), (2, -2), (-2, 2), (-2, -2)):
            x, y = f + df, r + dr
            own = y <= 4 if red(p) else y >= 5
            if on_board(x, y) and own and (f + df // 2, r + dr // 2) not in board:
                out.append((x, y))
    elif k in "ak":
        steps = ((1, 1), (1, -1), (-1, 1), (-1, -1)) if k == "a" else ((1, 0), (-1, 0), (0, 1), (0, -1))
        for df, dr in steps:
            x, y = f + df, r + dr
            palace = 3 <= x <= 5 and (y <= 2 if red(p) else y >= 7)
            if palace:
                out.append((x, y))
    elif k == "p":
        fwd = 1 if red(p) else -1
        out.append((f, r + fwd))
        if (r >= 5) if red(p) else (r <= 4):
            out += [(f - 1, r), (f + 1, r)]
    return [t for t in out if on_board(*t) and not (t in board and red(board[t]) == red(p))]


def moves_from(board, s):
    """Pseudo-legal destinations of the piece on s."""
    p = board[s]
    if p.lower() != "c":
        if p.lower() != "r":
            return attacks(board, s)
        out = []
    else:
        out = []
    for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        x, y = s[0] + df, s[1] + dr
        while on_board(x, y) and (x, y) not in board:
            out.append((x, y))
            x, y = x + df, y + dr
        if p.lower() == "r" and on_board(x, y) and red(board[(x, y)]) != red(p):
            out.append((x, y))
    if p.lower() == "c":
        out += attacks(board, s)
    return out


def king_square(board, is_red):
    return next(s for s, p in board.items() if p == ("K" if is_red else "k"))


def in_check(board, is_red):
    """Whether the king of that side is attacked (or faces the other
    king): looked for from the king's point, which is what keeps the
    generator fast enough."""
    k = king_square(board, is_red)
    enemy = (lambda p: not p.isupper()) if is_red else (lambda p: p.isupper())
    for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        x, y, seen = k[0] + df, k[1] + dr, 0
        while on_board(x, y):
            p = board.get((x, y))
            if p is not None:
                if seen == 0 and enemy(p) and p.lower() in "rk":
                    return True
                if seen == 1:
                    if enemy(p) and p.lower() == "c":
                        return True
                    break
                seen += 1
            x, y = x + df, y + dr
    for df, dr in ((1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)):
        h = (k[0] + df, k[1] + dr)
        p = board.get(h)
        if p is not None and enemy(p) and p.lower() == "n":
            # The leg: one step from h towards k along the long side.
            leg = (h[0] - (df // abs(df)) if abs(df) == 2 else h[0],
                   h[1] - (dr // abs(dr)) if abs(dr) == 2 else h[1])
            if leg not in board:
                return True
    fwd = 1 if is_red else -1
    for s in ((k[0], k[1] + fwd), (k[0] - 1, k[1]), (k[0] + 1, k[1])):
        p = board.get(s)
        if p is not None and enemy(p) and p.lower() == "p":
            return True
    return False


def played(board, a, b):
    after = dict(board)
    after[b] = after.pop(a)
    return after


def legal_moves(board, is_red):
    """(from, to) pairs of the side's legal moves."""
    out = []
    for s, p in list(board.items()):
        if red(p) != is_red:
            continue
        for t in moves_from(board, s):
            if not in_check(played(board, s, t), is_red):
                out.append((s, t))
    return out


def fmt(a, b):
    """(from, to) -> pyffish move."""
    return f"{chr(97 + a[0])}{a[1] + 1}{chr(97 + b[0])}{b[1] + 1}"


def fen_of(board, is_red):
    rows = []
    for r in range(9, -1, -1):
        row, empty = "", 0
        for f in range(9):
            if (f, r) in board:
                row += (str(empty) if empty else "") + board[(f, r)]
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + (" w" if is_red else " b") + " - - 0 1"


def attack_origin(before, after, move, victim):
    """Where the mover's attack on `victim` (a point after `move`) comes
    from: the labels of the module docstring."""
    (a, b) = move
    mover_red = red(after[b])
    labels = set()
    for s, p in after.items():
        if red(p) != mover_red or victim not in attacks(after, s):
            continue
        mutual = after[victim].lower() == p.lower() and s in attacks(after, victim)
        if s == b:
            if p.lower() in "rc" and (a[0] == b[0] == victim[0] or a[1] == b[1] == victim[1]):
                label = "line"
            elif victim in attacks(before, a) and before.get(victim) == after.get(victim):
                label = "stood"
            else:
                label = "new"
        elif victim in attacks(before, s):
            label = "stood"
        else:
            label = "discovered"
        labels.add(label + ("+mutual" if mutual else ""))
    return "/".join(sorted(labels)) or "unseen"


# ----- making cycles -----------------------------------------------------

def random_position(rng, endgame):
    """A position of random play from the start, captures preferred, as
    (board, Red to move), or None when the game ended on the way."""
    plies = rng.randint(70, 160) if endgame else rng.randint(16, 50)
    capture_bias = 0.8 if endgame else 0.35
    board, is_red = board_of(START), True
    for _ in range(plies):
        legal = legal_moves(board, is_red)
        if not legal:
            return None
        caps = [m for m in legal if m[1] in board] if rng.random() < capture_bias else []
        board = played(board, *rng.choice(caps or legal))
        is_red = not is_red
    if not legal_moves(board, is_red):
        return None
    return board, is_red


def weight(board, is_red, m, threatened):
    """Checks, moves whose piece then attacks an enemy piece, and moves of
    a piece the opponent's last move attacked (fleeing) first."""
    a, b = m
    if a in threatened:
        return 5
    after = played(board, a, b)
    if in_check(after, not is_red):
        return 6
    hits = [t for t in attacks(after, b) if t in after and after[t].lower() != "k"]
    return 8 if hits else 1


def pick(board, is_red, rng, exclude_from, threatened, mode):
    legal = [m for m in legal_moves(board, is_red) if m[1] not in board and m[0] not in exclude_from]
    if not legal:
        return None
    if mode == "check":
        checks = [m for m in legal if in_check(played(board, *m), not is_red)]
        if checks:
            return rng.choice(checks)
    if mode == "same kind":
        # Rooks and cannons onto a line with an enemy piece of their kind.
        same = [m for m in legal if any(
            board.get(t, "").lower() == board[m[0]].lower() and red(board[t]) != is_red
            for t in attacks(played(board, *m), m[1])) and board[m[0]].lower() in "rcn"]
        if same:
            return rng.choice(same)
    sample = rng.sample(legal, min(len(legal), 16))
    sample += [m for m in legal if m[0] in threatened and m not in sample]
    ws = [weight(board, is_red, m, threatened) for m in sample]
    return rng.choices(sample, ws)[0]


def standing_attacks(board, is_red):
    """(attacker, victim) points of the side's attacks on enemy pieces."""
    return [(s, t) for s, p in board.items() if red(p) == is_red
            for t in attacks(board, s) if t in board and board[t].lower() != "k"]


MODES = ["random", "check", "same kind", "standing"]


def make_cycle(board, is_red, rng, pieces_per_side, mode):
    """A back-and-forth cycle: the (from, to) moves of one period, or None.
    Each side moves `pieces_per_side` pieces out and then back. Modes: the
    first move checks (`check`), moves put a rook, cannon or horse on an
    enemy piece of its kind (`same kind`), or neither attacker nor victim
    of an attack standing at the start moves (`standing`)."""
    period, firsts, threatened = [], [], set()
    cur, side = board, is_red
    frozen = set()
    if mode == "standing":
        stand = standing_attacks(board, is_red) + standing_attacks(board, not is_red)
        if not stand:
            return None
        frozen = set(rng.choice(stand))
    for i in range(2 * pieces_per_side):
        # Red and Black alternate; each side's second piece is another one.
        exclude = set(frozen)
        if i >= 2:
            exclude.add(firsts[i - 2][1])
        m = pick(cur, side, rng, exclude, threatened,
                 mode if (mode != "check" or i == 0) else "random")
        if m is None:
            return None
        firsts.append(m)
        cur = played(cur, *m)
        threatened = set(attacks(cur, m[1]))
        side = not side
    for a, b in firsts:
        # The way back must be free (no capture) and legal.
        if a in cur or a not in moves_from(cur, b) or in_check(played(cur, b, a), side):
            return None
        cur = played(cur, b, a)
        side = not side
    period = firsts + [(b, a) for a, b in firsts]
    return [fmt(a, b) for a, b in period]


def made_cycles(n, rng):
    """n back-and-forth cycles in random positions, of every mode."""
    out = []
    while len(out) < n:
        endgame = rng.random() < 0.5
        start = random_position(rng, endgame)
        if start is None:
            continue
        board, is_red = start
        fen = fen_of(board, is_red)
        for _ in range(12):
            per_side = 1 if rng.random() < 0.5 else 2
            mode = rng.choice(MODES)
            period = make_cycle(board, is_red, rng, per_side, mode)
            if period is None:
                continue
            kind = f"{'endgame' if endgame else 'middlegame'} {per_side}-piece {mode}"
            out.append({"fen": fen, "moves": period * 2, "source": kind})
            if len(out) >= n:
                break
    return out


def game_cycles(paths):
    """Games that ended in a repetition, from the first of the three
    occurrences of the final position."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from crosscheck_pyffish import cycle_start, read_pgn, RULE_TERMS
    out = []
    for path in paths:
        for g in read_pgn(path):
            if g["termination"] not in RULE_TERMS:
                continue
            moves = [to_ffish(m) for m in g["moves"]]
            start = cycle_start(g["fen"], moves)
            fen = sf.get_fen(V, g["fen"], moves[:start])
            parts = fen.split()
            fen = " ".join(parts[:4] + ["0", "1"])
            out.append({"fen": fen, "moves": moves[start:], "source": "game"})
    return out


# ----- judging -----------------------------------------------------------

def pyffish_verdict(c):
    end, value = sf.is_optional_game_end(V, c["fen"], c["moves"])
    if not end:
        return "none"
    return "win" if value > 0 else "loss" if value < 0 else "draw"


def shuai_verdicts(cycles, tools):
    with tempfile.TemporaryDirectory() as d:
        tsv = os.path.join(d, "cycles.tsv")
        out = os.path.join(d, "out.json")
        with open(tsv, "w") as f:
            f.write("# id\tfen\tmoves\tverdict\tdescription\n")
            for i, c in enumerate(cycles):
                moves = " ".join(to_shuai(m) for m in c["moves"])
                f.write(f"c{i}\t{c['fen']}\t{moves}\t{c['pyffish']}\t{c['source']}\n")
        subprocess.run([tools, "suite", tsv, "--rules", "asian", "--json", out],
                       check=True, stdout=subprocess.DEVNULL)
        results = json.load(open(out))["results"]
    for c, r in zip(cycles, results):
        c["shuai"] = r["got"].split(" ")[0]
        c["reason"] = r["got"][len(c["shuai"]):].strip(" ()")
        c["explanation"] = r.get("explanation") or ""


MOVE_RE = re.compile(r"([a-i]\d[a-i]\d) \S+ \[([^\]]*)\]")


def side_moves(c, side):
    """(move, class) of `side`'s moves in Shuai's explanation of cycle c:
    a move's side is read off its place in the cycle."""
    red_first = c["fen"].split()[1] == "w"
    out = []
    for mv, cls in MOVE_RE.findall(c["explanation"]):
        idx = [i for i, m in enumerate(c["moves"]) if m == to_ffish(mv)]
        if idx and ((idx[0] % 2 == 0) == red_first) == (side == "Red"):
            out.append((mv, cls))
    return out


def chase_labels(c, side):
    """How each chase Shuai sees in `side`'s moves arose (see the docstring)."""
    labels = set()
    boards = [board_of(c["fen"])]
    for m in c["moves"]:
        boards.append(played(boards[-1], *split_move(m)))
    last = len(c["moves"]) - 1
    for mv, cls in side_moves(c, side):
        if "chase" not in cls:
            continue
        # The move's last occurrence in the cycle.
        ff = to_ffish(mv)
        idx = max(i for i in range(last + 1) if c["moves"][i] == ff)
        before, after = boards[idx], boards[idx + 1]
        move = split_move(ff)
        for v in re.findall(r"(?:rook|horse|cannon|advisor|elephant|pawn) ([a-i]\d)", cls):
            victim = (ord(v[0]) - 97, int(v[1]))
            labels.add(("check+" if cls.startswith("check") else "") + attack_origin(before, after, move, victim))
    return labels


def classify(c):
    """The kind of a disagreement."""
    s, p = c["shuai"], c["pyffish"]
    reason = c["reason"]
    stm_red = c.get("stm_red", True)
    if s != "draw" and p != "draw" and s != p:
        return f"opposite winners ({reason})"
    if s != "draw":
        loser = "Red" if (s == "loss") == stm_red else "Black"
        what = re.sub(r" by (Red|Black)$", "", reason)
        labels = chase_labels(c, loser) if "chase" in reason else set()
        return f"Shuai: {what}, pyffish: {p} [{', '.join(sorted(labels))}]"
    loser = "Red" if (p == "loss") == stm_red else "Black"
    moves = side_moves(c, loser)
    classes = sorted({re.sub(r" \(.*", "", cls) for _, cls in moves})
    line = sorted({along_line(c, mv) for mv, cls in moves if cls == "idle"} - {None})
    extra = f" [idle moves: {', '.join(line)}]" if line else ""
    return (f"pyffish: {p} for the side to move, Shuai: {reason}; loser's moves by Shuai: "
            f"{'/'.join(classes)}{extra}")


def along_line(c, mv):
    """'stood along the line' when the rook or cannon that made `mv` attacks,
    after it, an enemy piece on the line it moved along that it attacked
    from where it came from too (the attack stood before the move)."""
    board = board_of(c["fen"])
    ff = to_ffish(mv)
    for m in c["moves"]:
        a, b = split_move(m)
        if m == ff:
            after = played(board, a, b)
            if after[b].lower() not in "rc":
                return None
            for t in attacks(after, b):
                on_line = a[0] == b[0] == t[0] or a[1] == b[1] == t[1]
                if t in after and on_line and t in attacks(board, a):
                    return "stood along the line"
            return None
        board = played(board, a, b)
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cycles", type=int, default=10000, help="cycles to make (default 10000)")
    ap.add_argument("--seed", type=int, default=46)
    ap.add_argument("--tools", default="target/release/shuai-tools", help="shuai-tools binary")
    ap.add_argument("--pgn", nargs="*", default=[], help="match PGNs whose repetition endings to add")
    ap.add_argument("--show", type=int, default=2, help="examples to print per kind")
    ap.add_argument("--save", help="write the cycles and both verdicts here (JSON lines)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    t0 = time.time()
    cycles = made_cycles(args.cycles, rng) + game_cycles(args.pgn)
    t1 = time.time()
    for c in cycles:
        c["pyffish"] = pyffish_verdict(c)
        c["stm_red"] = c["fen"].split()[1] == "w"
    t2 = time.time()
    shuai_verdicts(cycles, args.tools)
    t3 = time.time()
    kinds = collections.Counter()
    examples = collections.defaultdict(list)
    verdicts = collections.Counter()
    for c in cycles:
        verdicts[(c["shuai"], c["pyffish"])] += 1
        if c["shuai"] != c["pyffish"]:
            k = classify(c)
            kinds[k] += 1
            examples[k].append(c)
    if args.save:
        with open(args.save, "w") as f:
            for c in cycles:
                f.write(json.dumps(c, ensure_ascii=False) + "\n")
    sources = collections.Counter(c["source"] for c in cycles)
    print(f"{len(cycles)} cycles ({', '.join(f'{k}: {n}' for k, n in sorted(sources.items()))}); "
          f"made in {t1 - t0:.0f} s, pyffish {t2 - t1:.0f} s, Shuai {t3 - t2:.0f} s")
    print("verdicts for the side to move (Shuai asian, pyffish):")
    for (s, p), n in sorted(verdicts.items()):
        print(f"  {s:5} {p:5} {n}")
    total = sum(kinds.values())
    print(f"disagreements: {total}")
    for k, n in kinds.most_common():
        print(f"  {n:5}  {k}")
        for c in examples[k][:args.show]:
            print(f"           {c['fen']} | {' '.join(to_shuai(m) for m in c['moves'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
