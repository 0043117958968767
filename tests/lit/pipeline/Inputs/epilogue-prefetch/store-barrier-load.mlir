waveasm.program @xw
  target = #waveasm.target<#waveasm.gfx942, 5>
  abi = #waveasm.abi<tid = 0, kernarg = 0>
  attributes {vgprs = 128 : i64, sgprs = 48 : i64, lds_size = 0 : i64,
              workgroup_size = [128, 1, 1]} {
  %tid   = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd_a = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %srd_c = waveasm.precolored.sreg 12, 4 : !waveasm.psreg<12, 4>
  %srd_d = waveasm.precolored.sreg 16, 4 : !waveasm.psreg<16, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c3 = waveasm.constant 3 : !waveasm.imm<3>
  %c64 = waveasm.constant 64 : !waveasm.imm<64>
  %c512 = waveasm.constant 512 : !waveasm.imm<512>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %other = waveasm.v_xor_b32 %c64, %tid : !waveasm.imm<64>, !waveasm.pvreg<0> -> !waveasm.vreg
  %ooff = waveasm.v_lshlrev_b32 %c2, %other : !waveasm.imm<2>, !waveasm.vreg -> !waveasm.vreg
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %n0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %kend, %s = waveasm.loop (%k = %k0, %sum = %z) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %koff = waveasm.s_mul_i32 %k, %c512 : !waveasm.sreg, !waveasm.imm<512> -> !waveasm.sreg
    %x = waveasm.buffer_load_dword %srd_a, %off, %koff : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg
    %sum2 = waveasm.v_add_u32 %sum, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %m = waveasm.s_cmp_lt_u32 %kn#0, %c16 : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
    waveasm.condition %m : !waveasm.scc iter_args(%kn#0, %sum2) : !waveasm.sreg, !waveasm.vreg
  }
  waveasm.buffer_store_dword %s, %srd_c, %off : !waveasm.vreg, !waveasm.psreg<12, 4>, !waveasm.vreg
  waveasm.s_barrier
  %y = waveasm.buffer_load_dword %srd_c, %off, %c0 offset : 256 : !waveasm.psreg<12, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %y, %srd_d, %off : !waveasm.vreg, !waveasm.psreg<16, 4>, !waveasm.vreg
  waveasm.s_endpgm
}
