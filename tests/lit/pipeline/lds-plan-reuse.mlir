// Two LDS buffers of 4 KiB, one per phase: A at [0, 4096) is written,
// published by a barrier, read (lanes read another wave's row) and
// retired by a second barrier before B at [4096, 8192) is first written.
// Their lifetimes do not overlap, so the plan puts B on A's bytes: 4096
// bytes instead of 8192. `apply` moves B (its ds ops' offset 4096 -> 0)
// and shrinks lds_size; the simulator shows the same results, and the
// rewritten kernel goes through the pipeline and llvm-mc. The comparison
// ignores the LDS left at the end (it does not outlive the workgroup and
// now holds B where A was, as the plain comparison shows); the buffers
// hold what both phases read from LDS.
// RUN: waveasm-opt --waveasm-lds-plan %s -o /dev/null | FileCheck %s --check-prefix=JSON
// RUN: waveasm-opt --waveasm-lds-plan="apply=true json=false" %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=APPLY < %t.mlir
// RUN: waveasm-sim --compare --ignore-lds --seeds 2 %s %t.mlir | FileCheck %s --check-prefix=SIM
// RUN: not waveasm-sim --compare --seeds 1 %s %t.mlir | FileCheck %s --check-prefix=LDS
// RUN: waveasm-opt --waveasm-pipeline --emit-assembly %t.mlir -o %t.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t.s -o %t.o

// JSON:      "arena_bytes": 4096,
// JSON:      "buffers": [
// JSON-NEXT:   {
// JSON:          "lifetime": [
// JSON-NEXT:       14,
// JSON-NEXT:       18
// JSON-NEXT:     ],
// JSON:          "offset": 0,
// JSON-NEXT:     "original_offset": 0,
// JSON:          "size": 4096,
// JSON:          "lifetime": [
// JSON-NEXT:       20,
// JSON-NEXT:       24
// JSON-NEXT:     ],
// JSON:          "offset": 0,
// JSON-NEXT:     "original_offset": 4096,
// JSON:          "size": 4096,
// JSON:        "complete": true,
// JSON:        "declared_bytes": 8192,
// JSON:        "fits": true,
// JSON:        "fragmentation": 0,
// JSON:        "live_at_peak": [
// JSON-NEXT:     0
// JSON-NEXT:   ],
// JSON:        "original_bytes": 8192,
// JSON:        "peak_bytes": 4096,
// JSON:        "ping_pong": [],

// APPLY: lds_size = 4096
// APPLY: waveasm.ds_write_b128 %{{.*}}, %{{.*}} : !waveasm.vreg<4, 4>, !waveasm.vreg
// APPLY: waveasm.ds_read_b128 %{{.*}} : !waveasm.vreg -> !waveasm.vreg<4, 4>
// APPLY: waveasm.ds_write_b128 %{{.*}}, %{{.*}} {offset = 0 : i64}
// APPLY: waveasm.ds_read_b128 %{{.*}} {offset = 0 : i64}
// SIM: @reuse: equal on 2 seeds
// LDS: @reuse: different (seed 1: LDS

waveasm.program @reuse target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<tid = 0>
    attributes {lds_size = 8192 : i64, workgroup_size = [256, 1, 1]} {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %out = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %c64 = waveasm.constant 64 : !waveasm.imm<64>
  %c255 = waveasm.constant 255 : !waveasm.imm<255>
  %c4096 = waveasm.constant 4096 : !waveasm.imm<4096>
  %wr = waveasm.v_lshlrev_b32 %c4, %tid : !waveasm.imm<4>, !waveasm.pvreg<0> -> !waveasm.vreg
  %t1 = waveasm.v_add_u32 %tid, %c64 : !waveasm.pvreg<0>, !waveasm.imm<64> -> !waveasm.vreg
  %t2 = waveasm.v_and_b32 %t1, %c255 : !waveasm.vreg, !waveasm.imm<255> -> !waveasm.vreg
  %rd = waveasm.v_lshlrev_b32 %c4, %t2 : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
  %hi = waveasm.v_add_u32 %wr, %c4096 : !waveasm.vreg, !waveasm.imm<4096> -> !waveasm.vreg
  // Phase A.
  %x = waveasm.buffer_load_dwordx4 %srd, %wr, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  waveasm.ds_write_b128 %x, %wr : !waveasm.vreg<4, 4>, !waveasm.vreg
  waveasm.s_barrier
  %y = waveasm.ds_read_b128 %rd : !waveasm.vreg -> !waveasm.vreg<4, 4>
  waveasm.buffer_store_dwordx4 %y, %out, %wr : !waveasm.vreg<4, 4>, !waveasm.psreg<8, 4>, !waveasm.vreg
  waveasm.s_barrier
  // Phase B.
  %x2 = waveasm.buffer_load_dwordx4 %srd, %hi, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  waveasm.ds_write_b128 %x2, %wr {offset = 4096 : i64} : !waveasm.vreg<4, 4>, !waveasm.vreg
  waveasm.s_barrier
  %y2 = waveasm.ds_read_b128 %rd {offset = 4096 : i64} : !waveasm.vreg -> !waveasm.vreg<4, 4>
  waveasm.buffer_store_dwordx4 %y2, %out, %hi : !waveasm.vreg<4, 4>, !waveasm.psreg<8, 4>, !waveasm.vreg
  waveasm.s_endpgm
}
