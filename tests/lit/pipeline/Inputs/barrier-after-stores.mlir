// Input of insert-waitcnt-barrier-stores.test: a store, a prefetch, an
// s_barrier that protects an LDS buffer, then the prefetch's use. In a
// workgroup of one wave the barrier orders nothing and waits for nothing;
// with more waves it waits for the store (other waves may read its bytes
// after it), not for the prefetch.
waveasm.program @stores target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<tid = 0, kernarg = 0>
    attributes {vgprs = 64 : i64, sgprs = 32 : i64, lds_size = 1024 : i64, workgroup_size = [64, 1, 1]} {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %in = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %out = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %voff = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %x = waveasm.buffer_load_dword %in, %voff, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.ds_write_b32 %x, %voff : !waveasm.vreg, !waveasm.vreg
  waveasm.buffer_store_dword %x, %out, %voff : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.vreg
  %p = waveasm.buffer_load_dword %in, %voff, %c0 offset : 1024 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.s_barrier
  %y = waveasm.ds_read_b32 %voff : !waveasm.vreg -> !waveasm.vreg
  %s = waveasm.v_add_u32 %p, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %s, %out, %voff offset : 1024 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.vreg
  waveasm.s_endpgm
}
