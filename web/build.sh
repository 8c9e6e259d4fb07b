#!/usr/bin/env bash
# Builds Shuai for the browser: the engine as a WebAssembly module
# (crate wasm/, target wasm32-unknown-unknown) into web/package/dist/:
#
#   shuai.wasm       the module (for a bundler or a page that fetches it)
#   shuai-wasm.js    the same bytes as base64 in a classic script, which a
#                    page opened from file:// can load (Chrome refuses
#                    fetch, module scripts and worker files there)
#
# Route: rustup's wasm32-unknown-unknown standard library (`rustup target
# add wasm32-unknown-unknown`; this script tries that first). Where rustup
# cannot fetch it, Debian's rustc-web + rust-web-src build the standard
# library from source (-Z build-std, RUSTC_BOOTSTRAP=1), linked by rustup's
# rust-lld, as tools/scripts/cross/cross.sh does for Windows.
#
# Environment: SHUAI_WASM_SIMD=1 builds with WebAssembly SIMD (simd128;
# every current browser has it); SHUAI_WASM_ROUTE=debian forces the
# second route. The dist/ folder is not committed (.gitignore).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
target=wasm32-unknown-unknown
dist=$here/package/dist
start=$SECONDS
cd "$root"
flags=()
[[ ${SHUAI_WASM_SIMD:-1} == 1 ]] && flags+=(-C target-feature=+simd128)
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="${flags[*]:-}"
route=${SHUAI_WASM_ROUTE:-rustup}
if [[ $route == rustup ]]; then
  if ! rustup target list --installed 2>/dev/null | grep -qx $target; then
    timeout 300 rustup target add $target >&2 || route=debian
  fi
fi
if [[ $route == rustup ]]; then
  cargo build --release --locked -p shuai-wasm --target $target
  wasm=$root/target/$target/release/shuai_wasm.wasm
else
  lld=$(ls ~/.rustup/toolchains/*/lib/rustlib/*/bin/rust-lld 2>/dev/null | head -n 1 || true)
  [[ -n $lld ]] || lld=$(command -v wasm-ld || command -v rust-lld || true)
  [[ -x /usr/bin/cargo && -n $lld ]] ||
    { echo "build.sh: need rustup's $target or Debian's rustc-web, cargo-web, rust-web-src and a wasm linker (rust-lld, lld)" >&2; exit 1; }
  (
    export PATH="/usr/bin:$PATH" RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1
    export CARGO_TARGET_DIR=$root/target/web-debian CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=$lld
    /usr/bin/cargo build --release --locked -Z build-std=std,panic_abort -p shuai-wasm --target $target
  )
  wasm=$root/target/web-debian/$target/release/shuai_wasm.wasm
fi
mkdir -p "$dist"
cp "$wasm" "$dist/shuai.wasm"
{
  echo "/* Shuai's WebAssembly module as base64 (made by web/build.sh; GPL-3.0-or-later). */"
  printf 'var SHUAI_WASM_BASE64 = "'
  base64 -w 0 "$wasm"
  printf '";\n'
  echo 'if (typeof module === "object" && module.exports) module.exports = { SHUAI_WASM_BASE64 };'
} >"$dist/shuai-wasm.js"
echo "build.sh: $dist/shuai.wasm ($(stat -c %s "$dist/shuai.wasm") bytes, route $route, flags '${flags[*]:-}') in $((SECONDS - start)) s" >&2
