// Two LDS buffers swapped by hand: iteration k loads slice k+1 of A into
// the write base %w and reads slice k from the read base %r (its load was
// published by the previous iteration's barrier). The load and the read
// touch different buffers in every iteration (analysis/LdsRotation.h), so
// waveasm-loads-after-reads moves the load (its M0 write and offset) after
// the read, before the barrier. An SCC reader or a global store between
// them (SCC and STORE below, put in by sed) forbids the move.
waveasm.program @two_buffers
  target = #waveasm.target<#waveasm.gfx950, 5>
  abi = #waveasm.abi<tid = 0, kernarg = 0, wg_id_x = 6>
  attributes {vgprs = 32 : i64, sgprs = 32 : i64, lds_size = 512 : i64,
              workgroup_size = [64, 1, 1]} {
  %tid   = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd_a = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %srd_c = waveasm.precolored.sreg 12, 4 : !waveasm.psreg<12, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c256 = waveasm.constant 256 : !waveasm.imm<256>
  %ksteps = waveasm.constant 32 : !waveasm.imm<32>
  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %b0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %b1 = waveasm.s_mov_b32 %c256 : !waveasm.imm<256> -> !waveasm.sreg
  waveasm.s_mov_b32_m0 %b0 : !waveasm.sreg
  waveasm.buffer_load_dword_lds %off, %srd_a, %c0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.imm<0>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  waveasm.s_barrier
  %res:4 = waveasm.loop (%k = %k0, %r = %b0, %w = %b1, %acc = %z)
      : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.vreg)
     -> (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.vreg) {
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %soff:2 = waveasm.s_lshl_b32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.sreg, !waveasm.scc
    waveasm.s_mov_b32_m0 %w : !waveasm.sreg
    waveasm.buffer_load_dword_lds %off, %srd_a, %soff#0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.sreg
    %addr = waveasm.v_add_u32 %r, %off : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
    %x = waveasm.ds_read_b32 %addr : !waveasm.vreg -> !waveasm.vreg
    %sum = waveasm.v_add_u32 %acc, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    // SCC
    // STORE
    waveasm.s_barrier
    %more = waveasm.s_cmp_lt_u32 %kn#0, %ksteps : !waveasm.sreg, !waveasm.imm<32> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc
        iter_args(%kn#0, %w, %r, %sum) : !waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.vreg
  }
  waveasm.buffer_store_dword %res#3, %srd_c, %off : !waveasm.vreg, !waveasm.psreg<12, 4>, !waveasm.vreg
  waveasm.s_endpgm
}
