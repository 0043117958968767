#!/usr/bin/env bash
# compare-trips.sh OUTDIR INPUT "PIPELINE-OPTIONS" TRIPS...
# For each trip count T: INPUT with its K-step bound (`imm<32>`, the
# examples' `%ksteps`) set to T, its LDS swizzled by
# `--waveasm-pad-lds-layout` (SwizzleDmaLds.h for rows a DMA writes), then
# pipelined (`--waveasm-pipeline-loops=OPTIONS`) and compiled by the
# production pipeline. Compares the swizzled, the pipelined and the
# compiled programs with the input by execution (timing-aware, every wave
# of the workgroup; the LDS left at the end is not compared, its layout
# moved). Stops at the first difference.
set -euo pipefail
out="$1" input="$2" options="$3"
shift 3
name="$(basename "$input" .mlir)"
for t in "$@"; do
  base="$out/$name-$t"
  sed "s/imm<32>/imm<$t>/g; s/constant 32 :/constant $t :/" "$input" > "$base.in.mlir"
  waveasm-opt --waveasm-pad-lds-layout "$base.in.mlir" -o "$base.sw.mlir" 2> "$base.remarks"
  waveasm-opt "--waveasm-pipeline-loops=$options" "$base.sw.mlir" -o "$base.p.mlir" 2>> "$base.remarks"
  waveasm-opt --waveasm-pipeline "$base.p.mlir" -o "$base.c.mlir"
  for stage in sw p c; do
    echo -n "trips $t $stage: "
    waveasm-sim --compare --ignore-lds "$base.in.mlir" "$base.$stage.mlir"
  done
done
