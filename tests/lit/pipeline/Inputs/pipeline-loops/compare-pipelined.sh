#!/usr/bin/env bash
# compare-pipelined.sh OUTDIR STAGES INPUT [TRIPS] [OPTIONS]
# Pipelines INPUT (with TRIPS substituted for the word TRIPS when given; "-"
# for none) with --waveasm-pipeline-loops=num-stages=STAGES (plus OPTIONS,
# e.g. "unroll=3 order=body") into OUTDIR and compares the result with the
# input by execution (waveasm-sim --compare). Prints "pipelined" or
# "unchanged" (did the pass rewrite a loop? a kernel's trip count, a guard,
# or a steady state run straight, which marks the program for counted
# waits) before the simulator's
# verdict; exits with the simulator's status. The LDS left at the end is
# not compared (--ignore-lds): it does not outlive the workgroup, and LDS
# ping/pong leaves the last iteration's tile in another copy.
set -euo pipefail
out="$1" stages="$2" input="$3" trips="${4:-}" options="${5:-}"
[[ "$trips" == "-" ]] && trips=""
suffix="$(echo "$options" | tr ' =' '_-')"
name="$(basename "$input" .mlir)${trips:+-$trips}-s$stages${suffix:+-$suffix}"
if [[ -n "$trips" ]]; then
  sed "s/TRIPS/$trips/g" "$input" > "$out/$name.in.mlir"
else
  cp "$input" "$out/$name.in.mlir"
fi
waveasm-opt "--waveasm-pipeline-loops=num-stages=$stages $options" \
  "$out/$name.in.mlir" -o "$out/$name.mlir"
if grep -q 'trip_count\|waveasm.if\|waveasm.counted_waits' "$out/$name.mlir"; then
  echo -n "pipelined $name: "
else
  echo -n "unchanged $name: "
fi
waveasm-sim --compare --ignore-lds "$out/$name.in.mlir" "$out/$name.mlir"
