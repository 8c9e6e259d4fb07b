#!/usr/bin/env bash
# Runs every target at once for SECONDS seconds (default 1800) or until it
# has ten million executions, on the machine's idle time only, then prints
# each target's executions and whether it found a crash.
#
# Runs add up: the corpus stays in corpus/TARGET between runs and each
# run's log is kept as logs/TARGET.N.log, so a second run goes on from
# what the first learned and asks only for the executions still missing;
# a target with ten million is skipped. `./run-all.sh 0` only prints the
# totals. Needs `cargo +nightly fuzz build -s none` first (see README.md).
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-1800}
goal=10000000
bin=target/x86_64-unknown-linux-gnu/release
source ./targets.sh
mkdir -p logs
# The book targets write every input to a file (books are opened by
# path): on tmpfs that costs microseconds, on this disk milliseconds.
[[ -d /dev/shm ]] && export TMPDIR=/dev/shm
[[ -d seeds ]] || "$bin/make_seeds"
# A target without a corpus yet starts from the one kept in the
# repository (keep-corpus.sh writes it), not from the seeds alone.
for t in "${targets[@]}"; do
  if [[ ! -d corpus/$t && -f corpus-min/$t.tar.gz ]]; then
    mkdir -p corpus
    tar -xzf "corpus-min/$t.tar.gz" -C corpus
  fi
done

# Executions of TARGET over all its logged runs.
executions() {
  find logs -name "$1.*.log" -exec cat {} + |
    awk '/^stat::number_of_executed_units:/ { n += $2 } END { print n + 0 }'
}

commands=()
for t in "${targets[@]}"; do
  done_runs=$(executions "$t")
  left=$((goal - done_runs))
  ((left > 0 && seconds > 0)) || continue
  mkdir -p "corpus/$t" "artifacts/$t"
  n=1
  while [[ -e logs/$t.$n.log ]]; do n=$((n + 1)); done
  commands+=("$bin/$t corpus/$t seeds/$t -runs=$left -max_total_time=$seconds \
-timeout=10 -malloc_limit_mb=256 -print_final_stats=1 -artifact_prefix=artifacts/$t/ \
>logs/$t.$n.log 2>&1 &")
done
if ((${#commands[@]} > 0)); then
  # One autogroup at nice 19 for all of them (a process's nice value is
  # not enough where the kernel groups processes by session, and seven
  # autogroups would take seven times the share of one).
  script="echo 19 > /proc/self/autogroup; "
  for c in "${commands[@]}"; do script+="nice -n 19 $c "; done
  setsid --wait sh -c "$script wait"
fi
for t in "${targets[@]}"; do
  crashes=$( (find "artifacts/$t" -type f 2>/dev/null || true) | wc -l)
  echo "$t: $(executions "$t") executions, $crashes crash/timeout/oom inputs"
done
