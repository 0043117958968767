// A GEMM-like kernel whose broadcasts (v_mov_b32 of constants and of
// scalars: row offsets, strides) are defined at the top and used in the
// address arithmetic of the K loop (8 of them) and of an epilogue store loop
// (4 more), while the prologue prefetches ten tiles. Upstream allocates it in
// 48 VGPRs: the broadcasts are rematerialized before the loop that uses them
// (SPEC.md 14.4 step 3), so they are not live across the prologue (nor the
// epilogue ones across the K loop). Kept live from the top, the prologue
// needs 55 (v0 + v15 + 40 + 12 + %goff).
// RUN: waveasm-opt --waveasm-linear-scan=max-vgprs=48 %s | FileCheck %s
// RUN: waveasm-opt --waveasm-metrics %s | FileCheck %s --check-prefix=METRICS
// RUN: waveasm-opt --waveasm-linear-scan=max-vgprs=48 --waveasm-insert-waitcnt --waveasm-hazard-mitigation --emit-assembly %s | llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj -o /dev/null
// METRICS: "peak_vgpr": 48

// No broadcast is materialized in the prologue; the eight of the K loop
// come right before it, the four of the epilogue loop right before that.
// CHECK-LABEL: waveasm.program @gemm_broadcasts
// CHECK-NOT:   waveasm.v_mov_b32 %{{[0-9]+}} : !waveasm.imm<256>
// CHECK:       waveasm.ds_write_b128
// CHECK-COUNT-4: waveasm.v_mov_b32 %{{[0-9]+}} {no_cse} : !waveasm.imm<0>
// CHECK-NEXT:  waveasm.s_mov_b32
// CHECK-NEXT:  waveasm.v_mov_b32 %{{[0-9]+}} : !waveasm.imm<256>
// CHECK-NEXT:  waveasm.v_mov_b32 %{{[0-9]+}} : !waveasm.psreg<
// CHECK-NEXT:  waveasm.v_mov_b32 %{{[0-9]+}} : !waveasm.imm<768>
// CHECK-NEXT:  waveasm.v_mov_b32 %{{[0-9]+}} : !waveasm.psreg<
// CHECK-NEXT:  waveasm.v_mov_b32 %{{[0-9]+}} : !waveasm.imm<1280>
// CHECK-NEXT:  waveasm.v_mov_b32 %{{[0-9]+}} : !waveasm.psreg<
// CHECK-NEXT:  waveasm.v_mov_b32 %{{[0-9]+}} : !waveasm.imm<1792>
// CHECK-NEXT:  waveasm.v_mov_b32 %{{[0-9]+}} : !waveasm.psreg<
// CHECK-NEXT:  waveasm.loop
// Inside the loop only the latch copies of the prefetched tiles.
// CHECK-NOT:   waveasm.v_mov_b32 %{{[0-9]+}} : !waveasm.imm
// CHECK-NOT:   waveasm.v_mov_b32 %{{[0-9]+}} : !waveasm.psreg
// CHECK:       waveasm.condition
// CHECK:       waveasm.v_mov_b32 %{{[0-9]+}} : !waveasm.imm<2304>
// CHECK-NEXT:  waveasm.v_mov_b32 %{{[0-9]+}} : !waveasm.psreg<
// CHECK-NEXT:  waveasm.v_mov_b32 %{{[0-9]+}} : !waveasm.imm<2816>
// CHECK-NEXT:  waveasm.v_mov_b32 %{{[0-9]+}} : !waveasm.psreg<
// CHECK-NEXT:  waveasm.loop
// CHECK-NOT:   waveasm.v_mov_b32
// CHECK:       waveasm.s_endpgm

waveasm.program @gemm_broadcasts target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %kargs = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  %wg = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %srd_a = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %srd_b = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %srd_c = waveasm.precolored.sreg 12, 4 : !waveasm.psreg<12, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %c32 = waveasm.constant 32 : !waveasm.imm<32>
  %c1024 = waveasm.constant 1024 : !waveasm.imm<1024>
  %stride = waveasm.s_load_dword %kargs, %c0 : !waveasm.psreg<0, 2>, !waveasm.imm<0> -> !waveasm.sreg
  %kc0 = waveasm.constant 256 : !waveasm.imm<256>
  %bc0 = waveasm.v_mov_b32 %kc0 : !waveasm.imm<256> -> !waveasm.vreg
  %s1 = waveasm.s_mul_i32 %wg, %stride : !waveasm.psreg<2>, !waveasm.sreg -> !waveasm.sreg
  %bc1 = waveasm.v_mov_b32 %s1 : !waveasm.sreg -> !waveasm.vreg
  %kc2 = waveasm.constant 768 : !waveasm.imm<768>
  %bc2 = waveasm.v_mov_b32 %kc2 : !waveasm.imm<768> -> !waveasm.vreg
  %s3 = waveasm.s_mul_i32 %wg, %stride : !waveasm.psreg<2>, !waveasm.sreg -> !waveasm.sreg
  %bc3 = waveasm.v_mov_b32 %s3 : !waveasm.sreg -> !waveasm.vreg
  %kc4 = waveasm.constant 1280 : !waveasm.imm<1280>
  %bc4 = waveasm.v_mov_b32 %kc4 : !waveasm.imm<1280> -> !waveasm.vreg
  %s5 = waveasm.s_mul_i32 %wg, %stride : !waveasm.psreg<2>, !waveasm.sreg -> !waveasm.sreg
  %bc5 = waveasm.v_mov_b32 %s5 : !waveasm.sreg -> !waveasm.vreg
  %kc6 = waveasm.constant 1792 : !waveasm.imm<1792>
  %bc6 = waveasm.v_mov_b32 %kc6 : !waveasm.imm<1792> -> !waveasm.vreg
  %s7 = waveasm.s_mul_i32 %wg, %stride : !waveasm.psreg<2>, !waveasm.sreg -> !waveasm.sreg
  %bc7 = waveasm.v_mov_b32 %s7 : !waveasm.sreg -> !waveasm.vreg
  %kc8 = waveasm.constant 2304 : !waveasm.imm<2304>
  %bc8 = waveasm.v_mov_b32 %kc8 : !waveasm.imm<2304> -> !waveasm.vreg
  %s9 = waveasm.s_mul_i32 %wg, %stride : !waveasm.psreg<2>, !waveasm.sreg -> !waveasm.sreg
  %bc9 = waveasm.v_mov_b32 %s9 : !waveasm.sreg -> !waveasm.vreg
  %kc10 = waveasm.constant 2816 : !waveasm.imm<2816>
  %bc10 = waveasm.v_mov_b32 %kc10 : !waveasm.imm<2816> -> !waveasm.vreg
  %s11 = waveasm.s_mul_i32 %wg, %stride : !waveasm.psreg<2>, !waveasm.sreg -> !waveasm.sreg
  %bc11 = waveasm.v_mov_b32 %s11 : !waveasm.sreg -> !waveasm.vreg
  %goff = waveasm.v_lshlrev_b32 %c4, %tid : !waveasm.imm<4>, !waveasm.pvreg<0> -> !waveasm.vreg
  %t0 = waveasm.buffer_load_dwordx4 %srd_a, %goff, %c0 offset : 0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %t1 = waveasm.buffer_load_dwordx4 %srd_b, %goff, %c0 offset : 64 : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %t2 = waveasm.buffer_load_dwordx4 %srd_a, %goff, %c0 offset : 128 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %t3 = waveasm.buffer_load_dwordx4 %srd_b, %goff, %c0 offset : 192 : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %t4 = waveasm.buffer_load_dwordx4 %srd_a, %goff, %c0 offset : 256 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %t5 = waveasm.buffer_load_dwordx4 %srd_b, %goff, %c0 offset : 320 : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %t6 = waveasm.buffer_load_dwordx4 %srd_a, %goff, %c0 offset : 384 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %t7 = waveasm.buffer_load_dwordx4 %srd_b, %goff, %c0 offset : 448 : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %t8 = waveasm.buffer_load_dwordx4 %srd_a, %goff, %c0 offset : 512 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %t9 = waveasm.buffer_load_dwordx4 %srd_b, %goff, %c0 offset : 576 : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  waveasm.ds_write_b128 %t0, %goff {offset = 0 : i64} : !waveasm.vreg<4, 4>, !waveasm.vreg
  waveasm.ds_write_b128 %t1, %goff {offset = 64 : i64} : !waveasm.vreg<4, 4>, !waveasm.vreg
  waveasm.ds_write_b128 %t2, %goff {offset = 128 : i64} : !waveasm.vreg<4, 4>, !waveasm.vreg
  waveasm.ds_write_b128 %t3, %goff {offset = 192 : i64} : !waveasm.vreg<4, 4>, !waveasm.vreg
  waveasm.ds_write_b128 %t4, %goff {offset = 256 : i64} : !waveasm.vreg<4, 4>, !waveasm.vreg
  waveasm.ds_write_b128 %t5, %goff {offset = 320 : i64} : !waveasm.vreg<4, 4>, !waveasm.vreg
  waveasm.ds_write_b128 %t6, %goff {offset = 384 : i64} : !waveasm.vreg<4, 4>, !waveasm.vreg
  waveasm.ds_write_b128 %t7, %goff {offset = 448 : i64} : !waveasm.vreg<4, 4>, !waveasm.vreg
  waveasm.ds_write_b128 %t8, %goff {offset = 512 : i64} : !waveasm.vreg<4, 4>, !waveasm.vreg
  waveasm.ds_write_b128 %t9, %goff {offset = 576 : i64} : !waveasm.vreg<4, 4>, !waveasm.vreg
  %z0 = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %z1 = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %z2 = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %z3 = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %kend, %alast, %blast, %r0, %r1, %r2, %r3 = waveasm.loop (%k = %k0, %a_cur = %t0, %b_cur = %t1, %acc0 = %z0, %acc1 = %z1, %acc2 = %z2, %acc3 = %z3) : (!waveasm.sreg, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>) -> (!waveasm.sreg, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>) {
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %soff = waveasm.s_mul_i32 %kn#0, %c1024 : !waveasm.sreg, !waveasm.imm<1024> -> !waveasm.sreg
    %o0 = waveasm.v_add_u32 %goff, %bc0 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %o1 = waveasm.v_add_u32 %o0, %bc1 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %o2 = waveasm.v_add_u32 %o1, %bc2 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %o3 = waveasm.v_add_u32 %o2, %bc3 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %o4 = waveasm.v_add_u32 %o3, %bc4 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %o5 = waveasm.v_add_u32 %o4, %bc5 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %o6 = waveasm.v_add_u32 %o5, %bc6 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %o7 = waveasm.v_add_u32 %o6, %bc7 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %a_next = waveasm.buffer_load_dwordx4 %srd_a, %o7, %soff : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg<4, 4>
    %b_next = waveasm.buffer_load_dwordx4 %srd_b, %o7, %soff offset : 64 : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg<4, 4>
    %fa = waveasm.ds_read_b64 %goff : !waveasm.vreg -> !waveasm.vreg<2, 2>
    %fb = waveasm.ds_read_b64 %goff {offset = 512 : i64} : !waveasm.vreg -> !waveasm.vreg<2, 2>
    %n0 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %acc0 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %n1 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %acc1 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %n2 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %acc2 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %n3 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %acc3 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    waveasm.ds_write_b128 %a_cur, %goff : !waveasm.vreg<4, 4>, !waveasm.vreg
    waveasm.ds_write_b128 %b_cur, %goff {offset = 1024 : i64} : !waveasm.vreg<4, 4>, !waveasm.vreg
    %more = waveasm.s_cmp_lt_u32 %kn#0, %c32 : !waveasm.sreg, !waveasm.imm<32> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0, %a_next, %b_next, %n0, %n1, %n2, %n3) : !waveasm.sreg, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>
  }
  %e0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %eend = waveasm.loop (%e = %e0) : (!waveasm.sreg) -> (!waveasm.sreg) {
    %en:2 = waveasm.s_add_u32 %e, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %esoff = waveasm.s_mul_i32 %e, %c1024 : !waveasm.sreg, !waveasm.imm<1024> -> !waveasm.sreg
    %p0_8 = waveasm.v_add_u32 %goff, %bc8 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %q0 = waveasm.v_add_u32 %esoff, %p0_8 : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.buffer_store_dwordx4 %r0, %srd_c, %q0 : !waveasm.vreg<4, 4>, !waveasm.psreg<12, 4>, !waveasm.vreg
    %p1_9 = waveasm.v_add_u32 %goff, %bc9 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %q1 = waveasm.v_add_u32 %esoff, %p1_9 : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.buffer_store_dwordx4 %r1, %srd_c, %q1 : !waveasm.vreg<4, 4>, !waveasm.psreg<12, 4>, !waveasm.vreg
    %p2_10 = waveasm.v_add_u32 %goff, %bc10 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %q2 = waveasm.v_add_u32 %esoff, %p2_10 : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.buffer_store_dwordx4 %r2, %srd_c, %q2 : !waveasm.vreg<4, 4>, !waveasm.psreg<12, 4>, !waveasm.vreg
    %p3_11 = waveasm.v_add_u32 %goff, %bc11 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %q3 = waveasm.v_add_u32 %esoff, %p3_11 : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.buffer_store_dwordx4 %r3, %srd_c, %q3 : !waveasm.vreg<4, 4>, !waveasm.psreg<12, 4>, !waveasm.vreg
    %emore = waveasm.s_cmp_lt_u32 %en#0, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
    waveasm.condition %emore : !waveasm.scc iter_args(%en#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}
