// waveasm-vgpr-compaction: allocated VGPR ranges move, shortest lifetime
// first, to the lowest free aligned base; precolored registers and v15 stay;
// values sharing registers (loop-carried values, MFMA accumulators) move
// together and `_iterArgPhysRegs` follows; SGPRs and AGPRs do not move. A
// program it cannot improve is left as it is, and the debug log says why
// (vgpr-compaction-unchanged.mlir: programs it must not touch).
// RUN: waveasm-opt --waveasm-vgpr-compaction %s | FileCheck %s
// RUN: waveasm-opt --waveasm-vgpr-compaction %s | waveasm-opt > /dev/null
// RUN: waveasm-opt --waveasm-vgpr-compaction --waveasm-insert-waitcnt --waveasm-hazard-mitigation --emit-assembly %s -o %t.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj -o /dev/null %t.s
// RUN: waveasm-opt --waveasm-vgpr-compaction --debug-only=waveasm-vgpr-compaction --mlir-disable-threading %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOG

// Shortest first: %b (one point) takes v1, the tuple (4-aligned, as it was
// at v44) v4, and %a, live across both, v2. Peak 48 -> 8.
// LOG: waveasm-vgpr-compaction: @straight: moved 3 of 4 VGPR ranges; peak v48 -> v8
// CHECK-LABEL: waveasm.program @straight
waveasm.program @straight target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // CHECK: waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  // CHECK: waveasm.v_add_u32 {{.*}} -> !waveasm.pvreg<2>
  %a = waveasm.v_add_u32 %tid, %c1 : !waveasm.pvreg<0>, !waveasm.imm<1> -> !waveasm.pvreg<40>
  // CHECK-NEXT: waveasm.v_add_u32 {{.*}} : !waveasm.pvreg<2>, !waveasm.imm<1> -> !waveasm.pvreg<1>
  %b = waveasm.v_add_u32 %a, %c1 : !waveasm.pvreg<40>, !waveasm.imm<1> -> !waveasm.pvreg<41>
  // CHECK-NEXT: waveasm.buffer_load_dwordx4 {{.*}} : !waveasm.psreg<0, 4>, !waveasm.pvreg<1>, !waveasm.imm<0> -> !waveasm.pvreg<4, 4>
  %q = waveasm.buffer_load_dwordx4 %srd, %b, %c0 : !waveasm.psreg<0, 4>, !waveasm.pvreg<41>, !waveasm.imm<0> -> !waveasm.pvreg<44, 4>
  // CHECK-NEXT: waveasm.buffer_store_dwordx4 {{.*}} : !waveasm.pvreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.pvreg<2>
  waveasm.buffer_store_dwordx4 %q, %srd, %a : !waveasm.pvreg<44, 4>, !waveasm.psreg<0, 4>, !waveasm.pvreg<40>
  waveasm.s_endpgm
}

// The accumulator's init, block argument, MFMA result (tied to it), iter_arg
// and loop result move as one 4-aligned range; the MFMA's A/B operand, live
// over the whole loop, goes first (shorter) to v2; the SGPR and the AGPR
// stay.
// LOG: waveasm-vgpr-compaction: @loop: moved 2 of 3 VGPR ranges; peak v42 -> v8
// CHECK-LABEL: waveasm.program @loop
waveasm.program @loop target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  // CHECK: waveasm.s_mov_b32 {{.*}} -> !waveasm.psreg<4>
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.psreg<4>
  // CHECK-NEXT: waveasm.v_mov_b32 {{.*}} -> !waveasm.pvreg<4, 4>
  %a0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.pvreg<32, 4>
  // CHECK-NEXT: waveasm.ds_read_b64 {{.*}} -> !waveasm.pvreg<2, 2>
  %x = waveasm.ds_read_b64 %tid : !waveasm.pvreg<0> -> !waveasm.pvreg<40, 2>
  // CHECK-NEXT: waveasm.v_mov_b32 {{.*}} -> !waveasm.pareg<20>
  %ag = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.pareg<20>
  // CHECK-NEXT: waveasm.loop (%[[I:.*]] = %{{.*}}, %[[ACC:.*]] = %{{.*}}) : (!waveasm.psreg<4>, !waveasm.pvreg<4, 4>) -> (!waveasm.psreg<4>, !waveasm.pvreg<4, 4>)
  %r:2 = waveasm.loop (%i = %i0, %acc = %a0) : (!waveasm.psreg<4>, !waveasm.pvreg<32, 4>) -> (!waveasm.psreg<4>, !waveasm.pvreg<32, 4>) {
    // CHECK-NEXT: waveasm.v_mfma_f32_16x16x16_f16 {{.*}}, %[[ACC]] : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.pvreg<4, 4> -> !waveasm.pvreg<4, 4>
    %m = waveasm.v_mfma_f32_16x16x16_f16 %x, %x, %acc : !waveasm.pvreg<40, 2>, !waveasm.pvreg<40, 2>, !waveasm.pvreg<32, 4> -> !waveasm.pvreg<32, 4>
    %n:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.psreg<4>, !waveasm.imm<1> -> !waveasm.psreg<4>, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %n#0, %c8 : !waveasm.psreg<4>, !waveasm.imm<8> -> !waveasm.scc
    // CHECK: waveasm.condition {{.*}} : !waveasm.psreg<4>, !waveasm.pvreg<4, 4> {_iterArgPhysRegs = array<i64: 4, 4>}
    waveasm.condition %go : !waveasm.scc iter_args(%n#0, %m) : !waveasm.psreg<4>, !waveasm.pvreg<32, 4> {_iterArgPhysRegs = array<i64: 4, 32>}
  }
  // CHECK: waveasm.buffer_store_dwordx4 {{.*}} : !waveasm.pvreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.buffer_store_dwordx4 %r#1, %srd, %tid : !waveasm.pvreg<32, 4>, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.dce_protect %ag : !waveasm.pareg<20>
  waveasm.s_endpgm
}

// A precolored register stays where it is, even above everything else, and
// keeps its register for the whole program.
// LOG: waveasm-vgpr-compaction: @pinned: moved 1 of 2 VGPR ranges; peak v61 -> v51
// CHECK-LABEL: waveasm.program @pinned
waveasm.program @pinned target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  // CHECK: waveasm.v_mov_b32 {{.*}} -> !waveasm.pvreg<0>
  %a = waveasm.v_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.pvreg<60>
  // CHECK-NEXT: waveasm.precolored.vreg 50 : !waveasm.pvreg<50>
  %hi = waveasm.precolored.vreg 50 : !waveasm.pvreg<50>
  %s = waveasm.v_add_u32 %a, %hi : !waveasm.pvreg<60>, !waveasm.pvreg<50> -> !waveasm.pvreg<60>
  waveasm.dce_protect %s : !waveasm.pvreg<60>
  waveasm.s_endpgm
}

// Already as low as it gets: unchanged. The registers live at one point
// (v1, v2 and the precolored v0) already reach the peak, so no placement
// is tried.
// LOG: waveasm-vgpr-compaction: @compact: left unchanged: the ranges live at one point need v3, the input's peak is v3
// CHECK-LABEL: waveasm.program @compact
// CHECK: -> !waveasm.pvreg<1>
// CHECK: -> !waveasm.pvreg<2>
waveasm.program @compact target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %a = waveasm.v_add_u32 %tid, %c1 : !waveasm.pvreg<0>, !waveasm.imm<1> -> !waveasm.pvreg<1>
  %b = waveasm.v_add_u32 %a, %tid : !waveasm.pvreg<1>, !waveasm.pvreg<0> -> !waveasm.pvreg<2>
  waveasm.dce_protect %a : !waveasm.pvreg<1>
  waveasm.dce_protect %b : !waveasm.pvreg<2>
  waveasm.s_endpgm
}
