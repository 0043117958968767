// VALU emission: literal and SGPR legalization (VOP2 literal in src0,
// reversed/commuted forms, staging through v15 and the destination, the
// constant bus), VCC users, compares, expanded ops, moves and lane ops.
// RUN: waveasm-opt --emit-assembly %s | FileCheck %s
// RUN: waveasm-opt --emit-assembly %s | llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj -o /dev/null

waveasm.program @valu target = #waveasm.target<#waveasm.gfx942, 5>
    abi = #waveasm.abi<tid = 0, kernarg = 0> {
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %v1 = waveasm.precolored.vreg 1 : !waveasm.pvreg<1>
  %v2 = waveasm.precolored.vreg 2, 2 : !waveasm.pvreg<2, 2>
  %v4 = waveasm.precolored.vreg 4, 2 : !waveasm.pvreg<4, 2>
  %s8 = waveasm.precolored.sreg 8 : !waveasm.psreg<8>
  %s9 = waveasm.precolored.sreg 9 : !waveasm.psreg<9>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c5 = waveasm.constant 5 : !waveasm.imm<5>
  %cm16 = waveasm.constant -16 : !waveasm.imm<-16>
  %c64 = waveasm.constant 64 : !waveasm.imm<64>
  %c1000 = waveasm.constant 1000 : !waveasm.imm<1000>
  %c2000 = waveasm.constant 2000 : !waveasm.imm<2000>
  %cbig = waveasm.constant 0x100000001 : !waveasm.imm<4294967297>
  // VOP2 literal moved into src0 by commuting.
  %a = waveasm.v_add_u32 %v0, %c1000 : !waveasm.pvreg<0>, !waveasm.imm<1000> -> !waveasm.pvreg<20>
  // Inline constants need no staging anywhere.
  %b = waveasm.v_add_u32 %v0, %c64 : !waveasm.pvreg<0>, !waveasm.imm<64> -> !waveasm.pvreg<20>
  %b2 = waveasm.v_add_u32 %v0, %cm16 : !waveasm.pvreg<0>, !waveasm.imm<-16> -> !waveasm.pvreg<20>
  // v_sub_u32 with the literal second: reversed to v_subrev_u32.
  %c = waveasm.v_sub_u32 %v0, %c1000 : !waveasm.pvreg<0>, !waveasm.imm<1000> -> !waveasm.pvreg<20>
  // Shift amount literal second: no reversed form, staged in v15.
  %d = waveasm.v_lshlrev_b32 %v0, %c1000 : !waveasm.pvreg<0>, !waveasm.imm<1000> -> !waveasm.pvreg<20>
  // VOP3-only op: literal staged in v15; the cached value is reused.
  %e = waveasm.v_mul_lo_u32 %v0, %c1000 : !waveasm.pvreg<0>, !waveasm.imm<1000> -> !waveasm.pvreg<21>
  %f = waveasm.v_bfe_u32 %c1000, %v0, %c5 : !waveasm.imm<1000>, !waveasm.pvreg<0>, !waveasm.imm<5> -> !waveasm.pvreg<22>
  // Two different literals: v15 and the destination.
  %g = waveasm.v_fma_f32 %c1000, %c2000, %v0 : !waveasm.imm<1000>, !waveasm.imm<2000>, !waveasm.pvreg<0> -> !waveasm.pvreg<23>
  // Two SGPRs exceed the constant bus: one is staged.
  %h = waveasm.v_add_u32 %s8, %s9 : !waveasm.psreg<8>, !waveasm.psreg<9> -> !waveasm.pvreg<24>
  %h2 = waveasm.v_add3_u32 %s8, %s9, %c1000 : !waveasm.psreg<8>, !waveasm.psreg<9>, !waveasm.imm<1000> -> !waveasm.pvreg<25>
  // v_cndmask_b32 reads VCC: SGPR and literal sources are staged.
  %i = waveasm.v_cndmask_b32 %s8, %v0, %v1 : !waveasm.psreg<8>, !waveasm.pvreg<0>, !waveasm.pvreg<1> -> !waveasm.pvreg<26>
  %j = waveasm.v_cndmask_b32 %c1000, %c2000, %v1 : !waveasm.imm<1000>, !waveasm.imm<2000>, !waveasm.pvreg<1> -> !waveasm.pvreg<27>
  %k = waveasm.v_cndmask_b32 %v0, %c5, %v1 : !waveasm.pvreg<0>, !waveasm.imm<5>, !waveasm.pvreg<1> -> !waveasm.pvreg<28>
  // Carry ops write VCC; the carry-in forms read it.
  %l:2 = waveasm.v_add_co_u32 %v0, %c1000 : !waveasm.pvreg<0>, !waveasm.imm<1000> -> !waveasm.pvreg<30>, !waveasm.psreg<106, 2>
  %m:2 = waveasm.v_addc_co_u32 %v1, %s8 : !waveasm.pvreg<1>, !waveasm.psreg<8> -> !waveasm.pvreg<31>, !waveasm.psreg<106, 2>
  %n:2 = waveasm.v_sub_co_u32 %v0, %s8 : !waveasm.pvreg<0>, !waveasm.psreg<8> -> !waveasm.pvreg<32>, !waveasm.psreg<106, 2>
  %n2:2 = waveasm.v_subb_co_u32 %v0, %v1 : !waveasm.pvreg<0>, !waveasm.pvreg<1> -> !waveasm.pvreg<33>, !waveasm.psreg<106, 2>
  // Compares: literal first (e32), reversed predicate, SGPR second (e64).
  waveasm.v_cmp_lt_u32 %v0, %c1000 : !waveasm.pvreg<0>, !waveasm.imm<1000>
  waveasm.v_cmp_eq_i32 %v0, %s8 : !waveasm.pvreg<0>, !waveasm.psreg<8>
  waveasm.v_cmp_ne_f32 %v0, %v1 : !waveasm.pvreg<0>, !waveasm.pvreg<1>
  waveasm.v_cmp_ge_u64 %v2, %c5 : !waveasm.pvreg<2, 2>, !waveasm.imm<5>
  // Ops without a GFX9 instruction of that name.
  %o = waveasm.v_xor_b64 %v2, %cbig : !waveasm.pvreg<2, 2>, !waveasm.imm<4294967297> -> !waveasm.pvreg<40, 2>
  %o2 = waveasm.v_not_b64 %v2 : !waveasm.pvreg<2, 2> -> !waveasm.pvreg<3, 2>
  %p = waveasm.v_sub_f64 %v2, %v4 : !waveasm.pvreg<2, 2>, !waveasm.pvreg<4, 2> -> !waveasm.pvreg<42, 2>
  %q = waveasm.v_abs_f32 %v0 : !waveasm.pvreg<0> -> !waveasm.pvreg<44>
  %r = waveasm.v_abs_i32 %v0 : !waveasm.pvreg<0> -> !waveasm.pvreg<45>
  %r2 = waveasm.v_abs_i32 %v1 : !waveasm.pvreg<1> -> !waveasm.pvreg<1>
  %t = waveasm.v_cvt_f32_bf16 %v0 : !waveasm.pvreg<0> -> !waveasm.pvreg<46>
  // Moves: one per register, AGPRs through v_accvgpr_write_b32.
  %u = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.pvreg<48, 4>
  %w = waveasm.v_mov_b32 %c1000 : !waveasm.imm<1000> -> !waveasm.pareg<4, 2>
  %x = waveasm.v_mov_b32 %v2 : !waveasm.pvreg<2, 2> -> !waveasm.pvreg<3, 2>
  %y = waveasm.v_mov_b64 %cbig : !waveasm.imm<4294967297> -> !waveasm.pvreg<50, 2>
  %a3 = waveasm.precolored.areg 3 : !waveasm.pareg<3>
  waveasm.v_accvgpr_write_b32 %v0, %a3 : !waveasm.pvreg<0>, !waveasm.pareg<3>
  %z = waveasm.v_accvgpr_read_b32 %a3 : !waveasm.pareg<3> -> !waveasm.pvreg<52>
  %rf = waveasm.v_readfirstlane_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.psreg<10>
  %rl = waveasm.v_readlane_b32 %v0, %c5 : !waveasm.pvreg<0>, !waveasm.imm<5> -> !waveasm.psreg<11>
  %wl = waveasm.v_writelane_b32 %s8, %c5, %v0 : !waveasm.psreg<8>, !waveasm.imm<5>, !waveasm.pvreg<0> -> !waveasm.pvreg<53>
  waveasm.s_endpgm
}

// CHECK-LABEL: {{^}}valu:
// CHECK-NEXT: v_add_u32 v20, 1000, v0
// CHECK-NEXT: v_add_u32 v20, v0, 64
// CHECK-NEXT: v_add_u32 v20, v0, -16
// CHECK-NEXT: v_subrev_u32 v20, 1000, v0
// CHECK-NEXT: v_mov_b32 v15, 1000
// CHECK-NEXT: v_lshlrev_b32 v20, v0, v15
// CHECK-NEXT: v_mul_lo_u32 v21, v0, v15
// CHECK-NEXT: v_bfe_u32 v22, v15, v0, 5
// CHECK-NEXT: v_mov_b32 v23, 2000
// CHECK-NEXT: v_fma_f32 v23, v15, v23, v0
// CHECK-NEXT: v_mov_b32 v15, s8
// CHECK-NEXT: v_add_u32 v24, v15, s9
// CHECK-NEXT: v_mov_b32 v15, s8
// CHECK-NEXT: v_mov_b32 v25, 1000
// CHECK-NEXT: v_add3_u32 v25, v15, s9, v25
// CHECK-NEXT: v_mov_b32 v15, s8
// CHECK-NEXT: v_cndmask_b32 v26, v15, v0, vcc
// CHECK-NEXT: v_mov_b32 v15, 1000
// CHECK-NEXT: v_mov_b32 v27, 2000
// CHECK-NEXT: v_cndmask_b32 v27, v15, v27, vcc
// CHECK-NEXT: v_cndmask_b32 v28, v0, 5, vcc
// CHECK-NEXT: v_add_co_u32 v30, vcc, 1000, v0
// CHECK-NEXT: v_mov_b32 v15, s8
// CHECK-NEXT: v_addc_co_u32 v31, vcc, v1, v15, vcc
// CHECK-NEXT: v_sub_co_u32 v32, vcc, v0, s8
// CHECK-NEXT: v_subb_co_u32 v33, vcc, v0, v1, vcc
// CHECK-NEXT: v_cmp_gt_u32 vcc, 1000, v0
// CHECK-NEXT: v_cmp_eq_i32 vcc, v0, s8
// CHECK-NEXT: v_cmp_neq_f32 vcc, v0, v1
// CHECK-NEXT: v_cmp_ge_u64 vcc, v[2:3], 5
// CHECK-NEXT: v_xor_b32 v40, v2, 1
// CHECK-NEXT: v_xor_b32 v41, v3, 1
// CHECK-NEXT: v_not_b32 v4, v3
// CHECK-NEXT: v_not_b32 v3, v2
// CHECK-NEXT: v_add_f64 v[42:43], v[2:3], -v[4:5]
// CHECK-NEXT: v_and_b32 v44, 2147483647, v0
// CHECK-NEXT: v_sub_u32 v45, 0, v0
// CHECK-NEXT: v_max_i32 v45, v0, v45
// CHECK-NEXT: v_sub_u32 v15, 0, v1
// CHECK-NEXT: v_max_i32 v1, v1, v15
// CHECK-NEXT: v_lshlrev_b32 v46, 16, v0
// CHECK-NEXT: v_mov_b32 v48, 0
// CHECK-NEXT: v_mov_b32 v49, 0
// CHECK-NEXT: v_mov_b32 v50, 0
// CHECK-NEXT: v_mov_b32 v51, 0
// CHECK-NEXT: v_mov_b32 v15, 1000
// CHECK-NEXT: v_accvgpr_write_b32 a4, v15
// CHECK-NEXT: v_accvgpr_write_b32 a5, v15
// CHECK-NEXT: v_mov_b32 v4, v3
// CHECK-NEXT: v_mov_b32 v3, v2
// CHECK-NEXT: v_mov_b32 v50, 1
// CHECK-NEXT: v_mov_b32 v51, 1
// CHECK-NEXT: v_accvgpr_write_b32 a3, v0
// CHECK-NEXT: v_accvgpr_read_b32 v52, a3
// CHECK-NEXT: v_readfirstlane_b32 s10, v0
// CHECK-NEXT: v_readlane_b32 s11, v0, 5
// CHECK-NEXT: v_mov_b32 v53, v0
// CHECK-NEXT: v_writelane_b32 v53, s8, 5
// CHECK-NEXT: s_endpgm
