#!/usr/bin/env python3
"""Cross-check Shuai's game readers (engine/src/game) against cchess.

cchess (PyPI, `pip install cchess`, GPL-3.0) is a test oracle only: it is
never a dependency of Shuai. Usage:

    cargo build --release -p shuai-engine --example read_games
    python3 crosscheck.py [--oracle ORACLE.jsonl] FILE...

For every file (one game each: cchess reads one game from an XQF or PGN
file) both readers' start position and move lines (every line of the
tree, in ICCS) are compared; the FEN is compared on its board and side to
move. Prints one line per disagreement and a summary.
"""
import json, subprocess, sys, os

def cchess_read(path):
    from cchess.read_xqf import read_from_xqf
    from cchess.read_pgn import read_from_pgn
    try:
        g = read_from_xqf(path) if path.lower().endswith('.xqf') else read_from_pgn(path)
        return {"fen": g.init_board.to_fen(), "lines": g.dump_iccs_moves()}
    except Exception as e:  # the oracle failing is a finding too
        return {"error": repr(e)}

def main(argv):
    oracle = {}
    if argv[:1] == ['--oracle']:
        for line in open(argv[1], encoding='utf-8'):
            o = json.loads(line)
            oracle[o['file']] = o
        argv = argv[2:]
    here = os.path.dirname(os.path.abspath(__file__))
    exe = os.path.join(here, '../../../target/release/examples/read_games')
    ours = {}
    out = subprocess.run([exe] + argv, capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        o = json.loads(line)
        ours.setdefault(o['file'], []).append(o)
    files = games = moves = agree = 0
    problems = []
    for path in argv:
        files += 1
        them = oracle.get(path) or cchess_read(path)
        us = ours.get(path, [{}])
        if 'error' in them or 'error' in us[0]:
            problems.append(f"{path}: cchess {them.get('error', 'ok')}; shuai {us[0].get('error', 'ok')}")
            continue
        games += 1
        g = us[0]
        moves += sum(len(l) for l in g['lines'])
        same_fen = g['fen'].split()[:2] == them['fen'].split()[:2]
        # Both sides name Red 'w'; cchess may write 'r'.
        if not same_fen and g['fen'].split()[0] == them['fen'].split()[0]:
            same_fen = {g['fen'].split()[1], them['fen'].split()[1]} <= {'w', 'r'}
        ours_lines = [l for l in g['lines'] if l]
        their_lines = [l for l in them['lines'] if l]
        if same_fen and ours_lines == their_lines:
            agree += 1
        else:
            why = []
            if not same_fen:
                why.append(f"fen {g['fen']} vs {them['fen']}")
            if ours_lines != their_lines:
                why.append(f"lines {len(ours_lines)} vs {len(their_lines)}, "
                           f"main {len(ours_lines[0]) if ours_lines else 0} vs "
                           f"{len(their_lines[0]) if their_lines else 0} moves")
            if g.get('problems'):
                why.append('our problems: ' + '; '.join(g['problems'][:3]))
            problems.append(f"{path}: " + ', '.join(why))
    for p in problems:
        print(p)
    print(f"{files} files, {games} read by both, {moves} moves (all lines), "
          f"{agree} identical, {len(problems)} differing")

if __name__ == '__main__':
    main(sys.argv[1:])
