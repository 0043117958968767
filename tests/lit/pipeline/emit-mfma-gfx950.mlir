// Scaled MFMA on gfx950: cbsz/blgp (operand widths follow the format),
// op_sel/op_sel_hi from op_sel_a/op_sel_b, staged scale, gfx950-only shapes.
// RUN: waveasm-opt --emit-assembly %s | FileCheck %s
// RUN: waveasm-opt --emit-assembly %s | llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx950 -filetype=obj -o /dev/null

waveasm.program @scaled target = #waveasm.target<#waveasm.gfx950, 5>
    abi = #waveasm.abi<tid = 0, kernarg = 0> {
  %a8 = waveasm.precolored.vreg 16, 8 : !waveasm.pvreg<16, 8>
  %b8 = waveasm.precolored.vreg 24, 8 : !waveasm.pvreg<24, 8>
  %b6 = waveasm.precolored.vreg 24, 6 : !waveasm.pvreg<24, 6>
  %a4 = waveasm.precolored.vreg 32, 4 : !waveasm.pvreg<32, 4>
  %sa = waveasm.precolored.vreg 40 : !waveasm.pvreg<40>
  %sb = waveasm.precolored.vreg 41 : !waveasm.pvreg<41>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c127 = waveasm.constant 127 : !waveasm.imm<127>
  // Upstream's defaults: cbsz = blgp = 4 (FP4, 4 registers each).
  %r0 = waveasm.v_mfma_scale_f32_16x16x128_f8f6f4 %a4, %a4, %c0, %sa, %sb : !waveasm.pvreg<32, 4>, !waveasm.pvreg<32, 4>, !waveasm.imm<0>, !waveasm.pvreg<40>, !waveasm.pvreg<41> -> !waveasm.pareg<0, 4>
  // FP8 x FP6 with byte selectors 3 and 2.
  %r1 = waveasm.v_mfma_scale_f32_32x32x64_f8f6f4 %a8, %b6, %c0, %sa, %sb {cbsz = 0 : i32, blgp = 2 : i32, op_sel_a = 3 : i32, op_sel_b = 2 : i32} : !waveasm.pvreg<16, 8>, !waveasm.pvreg<24, 6>, !waveasm.imm<0>, !waveasm.pvreg<40>, !waveasm.pvreg<41> -> !waveasm.pareg<16, 16>
  // An immediate scale is staged.
  %r2 = waveasm.v_mfma_scale_f32_16x16x128_f8f6f4 %a8, %b8, %r0, %c127, %sb {cbsz = 1 : i32, blgp = 0 : i32} : !waveasm.pvreg<16, 8>, !waveasm.pvreg<24, 8>, !waveasm.pareg<0, 4>, !waveasm.imm<127>, !waveasm.pvreg<41> -> !waveasm.pareg<0, 4>
  %r3 = waveasm.v_mfma_f32_16x16x32_bf16 %a4, %a4, %c0 : !waveasm.pvreg<32, 4>, !waveasm.pvreg<32, 4>, !waveasm.imm<0> -> !waveasm.pvreg<44, 4>
  waveasm.s_endpgm
}

// CHECK-LABEL: {{^}}scaled:
// CHECK-NEXT: ; kernarg preload: firmware without preloading starts here and loads s[2:5] itself;
// CHECK-NEXT: ; firmware with it enters 256 bytes later
// CHECK-NEXT: s_load_dwordx2 s[2:3], s[0:1], 0
// CHECK-NEXT: s_load_dwordx2 s[4:5], s[0:1], 8
// CHECK-NEXT: s_waitcnt lgkmcnt(0)
// CHECK-NEXT: s_branch L_scaled_preloaded
// CHECK-NEXT: {{^}}.p2align 8
// CHECK-NEXT: {{^}}L_scaled_preloaded:
// CHECK-NEXT: v_mfma_scale_f32_16x16x128_f8f6f4 a[0:3], v[32:35], v[32:35], 0, v40, v41 op_sel_hi:[0,0,0] cbsz:4 blgp:4
// CHECK-NEXT: v_mfma_scale_f32_32x32x64_f8f6f4 a[16:31], v[16:23], v[24:29], 0, v40, v41 op_sel:[1,0,0] op_sel_hi:[1,1,0] cbsz:0 blgp:2
// CHECK-NEXT: v_mov_b32 v15, 127
// CHECK-NEXT: v_mfma_scale_f32_16x16x128_f8f6f4 a[0:3], v[16:23], v[24:31], a[0:3], v15, v41 op_sel_hi:[0,0,0] cbsz:1 blgp:0
// CHECK-NEXT: v_mfma_f32_16x16x32_bf16 v[44:47], v[32:35], v[32:35], 0
// CHECK-NEXT: s_endpgm
