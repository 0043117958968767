#!/usr/bin/env bash
# strength-reduced-compare.sh OUTDIR INPUT TRIPS
# INPUT with TRIPS substituted for the word TRIPS, pipelined with the
# pass's own stage count, then (1) strength-reduced alone and (2) compiled
# by the whole production pipeline; each compared with the input by
# execution (waveasm-sim --compare). Leaves NAME.in.mlir and
# NAME.compiled.mlir in OUTDIR for mutations.
set -euo pipefail
out="$1" input="$2" trips="$3"
name="$(basename "$input" .mlir)-$trips"
sed "s/TRIPS/$trips/g" "$input" > "$out/$name.in.mlir"
waveasm-opt --waveasm-pipeline-loops "$out/$name.in.mlir" -o "$out/$name.pipelined.mlir" 2> /dev/null
waveasm-opt --waveasm-buffer-load-strength-reduction "$out/$name.pipelined.mlir" -o "$out/$name.reduced.mlir"
waveasm-opt --waveasm-pipeline "$out/$name.pipelined.mlir" -o "$out/$name.compiled.mlir"
echo -n "reduced: "
waveasm-sim --compare "$out/$name.in.mlir" "$out/$name.reduced.mlir"
echo -n "compiled: "
waveasm-sim --compare "$out/$name.in.mlir" "$out/$name.compiled.mlir"
