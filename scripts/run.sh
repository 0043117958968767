#!/usr/bin/env bash
# Quick start, main job: install what is missing, build, then verify and print
# every bundled example (parse + verify + print through waveasm-opt).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"

"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"

status=0
for file in "$root"/examples/*.mlir; do
  echo "=== $(basename "$file")"
  if ! "$build/bin/waveasm-opt" "$file"; then
    status=1
  fi
done
exit $status
