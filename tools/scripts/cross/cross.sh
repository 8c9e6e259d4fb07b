#!/usr/bin/env bash
# Builds shuai for Windows and ARM64 Linux on a Debian 12 machine and checks
# each binary under the program that can run it here (Wine, qemu), so that a
# change that breaks another platform shows before it lands. Most Xiangqi
# GUIs are Windows programs: most users need shuai.exe.
#
#   cross.sh install            Debian's toolchain packages (apt-get; root or sudo)
#   cross.sh build TARGET...    cross-build shuai (release profile)
#   cross.sh check TARGET...    run the built binary through the checks below
#   cross.sh test TARGET        the whole test suite under the target's runner
#   cross.sh path TARGET        print where the built binary is
#
# TARGETs:
#   x86_64-pc-windows-gnu       shuai.exe for users (Windows 10 and later)
#   x86_64-win7-windows-gnu     the same code on the Windows 7 standard
#                               library, which Wine 8 (Debian 12) can run:
#                               the one the checks run. (Wine 8 cannot start
#                               the first: its standard library imports
#                               ProcessPrng from bcryptprimitives.dll, which
#                               Wine 8 lacks and Windows 10 has.)
#   aarch64-unknown-linux-gnu   ARM64 Linux, run under qemu-aarch64
#   x86_64-unknown-linux-gnu    this machine (build and check only; for releases)
#
# Why this route: rustup cannot fetch other targets' standard libraries
# here, so Debian's rustc-web (with rust-web-src, the standard library's
# sources) builds std for the target from source (-Z build-std, allowed on
# a stable compiler by RUSTC_BOOTSTRAP=1). On Windows itself a user simply
# runs `cargo build --release`.
#
# The checks, for each binary: `bench` gives README.md's signature; a UCCI
# and a UCI session each do the handshake, set Hash and Threads, search to
# depth 8 and answer `bestmove`, answer a bad command and a bad FEN with one
# message line and then still answer `isready`; `quit` ends the program
# with status 0. Anything else fails loudly (exit status 1).
#
# Environment: SHUAI_CROSS_DIR (cargo's target directory for these builds;
# default target/cross), SHUAI_WINEPREFIX (default ~/.cache/shuai-wine).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cross_dir=${SHUAI_CROSS_DIR:-$root/target/cross}
packages=(rustc-web cargo-web rust-web-src gcc-mingw-w64-x86-64 gcc-aarch64-linux-gnu
  libc6-dev-arm64-cross wine wine64 qemu-user zip)

die() {
  echo "cross.sh: $*" >&2
  exit 1
}

say() { echo "cross.sh: $*" >&2; }

# --- install -------------------------------------------------------------

missing_packages() {
  local p
  for p in "${packages[@]}"; do
    if [[ $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null) != "install ok installed" ]]; then
      echo "$p"
    fi
  done
}

install() {
  command -v dpkg-query >/dev/null && command -v apt-get >/dev/null ||
    die "this script needs a Debian (12 or later) machine with apt-get"
  local missing
  mapfile -t missing < <(missing_packages)
  if ((${#missing[@]} == 0)); then
    say "toolchain packages present"
    return
  fi
  local sudo=()
  if ((EUID != 0)); then
    command -v sudo >/dev/null || die "missing packages ${missing[*]}: run as root: apt-get install ${missing[*]}"
    sudo=(sudo -n)
  fi
  # With their recommended packages, as on the machine where this was
  # verified (cheaper lists risk a Wine or toolchain piece left out).
  say "installing ${missing[*]}"
  "${sudo[@]}" apt-get update -qq ||
    die "apt-get update failed: cannot install ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq \
    "${missing[@]}" >&2 ||
    die "apt-get install ${missing[*]} failed"
  mapfile -t missing < <(missing_packages)
  ((${#missing[@]} == 0)) || die "still missing after apt-get: ${missing[*]}"
}

# --- build ---------------------------------------------------------------

# The C compiler and linker for a target (rusqlite compiles SQLite in C).
target_cc() {
  case $1 in
  *-windows-gnu) echo x86_64-w64-mingw32-gcc ;;
  aarch64-unknown-linux-gnu) echo aarch64-linux-gnu-gcc ;;
  x86_64-unknown-linux-gnu) echo cc ;;
  *) die "unknown target '$1'" ;;
  esac
}

exe_name() {
  case $1 in
  *-windows-*) echo shuai.exe ;;
  *) echo shuai ;;
  esac
}

binary_path() {
  target_cc "$1" >/dev/null
  if [[ $1 == x86_64-unknown-linux-gnu ]]; then
    echo "${CARGO_TARGET_DIR:-$root/target}/release/shuai"
  else
    echo "$cross_dir/$1/release/$(exe_name "$1")"
  fi
}

build() {
  local target=$1 cc env_target
  cc=$(target_cc "$target")
  command -v /usr/bin/cargo >/dev/null && command -v "$cc" >/dev/null ||
    die "toolchain missing for $target: run '$0 install' first"
  env_target=$(echo "$target" | tr 'a-z-' 'A-Z_')
  say "building $target"
  local start=$SECONDS
  if [[ $target == x86_64-unknown-linux-gnu ]]; then
    # This machine's own build, with the toolchain cargo's PATH gives (the
    # one the tests and CI use), in the usual target directory.
    (cd "$root" && cargo build --release --locked --bin shuai) || die "build for $target failed"
  else
  # /usr/bin first: rustup's proxies in ~/.cargo/bin would shadow Debian's
  # compiler, and build-std needs the sources that match the compiler.
  (
    cd "$root"
    export PATH="/usr/bin:$PATH" RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1
    export CARGO_TARGET_DIR="$cross_dir"
    export "CARGO_TARGET_${env_target}_LINKER=$cc" "CC_${target//-/_}=$cc"
    /usr/bin/cargo build --release --locked -Z build-std=std,panic_abort \
      --target "$target" --bin shuai
  ) || die "build for $target failed"
  fi
  local bin
  bin=$(binary_path "$target")
  [[ -f $bin ]] || die "build for $target made no $bin"
  say "built $bin ($(stat -c %s "$bin") bytes) in $((SECONDS - start)) s"
}

# --- check ---------------------------------------------------------------

# The command that runs a target's binary on this machine, one word a line.
runner() {
  case $1 in
  x86_64-win7-windows-gnu) printf "%s\n" wine ;;
  aarch64-unknown-linux-gnu) printf '%s\n' qemu-aarch64 -L /usr/aarch64-linux-gnu ;;
  x86_64-unknown-linux-gnu) ;;
  x86_64-pc-windows-gnu) return 1 ;;
  *) die "unknown target '$1'" ;;
  esac
}

wine_ready() {
  export WINEPREFIX=${SHUAI_WINEPREFIX:-$HOME/.cache/shuai-wine} WINEDEBUG=-all
  export WINEDLLOVERRIDES="mscoree,mshtml=" # no Mono/Gecko install prompts
  if [[ ! -f $WINEPREFIX/system.reg ]]; then
    say "creating the Wine prefix $WINEPREFIX"
    mkdir -p "$WINEPREFIX"
    wine wineboot --init >/dev/null 2>&1 || die "wineboot failed for $WINEPREFIX"
    wineserver -w || true
  fi
}

# The signature README.md states, the one `shuai bench` must print.
readme_signature() {
  sed -n 's/^Bench signature (checked by `.ci\/run`): `bench \([0-9]*\)`$/\1/p' "$root/README.md"
}

# Sends one line to the engine of the current session.
send() { printf '%s\n' "$1" >&"${ENGINE[1]}"; }

# Reads the engine's lines until one matches the regex $1 (within $2
# seconds in all); the lines read are kept in `seen`. Fails on silence or
# the end of output.
expect() {
  local pattern=$1 deadline=$((SECONDS + $2)) line
  while ((SECONDS < deadline)); do
    if ! IFS= read -r -t $((deadline - SECONDS)) line <&"${ENGINE[0]}"; then
      break
    fi
    line=${line%$'\r'}
    seen+=("$line")
    [[ $line =~ $pattern ]] && return 0
  done
  die "$session: no line matching '$pattern' within $2 s; last lines: $(printf '[%s] ' "${seen[@]: -5}")"
}

# One protocol session: $1 is ucci or uci; the rest runs the binary.
session() {
  local dialect=$1
  shift
  local session="$target $dialect" seen=() msg
  case $dialect in
  ucci) msg='^info message ' ;;
  uci) msg='^info string ' ;;
  esac
  coproc ENGINE { "$@" 2>>"$log"; }
  local pid=$ENGINE_PID
  send "$dialect"
  expect "^${dialect}ok$" 120
  if [[ $dialect == ucci ]]; then
    send "setoption hashsize 256"
    send "setoption threads 2"
  else
    send "setoption name Hash value 256"
    send "setoption name Threads value 2"
  fi
  send "isready"
  expect '^readyok$' 60
  send "position startpos moves h2e2 h9g7"
  send "go depth 8"
  expect '^bestmove [a-i][0-9][a-i][0-9]' 300
  local best=${seen[-1]}
  seen=()
  send "frobnicate the board"
  expect "${msg}unknown command: frobnicate the board$" 30
  send "position fen this is no fen"
  expect "${msg}invalid FEN" 30
  send "isready"
  expect '^readyok$' 30
  send "quit"
  if [[ $dialect == ucci ]]; then
    expect '^bye$' 30
  fi
  local status=0
  wait "$pid" || status=$?
  ((status == 0)) || die "$session: exit status $status after quit"
  say "$session: handshake, $best, bad command and bad FEN answered, quit with status 0"
}

check() {
  local target=$1 bin run
  bin=$(binary_path "$target")
  [[ -f $bin ]] || die "no $bin: run '$0 build $target' first"
  if [[ $target == x86_64-pc-windows-gnu ]]; then
    check_unrunnable_exe "$bin"
    return
  fi
  mapfile -t run < <(runner "$target")
  [[ ${run[0]:-} == wine ]] && wine_ready
  if ((${#run[@]})); then
    command -v "${run[0]}" >/dev/null || die "no ${run[0]}: run '$0 install' first"
  fi
  local log
  log=$(mktemp)
  local expected start=$SECONDS
  expected=$(readme_signature)
  [[ -n $expected ]] || die "README.md states no bench signature"
  local out
  out=$("${run[@]}" "$bin" bench 2>>"$log" | tail -n 1) || die "$target: bench failed: $(tail -n 5 "$log")"
  local nodes=${out%% *}
  [[ $nodes == "$expected" ]] || die "$target: bench gave '$out', README.md states $expected"
  say "$target: bench $out (README.md: $expected) in $((SECONDS - start)) s"
  session ucci "${run[@]}" "$bin"
  session uci "${run[@]}" "$bin"
  rm -f "$log"
}

# x86_64-pc-windows-gnu cannot run under Wine 8; what can be checked here
# is that it is a 64-bit Windows program that needs no DLL beyond those
# every Windows has (no MinGW runtime to ship beside it).
check_unrunnable_exe() {
  local bin=$1 dlls
  dlls=$(x86_64-w64-mingw32-objdump -p "$bin" | sed -n 's/^\s*DLL Name: //p' | tr 'A-Z' 'a-z' | sort -u)
  x86_64-w64-mingw32-objdump -f "$bin" | grep -q 'pei-x86-64' || die "$bin is no 64-bit Windows program"
  local dll
  for dll in $dlls; do
    case $dll in
    kernel32.dll | ntdll.dll | advapi32.dll | ws2_32.dll | userenv.dll | bcryptprimitives.dll | \
      api-ms-win-core-synch-l1-2-0.dll | oleaut32.dll | ole32.dll | psapi.dll | powrprof.dll | \
      pdh.dll | netapi32.dll | secur32.dll | iphlpapi.dll | shell32.dll | user32.dll | \
      msvcrt.dll | bcrypt.dll | wtsapi32.dll | version.dll) ;;
    *) die "$bin imports $dll, which Windows does not ship" ;;
    esac
  done
  say "x86_64-pc-windows-gnu: a 64-bit Windows program importing only system DLLs ($(echo $dlls)); not run (Wine 8 cannot start it)"
}

# --- test ----------------------------------------------------------------

# The workspace's tests, built for the target and run by its runner
# (cargo's CARGO_TARGET_<T>_RUNNER). Prints cargo's summaries. Built
# without fat LTO and in 16 codegen units (the tests check behaviour, not
# speed; LTO for every test program would take several times as long), in
# a directory of their own so that the checked binary stays as it is.
test_suite() {
  local target=$1 cc env_target run
  cc=$(target_cc "$target")
  [[ $target == x86_64-pc-windows-gnu ]] && die "$target cannot run here (Wine 8)"
  mapfile -t run < <(runner "$target")
  ((${#run[@]})) || die "$target is this machine: use cargo test"
  [[ ${run[0]} == wine ]] && wine_ready
  env_target=$(echo "$target" | tr 'a-z-' 'A-Z_')
  (
    cd "$root"
    export PATH="/usr/bin:$PATH" RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1
    export CARGO_TARGET_DIR="$cross_dir"
    export "CARGO_TARGET_${env_target}_LINKER=$cc" "CC_${target//-/_}=$cc"
    export "CARGO_TARGET_${env_target}_RUNNER=${run[*]}"
    export CARGO_TARGET_DIR="$cross_dir/test" CARGO_PROFILE_RELEASE_LTO=false
    export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
    /usr/bin/cargo test --release --locked -Z build-std=std,panic_abort \
      --target "$target" --workspace --no-fail-fast
  )
}

# --- main ----------------------------------------------------------------

cmd=${1:-}
shift || true
case $cmd in
install) install ;;
build)
  (($#)) || die "build: name a target"
  for t in "$@"; do build "$t"; done
  ;;
check)
  (($#)) || die "check: name a target"
  for t in "$@"; do check "$t"; done
  ;;
test)
  (($# == 1)) || die "test: name one target"
  test_suite "$1"
  ;;
path)
  (($# == 1)) || die "path: name one target"
  binary_path "$1"
  ;;
*)
  sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
  exit 2
  ;;
esac
