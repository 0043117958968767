// One wave loads a 256-byte slice of A into LDS and reads it back in the
// same iteration (the wait pass puts a vmcnt wait between): the read must
// stay after the load. waveasm-loads-after-reads refuses to move the load
// past it (analysis/LdsRotation.h: the same base, the same bytes);
// same-buffer-sunk.mlir is that move made by hand, which the simulator
// finds different (the read sees the previous iteration's slice).
waveasm.program @same_buffer
  target = #waveasm.target<#waveasm.gfx950, 5>
  abi = #waveasm.abi<tid = 0, kernarg = 0, wg_id_x = 6>
  attributes {vgprs = 32 : i64, sgprs = 32 : i64, lds_size = 256 : i64,
              workgroup_size = [64, 1, 1]} {
  %tid   = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd_a = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %srd_c = waveasm.precolored.sreg 12, 4 : !waveasm.psreg<12, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %ksteps = waveasm.constant 8 : !waveasm.imm<8>
  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %base = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %res:3 = waveasm.loop (%k = %k0, %b = %base, %acc = %z)
      : (!waveasm.sreg, !waveasm.sreg, !waveasm.vreg)
     -> (!waveasm.sreg, !waveasm.sreg, !waveasm.vreg) {
    %soff:2 = waveasm.s_lshl_b32 %k, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.sreg, !waveasm.scc
    waveasm.s_mov_b32_m0 %b : !waveasm.sreg
    waveasm.buffer_load_dword_lds %off, %srd_a, %soff#0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.sreg
    %addr = waveasm.v_add_u32 %b, %off : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
    %x = waveasm.ds_read_b32 %addr : !waveasm.vreg -> !waveasm.vreg
    %sum = waveasm.v_add_u32 %acc, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.s_barrier
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %kn#0, %ksteps : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc
        iter_args(%kn#0, %b, %sum) : !waveasm.sreg, !waveasm.sreg, !waveasm.vreg
  }
  waveasm.buffer_store_dword %res#2, %srd_c, %off : !waveasm.vreg, !waveasm.psreg<12, 4>, !waveasm.vreg
  waveasm.s_endpgm
}
