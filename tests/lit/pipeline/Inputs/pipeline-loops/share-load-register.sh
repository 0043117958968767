#!/usr/bin/env bash
# share-load-register.sh IN OUT
# A mutation of an allocated, pipelined program: every value held in the
# registers the kernel's (its first loop's) second buffer load writes is
# moved into those of its third load, so two steps' loads share one
# register tuple, as if a load ran one step further ahead than the
# registers given to its values allow (modulo variable expansion gives each
# value in flight its own). Fails when the kernel has fewer than three
# loads or the two share registers already.
set -euo pipefail
in="$1" out="$2"
dest() {
  awk -v k="$1" '/waveasm.loop/ { inloop = 1 }
    inloop && /= waveasm.buffer_load/ && ++n == k {
      match($0, /-> !waveasm.pvreg<[0-9]+/); print substr($0, RSTART + 18, RLENGTH - 18); exit }' "$in"
}
from="$(dest 2)" to="$(dest 3)"
[[ -n "$from" && -n "$to" && "$from" != "$to" ]]
sed -E "s/pvreg<$from,/pvreg<$to,/g;
  /_iterArgPhysRegs/ s/([:,] )$from([,>])/\1$to\2/g" "$in" > "$out"
