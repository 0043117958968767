// aliasing-descriptor-copy.mlir with the loop's load 16 * (kernarg dword
// 48) bytes past the store: with the default kernarg dword (64) it reads
// bytes the loop never writes, so moving it past the store changes
// nothing; this file's directive says the dword is 0, and then the load
// reads what the store wrote (tests/lit/sim/conductor-directives.test).
// waveasm-sim: --kernarg-dword=48:0
waveasm.program @alias target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<kernarg = 0> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %kargs = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  %a = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c48 = waveasm.constant 48 : !waveasm.imm<48>
  %w0 = waveasm.extract %a[0] : !waveasm.psreg<4, 4> -> !waveasm.sreg
  %w1 = waveasm.extract %a[1] : !waveasm.psreg<4, 4> -> !waveasm.sreg
  %w2 = waveasm.extract %a[2] : !waveasm.psreg<4, 4> -> !waveasm.sreg
  %w3 = waveasm.extract %a[3] : !waveasm.psreg<4, 4> -> !waveasm.sreg
  %b = waveasm.pack %w0, %w1, %w2, %w3 : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.sreg) -> !waveasm.sreg<4, 4>
  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %gap = waveasm.s_load_dword %kargs, %c48 : !waveasm.psreg<0, 2>, !waveasm.imm<48> -> !waveasm.sreg
  %gapb:2 = waveasm.s_lshl_b32 %gap, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.sreg, !waveasm.scc
  %loff = waveasm.v_add_u32 %off, %gapb#0 : !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %acc0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %r:2 = waveasm.loop (%k = %k0, %acc = %acc0) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %y = waveasm.buffer_load_dword %b, %loff, %c0 : !waveasm.sreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %v0 = waveasm.v_add_u32 %acc, %off {no_cse, k = 0 : i64} : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %v1 = waveasm.v_add_u32 %acc, %off {no_cse, k = 1 : i64} : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %v2 = waveasm.v_add_u32 %acc, %off {no_cse, k = 2 : i64} : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %v3 = waveasm.v_add_u32 %acc, %off {no_cse, k = 3 : i64} : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %v4 = waveasm.v_add_u32 %acc, %off {no_cse, k = 4 : i64} : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %v5 = waveasm.v_add_u32 %acc, %off {no_cse, k = 5 : i64} : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %v6 = waveasm.v_add_u32 %acc, %off {no_cse, k = 6 : i64} : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %v7 = waveasm.v_add_u32 %acc, %off {no_cse, k = 7 : i64} : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %v8 = waveasm.v_add_u32 %acc, %off {no_cse, k = 8 : i64} : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %v9 = waveasm.v_add_u32 %acc, %off {no_cse, k = 9 : i64} : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %v10 = waveasm.v_add_u32 %acc, %off {no_cse, k = 10 : i64} : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %v11 = waveasm.v_add_u32 %acc, %off {no_cse, k = 11 : i64} : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %v12 = waveasm.v_add_u32 %acc, %off {no_cse, k = 12 : i64} : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %v13 = waveasm.v_add_u32 %acc, %off {no_cse, k = 13 : i64} : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %v14 = waveasm.v_add_u32 %acc, %off {no_cse, k = 14 : i64} : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %v15 = waveasm.v_add_u32 %acc, %off {no_cse, k = 15 : i64} : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %v16 = waveasm.v_add_u32 %acc, %off {no_cse, k = 16 : i64} : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %v17 = waveasm.v_add_u32 %acc, %off {no_cse, k = 17 : i64} : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %v18 = waveasm.v_add_u32 %acc, %off {no_cse, k = 18 : i64} : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %v19 = waveasm.v_add_u32 %acc, %off {no_cse, k = 19 : i64} : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %v20 = waveasm.v_add_u32 %acc, %off {no_cse, k = 20 : i64} : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %v21 = waveasm.v_add_u32 %acc, %off {no_cse, k = 21 : i64} : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %v22 = waveasm.v_add_u32 %acc, %off {no_cse, k = 22 : i64} : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %v23 = waveasm.v_add_u32 %acc, %off {no_cse, k = 23 : i64} : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s0 = waveasm.v_add_u32 %v0, %v1 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s1 = waveasm.v_add_u32 %s0, %v2 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s2 = waveasm.v_add_u32 %s1, %v3 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s3 = waveasm.v_add_u32 %s2, %v4 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s4 = waveasm.v_add_u32 %s3, %v5 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s5 = waveasm.v_add_u32 %s4, %v6 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s6 = waveasm.v_add_u32 %s5, %v7 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s7 = waveasm.v_add_u32 %s6, %v8 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s8 = waveasm.v_add_u32 %s7, %v9 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s9 = waveasm.v_add_u32 %s8, %v10 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s10 = waveasm.v_add_u32 %s9, %v11 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s11 = waveasm.v_add_u32 %s10, %v12 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s12 = waveasm.v_add_u32 %s11, %v13 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s13 = waveasm.v_add_u32 %s12, %v14 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s14 = waveasm.v_add_u32 %s13, %v15 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s15 = waveasm.v_add_u32 %s14, %v16 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s16 = waveasm.v_add_u32 %s15, %v17 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s17 = waveasm.v_add_u32 %s16, %v18 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s18 = waveasm.v_add_u32 %s17, %v19 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s19 = waveasm.v_add_u32 %s18, %v20 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s20 = waveasm.v_add_u32 %s19, %v21 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s21 = waveasm.v_add_u32 %s20, %v22 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s22 = waveasm.v_add_u32 %s21, %v23 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.buffer_store_dword %s22, %a, %off : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
    %acc2 = waveasm.v_add_u32 %s22, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0, %acc2) : !waveasm.sreg, !waveasm.vreg
  }
  waveasm.buffer_store_dword %r#1, %a, %off offset : 2048 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
}
