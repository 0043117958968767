// A ds read whose address v_mad_u32_u24 computes from a factor of 2^24 or
// more: the hardware multiplies the low 24 bits, so it reads the bytes the
// direct-to-LDS load wrote (tid * 4), not 2^26 above them.
waveasm.program @u24 target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<tid = 0> attributes {workgroup_size = [128, 1, 1]} {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %c1024 = waveasm.constant 1024 : !waveasm.imm<1024>
  %big = waveasm.constant 16777216 : !waveasm.imm<16777216>
  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %first = waveasm.v_readfirstlane_b32 %off : !waveasm.vreg -> !waveasm.sreg
  waveasm.s_mov_b32_m0 %first : !waveasm.sreg
  waveasm.buffer_load_dword_lds %off, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.imm<0>
  waveasm.s_barrier
  %t24 = waveasm.v_add_u32 %tid, %big : !waveasm.pvreg<0>, !waveasm.imm<16777216> -> !waveasm.vreg
  %addr = waveasm.v_mad_u32_u24 %t24, %c4, %c0 : !waveasm.vreg, !waveasm.imm<4>, !waveasm.imm<0> -> !waveasm.vreg
  %r = waveasm.ds_read_b32 %addr : !waveasm.vreg -> !waveasm.vreg
  %out = waveasm.v_add_u32 %off, %c1024 : !waveasm.vreg, !waveasm.imm<1024> -> !waveasm.vreg
  waveasm.buffer_store_dword %r, %srd, %out : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
}
