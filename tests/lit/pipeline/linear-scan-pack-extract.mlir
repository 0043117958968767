// Register aliasing (SPEC.md 14.2, 14.4 step 8): pack operands are computed
// directly into the pack's registers (operand i at base + offset); an
// extract is its source's registers at the index; an insert updates its
// source's registers in place (a move into the slot plus dce_protect). An
// operand that cannot live in the pack (an extract result, a value packed
// twice, a precolored value) is copied first; an insert whose source is
// still needed later works on a copy.
// RUN: waveasm-opt --waveasm-linear-scan %s | FileCheck %s

// CHECK-LABEL: waveasm.program @srd
waveasm.program @srd target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %kargs = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %n = waveasm.constant 4096 : !waveasm.imm<4096>
  // CHECK: %[[PTR:.*]] = waveasm.s_load_dwordx2 {{.*}} -> !waveasm.psreg<2, 2>
  %ptr = waveasm.s_load_dwordx2 %kargs, %c0 : !waveasm.psreg<0, 2>, !waveasm.imm<0> -> !waveasm.sreg<2, 2>
  // CHECK: %[[LO:.*]] = waveasm.extract %[[PTR]][0] : !waveasm.psreg<2, 2> -> !waveasm.psreg<2>
  %lo = waveasm.extract %ptr[0] : !waveasm.sreg<2, 2> -> !waveasm.sreg
  // CHECK: %[[HI:.*]] = waveasm.extract %[[PTR]][1] : !waveasm.psreg<2, 2> -> !waveasm.psreg<3>
  %hi = waveasm.extract %ptr[1] : !waveasm.sreg<2, 2> -> !waveasm.sreg
  // The two words of the descriptor computed here land in s6 and s7.
  // CHECK: %[[W2:.*]] = waveasm.s_mov_b32 {{.*}} -> !waveasm.psreg<6>
  %w2 = waveasm.s_mov_b32 %n : !waveasm.imm<4096> -> !waveasm.sreg
  // CHECK: %[[W3:.*]] = waveasm.s_mov_b32 {{.*}} -> !waveasm.psreg<7>
  %w3 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  // Extract results are copied into the pack's first two words.
  // CHECK: %[[C0:.*]] = waveasm.s_mov_b32 %[[LO]] : !waveasm.psreg<2> -> !waveasm.psreg<4>
  // CHECK: %[[C1:.*]] = waveasm.s_mov_b32 %[[HI]] : !waveasm.psreg<3> -> !waveasm.psreg<5>
  // CHECK: %[[SRD:.*]] = waveasm.pack %[[C0]], %[[C1]], %[[W2]], %[[W3]] : (!waveasm.psreg<4>, !waveasm.psreg<5>, !waveasm.psreg<6>, !waveasm.psreg<7>) -> !waveasm.psreg<4, 4>
  %srd = waveasm.pack %lo, %hi, %w2, %w3 : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.sreg) -> !waveasm.sreg<4, 4>
  %v = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.sreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %v, %srd, %tid : !waveasm.vreg, !waveasm.sreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

// CHECK-LABEL: waveasm.program @vgpr_pack
waveasm.program @vgpr_pack target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  // CHECK: %[[A:.*]] = waveasm.v_add_u32 {{.*}} -> !waveasm.pvreg<2>
  %a = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  // %a is packed twice: the second time through a copy (v3).
  // CHECK: %[[AC:.*]] = waveasm.v_mov_b32 %[[A]] : !waveasm.pvreg<2> -> !waveasm.pvreg<3>
  // CHECK: %[[P:.*]] = waveasm.pack %[[A]], %[[AC]] : (!waveasm.pvreg<2>, !waveasm.pvreg<3>) -> !waveasm.pvreg<2, 2>
  %p = waveasm.pack %a, %a : (!waveasm.vreg, !waveasm.vreg) -> !waveasm.vreg<2, 2>
  // A precolored operand is copied too (it cannot move).
  // CHECK: %[[TC:.*]] = waveasm.v_mov_b32 %{{.*}} : !waveasm.pvreg<0> -> !waveasm.pvreg<4>
  // CHECK: waveasm.pack %[[TC]], %{{.*}} : (!waveasm.pvreg<4>, !waveasm.pvreg<5>) -> !waveasm.pvreg<4, 2>
  %b = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  %q = waveasm.pack %tid, %b : (!waveasm.pvreg<0>, !waveasm.vreg) -> !waveasm.vreg<2, 2>
  waveasm.ds_write_b64 %p, %tid : !waveasm.vreg<2, 2>, !waveasm.pvreg<0>
  waveasm.ds_write_b64 %q, %tid : !waveasm.vreg<2, 2>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

// CHECK-LABEL: waveasm.program @insert
waveasm.program @insert target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  // CHECK: %[[Q:.*]] = waveasm.buffer_load_dwordx4 {{.*}} -> !waveasm.pvreg<4, 4>
  %q = waveasm.buffer_load_dwordx4 %srd, %tid, %c0 : !waveasm.psreg<0, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  // CHECK: %[[V:.*]] = waveasm.v_add_u32 {{.*}} -> !waveasm.pvreg<1>
  %v = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  // %q dies here: updated in place, v[4:7] slot 2 = v6.
  // CHECK: %[[MV:.*]] = waveasm.v_mov_b32 %[[V]] : !waveasm.pvreg<1> -> !waveasm.pvreg<6>
  // CHECK-NEXT: waveasm.dce_protect %[[MV]] : !waveasm.pvreg<6>
  // CHECK-NEXT: %[[Q2:.*]] = waveasm.insert %[[V]] into %[[Q]][2] : !waveasm.pvreg<1>, !waveasm.pvreg<4, 4> -> !waveasm.pvreg<4, 4>
  %q2 = waveasm.insert %v into %q[2] : !waveasm.vreg, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  // %q2 is stored again below: the next insert works on a copy.
  // CHECK: %[[QC:.*]] = waveasm.v_mov_b32 %[[Q2]] : !waveasm.pvreg<4, 4> -> !waveasm.pvreg<8, 4>
  // CHECK: waveasm.v_mov_b32 %[[V]] : !waveasm.pvreg<1> -> !waveasm.pvreg<8>
  // CHECK: %[[Q3:.*]] = waveasm.insert %[[V]] into %[[QC]][0] : !waveasm.pvreg<1>, !waveasm.pvreg<8, 4> -> !waveasm.pvreg<8, 4>
  %q3 = waveasm.insert %v into %q2[0] : !waveasm.vreg, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  // CHECK: waveasm.buffer_store_dwordx4 %[[Q3]]
  waveasm.buffer_store_dwordx4 %q3, %srd, %tid : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  // CHECK: waveasm.buffer_store_dwordx4 %[[Q2]]
  waveasm.buffer_store_dwordx4 %q2, %srd, %tid : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}
