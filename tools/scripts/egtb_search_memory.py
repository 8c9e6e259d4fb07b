#!/usr/bin/env python3
"""Memory of a UCI search session that touches many endgame tables.

Starts the engine, sets `EGTB Path` and `EGTB Cache`, searches each FEN
of a file for a fixed time (`ucinewgame` between), and prints after each
search the engine's resident memory (VmRSS of /proc, so Linux only) and
how many table files it holds open (a table's file stays open once a probe
has needed it). A path of `-` searches without tables, for the baseline.

    tools/scripts/egtb_search_memory.py target/release/shuai DIR[;DIR...] CACHE_MB MOVETIME_MS FENS

egtb/TABLES.md ("Memory of a search that touches many tables") has a run.
"""
import os
import subprocess
import sys


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    engine, dirs, cache_mb, movetime, fen_file = sys.argv[1:]
    fens = [l.strip() for l in open(fen_file, encoding="utf-8") if l.strip()]
    # `nice` execs the engine, so the child's pid is the engine's.
    p = subprocess.Popen(["nice", "-n", "19", engine], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def wait(word):
        lines = []
        while True:
            line = p.stdout.readline()
            if not line:
                sys.exit("the engine stopped")
            lines.append(line.rstrip())
            if line.startswith(word):
                return lines

    def rss_mb():
        with open(f"/proc/{p.pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS"):
                    return int(line.split()[1]) // 1024
        return -1

    def open_tables():
        names = set()
        for fd in os.listdir(f"/proc/{p.pid}/fd"):
            try:
                target = os.readlink(f"/proc/{p.pid}/fd/{fd}")
            except OSError:
                continue
            if target.endswith(".egtb"):
                names.add(os.path.basename(target)[:-5])
        return names

    send("uci")
    wait("uciok")
    send("setoption name Hash value 16")
    send("setoption name Threads value 1")
    if dirs != "-":
        send(f"setoption name EGTB Path value {dirs}")
    send(f"setoption name EGTB Cache value {cache_mb}")
    send("isready")
    wait("readyok")
    print(f"start: VmRSS {rss_mb()} MB, tables open 0", flush=True)
    for fen in fens:
        send("ucinewgame")
        send("isready")
        wait("readyok")
        send(f"position fen {fen}")
        send(f"go movetime {movetime}")
        info = [l for l in wait("bestmove") if l.startswith("info") and " nodes " in l]
        words = info[-1].split() if info else []

        def field(name):
            return words[words.index(name) + 1] if name in words else "-"

        print(f"{fen}: depth {field('depth')} nodes {field('nodes')} tbhits {field('tbhits')}; "
              f"VmRSS {rss_mb()} MB, tables open {len(open_tables())}", flush=True)
    print("tables: " + " ".join(sorted(open_tables())))
    send("quit")
    p.wait()


if __name__ == "__main__":
    main()
