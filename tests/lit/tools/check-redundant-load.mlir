// `waveasm-lsp check` reports a load that repeats an identical earlier one
// (redundantLoad, info; the two other infos are waitcnt lints), the loads
// --waveasm-redundant-load-elim removes;
// not the second LDS read after the barrier, nor the buffer load after a
// store to the same bytes.
// RUN: waveasm-lsp check --no-tables --fail-on none %s | FileCheck %s

// CHECK: check-redundant-load.mlir:[[@LINE+13]]:8: info: `buffer_load_dword` reads what the same load on line [[#@LINE+11]] (%a) read: no write that may alias it, barrier or EXEC change between; use that result (--waveasm-redundant-load-elim does) [redundantLoad]
// CHECK-NEXT: note: first loaded here
// CHECK-NOT: [redundantLoad]
// CHECK: 1 file(s): 0 error(s), 0 warning(s), 3 info, 0 hint(s)
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<tid = 0>
    attributes {workgroup_size = [128, 1, 1]} {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %a = waveasm.buffer_load_dword %srd, %off, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  %r = waveasm.ds_read_b32 %off : !waveasm.vreg -> !waveasm.vreg
  %b = waveasm.buffer_load_dword %srd, %off, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.s_barrier
  %r2 = waveasm.ds_read_b32 %off : !waveasm.vreg -> !waveasm.vreg
  %s = waveasm.v_add_u32 %a, %b : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %s2 = waveasm.v_add_u32 %r, %r2 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %s3 = waveasm.v_add_u32 %s, %s2 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %s3, %srd, %off : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  %c = waveasm.buffer_load_dword %srd, %off, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %c, %srd, %off {instOffset = 1024 : i64} : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
}
