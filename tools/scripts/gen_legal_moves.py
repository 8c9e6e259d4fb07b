#!/usr/bin/env python3
"""Generate a reference set of exact legal-move lists for Xiangqi positions.

The move lists come from Fairy-Stockfish's rules engine (the `pyffish` Python
binding, variant "xiangqi"), an implementation fully independent of Shuai.
Every list is also re-derived by the small stdlib-only move generator in this
file, and the script aborts if the two ever disagree, so the output has been
produced by two independent implementations that agree exactly.

Rerun (deterministic: fixed seed, sorted iteration, no wall-clock input):

    pip install pyffish
    python3 tools/scripts/gen_legal_moves.py --out board/tests/data/legal_moves.tsv

Options: --count N (total positions, default 3000), --seed S (default
20261130), --epd PATH (opening book, default /work/shared/data/openings.epd;
if it is missing that category is filled with more random-game openings and
the output differs).

Output format (TSV):
    lines starting with '#' are comments (header, one line per category);
    data lines are  FEN<TAB>moves  where moves are the legal moves of the side
    to move in ICCS coordinates with ranks 0-9 (a0..i9, Red's back rank is 0,
    e.g. "h2e2"), sorted ascending as strings and separated by single spaces.
    The move field is empty when the side to move has no legal move
    (checkmate or stalemate; both lose in Xiangqi).
    Every FEN has halfmove clock 0; side to move is 'w' (Red) or 'b' (Black).
    No FEN (board + side to move) appears twice.

Categories (each written under a '# category:' comment):
    opening_random   plies 1-12 of uniformly random games from the start
    opening_epd      positions sampled from the opening EPD book
    middlegame       plies 20-80 of random games with a capture bias
    check            side to move is in check (check-biased random games)
    endgame_games    few pieces left, from long capture-biased random games
    endgame_placed   random legal placements: kings + 1-6 pieces
    fg_cannon        placements biased to flying-general pins / king-file
                     interactions and cannon screens on the king lines
    no_moves         checkmates and stalemates (empty move list)

pyffish writes ranks 1-10 ("b3b10"); they are converted to 0-9 here.
pyffish rebuilds the position from the FEN on every call, so games are
advanced position by position (never with a growing move list), and every FEN
is written with halfmove clock 0 so no 50/60-move rule can interfere.
"""

import argparse
import os
import random
import re
import sys
import time

import pyffish as sf

VARIANT = "xiangqi"
START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
DEFAULT_SEED = 20261130
DEFAULT_EPD = "/work/shared/data/openings.epd"
FILES = "abcdefghi"

# Share of --count for each category (the last one absorbs rounding).
CATEGORY_SHARES = [
    ("opening_random", 0.14),
    ("opening_epd", 0.10),
    ("middlegame", 0.22),
    ("check", 0.14),
    ("endgame_games", 0.10),
    ("endgame_placed", 0.16),
    ("fg_cannon", 0.12),
    ("no_moves", 0.02),
]

# ---------------------------------------------------------------------------
# Board representation: list of 90 entries, index = rank * 9 + file,
# rank 0 = Red's back rank. Red pieces upper case (K A B N R C P), Black lower.
# ---------------------------------------------------------------------------


def sq(rank, file):
    return rank * 9 + file


def parse_fen(fen):
    fields = fen.split()
    rows = fields[0].split("/")
    if len(rows) != 10:
        raise ValueError("bad FEN: " + fen)
    board = [None] * 90
    for i, row in enumerate(rows):
        rank = 9 - i
        file = 0
        num = ""
        for ch in row:
            if ch.isdigit():
                num += ch
                continue
            if num:
                file += int(num)
                num = ""
            board[sq(rank, file)] = ch
            file += 1
        if num:
            file += int(num)
        if file != 9:
            raise ValueError("bad FEN row: " + fen)
    side = "w" if fields[1] == "w" else "b"
    return board, side


def board_to_placement(board):
    rows = []
    for rank in range(9, -1, -1):
        row = ""
        empty = 0
        for file in range(9):
            p = board[sq(rank, file)]
            if p is None:
                empty += 1
            else:
                if empty:
                    row += str(empty)
                    empty = 0
                row += p
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows)


def make_fen(board, side, fullmove=1):
    return "%s %s - - 0 %d" % (board_to_placement(board), side, fullmove)


def is_red(p):
    return p.isupper()


def owner(p):
    return "w" if p.isupper() else "b"


def other(side):
    return "b" if side == "w" else "w"


def in_palace(rank, file, side):
    if not 3 <= file <= 5:
        return False
    return 0 <= rank <= 2 if side == "w" else 7 <= rank <= 9


def own_half(rank, side):
    return rank <= 4 if side == "w" else rank >= 5


ORTHO = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
# Horse: (dr, df) of the move and (lr, lf) of the blocking "leg" square.
HORSE = [
    ((2, 1), (1, 0)), ((2, -1), (1, 0)), ((-2, 1), (-1, 0)), ((-2, -1), (-1, 0)),
    ((1, 2), (0, 1)), ((-1, 2), (0, 1)), ((1, -2), (0, -1)), ((-1, -2), (0, -1)),
]


def on_board(r, f):
    return 0 <= r <= 9 and 0 <= f <= 8


def pseudo_moves(board, side):
    """Pseudo-legal moves as (from, to) index pairs."""
    moves = []
    for s in range(90):
        p = board[s]
        if p is None or owner(p) != side:
            continue
        r, f = divmod(s, 9)
        kind = p.upper()

        def add(tr, tf):
            t = board[sq(tr, tf)]
            if t is None or owner(t) != side:
                moves.append((s, sq(tr, tf)))

        if kind == "K":
            for dr, df in ORTHO:
                tr, tf = r + dr, f + df
                if in_palace(tr, tf, side):
                    add(tr, tf)
        elif kind == "A":
            for dr, df in DIAG:
                tr, tf = r + dr, f + df
                if in_palace(tr, tf, side):
                    add(tr, tf)
        elif kind == "B":
            for dr, df in DIAG:
                tr, tf = r + 2 * dr, f + 2 * df
                if on_board(tr, tf) and own_half(tr, side) and board[sq(r + dr, f + df)] is None:
                    add(tr, tf)
        elif kind == "N":
            for (dr, df), (lr, lf) in HORSE:
                tr, tf = r + dr, f + df
                if on_board(tr, tf) and board[sq(r + lr, f + lf)] is None:
                    add(tr, tf)
        elif kind == "R":
            for dr, df in ORTHO:
                tr, tf = r + dr, f + df
                while on_board(tr, tf):
                    t = board[sq(tr, tf)]
                    if t is None:
                        moves.append((s, sq(tr, tf)))
                    else:
                        if owner(t) != side:
                            moves.append((s, sq(tr, tf)))
                        break
                    tr, tf = tr + dr, tf + df
        elif kind == "C":
            for dr, df in ORTHO:
                tr, tf = r + dr, f + df
                screen = False
                while on_board(tr, tf):
                    t = board[sq(tr, tf)]
                    if not screen:
                        if t is None:
                            moves.append((s, sq(tr, tf)))
                        else:
                            screen = True
                    elif t is not None:
                        if owner(t) != side:
                            moves.append((s, sq(tr, tf)))
                        break
                    tr, tf = tr + dr, tf + df
        elif kind == "P":
            fwd = 1 if side == "w" else -1
            if on_board(r + fwd, f):
                add(r + fwd, f)
            if not own_half(r, side):
                for df in (-1, 1):
                    if on_board(r, f + df):
                        add(r, f + df)
    return moves


def king_square(board, side):
    k = "K" if side == "w" else "k"
    for s in range(90):
        if board[s] == k:
            return s
    return None


def checkers(board, side):
    """Squares of `side`'s opponent pieces that attack `side`'s king
    (the enemy king counts when the generals face each other)."""
    ks = king_square(board, side)
    if ks is None:
        return []
    enemy = other(side)
    r, f = divmod(ks, 9)
    found = []
    # Lines: chariot / facing general (first piece), cannon (second piece).
    for dr, df in ORTHO:
        tr, tf = r + dr, f + df
        seen = 0
        while on_board(tr, tf):
            t = board[sq(tr, tf)]
            if t is not None:
                seen += 1
                if owner(t) == enemy:
                    kind = t.upper()
                    if seen == 1 and (kind == "R" or (kind == "K" and df == 0)):
                        found.append(sq(tr, tf))
                    if seen == 2 and kind == "C":
                        found.append(sq(tr, tf))
                if seen == 2:
                    break
            tr, tf = tr + dr, tf + df
    # Horses: a horse at h attacks the king if h + delta == king and the leg
    # (adjacent to the horse, towards the long side) is empty.
    for (dr, df), (lr, lf) in HORSE:
        hr, hf = r - dr, f - df
        if on_board(hr, hf):
            h = board[sq(hr, hf)]
            if h is not None and owner(h) == enemy and h.upper() == "N":
                if board[sq(hr + lr, hf + lf)] is None:
                    found.append(sq(hr, hf))
    # Pawns: enemy pawn one step "behind" the king from its point of view,
    # or beside it when that pawn has crossed the river.
    fwd = 1 if enemy == "w" else -1
    cand = [(r - fwd, f, True), (r, f - 1, False), (r, f + 1, False)]
    for pr, pf, straight in cand:
        if on_board(pr, pf):
            p = board[sq(pr, pf)]
            if p is not None and owner(p) == enemy and p.upper() == "P":
                if straight or not own_half(pr, enemy):
                    found.append(sq(pr, pf))
    return found


def apply_move(board, mv):
    b = board[:]
    s, t = mv
    b[t] = b[s]
    b[s] = None
    return b


def legal_moves_own(board, side):
    res = []
    for mv in pseudo_moves(board, side):
        if not checkers(apply_move(board, mv), side):
            res.append(mv)
    return res


def mv_str(mv):
    s, t = mv
    return "%s%d%s%d" % (FILES[s % 9], s // 9, FILES[t % 9], t // 9)


def mv_to_sf(mv):
    s, t = mv
    return "%s%d%s%d" % (FILES[s % 9], s // 9 + 1, FILES[t % 9], t // 9 + 1)


MOVE_RE = re.compile(r"^([a-i])(10|[1-9])([a-i])(10|[1-9])$")


def sf_to_iccs(m):
    g = MOVE_RE.match(m)
    if not g:
        raise ValueError("unexpected pyffish move: %r" % m)
    return "%s%d%s%d" % (g.group(1), int(g.group(2)) - 1, g.group(3), int(g.group(4)) - 1)


def iccs_to_mv(m):
    return (sq(int(m[1]), FILES.index(m[0])), sq(int(m[3]), FILES.index(m[2])))


# ---------------------------------------------------------------------------
# pyffish wrappers
# ---------------------------------------------------------------------------


def sf_moves(fen):
    return sorted(sf_to_iccs(m) for m in sf.legal_moves(VARIANT, fen, []))


def sf_in_check(fen):
    return bool(sf.gives_check(VARIANT, fen, []))


# ---------------------------------------------------------------------------
# Features used for biasing and for the category report
# ---------------------------------------------------------------------------


def piece_count(board):
    return sum(1 for p in board if p is not None)


def between_count(board, a, b):
    """Pieces strictly between squares a and b on a common rank/file."""
    ar, af = divmod(a, 9)
    br, bf = divmod(b, 9)
    if ar == br:
        return sum(1 for f in range(min(af, bf) + 1, max(af, bf)) if board[sq(ar, f)] is not None)
    if af == bf:
        return sum(1 for r in range(min(ar, br) + 1, max(ar, br)) if board[sq(r, af)] is not None)
    return None


def flying_general_feature(board):
    """Kings on one file with exactly one piece between them (that piece is
    pinned by the facing-generals rule), or a king step that would be legal
    but for facing the other general."""
    rk, bk = king_square(board, "w"), king_square(board, "b")
    if rk is None or bk is None:
        return False
    if rk % 9 == bk % 9 and between_count(board, rk, bk) == 1:
        return True
    for side, ks, eks in (("w", rk, bk), ("b", bk, rk)):
        r, f = divmod(ks, 9)
        for df in (-1, 1):
            tf = f + df
            if tf != eks % 9 or not in_palace(r, tf, side):
                continue
            t = board[sq(r, tf)]
            if t is not None and owner(t) == side:
                continue
            lo, hi = min(r, eks // 9), max(r, eks // 9)
            if all(board[sq(x, tf)] is None for x in range(lo + 1, hi)):
                return True
    return False


def cannon_feature(board):
    """A cannon on a line with the enemy king and 1 or 2 pieces between."""
    for side in ("w", "b"):
        eks = king_square(board, other(side))
        if eks is None:
            continue
        c = "C" if side == "w" else "c"
        for s in range(90):
            if board[s] == c:
                n = between_count(board, s, eks)
                if n in (1, 2):
                    return True
    return False


# ---------------------------------------------------------------------------
# Collector
# ---------------------------------------------------------------------------


class Collector:
    def __init__(self):
        self.seen = set()
        self.entries = {name: [] for name, _ in CATEGORY_SHARES}
        self.stats = {"in_check": 0, "flying_general": 0, "cannon_screen": 0,
                      "checkmate": 0, "stalemate": 0, "double_check": 0}
        self.sf_calls = 0

    def key(self, fen):
        return " ".join(fen.split()[:2])

    def has(self, fen):
        return self.key(fen) in self.seen

    def add(self, category, fen, require_check=None, require_empty=False):
        """Validate with pyffish + own generator; return True if stored."""
        if self.has(fen):
            return False
        board, side = parse_fen(fen)
        fen = make_fen(board, side, int(fen.split()[5]) if len(fen.split()) > 5 else 1)
        # The side NOT to move must not be in check (else the position is illegal).
        if checkers(board, other(side)):
            return False
        chk = checkers(board, side)
        if len(chk) > 2:
            return False
        if require_check is not None and bool(chk) != require_check:
            return False
        own = sorted(mv_str(m) for m in legal_moves_own(board, side))
        if require_empty and own:
            return False
        if sf.validate_fen(fen, VARIANT) != sf.FEN_OK:
            return False
        self.sf_calls += 2
        moves = sf_moves(fen)
        in_check = sf_in_check(fen)
        if moves != own or in_check != bool(chk):
            sys.exit("MISMATCH between pyffish and the built-in generator for %s\n"
                     "pyffish: %s (check=%s)\nown:     %s (check=%s)"
                     % (fen, " ".join(moves), in_check, " ".join(own), bool(chk)))
        self.seen.add(self.key(fen))
        self.entries[category].append((fen, moves))
        self.stats["in_check"] += in_check
        self.stats["double_check"] += len(chk) == 2
        self.stats["flying_general"] += flying_general_feature(board)
        self.stats["cannon_screen"] += cannon_feature(board)
        if not moves:
            self.stats["checkmate" if in_check else "stalemate"] += 1
        return True


# ---------------------------------------------------------------------------
# Random games
# ---------------------------------------------------------------------------


def game_step(rng, board, side, capture_bias=0.0, check_bias=0.0):
    """Pick a random legal move (pyffish's list) with optional biases.
    Returns the move (from, to) or None if there is no legal move."""
    fen = make_fen(board, side)
    moves = [iccs_to_mv(m) for m in sf_moves(fen)]
    if not moves:
        return None
    if check_bias and rng.random() < check_bias:
        checks = [m for m in moves if checkers(apply_move(board, m), other(side))]
        if checks:
            return rng.choice(checks)
    if capture_bias and rng.random() < capture_bias:
        caps = [m for m in moves if board[m[1]] is not None]
        if caps:
            return rng.choice(caps)
    return rng.choice(moves)


def verify_step(board, side, mv, ply):
    """Cross-check our make-move against pyffish.get_fen (cheap sanity)."""
    before = make_fen(board, side)
    after = sf.get_fen(VARIANT, before, [mv_to_sf(mv)])
    nb, ns = parse_fen(after)
    if nb != apply_move(board, mv) or ns != other(side):
        sys.exit("get_fen mismatch after %s from %s" % (mv_str(mv), before))


def gen_opening_random(rng, col, target):
    tries = 0
    while len(col.entries["opening_random"]) < target and tries < target * 50:
        tries += 1
        board, side = parse_fen(START_FEN)
        record = set(rng.sample(range(1, 13), 3))
        for ply in range(1, 13):
            mv = game_step(rng, board, side)
            if mv is None:
                break
            if ply == 1:
                verify_step(board, side, mv, ply)
            board, side = apply_move(board, mv), other(side)
            if ply in record and len(col.entries["opening_random"]) < target:
                col.add("opening_random", make_fen(board, side, ply // 2 + 1))


def gen_opening_epd(rng, col, target, path):
    if not path or not os.path.exists(path):
        print("warning: EPD %r not found; using random openings instead" % path, file=sys.stderr)
        return 0
    uniq = []
    keys = set()
    with open(path) as fh:
        for line in fh:
            fields = line.split()
            if len(fields) < 2 or line.startswith("#"):
                continue
            k = " ".join(fields[:2])
            if k in keys:
                continue
            keys.add(k)
            full = int(fields[5]) if len(fields) > 5 and fields[5].isdigit() else 1
            uniq.append("%s %s - - 0 %d" % (fields[0], fields[1], full))
    rng.shuffle(uniq)
    for fen in uniq:
        if len(col.entries["opening_epd"]) >= target:
            break
        col.add("opening_epd", fen)
    return len(uniq)


def gen_middlegame(rng, col, target):
    while len(col.entries["middlegame"]) < target:
        board, side = parse_fen(START_FEN)
        record = set(rng.sample(range(20, 81), 3))
        cap_bias = rng.choice([0.3, 0.5, 0.7])
        for ply in range(1, 81):
            mv = game_step(rng, board, side, capture_bias=cap_bias)
            if mv is None:
                break
            board, side = apply_move(board, mv), other(side)
            if ply in record and len(col.entries["middlegame"]) < target:
                col.add("middlegame", make_fen(board, side, ply // 2 + 1))


def gen_check(rng, col, target):
    while len(col.entries["check"]) < target:
        board, side = parse_fen(START_FEN)
        check_bias = rng.choice([0.4, 0.6, 0.8])
        cap_bias = rng.choice([0.2, 0.4, 0.6])
        taken = 0
        max_ply = rng.randint(30, 200)
        for ply in range(1, max_ply + 1):
            mv = game_step(rng, board, side, capture_bias=cap_bias, check_bias=check_bias)
            if mv is None:
                # Game over: keep the final position (mate/stalemate) if new.
                col.add("no_moves", make_fen(board, side, (ply - 1) // 2 + 1))
                break
            board, side = apply_move(board, mv), other(side)
            if ply >= 3 and taken < 4 and checkers(board, side) and rng.random() < 0.5:
                if len(col.entries["check"]) < target:
                    taken += col.add("check", make_fen(board, side, ply // 2 + 1), require_check=True)


def gen_endgame_games(rng, col, target):
    while len(col.entries["endgame_games"]) < target:
        board, side = parse_fen(START_FEN)
        limit = rng.randint(4, 12)  # total pieces including both kings
        extra = None
        for ply in range(1, 401):
            mv = game_step(rng, board, side, capture_bias=0.9, check_bias=0.1)
            if mv is None:
                col.add("no_moves", make_fen(board, side, (ply - 1) // 2 + 1))
                break
            board, side = apply_move(board, mv), other(side)
            if extra is None and piece_count(board) <= limit:
                extra = ply + rng.randint(0, 6)
            if extra is not None and ply >= extra:
                col.add("endgame_games", make_fen(board, side, ply // 2 + 1))
                if rng.random() < 0.5 or len(col.entries["endgame_games"]) >= target:
                    break
                extra = ply + rng.randint(2, 10)


# ---------------------------------------------------------------------------
# Random placements
# ---------------------------------------------------------------------------

POOL = {"R": 2, "N": 2, "C": 2, "A": 2, "B": 2, "P": 5}


def valid_squares(kind, side):
    """Squares (rank, file) where a piece of this kind and colour may stand,
    in Red's orientation mirrored for Black."""
    out = []
    for r in range(10):
        for f in range(9):
            rr = r if side == "w" else 9 - r  # rank from the owner's side
            if kind == "K":
                ok = rr <= 2 and 3 <= f <= 5
            elif kind == "A":
                ok = (rr, f) in ((0, 3), (0, 5), (1, 4), (2, 3), (2, 5))
            elif kind == "B":
                ok = (rr, f) in ((0, 2), (0, 6), (2, 0), (2, 4), (2, 8), (4, 2), (4, 6))
            elif kind == "P":
                ok = (rr in (3, 4) and f % 2 == 0) or rr >= 5
            else:
                ok = True
            if ok:
                out.append((r, f))
    return out


VALID = {(k, s): valid_squares(k, s) for k in "KABNRCP" for s in "wb"}


def piece_char(kind, side):
    return kind if side == "w" else kind.lower()


def place(rng, board, kind, side, squares=None):
    """Place one piece on a random empty valid square; False if impossible."""
    cands = [x for x in (squares or VALID[(kind, side)]) if x in VALID[(kind, side)]]
    cands = [x for x in cands if board[sq(*x)] is None]
    if kind == "P":
        # An unpromoted pawn (own ranks 3-4) never left its file: at most one
        # such pawn per file and colour.
        pc = piece_char("P", side)
        used = set()
        for s in range(90):
            if board[s] == pc:
                r, f = divmod(s, 9)
                rr = r if side == "w" else 9 - r
                if rr in (3, 4):
                    used.add(f)
        cands = [(r, f) for (r, f) in cands
                 if not ((r if side == "w" else 9 - r) in (3, 4) and f in used)]
    if not cands:
        return False
    board[sq(*rng.choice(cands))] = piece_char(kind, side)
    return True


def random_pieces(rng, board, n, counts, kinds=None, sides="wb"):
    for _ in range(n):
        opts = [(k, s) for s in sides for k in (kinds or "RNCABP")
                if counts[(k, s)] < POOL[k]]
        if not opts:
            return
        k, s = rng.choice(opts)
        if place(rng, board, k, s):
            counts[(k, s)] += 1


def new_counts():
    return {(k, s): 0 for k in POOL for s in "wb"}


def gen_endgame_placed(rng, col, target):
    tries = 0
    while len(col.entries["endgame_placed"]) < target and tries < target * 200:
        tries += 1
        board = [None] * 90
        place(rng, board, "K", "w")
        place(rng, board, "K", "b")
        counts = new_counts()
        # Attacking pieces more often than defensive ones.
        kinds = rng.choice(["RNCP", "RNCABP", "RNCPP", "RCAB", "NPAB", "CPAB"])
        random_pieces(rng, board, rng.randint(1, 6), counts, kinds=kinds)
        side = rng.choice("wb")
        col.add("endgame_placed", make_fen(board, side))


def gen_fg_cannon(rng, col, target):
    tries = 0
    while len(col.entries["fg_cannon"]) < target and tries < target * 200:
        tries += 1
        board = [None] * 90
        counts = new_counts()
        mode = rng.random()
        kf = rng.choice([3, 4, 5])
        board[sq(rng.randint(0, 2), kf)] = "K"
        if mode < 0.55:
            # Kings on the same file with one (sometimes two) pieces between.
            bk_file = kf
        else:
            # Kings on adjacent files: king steps onto the other file matter.
            bk_file = rng.choice([f for f in (kf - 1, kf + 1) if 3 <= f <= 5])
        board[sq(rng.randint(7, 9), bk_file)] = "k"
        rk, bk = king_square(board, "w"), king_square(board, "b")
        if bk_file == kf:
            line = [(r, kf) for r in range(rk // 9 + 1, bk // 9)]
            for _ in range(1 if rng.random() < 0.75 else 2):
                opts = [(k, s) for s in "wb" for k in "RNCABP" if counts[(k, s)] < POOL[k]]
                k, s = rng.choice(opts)
                if place(rng, board, k, s, squares=line):
                    counts[(k, s)] += 1
        # Cannons aimed at the kings along their files or ranks, with screens.
        for side in "wb":
            if rng.random() < 0.7 and counts[("C", side)] < POOL["C"]:
                ek = bk if side == "w" else rk
                er, ef = divmod(ek, 9)
                if rng.random() < 0.6:
                    line = [(r, ef) for r in range(10) if r != er]
                else:
                    line = [(er, f) for f in range(9) if f != ef]
                if place(rng, board, "C", side, squares=line):
                    counts[("C", side)] += 1
                    # A screen somewhere on that line (may be anything).
                    if rng.random() < 0.8:
                        opts = [(k, s) for s in "wb" for k in "RNCABP" if counts[(k, s)] < POOL[k]]
                        k, s = rng.choice(opts)
                        if place(rng, board, k, s, squares=line):
                            counts[(k, s)] += 1
        random_pieces(rng, board, rng.randint(0, 8), counts)
        side = rng.choice("wb")
        if not (flying_general_feature(board) or cannon_feature(board)):
            continue
        col.add("fg_cannon", make_fen(board, side))


def gen_no_moves(rng, col, target, max_tries):
    """Hunt for checkmates and stalemates among sparse placements: the side
    to move gets few defenders, the other side attackers near its palace."""
    tries = 0
    while len(col.entries["no_moves"]) < target and tries < max_tries:
        tries += 1
        board = [None] * 90
        counts = new_counts()
        defender = rng.choice("wb")
        attacker = other(defender)
        place(rng, board, "K", "w")
        place(rng, board, "K", "b")
        random_pieces(rng, board, rng.randint(0, 3), counts, kinds="ABPN", sides=defender)
        near = [(r, f) for r in range(10) for f in range(9)
                if (r >= 5 if defender == "b" else r <= 4)]
        for _ in range(rng.randint(1, 4)):
            opts = [k for k in "RNCP" if counts[(k, attacker)] < POOL[k]]
            k = rng.choice(opts)
            if place(rng, board, k, attacker, squares=near):
                counts[(k, attacker)] += 1
        if rng.random() < 0.5:
            random_pieces(rng, board, 1, counts, kinds="AB", sides=attacker)
        if checkers(board, attacker) or legal_moves_own(board, defender):
            continue
        # Stalemates are far more common here than mates: keep them balanced.
        if not checkers(board, defender) and col.stats["stalemate"] >= target // 2:
            continue
        col.add("no_moves", make_fen(board, defender), require_empty=True)
    return tries


# ---------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=3000, help="total positions (default 3000)")
    ap.add_argument("--out", required=True, help="output TSV path")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--epd", default=DEFAULT_EPD, help="opening EPD file (4 or 6 FEN fields)")
    args = ap.parse_args()

    t0 = time.time()
    # Sanity checks of the conversion and of the engine itself.
    start_moves = sf_moves(START_FEN)
    assert len(start_moves) == 44, start_moves
    assert "h2e2" in start_moves and "b2b9" in start_moves, start_moves

    targets = {}
    rest = args.count
    for name, share in CATEGORY_SHARES[:-1]:
        targets[name] = int(round(args.count * share))
        rest -= targets[name]
    targets[CATEGORY_SHARES[-1][0]] = max(rest, 0)

    col = Collector()
    col.add("opening_random", START_FEN)

    def rng_for(name):
        return random.Random("%d-%s" % (args.seed, name))

    # no_moves first collects whatever the random games end in, then hunts.
    epd_total = gen_opening_epd(rng_for("opening_epd"), col, targets["opening_epd"], args.epd)
    missing_epd = targets["opening_epd"] - len(col.entries["opening_epd"])
    gen_opening_random(rng_for("opening_random"), col, targets["opening_random"] + missing_epd)
    gen_middlegame(rng_for("middlegame"), col, targets["middlegame"])
    gen_check(rng_for("check"), col, targets["check"])
    gen_endgame_games(rng_for("endgame_games"), col, targets["endgame_games"])
    gen_endgame_placed(rng_for("endgame_placed"), col, targets["endgame_placed"])
    gen_fg_cannon(rng_for("fg_cannon"), col, targets["fg_cannon"])
    hunt = gen_no_moves(rng_for("no_moves"), col, targets["no_moves"], max_tries=400000)

    total = sum(len(v) for v in col.entries.values())
    version = ".".join(str(x) for x in sf.version())
    elapsed = time.time() - t0
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", newline="\n") as fh:
        fh.write("# Xiangqi legal-move reference data: %d positions.\n" % total)
        fh.write("# Generated by tools/scripts/gen_legal_moves.py "
                 "(pyffish %s, Fairy-Stockfish variant \"xiangqi\"), seed %d, --count %d.\n"
                 % (version, args.seed, args.count))
        fh.write("# Every move list was also checked against the script's own stdlib move generator.\n")
        fh.write("# Rerun: pip install pyffish; python3 tools/scripts/gen_legal_moves.py "
                 "--out board/tests/data/legal_moves.tsv\n")
        fh.write("# Format: FEN<TAB>legal moves in ICCS (ranks 0-9), sorted, space-separated; "
                 "empty field = no legal move (mate or stalemate).\n")
        fh.write("# Stats: in_check=%d double_check=%d flying_general=%d cannon_screen=%d "
                 "checkmate=%d stalemate=%d\n" % tuple(col.stats[k] for k in (
                     "in_check", "double_check", "flying_general", "cannon_screen",
                     "checkmate", "stalemate")))
        for name, _ in CATEGORY_SHARES:
            fh.write("# category: %s (%d positions)\n" % (name, len(col.entries[name])))
            for fen, moves in col.entries[name]:
                fh.write("%s\t%s\n" % (fen, " ".join(moves)))

    print("wrote %d positions to %s in %.1fs (pyffish %s)" % (total, args.out, elapsed, version))
    for name, _ in CATEGORY_SHARES:
        print("  %-15s %5d (target %d)" % (name, len(col.entries[name]), targets[name]))
    print("  stats: %s" % ", ".join("%s=%d" % kv for kv in sorted(col.stats.items())))
    print("  opening EPD unique positions: %d; no-move hunt tries: %d" % (epd_total, hunt))


if __name__ == "__main__":
    main()
