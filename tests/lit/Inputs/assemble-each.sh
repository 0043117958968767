#!/usr/bin/env bash
# Runs every given kernel through the reference pipeline with
# --emit-assembly and assembles the result with llvm-mc for the kernel's own
# target; prints one "assembled <target> <file>" line per success and stops
# at the first failure (non-zero exit, with the tool's diagnostics).
# Extra pass flags to run first: leading arguments starting with "--"
# (assemble-each.sh --waveasm-peephole kernel.mlir) and WAVEASM_PRE_PASSES
# (e.g. "--waveasm-arith-legalization"); WAVEASM_PIPELINE: the pass flags to
# run instead of --waveasm-pipeline (e.g. to place a pass after allocation).
set -euo pipefail
read -r -a pre <<< "${WAVEASM_PRE_PASSES:-}"
read -r -a pipeline <<< "${WAVEASM_PIPELINE:---waveasm-pipeline}"
while [ $# -gt 0 ] && [ "${1#--}" != "$1" ]; do
  pre+=("$1")
  shift
done
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for f in "$@"; do
  target="$(grep -o '#waveasm\.gfx[0-9]*' "$f" | head -n 1 | sed 's/#waveasm\.//')"
  waveasm-opt ${pre[@]+"${pre[@]}"} "${pipeline[@]}" --emit-assembly "$f" \
    -o "$tmp/out.s"
  llvm-mc -triple=amdgcn-amd-amdhsa -mcpu="$target" -filetype=obj \
    -o "$tmp/out.o" "$tmp/out.s"
  echo "assembled $target $(basename "$f")"
done
