#!/usr/bin/env bash
# Calibration matches for the strength levels (docs/strength.md,
# tools/README.md "Calibrating the levels"). Every match is at fixed nodes
# (the levels) or fixed depth (the anchors), so the results do not depend on
# the machine or its load. Resumable: a match whose JSON exists is skipped.
#
#   tools/scripts/levels/calibrate.sh SHUAI SHUAI_TOOLS ELEEYE_DIR OUT_DIR
#
# ELEEYE_DIR holds ElephantEye 3.31's `eleeye` binary built outside the
# project (see the opponents' notes; it is not part of Shuai).
set -euo pipefail
shuai=$(realpath "$1"); tools=$(realpath "$2"); ee_dir=$(realpath "$3"); out=$4
mkdir -p "$out"
ee() { echo "name=ee-d$1,cmd=$ee_dir/eleeye,proto=ucci,dir=$ee_dir,depth=$1"; }
lv() { echo "name=lv$1,cmd=$shuai,opt.Skill Level=$1"; }
play() { # name games engine1 engine2
  [ -f "$out/$1.json" ] && return 0
  "$tools" match --engine "$3" --engine "$4" --tc 120+1 --games "$2" --concurrency 2 \
    --seed 11 --json "$out/$1.tmp.json" --pgn "$out/$1.pgn" >"$out/$1.txt" 2>/dev/null
  mv "$out/$1.tmp.json" "$out/$1.json"
  grep -E "^Games" "$out/$1.txt" | sed "s/^/$1: /"
}
# Levels against the anchors nearest them (100 games for each anchored level).
# Anchored levels: 0, 2, 4, 6, 8, 12, 16, 19 (the low ones are cheap and
# link the anchors, whose neighbouring depths are far apart).
play lv0-ee1 100 "$(lv 0)" "$(ee 1)"
play lv4-ee1 50 "$(lv 4)" "$(ee 1)"
play lv4-ee2 50 "$(lv 4)" "$(ee 2)"
play lv8-ee3 100 "$(lv 8)" "$(ee 3)"
play lv12-ee5 100 "$(lv 12)" "$(ee 5)"
# The anchors among themselves.
for d in 1 2 3 4 5 6; do play "ee$d-ee$((d + 1))" 60 "$(ee $d)" "$(ee $((d + 1)))"; done
# Neighbouring anchored levels.
play lv4-lv0 60 "$(lv 4)" "$(lv 0)"
play lv8-lv4 60 "$(lv 8)" "$(lv 4)"
play lv12-lv8 60 "$(lv 12)" "$(lv 8)"
play lv16-ee6 50 "$(lv 16)" "$(ee 6)"
play lv16-ee7 50 "$(lv 16)" "$(ee 7)"
play lv16-lv12 60 "$(lv 16)" "$(lv 12)"
play lv19-ee7 100 "$(lv 19)" "$(ee 7)"
play lv19-lv16 60 "$(lv 19)" "$(lv 16)"
# Level 19 wins 93% against depth 7: depth 8 pins it down.
play ee7-ee8 60 "$(ee 7)" "$(ee 8)"
play lv19-ee8 60 "$(lv 19)" "$(ee 8)"
# Bridging levels between the far-apart low anchors.
play lv2-ee1 100 "$(lv 2)" "$(ee 1)"
play lv2-lv0 60 "$(lv 2)" "$(lv 0)"
play lv4-lv2 60 "$(lv 4)" "$(lv 2)"
play lv6-ee2 50 "$(lv 6)" "$(ee 2)"
play lv6-ee3 50 "$(lv 6)" "$(ee 3)"
play lv6-lv4 60 "$(lv 6)" "$(lv 4)"
play lv8-lv6 60 "$(lv 8)" "$(lv 6)"
