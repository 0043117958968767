// waveasm-peephole: lshl+or and lshl+add fusion (SPEC.md 18.5), either
// operand order, and the near misses that must stay two ops.
// RUN: waveasm-opt --split-input-file --waveasm-peephole %s | FileCheck %s

// CHECK-LABEL: waveasm.program @lshl_or
// CHECK-DAG:   %[[X:.*]] = waveasm.precolored.vreg 1 :
// CHECK-DAG:   %[[Y:.*]] = waveasm.precolored.vreg 2 :
// CHECK-DAG:   %[[C4:.*]] = waveasm.constant 4 :
// CHECK-NOT:   waveasm.v_lshlrev_b32
// CHECK-NOT:   waveasm.v_or_b32
// CHECK:       %[[F:.*]] = waveasm.v_lshl_or_b32 %[[X]], %[[C4]], %[[Y]] : !waveasm.vreg, !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
// CHECK-NEXT:  %[[G:.*]] = waveasm.v_lshl_or_b32 %[[Y]], %[[C4]], %[[X]] : !waveasm.vreg, !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
// CHECK-NEXT:  waveasm.dce_protect %[[F]]
// CHECK-NEXT:  waveasm.dce_protect %[[G]]
waveasm.program @lshl_or target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %x = waveasm.precolored.vreg 1 : !waveasm.vreg
  %y = waveasm.precolored.vreg 2 : !waveasm.vreg
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %s = waveasm.v_lshlrev_b32 %c4, %x : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
  %o = waveasm.v_or_b32 %s, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %s2 = waveasm.v_lshlrev_b32 %c4, %y : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
  %o2 = waveasm.v_or_b32 %x, %s2 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.dce_protect %o : !waveasm.vreg
  waveasm.dce_protect %o2 : !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// A shift amount held by a v_mov_b32 of a constant counts (SPEC.md 18); the
// fused op takes it as an immediate. One SGPR is fine (one constant-bus
// slot), also twice the same SGPR.
// CHECK-LABEL: waveasm.program @lshl_add
// CHECK-DAG:   %[[S:.*]] = waveasm.precolored.sreg 4 :
// CHECK-DAG:   %[[Y:.*]] = waveasm.precolored.vreg 2 :
// CHECK-DAG:   %[[C3:.*]] = waveasm.constant 3 :
// CHECK-DAG:   %[[C31:.*]] = waveasm.constant 31 :
// CHECK-NOT:   waveasm.v_mov_b32
// CHECK:       %[[F:.*]] = waveasm.v_lshl_add_u32 %[[S]], %[[C3]], %[[Y]] : !waveasm.sreg, !waveasm.imm<3>, !waveasm.vreg -> !waveasm.vreg
// CHECK-NEXT:  %[[G:.*]] = waveasm.v_lshl_add_u32 %[[S]], %[[C31]], %[[S]] : !waveasm.sreg, !waveasm.imm<31>, !waveasm.sreg -> !waveasm.vreg
// CHECK-NOT:   waveasm.v_add_u32
// CHECK-NOT:   waveasm.v_lshlrev_b32
waveasm.program @lshl_add target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 4 : !waveasm.sreg
  %y = waveasm.precolored.vreg 2 : !waveasm.vreg
  %c3 = waveasm.constant 3 : !waveasm.imm<3>
  %c31 = waveasm.constant 31 : !waveasm.imm<31>
  %m3 = waveasm.v_mov_b32 %c3 : !waveasm.imm<3> -> !waveasm.vreg
  %sh = waveasm.v_lshlrev_b32 %m3, %s : !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg
  %a = waveasm.v_add_u32 %y, %sh : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %sh2 = waveasm.v_lshlrev_b32 %c31, %s : !waveasm.imm<31>, !waveasm.sreg -> !waveasm.vreg
  %a2 = waveasm.v_add_u32 %sh2, %s : !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg
  waveasm.dce_protect %a : !waveasm.vreg
  waveasm.dce_protect %a2 : !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// Near misses: the shift has another use; the amount is not a constant;
// two different SGPRs, or an SGPR and a literal (one constant-bus slot);
// lshl+add with an amount outside 0..31; an allocated op.
// CHECK-LABEL: waveasm.program @near_misses
// CHECK-NOT:   waveasm.v_lshl_or_b32
// CHECK-NOT:   waveasm.v_lshl_add_u32
// CHECK:       waveasm.s_endpgm
waveasm.program @near_misses target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %x = waveasm.precolored.vreg 1 : !waveasm.vreg
  %y = waveasm.precolored.vreg 2 : !waveasm.vreg
  %s = waveasm.precolored.sreg 4 : !waveasm.sreg
  %t = waveasm.precolored.sreg 5 : !waveasm.sreg
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %c32 = waveasm.constant 32 : !waveasm.imm<32>
  %big = waveasm.constant 1000 : !waveasm.imm<1000>
  %multi = waveasm.v_lshlrev_b32 %c4, %x : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
  %o1 = waveasm.v_or_b32 %multi, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %a1 = waveasm.v_add_u32 %multi, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %var = waveasm.v_lshlrev_b32 %y, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %o2 = waveasm.v_or_b32 %var, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %ss = waveasm.v_lshlrev_b32 %c4, %s : !waveasm.imm<4>, !waveasm.sreg -> !waveasm.vreg
  %o3 = waveasm.v_or_b32 %ss, %t : !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg
  %sl = waveasm.v_lshlrev_b32 %c4, %s : !waveasm.imm<4>, !waveasm.sreg -> !waveasm.vreg
  %a2 = waveasm.v_add_u32 %sl, %big : !waveasm.vreg, !waveasm.imm<1000> -> !waveasm.vreg
  %wide = waveasm.v_lshlrev_b32 %c32, %x : !waveasm.imm<32>, !waveasm.vreg -> !waveasm.vreg
  %a3 = waveasm.v_add_u32 %wide, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %p = waveasm.v_lshlrev_b32 %c4, %x : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
  %o4 = waveasm.v_or_b32 %p, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.pvreg<9>
  waveasm.dce_protect %o1 : !waveasm.vreg
  waveasm.dce_protect %a1 : !waveasm.vreg
  waveasm.dce_protect %o2 : !waveasm.vreg
  waveasm.dce_protect %o3 : !waveasm.vreg
  waveasm.dce_protect %a2 : !waveasm.vreg
  waveasm.dce_protect %a3 : !waveasm.vreg
  waveasm.dce_protect %o4 : !waveasm.pvreg<9>
  waveasm.s_endpgm
}
