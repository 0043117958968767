#!/usr/bin/env python3
"""Mutation for pipeline-loops-prefetch-addresses.test: in a compiled
program, the kernel's first global load after a barrier reads a pointer
pair s[N:N+1]; the later s_add_u32/s_addc_u32 pair that writes s[N:N+1]
(the next step's pointer, hoisted before the next barrier) is moved right
above that load, so the load reads the advanced pointer: an address op
hoisted past a reader of the register it writes, which the simulator must
report. Usage: address-above-loads.py IN OUT (exit 1 when no such pair)."""

import re
import sys

lines = open(sys.argv[1]).read().split("\n")
loop = next(i for i, l in enumerate(lines) if "waveasm.loop (" in l)  # the kernel
barrier = next(i for i in range(loop, len(lines)) if "waveasm.s_barrier" in lines[i])
load = next(i for i in range(barrier, len(lines)) if "global_load_dwordx4" in lines[i])
reg = re.search(r"global_load_dwordx4 [^:]*: !waveasm\.psreg<(\d+), 2>", lines[load]).group(1)
for i in range(load + 1, len(lines)):
    if re.search(r"s_add_u32 .*-> !waveasm\.psreg<%s>," % reg, lines[i]) and \
            "s_addc_u32" in lines[i + 1]:
        first = i  # with the extracts of its operands just above it
        while "waveasm.extract" in lines[first - 1]:
            first -= 1
        pair = lines[first:i + 2]
        del lines[first:i + 2]
        lines[load:load] = pair
        open(sys.argv[2], "w").write("\n".join(lines))
        sys.exit(0)
sys.exit(1)
