// Input of insert-waitcnt-fold.test: waits of a counted-wait loop body
// (pipeline/FoldWaits.h). Loads A and B, A used, loads C and D, B used,
// then C and D: the wait for B (vmcnt(2) after C and D) folds into the
// one for A as vmcnt(0) (B was issued a slot after A), the wait for D into
// the one for C.
waveasm.program @fold target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<tid = 0, kernarg = 0>
    attributes {vgprs = 64 : i64, sgprs = 32 : i64, workgroup_size = [64, 1, 1]} {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %out = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c256 = waveasm.constant 256 : !waveasm.imm<256>
  %trips = waveasm.constant 8 : !waveasm.imm<8>
  %voff = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %r:2 = waveasm.loop (%k = %k0, %acc = %z) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %soff = waveasm.s_mul_i32 %k, %c256 : !waveasm.sreg, !waveasm.imm<256> -> !waveasm.sreg
    %a = waveasm.buffer_load_dword %srd, %voff, %soff : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg
    %b = waveasm.buffer_load_dword %srd, %voff, %soff offset : 1024 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg
    %x = waveasm.v_add_u32 %a, %acc : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %c = waveasm.buffer_load_dword %srd, %voff, %soff offset : 2048 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg
    %d = waveasm.buffer_load_dword %srd, %voff, %soff offset : 3072 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg
    %y = waveasm.v_add_u32 %b, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %w = waveasm.v_add_u32 %c, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %v = waveasm.v_add_u32 %d, %w : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %kn#0, %trips : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0, %v) : !waveasm.sreg, !waveasm.vreg
  } {waveasm.counted_waits}
  waveasm.buffer_store_dword %r#1, %out, %voff : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.vreg
  waveasm.s_endpgm
}


// Two LDS reads back to back, each read by the next op: the second read
// was issued a slot before the first use's wait, far less than the LDS
// latency, so the wait for it stays at its own use.
waveasm.program @lds target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<tid = 0, kernarg = 0>
    attributes {vgprs = 64 : i64, sgprs = 32 : i64, lds_size = 1024 : i64, workgroup_size = [64, 1, 1]} {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %out = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %trips = waveasm.constant 8 : !waveasm.imm<8>
  %addr = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %r:2 = waveasm.loop (%k = %k0, %acc = %z) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %a = waveasm.ds_read_b32 %addr : !waveasm.vreg -> !waveasm.vreg
    %b = waveasm.ds_read_b32 %addr {offset = 256 : i64} : !waveasm.vreg -> !waveasm.vreg
    %x = waveasm.v_add_u32 %a, %acc : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %y = waveasm.v_add_u32 %b, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %kn#0, %trips : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0, %y) : !waveasm.sreg, !waveasm.vreg
  } {waveasm.counted_waits}
  waveasm.buffer_store_dword %r#1, %out, %addr : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.vreg
  waveasm.s_endpgm
}
