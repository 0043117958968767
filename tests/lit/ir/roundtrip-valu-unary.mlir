// VALU unary ops round-trip, incl. v_mov_b32 with an SGPR source, to an AGPR and to a multi-register result.
// RUN: waveasm-opt %s | FileCheck %s
// RUN: waveasm-opt %s | waveasm-opt | FileCheck %s

// CHECK-LABEL: waveasm.program @valu_unary target = <#waveasm.gfx942> abi = <> {
waveasm.program @valu_unary target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // CHECK:      %[[V:.*]] = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  // CHECK-NEXT: %[[V2:.*]] = waveasm.precolored.vreg 2, 2 : !waveasm.vreg<2, 2>
  // CHECK-NEXT: %[[S:.*]] = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  // CHECK-NEXT: %[[C:.*]] = waveasm.constant 4 : <4>
  %v = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %v2 = waveasm.precolored.vreg 2, 2 : !waveasm.vreg<2, 2>
  %s = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %c = waveasm.constant 4 : !waveasm.imm<4>

  // v_mov_b32: any VALU source (incl. SGPR), any vector-register result.
  // CHECK-NEXT: %[[M0:.*]] = waveasm.v_mov_b32 %[[C]] : !waveasm.imm<4> -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_mov_b32 %[[S]] : !waveasm.psreg<2> -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_mov_b32 %[[C]] : !waveasm.imm<4> -> !waveasm.areg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_mov_b32 %[[V]] : !waveasm.pvreg<0> -> !waveasm.pareg<4>
  // CHECK-NEXT: %{{.*}} = waveasm.v_mov_b32 %[[C]] {no_cse} : !waveasm.imm<4> -> !waveasm.vreg<4, 4>
  // CHECK-NEXT: %{{.*}} = waveasm.v_mov_b32 %[[C]] : !waveasm.imm<4> -> !waveasm.areg<16, 4>
  %m0 = waveasm.v_mov_b32 %c : !waveasm.imm<4> -> !waveasm.vreg
  %m1 = waveasm.v_mov_b32 %s : !waveasm.psreg<2> -> !waveasm.vreg
  %m2 = waveasm.v_mov_b32 %c : !waveasm.imm<4> -> !waveasm.areg
  %m3 = waveasm.v_mov_b32 %v : !waveasm.pvreg<0> -> !waveasm.pareg<4>
  %m4 = waveasm.v_mov_b32 %c {no_cse} : !waveasm.imm<4> -> !waveasm.vreg<4, 4>
  %m5 = waveasm.v_mov_b32 %c : !waveasm.imm<4> -> !waveasm.areg<16, 4>

  // The unary family: source VGPR or immediate, result any VGPR.
  // CHECK-NEXT: %{{.*}} = waveasm.v_cvt_f32_u32 %[[V]] : !waveasm.pvreg<0> -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_cvt_f32_i32 %[[C]] : !waveasm.imm<4> -> !waveasm.pvreg<7>
  // CHECK-NEXT: %{{.*}} = waveasm.v_cvt_f64_f32 %[[M0]] : !waveasm.vreg -> !waveasm.vreg<2, 2>
  // CHECK-NEXT: %{{.*}} = waveasm.v_cvt_f32_f64 %[[V2]] : !waveasm.vreg<2, 2> -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_mov_b64 %[[V2]] : !waveasm.vreg<2, 2> -> !waveasm.vreg<2, 2>
  // CHECK-NEXT: %{{.*}} = waveasm.v_not_b32 %[[M0]] : !waveasm.vreg -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_bfrev_b32 %[[M0]] : !waveasm.vreg -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_ffbh_u32 %[[M0]] : !waveasm.vreg -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_frexp_exp_i32_f32 %[[M0]] : !waveasm.vreg -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_floor_f32 %[[M0]] : !waveasm.vreg -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_abs_i32 %[[M0]] : !waveasm.vreg -> !waveasm.vreg{{$}}
  %u0 = waveasm.v_cvt_f32_u32 %v : !waveasm.pvreg<0> -> !waveasm.vreg
  %u1 = waveasm.v_cvt_f32_i32 %c : !waveasm.imm<4> -> !waveasm.pvreg<7>
  %u2 = waveasm.v_cvt_f64_f32 %m0 : !waveasm.vreg -> !waveasm.vreg<2, 2>
  %u3 = waveasm.v_cvt_f32_f64 %v2 : !waveasm.vreg<2, 2> -> !waveasm.vreg
  %u4 = waveasm.v_mov_b64 %v2 : !waveasm.vreg<2, 2> -> !waveasm.vreg<2, 2>
  %u5 = waveasm.v_not_b32 %m0 : !waveasm.vreg -> !waveasm.vreg
  %u6 = waveasm.v_bfrev_b32 %m0 : !waveasm.vreg -> !waveasm.vreg
  %u7 = waveasm.v_ffbh_u32 %m0 : !waveasm.vreg -> !waveasm.vreg
  %u8 = waveasm.v_frexp_exp_i32_f32 %m0 : !waveasm.vreg -> !waveasm.vreg
  %u9 = waveasm.v_floor_f32 %m0 : !waveasm.vreg -> !waveasm.vreg
  %u10 = waveasm.v_abs_i32 %m0 : !waveasm.vreg -> !waveasm.vreg

  // Transcendental subset.
  // CHECK-NEXT: %{{.*}} = waveasm.v_rcp_f32 %[[M0]] : !waveasm.vreg -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_rsq_f64 %[[V2]] : !waveasm.vreg<2, 2> -> !waveasm.vreg<2, 2>
  // CHECK-NEXT: %{{.*}} = waveasm.v_sqrt_f32 %[[C]] : !waveasm.imm<4> -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_exp_f32 %[[M0]] : !waveasm.vreg -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_cos_f32 %[[M0]] : !waveasm.vreg -> !waveasm.vreg{{$}}
  %t0 = waveasm.v_rcp_f32 %m0 : !waveasm.vreg -> !waveasm.vreg
  %t1 = waveasm.v_rsq_f64 %v2 : !waveasm.vreg<2, 2> -> !waveasm.vreg<2, 2>
  %t2 = waveasm.v_sqrt_f32 %c : !waveasm.imm<4> -> !waveasm.vreg
  %t3 = waveasm.v_exp_f32 %m0 : !waveasm.vreg -> !waveasm.vreg
  %t4 = waveasm.v_cos_f32 %m0 : !waveasm.vreg -> !waveasm.vreg
}
