#!/usr/bin/env bash
# Runs every given kernel through the reference pipeline with
# --emit-assembly and assembles the result with llvm-mc for the kernel's own
# target; prints one "assembled <target> <file>" line per success and stops
# at the first failure (non-zero exit, with the tool's diagnostics).
#   --pre "FLAGS"  run `waveasm-opt FLAGS` on each kernel first; its output
#                  is parsed and verified again by the pipeline's waveasm-opt
#                  (so a pass that leaves invalid IR fails here).
#   WAVEASM_PIPELINE  the pass flags to run instead of --waveasm-pipeline
#                  (e.g. to place a pass after allocation).
set -euo pipefail
pre=""
if [[ "${1:-}" == "--pre" ]]; then
  pre="$2"
  shift 2
fi
read -r -a pipeline <<< "${WAVEASM_PIPELINE:---waveasm-pipeline}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for f in "$@"; do
  target="$(grep -o '#waveasm\.gfx[0-9]*' "$f" | head -n 1 | sed 's/#waveasm\.//')"
  input="$f"
  if [[ -n "$pre" ]]; then
    # shellcheck disable=SC2086 # FLAGS is a list of flags
    waveasm-opt $pre "$f" -o "$tmp/pre.mlir"
    input="$tmp/pre.mlir"
  fi
  waveasm-opt "${pipeline[@]}" --emit-assembly "$input" -o "$tmp/out.s"
  llvm-mc -triple=amdgcn-amd-amdhsa -mcpu="$target" -filetype=obj \
    -o "$tmp/out.o" "$tmp/out.s"
  echo "assembled $target $(basename "$f")"
done
