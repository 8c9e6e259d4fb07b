#!/usr/bin/env python3
"""Cross-check the terminations of a `shuai-tools match` with pyffish.

Reads the match's JSON (`--json FILE`) or PGN (`--pgn FILE`, ICCS notation):
each game's start FEN and ICCS moves with ranks 0-9; replays every game with Fairy-Stockfish's rules through
pyffish (`pip install pyffish`; ranks 1-10, converted here) and checks:

* the final position (known rule difference: a cycle mixing checks and
  chases is forbidden in rules.md but a draw for Fairy-Stockfish, which
  judges perpetual check and perpetual chase separately; such games are
  counted and listed as agreeing; so is a cycle judged by mate threats,
  which Fairy-Stockfish has no rule for, and a chase of several pieces in turn
  (Chinese rule 28.12; the Asian rules pyffish follows count one piece only);
  likewise a chase cycle entered by a quiet
  move of the chaser, which pyffish 0.0.90 only rules on at the fourth
  occurrence because its chase window also takes the entering move: such
  verdicts are re-checked from the cycle's start): checkmate/stalemate -> pyffish has no legal move and
  scores the side to move as lost (and agrees on "in check" or not);
  repetition verdicts -> pyffish's `is_optional_game_end` ends the game with
  the same result for the side to move; the natural-move limit -> pyffish
  allows a draw claim there (its own rule is 100 plies, ours 120, and we do
  not count checks beyond a side's tenth); any other termination (time,
  adjudication, resignation, maximum length) -> pyffish sees no forced end;
* every earlier position of the game: pyffish sees no mate, stalemate or
  repetition verdict that the runner missed. Draw claims pyffish allows
  because of its 100-ply rule (our limit is 120) are counted, not errors.

Prints one line per disagreement and a summary; exits 1 on disagreement.
"""
import argparse
import json
import sys

import pyffish as sf

V = "xiangqi"
RULE_TERMS = {
    "perpetual_check", "perpetual_chase", "perpetual_mate_threat", "mixed_attacks",
    "mutual_perpetual_check", "mutual_forbidden", "repetition",
}


def to1(m):
    return f"{m[0]}{int(m[1]) + 1}{m[2]}{int(m[3]) + 1}"


def sign(x):
    return (x > 0) - (x < 0)


def plies_since_capture(fen, moves):
    """Half-move clock after the moves, from pyffish's FEN."""
    f = sf.get_fen(V, fen, moves).split()
    return int(f[4]) if len(f) > 4 else 0


def cycle_start(fen, moves):
    """Ply of the first of the last three occurrences of the final position."""
    key = lambda f: " ".join(f.split()[:2])
    final = key(sf.get_fen(V, fen, moves))
    seen = []
    for k in range(len(moves) - 1, -1, -1):
        if key(sf.get_fen(V, fen, moves[:k])) == final:
            seen.append(k)
            if len(seen) == 2:
                return k
    return 0


def result_for_stm(game):
    """+1 win, 0 draw, -1 loss for the side to move in the final position."""
    stm_red = (sf.get_fen(V, game["fen"], [to1(m) for m in game["moves"]]).split()[1] == "w")
    r = game["result"]
    if r == "1/2-1/2":
        return 0
    red_won = r == "1-0"
    return 1 if red_won == stm_red else -1


def check_game(g, stats):
    fen = g["fen"]
    moves = [to1(m) for m in g["moves"]]
    term = g["termination"]
    problems = []
    # Earlier positions (from the end of the book on).
    for k in range(g.get("book_plies", 0), len(moves)):
        prefix = moves[:k]
        if not sf.legal_moves(V, fen, prefix):
            problems.append(f"ply {k}: pyffish sees no legal move, the game went on")
            break
        end, value = sf.is_optional_game_end(V, fen, prefix)
        if end:
            clock = plies_since_capture(fen, prefix)
            if value == 0 and clock >= 100:
                stats["fsf_100ply_claims_earlier"] += 1
                continue
            problems.append(f"ply {k}: pyffish ends the game (value {value}, clock {clock}); the runner went on")
            break
    # The final position.
    legal = sf.legal_moves(V, fen, moves)
    want = result_for_stm(g)
    if term in ("checkmate", "stalemate"):
        in_check = sf.gives_check(V, fen, moves)
        value = sf.game_result(V, fen, moves)
        if legal:
            problems.append(f"{term}: pyffish has legal moves")
        elif sign(value) != -1 or want != -1:
            problems.append(f"{term}: pyffish result {value}, runner {want}")
        elif in_check != (term == "checkmate"):
            problems.append(f"{term}: pyffish in_check={in_check}")
    elif term in RULE_TERMS:
        end, value = sf.is_optional_game_end(V, fen, moves)
        if not end:
            problems.append(f"{term}: pyffish sees no game end")
        elif term == "mixed_attacks" and value == 0 and want != 0:
            # Fairy-Stockfish judges perpetual check and perpetual chase
            # separately over the cycle; a cycle mixing checks and chases
            # is a draw for it, forbidden (a loss) in rules.md.
            stats["known_mixed_attack_differences"] += 1
            print(f"game {g['index'] + 1} ({term}, {g['result']}): known difference, "
                  f"pyffish calls the mixed check/chase cycle a draw")
        elif (term == "perpetual_chase" and value == 0 and want != 0
              and "rule 28.12" in g.get("reason", "")):
            # The Chinese book (rules.md 28.12) forbids chasing several
            # pieces in turn, one on each move; Fairy-Stockfish follows
            # the Asian rules, where only a chase of the same piece counts.
            stats["known_several_pieces_differences"] += 1
            print(f"game {g['index'] + 1} ({term}, {g['result']}): known difference, "
                  f"pyffish has no chase of several pieces (Chinese rule 28.12)")
        elif sign(value) != want and "[mate threat]" in g.get("reason", ""):
            # Fairy-Stockfish has no mate-threat (杀) rule: to it a move
            # threatening mate is idle, so a cycle rules.md judges by its
            # mate threats ends differently there.
            stats["known_mate_threat_differences"] += 1
            print(f"game {g['index'] + 1} ({term}, {g['result']}): known difference, "
                  f"pyffish has no mate-threat rule (value {value}, runner {want})")
        elif sign(value) != want:
            # pyffish 0.0.90 counts the move that entered the cycle in its
            # chase window, so a chase entered by a quiet move of the
            # chaser is a draw at the third occurrence (and caught at the
            # fourth). Judged from the start of the cycle it must agree.
            start = cycle_start(fen, moves)
            fen2 = sf.get_fen(V, fen, moves[:start])
            end2, value2 = sf.is_optional_game_end(V, fen2, moves[start:])
            if value == 0 and end2 and sign(value2) == want:
                stats["known_chase_window_differences"] += 1
                print(f"game {g['index'] + 1} ({term}, {g['result']}): known difference, pyffish "
                      f"agrees when the cycle is judged from its start (ply {start}); its window "
                      f"also takes the move that entered the cycle")
            else:
                problems.append(f"{term}: pyffish value {value} (sign {sign(value)}), runner {want}")
    elif term == "natural_limit":
        end, value = sf.is_optional_game_end(V, fen, moves)
        if not (end and value == 0):
            problems.append(f"natural_limit: pyffish allows no draw claim ({end}, {value})")
    else:
        end, value = sf.is_optional_game_end(V, fen, moves)
        clock = plies_since_capture(fen, moves)
        if not legal:
            problems.append(f"{term}: pyffish says the game was already over (no legal move)")
        elif end and not (value == 0 and clock >= 100):
            problems.append(f"{term}: pyffish ends the game by rule (value {value})")
    return problems


def read_pgn(path):
    """Games of a PGN written by shuai-tools (ICCS moves, book moves marked
    with a comment starting with 'book')."""
    games = []
    text = open(path, encoding="utf-8").read()
    for block in text.split("\n\n[Event ")[0:]:
        if not block.strip():
            continue
        if not block.startswith("[Event "):
            block = "[Event " + block
        headers, body = {}, []
        for line in block.splitlines():
            if line.startswith("[") and line.endswith("]"):
                k, v = line[1:-1].split(" ", 1)
                headers[k] = v.strip('"')
            else:
                body.append(line)
        moves, book, i = [], 0, 0
        body = " ".join(body)
        while i < len(body):
            c = body[i]
            if c == "{":
                j = body.index("}", i)
                if body[i + 1:j].startswith("book"):
                    book = len(moves)
                i = j + 1
            elif c.isspace():
                i += 1
            else:
                j = i
                while j < len(body) and not body[j].isspace() and body[j] != "{":
                    j += 1
                tok = body[i:j]
                if not tok.endswith(".") and tok not in ("1-0", "0-1", "1/2-1/2", "*"):
                    moves.append(tok)
                i = j
        games.append({
            "index": int(headers.get("Round", len(games) + 1)) - 1,
            "fen": headers["FEN"], "moves": moves, "book_plies": book,
            "result": headers["Result"], "termination": headers["Termination"],
        })
    return games


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("json", nargs="?", help="results of shuai-tools match --json")
    ap.add_argument("--pgn", help="games of shuai-tools match --pgn (ICCS notation)")
    args = ap.parse_args()
    if args.pgn:
        data = {"games": read_pgn(args.pgn)}
    elif args.json:
        data = json.load(open(args.json))
    else:
        ap.error("give a JSON file or --pgn FILE")
    stats = {"games": 0, "agree": 0, "fsf_100ply_claims_earlier": 0,
             "known_mixed_attack_differences": 0, "known_chase_window_differences": 0,
             "known_mate_threat_differences": 0, "known_several_pieces_differences": 0}
    by_term = {}
    bad = 0
    for g in data["games"]:
        stats["games"] += 1
        problems = check_game(g, stats)
        t = g["termination"]
        agree, total = by_term.get(t, (0, 0))
        by_term[t] = (agree + (not problems), total + 1)
        if problems:
            bad += 1
            for p in problems:
                print(f"game {g['index'] + 1} ({t}, {g['result']}): {p}")
        else:
            stats["agree"] += 1
    print(f"{stats['agree']}/{stats['games']} games agree with pyffish {sf.version()}")
    for t, (a, n) in sorted(by_term.items()):
        print(f"  {t}: {a}/{n}")
    print(f"  positions where pyffish's 100-ply rule would allow a draw claim earlier: "
          f"{stats['fsf_100ply_claims_earlier']}")
    print(f"  mixed check/chase cycles (a loss in rules.md, a draw for Fairy-Stockfish, "
          f"counted as agreeing): {stats['known_mixed_attack_differences']}")
    print(f"  chases pyffish only sees when judged from the cycle's start (its window takes the "
          f"entering move too; counted as agreeing): {stats['known_chase_window_differences']}")
    print(f"  cycles judged by mate threats (Fairy-Stockfish has no mate-threat rule; counted as "
          f"agreeing): {stats['known_mate_threat_differences']}")
    print(f"  chases of several pieces in turn (a loss under Chinese rule 28.12, no chase for "
          f"Fairy-Stockfish; counted as agreeing): {stats['known_several_pieces_differences']}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
