#!/usr/bin/env bash
# Release archives in one command: for each target, builds shuai (through
# cross.sh) and packs `shuai-<version>-<target>` with the binary (the
# network is inside it), README.md, the docs/ pages its links point to
# and the licence (COPYING), plus a SHA256SUMS of those files; beside the archives, a SHA256SUMS of the
# archives. Windows gets a .zip (what Windows opens without extra tools),
# Linux a .tar.gz.
#
#   release.sh [TARGET...]   default: x86_64-unknown-linux-gnu
#                            x86_64-pc-windows-gnu aarch64-unknown-linux-gnu
#
# Output: target/dist/ (SHUAI_DIST_DIR). Needs the packages of
# `cross.sh install` and zip. SHUAI_RELEASE_NO_BUILD=1 packs binaries
# already built.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
dist=${SHUAI_DIST_DIR:-$root/target/dist}
cross="$here/cross.sh"

die() {
  echo "release.sh: $*" >&2
  exit 1
}

targets=("$@")
((${#targets[@]})) || targets=(x86_64-unknown-linux-gnu x86_64-pc-windows-gnu aarch64-unknown-linux-gnu)

version=$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"$/\1/p' "$root/Cargo.toml")
[[ -n $version ]] || die "no version in Cargo.toml's [workspace.package]"
[[ -f $root/COPYING && -f $root/README.md ]] || die "COPYING or README.md missing"
command -v zip >/dev/null || die "no zip: apt-get install zip"

mkdir -p "$dist"
# One timestamp for every file (the last commit's), so that the same
# sources give the same archives.
stamp=$(git -C "$root" log -1 --format=%ct 2>/dev/null || date +%s)
archives=()
for target in "${targets[@]}"; do
  if [[ -z ${SHUAI_RELEASE_NO_BUILD:-} ]]; then
    "$cross" build "$target"
  fi
  bin=$("$cross" path "$target")
  [[ -f $bin ]] || die "no binary for $target at $bin"
  name="shuai-$version-$target"
  stage="$dist/$name"
  rm -rf "$stage"
  mkdir -p "$stage"
  mkdir -p "$stage/docs"
  cp "$bin" "$stage/"
  # Windows users open text files in Notepad: CRLF line ends there.
  if [[ $target == *windows* ]]; then
    sed 's/$/\r/' "$root/README.md" >"$stage/README.md"
    sed 's/$/\r/' "$root/COPYING" >"$stage/COPYING.txt"
    for page in "$root"/docs/*.md; do
      sed 's/$/\r/' "$page" >"$stage/docs/$(basename "$page")"
    done
  else
    cp "$root/README.md" "$root/COPYING" "$stage/"
    cp "$root"/docs/*.md "$stage/docs/"
  fi
  (cd "$stage" && find . -type f | sed 's|^\./||' | LC_ALL=C sort | xargs sha256sum -- >SHA256SUMS)
  find "$stage" -exec touch -h -d "@$stamp" {} +
  if [[ $target == *windows* ]]; then
    archive="$name.zip"
    rm -f "$dist/$archive"
    (cd "$dist" && find "$name" -print | LC_ALL=C sort | zip -q -X -@ "$archive")
  else
    archive="$name.tar.gz"
    tar -C "$dist" --sort=name --mtime="@$stamp" --owner=0 --group=0 --numeric-owner \
      -cf - "$name" | gzip -n -9 >"$dist/$archive"
  fi
  rm -rf "$stage"
  archives+=("$archive")
  echo "release.sh: $dist/$archive ($(stat -c %s "$dist/$archive") bytes)" >&2
done
(cd "$dist" && sha256sum -- "${archives[@]}" >SHA256SUMS && cat SHA256SUMS)
