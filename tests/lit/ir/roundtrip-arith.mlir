// Generic arithmetic pseudo ops (waveasm.arith.*) round-trip, incl. every cmp predicate and select's operand-type order.
// RUN: waveasm-opt %s | FileCheck %s
// RUN: waveasm-opt %s | waveasm-opt | FileCheck %s

// CHECK-LABEL: waveasm.program @arith target = <#waveasm.gfx942> abi = <> {
waveasm.program @arith target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // CHECK:      %[[V:.*]] = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  // CHECK-NEXT: %[[S:.*]] = waveasm.precolored.sreg 2 : !waveasm.sreg{{$}}
  // CHECK-NEXT: %[[C:.*]] = waveasm.constant 4 : <4>
  // CHECK-NEXT: %[[A:.*]] = waveasm.precolored.areg 0 : !waveasm.areg{{$}}
  %v = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %s = waveasm.precolored.sreg 2 : !waveasm.sreg
  %c = waveasm.constant 4 : !waveasm.imm<4>
  %a = waveasm.precolored.areg 0 : !waveasm.areg

  // Binary ops: `operands : (T0, T1) -> R`.
  // CHECK-NEXT: %[[ADD:.*]] = waveasm.arith.add %[[V]], %[[S]] : (!waveasm.pvreg<0>, !waveasm.sreg) -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.arith.mul %[[S]], %[[C]] : (!waveasm.sreg, !waveasm.imm<4>) -> !waveasm.sreg<2, 2>
  // CHECK-NEXT: %{{.*}} = waveasm.arith.or %[[S]], %[[S]] : (!waveasm.sreg, !waveasm.sreg) -> !waveasm.sreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.arith.and %[[ADD]], %[[A]] : (!waveasm.vreg, !waveasm.areg) -> !waveasm.vreg{{$}}
  %add = waveasm.arith.add %v, %s : (!waveasm.pvreg<0>, !waveasm.sreg) -> !waveasm.vreg
  %mul = waveasm.arith.mul %s, %c : (!waveasm.sreg, !waveasm.imm<4>) -> !waveasm.sreg<2, 2>
  %or = waveasm.arith.or %s, %s : (!waveasm.sreg, !waveasm.sreg) -> !waveasm.sreg
  %and = waveasm.arith.and %add, %a : (!waveasm.vreg, !waveasm.areg) -> !waveasm.vreg

  // Every predicate keyword of arith.cmp.
  // CHECK-NEXT: %[[EQ:.*]] = waveasm.arith.cmp eq, %[[S]], %[[C]] : (!waveasm.sreg, !waveasm.imm<4>) -> !waveasm.sreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.arith.cmp ne, %[[S]], %[[C]] : (!waveasm.sreg, !waveasm.imm<4>) -> !waveasm.sreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.arith.cmp slt, %[[S]], %[[C]] : (!waveasm.sreg, !waveasm.imm<4>) -> !waveasm.sreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.arith.cmp sle, %[[S]], %[[C]] : (!waveasm.sreg, !waveasm.imm<4>) -> !waveasm.sreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.arith.cmp sgt, %[[S]], %[[C]] : (!waveasm.sreg, !waveasm.imm<4>) -> !waveasm.sreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.arith.cmp sge, %[[S]], %[[C]] : (!waveasm.sreg, !waveasm.imm<4>) -> !waveasm.sreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.arith.cmp ult, %[[S]], %[[C]] : (!waveasm.sreg, !waveasm.imm<4>) -> !waveasm.sreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.arith.cmp ule, %[[S]], %[[C]] : (!waveasm.sreg, !waveasm.imm<4>) -> !waveasm.sreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.arith.cmp ugt, %[[S]], %[[C]] : (!waveasm.sreg, !waveasm.imm<4>) -> !waveasm.sreg{{$}}
  // CHECK-NEXT: %[[UGE:.*]] = waveasm.arith.cmp uge, %[[V]], %[[S]] : (!waveasm.pvreg<0>, !waveasm.sreg) -> !waveasm.vreg{{$}}
  %eq = waveasm.arith.cmp eq, %s, %c : (!waveasm.sreg, !waveasm.imm<4>) -> !waveasm.sreg
  %ne = waveasm.arith.cmp ne, %s, %c : (!waveasm.sreg, !waveasm.imm<4>) -> !waveasm.sreg
  %slt = waveasm.arith.cmp slt, %s, %c : (!waveasm.sreg, !waveasm.imm<4>) -> !waveasm.sreg
  %sle = waveasm.arith.cmp sle, %s, %c : (!waveasm.sreg, !waveasm.imm<4>) -> !waveasm.sreg
  %sgt = waveasm.arith.cmp sgt, %s, %c : (!waveasm.sreg, !waveasm.imm<4>) -> !waveasm.sreg
  %sge = waveasm.arith.cmp sge, %s, %c : (!waveasm.sreg, !waveasm.imm<4>) -> !waveasm.sreg
  %ult = waveasm.arith.cmp ult, %s, %c : (!waveasm.sreg, !waveasm.imm<4>) -> !waveasm.sreg
  %ule = waveasm.arith.cmp ule, %s, %c : (!waveasm.sreg, !waveasm.imm<4>) -> !waveasm.sreg
  %ugt = waveasm.arith.cmp ugt, %s, %c : (!waveasm.sreg, !waveasm.imm<4>) -> !waveasm.sreg
  %uge = waveasm.arith.cmp uge, %v, %s : (!waveasm.pvreg<0>, !waveasm.sreg) -> !waveasm.vreg

  // select is written `%cond, %true, %false` but its functional type lists
  // the operand types in declaration order: (false, true, cond).
  // CHECK-NEXT: %{{.*}} = waveasm.arith.select %[[EQ]], %[[V]], %[[C]] : (!waveasm.imm<4>, !waveasm.pvreg<0>, !waveasm.sreg) -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.arith.select %[[UGE]], %[[S]], %[[ADD]] : (!waveasm.vreg, !waveasm.sreg, !waveasm.vreg) -> !waveasm.vreg{{$}}
  %sel = waveasm.arith.select %eq, %v, %c : (!waveasm.imm<4>, !waveasm.pvreg<0>, !waveasm.sreg) -> !waveasm.vreg
  %sel2 = waveasm.arith.select %uge, %s, %add : (!waveasm.vreg, !waveasm.sreg, !waveasm.vreg) -> !waveasm.vreg

  // Unary conversions.
  // CHECK-NEXT: %{{.*}} = waveasm.arith.readfirstlane %[[ADD]] : (!waveasm.vreg) -> !waveasm.sreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.arith.trunc %[[S]] : (!waveasm.sreg) -> !waveasm.sreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.arith.sext %[[S]] : (!waveasm.sreg) -> !waveasm.sreg<2, 2>
  // CHECK-NEXT: %{{.*}} = waveasm.arith.zext %[[C]] : (!waveasm.imm<4>) -> !waveasm.vreg<2, 2>
  %rfl = waveasm.arith.readfirstlane %add : (!waveasm.vreg) -> !waveasm.sreg
  %tr = waveasm.arith.trunc %s : (!waveasm.sreg) -> !waveasm.sreg
  %se = waveasm.arith.sext %s : (!waveasm.sreg) -> !waveasm.sreg<2, 2>
  %ze = waveasm.arith.zext %c : (!waveasm.imm<4>) -> !waveasm.vreg<2, 2>
}
