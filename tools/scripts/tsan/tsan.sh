#!/usr/bin/env bash
# ThreadSanitizer on the engine (issue 50): the lock-free transposition
# table, Lazy SMP's shared state and the tablebase cache are shared by
# search threads with `unsafe` code and atomics, and only a race detector
# sees a data race that happens to give the right answer.
#
#   tsan.sh setup      Debian's compiler and the TSan runtime (idempotent)
#   tsan.sh build      shuai and shuai-tools built with -Zsanitizer=thread
#   tsan.sh run        the full run (several minutes; see below)
#   tsan.sh short      the short run CI does (about a minute once built)
#   tsan.sh all        setup, build, run          (default)
#   tsan.sh ci         setup, build, short
#
# Why this route: rustup cannot fetch the nightly's rust-src here, but
# Debian's rustc-web comes with rust-web-src, the standard library's
# sources, so RUSTC_BOOTSTRAP=1 lets that stable compiler take the nightly
# flags -Zsanitizer=thread and -Z build-std. std must be rebuilt with the
# sanitizer: an uninstrumented std hides its synchronisation (rayon's
# latches park and unpark threads through it) and TSan then reports
# races that are not there. Debian does not ship the TSan runtime the
# compiler links (librustc-stable_rt.tsan.a); rustup's stable toolchain
# does, and `setup` copies it into Debian's rustlib folder.
#
# What runs (every one under TSan, which makes code 5-15 times slower):
#   * racy/, a program with a deliberate data race, which must be reported
#     (else TSan is not working and "0 reports" would mean nothing);
#   * `shuai bench` on 4 threads;
#   * UCI sessions on 4 threads: searches stopped mid-way by `stop`, a
#     `go ponder` turned into a search by `ponderhit`, `Threads` and
#     `Hash` changed between searches, `ucinewgame`, and searches of
#     endgame positions with tables loaded (`EGTB Path`), so that the
#     threads probe the shared tablebase and its cache at once.
# Any TSan report fails the run (exit status 1) and is printed; a report
# must be fixed, or explained in a `// SAFETY:` comment at the code it
# names and suppressed there, never ignored here.
#
# Environment: SHUAI_TSAN_DIR (cargo's target directory for this build;
# default target/tsan).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
tsan_dir=${SHUAI_TSAN_DIR:-$root/target/tsan}
target=x86_64-unknown-linux-gnu
packages=(rustc-web cargo-web rust-web-src)
runtime=librustc-stable_rt.tsan.a

die() {
  echo "tsan.sh: $*" >&2
  exit 1
}

say() { echo "tsan.sh: $*" >&2; }

# --- setup ---------------------------------------------------------------

missing_packages() {
  local p
  for p in "${packages[@]}"; do
    if [[ $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null) != "install ok installed" ]]; then
      echo "$p"
    fi
  done
}

sudo_cmd() {
  if ((EUID != 0)); then
    command -v sudo >/dev/null || die "needs root (or sudo) for: $*"
    sudo -n "$@"
  else
    "$@"
  fi
}

setup() {
  [[ $(uname -m) == x86_64 ]] || die "this script is for x86_64 Linux"
  command -v dpkg-query >/dev/null && command -v apt-get >/dev/null ||
    die "this script needs a Debian (12 or later) machine with apt-get"
  local missing
  mapfile -t missing < <(missing_packages)
  if ((${#missing[@]} > 0)); then
    say "installing ${missing[*]}"
    sudo_cmd apt-get update -qq || die "apt-get update failed: cannot install ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive sudo_cmd apt-get install -y -qq "${missing[@]}" >&2 ||
      die "apt-get install ${missing[*]} failed"
    mapfile -t missing < <(missing_packages)
    ((${#missing[@]} == 0)) || die "still missing after apt-get: ${missing[*]}"
  fi
  local debian_lib rustup_lib
  debian_lib="$(/usr/bin/rustc --print sysroot)/lib/rustlib/$target/lib"
  if [[ ! -f $debian_lib/$runtime ]]; then
    command -v rustup >/dev/null || die "no rustup to take $runtime from"
    rustup_lib="$(rustup run stable rustc --print sysroot)/lib/rustlib/$target/lib"
    [[ -f $rustup_lib/$runtime ]] || die "rustup's stable toolchain has no $rustup_lib/$runtime"
    say "copying $runtime from rustup's stable toolchain into $debian_lib"
    sudo_cmd cp "$rustup_lib/$runtime" "$debian_lib/$runtime"
  fi
  say "Debian's $(/usr/bin/rustc --version) with the TSan runtime: ready"
}

# --- build ---------------------------------------------------------------

binary() { echo "$tsan_dir/$target/release/${1:-shuai}"; }

build() {
  [[ -f "$(/usr/bin/rustc --print sysroot)/lib/rustlib/$target/lib/$runtime" ]] ||
    die "run '$0 setup' first"
  say "building shuai with ThreadSanitizer into $tsan_dir"
  local start=$SECONDS
  # /usr/bin first: rustup's proxies in ~/.cargo/bin would shadow Debian's
  # compiler, and build-std needs the sources that match the compiler.
  # The release profile without fat LTO and with line tables: the build
  # is three times quicker and the reports name files and lines; the
  # optimiser still reorders memory accesses as in the real build.
  (
    cd "$root"
    export PATH="/usr/bin:$PATH" RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1
    export RUSTFLAGS="-Zsanitizer=thread" CARGO_TARGET_DIR="$tsan_dir"
    export CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
    export CARGO_PROFILE_RELEASE_DEBUG=line-tables-only
    /usr/bin/cargo build --release --locked -Z build-std --target "$target" \
      --bin shuai --bin shuai-tools
    # The deliberate race of racy/ (seconds: std is built already).
    /usr/bin/cargo build --release -Z build-std --target "$target" \
      --manifest-path "$here/racy/Cargo.toml"
  ) || die "the TSan build failed"
  [[ -x $(binary) && -x $(binary shuai-tools) ]] || die "the build made no $(binary)"
  say "built $(binary) and shuai-tools in $((SECONDS - start)) s"
}

# --- run -----------------------------------------------------------------

# Runs the checks: $1 is "full" or "short".
run() {
  local length=$1 bin log tables start=$SECONDS
  bin=$(binary)
  [[ -x $bin ]] || die "no $bin: run '$0 build' first"
  log=$(mktemp -d "${TMPDIR:-/tmp}/shuai-tsan.XXXXXX")
  # Small tables (rook against advisor with its sub-endings, 4 pieces,
  # a few hundred kB), made by this build's own generator: generation
  # sweeps the tables on rayon threads, so it is checked too.
  tables="$log/egtb"
  # Every report goes to its own file under $log (log_path), and the
  # programs' exit status stays theirs: the reports are counted below.
  export TSAN_OPTIONS="log_path=$log/report halt_on_error=0 exitcode=0 second_deadlock_stack=1 history_size=4"
  # The check that TSan sees races at all: the racy program must give a
  # report, counted the same way.
  "$(binary tsan-racy)" >/dev/null
  if ! cat "$log"/report.* 2>/dev/null | grep -q '^WARNING: ThreadSanitizer: data race'; then
    die "the deliberate race of racy/ gave no report: TSan is not working"
  fi
  rm -f "$log"/report.*
  say "the deliberate race of racy/ was reported: TSan works"
  say "generating the KRKA tables under TSan"
  "$(binary shuai-tools)" egtb gen KRKA --out "$tables" --threads 4 >"$log/egtb-gen.out" 2>&1 ||
    die "table generation failed: $(tail -n 5 "$log/egtb-gen.out")"
  local depth=9
  [[ $length == short ]] && depth=7
  say "bench on 4 threads, depth $depth"
  "$bin" bench "$depth" --threads 4 >"$log/bench.out" 2>&1 ||
    die "bench failed: $(tail -n 5 "$log/bench.out")"
  say "UCI sessions ($length)"
  python3 "$here/sessions.py" --engine "$bin" --egtb "$tables" --length "$length" ||
    die "the sessions failed (logs in $log)"
  local reports
  reports=$(cat "$log"/report.* 2>/dev/null | grep -c '^WARNING: ThreadSanitizer' || true)
  if ((reports > 0)); then
    cat "$log"/report.* >&2
    die "$reports ThreadSanitizer report(s) (above; files in $log)"
  fi
  rm -rf "$log"
  say "0 ThreadSanitizer reports ($length run, $((SECONDS - start)) s)"
}

case ${1:-all} in
setup) setup ;;
build) build ;;
run) run full ;;
short) run short ;;
all) setup && build && run full ;;
ci) setup && build && run short ;;
*) die "unknown command '$1' (setup, build, run, short, all, ci)" ;;
esac
