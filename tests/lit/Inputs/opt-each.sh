#!/usr/bin/env bash
# Runs one optimization pass on each given kernel on its own and checks that
# its output parses and verifies again. Prints, per file, "<file>: changed"
# or "<file>: unchanged" (byte-identical to the input as printed), then the
# pass's -debug-only log lines that say what it did ("applied", "replaced",
# "erased", per-program summaries), with locations cut to file:line:col.
# Usage: opt-each.sh <pass flag without --> <file>...
set -euo pipefail
pass="$1"
shift
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for f in "$@"; do
  name="$(basename "$f")"
  waveasm-opt "$f" -o "$tmp/before.mlir"
  waveasm-opt "--$pass" "--debug-only=$pass" "$f" -o "$tmp/after.mlir" \
    2> "$tmp/log"
  waveasm-opt "$tmp/after.mlir" -o /dev/null
  if cmp -s "$tmp/before.mlir" "$tmp/after.mlir"; then
    echo "$name: unchanged"
  else
    echo "$name: changed"
  fi
  { grep -E "\] (applied|erased at|@|'[^']*' at .* replaced)" "$tmp/log" || true; } |
    sed -E 's|loc\("[^"]*/([^"/]*)":|loc("\1":|g'
done
