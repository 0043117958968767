// A loop that writes an LDS buffer, publishes it with a barrier, reads it
// and retires it with a second barrier, every iteration: single-buffered.
// A software pipeliner would write tile k+1 into a second copy while tile k
// is read; the plan reports what that double-buffered layout needs, per
// loop: 4 KiB more for @small (fits), 40 KiB more for @large (does not fit
// in gfx942's 64 KiB, though the single-buffered program does). The
// double-buffered example's two buffers rotate through iter_args already:
// they are reported as rotating, fixed where they are, with no ping/pong.
// RUN: waveasm-opt --waveasm-lds-plan %s -o /dev/null | FileCheck %s
// RUN: waveasm-opt --waveasm-lds-plan %examples/gemm_f16_double_buffer.mlir -o /dev/null | FileCheck %s --check-prefix=ROTATING

// CHECK:        "name": "small",
// CHECK:        "ping_pong": [
// CHECK-NEXT:     {
// CHECK-NEXT:       "arena_bytes": 8192,
// CHECK-NEXT:       "buffers": [
// CHECK-NEXT:         0
// CHECK-NEXT:       ],
// CHECK-NEXT:       "extra_bytes": 4096,
// CHECK-NEXT:       "fits": true,
// CHECK-NEXT:       "fragmentation": 0,
// CHECK-NEXT:       "loop": "{{.*}}lds-plan-ping-pong.mlir:{{[0-9]+}}:{{[0-9]+}}",
// CHECK-NEXT:       "peak_bytes": 8192
// CHECK-NEXT:     }
// CHECK-NEXT:   ],

// CHECK:        "arena_bytes": 40960,
// CHECK:        "fits": true,
// CHECK:        "name": "large",
// CHECK:        "ping_pong": [
// CHECK-NEXT:     {
// CHECK-NEXT:       "arena_bytes": 81920,
// CHECK-NEXT:       "buffers": [
// CHECK-NEXT:         0
// CHECK-NEXT:       ],
// CHECK-NEXT:       "extra_bytes": 40960,
// CHECK-NEXT:       "fits": false,

// ROTATING:     "original_offset": 0,
// ROTATING:     "rotating": true,
// ROTATING:     "original_offset": 8192,
// ROTATING:     "rotating": true,
// ROTATING:     "complete": true,
// ROTATING:     "fits": true,
// ROTATING:     "ping_pong": [],

waveasm.program @small target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<tid = 0>
    attributes {workgroup_size = [256, 1, 1]} {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %out = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %c12 = waveasm.constant 12 : !waveasm.imm<12>
  %c64 = waveasm.constant 64 : !waveasm.imm<64>
  %c255 = waveasm.constant 255 : !waveasm.imm<255>
  %wr = waveasm.v_lshlrev_b32 %c4, %tid : !waveasm.imm<4>, !waveasm.pvreg<0> -> !waveasm.vreg
  %t1 = waveasm.v_add_u32 %tid, %c64 : !waveasm.pvreg<0>, !waveasm.imm<64> -> !waveasm.vreg
  %t2 = waveasm.v_and_b32 %t1, %c255 : !waveasm.vreg, !waveasm.imm<255> -> !waveasm.vreg
  %rd = waveasm.v_lshlrev_b32 %c4, %t2 : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %kend = waveasm.loop (%k = %k0) : (!waveasm.sreg) -> (!waveasm.sreg) {
    %soff:2 = waveasm.s_lshl_b32 %k, %c12 : !waveasm.sreg, !waveasm.imm<12> -> !waveasm.sreg, !waveasm.scc
    %x = waveasm.buffer_load_dwordx4 %srd, %wr, %soff#0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg<4, 4>
    waveasm.ds_write_b128 %x, %wr : !waveasm.vreg<4, 4>, !waveasm.vreg
    waveasm.s_barrier
    %y = waveasm.ds_read_b128 %rd : !waveasm.vreg -> !waveasm.vreg<4, 4>
    waveasm.buffer_store_dwordx4 %y, %out, %wr : !waveasm.vreg<4, 4>, !waveasm.psreg<8, 4>, !waveasm.vreg
    waveasm.s_barrier
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %kn#0, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}

// 160 bytes per work item: 40 KiB.
waveasm.program @large target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<tid = 0>
    attributes {workgroup_size = [256, 1, 1]} {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %out = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %c160 = waveasm.constant 160 : !waveasm.imm<160>
  %wr = waveasm.v_mul_lo_u32 %tid, %c160 : !waveasm.pvreg<0>, !waveasm.imm<160> -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %kend = waveasm.loop (%k = %k0) : (!waveasm.sreg) -> (!waveasm.sreg) {
    %x = waveasm.buffer_load_dwordx4 %srd, %wr, %k : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg<4, 4>
    waveasm.ds_write_b128 %x, %wr : !waveasm.vreg<4, 4>, !waveasm.vreg
    waveasm.ds_write_b128 %x, %wr {offset = 144 : i64} : !waveasm.vreg<4, 4>, !waveasm.vreg
    waveasm.s_barrier
    %y = waveasm.ds_read_b128 %wr {offset = 144 : i64} : !waveasm.vreg -> !waveasm.vreg<4, 4>
    waveasm.buffer_store_dwordx4 %y, %out, %wr : !waveasm.vreg<4, 4>, !waveasm.psreg<8, 4>, !waveasm.vreg
    waveasm.s_barrier
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %kn#0, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}
