waveasm.program @pair_sroot
  target = #waveasm.target<#waveasm.gfx942, 5>
  abi = #waveasm.abi<tid = 0, kernarg = 0>
  attributes {vgprs = 64 : i64, sgprs = 32 : i64, lds_size = 4096 : i64, workgroup_size = [256, 1, 1]} {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c3 = waveasm.constant 3 : !waveasm.imm<3>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %c256 = waveasm.constant 256 : !waveasm.imm<256>
  %v = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %s = waveasm.s_mov_b32 %c256 : !waveasm.imm<256> -> !waveasm.sreg
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r:2 = waveasm.loop (%k = %k0, %acc = %z) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %g = waveasm.buffer_load_dword %srd, %v, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %a = waveasm.v_add_u32 %s, %c16 : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.vreg
    %x = waveasm.ds_read_b64 %a : !waveasm.vreg -> !waveasm.vreg<2, 2>
    %y = waveasm.ds_read_b64 %a {offset = 8 : i64} : !waveasm.vreg -> !waveasm.vreg<2, 2>
    %x0 = waveasm.extract %x[0] : !waveasm.vreg<2, 2> -> !waveasm.vreg
    %y1 = waveasm.extract %y[1] : !waveasm.vreg<2, 2> -> !waveasm.vreg
    %t = waveasm.v_add_u32 %x0, %y1 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %t2 = waveasm.v_add_u32 %t, %g : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %acc2 = waveasm.v_add_u32 %acc, %t2 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0, %acc2) : !waveasm.sreg, !waveasm.vreg
  }
  waveasm.buffer_store_dword %r#1, %srd, %v offset : 2048 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
}
