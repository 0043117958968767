// A load into LDS, a barrier, and after it a branch past the s_endpgm to a
// read of the load's bytes (no barrier, no wait in between).
waveasm.program @branch_window target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<tid = 0> attributes {workgroup_size = [128, 1, 1]} {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  waveasm.s_mov_b32_m0 %c0 : !waveasm.imm<0>
  waveasm.buffer_load_dword_lds %tid, %srd, %c0 : !waveasm.pvreg<0>, !waveasm.psreg<4, 4>, !waveasm.imm<0>
  waveasm.s_barrier
  waveasm.s_cbranch_scc1 @L_read
  waveasm.s_endpgm
  waveasm.label @L_read
  %r0 = waveasm.ds_read_b32 %tid : !waveasm.pvreg<0> -> !waveasm.pvreg<2>
  waveasm.buffer_store_dword %r0, %srd, %tid : !waveasm.pvreg<2>, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}
