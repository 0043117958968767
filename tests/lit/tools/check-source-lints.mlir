// `waveasm-lsp check` reports the lints of the text as written: an SCC value
// another SCC writer overwrites before its reader (scc, info) and an
// instruction whose result nothing reads (unused, hint). The server offers
// a quick fix for each (tests/unit/QuickFixesTest.cpp).
// RUN: waveasm-lsp check --no-tables --fail-on none %s | FileCheck %s

// CHECK: check-source-lints.mlir:[[@LINE+13]]:10: info: SCC from `s_cmp_lt_u32` on line [[#@LINE+11]] is overwritten by `s_add_u32` on line [[#@LINE+12]] before `s_cselect_b32` reads it: the pipeline saves it in an SGPR and re-creates it (s_cselect_b32, s_cmp_ne_u32); put the producer next to its reader [scc]
// CHECK-NEXT: note: SCC defined here
// CHECK-NEXT: note: SCC overwritten here
// CHECK: check-source-lints.mlir:[[@LINE+12]]:11: hint: `v_add_u32` computes %dead, which nothing reads, and has no other effect [unused]
// CHECK: 1 file(s): 0 error(s), 0 warning(s), 1 info, 1 hint(s)
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c7 = waveasm.constant 7 : !waveasm.imm<7>
  %cmp = waveasm.s_cmp_lt_u32 %s, %c7 : !waveasm.psreg<2>, !waveasm.imm<7> -> !waveasm.scc
  %t:2 = waveasm.s_add_u32 %s, %c1 : !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
  %sel = waveasm.s_cselect_b32 %cmp, %t#0, %c1 : !waveasm.scc, !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg
  %v = waveasm.v_mov_b32 %sel : !waveasm.sreg -> !waveasm.vreg
  %dead = waveasm.v_add_u32 %v, %v : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %v, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}
