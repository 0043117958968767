#!/usr/bin/env bash
# Runs every given kernel through the reference pipeline with
# --emit-assembly and assembles the result with llvm-mc for the kernel's own
# target; prints one "assembled <target> <file>" line per success and stops
# at the first failure (non-zero exit, with the tool's diagnostics).
# Leading arguments starting with "--" are pass flags run before the
# pipeline, e.g. assemble-each.sh --waveasm-peephole kernel.mlir.
set -euo pipefail
passes=()
while [ $# -gt 0 ] && [ "${1#--}" != "$1" ]; do
  passes+=("$1")
  shift
done
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for f in "$@"; do
  target="$(grep -o '#waveasm\.gfx[0-9]*' "$f" | head -n 1 | sed 's/#waveasm\.//')"
  waveasm-opt ${passes[@]+"${passes[@]}"} --waveasm-pipeline --emit-assembly \
    "$f" -o "$tmp/out.s"
  llvm-mc -triple=amdgcn-amd-amdhsa -mcpu="$target" -filetype=obj \
    -o "$tmp/out.o" "$tmp/out.s"
  echo "assembled $target $(basename "$f")"
done
