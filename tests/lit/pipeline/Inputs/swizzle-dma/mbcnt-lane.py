#!/usr/bin/env python3
"""Writes the mxfp4 direct-to-LDS example with its DMA row and chunk taken
from wave * 64 + the lane that v_mbcnt counts instead of the thread id: the
same program (equal by execution), whose voffsets depend on the lane through
an op that reads no thread id (swizzle-dma-lds-mbcnt.test).

usage: mbcnt-lane.py EXAMPLE OUT
"""
import sys

OLD = """  %row    = waveasm.v_lshrrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %chunk  = waveasm.v_and_b32 %tid, %c3 : !waveasm.pvreg<0>, !waveasm.imm<3> -> !waveasm.vreg
"""
NEW = """  %cm1   = waveasm.constant -1 : !waveasm.imm<-1>
  %lanelo = waveasm.v_mbcnt_lo_u32_b32 %cm1, %c0 : !waveasm.imm<-1>, !waveasm.imm<0> -> !waveasm.vreg
  %mylane = waveasm.v_mbcnt_hi_u32_b32 %cm1, %lanelo : !waveasm.imm<-1>, !waveasm.vreg -> !waveasm.vreg
  %tidx   = waveasm.v_lshl_add_u32 %wave_s, %c6, %mylane : !waveasm.sreg, !waveasm.imm<6>, !waveasm.vreg -> !waveasm.vreg
  %row    = waveasm.v_lshrrev_b32 %c2, %tidx : !waveasm.imm<2>, !waveasm.vreg -> !waveasm.vreg
  %chunk  = waveasm.v_and_b32 %tidx, %c3 : !waveasm.vreg, !waveasm.imm<3> -> !waveasm.vreg
"""
text = open(sys.argv[1]).read()
if text.count(OLD) != 1:
    sys.exit("mbcnt-lane.py: the example's row/chunk lines changed")
open(sys.argv[2], "w").write(text.replace(OLD, NEW))
