#!/usr/bin/env python3
"""mutate.py MODE IN OUT: undo one half of the DMA swizzle in a swizzled
program (SwizzleDmaLds.h), so the simulator must see the difference.
  loads: the DMA loads' permuted thread id (tid ^ (tid >> 4 & 3)) back to
         the thread id: each lane loads its old bytes, the reads look for
         them swizzled.
  reads: the ds address swizzle's mask (v >> 4 & 0x30) made 0: the reads
         look for the bytes where they were, the loads moved them."""
import re
import sys

mode, src, dst = sys.argv[1:4]
text = open(src).read()
if mode == "loads":
    text, n = re.subn(
        r"waveasm\.v_xor_b32 %0, %\w+ : !waveasm\.pvreg<0>, !waveasm\.vreg -> !waveasm\.vreg",
        "waveasm.v_mov_b32 %0 : !waveasm.pvreg<0> -> !waveasm.vreg", text)
elif mode == "reads":
    zero = re.search(r"(%\w+) = waveasm\.constant 0 : <0>", text).group(1)
    text, n = re.subn(
        r"waveasm\.v_and_b32 (%\w+), %\w+ : !waveasm\.vreg, !waveasm\.imm<48>",
        lambda m: "waveasm.v_and_b32 %s, %s : !waveasm.vreg, !waveasm.imm<0>" % (m.group(1), zero),
        text)
else:
    sys.exit("unknown mode " + mode)
if n == 0:
    sys.exit("nothing to mutate")
open(dst, "w").write(text)
