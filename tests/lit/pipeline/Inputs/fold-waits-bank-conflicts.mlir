// Input of insert-waitcnt-fold-bank-conflicts.test: a counted-wait loop
// body (pipeline/FoldWaits.h) reads A (ds_read_b32) and B (ds_read_b128),
// then 20 VALU ops, then A's use (lgkmcnt(1)) and B's use (lgkmcnt(0)).
// B issued 21 slots before A's wait: by the plain LDS latency (20) it has
// landed and its wait folds into A's. In @conflicting every lane of B
// reads the same banks (a 256-byte lane stride), and the conflict's slots
// return it later (LdsBankConflicts.h, the cycle model's rule): folding
// would stall A's wait for them, so B's wait stays at B's use. In
// @conflict_free (a 16-byte stride) it folds.
waveasm.program @conflicting target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<tid = 0, kernarg = 0>
    attributes {vgprs = 64 : i64, sgprs = 32 : i64, lds_size = 16384 : i64, workgroup_size = [64, 1, 1]} {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %out = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %cs = waveasm.constant 8 : !waveasm.imm<8>
  %trips = waveasm.constant 8 : !waveasm.imm<8>
  %voff = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %addr = waveasm.v_lshlrev_b32 %cs, %tid : !waveasm.imm<8>, !waveasm.pvreg<0> -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %r:2 = waveasm.loop (%k = %k0, %acc = %z) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %a = waveasm.ds_read_b32 %voff : !waveasm.vreg -> !waveasm.vreg
    %b = waveasm.ds_read_b128 %addr : !waveasm.vreg -> !waveasm.vreg<4, 4>
    %f0 = waveasm.v_add_u32 %acc, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f1 = waveasm.v_add_u32 %f0, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f2 = waveasm.v_add_u32 %f1, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f3 = waveasm.v_add_u32 %f2, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f4 = waveasm.v_add_u32 %f3, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f5 = waveasm.v_add_u32 %f4, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f6 = waveasm.v_add_u32 %f5, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f7 = waveasm.v_add_u32 %f6, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f8 = waveasm.v_add_u32 %f7, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f9 = waveasm.v_add_u32 %f8, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f10 = waveasm.v_add_u32 %f9, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f11 = waveasm.v_add_u32 %f10, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f12 = waveasm.v_add_u32 %f11, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f13 = waveasm.v_add_u32 %f12, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f14 = waveasm.v_add_u32 %f13, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f15 = waveasm.v_add_u32 %f14, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f16 = waveasm.v_add_u32 %f15, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f17 = waveasm.v_add_u32 %f16, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f18 = waveasm.v_add_u32 %f17, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f19 = waveasm.v_add_u32 %f18, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %x = waveasm.v_add_u32 %a, %f19 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %b0 = waveasm.extract %b[0] : !waveasm.vreg<4, 4> -> !waveasm.vreg
    %y = waveasm.v_add_u32 %b0, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %kn#0, %trips : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0, %y) : !waveasm.sreg, !waveasm.vreg
  } {waveasm.counted_waits}
  waveasm.buffer_store_dword %r#1, %out, %voff : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.vreg
  waveasm.s_endpgm
}


waveasm.program @conflict_free target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<tid = 0, kernarg = 0>
    attributes {vgprs = 64 : i64, sgprs = 32 : i64, lds_size = 1024 : i64, workgroup_size = [64, 1, 1]} {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %out = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %cs = waveasm.constant 4 : !waveasm.imm<4>
  %trips = waveasm.constant 8 : !waveasm.imm<8>
  %voff = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %addr = waveasm.v_lshlrev_b32 %cs, %tid : !waveasm.imm<4>, !waveasm.pvreg<0> -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %r:2 = waveasm.loop (%k = %k0, %acc = %z) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %a = waveasm.ds_read_b32 %voff : !waveasm.vreg -> !waveasm.vreg
    %b = waveasm.ds_read_b128 %addr : !waveasm.vreg -> !waveasm.vreg<4, 4>
    %f0 = waveasm.v_add_u32 %acc, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f1 = waveasm.v_add_u32 %f0, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f2 = waveasm.v_add_u32 %f1, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f3 = waveasm.v_add_u32 %f2, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f4 = waveasm.v_add_u32 %f3, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f5 = waveasm.v_add_u32 %f4, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f6 = waveasm.v_add_u32 %f5, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f7 = waveasm.v_add_u32 %f6, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f8 = waveasm.v_add_u32 %f7, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f9 = waveasm.v_add_u32 %f8, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f10 = waveasm.v_add_u32 %f9, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f11 = waveasm.v_add_u32 %f10, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f12 = waveasm.v_add_u32 %f11, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f13 = waveasm.v_add_u32 %f12, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f14 = waveasm.v_add_u32 %f13, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f15 = waveasm.v_add_u32 %f14, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f16 = waveasm.v_add_u32 %f15, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f17 = waveasm.v_add_u32 %f16, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f18 = waveasm.v_add_u32 %f17, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %f19 = waveasm.v_add_u32 %f18, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %x = waveasm.v_add_u32 %a, %f19 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %b0 = waveasm.extract %b[0] : !waveasm.vreg<4, 4> -> !waveasm.vreg
    %y = waveasm.v_add_u32 %b0, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %kn#0, %trips : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0, %y) : !waveasm.sreg, !waveasm.vreg
  } {waveasm.counted_waits}
  waveasm.buffer_store_dword %r#1, %out, %voff : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.vreg
  waveasm.s_endpgm
}
