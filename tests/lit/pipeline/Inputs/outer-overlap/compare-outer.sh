#!/usr/bin/env bash
# compare-outer.sh OUTDIR INPUT NTILES KSTEPS [OPTIONS]
# The triple-buffered GEMM (examples/gemm_f16_triple_buffer_ntiles.mlir, or
# a variant of it) with NTILES N tiles (the outer loop's count) and KSTEPS K
# steps (the inner loop's), its inner loop pipelined by
# --waveasm-pipeline-loops=loop=1 (plus OPTIONS), which then rotates the
# outer loop when it can and it pays (pipeline/opt/OuterOverlap.h). Prints
# the pass's remark on the outer loop, then compares the output with the
# input by execution (waveasm-sim --compare, every wave of the workgroup)
# and the output after the production pipeline (allocation, counted waits,
# hazards: the timing-aware run checks the waits) with the input; exits
# with the first failing status.
set -euo pipefail
out="$1" input="$2" ntiles="$3" ksteps="$4" options="${5:-}"
name="$(basename "$input" .mlir)-n$ntiles-k$ksteps${options:+-$(echo "$options" | tr ' =' '_-')}"
sed -e "s/%ntiles = waveasm.constant 2 : !waveasm.imm<2>/%ntiles = waveasm.constant $ntiles : !waveasm.imm<$ntiles>/" \
    -e "s/!waveasm.imm<2> -> !waveasm.scc/!waveasm.imm<$ntiles> -> !waveasm.scc/" \
    -e "s/--kernarg-dword=64:2/--kernarg-dword=64:$ntiles/" \
    -e "s/%ksteps = waveasm.constant 16 : !waveasm.imm<16>/%ksteps = waveasm.constant $ksteps : !waveasm.imm<$ksteps>/" \
    -e "s/!waveasm.imm<16> -> !waveasm.scc/!waveasm.imm<$ksteps> -> !waveasm.scc/" \
    "$input" > "$out/$name.in.mlir"
waveasm-opt "--waveasm-pipeline-loops=loop=1${options:+ $options}" \
  "$out/$name.in.mlir" -o "$out/$name.mlir" 2> "$out/$name.remarks"
echo "$name: $(grep -o 'outer loop .*' "$out/$name.remarks" || echo 'no outer remark')"
echo -n "pass output: "
waveasm-sim --compare --ignore-lds "$out/$name.in.mlir" "$out/$name.mlir"
waveasm-opt --waveasm-pipeline "$out/$name.mlir" -o "$out/$name.compiled.mlir"
echo -n "compiled: "
waveasm-sim --compare --ignore-lds "$out/$name.in.mlir" "$out/$name.compiled.mlir"
