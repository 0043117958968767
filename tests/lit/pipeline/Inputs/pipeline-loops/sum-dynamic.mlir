// sum += a[k] * b[k] per lane over a trip count the compiler cannot see:
// n = (buffer word & 0) + TRIPS, so waveasm-pipeline-loops must guard the
// pipelined loop (the lit test substitutes TRIPS: below, at and above the
// number of stages). a[k] * b[k] is a load's direct consumer (stage 1 of 3).
waveasm.program @sum target = #waveasm.target<#waveasm.gfx942, 5>
    abi = #waveasm.abi<tid = 0, kernarg = 0>
    attributes {workgroup_size = [64, 1, 1]} {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd_a = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %srd_b = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %srd_c = waveasm.precolored.sreg 12, 4 : !waveasm.psreg<12, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %trips = waveasm.constant TRIPS : !waveasm.imm<TRIPS>
  %voff = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %word = waveasm.buffer_load_dword %srd_c, %voff, %c0 : !waveasm.psreg<12, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  %sword = waveasm.v_readfirstlane_b32 %word : !waveasm.vreg -> !waveasm.sreg
  %masked:2 = waveasm.s_and_b32 %sword, %c0 : !waveasm.sreg, !waveasm.imm<0> -> !waveasm.sreg, !waveasm.scc
  %n:2 = waveasm.s_add_u32 %masked#0, %trips : !waveasm.sreg, !waveasm.imm<TRIPS> -> !waveasm.sreg, !waveasm.scc
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %zero = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %k_end, %sum = waveasm.loop (%k = %k0, %acc = %zero)
      : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %soff:2 = waveasm.s_lshl_b32 %k, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.sreg, !waveasm.scc
    %a = waveasm.buffer_load_dword %srd_a, %voff, %soff#0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg
    %b = waveasm.buffer_load_dword %srd_b, %voff, %soff#0 : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg
    %p = waveasm.v_mul_lo_u32 %a, %b : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %acc_new = waveasm.v_add_u32 %acc, %p : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %k1:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %k1#0, %n#0 : !waveasm.sreg, !waveasm.sreg -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%k1#0, %acc_new) : !waveasm.sreg, !waveasm.vreg
  }
  %out = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %sum, %srd_c, %out : !waveasm.vreg, !waveasm.psreg<12, 4>, !waveasm.vreg
  %kv = waveasm.v_mov_b32 %k_end : !waveasm.sreg -> !waveasm.vreg
  waveasm.buffer_store_dword %kv, %srd_c, %out offset : 256 : !waveasm.vreg, !waveasm.psreg<12, 4>, !waveasm.vreg
  waveasm.s_endpgm
}
