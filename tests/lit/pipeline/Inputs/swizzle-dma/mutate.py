#!/usr/bin/env python3
"""mutate.py MODE IN OUT: undo one half of the DMA swizzle in a swizzled
program (SwizzleDmaLds.h), so the simulator must see the difference.
  loads: the DMA loads' permuted thread id (tid ^ (tid >> 4 & 3)) back to
         the thread id: each lane loads its old bytes, the reads look for
         them swizzled.
  scale-read: the 4-byte ds reads (the rotating mxfp4 loop's scales, left
         as written with their DMA writes) readdressed through the swizzle
         S(a) = a ^ (a >> 4 & 0x30): each lane reads the scale dword of
         the lane the wave's index XORs it with.
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
elif mode == "scale-read":
    four = re.search(r"(%\w+) = waveasm\.constant 4 : <4>", text).group(1)
    mask = re.search(r"(%\w+) = waveasm\.constant 48 : <48>", text).group(1)
    def swizzle(m):
        indent, res, addr, rest = m.groups()
        t = "mut" + addr[1:]
        return ("{i}%{t}d = waveasm.v_lshrrev_b32 {four}, {a} : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg\n"
                "{i}%{t}b = waveasm.v_and_b32 %{t}d, {mask} : !waveasm.vreg, !waveasm.imm<48> -> !waveasm.vreg\n"
                "{i}%{t}s = waveasm.v_xor_b32 {a}, %{t}b : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg\n"
                "{i}{r} = waveasm.ds_read_b32 %{t}s{rest}").format(
                    i=indent, t=t, four=four, mask=mask, a=addr, r=res, rest=rest)
    text, n = re.subn(r"^(\s*)(%\w+) = waveasm\.ds_read_b32 (%\w+)(.*)$", swizzle, text,
                      flags=re.M)
else:
    sys.exit("unknown mode " + mode)
if n == 0:
    sys.exit("nothing to mutate")
open(dst, "w").write(text)
