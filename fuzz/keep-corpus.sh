#!/usr/bin/env bash
# Shrinks what the fuzzer has learned to the inputs that still add
# coverage (libFuzzer's -merge=1 over corpus/TARGET and seeds/TARGET) and
# keeps it as corpus-min/TARGET.tar.gz, committed: a few hundred kilobytes
# in place of thousands of files. `run-all.sh` starts a target from its
# archive when corpus/TARGET is missing (a fresh clone or machine). The
# archives are byte-stable for the same inputs (sorted names, no dates,
# no owners). Needs `cargo +nightly fuzz build -s none` first.
set -euo pipefail
cd "$(dirname "$0")"
bin=target/x86_64-unknown-linux-gnu/release
source ./targets.sh
[[ -d /dev/shm ]] && export TMPDIR=/dev/shm
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p corpus-min
for t in "${targets[@]}"; do
  mkdir -p "$work/$t" "corpus/$t"
  "$bin/$t" -merge=1 -timeout=10 -malloc_limit_mb=256 "$work/$t" "corpus/$t" "seeds/$t" \
    >"$work/$t.log" 2>&1
  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$work" -cf - "$t" |
    gzip -n -9 >"corpus-min/$t.tar.gz"
  echo "$t: $(find "$work/$t" -type f | wc -l) inputs, $(stat -c %s "corpus-min/$t.tar.gz") bytes packed"
done
