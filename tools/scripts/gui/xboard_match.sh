#!/bin/bash
# Games in a real GUI: XBoard (under Xvfb) plays Shuai against ElephantEye
# with its opening book, and every game's ending is checked (issue 51).
#
#   tools/scripts/gui/xboard_match.sh [GAMES] [MODES]
#
# GAMES per mode (default 10); MODES (default "xboard uci ucci"):
#   xboard  Shuai speaks XBoard's own protocol (no adapter)
#   uci     Shuai through UCI2WB in UCI mode     (uci2wb shuai)
#   ucci    Shuai through UCI2WB in UCCI mode    (uci2wb -x shuai)
# ElephantEye always plays through `uci2wb -x`.
#
# Needs Debian's xboard, uci2wb and xvfb packages, and ELEEYE_DIR: a folder
# with ElephantEye's `eleeye` binary (built outside this repository from
# xqbase/eleeye) and its BOOK.DAT beside it, so it answers book moves at
# once. SHUAI (default target/release/shuai), TC (default 0:20) and INC
# (default 0.2) may be set; OUT (default target/gui-match) gets one folder
# per mode with XBoard's PGN and debug log.
#
# Prints, per mode, Shuai's W-D-L and how each game ended. A game "ends by
# the board" when XBoard records a mate, a stalemate, a resignation, a
# repetition or draw adjudication; a forfeit (illegal move, time, crash) is
# listed with the engine that caused it. Exits 1 if Shuai forfeited a game
# in the xboard or uci mode. In ucci mode UCI2WB itself can replay a
# `usermove` (its two threads share an unguarded queue), which sends an
# engine a position with the mover to move again; those forfeits, Shuai's
# or ElephantEye's, are the adapter's and are reported, not failed on.
set -u
games=${1:-10}
modes=${2:-"xboard uci ucci"}
root=$(cd "$(dirname "$0")/../../.." && pwd)
shuai=${SHUAI:-$root/target/release/shuai}
out=${OUT:-$root/target/gui-match}
tc=${TC:-0:20}
inc=${INC:-0.2}
ee=${ELEEYE_DIR:?set ELEEYE_DIR to a folder with eleeye and BOOK.DAT}
for tool in /usr/games/xboard /usr/games/uci2wb xvfb-run; do
  command -v "$tool" >/dev/null || { echo "missing $tool (apt-get install xboard uci2wb xvfb)"; exit 2; }
done
[ -x "$shuai" ] || { echo "no Shuai binary at $shuai (cargo build --release)"; exit 2; }
[ -x "$ee/eleeye" ] && [ -f "$ee/BOOK.DAT" ] || { echo "ELEEYE_DIR needs eleeye and BOOK.DAT"; exit 2; }

status=0
for mode in $modes; do
  dir=$out/$mode
  rm -rf "$dir"; mkdir -p "$dir/home"
  case $mode in
    xboard) first=(-fcp "$shuai") ;;
    uci) first=(-fcp "/usr/games/uci2wb $shuai") ;;
    ucci) first=(-fcp "/usr/games/uci2wb -x $shuai") ;;
    *) echo "unknown mode $mode"; exit 2 ;;
  esac
  start=$(date +%s)
  # XBoard keeps its settings in $HOME; a fresh one per run.
  (cd "$dir" && HOME=$dir/home timeout $((games * 200 + 120)) \
    xvfb-run -a -s "-screen 0 1280x1024x24" /usr/games/xboard -variant xiangqi \
      "${first[@]}" -fd "$dir" -fn Shuai \
      -scp "/usr/games/uci2wb -x ./eleeye" -sd "$ee" \
      -matchMode true -matchGames "$games" -tc "$tc" -inc "$inc" -xponder \
      -debug -nameOfDebugFile "$dir/xboard.debug" -saveGameFile "$dir/games.pgn" \
      -autoCallFlag true -popupExitMessage false >"$dir/xboard.out" 2>&1)
  secs=$(( $(date +%s) - start ))
  python3 - "$dir" "$mode" "$games" "$secs" <<'EOF' || status=1
import re, sys
from collections import Counter
d, mode, want, secs = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
pgn = open(f"{d}/games.pgn", errors="replace").read() if __import__("os").path.exists(f"{d}/games.pgn") else ""
debug = open(f"{d}/xboard.debug", errors="replace").read()
games = re.split(r'(?=\[Event )', pgn)
games = [g for g in games if g.strip()]
w = dr = l = 0
ends = Counter()
forfeits = []
for g in games:
    red = re.search(r'\[White "([^"]*)"\]', g).group(1)
    result = re.search(r'\[Result "([^"]*)"\]', g).group(1)
    m = re.findall(r'\{([^}]*)\}\s*(?:1-0|0-1|1/2-1/2|\*)\s*$', g.strip())
    how = m[-1] if m else "no result"
    shuai_red = red.startswith("Shuai")
    if result == "1/2-1/2":
        dr += 1
    elif (result == "1-0") == shuai_red and result in ("1-0", "0-1"):
        w += 1
    elif result in ("1-0", "0-1"):
        l += 1
    bad = re.search(r'Forfeit|[Ii]llegal|time|died|crash|disconnect|no result', how)
    if bad:
        who = "?"
        ill = re.search(r'invalid move: (\S+)', how)
        if ill:
            # The engine whose move it was lost the game.
            loser_red = result == "0-1"
            who = "Shuai" if loser_red == shuai_red else "ElephantEye"
        elif "time" in how:
            who = "Shuai" if ((result == "0-1") == shuai_red) else "ElephantEye"
        forfeits.append((who, how))
        ends["forfeit: " + who] += 1
    else:
        ends[re.sub(r'\s+', ' ', how)] += 1
print(f"{mode}: {len(games)}/{want} games in {secs} s, Shuai {w}-{dr}-{l} (W-D-L)")
for k, v in sorted(ends.items(), key=lambda kv: -kv[1]):
    print(f"  {v:3d}  {k}")
for who, how in forfeits:
    print(f"  forfeit by {who}: {how}")
shuai_forfeits = sum(1 for who, _ in forfeits if who != "ElephantEye")
if len(games) < want:
    print(f"  only {len(games)} of {want} games were played")
    sys.exit(1)
if mode != "ucci" and shuai_forfeits:
    sys.exit(1)
EOF
done
exit $status
