// waveasm-peephole: the BFE pack identity (SPEC.md 18.2). Packing the four
// bytes of X back in order is X, outside loops too; the chain dies with it.
// Shift amounts and offsets may come from v_mov_b32 of a constant.
// RUN: waveasm-opt --split-input-file --waveasm-peephole %s | FileCheck %s

// CHECK-LABEL: waveasm.program @identity
// CHECK:       %[[X:.*]] = waveasm.buffer_load_dword
// CHECK-NEXT:  waveasm.dce_protect %[[X]] : !waveasm.vreg
// CHECK-NEXT:  waveasm.s_endpgm
waveasm.program @identity target = #waveasm.target<#waveasm.gfx950> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %off = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %c24 = waveasm.constant 24 : !waveasm.imm<24>
  %x = waveasm.buffer_load_dword %srd, %off, %c0 : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %m16 = waveasm.v_mov_b32 %c16 : !waveasm.imm<16> -> !waveasm.vreg
  %b0 = waveasm.v_bfe_u32 %x, %c0, %c8 : !waveasm.vreg, !waveasm.imm<0>, !waveasm.imm<8> -> !waveasm.vreg
  %b1 = waveasm.v_bfe_u32 %x, %c8, %c8 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.imm<8> -> !waveasm.vreg
  %b2 = waveasm.v_bfe_u32 %x, %m16, %c8 : !waveasm.vreg, !waveasm.vreg, !waveasm.imm<8> -> !waveasm.vreg
  %b3 = waveasm.v_bfe_u32 %x, %c24, %c8 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.imm<8> -> !waveasm.vreg
  %p1 = waveasm.v_lshl_or_b32 %b1, %c8, %b0 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.vreg -> !waveasm.vreg
  %p2 = waveasm.v_lshl_or_b32 %b2, %m16, %p1 : !waveasm.vreg, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %p3 = waveasm.v_lshl_or_b32 %b3, %c24, %p2 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.vreg -> !waveasm.vreg
  waveasm.dce_protect %p3 : !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// Inside a loop body, the chain's middle value also used elsewhere: the
// outer op still becomes X, the used part of the chain stays.
// CHECK-LABEL: waveasm.program @in_loop
// CHECK:       waveasm.loop
// CHECK:       %[[X:.*]] = waveasm.buffer_load_dword
// CHECK-NOT:   waveasm.v_bfe_u32 %[[X]], %{{.*}}, %{{.*}} : !waveasm.vreg, !waveasm.imm<24>
// CHECK:       %[[P2:.*]] = waveasm.v_lshl_or_b32 %{{.*}}, %{{.*}}, %{{.*}} : !waveasm.vreg, !waveasm.imm<16>
// CHECK-NOT:   waveasm.v_lshl_or_b32
// CHECK:       waveasm.dce_protect %[[X]] : !waveasm.vreg
// CHECK-NEXT:  waveasm.dce_protect %[[P2]] : !waveasm.vreg
waveasm.program @in_loop target = #waveasm.target<#waveasm.gfx950> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %off = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %c24 = waveasm.constant 24 : !waveasm.imm<24>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r = waveasm.loop (%k = %k0) : (!waveasm.sreg) -> !waveasm.sreg {
    %x = waveasm.buffer_load_dword %srd, %off, %k : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.sreg -> !waveasm.vreg
    %b0 = waveasm.v_bfe_u32 %x, %c0, %c8 : !waveasm.vreg, !waveasm.imm<0>, !waveasm.imm<8> -> !waveasm.vreg
    %b1 = waveasm.v_bfe_u32 %x, %c8, %c8 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.imm<8> -> !waveasm.vreg
    %b2 = waveasm.v_bfe_u32 %x, %c16, %c8 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.imm<8> -> !waveasm.vreg
    %b3 = waveasm.v_bfe_u32 %x, %c24, %c8 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.imm<8> -> !waveasm.vreg
    %p1 = waveasm.v_lshl_or_b32 %b1, %c8, %b0 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.vreg -> !waveasm.vreg
    %p2 = waveasm.v_lshl_or_b32 %b2, %c16, %p1 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.vreg -> !waveasm.vreg
    %p3 = waveasm.v_lshl_or_b32 %b3, %c24, %p2 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.vreg -> !waveasm.vreg
    waveasm.dce_protect %p3 : !waveasm.vreg
    waveasm.dce_protect %p2 : !waveasm.vreg
    %k1:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %k1#0, %c16 : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%k1#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}

// -----

// Near misses: a byte of another value, bytes in the wrong places, a width
// of 4, and an SGPR source (the result must stay a VGPR).
// CHECK-LABEL: waveasm.program @near_misses
// CHECK-COUNT-12: waveasm.v_lshl_or_b32
// CHECK:       waveasm.s_endpgm
waveasm.program @near_misses target = #waveasm.target<#waveasm.gfx950> abi = #waveasm.abi<> {
  %x = waveasm.precolored.vreg 1 : !waveasm.vreg
  %y = waveasm.precolored.vreg 2 : !waveasm.vreg
  %s = waveasm.precolored.sreg 4 : !waveasm.sreg
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %c24 = waveasm.constant 24 : !waveasm.imm<24>
  // Byte 1 of %y.
  %a0 = waveasm.v_bfe_u32 %x, %c0, %c8 : !waveasm.vreg, !waveasm.imm<0>, !waveasm.imm<8> -> !waveasm.vreg
  %a1 = waveasm.v_bfe_u32 %y, %c8, %c8 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.imm<8> -> !waveasm.vreg
  %a2 = waveasm.v_bfe_u32 %x, %c16, %c8 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.imm<8> -> !waveasm.vreg
  %a3 = waveasm.v_bfe_u32 %x, %c24, %c8 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.imm<8> -> !waveasm.vreg
  %ap1 = waveasm.v_lshl_or_b32 %a1, %c8, %a0 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.vreg -> !waveasm.vreg
  %ap2 = waveasm.v_lshl_or_b32 %a2, %c16, %ap1 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.vreg -> !waveasm.vreg
  %ap3 = waveasm.v_lshl_or_b32 %a3, %c24, %ap2 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.vreg -> !waveasm.vreg
  // Bytes 1 and 2 swapped.
  %b0 = waveasm.v_bfe_u32 %x, %c0, %c8 : !waveasm.vreg, !waveasm.imm<0>, !waveasm.imm<8> -> !waveasm.vreg
  %b1 = waveasm.v_bfe_u32 %x, %c16, %c8 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.imm<8> -> !waveasm.vreg
  %b2 = waveasm.v_bfe_u32 %x, %c8, %c8 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.imm<8> -> !waveasm.vreg
  %b3 = waveasm.v_bfe_u32 %x, %c24, %c8 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.imm<8> -> !waveasm.vreg
  %bp1 = waveasm.v_lshl_or_b32 %b1, %c8, %b0 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.vreg -> !waveasm.vreg
  %bp2 = waveasm.v_lshl_or_b32 %b2, %c16, %bp1 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.vreg -> !waveasm.vreg
  %bp3 = waveasm.v_lshl_or_b32 %b3, %c24, %bp2 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.vreg -> !waveasm.vreg
  // Width 4 for the low byte.
  %c0w = waveasm.v_bfe_u32 %x, %c0, %c4 : !waveasm.vreg, !waveasm.imm<0>, !waveasm.imm<4> -> !waveasm.vreg
  %c1w = waveasm.v_bfe_u32 %x, %c8, %c8 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.imm<8> -> !waveasm.vreg
  %c2w = waveasm.v_bfe_u32 %x, %c16, %c8 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.imm<8> -> !waveasm.vreg
  %c3w = waveasm.v_bfe_u32 %x, %c24, %c8 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.imm<8> -> !waveasm.vreg
  %cp1 = waveasm.v_lshl_or_b32 %c1w, %c8, %c0w : !waveasm.vreg, !waveasm.imm<8>, !waveasm.vreg -> !waveasm.vreg
  %cp2 = waveasm.v_lshl_or_b32 %c2w, %c16, %cp1 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.vreg -> !waveasm.vreg
  %cp3 = waveasm.v_lshl_or_b32 %c3w, %c24, %cp2 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.vreg -> !waveasm.vreg
  // The bytes of an SGPR.
  %d0 = waveasm.v_bfe_u32 %s, %c0, %c8 : !waveasm.sreg, !waveasm.imm<0>, !waveasm.imm<8> -> !waveasm.vreg
  %d1 = waveasm.v_bfe_u32 %s, %c8, %c8 : !waveasm.sreg, !waveasm.imm<8>, !waveasm.imm<8> -> !waveasm.vreg
  %d2 = waveasm.v_bfe_u32 %s, %c16, %c8 : !waveasm.sreg, !waveasm.imm<16>, !waveasm.imm<8> -> !waveasm.vreg
  %d3 = waveasm.v_bfe_u32 %s, %c24, %c8 : !waveasm.sreg, !waveasm.imm<24>, !waveasm.imm<8> -> !waveasm.vreg
  %dp1 = waveasm.v_lshl_or_b32 %d1, %c8, %d0 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.vreg -> !waveasm.vreg
  %dp2 = waveasm.v_lshl_or_b32 %d2, %c16, %dp1 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.vreg -> !waveasm.vreg
  %dp3 = waveasm.v_lshl_or_b32 %d3, %c24, %dp2 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.vreg -> !waveasm.vreg
  waveasm.dce_protect %ap3 : !waveasm.vreg
  waveasm.dce_protect %bp3 : !waveasm.vreg
  waveasm.dce_protect %cp3 : !waveasm.vreg
  waveasm.dce_protect %dp3 : !waveasm.vreg
  waveasm.s_endpgm
}
