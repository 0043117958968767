// A block argument nothing in the body reads, whose next value a load
// yields: the previous iteration's load may still be landing in its
// registers while the body runs, so its gap is not lent (a value there would
// wait for that load, or be overwritten by it). With 3 VGPRs, which lending
// it would fit, the allocation fails as the envelope allocation does; with
// 4, %y and %z keep out of %a's register. Equal by execution.
// RUN: not waveasm-opt --waveasm-linear-scan=max-vgprs=3 %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIGHT
// RUN: waveasm-opt --waveasm-linear-scan=max-vgprs=4 %s | FileCheck %s
// RUN: waveasm-opt --waveasm-linear-scan=max-vgprs=4 --waveasm-insert-waitcnt --waveasm-hazard-mitigation %s -o %t.mlir
// RUN: waveasm-sim --compare %s %t.mlir | FileCheck %s --check-prefix=EQ
// TIGHT: error: Failed to allocate VGPR: kernel requires 4 but only 3 are available
// EQ: @unread_argument: equal on
// CHECK: waveasm.loop (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (!waveasm.psreg<{{[0-9]+}}>, !waveasm.pvreg<1>)
// CHECK: waveasm.v_add_u32 %{{.*}} : !waveasm.pvreg<0>, !waveasm.imm<1> -> !waveasm.pvreg<2>
// CHECK: waveasm.v_add_u32 {{.*}} -> !waveasm.pvreg<3>
// CHECK: waveasm.buffer_load_dword {{.*}} -> !waveasm.pvreg<1>

waveasm.program @unread_argument target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %a0 = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %r:2 = waveasm.loop (%k = %k0, %a = %a0) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %y = waveasm.v_add_u32 %tid, %c1 : !waveasm.pvreg<0>, !waveasm.imm<1> -> !waveasm.vreg
    %z = waveasm.v_add_u32 %y, %tid : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    waveasm.buffer_store_dword %z, %srd, %y : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
    %an = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%kn#0, %an) : !waveasm.sreg, !waveasm.vreg
  }
  waveasm.buffer_store_dword %r#1, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}
