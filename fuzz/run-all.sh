#!/usr/bin/env bash
# Runs every target at once for SECONDS seconds (default 1800) or ten
# million inputs each, whichever comes first, on the machine's idle time
# only (its own autogroup at nice 19: plain nice does not make it yield),
# then prints each target's executions and whether it found a crash.
# Needs `cargo +nightly fuzz build -s none` first (see README.md).
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-1800}
bin=target/x86_64-unknown-linux-gnu/release
targets=(book_elephanteye book_sqlite egtb nnue game_xqf game_pgn game_dhtmlxq)
mkdir -p logs
# The book targets write every input to a file (books are opened by
# path): on tmpfs that costs microseconds, on this disk milliseconds.
[[ -d /dev/shm ]] && export TMPDIR=/dev/shm
[[ -d seeds ]] || "$bin/make_seeds"
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t" "artifacts/$t"
  setsid sh -c "echo 19 > /proc/self/autogroup; exec nice -n 19 $bin/$t corpus/$t seeds/$t \
    -runs=10000000 -max_total_time=$seconds -timeout=10 -malloc_limit_mb=256 \
    -print_final_stats=1 -artifact_prefix=artifacts/$t/" >"logs/$t.log" 2>&1 &
done
wait
for t in "${targets[@]}"; do
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "logs/$t.log")
  crashes=$(ls "artifacts/$t" | wc -l)
  echo "$t: ${runs:-?} executions, $crashes crash/timeout/oom inputs"
done
