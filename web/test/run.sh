#!/usr/bin/env bash
# Shuai in the browser, as CI checks it (.ci/run calls this): builds the
# WebAssembly module (web/build.sh), checks it under Node (bench node total
# = README.md's signature, a UCI session, stop, rules queries:
# node-check.js) and the page in headless Chromium (a short game through
# the page's controls, take back, flip, FEN, analysis, a screenshot:
# browser-test.js, screenshot in web/test/out/browser.png). The package's
# own logic (stop by replacing the worker, replay, recovery after a trap)
# is checked first with a stand-in worker (package-check.js).
#
# Needs Node and Chromium; on a Debian machine missing them (or the CJK
# fonts the screenshot shows the pieces with) it installs Debian's
# packages with apt-get (root or sudo).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
web=$(cd "$here/.." && pwd)
start=$SECONDS
packages=(chromium fonts-wqy-microhei fonts-arphic-ukai)
command -v node >/dev/null || packages+=(nodejs)
missing=()
for p in "${packages[@]}"; do
  [[ $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null) == "install ok installed" ]] || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=()
  ((EUID == 0)) || sudo=(sudo -n)
  echo "web/test/run.sh: installing ${missing[*]}" >&2
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >&2
fi
"$web/build.sh"
node "$here/package-check.js"
node "$here/node-check.js"
node "$here/browser-test.js"
echo "web/test/run.sh: passed in $((SECONDS - start)) s" >&2
