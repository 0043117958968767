// LDS bank conflicts in the cycle model (analysis/LdsBankConflicts.h), with
// hand-computed counts: 64 banks of 4 bytes on gfx942, one wave of 64 lanes;
// a bank serving d distinct dwords takes d clocks, an access at least 2;
// extra clocks become issue slots (4 clocks), rounded up, added to the
// ds op's latency (20 slots without a conflict):
//  - b32, 4-byte lane stride: one bank per lane, no conflict: lat 20;
//  - b32, 128-byte stride: dword 32 * lane, banks 0 and 32 with 32 dwords
//    each: 32-way, 32 clocks instead of 2, +30 clocks = 8 slots: lat 28;
//  - b128, 16-byte stride: 4 phases of 16 lanes, each phase the 64
//    consecutive dwords of all banks: no conflict: lat 20;
//  - b128, 256-byte stride: each phase's 16 lanes start on one bank:
//    16-way, 4 x 16 = 64 clocks instead of 4, +60 = 15 slots: lat 35;
//  - a broadcast (every lane at one address): no conflict: lat 20.
// The program's estimate grows by the 23 slots: 215 -> 238.
// RUN: waveasm-lsp check --fail-on none %s | FileCheck %s
// The two conflicting reads are `bankConflict` lints (info), with the
// padding that removes the conflict; the conflict-free ones are not.
// RUN: waveasm-lsp check --no-tables --fail-on none %s \
// RUN:   | FileCheck %s --check-prefix=LINT
// LINT: check-bank-conflicts.mlir:46:8: info: `ds_read_b32` has a 32-way LDS bank conflict (lane address lane × 128 B, 64 banks of 4 B): 32 LDS clocks instead of 2, +8 issue slots each time; pad the row stride from 128 to 132 bytes (`v_lshlrev_b32` on line 45) to make it conflict-free; {{.*}} [bankConflict]
// LINT-NEXT: check-bank-conflicts.mlir:52:8: info: `ds_read_b128` has a 16-way LDS bank conflict (lane address lane × 256 B + 16 B, 64 banks of 4 B): 64 LDS clocks instead of 4, +15 issue slots each time; pad the row stride from 256 to 272 bytes (`v_lshlrev_b32` on line 51) to make it conflict-free; {{.*}} [bankConflict]
// LINT-NEXT: 1 file(s): 0 error(s), 0 warning(s), 2 info, 0 hint(s)

// CHECK-LABEL: metrics
// CHECK: @k {{[0-9]+}} 238 
// CHECK-LABEL: mlir: instructions
// CHECK: I8 ds_read_b32 LDS 20 
// CHECK: I11 ds_read_b32 LDS 28 
// CHECK: I14 ds_read_b128 LDS 20 
// CHECK: I17 ds_read_b128 LDS 35 
// CHECK: I20 ds_read_b32 LDS 20 
waveasm.program @k target = #waveasm.target<#waveasm.gfx942>
  abi = #waveasm.abi<tid = 0>
  attributes {workgroup_size = [64, 1, 1], lds_size = 32768 : i64} {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %c7 = waveasm.constant 7 : !waveasm.imm<7>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %s4 = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %a = waveasm.ds_read_b32 %s4 : !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %a, %srd, %s4 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  %s128 = waveasm.v_lshlrev_b32 %c7, %tid : !waveasm.imm<7>, !waveasm.pvreg<0> -> !waveasm.vreg
  %b = waveasm.ds_read_b32 %s128 : !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %b, %srd, %s4 offset : 256 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  %s16 = waveasm.v_lshlrev_b32 %c4, %tid : !waveasm.imm<4>, !waveasm.pvreg<0> -> !waveasm.vreg
  %c = waveasm.ds_read_b128 %s16 : !waveasm.vreg -> !waveasm.vreg<4, 4>
  waveasm.buffer_store_dwordx4 %c, %srd, %s16 offset : 512 : !waveasm.vreg<4, 4>, !waveasm.psreg<4, 4>, !waveasm.vreg
  %s256 = waveasm.v_lshlrev_b32 %c8, %tid : !waveasm.imm<8>, !waveasm.pvreg<0> -> !waveasm.vreg
  %d = waveasm.ds_read_b128 %s256 {offset = 16 : i64} : !waveasm.vreg -> !waveasm.vreg<4, 4>
  waveasm.buffer_store_dwordx4 %d, %srd, %s16 offset : 1536 : !waveasm.vreg<4, 4>, !waveasm.psreg<4, 4>, !waveasm.vreg
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %e = waveasm.ds_read_b32 %z {offset = 64 : i64} : !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %e, %srd, %s4 offset : 2560 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
}
