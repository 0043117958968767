// Two 40 KiB LDS buffers live at the same time (both written, then a
// barrier, then both read) cannot share bytes: the plan needs 81920 bytes
// of gfx942's 65536. The error is at the op where both are live (the first
// write of the second), names them and the bytes missing; the pass fails
// and, with `apply`, changes nothing (the JSON still reports the plan).
// RUN: not waveasm-opt --waveasm-lds-plan %s -o %t.mlir 2>&1 | FileCheck %s
// RUN: not waveasm-opt --waveasm-lds-plan="apply=true json=false" %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not waveasm-opt --waveasm-lds-plan %s -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=JSON
// CHECK: lds-plan-oom.mlir:[[@LINE+27]]:3: error: LDS plan of @oom needs 81920 bytes but gfx942 has 65536 per workgroup (16384 bytes over); 81920 bytes live here in 2 buffers: lds0 [0, 40960) 40960 B, lds1 [40960, 81920) 40960 B; nothing was changed
// CHECK: lds-plan-oom.mlir:[[@LINE+24]]:3: note: lds0 [0, 40960) (40960 bytes) is first accessed here
// CHECK: lds-plan-oom.mlir:[[@LINE+25]]:3: note: lds1 [40960, 81920) (40960 bytes) is first accessed here
// ERR: error: LDS plan of @oom needs 81920 bytes
// ERR-NOT: error
// JSON: "arena_bytes": 81920,
// JSON: "capacity_bytes": 65536,
// JSON: "fits": false,
// JSON: "live_at_peak": [
// JSON-NEXT: 0,
// JSON-NEXT: 1
// JSON-NEXT: ],
// JSON: "peak_bytes": 81920,

waveasm.program @oom target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<tid = 0>
    attributes {workgroup_size = [256, 1, 1]} {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %out = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c160 = waveasm.constant 160 : !waveasm.imm<160>
  %c40960 = waveasm.constant 40960 : !waveasm.imm<40960>
  %a = waveasm.v_mul_lo_u32 %tid, %c160 : !waveasm.pvreg<0>, !waveasm.imm<160> -> !waveasm.vreg
  %b = waveasm.v_add_u32 %a, %c40960 : !waveasm.vreg, !waveasm.imm<40960> -> !waveasm.vreg
  %x = waveasm.buffer_load_dwordx4 %srd, %a, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  waveasm.ds_write_b128 %x, %a : !waveasm.vreg<4, 4>, !waveasm.vreg
  waveasm.ds_write_b128 %x, %a {offset = 144 : i64} : !waveasm.vreg<4, 4>, !waveasm.vreg
  waveasm.ds_write_b128 %x, %b : !waveasm.vreg<4, 4>, !waveasm.vreg
  waveasm.ds_write_b128 %x, %b {offset = 144 : i64} : !waveasm.vreg<4, 4>, !waveasm.vreg
  waveasm.s_barrier
  %y = waveasm.ds_read_b128 %a {offset = 144 : i64} : !waveasm.vreg -> !waveasm.vreg<4, 4>
  %z = waveasm.ds_read_b128 %b : !waveasm.vreg -> !waveasm.vreg<4, 4>
  waveasm.buffer_store_dwordx4 %y, %out, %a : !waveasm.vreg<4, 4>, !waveasm.psreg<8, 4>, !waveasm.vreg
  waveasm.buffer_store_dwordx4 %z, %out, %b : !waveasm.vreg<4, 4>, !waveasm.psreg<8, 4>, !waveasm.vreg
  waveasm.s_endpgm
}
