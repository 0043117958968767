// Two loads, then a store of each: a ticketed wait lets the first store go
// after `vmcnt(1)`; without tickets it waits for 0. No workgroup_size: the
// tool's defaults decide (insert-waitcnt-by-workgroup.mlir).
// TICKET: waveasm.s_waitcnt_vmcnt 1
// TICKET-NEXT: waveasm.buffer_store_dword
// ZERO: waveasm.s_waitcnt_vmcnt 0
// ZERO-NEXT: waveasm.buffer_store_dword
waveasm.program @no_size target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %a = waveasm.buffer_load_dword %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %b = waveasm.buffer_load_dword %srd, %v0, %c0 offset : 4 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %a, %srd, %v0 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.buffer_store_dword %b, %srd, %v0 offset : 4 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}
