// waveasm-arith-legalization, 64-bit operations as 32-bit halves (SPEC.md 6):
// add as a carry chain, mul as three partial products, eq/ne as OR of the
// halves' XOR compared with 0, ordered compares on the high halves unless
// they are equal, or/and/select per half, sext/zext as {low, sign or 0},
// trunc as the low half; immediates split into signed 32-bit halves.
// RUN: waveasm-opt --waveasm-arith-legalization %s | FileCheck %s
// RUN: waveasm-opt --waveasm-arith-legalization %s | waveasm-opt | FileCheck %s --check-prefix=GONE
// Every lowered op reaches assembly that llvm-mc accepts.
// RUN: waveasm-opt --waveasm-arith-legalization --waveasm-pipeline --emit-assembly %s -o %t.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj -o /dev/null %t.s
// RUN: FileCheck %s --check-prefix=ASM < %t.s
// GONE-NOT: waveasm.arith.
// GONE: waveasm.s_endpgm

// CHECK-LABEL: waveasm.program @salu64
waveasm.program @salu64 target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %p = waveasm.precolored.sreg 4, 2 : !waveasm.psreg<4, 2>
  %q = waveasm.precolored.sreg 6, 2 : !waveasm.psreg<6, 2>
  %s = waveasm.precolored.sreg 8 : !waveasm.psreg<8>
  // 0x1_0000_0005: halves 5 and 1.
  %k = waveasm.constant 4294967301 : !waveasm.imm<4294967301>
  // CHECK:      %[[P0:.*]] = waveasm.extract %[[P:.*]][0] : !waveasm.psreg<4, 2> -> !waveasm.sreg
  // CHECK-NEXT: %[[Q0:.*]] = waveasm.extract %[[Q:.*]][0] : !waveasm.psreg<6, 2> -> !waveasm.sreg
  // CHECK-NEXT: %[[P1:.*]] = waveasm.extract %[[P]][1]
  // CHECK-NEXT: %[[Q1:.*]] = waveasm.extract %[[Q]][1]
  // CHECK-NEXT: %[[LO:.*]], %[[C:.*]] = waveasm.s_add_u32 %[[P0]], %[[Q0]]
  // CHECK-NEXT: %[[HI:.*]], %{{.*}} = waveasm.s_addc_u32 %[[C]], %[[P1]], %[[Q1]]
  // CHECK-NEXT: waveasm.pack %[[LO]], %[[HI]] : (!waveasm.sreg, !waveasm.sreg) -> !waveasm.sreg<2, 2>
  %add = waveasm.arith.add %p, %q : (!waveasm.psreg<4, 2>, !waveasm.psreg<6, 2>) -> !waveasm.sreg<2, 2>
  // An immediate operand: its halves are constants.
  // CHECK:      waveasm.constant 5 : <5>
  // CHECK:      waveasm.constant 1 : <1>
  // CHECK:      waveasm.s_add_u32 %{{.*}}, %{{.*}} : !waveasm.sreg, !waveasm.imm<5>
  // CHECK-NEXT: waveasm.s_addc_u32 %{{.*}}, %{{.*}}, %{{.*}} : !waveasm.scc, !waveasm.sreg, !waveasm.imm<1>
  %addk = waveasm.arith.add %k, %p : (!waveasm.imm<4294967301>, !waveasm.psreg<4, 2>) -> !waveasm.sreg<2, 2>
  // CHECK:      waveasm.s_mul_i32
  // CHECK-NEXT: waveasm.s_mul_hi_u32
  // CHECK-NEXT: waveasm.s_mul_i32
  // CHECK-NEXT: waveasm.s_mul_i32
  // CHECK-NEXT: waveasm.s_add_u32
  // CHECK-NEXT: waveasm.s_add_u32
  // CHECK-NEXT: waveasm.pack
  %mul = waveasm.arith.mul %p, %q : (!waveasm.psreg<4, 2>, !waveasm.psreg<6, 2>) -> !waveasm.sreg<2, 2>
  // CHECK:      waveasm.s_or_b32
  // CHECK:      waveasm.s_or_b32
  // CHECK-NEXT: waveasm.pack
  %or = waveasm.arith.or %p, %q : (!waveasm.psreg<4, 2>, !waveasm.psreg<6, 2>) -> !waveasm.sreg<2, 2>
  // CHECK:      waveasm.s_and_b32
  // CHECK:      waveasm.s_and_b32
  // CHECK-NEXT: waveasm.pack
  %and = waveasm.arith.and %p, %q : (!waveasm.psreg<4, 2>, !waveasm.psreg<6, 2>) -> !waveasm.sreg<2, 2>
  // eq: (p0 ^ q0) | (p1 ^ q1) == 0.
  // CHECK:      waveasm.s_xor_b32
  // CHECK-NEXT: waveasm.s_xor_b32
  // CHECK-NEXT: %[[D:.*]], %{{.*}} = waveasm.s_or_b32
  // CHECK-NEXT: waveasm.constant 0
  // CHECK-NEXT: waveasm.s_cmp_eq_u32 %[[D]]
  // CHECK-NEXT: waveasm.constant 1
  // CHECK-NEXT: waveasm.s_cselect_b32
  %eq = waveasm.arith.cmp eq, %p, %q : (!waveasm.psreg<4, 2>, !waveasm.psreg<6, 2>) -> !waveasm.sreg
  // CHECK:      waveasm.s_cmp_ne_u32
  %ne = waveasm.arith.cmp ne, %p, %q : (!waveasm.psreg<4, 2>, !waveasm.psreg<6, 2>) -> !waveasm.sreg
  // sle: p1 == q1 ? p0 <=u q0 : p1 <s q1.
  // CHECK:      waveasm.s_cmp_le_u32 %[[SP0:.*]], %[[SQ0:.*]] :
  // CHECK:      %[[LOW:.*]] = waveasm.s_cselect_b32
  // CHECK-NEXT: waveasm.s_cmp_lt_i32 %[[SP1:.*]], %[[SQ1:.*]] :
  // CHECK-NEXT: %[[HIGH:.*]] = waveasm.s_cselect_b32
  // CHECK-NEXT: %[[SAME:.*]] = waveasm.s_cmp_eq_u32 %[[SP1]], %[[SQ1]]
  // CHECK-NEXT: waveasm.s_cselect_b32 %[[SAME]], %[[LOW]], %[[HIGH]] : !waveasm.scc, !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg
  %sle = waveasm.arith.cmp sle, %p, %q : (!waveasm.psreg<4, 2>, !waveasm.psreg<6, 2>) -> !waveasm.sreg
  // CHECK:      waveasm.s_cmp_gt_u32
  // CHECK:      waveasm.s_cmp_gt_u32
  %ugt = waveasm.arith.cmp ugt, %p, %q : (!waveasm.psreg<4, 2>, !waveasm.psreg<6, 2>) -> !waveasm.sreg
  // A 64-bit select: one compare, one s_cselect_b32 per half.
  // CHECK:      %[[F:.*]] = waveasm.s_cmp_ne_u32 %{{.*}}, %{{.*}} : !waveasm.sreg, !waveasm.imm<0>
  // CHECK-NEXT: waveasm.s_cselect_b32 %[[F]]
  // CHECK-NEXT: waveasm.s_cselect_b32 %[[F]]
  // CHECK-NEXT: waveasm.pack
  %sel = waveasm.arith.select %eq, %p, %q : (!waveasm.psreg<6, 2>, !waveasm.psreg<4, 2>, !waveasm.sreg) -> !waveasm.sreg<2, 2>
  // CHECK:      %[[SIGN:.*]], %{{.*}} = waveasm.s_ashr_i32 %[[S:.*]], %{{.*}} : !waveasm.psreg<8>, !waveasm.imm<31>
  // CHECK-NEXT: waveasm.pack %[[S]], %[[SIGN]] : (!waveasm.psreg<8>, !waveasm.sreg) -> !waveasm.sreg<2, 2>
  %sext = waveasm.arith.sext %s : (!waveasm.psreg<8>) -> !waveasm.sreg<2, 2>
  // CHECK-NEXT: waveasm.constant 0
  // CHECK-NEXT: %[[ZHI:.*]] = waveasm.s_mov_b32 %{{.*}} : !waveasm.imm<0> -> !waveasm.sreg
  // CHECK-NEXT: waveasm.pack %[[S]], %[[ZHI]]
  %zext = waveasm.arith.zext %s : (!waveasm.psreg<8>) -> !waveasm.sreg<2, 2>
  // CHECK-NEXT: waveasm.extract %{{.*}}[0] : !waveasm.psreg<4, 2> -> !waveasm.sreg
  %trunc = waveasm.arith.trunc %p : (!waveasm.psreg<4, 2>) -> !waveasm.sreg
  // Immediates fold: sext of -2 is {-2, -1}.
  // CHECK-NEXT: waveasm.constant -2
  // CHECK-NEXT: waveasm.constant -2
  // CHECK-NEXT: waveasm.s_mov_b32
  // CHECK-NEXT: waveasm.constant -1
  // CHECK-NEXT: waveasm.s_mov_b32
  // CHECK-NEXT: waveasm.pack
  %m2 = waveasm.constant -2 : !waveasm.imm<-2>
  %sextk = waveasm.arith.sext %m2 : (!waveasm.imm<-2>) -> !waveasm.sreg<2, 2>
  waveasm.dce_protect %add : !waveasm.sreg<2, 2>
  waveasm.dce_protect %addk : !waveasm.sreg<2, 2>
  waveasm.dce_protect %mul : !waveasm.sreg<2, 2>
  waveasm.dce_protect %or : !waveasm.sreg<2, 2>
  waveasm.dce_protect %and : !waveasm.sreg<2, 2>
  waveasm.dce_protect %ne : !waveasm.sreg
  waveasm.dce_protect %sle : !waveasm.sreg
  waveasm.dce_protect %ugt : !waveasm.sreg
  waveasm.dce_protect %sel : !waveasm.sreg<2, 2>
  waveasm.dce_protect %sext : !waveasm.sreg<2, 2>
  waveasm.dce_protect %zext : !waveasm.sreg<2, 2>
  waveasm.dce_protect %trunc : !waveasm.sreg
  waveasm.dce_protect %sextk : !waveasm.sreg<2, 2>
  waveasm.s_endpgm
}

// CHECK-LABEL: waveasm.program @valu64
waveasm.program @valu64 target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 0, 2 : !waveasm.pvreg<0, 2>
  %w = waveasm.precolored.vreg 2, 2 : !waveasm.pvreg<2, 2>
  %p = waveasm.precolored.sreg 4, 2 : !waveasm.psreg<4, 2>
  %x = waveasm.precolored.vreg 4 : !waveasm.pvreg<4>
  // The carry-in half reads VCC: its SGPR source is copied to a VGPR.
  // CHECK:      %[[P1:.*]] = waveasm.v_mov_b32 %{{.*}} : !waveasm.sreg -> !waveasm.vreg
  // CHECK-NEXT: %[[LO:.*]], %{{.*}} = waveasm.v_add_co_u32 %{{.*}}, %{{.*}} : !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg, !waveasm.sreg
  // CHECK-NEXT: %[[HI:.*]], %{{.*}} = waveasm.v_addc_co_u32 %{{.*}}, %[[P1]] : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg, !waveasm.sreg
  // CHECK-NEXT: waveasm.pack %[[LO]], %[[HI]] : (!waveasm.vreg, !waveasm.vreg) -> !waveasm.vreg<2, 2>
  %add = waveasm.arith.add %v, %p : (!waveasm.pvreg<0, 2>, !waveasm.psreg<4, 2>) -> !waveasm.vreg<2, 2>
  // CHECK:      waveasm.v_mul_lo_u32
  // CHECK-NEXT: waveasm.v_mul_hi_u32
  // CHECK-NEXT: waveasm.v_mul_lo_u32
  // CHECK-NEXT: waveasm.v_mul_lo_u32
  // CHECK-NEXT: waveasm.v_add3_u32
  // CHECK-NEXT: waveasm.pack
  %mul = waveasm.arith.mul %v, %w : (!waveasm.pvreg<0, 2>, !waveasm.pvreg<2, 2>) -> !waveasm.vreg<2, 2>
  // CHECK:      waveasm.v_xor_b32
  // CHECK-NEXT: waveasm.v_xor_b32
  // CHECK-NEXT: waveasm.v_or_b32
  // CHECK-NEXT: waveasm.constant 0
  // CHECK-NEXT: waveasm.v_cmp_ne_u32
  // CHECK-NEXT: waveasm.constant 1
  // CHECK-NEXT: waveasm.v_cndmask_b32
  %ne = waveasm.arith.cmp ne, %v, %w : (!waveasm.pvreg<0, 2>, !waveasm.pvreg<2, 2>) -> !waveasm.vreg
  // slt: v1 == w1 ? v0 <u w0 : v1 <s w1.
  // CHECK:      waveasm.v_cmp_lt_u32
  // CHECK:      %[[LOW:.*]] = waveasm.v_cndmask_b32
  // CHECK-NEXT: waveasm.v_cmp_lt_i32
  // CHECK-NEXT: %[[HIGH:.*]] = waveasm.v_cndmask_b32
  // CHECK-NEXT: waveasm.v_cmp_eq_u32
  // CHECK-NEXT: waveasm.v_cndmask_b32 %[[HIGH]], %[[LOW]]
  %slt = waveasm.arith.cmp slt, %v, %w : (!waveasm.pvreg<0, 2>, !waveasm.pvreg<2, 2>) -> !waveasm.vreg
  // CHECK:      waveasm.v_cmp_ne_u32
  // CHECK-NEXT: waveasm.v_cndmask_b32
  // CHECK-NEXT: waveasm.v_cndmask_b32
  // CHECK-NEXT: waveasm.pack
  %sel = waveasm.arith.select %ne, %v, %w : (!waveasm.pvreg<2, 2>, !waveasm.pvreg<0, 2>, !waveasm.vreg) -> !waveasm.vreg<2, 2>
  // CHECK:      %[[SIGN:.*]] = waveasm.v_ashrrev_i32 %{{.*}}, %[[X:.*]] : !waveasm.imm<31>, !waveasm.pvreg<4> -> !waveasm.vreg
  // CHECK-NEXT: waveasm.pack %[[X]], %[[SIGN]] : (!waveasm.pvreg<4>, !waveasm.vreg) -> !waveasm.vreg<2, 2>
  %sext = waveasm.arith.sext %x : (!waveasm.pvreg<4>) -> !waveasm.vreg<2, 2>
  // CHECK:      waveasm.v_mov_b32 %{{.*}} : !waveasm.imm<0> -> !waveasm.vreg
  // CHECK-NEXT: waveasm.pack
  %zext = waveasm.arith.zext %x : (!waveasm.pvreg<4>) -> !waveasm.vreg<2, 2>
  // CHECK:      waveasm.v_readfirstlane_b32
  // CHECK:      waveasm.v_readfirstlane_b32
  // CHECK-NEXT: waveasm.pack {{.*}} -> !waveasm.sreg<2, 2>
  %rfl = waveasm.arith.readfirstlane %v : (!waveasm.pvreg<0, 2>) -> !waveasm.sreg<2, 2>
  // An immediate zero-extended into VGPRs: moves of the halves.
  // CHECK:      waveasm.v_mov_b32 %{{.*}} : !waveasm.imm<7> -> !waveasm.vreg
  // CHECK:      waveasm.v_mov_b32 %{{.*}} : !waveasm.imm<0> -> !waveasm.vreg
  // CHECK-NEXT: waveasm.pack
  %c7 = waveasm.constant 7 : !waveasm.imm<7>
  %zk = waveasm.arith.zext %c7 : (!waveasm.imm<7>) -> !waveasm.vreg<2, 2>
  waveasm.dce_protect %add : !waveasm.vreg<2, 2>
  waveasm.dce_protect %mul : !waveasm.vreg<2, 2>
  waveasm.dce_protect %slt : !waveasm.vreg
  waveasm.dce_protect %sel : !waveasm.vreg<2, 2>
  waveasm.dce_protect %sext : !waveasm.vreg<2, 2>
  waveasm.dce_protect %zext : !waveasm.vreg<2, 2>
  waveasm.dce_protect %rfl : !waveasm.sreg<2, 2>
  waveasm.dce_protect %zk : !waveasm.vreg<2, 2>
  waveasm.s_endpgm
}

// ASM-LABEL: salu64:
// ASM: s_add_u32
// ASM-NEXT: s_addc_u32
// ASM: s_mul_hi_u32
// ASM: s_ashr_i32 s{{[0-9]+}}, s8, 31
// ASM-LABEL: valu64:
// ASM: v_add_co_u32 v{{[0-9]+}}, vcc, v0, s4
// The carry read waits out the VALU-writes-VCC hazard.
// ASM-NEXT: s_nop 1
// ASM-NEXT: v_addc_co_u32 v{{[0-9]+}}, vcc, v1, v{{[0-9]+}}, vcc
// ASM: v_mul_hi_u32
// ASM: v_add3_u32
// ASM: v_ashrrev_i32
// ASM: v_readfirstlane_b32
