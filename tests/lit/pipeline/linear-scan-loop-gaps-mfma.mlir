// A loop-carried accumulator tied through its MFMA (the block argument read
// as the accumulator, the result yielded into the same registers) has no
// gap: the MFMA reads the old value where it writes the new one. With %a's
// gap lent (max-vgprs=9: the envelope allocation needs 10), the four body
// temporaries take v1 (%a's gap), v2, v3 and v8, never the accumulator's
// v4-v7. Equal by execution.
// RUN: waveasm-opt --waveasm-linear-scan=max-vgprs=9 %s | FileCheck %s
// RUN: waveasm-opt --waveasm-linear-scan=max-vgprs=9 --waveasm-insert-waitcnt --waveasm-hazard-mitigation %s -o %t.mlir
// RUN: waveasm-sim --compare %s %t.mlir | FileCheck %s --check-prefix=EQ
// EQ: @mfma_accumulator: equal on
// CHECK: waveasm.loop (%{{.*}} = %{{.*}}, %[[ACC:.*]] = %{{.*}}, %[[A:.*]] = %{{.*}}) : (!waveasm.psreg<{{[0-9]+}}>, !waveasm.pvreg<4, 4>, !waveasm.pvreg<1>)
// CHECK: waveasm.v_mfma_f32_16x16x16_f16 %{{.*}}, %{{.*}}, %[[ACC]] : {{.*}} -> !waveasm.pvreg<4, 4>
// CHECK: waveasm.v_add_u32 %{{.*}} : !waveasm.pvreg<0>, !waveasm.imm<1> -> !waveasm.pvreg<1>
// CHECK: waveasm.v_add_u32 {{.*}} -> !waveasm.pvreg<2>
// CHECK: waveasm.v_add_u32 {{.*}} -> !waveasm.pvreg<3>
// CHECK: waveasm.v_add_u32 {{.*}} -> !waveasm.pvreg<8>
// CHECK: waveasm.condition {{.*}} {_iterArgPhysRegs = array<i64: {{[0-9]+}}, 4, 1>}

waveasm.program @mfma_accumulator target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %acc0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %a0 = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %r:3 = waveasm.loop (%k = %k0, %acc = %acc0, %a = %a0) : (!waveasm.sreg, !waveasm.vreg<4, 4>, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg<4, 4>, !waveasm.vreg) {
    %x = waveasm.v_add_u32 %a, %tid : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    waveasm.buffer_store_dword %x, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
    %ab = waveasm.buffer_load_dwordx2 %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg<2, 2>
    %accn = waveasm.v_mfma_f32_16x16x16_f16 %ab, %ab, %acc : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %y = waveasm.v_add_u32 %tid, %c1 : !waveasm.pvreg<0>, !waveasm.imm<1> -> !waveasm.vreg
    %z = waveasm.v_add_u32 %y, %tid : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %w = waveasm.v_add_u32 %z, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %u = waveasm.v_add_u32 %w, %z : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.buffer_store_dword %u, %srd, %y : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
    waveasm.buffer_store_dword %w, %srd, %z : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
    %an = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%kn#0, %accn, %an) : !waveasm.sreg, !waveasm.vreg<4, 4>, !waveasm.vreg
  }
  waveasm.buffer_store_dwordx4 %r#1, %srd, %tid : !waveasm.vreg<4, 4>, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.buffer_store_dword %r#2, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}
