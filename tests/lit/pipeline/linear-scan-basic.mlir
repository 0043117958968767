// Straight-line allocation: lowest free register first, expiry strictly
// before the next definition (a register read at an op is not reused by a
// result of the same op), reuse after expiry, v15 reserved, SGPRs and VGPRs
// allocated independently, unused values still get a register.
// RUN: waveasm-opt --waveasm-linear-scan %s | FileCheck %s
// Output still verifies and round-trips.
// RUN: waveasm-opt --waveasm-linear-scan %s | waveasm-opt | FileCheck %s --check-prefix=NOVIRT
// NOVIRT-NOT: !waveasm.vreg
// NOVIRT-NOT: !waveasm.sreg
// NOVIRT: waveasm.program @reuse
// NOVIRT: waveasm.program @scratch

// CHECK-LABEL: waveasm.program @reuse
waveasm.program @reuse target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  // CHECK: %[[A:.*]] = waveasm.v_add_u32 %{{.*}}, %{{.*}} : !waveasm.pvreg<0>, !waveasm.imm<1> -> !waveasm.pvreg<1>
  %a = waveasm.v_add_u32 %tid, %c1 : !waveasm.pvreg<0>, !waveasm.imm<1> -> !waveasm.vreg
  // %a dies here, but its register is not given to this op's result.
  // CHECK-NEXT: %[[B:.*]] = waveasm.v_add_u32 %[[A]], %{{.*}} : !waveasm.pvreg<1>, !waveasm.imm<1> -> !waveasm.pvreg<2>
  %b = waveasm.v_add_u32 %a, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
  // %a expired: v1 is free again.
  // CHECK-NEXT: %[[C:.*]] = waveasm.v_add_u32 %[[B]], %{{.*}} -> !waveasm.pvreg<1>
  %c = waveasm.v_add_u32 %b, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
  // Both operands die here: the result takes the lowest free register, v3.
  // CHECK-NEXT: %[[D:.*]] = waveasm.v_add_u32 %[[C]], %[[B]] : !waveasm.pvreg<1>, !waveasm.pvreg<2> -> !waveasm.pvreg<3>
  %d = waveasm.v_add_u32 %c, %b : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  // An unused result still occupies a register at its definition.
  // CHECK-NEXT: waveasm.v_add_u32 %[[D]], %{{.*}} -> !waveasm.pvreg<1>
  %dead = waveasm.v_add_u32 %d, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
  // SGPRs are a separate file: s0-s3 are precolored, so s4.
  // CHECK-NEXT: %[[S:.*]] = waveasm.s_mov_b32 %{{.*}} : !waveasm.imm<1> -> !waveasm.psreg<4>
  %s = waveasm.s_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.sreg
  // CHECK-NEXT: %[[E:.*]] = waveasm.v_add_u32 %[[S]], %[[D]] : !waveasm.psreg<4>, !waveasm.pvreg<3> -> !waveasm.pvreg<1>
  %e = waveasm.v_add_u32 %s, %d : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
  // CHECK-NEXT: waveasm.buffer_store_dword %[[E]], %{{.*}}, %[[D]] : !waveasm.pvreg<1>, !waveasm.psreg<0, 4>, !waveasm.pvreg<3>
  waveasm.buffer_store_dword %e, %srd, %d : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.vreg
  waveasm.s_endpgm
}

// Fifteen values live at once: v0 is the thread id and v15 the emitter's
// scratch register, so the fifteenth value lands in v16.
// CHECK-LABEL: waveasm.program @scratch
waveasm.program @scratch target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  // CHECK-COUNT-14: waveasm.v_add_u32 {{.*}} -> !waveasm.pvreg<{{[1-9]|1[0-4]}}>
  %v1 = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  %v2 = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  %v3 = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  %v4 = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  %v5 = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  %v6 = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  %v7 = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  %v8 = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  %v9 = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  %v10 = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  %v11 = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  %v12 = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  %v13 = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  %v14 = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  // CHECK-NEXT: waveasm.v_add_u32 {{.*}} -> !waveasm.pvreg<16>
  %v15 = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  // CHECK-NOT: !waveasm.pvreg<15>
  waveasm.buffer_store_dword %v1, %srd, %v2 : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.vreg
  waveasm.buffer_store_dword %v3, %srd, %v4 : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.vreg
  waveasm.buffer_store_dword %v5, %srd, %v6 : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.vreg
  waveasm.buffer_store_dword %v7, %srd, %v8 : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.vreg
  waveasm.buffer_store_dword %v9, %srd, %v10 : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.vreg
  waveasm.buffer_store_dword %v11, %srd, %v12 : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.vreg
  waveasm.buffer_store_dword %v13, %srd, %v14 : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.vreg
  waveasm.buffer_store_dword %v15, %srd, %v1 : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.vreg
  // CHECK: waveasm.s_endpgm
  waveasm.s_endpgm
}
