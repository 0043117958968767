// After allocation, registers alias by overlap, not by equal base index
// (upstream compares base indices only).
// RUN: waveasm-opt --waveasm-hazard-mitigation %s | FileCheck %s

// CHECK-LABEL: waveasm.program @overlap
// Trans result v5, read as the high half of v[4:5].
// CHECK:      waveasm.v_exp_f32 {{.*}} -> !waveasm.pvreg<5>
// CHECK-NEXT: waveasm.s_nop 0
// CHECK-NEXT: waveasm.v_add_f64 {{.*}} : !waveasm.pvreg<4, 2>
// MFMA result v[8:11]; a VALU read of v10 waits, a read of v12 (just past
// the range) does not, and a load into v[10:11] (WAW) waits.
// CHECK-NEXT: waveasm.v_mfma_f32_16x16x16_f16 {{.*}} -> !waveasm.pvreg<8, 4>
// CHECK-NEXT: waveasm.v_mov_b32 {{.*}} : !waveasm.pvreg<12> -> !waveasm.pvreg<30>
// CHECK-NEXT: waveasm.s_nop 6
// CHECK-NEXT: waveasm.v_mov_b32 {{.*}} : !waveasm.pvreg<10> -> !waveasm.pvreg<31>
// CHECK-NEXT: waveasm.v_mfma_f32_16x16x16_f16 {{.*}} -> !waveasm.pvreg<8, 4>
// CHECK-NEXT: waveasm.s_nop 7
// CHECK-NEXT: waveasm.buffer_load_dwordx2 {{.*}} -> !waveasm.pvreg<10, 2>
// An accumulator chain in registers: same opcode, SrcC = vdst = v[16:19].
// CHECK-NEXT: waveasm.v_mfma_f32_16x16x16_f16 {{.*}} -> !waveasm.pvreg<16, 4>
// CHECK-NEXT: waveasm.v_mfma_f32_16x16x16_f16 {{.*}}, {{.*}}, {{.*}} : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.pvreg<16, 4> -> !waveasm.pvreg<16, 4>
// A different opcode reading the result as SrcC is no chain.
// CHECK-NEXT: waveasm.s_nop 7
// CHECK-NEXT: waveasm.v_mfma_f32_4x4x4_f16 {{.*}} : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.pvreg<16, 4> -> !waveasm.pvreg<16, 4>
// CHECK-NEXT: waveasm.s_endpgm
waveasm.program @overlap target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %ab = waveasm.precolored.vreg 2, 2 : !waveasm.pvreg<2, 2>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %pair = waveasm.precolored.vreg 4, 2 : !waveasm.pvreg<4, 2>
  %v12 = waveasm.precolored.vreg 12 : !waveasm.pvreg<12>
  %v10 = waveasm.precolored.vreg 10 : !waveasm.pvreg<10>
  %e = waveasm.v_exp_f32 %v0 : !waveasm.pvreg<0> -> !waveasm.pvreg<5>
  %f = waveasm.v_add_f64 %pair, %pair : !waveasm.pvreg<4, 2>, !waveasm.pvreg<4, 2> -> !waveasm.pvreg<20, 2>
  %d = waveasm.v_mfma_f32_16x16x16_f16 %ab, %ab, %c0 : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.imm<0> -> !waveasm.pvreg<8, 4>
  %m = waveasm.v_mov_b32 %v12 : !waveasm.pvreg<12> -> !waveasm.pvreg<30>
  %n = waveasm.v_mov_b32 %v10 : !waveasm.pvreg<10> -> !waveasm.pvreg<31>
  %d2 = waveasm.v_mfma_f32_16x16x16_f16 %ab, %ab, %c0 : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.imm<0> -> !waveasm.pvreg<8, 4>
  %l = waveasm.buffer_load_dwordx2 %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.pvreg<10, 2>
  %a0 = waveasm.v_mfma_f32_16x16x16_f16 %ab, %ab, %c0 : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.imm<0> -> !waveasm.pvreg<16, 4>
  %a1 = waveasm.v_mfma_f32_16x16x16_f16 %ab, %ab, %a0 : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.pvreg<16, 4> -> !waveasm.pvreg<16, 4>
  %a2 = waveasm.v_mfma_f32_4x4x4_f16 %ab, %ab, %a1 : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.pvreg<16, 4> -> !waveasm.pvreg<16, 4>
  waveasm.s_endpgm
}
