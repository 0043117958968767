// waveasm-peephole: the rules of SPEC.md 18.5 other than the fusions, each
// with its near misses.
// RUN: waveasm-opt --split-input-file --waveasm-peephole %s | FileCheck %s

// Redundant move: a v_mov_b32 of a VGPR is its source. Not: a move from an
// SGPR, into an AGPR, or into a virtual type of another alignment.
// CHECK-LABEL: waveasm.program @redundant_move
// CHECK-DAG:   %[[X:.*]] = waveasm.precolored.vreg 1 :
// CHECK-DAG:   %[[V:.*]] = waveasm.precolored.vreg 2 :
// CHECK-DAG:   %[[S:.*]] = waveasm.precolored.sreg 4 :
// CHECK:       %[[FS:.*]] = waveasm.v_mov_b32 %[[S]] : !waveasm.sreg -> !waveasm.vreg
// CHECK-NEXT:  %[[FA:.*]] = waveasm.v_mov_b32 %[[X]] : !waveasm.vreg -> !waveasm.areg
// CHECK-NEXT:  %[[FL:.*]] = waveasm.v_mov_b32 %[[X]] : !waveasm.vreg -> !waveasm.vreg<1, 2>
// CHECK-NEXT:  waveasm.dce_protect %[[X]] : !waveasm.vreg
// CHECK-NEXT:  waveasm.dce_protect %[[V]] : !waveasm.pvreg<2>
// CHECK-NEXT:  waveasm.dce_protect %[[FS]]
// CHECK-NEXT:  waveasm.dce_protect %[[FA]]
// CHECK-NEXT:  waveasm.dce_protect %[[FL]]
waveasm.program @redundant_move target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %x = waveasm.precolored.vreg 1 : !waveasm.vreg
  %v = waveasm.precolored.vreg 2 : !waveasm.pvreg<2>
  %s = waveasm.precolored.sreg 4 : !waveasm.sreg
  %m = waveasm.v_mov_b32 %x : !waveasm.vreg -> !waveasm.vreg
  %m2 = waveasm.v_mov_b32 %m : !waveasm.vreg -> !waveasm.vreg
  %mp = waveasm.v_mov_b32 %v : !waveasm.pvreg<2> -> !waveasm.vreg
  %fs = waveasm.v_mov_b32 %s : !waveasm.sreg -> !waveasm.vreg
  %fa = waveasm.v_mov_b32 %x : !waveasm.vreg -> !waveasm.areg
  %fl = waveasm.v_mov_b32 %x : !waveasm.vreg -> !waveasm.vreg<1, 2>
  waveasm.dce_protect %m2 : !waveasm.vreg
  waveasm.dce_protect %mp : !waveasm.vreg
  waveasm.dce_protect %fs : !waveasm.vreg
  waveasm.dce_protect %fa : !waveasm.areg
  waveasm.dce_protect %fl : !waveasm.vreg<1, 2>
  waveasm.s_endpgm
}

// -----

// Multiplications by 2^k and -2^k become shifts (also of an SGPR); 6 is no
// power of two.
// CHECK-LABEL: waveasm.program @mul_pow2
// CHECK-DAG:   %[[X:.*]] = waveasm.precolored.vreg 1 :
// CHECK-DAG:   %[[S:.*]] = waveasm.precolored.sreg 4 :
// CHECK:       %[[K3:.*]] = waveasm.constant 3 :
// CHECK-NEXT:  %[[P:.*]] = waveasm.v_lshlrev_b32 %[[K3]], %[[X]] : !waveasm.imm<3>, !waveasm.vreg -> !waveasm.vreg
// CHECK-NEXT:  %[[K4:.*]] = waveasm.constant 4 :
// CHECK-NEXT:  %[[T:.*]] = waveasm.v_lshlrev_b32 %[[K4]], %[[X]] : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
// CHECK-NEXT:  %[[Z:.*]] = waveasm.constant 0 :
// CHECK-NEXT:  %[[N:.*]] = waveasm.v_sub_u32 %[[Z]], %[[T]] : !waveasm.imm<0>, !waveasm.vreg -> !waveasm.vreg
// CHECK-NEXT:  %[[K7:.*]] = waveasm.constant 7 :
// CHECK-NEXT:  %[[Q:.*]] = waveasm.v_lshlrev_b32 %[[K7]], %[[S]] : !waveasm.imm<7>, !waveasm.sreg -> !waveasm.vreg
// CHECK-NEXT:  %[[R:.*]] = waveasm.v_mul_lo_u32 %[[X]], %{{.*}} : !waveasm.vreg, !waveasm.imm<6> -> !waveasm.vreg
// CHECK-NEXT:  waveasm.dce_protect %[[P]]
// CHECK-NEXT:  waveasm.dce_protect %[[N]]
// CHECK-NEXT:  waveasm.dce_protect %[[Q]]
// CHECK-NEXT:  waveasm.dce_protect %[[R]]
waveasm.program @mul_pow2 target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %x = waveasm.precolored.vreg 1 : !waveasm.vreg
  %s = waveasm.precolored.sreg 4 : !waveasm.sreg
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %cm16 = waveasm.constant -16 : !waveasm.imm<-16>
  %c128 = waveasm.constant 128 : !waveasm.imm<128>
  %c6 = waveasm.constant 6 : !waveasm.imm<6>
  %p = waveasm.v_mul_lo_u32 %x, %c8 : !waveasm.vreg, !waveasm.imm<8> -> !waveasm.vreg
  %n = waveasm.v_mul_lo_u32 %cm16, %x : !waveasm.imm<-16>, !waveasm.vreg -> !waveasm.vreg
  %q = waveasm.v_mul_lo_u32 %s, %c128 : !waveasm.sreg, !waveasm.imm<128> -> !waveasm.vreg
  %r = waveasm.v_mul_lo_u32 %x, %c6 : !waveasm.vreg, !waveasm.imm<6> -> !waveasm.vreg
  waveasm.dce_protect %p : !waveasm.vreg
  waveasm.dce_protect %n : !waveasm.vreg
  waveasm.dce_protect %q : !waveasm.vreg
  waveasm.dce_protect %r : !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// Constant folding in 32 bits (sums and products wrap), identities; add 0
// of an SGPR stays (the result must be a VGPR).
// CHECK-LABEL: waveasm.program @folding
// CHECK-DAG:   %[[X:.*]] = waveasm.precolored.vreg 1 :
// CHECK-DAG:   %[[S:.*]] = waveasm.precolored.sreg 4 :
// CHECK:       %[[K12:.*]] = waveasm.constant 12 :
// CHECK-NEXT:  %[[A:.*]] = waveasm.v_mov_b32 %[[K12]] : !waveasm.imm<12> -> !waveasm.vreg
// CHECK-NEXT:  %[[K1:.*]] = waveasm.constant 1 :
// CHECK-NEXT:  %[[W:.*]] = waveasm.v_mov_b32 %[[K1]] : !waveasm.imm<1> -> !waveasm.vreg
// CHECK-NEXT:  %[[K0:.*]] = waveasm.constant 0 :
// CHECK-NEXT:  %[[P:.*]] = waveasm.v_mov_b32 %[[K0]] : !waveasm.imm<0> -> !waveasm.vreg
// CHECK-NEXT:  %[[K15:.*]] = waveasm.constant 15 :
// CHECK-NEXT:  %[[M:.*]] = waveasm.v_mov_b32 %[[K15]] : !waveasm.imm<15> -> !waveasm.vreg
// CHECK-NEXT:  %[[K0B:.*]] = waveasm.constant 0 :
// CHECK-NEXT:  %[[Z:.*]] = waveasm.v_mov_b32 %[[K0B]] : !waveasm.imm<0> -> !waveasm.vreg
// CHECK-NEXT:  %[[SA:.*]] = waveasm.v_add_u32 %[[S]], %{{.*}} : !waveasm.sreg, !waveasm.imm<0> -> !waveasm.vreg
// CHECK-NEXT:  waveasm.dce_protect %[[A]]
// CHECK-NEXT:  waveasm.dce_protect %[[W]]
// CHECK-NEXT:  waveasm.dce_protect %[[P]]
// CHECK-NEXT:  waveasm.dce_protect %[[M]]
// CHECK-NEXT:  waveasm.dce_protect %[[X]] : !waveasm.vreg
// CHECK-NEXT:  waveasm.dce_protect %[[X]] : !waveasm.vreg
// CHECK-NEXT:  waveasm.dce_protect %[[Z]]
// CHECK-NEXT:  waveasm.dce_protect %[[SA]]
waveasm.program @folding target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %x = waveasm.precolored.vreg 1 : !waveasm.vreg
  %s = waveasm.precolored.sreg 4 : !waveasm.sreg
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c3 = waveasm.constant 3 : !waveasm.imm<3>
  %c5 = waveasm.constant 5 : !waveasm.imm<5>
  %c7 = waveasm.constant 7 : !waveasm.imm<7>
  %cmax = waveasm.constant 4294967295 : !waveasm.imm<4294967295>
  %c64k = waveasm.constant 65536 : !waveasm.imm<65536>
  %m5 = waveasm.v_mov_b32 %c5 : !waveasm.imm<5> -> !waveasm.vreg
  %a = waveasm.v_add_u32 %c5, %c7 : !waveasm.imm<5>, !waveasm.imm<7> -> !waveasm.vreg
  %w = waveasm.v_add_u32 %cmax, %c2 : !waveasm.imm<4294967295>, !waveasm.imm<2> -> !waveasm.vreg
  %p = waveasm.v_mul_lo_u32 %c64k, %c64k : !waveasm.imm<65536>, !waveasm.imm<65536> -> !waveasm.vreg
  %m = waveasm.v_mul_lo_u32 %m5, %c3 : !waveasm.vreg, !waveasm.imm<3> -> !waveasm.vreg
  %i1 = waveasm.v_add_u32 %c0, %x : !waveasm.imm<0>, !waveasm.vreg -> !waveasm.vreg
  %i2 = waveasm.v_mul_lo_u32 %x, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
  %z = waveasm.v_mul_lo_u32 %x, %c0 : !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  %sa = waveasm.v_add_u32 %s, %c0 : !waveasm.sreg, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.dce_protect %a : !waveasm.vreg
  waveasm.dce_protect %w : !waveasm.vreg
  waveasm.dce_protect %p : !waveasm.vreg
  waveasm.dce_protect %m : !waveasm.vreg
  waveasm.dce_protect %i1 : !waveasm.vreg
  waveasm.dce_protect %i2 : !waveasm.vreg
  waveasm.dce_protect %z : !waveasm.vreg
  waveasm.dce_protect %sa : !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// Shift pair: (x >> 4) << 4 = x & -16 (an inline constant). Not: different
// amounts, amount 0, or an SGPR with a literal mask (constant bus).
// CHECK-LABEL: waveasm.program @shift_pair
// CHECK-DAG:   %[[X:.*]] = waveasm.precolored.vreg 1 :
// CHECK:       %[[M:.*]] = waveasm.constant -16 :
// CHECK-NEXT:  %[[A:.*]] = waveasm.v_and_b32 %[[M]], %[[X]] : !waveasm.imm<-16>, !waveasm.vreg -> !waveasm.vreg
// CHECK:       waveasm.v_lshrrev_b32
// CHECK:       waveasm.v_lshlrev_b32
// CHECK:       waveasm.v_lshrrev_b32
// CHECK:       waveasm.v_lshlrev_b32
// CHECK:       waveasm.v_lshrrev_b32
// CHECK:       waveasm.v_lshlrev_b32
// CHECK-NOT:   waveasm.v_and_b32
waveasm.program @shift_pair target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %x = waveasm.precolored.vreg 1 : !waveasm.vreg
  %s = waveasm.precolored.sreg 4 : !waveasm.sreg
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %c5 = waveasm.constant 5 : !waveasm.imm<5>
  %c31 = waveasm.constant 31 : !waveasm.imm<31>
  %r = waveasm.v_lshrrev_b32 %c4, %x : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
  %l = waveasm.v_lshlrev_b32 %c4, %r : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
  %r2 = waveasm.v_lshrrev_b32 %c4, %x : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
  %l2 = waveasm.v_lshlrev_b32 %c5, %r2 : !waveasm.imm<5>, !waveasm.vreg -> !waveasm.vreg
  %r3 = waveasm.v_lshrrev_b32 %c0, %x : !waveasm.imm<0>, !waveasm.vreg -> !waveasm.vreg
  %l3 = waveasm.v_lshlrev_b32 %c0, %r3 : !waveasm.imm<0>, !waveasm.vreg -> !waveasm.vreg
  %r4 = waveasm.v_lshrrev_b32 %c31, %s : !waveasm.imm<31>, !waveasm.sreg -> !waveasm.vreg
  %l4 = waveasm.v_lshlrev_b32 %c31, %r4 : !waveasm.imm<31>, !waveasm.vreg -> !waveasm.vreg
  waveasm.dce_protect %l : !waveasm.vreg
  waveasm.dce_protect %l2 : !waveasm.vreg
  waveasm.dce_protect %l3 : !waveasm.vreg
  waveasm.dce_protect %l4 : !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// a + (0 - b) = a - b, in either operand order; 1 - b is no negation.
// CHECK-LABEL: waveasm.program @add_of_negation
// CHECK-DAG:   %[[A:.*]] = waveasm.precolored.vreg 1 :
// CHECK-DAG:   %[[B:.*]] = waveasm.precolored.vreg 2 :
// CHECK:       %[[D:.*]] = waveasm.v_sub_u32 %[[A]], %[[B]] : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
// CHECK-NEXT:  %[[E:.*]] = waveasm.v_sub_u32 %[[A]], %[[B]] : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
// CHECK-NEXT:  %[[N1:.*]] = waveasm.v_sub_u32 %{{.*}}, %[[B]] : !waveasm.imm<1>, !waveasm.vreg -> !waveasm.vreg
// CHECK-NEXT:  %[[F:.*]] = waveasm.v_add_u32 %[[A]], %[[N1]]
waveasm.program @add_of_negation target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %a = waveasm.precolored.vreg 1 : !waveasm.vreg
  %b = waveasm.precolored.vreg 2 : !waveasm.vreg
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %n = waveasm.v_sub_u32 %c0, %b : !waveasm.imm<0>, !waveasm.vreg -> !waveasm.vreg
  %d = waveasm.v_add_u32 %a, %n : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %n2 = waveasm.v_sub_u32 %c0, %b : !waveasm.imm<0>, !waveasm.vreg -> !waveasm.vreg
  %e = waveasm.v_add_u32 %n2, %a : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %n1 = waveasm.v_sub_u32 %c1, %b : !waveasm.imm<1>, !waveasm.vreg -> !waveasm.vreg
  %f = waveasm.v_add_u32 %a, %n1 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.dce_protect %d : !waveasm.vreg
  waveasm.dce_protect %e : !waveasm.vreg
  waveasm.dce_protect %f : !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// MFMA zero accumulator: a single-use v_mov_b32 0 becomes the immediate 0.
// Not: `no_cse` (the accumulator zero-inits of loops), or a move with two
// users.
// CHECK-LABEL: waveasm.program @mfma_zero_acc
// CHECK:       %[[C0:.*]] = waveasm.constant 0 :
// CHECK-NEXT:  %[[KEEP:.*]] = waveasm.v_mov_b32 %[[C0]] {no_cse}
// CHECK-NEXT:  %[[TWO:.*]] = waveasm.v_mov_b32 %[[C0]] : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
// CHECK-NEXT:  waveasm.v_mfma_f32_16x16x16_f16 %{{.*}}, %{{.*}}, %[[C0]] : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
// CHECK-NEXT:  waveasm.v_mfma_f32_16x16x16_f16 %{{.*}}, %{{.*}}, %[[KEEP]]
// CHECK-NEXT:  waveasm.v_mfma_f32_16x16x16_f16 %{{.*}}, %{{.*}}, %[[TWO]]
// CHECK-NEXT:  waveasm.v_mfma_f32_16x16x16_f16 %{{.*}}, %{{.*}}, %[[TWO]]
waveasm.program @mfma_zero_acc target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %a = waveasm.precolored.vreg 2, 2 : !waveasm.vreg<2, 2>
  %b = waveasm.precolored.vreg 4, 2 : !waveasm.vreg<2, 2>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %keep = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %two = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %d0 = waveasm.v_mfma_f32_16x16x16_f16 %a, %b, %z : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  %d1 = waveasm.v_mfma_f32_16x16x16_f16 %a, %b, %keep : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  %d2 = waveasm.v_mfma_f32_16x16x16_f16 %a, %b, %two : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  %d3 = waveasm.v_mfma_f32_16x16x16_f16 %a, %b, %two : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  waveasm.dce_protect %d0 : !waveasm.vreg<4, 4>
  waveasm.dce_protect %d1 : !waveasm.vreg<4, 4>
  waveasm.dce_protect %d2 : !waveasm.vreg<4, 4>
  waveasm.dce_protect %d3 : !waveasm.vreg<4, 4>
  waveasm.s_endpgm
}

// -----

// Fold constant moves: a single-use v_mov_b32 C read by v_add_u32,
// v_sub_u32, v_and_b32 or as a shift amount is replaced by C. Not: a move
// with two users, a shifted value (not an amount), a literal in src1 of
// v_sub_u32 (the emitter would stage it again), a literal next to an SGPR.
// CHECK-LABEL: waveasm.program @fold_constant_moves
// CHECK-DAG:   %[[X:.*]] = waveasm.precolored.vreg 1 :
// CHECK-DAG:   %[[S:.*]] = waveasm.precolored.sreg 4 :
// CHECK-DAG:   %[[C16:.*]] = waveasm.constant 16 :
// CHECK-DAG:   %[[C8:.*]] = waveasm.constant 8 :
// CHECK-DAG:   %[[C1000:.*]] = waveasm.constant 1000 :
// CHECK:       %[[TWICE:.*]] = waveasm.v_mov_b32 %[[C8]]
// CHECK-NEXT:  %[[VAL:.*]] = waveasm.v_mov_b32 %[[C8]]
// CHECK-NEXT:  %[[LIT:.*]] = waveasm.v_mov_b32 %[[C1000]]
// CHECK-NEXT:  %[[LIT2:.*]] = waveasm.v_mov_b32 %[[C1000]]
// CHECK-NEXT:  waveasm.v_add_u32 %[[X]], %[[C16]] : !waveasm.vreg, !waveasm.imm<16> -> !waveasm.vreg
// CHECK-NEXT:  waveasm.v_sub_u32 %[[X]], %[[C8]] : !waveasm.vreg, !waveasm.imm<8> -> !waveasm.vreg
// CHECK-NEXT:  waveasm.v_and_b32 %[[C1000]], %[[X]] : !waveasm.imm<1000>, !waveasm.vreg -> !waveasm.vreg
// CHECK-NEXT:  waveasm.v_lshrrev_b32 %[[C8]], %[[X]] : !waveasm.imm<8>, !waveasm.vreg -> !waveasm.vreg
// CHECK-NEXT:  waveasm.v_add_u32 %[[X]], %[[TWICE]]
// CHECK-NEXT:  waveasm.v_add_u32 %[[TWICE]], %[[X]]
// CHECK-NEXT:  waveasm.v_lshrrev_b32 %[[X]], %[[VAL]]
// CHECK-NEXT:  waveasm.v_sub_u32 %[[X]], %[[LIT]]
// CHECK-NEXT:  waveasm.v_and_b32 %[[S]], %[[LIT2]]
waveasm.program @fold_constant_moves target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %x = waveasm.precolored.vreg 1 : !waveasm.vreg
  %s = waveasm.precolored.sreg 4 : !waveasm.sreg
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c1000 = waveasm.constant 1000 : !waveasm.imm<1000>
  %m16 = waveasm.v_mov_b32 %c16 : !waveasm.imm<16> -> !waveasm.vreg
  %m8 = waveasm.v_mov_b32 %c8 : !waveasm.imm<8> -> !waveasm.vreg
  %mlit = waveasm.v_mov_b32 %c1000 : !waveasm.imm<1000> -> !waveasm.vreg
  %mamt = waveasm.v_mov_b32 %c8 : !waveasm.imm<8> -> !waveasm.vreg
  %twice = waveasm.v_mov_b32 %c8 : !waveasm.imm<8> -> !waveasm.vreg
  %val = waveasm.v_mov_b32 %c8 : !waveasm.imm<8> -> !waveasm.vreg
  %lit = waveasm.v_mov_b32 %c1000 : !waveasm.imm<1000> -> !waveasm.vreg
  %lit2 = waveasm.v_mov_b32 %c1000 : !waveasm.imm<1000> -> !waveasm.vreg
  %r1 = waveasm.v_add_u32 %x, %m16 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %r2 = waveasm.v_sub_u32 %x, %m8 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %r3 = waveasm.v_and_b32 %mlit, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %r4 = waveasm.v_lshrrev_b32 %mamt, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %r5 = waveasm.v_add_u32 %x, %twice : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %r6 = waveasm.v_add_u32 %twice, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %r7 = waveasm.v_lshrrev_b32 %x, %val : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %r8 = waveasm.v_sub_u32 %x, %lit : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %r9 = waveasm.v_and_b32 %s, %lit2 : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.dce_protect %r1 : !waveasm.vreg
  waveasm.dce_protect %r2 : !waveasm.vreg
  waveasm.dce_protect %r3 : !waveasm.vreg
  waveasm.dce_protect %r4 : !waveasm.vreg
  waveasm.dce_protect %r5 : !waveasm.vreg
  waveasm.dce_protect %r6 : !waveasm.vreg
  waveasm.dce_protect %r7 : !waveasm.vreg
  waveasm.dce_protect %r8 : !waveasm.vreg
  waveasm.dce_protect %r9 : !waveasm.vreg
  waveasm.s_endpgm
}
