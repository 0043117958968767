#!/usr/bin/env python3
"""swap-chained-mfma.py IN OUT: in the first loop of IN, the first MFMA and
the next MFMA that reads its result as the accumulator (SrcC) trade their
A and B operands, so the chain adds the two products in the other order: a
reordered dependent MFMA (f32 rounds after each MFMA: a different result).
Exits 1 when no such pair is found."""
import re
import sys

text = open(sys.argv[1]).read().split("\n")
mfma = re.compile(r"^(\s*)(%[\w#]+) = (waveasm\.v_mfma\w*) (%[\w#]+), (%[\w#]+), (%[\w#]+)(.*)$")
in_loop, first = False, None
for i, line in enumerate(text):
    if "waveasm.loop" in line:
        in_loop = True
    if not in_loop:
        continue
    m = mfma.match(line)
    if not m:
        continue
    if first is None:
        first = (i, m)
    elif m.group(6) == first[1].group(2):
        j, f = first
        text[j] = "%s%s = %s %s, %s, %s%s" % (f.group(1), f.group(2), f.group(3),
                                             m.group(4), m.group(5), f.group(6), f.group(7))
        text[i] = "%s%s = %s %s, %s, %s%s" % (m.group(1), m.group(2), m.group(3),
                                             f.group(4), f.group(5), m.group(6), m.group(7))
        open(sys.argv[2], "w").write("\n".join(text))
        sys.exit(0)
sys.exit(1)
