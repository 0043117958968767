#!/usr/bin/env bash
# fold-waits-compare.sh OUTDIR INPUT TRIPS [OPTIONS]
# INPUT with TRIPS substituted, pipelined with the pass's own stage count
# (or OPTIONS, e.g. "num-stages=7"), then compiled by the production pipeline (which inserts and folds the
# waits); both compared with the input by execution (--ignore-lds: the LDS
# left at the end does not outlive the workgroup).
set -euo pipefail
out="$1" input="$2" trips="$3" options="${4:-}"
name="$(basename "$input" .mlir)-$trips${options:+-$(echo "$options" | tr ' =' '_-')}"
sed "s/TRIPS/$trips/g" "$input" > "$out/$name.in.mlir"
waveasm-opt "--waveasm-pipeline-loops${options:+=$options}" "$out/$name.in.mlir" -o "$out/$name.mlir"
grep -o 'waveasm.pipeline_steps = [0-9]*' "$out/$name.mlir" || true
waveasm-opt --waveasm-pipeline "$out/$name.mlir" -o "$out/$name.compiled.mlir"
waveasm-sim --compare --ignore-lds "$out/$name.in.mlir" "$out/$name.mlir"
waveasm-sim --compare --ignore-lds "$out/$name.in.mlir" "$out/$name.compiled.mlir"
