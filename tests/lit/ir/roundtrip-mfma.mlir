// MFMA and scaled MFMA round-trip: several shapes (f16, bf16, i8, f32, f64, fp8), immediate-0 and AGPR accumulators, cbsz/blgp attributes.
// RUN: waveasm-opt %s | FileCheck %s
// RUN: waveasm-opt %s | waveasm-opt | FileCheck %s

// CHECK-LABEL: waveasm.program @mfma target = <#waveasm.gfx950> abi = <> {
waveasm.program @mfma target = #waveasm.target<#waveasm.gfx950> abi = #waveasm.abi<> {
  // CHECK:      %[[A2:.*]] = waveasm.precolored.vreg 0, 2 : !waveasm.vreg<2, 2>
  // CHECK-NEXT: %[[A1:.*]] = waveasm.precolored.vreg 2 : !waveasm.vreg{{$}}
  // CHECK-NEXT: %[[B8:.*]] = waveasm.precolored.vreg 8, 8 : !waveasm.vreg<8, 4>
  // CHECK-NEXT: %[[C0:.*]] = waveasm.constant 0 : <0>
  // CHECK-NEXT: %[[ACC:.*]] = waveasm.v_mov_b32 %[[C0]] {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  // CHECK-NEXT: %[[AG:.*]] = waveasm.precolored.areg 0, 16 : !waveasm.pareg<0, 16>
  %a2 = waveasm.precolored.vreg 0, 2 : !waveasm.vreg<2, 2>
  %a1 = waveasm.precolored.vreg 2 : !waveasm.vreg
  %b8 = waveasm.precolored.vreg 8, 8 : !waveasm.vreg<8, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %acc = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %ag = waveasm.precolored.areg 0, 16 : !waveasm.pareg<0, 16>

  // 4-register accumulators.
  // CHECK-NEXT: %[[D0:.*]] = waveasm.v_mfma_f32_16x16x16_f16 %[[A2]], %[[A2]], %[[ACC]] : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  // CHECK-NEXT: %{{.*}} = waveasm.v_mfma_f32_16x16x32_bf16 %[[A2]], %[[A2]], %[[D0]] : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  // CHECK-NEXT: %{{.*}} = waveasm.v_mfma_i32_16x16x16_i8 %[[A1]], %[[A1]], %[[C0]] : !waveasm.vreg, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  // CHECK-NEXT: %{{.*}} = waveasm.v_mfma_f32_4x4x1_f32 %[[A1]], %[[A1]], %[[C0]] : !waveasm.vreg, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.pvreg<100, 4>
  // CHECK-NEXT: %{{.*}} = waveasm.v_mfma_f32_16x16x32_fp8_bf8 %[[A2]], %[[A2]], %[[ACC]] : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  %d0 = waveasm.v_mfma_f32_16x16x16_f16 %a2, %a2, %acc
      : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  %d1 = waveasm.v_mfma_f32_16x16x32_bf16 %a2, %a2, %d0
      : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  %d2 = waveasm.v_mfma_i32_16x16x16_i8 %a1, %a1, %c0
      : !waveasm.vreg, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %d3 = waveasm.v_mfma_f32_4x4x1_f32 %a1, %a1, %c0
      : !waveasm.vreg, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.pvreg<100, 4>
  %d4 = waveasm.v_mfma_f32_16x16x32_fp8_bf8 %a2, %a2, %acc
      : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>

  // 16-register accumulators, incl. an AGPR accumulator and an AGPR result.
  // CHECK-NEXT: %{{.*}} = waveasm.v_mfma_f32_32x32x8_f16 %[[A2]], %[[A2]], %[[C0]] : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.imm<0> -> !waveasm.vreg<16, 4>
  // CHECK-NEXT: %{{.*}} = waveasm.v_mfma_i32_32x32x8_i8 %[[A1]], %[[A1]], %[[AG]] : !waveasm.vreg, !waveasm.vreg, !waveasm.pareg<0, 16> -> !waveasm.areg<16, 4>
  // CHECK-NEXT: %{{.*}} = waveasm.v_mfma_f32_16x16x4_f16 %[[A2]], %[[A2]], %[[AG]] : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.pareg<0, 16> -> !waveasm.pareg<0, 16>
  %d5 = waveasm.v_mfma_f32_32x32x8_f16 %a2, %a2, %c0
      : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.imm<0> -> !waveasm.vreg<16, 4>
  %d6 = waveasm.v_mfma_i32_32x32x8_i8 %a1, %a1, %ag
      : !waveasm.vreg, !waveasm.vreg, !waveasm.pareg<0, 16> -> !waveasm.areg<16, 4>
  %d7 = waveasm.v_mfma_f32_16x16x4_f16 %a2, %a2, %ag
      : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.pareg<0, 16> -> !waveasm.pareg<0, 16>

  // 32-register (i8) and f64 shapes (8 and 2 registers).
  // CHECK-NEXT: %{{.*}} = waveasm.v_mfma_i32_32x32x4_i8 %[[A1]], %[[A1]], %[[C0]] : !waveasm.vreg, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<32, 4>
  // CHECK-NEXT: %{{.*}} = waveasm.v_mfma_f64_16x16x4_f64 %[[A2]], %[[A2]], %[[C0]] : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.imm<0> -> !waveasm.vreg<8, 2>
  // CHECK-NEXT: %{{.*}} = waveasm.v_mfma_f64_4x4x4_f64 %[[A2]], %[[A2]], %[[A2]] : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2> -> !waveasm.vreg<2, 2>
  %d8 = waveasm.v_mfma_i32_32x32x4_i8 %a1, %a1, %c0
      : !waveasm.vreg, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<32, 4>
  %d9 = waveasm.v_mfma_f64_16x16x4_f64 %a2, %a2, %c0
      : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.imm<0> -> !waveasm.vreg<8, 2>
  %d10 = waveasm.v_mfma_f64_4x4x4_f64 %a2, %a2, %a2
      : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2> -> !waveasm.vreg<2, 2>

  // A 1-register accumulator is accepted as a broadcast placeholder.
  // CHECK-NEXT: %{{.*}} = waveasm.v_mfma_f32_16x16x16_bf16 %[[A2]], %[[A2]], %[[A1]] : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg -> !waveasm.vreg<4, 4>
  %d11 = waveasm.v_mfma_f32_16x16x16_bf16 %a2, %a2, %a1
      : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg -> !waveasm.vreg<4, 4>

  // Scaled MFMA: five operands; cbsz/blgp/op_sel_* print alphabetically.
  // CHECK-NEXT: %{{.*}} = waveasm.v_mfma_scale_f32_16x16x128_f8f6f4 %[[B8]], %[[B8]], %[[ACC]], %[[A1]], %[[A1]] {blgp = 4 : i32, cbsz = 4 : i32} : !waveasm.vreg<8, 4>, !waveasm.vreg<8, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg<4, 4>
  // CHECK-NEXT: %{{.*}} = waveasm.v_mfma_scale_f32_32x32x64_f8f6f4 %[[B8]], %[[B8]], %[[C0]], %[[A1]], %[[C0]] {blgp = 0 : i32, cbsz = 2 : i32, op_sel_a = 1 : i32, op_sel_b = 2 : i32} : !waveasm.vreg<8, 4>, !waveasm.vreg<8, 4>, !waveasm.imm<0>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<16, 4>
  // CHECK-NEXT: %{{.*}} = waveasm.v_mfma_scale_f32_16x16x128_f8f6f4 %[[B8]], %[[B8]], %[[C0]], %[[A1]], %[[A1]] : !waveasm.vreg<8, 4>, !waveasm.vreg<8, 4>, !waveasm.imm<0>, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg<4, 4>
  %s0 = waveasm.v_mfma_scale_f32_16x16x128_f8f6f4 %b8, %b8, %acc, %a1, %a1
      {cbsz = 4 : i32, blgp = 4 : i32}
      : !waveasm.vreg<8, 4>, !waveasm.vreg<8, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg<4, 4>
  %s1 = waveasm.v_mfma_scale_f32_32x32x64_f8f6f4 %b8, %b8, %c0, %a1, %c0
      {op_sel_b = 2 : i32, op_sel_a = 1 : i32, cbsz = 2 : i32, blgp = 0 : i32}
      : !waveasm.vreg<8, 4>, !waveasm.vreg<8, 4>, !waveasm.imm<0>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<16, 4>
  %s2 = waveasm.v_mfma_scale_f32_16x16x128_f8f6f4 %b8, %b8, %c0, %a1, %a1
      : !waveasm.vreg<8, 4>, !waveasm.vreg<8, 4>, !waveasm.imm<0>, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg<4, 4>
}
