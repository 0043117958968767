#!/usr/bin/env bash
# compare-trips.sh OUTDIR INPUT "PASS" TRIPS...
# For each trip count T: INPUT with its K-step bound (`imm<32>`, the
# examples' `%ksteps`) set to T, through `waveasm-opt PASS` (one flag, its
# options separated by spaces), then the
# production pipeline (allocation, waits, hazards). Prints per T whether
# the LDS grew (deepened) or not, and compares both outputs with the input
# by execution (waveasm-sim --compare, timing-aware: a DMA's bytes reach
# another wave only after a vmcnt wait and a barrier). The LDS left at the
# end is not compared: the buffers moved. Stops at the first difference.
set -euo pipefail
out="$1" input="$2" passes="$3"
shift 3
name="$(basename "$input" .mlir)"
for t in "$@"; do
  base="$out/$name-$t"
  sed "s/imm<32>/imm<$t>/g; s/constant 32 :/constant $t :/; s/TRIPS/$t/g" "$input" > "$base.in.mlir"
  waveasm-opt "$passes" "$base.in.mlir" -o "$base.mlir" 2> "$base.remarks"
  waveasm-opt --waveasm-pipeline "$base.mlir" -o "$base.compiled.mlir"
  before="$(grep -o 'lds_size = [0-9]*' "$base.in.mlir")"
  after="$(grep -o 'lds_size = [0-9]*' "$base.mlir")"
  if [[ "$before" == "$after" ]]; then
    echo "trips $t: unchanged ($after)"
  else
    echo "trips $t: deepened ($before -> $after)"
  fi
  echo -n "trips $t as rewritten: "
  waveasm-sim --compare --ignore-lds "$base.in.mlir" "$base.mlir"
  echo -n "trips $t compiled: "
  waveasm-sim --compare --ignore-lds "$base.in.mlir" "$base.compiled.mlir"
done
