// The production driver's fall-back for loop address promotion (SPEC.md
// 13): a program that promotion would make need more VGPRs than
// `vgpr-limit` (after a trial allocation and compaction) stays unpromoted,
// and the debug log says how many it would need. 0, the pass's default, is
// upstream's pass: always promote.
// RUN: waveasm-opt --waveasm-loop-address-promotion=vgpr-limit=256 %s | FileCheck %s --check-prefix=PROMOTED
// RUN: waveasm-opt --waveasm-loop-address-promotion=vgpr-limit=0 %s | FileCheck %s --check-prefix=PROMOTED
// RUN: waveasm-opt --waveasm-loop-address-promotion=vgpr-limit=8 %s | FileCheck %s --check-prefix=KEPT
// RUN: waveasm-opt --waveasm-loop-address-promotion=vgpr-limit=8 --debug-only=waveasm-loop-address-promotion %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOG
// The pipeline's option reaches the pass.
// RUN: waveasm-opt --waveasm-pipeline="promotion-vgpr-limit=8" --debug-only=waveasm-loop-address-promotion %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOG

// PROMOTED: waveasm.ds_read_b64 %arg{{[0-9]+}} :
// KEPT: waveasm.s_barrier
// KEPT-NEXT: %[[A:.*]] = waveasm.v_add_u32 %arg{{[0-9]+}}, %{{.*}} : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
// KEPT-NEXT: waveasm.ds_read_b64 %[[A]] :
// LOG: program @double_buffer left unpromoted: promoted, it needs {{[0-9]+}} VGPRs (vgpr-limit 8)
waveasm.program @double_buffer target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c3 = waveasm.constant 3 : !waveasm.imm<3>
  %c4096 = waveasm.constant 4096 : !waveasm.imm<4096>
  %n = waveasm.constant 16 : !waveasm.imm<16>
  %off = waveasm.v_lshlrev_b32 %c3, %tid : !waveasm.imm<3>, !waveasm.pvreg<0> -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %b0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %b1 = waveasm.s_mov_b32 %c4096 : !waveasm.imm<4096> -> !waveasm.sreg
  %v0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<2, 2>
  %r:4 = waveasm.loop (%k = %k0, %rd = %b0, %wr = %b1, %v = %v0)
      : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.vreg<2, 2>)
     -> (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.vreg<2, 2>) {
    %w = waveasm.v_add_u32 %wr, %off : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.ds_write_b64 %v, %w : !waveasm.vreg<2, 2>, !waveasm.vreg
    waveasm.s_barrier
    %a = waveasm.v_add_u32 %rd, %off : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
    %x = waveasm.ds_read_b64 %a : !waveasm.vreg -> !waveasm.vreg<2, 2>
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %kn#0, %n : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%kn#0, %wr, %rd, %x) : !waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.vreg<2, 2>
  }
  waveasm.s_endpgm
}
