// Pass options. bidirectional-threshold: a VGPR tuple living longer than
// that share of the program is allocated from the top, just below the peak
// pressure (here 2 reserved + 4 + 4 + 1 + 1 = 12 -> v[8:11]); 0 disables the
// strategy (v[4:7]). max-vgprs lowers the ceiling (12 registers leave v15
// out: 1 reserved + 10 -> 11, so v[4:7]); values above the target's
// register file are clamped to it (the output still verifies).
// RUN: waveasm-opt --waveasm-linear-scan %s | FileCheck %s --check-prefix=TOP
// RUN: waveasm-opt --waveasm-linear-scan=bidirectional-threshold=0 %s | FileCheck %s --check-prefix=BOTTOM
// RUN: waveasm-opt --waveasm-linear-scan="bidirectional-threshold=90" %s | FileCheck %s --check-prefix=BOTTOM
// RUN: waveasm-opt --waveasm-linear-scan="max-vgprs=12" %s | FileCheck %s --check-prefix=LIMIT12
// RUN: waveasm-opt --waveasm-linear-scan="max-vgprs=100000 max-sgprs=100000 max-agprs=100000" %s | waveasm-opt | FileCheck %s --check-prefix=TOP

waveasm.program @long_tuple target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  // Lives over 17 of the 22 program points (77%).
  // TOP: waveasm.buffer_load_dwordx4 {{.*}} -> !waveasm.pvreg<8, 4>
  // BOTTOM: waveasm.buffer_load_dwordx4 {{.*}} -> !waveasm.pvreg<4, 4>
  // LIMIT12: waveasm.buffer_load_dwordx4 {{.*}} -> !waveasm.pvreg<4, 4>
  %acc = waveasm.buffer_load_dwordx4 %srd, %tid, %c0 : !waveasm.psreg<0, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  // Short-lived values stay at the bottom.
  // TOP: waveasm.v_add_u32 {{.*}} -> !waveasm.pvreg<1>
  // BOTTOM: waveasm.v_add_u32 {{.*}} -> !waveasm.pvreg<1>
  %a = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  // TOP: waveasm.buffer_load_dwordx4 {{.*}} -> !waveasm.pvreg<4, 4>
  // BOTTOM: waveasm.buffer_load_dwordx4 {{.*}} -> !waveasm.pvreg<8, 4>
  // LIMIT12: waveasm.buffer_load_dwordx4 {{.*}} -> !waveasm.pvreg<8, 4>
  %q = waveasm.buffer_load_dwordx4 %srd, %a, %c0 : !waveasm.psreg<0, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %b = waveasm.v_add_u32 %a, %tid : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
  waveasm.buffer_store_dwordx4 %q, %srd, %b : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.vreg
  waveasm.buffer_store_dword %a, %srd, %b : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.vreg
  waveasm.buffer_store_dword %b, %srd, %a : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.vreg
  %d0 = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %d0, %srd, %tid : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  %d1 = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %d1, %srd, %tid : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  %d2 = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %d2, %srd, %tid : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  %d3 = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %d3, %srd, %tid : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  %d4 = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %d4, %srd, %tid : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.buffer_store_dwordx4 %acc, %srd, %tid : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}
