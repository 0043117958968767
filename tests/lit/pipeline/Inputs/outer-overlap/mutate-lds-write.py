#!/usr/bin/env python3
"""mutate-lds-write.py IN OUT: the mutation the outer-loop rotation must
never make, made by hand. In the rotated outer loop of IN (the output of
--waveasm-pipeline-loops on the triple-buffered GEMM), the next tile's
first LDS write (the one staging a tile loaded before the loop, so it needs
no value of the region) and its address move up to right after the kernel:
above the barriers behind which tile t's epilogue still reads that buffer.
Prints the moved line; fails when the shape is not found."""
import re
import sys

lines = open(sys.argv[1]).read().split("\n")
# The rotated loop: the first loop of the program body (the peeled head
# before it holds none).
outer = next(i for i, l in enumerate(lines) if re.match(r"^    %\S+ = waveasm.loop", l))
kernel_end = next(i for i in range(outer + 1, len(lines))
                  if re.match(r"^      \} \{.*waveasm.counted_waits", lines[i]))
write = next(i for i in range(kernel_end + 1, len(lines))
             if re.match(r"^      waveasm.ds_write_b128 %[0-9]+, %[0-9]+ ", lines[i]))
address = re.match(r"^      waveasm.ds_write_b128 %[0-9]+, (%[0-9]+) ", lines[write]).group(1)
define = next(i for i in range(kernel_end + 1, write)
              if lines[i].startswith("      %s = " % address))
moved = [lines[define], lines[write]]
rest = [l for i, l in enumerate(lines) if i not in (define, write)]
rest[kernel_end + 1:kernel_end + 1] = moved
open(sys.argv[2], "w").write("\n".join(rest))
print("moved:", lines[write].strip().split(" :")[0])
