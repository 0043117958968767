// waveasm-peephole leaves IR that only holds near misses byte-identical,
// dead ops included (canonicalize removes those; v_accvgpr_write_b32 is
// Pure without results, and MLIR's greedy driver would delete it), and
// says why under -debug-only.
// RUN: waveasm-opt %s -o %t.before
// RUN: waveasm-opt --waveasm-peephole %s -o %t.after
// RUN: diff %t.before %t.after
// RUN: waveasm-opt --waveasm-peephole --debug-only=waveasm-peephole %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: 'lshl+or fusion' not applied at {{.*}}: the shift has other uses
// CHECK: 'lshl+add fusion' not applied at {{.*}}: the result would read two SGPRs/literals (one constant-bus slot)
// CHECK: 'add/mul constant folding' not applied at {{.*}}: the identity's other operand is not a VGPR of the result's type
// CHECK: 'shift pair' not applied at {{.*}}: the two shift amounts are not one constant in 1..31
// CHECK: 'MFMA zero accumulator' not applied at {{.*}}: the zero move is `no_cse`
// CHECK: 'fold constant move' not applied at {{.*}}: the constant move has other uses
// CHECK: 'BFE pack identity' not applied at {{.*}}: the packed value is not a VGPR of the result's type
// CHECK: 'lshl+add fusion' not applied at {{.*}}: the scalar shift feeds a direct-to-LDS voffset (kept for the soffset rewrite)
// CHECK: 'BufferLoadLDSSoffset' not applied at {{.*}}: SCC is live at the load; s_lshl_b32 would clobber it
// CHECK: no rule applies to @near_misses
waveasm.program @near_misses target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %x = waveasm.precolored.vreg 1 : !waveasm.vreg
  %y = waveasm.precolored.vreg 2 : !waveasm.vreg
  %s = waveasm.precolored.sreg 4 : !waveasm.sreg
  %t = waveasm.precolored.sreg 5 : !waveasm.sreg
  %srd = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %acc = waveasm.precolored.areg 0 : !waveasm.areg
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %c5 = waveasm.constant 5 : !waveasm.imm<5>
  %c7 = waveasm.constant 7 : !waveasm.imm<7>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %c24 = waveasm.constant 24 : !waveasm.imm<24>
  // A dead op and an AGPR write without results stay.
  %dead = waveasm.v_add_u32 %x, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.v_accvgpr_write_b32 %x, %acc : !waveasm.vreg, !waveasm.areg
  %sh = waveasm.v_lshlrev_b32 %c4, %x : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
  %o = waveasm.v_or_b32 %sh, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.dce_protect %sh : !waveasm.vreg
  %ss = waveasm.v_lshlrev_b32 %c4, %s : !waveasm.imm<4>, !waveasm.sreg -> !waveasm.vreg
  %a = waveasm.v_add_u32 %ss, %t : !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg
  %id = waveasm.v_add_u32 %s, %c0 : !waveasm.sreg, !waveasm.imm<0> -> !waveasm.vreg
  %r = waveasm.v_lshrrev_b32 %c4, %x : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
  %l = waveasm.v_lshlrev_b32 %c5, %r : !waveasm.imm<5>, !waveasm.vreg -> !waveasm.vreg
  %z = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %ab = waveasm.precolored.vreg 10, 2 : !waveasm.vreg<2, 2>
  %m = waveasm.v_mfma_f32_16x16x16_f16 %ab, %ab, %z : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  %m8 = waveasm.v_mov_b32 %c8 : !waveasm.imm<8> -> !waveasm.vreg
  %u = waveasm.v_add_u32 %x, %m8 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.dce_protect %m8 : !waveasm.vreg
  %b0 = waveasm.v_bfe_u32 %s, %c0, %c8 : !waveasm.sreg, !waveasm.imm<0>, !waveasm.imm<8> -> !waveasm.vreg
  %b1 = waveasm.v_bfe_u32 %s, %c8, %c8 : !waveasm.sreg, !waveasm.imm<8>, !waveasm.imm<8> -> !waveasm.vreg
  %b2 = waveasm.v_bfe_u32 %s, %c16, %c8 : !waveasm.sreg, !waveasm.imm<16>, !waveasm.imm<8> -> !waveasm.vreg
  %b3 = waveasm.v_bfe_u32 %s, %c24, %c8 : !waveasm.sreg, !waveasm.imm<24>, !waveasm.imm<8> -> !waveasm.vreg
  %p1 = waveasm.v_lshl_or_b32 %b1, %c8, %b0 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.vreg -> !waveasm.vreg
  %p2 = waveasm.v_lshl_or_b32 %b2, %c16, %p1 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.vreg -> !waveasm.vreg
  %p3 = waveasm.v_lshl_or_b32 %b3, %c24, %p2 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.vreg -> !waveasm.vreg
  %more = waveasm.s_cmp_lt_u32 %s, %c16 : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
  %shift = waveasm.v_lshlrev_b32 %c7, %t : !waveasm.imm<7>, !waveasm.sreg -> !waveasm.vreg
  %voff = waveasm.v_add_u32 %y, %shift : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_load_dword_lds %voff, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.imm<0>
  %sel = waveasm.s_cselect_b32 %more, %s, %t : !waveasm.scc, !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg
  waveasm.dce_protect %o : !waveasm.vreg
  waveasm.dce_protect %a : !waveasm.vreg
  waveasm.dce_protect %id : !waveasm.vreg
  waveasm.dce_protect %l : !waveasm.vreg
  waveasm.dce_protect %m : !waveasm.vreg<4, 4>
  waveasm.dce_protect %u : !waveasm.vreg
  waveasm.dce_protect %p3 : !waveasm.vreg
  waveasm.dce_protect %sel : !waveasm.sreg
  waveasm.s_endpgm
}
