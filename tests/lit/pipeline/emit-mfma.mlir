// MFMA emission on gfx942: AGPR and VGPR accumulators, immediate zero,
// accumulator copied into the result's register file, LLVM's names for the
// legacy shapes, staged 1-register sources, narrowed wide operands.
// RUN: waveasm-opt --emit-assembly %s | FileCheck %s
// RUN: waveasm-opt --emit-assembly %s | llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj -o /dev/null

waveasm.program @mfma target = #waveasm.target<#waveasm.gfx942, 5>
    abi = #waveasm.abi<tid = 0, kernarg = 0> {
  %a = waveasm.precolored.vreg 16, 2 : !waveasm.pvreg<16, 2>
  %b = waveasm.precolored.vreg 18, 2 : !waveasm.pvreg<18, 2>
  %a4 = waveasm.precolored.vreg 16, 4 : !waveasm.pvreg<16, 4>
  %v20 = waveasm.precolored.vreg 20 : !waveasm.pvreg<20>
  %s8 = waveasm.precolored.sreg 8 : !waveasm.psreg<8>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1000 = waveasm.constant 1000 : !waveasm.imm<1000>
  // Zero accumulator into AGPRs, then chained in place.
  %acc0 = waveasm.v_mfma_f32_32x32x8_f16 %a, %b, %c0 : !waveasm.pvreg<16, 2>, !waveasm.pvreg<18, 2>, !waveasm.imm<0> -> !waveasm.pareg<0, 16>
  %acc1 = waveasm.v_mfma_f32_32x32x8_f16 %a, %b, %acc0 : !waveasm.pvreg<16, 2>, !waveasm.pvreg<18, 2>, !waveasm.pareg<0, 16> -> !waveasm.pareg<0, 16>
  // VGPR accumulators, result in other registers.
  %vacc = waveasm.precolored.vreg 32, 4 : !waveasm.pvreg<32, 4>
  %r1 = waveasm.v_mfma_f32_16x16x16_bf16 %a, %b, %vacc : !waveasm.pvreg<16, 2>, !waveasm.pvreg<18, 2>, !waveasm.pvreg<32, 4> -> !waveasm.pvreg<36, 4>
  // Accumulator in VGPRs, result in AGPRs: copied first.
  %r2 = waveasm.v_mfma_f32_16x16x16_f16 %a, %b, %vacc : !waveasm.pvreg<16, 2>, !waveasm.pvreg<18, 2>, !waveasm.pvreg<32, 4> -> !waveasm.pareg<16, 4>
  // Legacy shapes use LLVM's names.
  %r3 = waveasm.v_mfma_f32_4x4x4_f16 %a, %b, %c0 : !waveasm.pvreg<16, 2>, !waveasm.pvreg<18, 2>, !waveasm.imm<0> -> !waveasm.pareg<20, 4>
  %r4 = waveasm.v_mfma_f64_4x4x4_f64 %a, %b, %c0 : !waveasm.pvreg<16, 2>, !waveasm.pvreg<18, 2>, !waveasm.imm<0> -> !waveasm.pvreg<40, 2>
  // A 1-register source in an SGPR or literal is staged.
  %r5 = waveasm.v_mfma_f32_16x16x4_f32 %v20, %s8, %c0 : !waveasm.pvreg<20>, !waveasm.psreg<8>, !waveasm.imm<0> -> !waveasm.pareg<24, 4>
  %r6 = waveasm.v_mfma_i32_4x4x4_i8 %c1000, %v20, %c0 : !waveasm.imm<1000>, !waveasm.pvreg<20>, !waveasm.imm<0> -> !waveasm.pareg<28, 4>
  // A wider A operand is read through its low registers.
  %r7 = waveasm.v_mfma_f32_16x16x32_fp8_fp8 %a4, %b, %c0 : !waveasm.pvreg<16, 4>, !waveasm.pvreg<18, 2>, !waveasm.imm<0> -> !waveasm.pareg<32, 4>
  waveasm.s_endpgm
}

// CHECK-LABEL: {{^}}mfma:
// CHECK-NEXT: v_mfma_f32_32x32x8_f16 a[0:15], v[16:17], v[18:19], 0
// CHECK-NEXT: v_mfma_f32_32x32x8_f16 a[0:15], v[16:17], v[18:19], a[0:15]
// CHECK-NEXT: v_mfma_f32_16x16x16_bf16 v[36:39], v[16:17], v[18:19], v[32:35]
// CHECK-NEXT: v_accvgpr_write_b32 a16, v32
// CHECK-NEXT: v_accvgpr_write_b32 a17, v33
// CHECK-NEXT: v_accvgpr_write_b32 a18, v34
// CHECK-NEXT: v_accvgpr_write_b32 a19, v35
// CHECK-NEXT: v_mfma_f32_16x16x16_f16 a[16:19], v[16:17], v[18:19], a[16:19]
// CHECK-NEXT: v_mfma_f32_4x4x4_16b_f16 a[20:23], v[16:17], v[18:19], 0
// CHECK-NEXT: v_mfma_f64_4x4x4_4b_f64 v[40:41], v[16:17], v[18:19], 0
// CHECK-NEXT: v_mov_b32 v15, s8
// CHECK-NEXT: v_mfma_f32_16x16x4_f32 a[24:27], v20, v15, 0
// CHECK-NEXT: v_mov_b32 v15, 1000
// CHECK-NEXT: v_mfma_i32_4x4x4_16b_i8 a[28:31], v15, v20, 0
// CHECK-NEXT: v_mfma_f32_16x16x32_fp8_fp8 a[32:35], v[16:17], v[18:19], 0
// CHECK-NEXT: s_endpgm
