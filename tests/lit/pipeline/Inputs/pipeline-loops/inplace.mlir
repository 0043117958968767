// a[k] += 1 in place: the store of iteration k and the load of iteration
// k + 1 use the same descriptor with per-iteration offsets, which the alias
// analysis cannot separate, so loads and stores share a stage and the loop
// cannot be pipelined.
waveasm.program @inplace target = #waveasm.target<#waveasm.gfx942, 5>
    abi = #waveasm.abi<tid = 0, kernarg = 0>
    attributes {workgroup_size = [64, 1, 1]} {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd_a = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %voff = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %k_end = waveasm.loop (%k = %k0) : (!waveasm.sreg) -> !waveasm.sreg {
    %soff:2 = waveasm.s_lshl_b32 %k, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.sreg, !waveasm.scc
    %addr = waveasm.v_add_u32 %voff, %soff#0 : !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg
    %a = waveasm.buffer_load_dword %srd_a, %addr, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %a1 = waveasm.v_add_u32 %a, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    waveasm.buffer_store_dword %a1, %srd_a, %addr : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
    %k1:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %k1#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%k1#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}
