// A K loop without LDS: two buffer loads per iteration feed an MFMA whose
// accumulator is carried; 8 iterations (a counted loop, static trip count).
// The result tile is stored after the loop. The fragments are masked to
// f16 values in [0, 1) so the sums stay finite: a NaN would hide a wrong
// operand from the simulator's comparison.
waveasm.program @dot target = #waveasm.target<#waveasm.gfx942, 5>
    abi = #waveasm.abi<tid = 0, kernarg = 0>
    attributes {workgroup_size = [64, 1, 1]} {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd_a = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %srd_b = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %srd_c = waveasm.precolored.sreg 12, 4 : !waveasm.psreg<12, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c3 = waveasm.constant 3 : !waveasm.imm<3>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %c9 = waveasm.constant 9 : !waveasm.imm<9>
  %cn = waveasm.constant 8 : !waveasm.imm<8>
  %mask = waveasm.constant 1006582783 : !waveasm.imm<1006582783>
  %voff = waveasm.v_lshlrev_b32 %c3, %tid : !waveasm.imm<3>, !waveasm.pvreg<0> -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %zero = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %k_end, %acc = waveasm.loop (%k = %k0, %acc_in = %zero)
      : (!waveasm.sreg, !waveasm.vreg<4, 4>) -> (!waveasm.sreg, !waveasm.vreg<4, 4>) {
    %soff:2 = waveasm.s_lshl_b32 %k, %c9 : !waveasm.sreg, !waveasm.imm<9> -> !waveasm.sreg, !waveasm.scc
    %a = waveasm.buffer_load_dwordx2 %srd_a, %voff, %soff#0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg<2, 2>
    %b = waveasm.buffer_load_dwordx2 %srd_b, %voff, %soff#0 : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg<2, 2>
    %a0 = waveasm.extract %a[0] : !waveasm.vreg<2, 2> -> !waveasm.vreg
    %a1 = waveasm.extract %a[1] : !waveasm.vreg<2, 2> -> !waveasm.vreg
    %b0 = waveasm.extract %b[0] : !waveasm.vreg<2, 2> -> !waveasm.vreg
    %b1 = waveasm.extract %b[1] : !waveasm.vreg<2, 2> -> !waveasm.vreg
    %am0 = waveasm.v_and_b32 %a0, %mask : !waveasm.vreg, !waveasm.imm<1006582783> -> !waveasm.vreg
    %am1 = waveasm.v_and_b32 %a1, %mask : !waveasm.vreg, !waveasm.imm<1006582783> -> !waveasm.vreg
    %bm0 = waveasm.v_and_b32 %b0, %mask : !waveasm.vreg, !waveasm.imm<1006582783> -> !waveasm.vreg
    %bm1 = waveasm.v_and_b32 %b1, %mask : !waveasm.vreg, !waveasm.imm<1006582783> -> !waveasm.vreg
    %am = waveasm.pack %am0, %am1 : (!waveasm.vreg, !waveasm.vreg) -> !waveasm.vreg<2, 2>
    %bm = waveasm.pack %bm0, %bm1 : (!waveasm.vreg, !waveasm.vreg) -> !waveasm.vreg<2, 2>
    %acc_new = waveasm.v_mfma_f32_16x16x16_f16 %am, %bm, %acc_in : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %k1:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %k1#0, %cn : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%k1#0, %acc_new) : !waveasm.sreg, !waveasm.vreg<4, 4>
  }
  %out = waveasm.v_lshlrev_b32 %c4, %tid : !waveasm.imm<4>, !waveasm.pvreg<0> -> !waveasm.vreg
  waveasm.buffer_store_dwordx4 %acc, %srd_c, %out : !waveasm.vreg<4, 4>, !waveasm.psreg<12, 4>, !waveasm.vreg
  waveasm.s_endpgm
}
