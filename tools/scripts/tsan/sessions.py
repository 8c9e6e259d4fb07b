#!/usr/bin/env python3
"""UCI sessions that make the engine's threads share state in every way a
GUI can, for tsan.sh (issue 50): searches on 4 threads stopped mid-way,
`go ponder` turned into a search by `ponderhit`, `Threads` and `Hash`
changed between searches, `isready` during a search, and endgame searches
with tables loaded, so that several threads probe the shared tablebase
and its cache at once.

The engine is a ThreadSanitizer build (5 to 15 times slower than the real
one), so the waits are generous. A missing answer (`readyok`, `bestmove`)
or an exit status other than 0 fails the run (status 1); the TSan reports
themselves are counted by tsan.sh from their log files.

    sessions.py --engine PATH --egtb DIR [--length full|short] [--seed N]
"""

import argparse
import queue
import random
import subprocess
import sys
import threading
import time

# Positions from the opening to the endgame (FEN), searched in turn.
POSITIONS = [
    "startpos",
    "startpos moves h2e2 h9g7 h0g2 i9h9",
    "fen r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w",
    "fen 2bak4/4a4/4b4/p3p3p/2p3p2/6P2/P1P1P3P/4B4/4A4/2BAK4 w",
    "fen 4k4/4a4/9/9/9/9/9/9/9/R2K5 w",
]

# Endgame positions of the tables tsan.sh generates (rook against advisor,
# and the endings its captures lead to).
TABLE_POSITIONS = [
    "fen 4ka3/9/9/9/9/9/9/9/9/R2K5 w",
    "fen 3k5/4a4/9/9/9/9/9/9/9/4K3R w",
    "fen 5k3/9/3a5/9/9/9/9/9/4R4/3K5 b",
]


class Engine:
    """One engine process, its output read by a thread into a queue."""

    def __init__(self, path):
        self.proc = subprocess.Popen(
            [path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.sent = []

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def send(self, line):
        self.sent.append(line)
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def expect(self, prefix, timeout):
        """Reads lines until one starts with `prefix`; fails on silence."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                fail(f"the engine ended while waiting for '{prefix}'", self)
            if line.startswith(prefix):
                return line
        fail(f"no '{prefix}' within {timeout} s", self)

    def sync(self):
        self.send("isready")
        self.expect("readyok", 60)


def fail(why, engine):
    print(f"sessions.py: {why}; last commands sent: {engine.sent[-6:]}", file=sys.stderr)
    engine.proc.kill()
    sys.exit(1)


def search_and_stop(e, rng, position, pause):
    """`go infinite`, an `isready` during the search, then `stop`."""
    e.send(f"position {position}")
    e.send("go infinite")
    time.sleep(pause * rng.uniform(0.3, 1.0))
    e.sync()
    time.sleep(pause * rng.uniform(0.0, 0.7))
    e.send("stop")
    e.expect("bestmove", 60)


def ponder_then_hit(e, rng, position, pause):
    """`go ponder` on the clock, `ponderhit`, and the search's own end."""
    e.send(f"position {position}")
    e.send("go ponder wtime 3000 btime 3000 winc 0 binc 0")
    time.sleep(pause * rng.uniform(0.2, 1.0))
    e.send("ponderhit")
    e.expect("bestmove", 120)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", required=True)
    ap.add_argument("--egtb", required=True)
    ap.add_argument("--length", choices=["full", "short"], default="full")
    ap.add_argument("--seed", type=int, default=50)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    # Rounds of (stop, ponderhit, tables) and the time a search runs.
    rounds, pause = (10, 1.0) if args.length == "full" else (3, 0.6)

    e = Engine(args.engine)
    e.send("uci")
    e.expect("uciok", 60)
    e.send("setoption name Threads value 4")
    e.send("setoption name Hash value 16")
    e.send("setoption name Ponder value true")
    e.sync()
    searches = 0
    for r in range(rounds):
        for _ in range(2):
            search_and_stop(e, rng, POSITIONS[searches % len(POSITIONS)], pause)
            searches += 1
        ponder_then_hit(e, rng, POSITIONS[searches % len(POSITIONS)], pause)
        searches += 1
        # Threads and Hash changed between searches: the pool and the
        # table are rebuilt while the previous threads wind down.
        e.send(f"setoption name Threads value {rng.choice([1, 2, 3, 4])}")
        e.send(f"setoption name Hash value {rng.choice([1, 4, 16, 32])}")
        if r % 2 == 1:
            e.send("ucinewgame")
        search_and_stop(e, rng, POSITIONS[searches % len(POSITIONS)], pause)
        searches += 1
        e.send("setoption name Threads value 4")
        e.sync()

    # The tables: 4 threads probing at once, with a cache small enough to
    # evict (1 MB), then a search to the end of its own time.
    e.send(f"setoption name EGTB Path value {args.egtb}")
    e.send("setoption name EGTB Cache value 1")
    e.send("setoption name Threads value 4")
    e.sync()
    for r in range(rounds):
        pos = TABLE_POSITIONS[r % len(TABLE_POSITIONS)]
        search_and_stop(e, rng, pos, pause)
        e.send(f"position {pos}")
        e.send("go movetime 500")
        e.expect("bestmove", 120)
        searches += 2
    e.send("quit")
    try:
        status = e.proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        fail("no exit within 60 s of 'quit'", e)
    if status != 0:
        fail(f"exit status {status}", e)
    print(f"sessions.py: {searches} searches on up to 4 threads, all answered", file=sys.stderr)


if __name__ == "__main__":
    main()
