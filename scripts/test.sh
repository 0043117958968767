#!/usr/bin/env bash
# Quick start, tests: install what is missing, build, run every test suite
# (GoogleTest unit tests, the lit suite, the editor tests) through ctest.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"

"$root/scripts/install-deps.sh"
# The real VS Code workbench (npm: Node 24, code-server, playwright-core)
# for the editors-vscode-workbench test, cached outside the build tree. It
# installs while the build compiles: mostly download and native-module
# builds, about 80 s to several minutes cold, nothing when cached.
workbench_log="$(mktemp)"
"$root/scripts/install-vscode-workbench.sh" >"$workbench_log" 2>&1 &
workbench_pid=$!
"$root/scripts/build.sh"
if ! wait "$workbench_pid"; then
  cat "$workbench_log" >&2
  echo "test.sh: scripts/install-vscode-workbench.sh failed" >&2
  exit 1
fi
tail -n 2 "$workbench_log"
rm -f "$workbench_log"
cd "$build"
ctest --output-on-failure -j "${JOBS:-$(nproc)}"
