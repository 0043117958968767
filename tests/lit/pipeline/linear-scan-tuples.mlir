// Register tuples: a tuple of alignment a starts at a multiple of a
// (bases 0, a, 2a, ...); the textual `vreg<4>` means alignment 1 (SPEC.md
// 2.2) and may start anywhere. Tuples skip the reserved v15.
// RUN: waveasm-opt --waveasm-linear-scan %s | FileCheck %s

// v0 is precolored and v1 taken: an aligned quad goes to v[4:7], an
// unaligned one fills v[2:5] first.
// CHECK-LABEL: waveasm.program @aligned_quad
waveasm.program @aligned_quad target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  // CHECK: waveasm.v_add_u32 {{.*}} -> !waveasm.pvreg<1>
  %x = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  // CHECK: waveasm.buffer_load_dwordx4 {{.*}} -> !waveasm.pvreg<4, 4>
  %q = waveasm.buffer_load_dwordx4 %srd, %x, %c0 : !waveasm.psreg<0, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  waveasm.buffer_store_dwordx4 %q, %srd, %x : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.vreg
  waveasm.s_endpgm
}

// CHECK-LABEL: waveasm.program @unaligned_quad
waveasm.program @unaligned_quad target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  // CHECK: waveasm.v_add_u32 {{.*}} -> !waveasm.pvreg<1>
  %x = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  // CHECK: waveasm.buffer_load_dwordx4 {{.*}} -> !waveasm.pvreg<2, 4>
  %q = waveasm.buffer_load_dwordx4 %srd, %x, %c0 : !waveasm.psreg<0, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4>
  waveasm.buffer_store_dwordx4 %q, %srd, %x : !waveasm.vreg<4>, !waveasm.psreg<0, 4>, !waveasm.vreg
  waveasm.s_endpgm
}

// Pairs take even bases; a quad that would cover v15 moves past it; the
// sort puts wider ranges first among ranges starting at the same point.
// CHECK-LABEL: waveasm.program @mixed
waveasm.program @mixed target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  // CHECK: %[[X:.*]] = waveasm.v_add_u32 {{.*}} -> !waveasm.pvreg<1>
  %x = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  // CHECK: waveasm.ds_read_b64 {{.*}} -> !waveasm.pvreg<2, 2>
  %p = waveasm.ds_read_b64 %x : !waveasm.vreg -> !waveasm.vreg<2, 2>
  // CHECK: waveasm.buffer_load_dwordx4 {{.*}} -> !waveasm.pvreg<4, 4>
  %q0 = waveasm.buffer_load_dwordx4 %srd, %x, %c0 : !waveasm.psreg<0, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  // CHECK: waveasm.buffer_load_dwordx4 {{.*}} -> !waveasm.pvreg<8, 4>
  %q1 = waveasm.buffer_load_dwordx4 %srd, %x, %c0 : !waveasm.psreg<0, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  // v[12:15] contains v15: next aligned base is 16.
  // CHECK: waveasm.buffer_load_dwordx4 {{.*}} -> !waveasm.pvreg<16, 4>
  %q2 = waveasm.buffer_load_dwordx4 %srd, %x, %c0 : !waveasm.psreg<0, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  // Unaligned pair: v[12:13] is the first free run of two.
  // CHECK: waveasm.ds_read_b64 {{.*}} -> !waveasm.pvreg<12, 2>
  %u = waveasm.ds_read_b64 %x : !waveasm.vreg -> !waveasm.vreg<2>
  // A single register takes the lowest free one, v14 (v15 stays reserved).
  // CHECK: waveasm.v_add_u32 {{.*}} -> !waveasm.pvreg<14>
  %y = waveasm.v_add_u32 %x, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  // An 8-wide, 8-aligned accumulator-style range.
  // CHECK: waveasm.v_mov_b32 {{.*}} -> !waveasm.pvreg<24, 8>
  %w = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<8, 8>
  // An extract is its source's registers at an offset.
  // CHECK: waveasm.extract {{.*}}[4] : !waveasm.pvreg<24, 8> -> !waveasm.pvreg<28, 4>
  waveasm.ds_write_b64 %p, %x : !waveasm.vreg<2, 2>, !waveasm.vreg
  waveasm.ds_write_b64 %u, %y : !waveasm.vreg<2>, !waveasm.vreg
  waveasm.buffer_store_dwordx4 %q0, %srd, %x : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.vreg
  waveasm.buffer_store_dwordx4 %q1, %srd, %x : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.vreg
  waveasm.buffer_store_dwordx4 %q2, %srd, %x : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.vreg
  %w0 = waveasm.extract %w[4] : !waveasm.vreg<8, 8> -> !waveasm.vreg<4>
  waveasm.buffer_store_dwordx4 %w0, %srd, %x : !waveasm.vreg<4>, !waveasm.psreg<0, 4>, !waveasm.vreg
  waveasm.s_endpgm
}

// SGPR tuples: a 4-aligned descriptor after precolored s[0:1] starts at s4;
// a pair fills s[2:3].
// CHECK-LABEL: waveasm.program @sgpr_tuples
waveasm.program @sgpr_tuples target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %kargs = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  // CHECK: waveasm.s_load_dwordx4 {{.*}} -> !waveasm.psreg<4, 4>
  %srd = waveasm.s_load_dwordx4 %kargs, %c0 : !waveasm.psreg<0, 2>, !waveasm.imm<0> -> !waveasm.sreg<4, 4>
  // CHECK: waveasm.s_load_dwordx2 {{.*}} -> !waveasm.psreg<2, 2>
  %ptr = waveasm.s_load_dwordx2 %kargs, %c0 : !waveasm.psreg<0, 2>, !waveasm.imm<0> -> !waveasm.sreg<2, 2>
  %v = waveasm.global_load_dword %ptr, %tid, %c0 : !waveasm.sreg<2, 2>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %v, %srd, %tid : !waveasm.vreg, !waveasm.sreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}
