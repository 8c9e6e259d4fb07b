#!/usr/bin/env bash
# Makes Shuai's own opening book, engine/books/shuai.obk (docs/books.md,
# tools/README.md "Shuai's own book"): self-play games of Shuai at
# a fixed node count from the start position, with the engine's
# Randomness option for variety, then `shuai-tools book build` over them
# with a deeper search check. Fixed nodes make it independent of the
# machine's speed and load; the engines' random choices are seeded from the
# clock, so a rerun makes a book of the same kind, not the same bytes.
#
#   tools/scripts/book/make-shuai-book.sh SHUAI SHUAI_TOOLS OUT_DIR
#
# Writes OUT_DIR/selfplay.pgn, OUT_DIR/selfplay.txt (the match summary),
# OUT_DIR/build.txt (what book build kept and dropped) and OUT_DIR/shuai.obk.
# Resumable: a step whose output exists is skipped.
set -euo pipefail
shuai=$(realpath "$1"); tools=$(realpath "$2"); out=$3
mkdir -p "$out"
start="rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
echo "$start" >"$out/start.epd"
engine() { echo "name=$1,cmd=$shuai,proto=uci,opt.Randomness=medium,opt.Hash=16"; }
# 1. Self-play: 320 games at 30000 nodes a move, each side choosing at
#    random among its moves within 20 cp of the best (Randomness medium,
#    4 lines searched). Lost and drawn games are adjudicated early to save
#    time; they still count with their result.
if [ ! -f "$out/selfplay.pgn" ]; then
  nice -n 19 "$tools" match --engine "$(engine a)" --engine "$(engine b)" \
    --nodes 30000 --openings "$out/start.epd" --games 320 --concurrency 1 --seed 1 \
    --resign movecount=3,score=800 --draw movenumber=40,movecount=8,score=10 \
    --pgn "$out/selfplay.tmp.pgn" --no-progress >"$out/selfplay.txt"
  mv "$out/selfplay.tmp.pgn" "$out/selfplay.pgn"
fi
# 2. The book: moves of the first 16 plies played in at least 3 games,
#    each checked by a depth-14 search with the embedded network; moves
#    more than 40 cp below the position's best are dropped.
if [ ! -f "$out/shuai.obk" ]; then
  nice -n 19 "$tools" book build "$out/selfplay.pgn" --out "$out/shuai.tmp.obk" \
    --max-ply 16 --min-games 3 --depth 14 --margin 40 --hash 64 --no-progress \
    >"$out/build.txt" 2>&1
  mv "$out/shuai.tmp.obk" "$out/shuai.obk"
fi
tail -n 2 "$out/build.txt"
