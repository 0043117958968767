// MFMA results are tied to their accumulator (operand 2) when both are
// VGPRs or both AGPRs and the accumulator dies at the MFMA; an accumulator
// that is still needed afterwards, or that is also read as A/B, is not
// overwritten.
// RUN: waveasm-opt --waveasm-linear-scan %s | FileCheck %s

// CHECK-LABEL: waveasm.program @vgpr_chain
waveasm.program @vgpr_chain target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  // CHECK: %[[A:.*]] = waveasm.ds_read_b64 {{.*}} -> !waveasm.pvreg<2, 2>
  %a = waveasm.ds_read_b64 %tid : !waveasm.pvreg<0> -> !waveasm.vreg<2, 2>
  // CHECK: %[[Z:.*]] = waveasm.v_mov_b32 {{.*}} -> !waveasm.pvreg<4, 4>
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  // CHECK: %[[M0:.*]] = waveasm.v_mfma_f32_16x16x16_f16 %[[A]], %[[A]], %[[Z]] : {{.*}} -> !waveasm.pvreg<4, 4>
  %m0 = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %z : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  // CHECK: %[[M1:.*]] = waveasm.v_mfma_f32_16x16x16_f16 %[[A]], %[[A]], %[[M0]] : {{.*}} -> !waveasm.pvreg<4, 4>
  %m1 = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %m0 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  // %m1 is stored below: this MFMA must not overwrite it.
  // CHECK: %[[M2:.*]] = waveasm.v_mfma_f32_16x16x16_f16 %[[A]], %[[A]], %[[M1]] : {{.*}} -> !waveasm.pvreg<8, 4>
  %m2 = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %m1 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  // An immediate accumulator ties nothing.
  // CHECK: waveasm.v_mfma_f32_16x16x16_f16 %[[A]], %[[A]], %{{.*}} : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.imm<0> -> !waveasm.pvreg<16, 4>
  %m3 = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %c0 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  // CHECK: waveasm.buffer_store_dwordx4 %[[M1]], {{.*}} : !waveasm.pvreg<4, 4>
  waveasm.buffer_store_dwordx4 %m1, %srd, %tid : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.buffer_store_dwordx4 %m2, %srd, %tid : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.buffer_store_dwordx4 %m3, %srd, %tid : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

// An accumulator that is also the A operand (16x16x32 takes 4-register A/B)
// is not tied: A is read while the destination is written.
// CHECK-LABEL: waveasm.program @acc_is_a
waveasm.program @acc_is_a target = #waveasm.target<#waveasm.gfx950> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  // CHECK: waveasm.buffer_load_dwordx4 {{.*}} -> !waveasm.pvreg<4, 4>
  %x = waveasm.buffer_load_dwordx4 %srd, %tid, %c0 : !waveasm.psreg<0, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  // CHECK: waveasm.v_mfma_f32_16x16x32_f16 {{.*}} -> !waveasm.pvreg<8, 4>
  %m = waveasm.v_mfma_f32_16x16x32_f16 %x, %x, %x : !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  waveasm.buffer_store_dwordx4 %m, %srd, %tid : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

// AGPR accumulators carried by a loop: zero-init, block argument, MFMA
// result, iter_arg and loop result all live in a[0:3]; the VGPR result of
// a VGPR accumulator is not tied to an AGPR.
// CHECK-LABEL: waveasm.program @agpr_loop
waveasm.program @agpr_loop target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %s = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  // CHECK: %[[Z:.*]] = waveasm.v_mov_b32 %{{.*}} : !waveasm.imm<0> -> !waveasm.pareg<0, 4>
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.areg<4, 4>
  // CHECK: waveasm.loop (%[[ACC:.*]] = %[[Z]]) : (!waveasm.pareg<0, 4>) -> !waveasm.pareg<0, 4>
  %r = waveasm.loop (%acc = %z) : (!waveasm.areg<4, 4>) -> (!waveasm.areg<4, 4>) {
    %a = waveasm.ds_read_b64 %tid : !waveasm.pvreg<0> -> !waveasm.vreg<2, 2>
    // CHECK: %[[N:.*]] = waveasm.v_mfma_f32_16x16x16_f16 %{{.*}}, %{{.*}}, %[[ACC]] : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.pareg<0, 4> -> !waveasm.pareg<0, 4>
    %n = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %acc : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.areg<4, 4> -> !waveasm.areg<4, 4>
    %go = waveasm.s_cmp_lt_u32 %s, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    // CHECK: waveasm.condition %{{.*}} iter_args(%[[N]]) : !waveasm.pareg<0, 4> {_iterArgPhysRegs = array<i64: 0>}
    waveasm.condition %go : !waveasm.scc iter_args(%n) : !waveasm.areg<4, 4>
  }
  %v = waveasm.v_accvgpr_read_b32 %r : !waveasm.areg<4, 4> -> !waveasm.vreg<4, 4>
  // A VGPR accumulator with an AGPR result: different files, no tie.
  %a2 = waveasm.ds_read_b64 %tid : !waveasm.pvreg<0> -> !waveasm.vreg<2, 2>
  // CHECK: waveasm.v_mfma_f32_16x16x16_f16 {{.*}}, !waveasm.pvreg<{{[0-9]+}}, 4> -> !waveasm.pareg<0, 4>
  %m = waveasm.v_mfma_f32_16x16x16_f16 %a2, %a2, %v : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.areg<4, 4>
  %w = waveasm.v_accvgpr_read_b32 %m : !waveasm.areg<4, 4> -> !waveasm.vreg<4, 4>
  waveasm.buffer_store_dwordx4 %w, %srd, %tid : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}
