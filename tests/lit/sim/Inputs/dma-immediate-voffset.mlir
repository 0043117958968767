// Two waves exchange direct-to-LDS data: each loads one dword (voffset an
// immediate, soffset its first lane id * 4) into its own 256 bytes of LDS
// at M0, waits for it (vmcnt), passes the barrier and reads the other
// wave's bytes.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> attributes {workgroup_size = [128, 1, 1]} {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %out = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c256 = waveasm.constant 256 : !waveasm.imm<256>
  %c511 = waveasm.constant 511 : !waveasm.imm<511>
  %first = waveasm.v_readfirstlane_b32 %tid : !waveasm.pvreg<0> -> !waveasm.psreg<20>
  %base:2 = waveasm.s_lshl_b32 %first, %c2 : !waveasm.psreg<20>, !waveasm.imm<2> -> !waveasm.psreg<21>, !waveasm.scc
  waveasm.s_mov_b32_m0 %base#0 : !waveasm.psreg<21>
  waveasm.s_nop 4
  waveasm.buffer_load_dword_lds %c0, %out, %base#0 : !waveasm.imm<0>, !waveasm.psreg<4, 4>, !waveasm.psreg<21>
  waveasm.s_waitcnt_vmcnt 0
  waveasm.s_barrier
  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.pvreg<1>
  %next = waveasm.v_add_u32 %off, %c256 : !waveasm.pvreg<1>, !waveasm.imm<256> -> !waveasm.pvreg<2>
  %wrapped = waveasm.v_and_b32 %next, %c511 : !waveasm.pvreg<2>, !waveasm.imm<511> -> !waveasm.pvreg<2>
  %other = waveasm.ds_read_b32 %wrapped : !waveasm.pvreg<2> -> !waveasm.pvreg<3>
  waveasm.s_waitcnt_lgkmcnt 0
  waveasm.buffer_store_dword %other, %out, %off offset : 1024 : !waveasm.pvreg<3>, !waveasm.psreg<4, 4>, !waveasm.pvreg<1>
  waveasm.s_endpgm
}
