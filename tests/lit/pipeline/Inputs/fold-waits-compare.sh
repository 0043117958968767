#!/usr/bin/env bash
# fold-waits-compare.sh OUTDIR INPUT TRIPS
# INPUT with TRIPS substituted, pipelined with the pass's own stage count,
# then compiled by the production pipeline (which inserts and folds the
# waits); both compared with the input by execution (--ignore-lds: the LDS
# left at the end does not outlive the workgroup).
set -euo pipefail
out="$1" input="$2" trips="$3"
name="$(basename "$input" .mlir)-$trips"
sed "s/TRIPS/$trips/g" "$input" > "$out/$name.in.mlir"
waveasm-opt --waveasm-pipeline-loops "$out/$name.in.mlir" -o "$out/$name.mlir"
waveasm-opt --waveasm-pipeline "$out/$name.mlir" -o "$out/$name.compiled.mlir"
waveasm-sim --compare --ignore-lds "$out/$name.in.mlir" "$out/$name.mlir"
waveasm-sim --compare --ignore-lds "$out/$name.in.mlir" "$out/$name.compiled.mlir"
