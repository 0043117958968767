waveasm.program @xw
  target = #waveasm.target<#waveasm.gfx942, 5>
  abi = #waveasm.abi<tid = 0, kernarg = 0>
  attributes {vgprs = 128 : i64, sgprs = 48 : i64, lds_size = 0 : i64,
              workgroup_size = [128, 1, 1]} {
  %tid   = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd_a = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %srd_c = waveasm.precolored.sreg 12, 4 : !waveasm.psreg<12, 4>
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
  %nend, %accout = waveasm.loop (%n = %n0, %acc = %z) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
    %kend, %s = waveasm.loop (%k = %k0, %sum = %acc) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
      %koff = waveasm.s_mul_i32 %k, %c512 : !waveasm.sreg, !waveasm.imm<512> -> !waveasm.sreg
      %x = waveasm.buffer_load_dword %srd_a, %off, %koff : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg
      %sum2 = waveasm.v_add_u32 %sum, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
      %m = waveasm.s_cmp_lt_u32 %kn#0, %c16 : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
      waveasm.condition %m : !waveasm.scc iter_args(%kn#0, %sum2) : !waveasm.sreg, !waveasm.vreg
    }
    waveasm.s_barrier
    %y = waveasm.buffer_load_dword %srd_c, %ooff, %c0 : !waveasm.psreg<12, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %r = waveasm.v_add_u32 %s, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.s_barrier
    %wid = waveasm.v_readfirstlane_b32 %tid : !waveasm.pvreg<0> -> !waveasm.sreg
    %w0 = waveasm.s_cmp_lt_u32 %wid, %c64 : !waveasm.sreg, !waveasm.imm<64> -> !waveasm.scc
    waveasm.if %w0 : !waveasm.scc {
      %d0 = waveasm.v_add_u32 %r, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
      %d1 = waveasm.v_mul_lo_u32 %d0, %d0 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d2 = waveasm.v_mul_lo_u32 %d1, %d1 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d3 = waveasm.v_mul_lo_u32 %d2, %d2 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d4 = waveasm.v_mul_lo_u32 %d3, %d3 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d5 = waveasm.v_mul_lo_u32 %d4, %d4 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d6 = waveasm.v_mul_lo_u32 %d5, %d5 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d7 = waveasm.v_mul_lo_u32 %d6, %d6 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d8 = waveasm.v_mul_lo_u32 %d7, %d7 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d9 = waveasm.v_mul_lo_u32 %d8, %d8 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d10 = waveasm.v_mul_lo_u32 %d9, %d9 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d11 = waveasm.v_mul_lo_u32 %d10, %d10 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d12 = waveasm.v_mul_lo_u32 %d11, %d11 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d13 = waveasm.v_mul_lo_u32 %d12, %d12 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d14 = waveasm.v_mul_lo_u32 %d13, %d13 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d15 = waveasm.v_mul_lo_u32 %d14, %d14 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d16 = waveasm.v_mul_lo_u32 %d15, %d15 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d17 = waveasm.v_mul_lo_u32 %d16, %d16 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d18 = waveasm.v_mul_lo_u32 %d17, %d17 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d19 = waveasm.v_mul_lo_u32 %d18, %d18 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d20 = waveasm.v_mul_lo_u32 %d19, %d19 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d21 = waveasm.v_mul_lo_u32 %d20, %d20 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d22 = waveasm.v_mul_lo_u32 %d21, %d21 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d23 = waveasm.v_mul_lo_u32 %d22, %d22 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d24 = waveasm.v_mul_lo_u32 %d23, %d23 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d25 = waveasm.v_mul_lo_u32 %d24, %d24 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d26 = waveasm.v_mul_lo_u32 %d25, %d25 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d27 = waveasm.v_mul_lo_u32 %d26, %d26 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d28 = waveasm.v_mul_lo_u32 %d27, %d27 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d29 = waveasm.v_mul_lo_u32 %d28, %d28 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d30 = waveasm.v_mul_lo_u32 %d29, %d29 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d31 = waveasm.v_mul_lo_u32 %d30, %d30 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d32 = waveasm.v_mul_lo_u32 %d31, %d31 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d33 = waveasm.v_mul_lo_u32 %d32, %d32 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d34 = waveasm.v_mul_lo_u32 %d33, %d33 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d35 = waveasm.v_mul_lo_u32 %d34, %d34 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d36 = waveasm.v_mul_lo_u32 %d35, %d35 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d37 = waveasm.v_mul_lo_u32 %d36, %d36 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d38 = waveasm.v_mul_lo_u32 %d37, %d37 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d39 = waveasm.v_mul_lo_u32 %d38, %d38 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d40 = waveasm.v_mul_lo_u32 %d39, %d39 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d41 = waveasm.v_mul_lo_u32 %d40, %d40 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d42 = waveasm.v_mul_lo_u32 %d41, %d41 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d43 = waveasm.v_mul_lo_u32 %d42, %d42 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d44 = waveasm.v_mul_lo_u32 %d43, %d43 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d45 = waveasm.v_mul_lo_u32 %d44, %d44 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d46 = waveasm.v_mul_lo_u32 %d45, %d45 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d47 = waveasm.v_mul_lo_u32 %d46, %d46 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d48 = waveasm.v_mul_lo_u32 %d47, %d47 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d49 = waveasm.v_mul_lo_u32 %d48, %d48 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d50 = waveasm.v_mul_lo_u32 %d49, %d49 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d51 = waveasm.v_mul_lo_u32 %d50, %d50 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d52 = waveasm.v_mul_lo_u32 %d51, %d51 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d53 = waveasm.v_mul_lo_u32 %d52, %d52 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d54 = waveasm.v_mul_lo_u32 %d53, %d53 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d55 = waveasm.v_mul_lo_u32 %d54, %d54 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d56 = waveasm.v_mul_lo_u32 %d55, %d55 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d57 = waveasm.v_mul_lo_u32 %d56, %d56 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d58 = waveasm.v_mul_lo_u32 %d57, %d57 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d59 = waveasm.v_mul_lo_u32 %d58, %d58 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %d60 = waveasm.v_mul_lo_u32 %d59, %d59 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      waveasm.dce_protect %d60 : !waveasm.vreg
      waveasm.yield
    }
    waveasm.buffer_store_dword %r, %srd_c, %off : !waveasm.vreg, !waveasm.psreg<12, 4>, !waveasm.vreg
    %nn:2 = waveasm.s_add_u32 %n, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %m2 = waveasm.s_cmp_lt_u32 %nn#0, %c3 : !waveasm.sreg, !waveasm.imm<3> -> !waveasm.scc
    waveasm.condition %m2 : !waveasm.scc iter_args(%nn#0, %r) : !waveasm.sreg, !waveasm.vreg
  }
  waveasm.s_endpgm
}
