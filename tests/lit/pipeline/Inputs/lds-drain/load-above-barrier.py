#!/usr/bin/env python3
"""load-above-barrier.py IN OUT: in the first loop of IN (a pipelined
direct-to-LDS kernel), the first M0 write and the direct-to-LDS load after
it (with the s_nop between them in a compiled kernel) that follow the
loop's first s_barrier move right before that barrier:
the SALU ops a step merges before its barrier may go there, the loads they
feed may not (they write the buffer the other waves read before it, a
write-after-read race). Exits 1 when the loop has no such pair."""
import sys

text = open(sys.argv[1]).read().split("\n")
in_loop, barrier = False, None
for i, line in enumerate(text):
    if "= waveasm.loop" in line:
        in_loop = True
    if not in_loop:
        continue
    if barrier is None and line.strip() == "waveasm.s_barrier":
        barrier = i
    elif barrier is not None and "waveasm.s_mov_b32_m0" in line:
        n = 3 if i + 1 < len(text) and "waveasm.s_nop" in text[i + 1] else 2
        if i + n - 1 >= len(text) or "_lds " not in text[i + n - 1]:
            sys.exit(1)
        pair = text[i:i + n]
        del text[i:i + n]
        text[barrier:barrier] = pair
        open(sys.argv[2], "w").write("\n".join(text))
        sys.exit(0)
sys.exit(1)
