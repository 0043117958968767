// VALU binary ops round-trip (commutative, non-commutative, reversed shifts, 64-bit, mbcnt).
// RUN: waveasm-opt %s | FileCheck %s
// RUN: waveasm-opt %s | waveasm-opt | FileCheck %s

// CHECK-LABEL: waveasm.program @valu_binary target = <#waveasm.gfx942> abi = <> {
waveasm.program @valu_binary target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // CHECK:      %[[V:.*]] = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  // CHECK-NEXT: %[[V2:.*]] = waveasm.precolored.vreg 2, 2 : !waveasm.vreg<2, 2>
  // CHECK-NEXT: %[[S:.*]] = waveasm.precolored.sreg 2 : !waveasm.sreg{{$}}
  // CHECK-NEXT: %[[P:.*]] = waveasm.precolored.sreg 3 : !waveasm.psreg<3>
  // CHECK-NEXT: %[[C:.*]] = waveasm.constant 4 : <4>
  %v = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %v2 = waveasm.precolored.vreg 2, 2 : !waveasm.vreg<2, 2>
  %s = waveasm.precolored.sreg 2 : !waveasm.sreg
  %p = waveasm.precolored.sreg 3 : !waveasm.psreg<3>
  %c = waveasm.constant 4 : !waveasm.imm<4>

  // CHECK-NEXT: %[[ADD:.*]] = waveasm.v_add_u32 %[[V]], %[[S]] : !waveasm.pvreg<0>, !waveasm.sreg -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_sub_u32 %[[C]], %[[ADD]] : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_subrev_u32 %[[P]], %[[ADD]] : !waveasm.psreg<3>, !waveasm.vreg -> !waveasm.pvreg<9>
  // CHECK-NEXT: %{{.*}} = waveasm.v_mul_lo_u32 %[[ADD]], %[[C]] : !waveasm.vreg, !waveasm.imm<4> -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_mul_hi_i32 %[[ADD]], %[[ADD]] : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_and_b32 %[[ADD]], %[[C]] : !waveasm.vreg, !waveasm.imm<4> -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_or_b64 %[[V2]], %[[V2]] : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2> -> !waveasm.vreg<2, 2>
  // CHECK-NEXT: %{{.*}} = waveasm.v_xor_b32 %[[S]], %[[ADD]] : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_add_f32 %[[ADD]], %[[ADD]] : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_mul_f64 %[[V2]], %[[V2]] : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2> -> !waveasm.vreg<2, 2>
  // CHECK-NEXT: %{{.*}} = waveasm.v_max_i32 %[[ADD]], %[[C]] : !waveasm.vreg, !waveasm.imm<4> -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_lshlrev_b32 %[[C]], %[[V]] : !waveasm.imm<4>, !waveasm.pvreg<0> -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_lshrrev_b64 %[[C]], %[[V2]] : !waveasm.imm<4>, !waveasm.vreg<2, 2> -> !waveasm.vreg<2, 2>
  // CHECK-NEXT: %{{.*}} = waveasm.v_ashrrev_i32 %[[S]], %[[ADD]] : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_cvt_pk_bf16_f32 %[[ADD]], %[[ADD]] : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_ldexp_f32 %[[ADD]], %[[C]] : !waveasm.vreg, !waveasm.imm<4> -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %[[MB:.*]] = waveasm.v_mbcnt_lo_u32_b32 %[[C]], %[[C]] : !waveasm.imm<4>, !waveasm.imm<4> -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_mbcnt_hi_u32_b32 %[[C]], %[[MB]] : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg{{$}}
  %add = waveasm.v_add_u32 %v, %s : !waveasm.pvreg<0>, !waveasm.sreg -> !waveasm.vreg
  %sub = waveasm.v_sub_u32 %c, %add : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
  %subrev = waveasm.v_subrev_u32 %p, %add : !waveasm.psreg<3>, !waveasm.vreg -> !waveasm.pvreg<9>
  %mul = waveasm.v_mul_lo_u32 %add, %c : !waveasm.vreg, !waveasm.imm<4> -> !waveasm.vreg
  %mulhi = waveasm.v_mul_hi_i32 %add, %add : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %and = waveasm.v_and_b32 %add, %c : !waveasm.vreg, !waveasm.imm<4> -> !waveasm.vreg
  %or = waveasm.v_or_b64 %v2, %v2 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2> -> !waveasm.vreg<2, 2>
  %xor = waveasm.v_xor_b32 %s, %add : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
  %fadd = waveasm.v_add_f32 %add, %add : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %dmul = waveasm.v_mul_f64 %v2, %v2 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2> -> !waveasm.vreg<2, 2>
  %max = waveasm.v_max_i32 %add, %c : !waveasm.vreg, !waveasm.imm<4> -> !waveasm.vreg
  %shl = waveasm.v_lshlrev_b32 %c, %v : !waveasm.imm<4>, !waveasm.pvreg<0> -> !waveasm.vreg
  %shr = waveasm.v_lshrrev_b64 %c, %v2 : !waveasm.imm<4>, !waveasm.vreg<2, 2> -> !waveasm.vreg<2, 2>
  %ashr = waveasm.v_ashrrev_i32 %s, %add : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
  %pk = waveasm.v_cvt_pk_bf16_f32 %add, %add : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %ldexp = waveasm.v_ldexp_f32 %add, %c : !waveasm.vreg, !waveasm.imm<4> -> !waveasm.vreg
  %mblo = waveasm.v_mbcnt_lo_u32_b32 %c, %c : !waveasm.imm<4>, !waveasm.imm<4> -> !waveasm.vreg
  %mbhi = waveasm.v_mbcnt_hi_u32_b32 %c, %mblo : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
}
