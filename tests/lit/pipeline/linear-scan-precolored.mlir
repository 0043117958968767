// Precolored values keep their registers and reserve index..index+size-1
// for the whole program (the larger of the `size` attribute and the type);
// physical values already in the input are reserved as well; the program
// attributes scalar_sgpr_base/scalar_sgpr_count reserve SGPRs.
// RUN: waveasm-opt --waveasm-linear-scan %s | FileCheck %s

// CHECK-LABEL: waveasm.program @pinned
waveasm.program @pinned target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // A virtual-typed precolored value becomes physical at its index.
  // CHECK: waveasm.precolored.vreg 1, 2 : !waveasm.pvreg<1, 2>
  %pair = waveasm.precolored.vreg 1, 2 : !waveasm.vreg<2>
  // `size` 3 with a one-register type: v4-v6 are all reserved.
  // CHECK: waveasm.precolored.vreg 4, 3 : !waveasm.pvreg<4>
  %wide = waveasm.precolored.vreg 4, 3 : !waveasm.vreg
  // CHECK: waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  // CHECK: waveasm.precolored.sreg 4 : !waveasm.psreg<4>
  %s4 = waveasm.precolored.sreg 4 : !waveasm.sreg
  // CHECK: waveasm.precolored.areg 0, 4 : !waveasm.pareg<0, 4>
  %acc = waveasm.precolored.areg 0, 4 : !waveasm.areg<4, 4>
  // An extract of a precolored value is pinned too: v1 + 1.
  // CHECK: waveasm.extract %{{.*}}[1] : !waveasm.pvreg<1, 2> -> !waveasm.pvreg<2>
  %hi = waveasm.extract %pair[1] : !waveasm.vreg<2> -> !waveasm.vreg
  // Free VGPRs: v0, v3, v7, ...
  // CHECK: waveasm.v_add_u32 {{.*}} -> !waveasm.pvreg<0>
  %a = waveasm.v_add_u32 %hi, %wide : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  // CHECK: waveasm.v_add_u32 {{.*}} -> !waveasm.pvreg<3>
  %b = waveasm.v_add_u32 %a, %wide : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  // CHECK: waveasm.v_add_u32 {{.*}} -> !waveasm.pvreg<7>
  %c = waveasm.v_add_u32 %a, %b : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  // A physical result in the input (v8) is reserved for the whole program:
  // the next value, with v0, v3 and v7 live, skips it.
  %p = waveasm.v_add_u32 %a, %c : !waveasm.vreg, !waveasm.vreg -> !waveasm.pvreg<8>
  // CHECK: waveasm.v_add_u32 {{.*}} -> !waveasm.pvreg<9>
  %d = waveasm.v_add_u32 %p, %c : !waveasm.pvreg<8>, !waveasm.vreg -> !waveasm.vreg
  // s0-s4 are taken: s5.
  // CHECK: waveasm.s_mul_i32 {{.*}} -> !waveasm.psreg<5>
  %s = waveasm.s_mul_i32 %s4, %s4 : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg
  // AGPR a0-a3 are precolored: a fresh AGPR quad goes to a[4:7].
  // CHECK: waveasm.v_mov_b32 {{.*}} -> !waveasm.pareg<4, 4>
  %z = waveasm.v_mov_b32 %s : !waveasm.sreg -> !waveasm.areg<4, 4>
  %r = waveasm.v_accvgpr_read_b32 %z : !waveasm.areg<4, 4> -> !waveasm.vreg<4, 4>
  %r2 = waveasm.v_accvgpr_read_b32 %acc : !waveasm.areg<4, 4> -> !waveasm.vreg<4, 4>
  waveasm.buffer_store_dwordx4 %r, %srd, %d : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.vreg
  waveasm.buffer_store_dwordx4 %r2, %srd, %b : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.vreg
  waveasm.buffer_store_dword %c, %srd, %a : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.vreg
  waveasm.s_endpgm
}

// scalar_sgpr_base = 2, scalar_sgpr_count = 3: s2-s4 are not allocated.
// CHECK-LABEL: waveasm.program @scalar_range
waveasm.program @scalar_range target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<>
    attributes {scalar_sgpr_base = 2 : i64, scalar_sgpr_count = 3 : i64} {
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  // CHECK: waveasm.s_mov_b32 {{.*}} -> !waveasm.psreg<0>
  %a = waveasm.s_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.sreg
  // CHECK: waveasm.s_mov_b32 {{.*}} -> !waveasm.psreg<1>
  %b = waveasm.s_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.sreg
  // CHECK: waveasm.s_mul_i32 {{.*}} -> !waveasm.psreg<5>
  %c = waveasm.s_mul_i32 %a, %b : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg
  // CHECK: waveasm.s_mul_i32 {{.*}} -> !waveasm.psreg<0>
  %d = waveasm.s_mul_i32 %c, %c : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg
  waveasm.s_mov_b32_m0 %d : !waveasm.sreg
  waveasm.s_endpgm
}
