#!/usr/bin/env bash
# Quick start, tests: install what is missing, build, run every test suite
# (GoogleTest unit tests and the lit suite) through ctest.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"

"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
cd "$build"
ctest --output-on-failure -j "${JOBS:-$(nproc)}"
