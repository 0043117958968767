#!/usr/bin/env bash
# Runs `--waveasm-lds-plan=apply=true` on each given kernel, checks its
# output parses and verifies again, and prints per file "<file>: unchanged"
# (byte-identical to the input as printed) or "<file>: changed", then the
# simulator's verdict on the buffers (--ignore-lds: the LDS layout is what
# the pass changes) and the plan's one-line summary from its JSON.
# Usage: lds-plan-each.sh <file>...
set -euo pipefail
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for f in "$@"; do
  name="$(basename "$f")"
  waveasm-opt "$f" -o "$tmp/before.mlir"
  waveasm-opt "--waveasm-lds-plan=apply=true" "$f" -o "$tmp/after.mlir" \
    > "$tmp/plan.json"
  waveasm-opt "$tmp/after.mlir" -o /dev/null
  if cmp -s "$tmp/before.mlir" "$tmp/after.mlir"; then
    echo "$name: unchanged"
  else
    echo "$name: changed"
    waveasm-sim --compare --ignore-lds --seeds 2 "$f" "$tmp/after.mlir"
  fi
  python3 -c '
import json, sys
for p in json.load(open(sys.argv[1]))["programs"]:
    print("@%s: %d buffers, %d -> %d bytes, peak %d, complete %s, fits %s" % (
        p["name"], len(p["buffers"]), p["original_bytes"], p["arena_bytes"],
        p["peak_bytes"], str(p["complete"]).lower(), str(p["fits"]).lower()))
' "$tmp/plan.json"
done
