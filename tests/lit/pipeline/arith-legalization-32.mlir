// waveasm-arith-legalization, 32-bit: the unit follows the operands (SALU for
// SGPRs and immediates, VALU as soon as one operand is a VGPR or an AGPR),
// SALU ops get their SGPR in src0, VALU ops read at most one SGPR, compare
// results are 0/1 registers (s_cselect_b32 / v_cndmask_b32 right after the
// compare), selects re-test their condition register.
// RUN: waveasm-opt --waveasm-arith-legalization %s | FileCheck %s
// The output verifies and has no arith op left.
// RUN: waveasm-opt --waveasm-arith-legalization %s | waveasm-opt | FileCheck %s --check-prefix=GONE
// RUN: waveasm-opt --waveasm-arith-legalization --debug-only=waveasm-arith-legalization --mlir-disable-threading %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOG
// LOG: waveasm-arith-legalization: @salu: legalized 19 waveasm.arith ops
// LOG: waveasm-arith-legalization: @valu: legalized 12 waveasm.arith ops
// LOG: waveasm-arith-legalization: @none: no waveasm.arith ops
// Every lowered op reaches assembly that llvm-mc accepts.
// RUN: waveasm-opt --waveasm-arith-legalization --waveasm-pipeline --emit-assembly %s -o %t.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj -o /dev/null %t.s
// RUN: FileCheck %s --check-prefix=ASM < %t.s
// GONE-NOT: waveasm.arith.
// GONE: waveasm.program @salu
// GONE-NOT: waveasm.arith.

// CHECK-LABEL: waveasm.program @salu
waveasm.program @salu target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %t = waveasm.precolored.sreg 3 : !waveasm.psreg<3>
  %c = waveasm.constant 4 : !waveasm.imm<4>
  %big = waveasm.constant 100000 : !waveasm.imm<100000>
  // CHECK: waveasm.s_add_u32 %[[S:.*]], %[[T:.*]] : !waveasm.psreg<2>, !waveasm.psreg<3> -> !waveasm.sreg, !waveasm.scc
  %add = waveasm.arith.add %s, %t : (!waveasm.psreg<2>, !waveasm.psreg<3>) -> !waveasm.sreg
  // An immediate in src0 of a commutative op moves to src1.
  // CHECK-NEXT: waveasm.s_mul_i32 %[[S]], %{{.*}} : !waveasm.psreg<2>, !waveasm.imm<4> -> !waveasm.sreg
  %mul = waveasm.arith.mul %c, %s : (!waveasm.imm<4>, !waveasm.psreg<2>) -> !waveasm.sreg
  // CHECK-NEXT: waveasm.s_or_b32 %[[S]], %[[T]] : {{.*}} -> !waveasm.sreg, !waveasm.scc
  %or = waveasm.arith.or %s, %t : (!waveasm.psreg<2>, !waveasm.psreg<3>) -> !waveasm.sreg
  // CHECK-NEXT: waveasm.s_and_b32 %[[S]], %{{.*}} : !waveasm.psreg<2>, !waveasm.imm<100000> -> !waveasm.sreg, !waveasm.scc
  %and = waveasm.arith.and %s, %big : (!waveasm.psreg<2>, !waveasm.imm<100000>) -> !waveasm.sreg
  // Two immediates: the first is loaded into an SGPR.
  // CHECK-NEXT: %[[L:.*]] = waveasm.s_mov_b32 %{{.*}} : !waveasm.imm<4> -> !waveasm.sreg
  // CHECK-NEXT: waveasm.s_add_u32 %[[L]], %{{.*}} : !waveasm.sreg, !waveasm.imm<100000>
  %cc = waveasm.arith.add %c, %big : (!waveasm.imm<4>, !waveasm.imm<100000>) -> !waveasm.sreg
  // A compare sets SCC and materializes it at once.
  // CHECK-NEXT: %[[SCC:.*]] = waveasm.s_cmp_lt_i32 %[[S]], %[[T]] : !waveasm.psreg<2>, !waveasm.psreg<3> -> !waveasm.scc
  // CHECK-NEXT: %[[ONE:.*]] = waveasm.constant 1 : <1>
  // CHECK-NEXT: %[[ZERO:.*]] = waveasm.constant 0 : <0>
  // CHECK-NEXT: %[[LT:.*]] = waveasm.s_cselect_b32 %[[SCC]], %[[ONE]], %[[ZERO]] : !waveasm.scc, !waveasm.imm<1>, !waveasm.imm<0> -> !waveasm.sreg
  %lt = waveasm.arith.cmp slt, %s, %t : (!waveasm.psreg<2>, !waveasm.psreg<3>) -> !waveasm.sreg
  // An immediate on the left: operands swapped, predicate mirrored.
  // CHECK: waveasm.s_cmp_lt_u32 %[[S]], %{{.*}} : !waveasm.psreg<2>, !waveasm.imm<4>
  %ugt = waveasm.arith.cmp ugt, %c, %s : (!waveasm.imm<4>, !waveasm.psreg<2>) -> !waveasm.sreg
  // Every predicate.
  // CHECK: waveasm.s_cmp_eq_u32
  // CHECK: waveasm.s_cmp_ne_u32
  // CHECK: waveasm.s_cmp_le_i32
  // CHECK: waveasm.s_cmp_gt_i32
  // CHECK: waveasm.s_cmp_ge_i32
  // CHECK: waveasm.s_cmp_lt_u32
  // CHECK: waveasm.s_cmp_le_u32
  // CHECK: waveasm.s_cmp_gt_u32
  // CHECK: waveasm.s_cmp_ge_u32
  %eq = waveasm.arith.cmp eq, %s, %t : (!waveasm.psreg<2>, !waveasm.psreg<3>) -> !waveasm.sreg
  %ne = waveasm.arith.cmp ne, %s, %t : (!waveasm.psreg<2>, !waveasm.psreg<3>) -> !waveasm.sreg
  %sle = waveasm.arith.cmp sle, %s, %t : (!waveasm.psreg<2>, !waveasm.psreg<3>) -> !waveasm.sreg
  %sgt = waveasm.arith.cmp sgt, %s, %t : (!waveasm.psreg<2>, !waveasm.psreg<3>) -> !waveasm.sreg
  %sge = waveasm.arith.cmp sge, %s, %t : (!waveasm.psreg<2>, !waveasm.psreg<3>) -> !waveasm.sreg
  %ult = waveasm.arith.cmp ult, %s, %t : (!waveasm.psreg<2>, !waveasm.psreg<3>) -> !waveasm.sreg
  %ule = waveasm.arith.cmp ule, %s, %t : (!waveasm.psreg<2>, !waveasm.psreg<3>) -> !waveasm.sreg
  %ugt2 = waveasm.arith.cmp ugt, %s, %t : (!waveasm.psreg<2>, !waveasm.psreg<3>) -> !waveasm.sreg
  %uge = waveasm.arith.cmp uge, %s, %t : (!waveasm.psreg<2>, !waveasm.psreg<3>) -> !waveasm.sreg
  // A select re-derives SCC from its condition register; the functional
  // type lists (false, true, condition).
  // CHECK: %[[FLAG:.*]] = waveasm.s_cmp_ne_u32 %[[LT]], %{{.*}} : !waveasm.sreg, !waveasm.imm<0> -> !waveasm.scc
  // CHECK-NEXT: waveasm.s_cselect_b32 %[[FLAG]], %[[S]], %{{.*}} : !waveasm.scc, !waveasm.psreg<2>, !waveasm.imm<4> -> !waveasm.sreg
  %sel = waveasm.arith.select %lt, %s, %c : (!waveasm.imm<4>, !waveasm.psreg<2>, !waveasm.sreg) -> !waveasm.sreg
  // readfirstlane of an SGPR is a move; trunc/sext/zext at 32 bits keep
  // the value (an extract of itself, no instruction).
  // CHECK-NEXT: waveasm.s_mov_b32 %[[S]] : !waveasm.psreg<2> -> !waveasm.sreg
  %rfl = waveasm.arith.readfirstlane %s : (!waveasm.psreg<2>) -> !waveasm.sreg
  // CHECK-NEXT: waveasm.extract %[[S]][0] : !waveasm.psreg<2> -> !waveasm.sreg
  %tr = waveasm.arith.trunc %s : (!waveasm.psreg<2>) -> !waveasm.sreg
  waveasm.dce_protect %add : !waveasm.sreg
  waveasm.dce_protect %mul : !waveasm.sreg
  waveasm.dce_protect %or : !waveasm.sreg
  waveasm.dce_protect %and : !waveasm.sreg
  waveasm.dce_protect %cc : !waveasm.sreg
  waveasm.dce_protect %ugt : !waveasm.sreg
  waveasm.dce_protect %eq : !waveasm.sreg
  waveasm.dce_protect %ne : !waveasm.sreg
  waveasm.dce_protect %sle : !waveasm.sreg
  waveasm.dce_protect %sgt : !waveasm.sreg
  waveasm.dce_protect %sge : !waveasm.sreg
  waveasm.dce_protect %ult : !waveasm.sreg
  waveasm.dce_protect %ule : !waveasm.sreg
  waveasm.dce_protect %ugt2 : !waveasm.sreg
  waveasm.dce_protect %uge : !waveasm.sreg
  waveasm.dce_protect %sel : !waveasm.sreg
  waveasm.dce_protect %rfl : !waveasm.sreg
  waveasm.dce_protect %tr : !waveasm.sreg
  waveasm.s_endpgm
}

// CHECK-LABEL: waveasm.program @valu
waveasm.program @valu target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %w = waveasm.precolored.vreg 1 : !waveasm.pvreg<1>
  %s = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %t = waveasm.precolored.sreg 3 : !waveasm.psreg<3>
  %a = waveasm.precolored.areg 0 : !waveasm.pareg<0>
  %c = waveasm.constant 4 : !waveasm.imm<4>
  // CHECK: waveasm.v_add_u32 %[[V:.*]], %[[S:.*]] : !waveasm.pvreg<0>, !waveasm.psreg<2> -> !waveasm.vreg
  %add = waveasm.arith.add %v, %s : (!waveasm.pvreg<0>, !waveasm.psreg<2>) -> !waveasm.vreg
  // CHECK-NEXT: waveasm.v_mul_lo_u32 %{{.*}}, %[[V]] : !waveasm.imm<4>, !waveasm.pvreg<0> -> !waveasm.vreg
  %mul = waveasm.arith.mul %c, %v : (!waveasm.imm<4>, !waveasm.pvreg<0>) -> !waveasm.vreg
  // An AGPR operand is read into a VGPR first.
  // CHECK-NEXT: %[[R:.*]] = waveasm.v_accvgpr_read_b32 %{{.*}} : !waveasm.pareg<0> -> !waveasm.vreg
  // CHECK-NEXT: waveasm.v_or_b32 %[[V]], %[[R]] : !waveasm.pvreg<0>, !waveasm.vreg -> !waveasm.vreg
  %or = waveasm.arith.or %v, %a : (!waveasm.pvreg<0>, !waveasm.pareg<0>) -> !waveasm.vreg
  // CHECK-NEXT: waveasm.v_and_b32 %[[V]], %{{.*}} -> !waveasm.vreg
  %and = waveasm.arith.and %v, %w : (!waveasm.pvreg<0>, !waveasm.pvreg<1>) -> !waveasm.vreg
  // A VALU compare writes VCC; v_cndmask_b32 makes it a 0/1 VGPR.
  // CHECK-NEXT: waveasm.v_cmp_lt_i32 %[[V]], %[[S]] : !waveasm.pvreg<0>, !waveasm.psreg<2>
  // CHECK-NEXT: %[[ONE:.*]] = waveasm.constant 1 : <1>
  // CHECK-NEXT: %[[ZERO:.*]] = waveasm.constant 0 : <0>
  // CHECK-NEXT: %[[LT:.*]] = waveasm.v_cndmask_b32 %[[ZERO]], %[[ONE]], %[[V]] : !waveasm.imm<0>, !waveasm.imm<1>, !waveasm.pvreg<0> -> !waveasm.vreg
  %lt = waveasm.arith.cmp slt, %v, %s : (!waveasm.pvreg<0>, !waveasm.psreg<2>) -> !waveasm.vreg
  // CHECK: waveasm.v_cmp_ge_u32
  %uge = waveasm.arith.cmp uge, %v, %w : (!waveasm.pvreg<0>, !waveasm.pvreg<1>) -> !waveasm.vreg
  // Two SGPRs and a VGPR result: SALU code, then a move into the VGPR.
  // CHECK: %[[SA:.*]], %{{.*}} = waveasm.s_add_u32 %{{.*}}, %{{.*}} : !waveasm.psreg<2>, !waveasm.psreg<3> -> !waveasm.sreg, !waveasm.scc
  // CHECK-NEXT: waveasm.v_mov_b32 %[[SA]] : !waveasm.sreg -> !waveasm.vreg
  %sv = waveasm.arith.add %s, %t : (!waveasm.psreg<2>, !waveasm.psreg<3>) -> !waveasm.vreg
  // A VALU select: both SGPRs are copied to VGPRs (v_cndmask_b32 reads VCC
  // on the constant bus), before the compare.
  // CHECK-NEXT: %[[CT:.*]] = waveasm.v_mov_b32 %{{.*}} : !waveasm.psreg<3> -> !waveasm.vreg
  // CHECK-NEXT: %[[CS:.*]] = waveasm.v_mov_b32 %{{.*}} : !waveasm.psreg<2> -> !waveasm.vreg
  // CHECK-NEXT: %[[Z:.*]] = waveasm.constant 0 : <0>
  // CHECK-NEXT: waveasm.v_cmp_ne_u32 %[[LT]], %[[Z]] : !waveasm.vreg, !waveasm.imm<0>
  // CHECK-NEXT: waveasm.v_cndmask_b32 %[[CT]], %[[CS]], %[[LT]] : !waveasm.vreg, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %sel = waveasm.arith.select %lt, %s, %t : (!waveasm.psreg<3>, !waveasm.psreg<2>, !waveasm.vreg) -> !waveasm.vreg
  // A compare of SGPRs into a (physical) VGPR: SALU compare, then a move.
  // CHECK-NEXT: waveasm.s_cmp_eq_u32
  // CHECK-NEXT: waveasm.constant 1
  // CHECK-NEXT: waveasm.constant 0
  // CHECK-NEXT: %[[EQ:.*]] = waveasm.s_cselect_b32
  // CHECK-NEXT: waveasm.v_mov_b32 %[[EQ]] : !waveasm.sreg -> !waveasm.pvreg<7>
  %eqs = waveasm.arith.cmp eq, %s, %t : (!waveasm.psreg<2>, !waveasm.psreg<3>) -> !waveasm.pvreg<7>
  // CHECK: waveasm.v_readfirstlane_b32 %[[V]] : !waveasm.pvreg<0> -> !waveasm.sreg
  %rfl = waveasm.arith.readfirstlane %v : (!waveasm.pvreg<0>) -> !waveasm.sreg
  // An SGPR truncated into a VGPR is a move; a VGPR into an AGPR too.
  // CHECK-NEXT: waveasm.v_mov_b32 %{{.*}} : !waveasm.psreg<2> -> !waveasm.vreg
  %tr = waveasm.arith.trunc %s : (!waveasm.psreg<2>) -> !waveasm.vreg
  // CHECK-NEXT: waveasm.v_mov_b32 %[[V]] : !waveasm.pvreg<0> -> !waveasm.areg
  %ta = waveasm.arith.trunc %v : (!waveasm.pvreg<0>) -> !waveasm.areg
  waveasm.dce_protect %add : !waveasm.vreg
  waveasm.dce_protect %mul : !waveasm.vreg
  waveasm.dce_protect %or : !waveasm.vreg
  waveasm.dce_protect %and : !waveasm.vreg
  waveasm.dce_protect %uge : !waveasm.vreg
  waveasm.dce_protect %sv : !waveasm.vreg
  waveasm.dce_protect %sel : !waveasm.vreg
  waveasm.dce_protect %eqs : !waveasm.pvreg<7>
  waveasm.dce_protect %rfl : !waveasm.sreg
  waveasm.dce_protect %tr : !waveasm.vreg
  waveasm.dce_protect %ta : !waveasm.areg
  waveasm.s_endpgm
}

// ASM-LABEL: salu:
// ASM: s_add_u32
// ASM: s_mul_i32
// ASM: s_cmp_lt_i32
// ASM: s_cselect_b32 s{{[0-9]+}}, 1, 0
// ASM: s_cmp_lg_u32
// ASM-LABEL: valu:
// ASM: v_add_u32
// ASM: v_accvgpr_read_b32
// ASM: v_cmp_lt_i32
// ASM: v_cndmask_b32
// ASM: v_readfirstlane_b32
// ASM: v_accvgpr_write_b32

// Nothing to lower: unchanged.
// CHECK-LABEL: waveasm.program @none
// CHECK-NEXT: waveasm.s_endpgm
waveasm.program @none target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  waveasm.s_endpgm
}
