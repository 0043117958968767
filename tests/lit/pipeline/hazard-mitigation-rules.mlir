// One case per software hazard rule: the nop count is what the target model
// requires minus the independent instructions already in between (s_nop N
// gives N+1 wait states), and enough independent instructions need no nop.
// RUN: waveasm-opt --split-input-file --waveasm-hazard-mitigation %s | FileCheck %s

// Transcendental VALU -> non-transcendental VALU reading its result: 1.
// CHECK-LABEL: waveasm.program @trans
// CHECK:      %[[E:.*]] = waveasm.v_exp_f32
// CHECK-NEXT: waveasm.s_nop 0
// CHECK-NEXT: waveasm.v_add_f32 %[[E]]
// A transcendental consumer needs nothing.
// CHECK-NEXT: %[[R:.*]] = waveasm.v_rcp_f32
// CHECK-NEXT: waveasm.v_sqrt_f32 %[[R]]
// One independent instruction in between is enough.
// CHECK-NEXT: %[[L:.*]] = waveasm.v_log_f32
// CHECK-NEXT: waveasm.v_mov_b32 %
// CHECK-NEXT: waveasm.v_mul_f32 %[[L]]
// CHECK-NEXT: waveasm.s_endpgm
waveasm.program @trans target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %e = waveasm.v_exp_f32 %v0 : !waveasm.pvreg<0> -> !waveasm.vreg
  %a = waveasm.v_add_f32 %e, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
  %r = waveasm.v_rcp_f32 %a : !waveasm.vreg -> !waveasm.vreg
  %s = waveasm.v_sqrt_f32 %r : !waveasm.vreg -> !waveasm.vreg
  %l = waveasm.v_log_f32 %s : !waveasm.vreg -> !waveasm.vreg
  %m = waveasm.v_mov_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.vreg
  %p = waveasm.v_mul_f32 %l, %m : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// VALU -> v_readfirstlane (and v_readlane) of its result: 1. Non-emitting
// ops in between do not count.
// CHECK-LABEL: waveasm.program @readfirstlane
// CHECK:      %[[A:.*]] = waveasm.v_add_u32
// CHECK-NEXT: waveasm.constant
// CHECK-NEXT: waveasm.s_nop 0
// CHECK-NEXT: waveasm.v_readfirstlane_b32 %[[A]]
// CHECK-NEXT: %[[B:.*]] = waveasm.v_and_b32
// CHECK-NEXT: waveasm.s_nop 0
// CHECK-NEXT: waveasm.v_readlane_b32 %[[B]]
// CHECK-NEXT: %[[C:.*]] = waveasm.v_or_b32
// CHECK-NEXT: waveasm.s_mov_b32
// CHECK-NEXT: waveasm.v_readfirstlane_b32 %[[C]]
waveasm.program @readfirstlane target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %a = waveasm.v_add_u32 %v0, %v0 : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  %c5 = waveasm.constant 5 : !waveasm.imm<5>
  %s = waveasm.v_readfirstlane_b32 %a : !waveasm.vreg -> !waveasm.sreg
  %b = waveasm.v_and_b32 %v0, %c5 : !waveasm.pvreg<0>, !waveasm.imm<5> -> !waveasm.vreg
  %t = waveasm.v_readlane_b32 %b, %c5 : !waveasm.vreg, !waveasm.imm<5> -> !waveasm.sreg
  %c = waveasm.v_or_b32 %v0, %c5 : !waveasm.pvreg<0>, !waveasm.imm<5> -> !waveasm.vreg
  %u = waveasm.s_mov_b32 %c5 : !waveasm.imm<5> -> !waveasm.sreg
  %w = waveasm.v_readfirstlane_b32 %c : !waveasm.vreg -> !waveasm.sreg
  waveasm.s_endpgm
}

// -----

// VALU writes an SGPR -> VMEM reads it: 5; two independent instructions in
// between leave 3 (s_nop 2). SALU in between is independent too.
// CHECK-LABEL: waveasm.program @sgpr_vmem
// CHECK:      %[[S:.*]] = waveasm.v_readfirstlane_b32
// CHECK-NEXT: waveasm.s_nop 4
// CHECK-NEXT: waveasm.buffer_load_dword %{{.*}}, %{{.*}}, %[[S]]
// CHECK-NEXT: %[[T:.*]] = waveasm.v_readfirstlane_b32
// CHECK-NEXT: waveasm.v_mov_b32
// CHECK-NEXT: waveasm.s_mov_b32
// CHECK-NEXT: waveasm.s_nop 2
// CHECK-NEXT: waveasm.buffer_load_dword %{{.*}}, %{{.*}}, %[[T]]
// Through a pack into a descriptor (non-emitting).
// CHECK-NEXT: %[[U:.*]] = waveasm.v_readfirstlane_b32
// CHECK-NEXT: %[[D:.*]] = waveasm.pack %[[U]]
// CHECK-NEXT: waveasm.s_nop 4
// CHECK-NEXT: waveasm.buffer_store_dword %{{.*}}, %[[D]]
waveasm.program @sgpr_vmem target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %s = waveasm.v_readfirstlane_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.sreg
  %l = waveasm.buffer_load_dword %srd, %v0, %s : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.sreg -> !waveasm.vreg
  %t = waveasm.v_readfirstlane_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.sreg
  %m = waveasm.v_mov_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.vreg
  %n = waveasm.s_mov_b32 %s : !waveasm.sreg -> !waveasm.sreg
  %l2 = waveasm.buffer_load_dword %srd, %v0, %t : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.sreg -> !waveasm.vreg
  %u = waveasm.v_readfirstlane_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.sreg
  %d = waveasm.pack %u, %n, %n, %n : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.sreg) -> !waveasm.sreg<4, 4>
  waveasm.buffer_store_dword %m, %d, %v0 : !waveasm.vreg, !waveasm.sreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

// -----

// VALU writes an SGPR -> v_readlane / v_writelane lane select: 4. As a
// v_writelane data source (a VALU reading the SGPR as a constant): 2.
// CHECK-LABEL: waveasm.program @lane_select
// CHECK:      %[[S:.*]] = waveasm.v_readfirstlane_b32
// CHECK-NEXT: waveasm.s_nop 3
// CHECK-NEXT: waveasm.v_readlane_b32 %{{.*}}, %[[S]]
// CHECK-NEXT: %[[T:.*]] = waveasm.v_readfirstlane_b32
// CHECK-NEXT: waveasm.s_nop 3
// CHECK-NEXT: waveasm.v_writelane_b32 %{{.*}}, %[[T]]
// CHECK-NEXT: %[[U:.*]] = waveasm.v_readfirstlane_b32
// CHECK-NEXT: waveasm.s_nop 1
// CHECK-NEXT: waveasm.v_writelane_b32 %[[U]], %
waveasm.program @lane_select target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c3 = waveasm.constant 3 : !waveasm.imm<3>
  %s = waveasm.v_readfirstlane_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.sreg
  %r = waveasm.v_readlane_b32 %v0, %s : !waveasm.pvreg<0>, !waveasm.sreg -> !waveasm.sreg
  %t = waveasm.v_readfirstlane_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.sreg
  %w = waveasm.v_writelane_b32 %c3, %t, %v0 : !waveasm.imm<3>, !waveasm.sreg, !waveasm.pvreg<0> -> !waveasm.vreg
  %u = waveasm.v_readfirstlane_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.sreg
  %x = waveasm.v_writelane_b32 %u, %c3, %v0 : !waveasm.sreg, !waveasm.imm<3>, !waveasm.pvreg<0> -> !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// VALU writes an SGPR or VCC -> VALU reads it as a constant: 2. VCC is read
// implicitly by v_cndmask_b32 after a v_cmp and by v_addc_co_u32 after a
// carry op; one independent instruction in between leaves 1.
// CHECK-LABEL: waveasm.program @valu_const
// CHECK:      %[[S:.*]] = waveasm.v_readfirstlane_b32
// CHECK-NEXT: waveasm.s_nop 1
// CHECK-NEXT: waveasm.v_add_u32 %[[S]]
// CHECK-NEXT: waveasm.v_cmp_lt_u32
// CHECK-NEXT: waveasm.s_nop 1
// CHECK-NEXT: waveasm.v_cndmask_b32
// CHECK-NEXT: waveasm.v_add_co_u32
// CHECK-NEXT: waveasm.v_mov_b32
// CHECK-NEXT: waveasm.s_nop 0
// CHECK-NEXT: waveasm.v_addc_co_u32
// No VALU wrote VCC recently: a later v_cndmask needs nothing.
// CHECK-NEXT: waveasm.v_mov_b32
// CHECK-NEXT: waveasm.v_mov_b32
// CHECK-NEXT: waveasm.v_cndmask_b32
waveasm.program @valu_const target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %s = waveasm.v_readfirstlane_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.sreg
  %a = waveasm.v_add_u32 %s, %v0 : !waveasm.sreg, !waveasm.pvreg<0> -> !waveasm.vreg
  waveasm.v_cmp_lt_u32 %a, %v0 : !waveasm.vreg, !waveasm.pvreg<0>
  %sel = waveasm.v_cndmask_b32 %a, %v0, %c1 : !waveasm.vreg, !waveasm.pvreg<0>, !waveasm.imm<1> -> !waveasm.vreg
  %lo, %carry = waveasm.v_add_co_u32 %a, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg, !waveasm.sreg
  %m = waveasm.v_mov_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.vreg
  %hi, %carry2 = waveasm.v_addc_co_u32 %m, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg, !waveasm.sreg
  %m2 = waveasm.v_mov_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.vreg
  %m3 = waveasm.v_mov_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.vreg
  %sel2 = waveasm.v_cndmask_b32 %m2, %m3, %c1 : !waveasm.vreg, !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// SALU writes M0 -> *_lds load reading it: 1.
// CHECK-LABEL: waveasm.program @m0
// CHECK:      waveasm.s_mov_b32_m0
// CHECK-NEXT: waveasm.s_nop 0
// CHECK-NEXT: waveasm.buffer_load_dword_lds
// CHECK-NEXT: waveasm.s_mov_b32_m0
// CHECK-NEXT: waveasm.s_mov_b32 %
// CHECK-NEXT: waveasm.buffer_load_dwordx4_lds
waveasm.program @m0 target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %s8 = waveasm.precolored.sreg 8 : !waveasm.psreg<8>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  waveasm.s_mov_b32_m0 %s8 : !waveasm.psreg<8>
  waveasm.buffer_load_dword_lds %v0, %srd, %c0 : !waveasm.pvreg<0>, !waveasm.psreg<4, 4>, !waveasm.imm<0>
  waveasm.s_mov_b32_m0 %c0 : !waveasm.imm<0>
  %t = waveasm.s_mov_b32 %s8 : !waveasm.psreg<8> -> !waveasm.sreg
  waveasm.buffer_load_dwordx4_lds %v0, %srd, %c0 : !waveasm.pvreg<0>, !waveasm.psreg<4, 4>, !waveasm.imm<0>
  waveasm.s_endpgm
}

// -----

// MFMA results (gfx942 16x16x16 f16: 4 passes, 8 wait states). The
// accumulator chain (SrcC = previous result, same opcode) needs none; SrcA
// of another MFMA, a VALU read and VMEM data need 8 (one s_nop 7); five
// instructions in between leave 3.
// CHECK-LABEL: waveasm.program @mfma
// CHECK:      %[[D0:.*]] = waveasm.v_mfma_f32_16x16x16_f16
// CHECK-NEXT: %[[D1:.*]] = waveasm.v_mfma_f32_16x16x16_f16 %{{.*}}, %{{.*}}, %[[D0]]
// CHECK-NEXT: %[[X:.*]] = waveasm.extract %[[D1]][0]
// CHECK-NEXT: waveasm.s_nop 7
// CHECK-NEXT: waveasm.v_mfma_f32_16x16x16_f16 %[[X]]
// CHECK:      %[[D2:.*]] = waveasm.v_mfma_f32_16x16x16_f16
// CHECK-NEXT: waveasm.s_nop 7
// CHECK-NEXT: waveasm.buffer_store_dwordx4 %[[D2]]
// CHECK-NEXT: %[[D3:.*]] = waveasm.v_mfma_f32_16x16x16_f16
// CHECK-COUNT-5: waveasm.v_mov_b32
// CHECK-NEXT: waveasm.extract %[[D3]][3]
// CHECK-NEXT: waveasm.s_nop 2
// CHECK-NEXT: waveasm.v_add_f32
waveasm.program @mfma target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %ab = waveasm.precolored.vreg 2, 2 : !waveasm.pvreg<2, 2>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %d0 = waveasm.v_mfma_f32_16x16x16_f16 %ab, %ab, %c0 : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %d1 = waveasm.v_mfma_f32_16x16x16_f16 %ab, %ab, %d0 : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  %x = waveasm.extract %d1[0] : !waveasm.vreg<4, 4> -> !waveasm.vreg<2, 2>
  %d4 = waveasm.v_mfma_f32_16x16x16_f16 %x, %ab, %c0 : !waveasm.vreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %d2 = waveasm.v_mfma_f32_16x16x16_f16 %ab, %ab, %c0 : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  waveasm.buffer_store_dwordx4 %d2, %srd, %v0 : !waveasm.vreg<4, 4>, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  %d3 = waveasm.v_mfma_f32_16x16x16_f16 %ab, %ab, %c0 : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %m0 = waveasm.v_mov_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.vreg
  %m1 = waveasm.v_mov_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.vreg
  %m2 = waveasm.v_mov_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.vreg
  %m3 = waveasm.v_mov_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.vreg
  %m4 = waveasm.v_mov_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.vreg
  %e = waveasm.extract %d3[3] : !waveasm.vreg<4, 4> -> !waveasm.vreg
  %f = waveasm.v_add_f32 %e, %m4 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// MFMA read latency follows the producer and the target: 32x32x8 f16 on
// gfx942 is 8 passes (12 wait states), 16x16x16 f16 4 passes (8); an LDS
// write of the result counts like VMEM. A different opcode reading the
// result as SrcC is no accumulator chain.
// CHECK-LABEL: waveasm.program @mfma_32x32
// CHECK:      waveasm.v_mfma_f32_32x32x8_f16
// CHECK-NEXT: waveasm.extract
// CHECK-NEXT: waveasm.s_nop 7
// CHECK-NEXT: waveasm.s_nop 3
// CHECK-NEXT: waveasm.ds_write_b128
// CHECK:      %[[P:.*]] = waveasm.v_mfma_f32_16x16x16_f16
// CHECK-NEXT: waveasm.s_nop 7
// CHECK-NEXT: waveasm.v_mfma_f32_16x16x16_bf16 %{{.*}}, %{{.*}}, %[[P]]
waveasm.program @mfma_32x32 target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %ab = waveasm.precolored.vreg 2, 2 : !waveasm.pvreg<2, 2>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %d = waveasm.v_mfma_f32_32x32x8_f16 %ab, %ab, %c0 : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.imm<0> -> !waveasm.vreg<16, 4>
  %q = waveasm.extract %d[4] : !waveasm.vreg<16, 4> -> !waveasm.vreg<4, 4>
  waveasm.ds_write_b128 %q, %v0 : !waveasm.vreg<4, 4>, !waveasm.pvreg<0>
  %p = waveasm.v_mfma_f32_16x16x16_f16 %ab, %ab, %c0 : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %r = waveasm.v_mfma_f32_16x16x16_bf16 %ab, %ab, %p : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  waveasm.s_endpgm
}

// -----

// CHECK-LABEL: waveasm.program @mfma_gfx950
// CHECK:      waveasm.v_mfma_f32_16x16x16_f16
// CHECK-NEXT: waveasm.extract
// CHECK-NEXT: waveasm.extract
// CHECK-NEXT: waveasm.s_nop 7
// CHECK-NEXT: waveasm.v_cvt_pk_bf16_f32
waveasm.program @mfma_gfx950 target = #waveasm.target<#waveasm.gfx950> abi = #waveasm.abi<> {
  %ab = waveasm.precolored.vreg 2, 2 : !waveasm.pvreg<2, 2>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %d = waveasm.v_mfma_f32_16x16x16_f16 %ab, %ab, %c0 : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %e0 = waveasm.extract %d[0] : !waveasm.vreg<4, 4> -> !waveasm.vreg
  %e1 = waveasm.extract %d[1] : !waveasm.vreg<4, 4> -> !waveasm.vreg
  %h = waveasm.v_cvt_pk_bf16_f32 %e0, %e1 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// A 3-4 dword store reads its data VGPRs after issue: overwriting them next
// needs 1 wait state (allocated IR: only there is a register rewritten). A
// 2-dword store does not.
// CHECK-LABEL: waveasm.program @store_data
// CHECK:      waveasm.buffer_store_dwordx4
// CHECK-NEXT: waveasm.s_nop 0
// CHECK-NEXT: waveasm.v_mov_b32 {{.*}} -> !waveasm.pvreg<6>
// CHECK-NEXT: waveasm.global_store_dwordx3
// CHECK-NEXT: waveasm.s_nop 0
// CHECK-NEXT: waveasm.buffer_load_dword {{.*}} -> !waveasm.pvreg<10>
// CHECK-NEXT: waveasm.buffer_store_dwordx2
// CHECK-NEXT: waveasm.v_mov_b32 {{.*}} -> !waveasm.pvreg<20>
waveasm.program @store_data target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %ptr = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %d = waveasm.precolored.vreg 4, 4 : !waveasm.pvreg<4, 4>
  %e = waveasm.precolored.vreg 8, 3 : !waveasm.pvreg<8, 3>
  %f = waveasm.precolored.vreg 20, 2 : !waveasm.pvreg<20, 2>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  waveasm.buffer_store_dwordx4 %d, %srd, %v0 : !waveasm.pvreg<4, 4>, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  %w = waveasm.v_mov_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.pvreg<6>
  waveasm.global_store_dwordx3 %e, %ptr, %v0 : !waveasm.pvreg<8, 3>, !waveasm.psreg<0, 2>, !waveasm.pvreg<0>
  %l = waveasm.buffer_load_dword %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.pvreg<10>
  waveasm.buffer_store_dwordx2 %f, %srd, %v0 : !waveasm.pvreg<20, 2>, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  %x = waveasm.v_mov_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.pvreg<20>
  waveasm.s_endpgm
}
