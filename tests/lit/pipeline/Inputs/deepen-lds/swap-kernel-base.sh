#!/usr/bin/env bash
# swap-kernel-base.sh IN OUT: a mutation of a pipelined kernel whose
# rotating LDS bases were folded into their inits (RotatedIterArgs.h
# foldInvariantRotations): the first M0 base the kernel computes from a
# value defined before the loop (`s_add_u32 %N, %dst_...`) takes another
# such base instead, so that step's loads write another step's buffer.
set -euo pipefail
in="$1" out="$2"
kernel="$(awk '/= waveasm.loop/ { p = 1 } p { print } p && /waveasm.counted_waits/ { exit }' "$in")"
mapfile -t bases < <(grep -o 's_add_u32 %[0-9]*, %dst_' <<< "$kernel" | grep -o '%[0-9][0-9]*,' | tr -d , | awk '!seen[$0]++')
if (( ${#bases[@]} < 2 )); then
  echo "fewer than two folded bases in the kernel" >&2
  exit 1
fi
awk -v from="s_add_u32 ${bases[0]}, %dst_" -v to="s_add_u32 ${bases[1]}, %dst_" '
  /= waveasm.loop/ { p = 1 }
  p && !done && index($0, from) { sub(from, to); done = 1 }
  /waveasm.counted_waits/ { p = 0 }
  { print }' "$in" > "$out"
