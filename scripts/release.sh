#!/usr/bin/env bash
# The artifacts to ship, from the release build (cmake/Release.cmake: -O2,
# assertions off, no build paths): the Debian package and the linux-x64
# VS Code package carrying the same waveasm-lsp.
#   scripts/release.sh            build-release/ (preset `release`)
#   RELEASE_BUILD_DIR=DIR JOBS=N scripts/release.sh
# Outputs: DIR/package/waveasm-conductor_<version>_amd64.deb and
# DIR/waveasm-linux-x64-<version>.vsix. Towards reproducible builds: the
# release flags keep build paths out of the binaries (checked below), and
# SOURCE_DATE_EPOCH (the commit's time) is exported for the archivers. Not part of CI: a release build compiles
# everything once more (about 20 minutes cold on 2 cores); CI packages and
# tests the test build's server instead.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${RELEASE_BUILD_DIR:-$root/build-release}"
jobs="${JOBS:-$(nproc)}"
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct)}"

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DWAVEASM_RELEASE=ON \
  -DCMAKE_SKIP_INSTALL_ALL_DEPENDENCY=ON >/dev/null
# Only what ships: no unit tests or benchmarks (cpack then does not build
# `all` either, CMAKE_SKIP_INSTALL_ALL_DEPENDENCY).
cmake --build "$build" -j "$jobs" --target waveasm-lsp waveasm-opt waveasm-conductor \
  waveasm-sim waveasm-man-pages

version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
(cd "$build" && cpack -G DEB >/dev/null)
deb="$build/package/waveasm-conductor_${version}_amd64.deb"
[ -f "$deb" ] || { echo "release.sh: cpack made no $deb" >&2; exit 1; }

# The extension's bundle (npm ci from the npm cache when it has every
# package), then the platform package around the release server.
"$root/tests/editors/vscode.sh" setup
vsix="$build/waveasm-linux-x64-${version}.vsix"
"$root/tests/editors/vscode.sh" package-platform "$vsix" "$build/bin/waveasm-lsp"

# No build directory may show up in what ships.
if grep -l -F "$root" "$build"/bin/waveasm-{lsp,opt,conductor,sim}; then
  echo "release.sh: a binary names the build directory $root" >&2
  exit 1
fi
echo "release.sh: $deb ($(du -k "$deb" | cut -f1) KiB)"
echo "release.sh: $vsix ($(du -k "$vsix" | cut -f1) KiB)"
