waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<tid = 0, kernarg = 0> attributes {workgroup_size = [64, 1, 1]} {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %ka = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  %out = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c12 = waveasm.constant 12 : !waveasm.imm<12>
  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.pvreg<1>
  %a = waveasm.s_load_dword %ka, %c8 : !waveasm.psreg<0, 2>, !waveasm.imm<8> -> !waveasm.psreg<20>
  %b = waveasm.s_load_dword %ka, %c12 : !waveasm.psreg<0, 2>, !waveasm.imm<12> -> !waveasm.psreg<21>
  %d = waveasm.ds_read_b32 %off : !waveasm.pvreg<1> -> !waveasm.pvreg<3>
  %e = waveasm.ds_read_b32 %off {offset = 256 : i64} : !waveasm.pvreg<1> -> !waveasm.pvreg<4>
  waveasm.buffer_store_dword %d, %out, %off offset : 1024 : !waveasm.pvreg<3>, !waveasm.psreg<4, 4>, !waveasm.pvreg<1>
  %va = waveasm.v_mov_b32 %a : !waveasm.psreg<20> -> !waveasm.pvreg<5>
  waveasm.buffer_store_dword %va, %out, %off offset : 2048 : !waveasm.pvreg<5>, !waveasm.psreg<4, 4>, !waveasm.pvreg<1>
  %vb = waveasm.v_mov_b32 %b : !waveasm.psreg<21> -> !waveasm.pvreg<6>
  waveasm.buffer_store_dword %vb, %out, %off offset : 3072 : !waveasm.pvreg<6>, !waveasm.psreg<4, 4>, !waveasm.pvreg<1>
  waveasm.buffer_store_dword %e, %out, %off offset : 3584 : !waveasm.pvreg<4>, !waveasm.psreg<4, 4>, !waveasm.pvreg<1>
  waveasm.s_endpgm
}
