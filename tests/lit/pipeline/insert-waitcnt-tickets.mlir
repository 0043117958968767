// Wait-count insertion on straight-line code: tickets and thresholds, the two
// counters, merging, caps, barriers, operands of memory ops, SMEM/FLAT order,
// waits already in the input, s_endpgm.
// RUN: waveasm-opt --split-input-file --waveasm-insert-waitcnt %s | FileCheck %s

// Each load takes a ticket; a use waits for "younger tickets" outstanding:
// the older of two loads needs vmcnt(1), the younger vmcnt(0).
// CHECK-LABEL: waveasm.program @thresholds
// CHECK:      %[[A:.*]] = waveasm.buffer_load_dword
// CHECK-NEXT: %[[B:.*]] = waveasm.buffer_load_dword
// CHECK-NEXT: waveasm.s_waitcnt_vmcnt 1
// CHECK-NEXT: waveasm.v_add_u32 %[[A]], %[[A]]
// CHECK-NEXT: waveasm.s_waitcnt_vmcnt 0
// CHECK-NEXT: waveasm.v_add_u32 %[[B]], %[[A]]
// CHECK-NEXT: waveasm.s_endpgm
waveasm.program @thresholds target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %a = waveasm.buffer_load_dword %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %b = waveasm.buffer_load_dword %srd, %v0, %c0 offset : 4 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %x = waveasm.v_add_u32 %a, %a : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %y = waveasm.v_add_u32 %b, %a : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// VMEM and LDS results are tracked on different counters: waiting for the
// ds_read does not wait for the older buffer load, and an op using both gets
// one merged s_waitcnt.
// CHECK-LABEL: waveasm.program @counters
// CHECK:      %[[G:.*]] = waveasm.buffer_load_dwordx2
// CHECK-NEXT: %[[L:.*]] = waveasm.ds_read_b32
// CHECK-NEXT: %[[L2:.*]] = waveasm.ds_read_b32
// CHECK-NEXT: waveasm.s_waitcnt_lgkmcnt 1
// CHECK-NEXT: waveasm.v_mul_f32 %[[L]], %[[L]]
// CHECK-NEXT: waveasm.s_waitcnt vmcnt(0) lgkmcnt(0)
// CHECK-NEXT: waveasm.v_mfma_f32_16x16x16_f16 %[[G]], %[[G]], %[[L2]]
waveasm.program @counters target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %g = waveasm.buffer_load_dwordx2 %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg<2, 2>
  %l = waveasm.ds_read_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.vreg
  %l2 = waveasm.ds_read_b32 %v0 {offset = 4 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %m = waveasm.v_mul_f32 %l, %l : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %d = waveasm.v_mfma_f32_16x16x16_f16 %g, %g, %l2 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg -> !waveasm.vreg<4, 4>
  waveasm.s_endpgm
}

// -----

// A wait needed right after a wait merges into it (per-counter minimum): the
// input's s_waitcnt_vmcnt 3 becomes one s_waitcnt, no second wait op.
// CHECK-LABEL: waveasm.program @merge_existing
// CHECK:      waveasm.ds_read_b32
// CHECK-NEXT: waveasm.s_waitcnt vmcnt(3) lgkmcnt(0)
// CHECK-NEXT: waveasm.v_mov_b32
// CHECK-NOT:  s_waitcnt
// CHECK:      waveasm.s_endpgm
waveasm.program @merge_existing target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %l = waveasm.ds_read_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.vreg
  waveasm.s_waitcnt_vmcnt 3
  %m = waveasm.v_mov_b32 %l : !waveasm.vreg -> !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// More LDS reads in flight than lgkmcnt can count (4 bits): the threshold of
// the oldest (16 younger ones) is clamped to 14, the largest value that still
// proves completion (upstream falls back to 0).
// CHECK-LABEL: waveasm.program @cap
// CHECK:      %[[R0:.*]] = waveasm.ds_read_b32
// CHECK-COUNT-15: waveasm.ds_read_b32
// CHECK-NEXT: %[[R16:.*]] = waveasm.ds_read_b32
// CHECK-NEXT: waveasm.s_waitcnt_lgkmcnt 14
// CHECK-NEXT: waveasm.v_mov_b32 %[[R0]]
// CHECK-NEXT: waveasm.s_waitcnt_lgkmcnt 0
// CHECK-NEXT: waveasm.v_mov_b32 %[[R16]]
waveasm.program @cap target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %r0 = waveasm.ds_read_b32 %v0 {offset = 0 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r1 = waveasm.ds_read_b32 %v0 {offset = 4 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r2 = waveasm.ds_read_b32 %v0 {offset = 8 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r3 = waveasm.ds_read_b32 %v0 {offset = 12 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r4 = waveasm.ds_read_b32 %v0 {offset = 16 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r5 = waveasm.ds_read_b32 %v0 {offset = 20 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r6 = waveasm.ds_read_b32 %v0 {offset = 24 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r7 = waveasm.ds_read_b32 %v0 {offset = 28 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r8 = waveasm.ds_read_b32 %v0 {offset = 32 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r9 = waveasm.ds_read_b32 %v0 {offset = 36 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r10 = waveasm.ds_read_b32 %v0 {offset = 40 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r11 = waveasm.ds_read_b32 %v0 {offset = 44 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r12 = waveasm.ds_read_b32 %v0 {offset = 48 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r13 = waveasm.ds_read_b32 %v0 {offset = 52 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r14 = waveasm.ds_read_b32 %v0 {offset = 56 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r15 = waveasm.ds_read_b32 %v0 {offset = 60 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r16 = waveasm.ds_read_b32 %v0 {offset = 64 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %m0 = waveasm.v_mov_b32 %r0 : !waveasm.vreg -> !waveasm.vreg
  %m16 = waveasm.v_mov_b32 %r16 : !waveasm.vreg -> !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// gfx1250 counts 63 LGKM ops: no clamping.
// CHECK-LABEL: waveasm.program @cap_gfx1250
// CHECK-COUNT-17: waveasm.ds_read_b32
// CHECK-NEXT: waveasm.s_waitcnt_lgkmcnt 16
waveasm.program @cap_gfx1250 target = #waveasm.target<#waveasm.gfx1250> abi = #waveasm.abi<> {
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %r0 = waveasm.ds_read_b32 %v0 {offset = 0 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r1 = waveasm.ds_read_b32 %v0 {offset = 4 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r2 = waveasm.ds_read_b32 %v0 {offset = 8 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r3 = waveasm.ds_read_b32 %v0 {offset = 12 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r4 = waveasm.ds_read_b32 %v0 {offset = 16 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r5 = waveasm.ds_read_b32 %v0 {offset = 20 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r6 = waveasm.ds_read_b32 %v0 {offset = 24 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r7 = waveasm.ds_read_b32 %v0 {offset = 28 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r8 = waveasm.ds_read_b32 %v0 {offset = 32 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r9 = waveasm.ds_read_b32 %v0 {offset = 36 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r10 = waveasm.ds_read_b32 %v0 {offset = 40 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r11 = waveasm.ds_read_b32 %v0 {offset = 44 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r12 = waveasm.ds_read_b32 %v0 {offset = 48 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r13 = waveasm.ds_read_b32 %v0 {offset = 52 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r14 = waveasm.ds_read_b32 %v0 {offset = 56 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r15 = waveasm.ds_read_b32 %v0 {offset = 60 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r16 = waveasm.ds_read_b32 %v0 {offset = 64 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %m0 = waveasm.v_mov_b32 %r0 : !waveasm.vreg -> !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// A ds_write takes an lgkmcnt ticket (upstream's stores take none), so the
// barrier that publishes it waits lgkmcnt(0). The outstanding VMEM prefetch
// is private to the wave: the barrier does not drain vmcnt for it.
// CHECK-LABEL: waveasm.program @barrier_lds
// CHECK:      waveasm.buffer_load_dwordx4
// CHECK-NEXT: waveasm.ds_write_b32
// CHECK-NEXT: waveasm.s_waitcnt_lgkmcnt 0
// CHECK-NEXT: waveasm.s_barrier
// CHECK-NEXT: waveasm.s_waitcnt_vmcnt 0
// CHECK-NEXT: waveasm.ds_write_b128
waveasm.program @barrier_lds target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %g = waveasm.buffer_load_dwordx4 %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  waveasm.ds_write_b32 %v0, %v0 : !waveasm.pvreg<0>, !waveasm.pvreg<0>
  waveasm.s_barrier
  waveasm.ds_write_b128 %g, %v0 : !waveasm.vreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

// -----

// VMEM stores and direct-to-LDS loads write memory other waves read: the
// barrier waits for them (the LDS read after the second barrier may read
// the DMA's bytes: M0 is unknown). vmcnt completes in order, so the plain
// load issued after the *_lds load may stay in flight: vmcnt(1).
// CHECK-LABEL: waveasm.program @barrier_vmem
// CHECK:      waveasm.buffer_store_dword
// CHECK-NEXT: waveasm.s_waitcnt_vmcnt 0
// CHECK-NEXT: waveasm.s_barrier
// CHECK:      waveasm.buffer_load_dword_lds
// CHECK-NEXT: waveasm.buffer_load_dword %
// CHECK-NEXT: waveasm.s_waitcnt_vmcnt 1
// CHECK-NEXT: waveasm.s_barrier
// CHECK-NEXT: waveasm.ds_read_b32
waveasm.program @barrier_vmem target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> attributes {workgroup_size = [256, 1, 1]} {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %s8 = waveasm.precolored.sreg 8 : !waveasm.psreg<8>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  waveasm.buffer_store_dword %v0, %srd, %v0 : !waveasm.pvreg<0>, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_barrier
  waveasm.s_mov_b32_m0 %s8 : !waveasm.psreg<8>
  waveasm.buffer_load_dword_lds %v0, %srd, %c0 : !waveasm.pvreg<0>, !waveasm.psreg<4, 4>, !waveasm.imm<0>
  %p = waveasm.buffer_load_dword %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.s_barrier
  %r = waveasm.ds_read_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// A barrier outside any loop body (a pipelined loop's fill and drain)
// publishes only the direct-to-LDS loads whose bytes its window (the ops
// up to the next barrier) may access, by byte ranges: the first barrier's
// reads touch buffer 0 (M0 = 0: bytes 0..255), not buffer 1 (M0 = 4096),
// so buffer 1's load stays in flight (vmcnt(1), not 0) until the second
// barrier, whose window reads it. A barrier with nothing after it but
// s_endpgm publishes nothing.
// CHECK-LABEL: waveasm.program @barrier_straight_window
// CHECK:      waveasm.buffer_load_dword_lds
// CHECK:      waveasm.buffer_load_dword_lds
// CHECK-NEXT: waveasm.s_waitcnt_vmcnt 1
// CHECK-NEXT: waveasm.s_barrier
// CHECK-NEXT: waveasm.ds_read_b32
// CHECK-NEXT: waveasm.s_waitcnt vmcnt(0) lgkmcnt(0)
// CHECK-NEXT: waveasm.s_barrier
// CHECK-NEXT: waveasm.ds_read_b32
// CHECK-NEXT: waveasm.s_mov_b32_m0
// CHECK-NEXT: waveasm.buffer_load_dword_lds
// CHECK-NEXT: waveasm.s_waitcnt_lgkmcnt 0
// CHECK-NEXT: waveasm.s_barrier
// CHECK-NEXT: waveasm.s_endpgm
waveasm.program @barrier_straight_window target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<tid = 0> attributes {workgroup_size = [128, 1, 1]} {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c4096 = waveasm.constant 4096 : !waveasm.imm<4096>
  %a1 = waveasm.v_add_u32 %c4096, %tid : !waveasm.imm<4096>, !waveasm.pvreg<0> -> !waveasm.pvreg<1>
  waveasm.s_mov_b32_m0 %c0 : !waveasm.imm<0>
  waveasm.buffer_load_dword_lds %tid, %srd, %c0 : !waveasm.pvreg<0>, !waveasm.psreg<4, 4>, !waveasm.imm<0>
  waveasm.s_mov_b32_m0 %c4096 : !waveasm.imm<4096>
  waveasm.buffer_load_dword_lds %tid, %srd, %c0 : !waveasm.pvreg<0>, !waveasm.psreg<4, 4>, !waveasm.imm<0>
  waveasm.s_barrier
  %r0 = waveasm.ds_read_b32 %tid : !waveasm.pvreg<0> -> !waveasm.pvreg<2>
  waveasm.s_barrier
  %r1 = waveasm.ds_read_b32 %a1 : !waveasm.pvreg<1> -> !waveasm.pvreg<3>
  waveasm.s_mov_b32_m0 %c0 : !waveasm.imm<0>
  waveasm.buffer_load_dword_lds %tid, %srd, %c0 : !waveasm.pvreg<0>, !waveasm.psreg<4, 4>, !waveasm.imm<0>
  waveasm.s_barrier
  waveasm.s_endpgm
}

// -----

// A barrier right before a loop waits for every direct-to-LDS load: the
// window runs into a region (a load left in flight at a loop's entry would
// make every iteration's waits stricter, the loop's head joining its entry
// state).
// CHECK-LABEL: waveasm.program @barrier_before_loop
// CHECK:      waveasm.buffer_load_dword_lds
// CHECK-NEXT: waveasm.s_waitcnt_vmcnt 0
// CHECK-NEXT: waveasm.s_barrier
// CHECK-NEXT: waveasm.loop
waveasm.program @barrier_before_loop target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<tid = 0> attributes {workgroup_size = [128, 1, 1]} {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %c4096 = waveasm.constant 4096 : !waveasm.imm<4096>
  %s0 = waveasm.precolored.sreg 8 : !waveasm.psreg<8>
  waveasm.s_mov_b32_m0 %c4096 : !waveasm.imm<4096>
  waveasm.buffer_load_dword_lds %tid, %srd, %c0 : !waveasm.pvreg<0>, !waveasm.psreg<4, 4>, !waveasm.imm<0>
  waveasm.s_barrier
  %i = waveasm.loop (%k = %s0) : (!waveasm.psreg<8>) -> (!waveasm.psreg<8>) {
    %r = waveasm.ds_read_b32 %tid : !waveasm.pvreg<0> -> !waveasm.pvreg<2>
    %n:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.psreg<8>, !waveasm.imm<1> -> !waveasm.psreg<8>, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %n#0, %c4 : !waveasm.psreg<8>, !waveasm.imm<4> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%n#0) : !waveasm.psreg<8>
  }
  waveasm.s_endpgm
}

// -----

// Operands of loads and stores are uses too (upstream checks neither): an
// address produced by a load, and store data produced by a load.
// CHECK-LABEL: waveasm.program @memory_operands
// CHECK:      %[[ADDR:.*]] = waveasm.buffer_load_dword
// CHECK-NEXT: waveasm.s_waitcnt_vmcnt 0
// CHECK-NEXT: %[[D:.*]] = waveasm.ds_read_b64 %[[ADDR]]
// CHECK-NEXT: waveasm.s_waitcnt_lgkmcnt 0
// CHECK-NEXT: waveasm.buffer_store_dwordx2 %[[D]]
waveasm.program @memory_operands target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %addr = waveasm.buffer_load_dword %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %d = waveasm.ds_read_b64 %addr : !waveasm.vreg -> !waveasm.vreg<2, 2>
  waveasm.buffer_store_dwordx2 %d, %srd, %v0 : !waveasm.vreg<2, 2>, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

// -----

// SMEM returns out of order: waiting for either of two s_loads needs
// lgkmcnt(0), never lgkmcnt(1). An LDS read issued after an s_load may still
// be waited for by count (the s_load is older), one issued before it not.
// CHECK-LABEL: waveasm.program @smem_order
// CHECK:      %[[P:.*]] = waveasm.s_load_dwordx2
// CHECK-NEXT: %[[Q:.*]] = waveasm.s_load_dwordx2
// CHECK-NEXT: waveasm.s_waitcnt_lgkmcnt 0
// CHECK-NEXT: waveasm.s_mov_b64 %[[P]]
// CHECK:      %[[S:.*]] = waveasm.s_load_dword
// CHECK-NEXT: %[[A:.*]] = waveasm.ds_read_b32
// CHECK-NEXT: %[[B:.*]] = waveasm.ds_read_b32
// CHECK-NEXT: waveasm.s_waitcnt_lgkmcnt 1
// CHECK-NEXT: waveasm.v_mov_b32 %[[A]]
// CHECK:      %[[C:.*]] = waveasm.ds_read_b32
// CHECK-NEXT: %[[T:.*]] = waveasm.s_load_dword
// CHECK-NEXT: waveasm.s_waitcnt_lgkmcnt 0
// CHECK-NEXT: waveasm.v_mov_b32 %[[C]]
waveasm.program @smem_order target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %k = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %p = waveasm.s_load_dwordx2 %k, %c0 : !waveasm.psreg<0, 2>, !waveasm.imm<0> -> !waveasm.sreg<2, 2>
  %q = waveasm.s_load_dwordx2 %k, %c8 : !waveasm.psreg<0, 2>, !waveasm.imm<8> -> !waveasm.sreg<2, 2>
  %p2 = waveasm.s_mov_b64 %p : !waveasm.sreg<2, 2> -> !waveasm.sreg<2, 2>
  %s = waveasm.s_load_dword %k, %c0 : !waveasm.psreg<0, 2>, !waveasm.imm<0> -> !waveasm.sreg
  %a = waveasm.ds_read_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.vreg
  %b = waveasm.ds_read_b32 %v0 {offset = 4 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %ma = waveasm.v_mov_b32 %a : !waveasm.vreg -> !waveasm.vreg
  %c = waveasm.ds_read_b32 %v0 {offset = 8 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg
  %t = waveasm.s_load_dword %k, %c8 : !waveasm.psreg<0, 2>, !waveasm.imm<8> -> !waveasm.sreg
  %mc = waveasm.v_mov_b32 %c : !waveasm.vreg -> !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// FLAT counts on vmcnt and lgkmcnt: only a full wait is safe, also for the
// buffer load issued before it.
// CHECK-LABEL: waveasm.program @flat
// CHECK:      %[[G:.*]] = waveasm.buffer_load_dword
// CHECK-NEXT: %[[F:.*]] = waveasm.flat_load_dword
// CHECK-NEXT: waveasm.s_waitcnt vmcnt(0) lgkmcnt(0)
// CHECK-NEXT: waveasm.v_add_u32 %[[G]], %[[F]]
waveasm.program @flat target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %ptr = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %g = waveasm.buffer_load_dword %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %f = waveasm.flat_load_dword %ptr, %v0, %c0 : !waveasm.psreg<0, 2>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %s = waveasm.v_add_u32 %g, %f : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// Waits already in the input count: the s_loads are waited for by the
// input's s_waitcnt, the older buffer load by its s_waitcnt_vmcnt 1; nothing
// is added. s_endpgm waits for everything itself: neither the store nor the
// younger load needs a wait.
// CHECK-LABEL: waveasm.program @existing
// CHECK-COUNT-2: s_waitcnt
// CHECK-NOT:  s_waitcnt
// CHECK:      waveasm.s_endpgm
waveasm.program @existing target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %k = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %p = waveasm.s_load_dwordx2 %k, %c0 : !waveasm.psreg<0, 2>, !waveasm.imm<0> -> !waveasm.sreg<2, 2>
  %q = waveasm.s_load_dwordx2 %k, %c0 : !waveasm.psreg<0, 2>, !waveasm.imm<0> -> !waveasm.sreg<2, 2>
  waveasm.s_waitcnt lgkmcnt(0)
  %p2 = waveasm.s_mov_b64 %p : !waveasm.sreg<2, 2> -> !waveasm.sreg<2, 2>
  %q2 = waveasm.s_mov_b64 %q : !waveasm.sreg<2, 2> -> !waveasm.sreg<2, 2>
  %a = waveasm.buffer_load_dword %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %b = waveasm.buffer_load_dword %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.s_waitcnt_vmcnt 1
  %x = waveasm.v_mov_b32 %a : !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %x, %srd, %v0 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

// -----

// Uses through the non-emitting pack/extract/insert reach the load behind
// them.
// CHECK-LABEL: waveasm.program @through_pseudo
// CHECK:      waveasm.buffer_load_dwordx4
// CHECK-NEXT: waveasm.buffer_load_dword %
// CHECK-NEXT: waveasm.extract
// CHECK-NEXT: waveasm.pack
// CHECK-NEXT: waveasm.s_waitcnt_vmcnt 1
// CHECK-NEXT: waveasm.v_mov_b32
// CHECK-NEXT: waveasm.insert
// CHECK-NEXT: waveasm.s_waitcnt_vmcnt 0
// CHECK-NEXT: waveasm.ds_write_b128
waveasm.program @through_pseudo target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %q = waveasm.buffer_load_dwordx4 %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %w = waveasm.buffer_load_dword %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %e = waveasm.extract %q[1] : !waveasm.vreg<4, 4> -> !waveasm.vreg
  %p = waveasm.pack %e, %e : (!waveasm.vreg, !waveasm.vreg) -> !waveasm.vreg<2, 2>
  %m = waveasm.v_mov_b32 %p : !waveasm.vreg<2, 2> -> !waveasm.vreg<2, 2>
  %i = waveasm.insert %w into %q[0] : !waveasm.vreg, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  waveasm.ds_write_b128 %i, %v0 : !waveasm.vreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

// -----

// After allocation, storage is registers: a read through a precolored alias
// of the loaded registers waits, and so does an op that overwrites a register
// a load is still writing (WAW). A second load into the same registers needs
// no wait (vmcnt completes in order).
// CHECK-LABEL: waveasm.program @physical
// CHECK:      waveasm.buffer_load_dwordx4 {{.*}} -> !waveasm.pvreg<4, 4>
// CHECK-NEXT: waveasm.buffer_load_dwordx4 {{.*}} -> !waveasm.pvreg<8, 4>
// CHECK-NEXT: waveasm.buffer_load_dwordx4 {{.*}} -> !waveasm.pvreg<8, 4>
// CHECK-NEXT: waveasm.precolored.vreg 6
// CHECK-NEXT: waveasm.s_waitcnt_vmcnt 2
// CHECK-NEXT: waveasm.v_mov_b32 %{{.*}} : !waveasm.pvreg<6> -> !waveasm.pvreg<20>
// CHECK-NEXT: waveasm.s_waitcnt_vmcnt 0
// CHECK-NEXT: waveasm.v_mov_b32 %{{.*}} : !waveasm.pvreg<0> -> !waveasm.pvreg<9>
waveasm.program @physical target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %a = waveasm.buffer_load_dwordx4 %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.pvreg<4, 4>
  %b = waveasm.buffer_load_dwordx4 %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.pvreg<8, 4>
  %b2 = waveasm.buffer_load_dwordx4 %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.pvreg<8, 4>
  %alias = waveasm.precolored.vreg 6 : !waveasm.pvreg<6>
  %x = waveasm.v_mov_b32 %alias : !waveasm.pvreg<6> -> !waveasm.pvreg<20>
  %y = waveasm.v_mov_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.pvreg<9>
  waveasm.s_endpgm
}

// -----

// A label joins paths the IR does not show (branches have no CFG edges):
// after it, waits are full ones until one has happened.
// CHECK-LABEL: waveasm.program @label
// CHECK:      waveasm.label @L0
// CHECK-NEXT: waveasm.s_waitcnt_vmcnt 0
// CHECK-NEXT: waveasm.v_mov_b32
waveasm.program @label target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %a = waveasm.buffer_load_dword %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %b = waveasm.buffer_load_dword %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.label @L0
  %x = waveasm.v_mov_b32 %a : !waveasm.vreg -> !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// The same in a workgroup declared one wave: no other wave reads the LDS and
// the wave's own LDS ops execute in order, so the barrier waits for no LDS
// access (ir/Workgroup.h; LLVM lowers this barrier to a wave barrier). The
// two-wave mutation that the simulator reports is in
// pipeline-loops-single-wave.test.
// CHECK-LABEL: waveasm.program @barrier_lds_single_wave
// CHECK:      waveasm.ds_write_b32
// CHECK-NEXT: waveasm.s_barrier
// CHECK-NEXT: waveasm.s_waitcnt_vmcnt 0
// CHECK-NEXT: waveasm.ds_write_b128
waveasm.program @barrier_lds_single_wave target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> attributes {workgroup_size = [64, 1, 1]} {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %g = waveasm.buffer_load_dwordx4 %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  waveasm.ds_write_b32 %v0, %v0 : !waveasm.pvreg<0>, !waveasm.pvreg<0>
  waveasm.s_barrier
  waveasm.ds_write_b128 %g, %v0 : !waveasm.vreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

// -----

// A barrier of a two-wave workgroup still waits for the ds_write.
// CHECK-LABEL: waveasm.program @barrier_lds_two_waves
// CHECK:      waveasm.ds_write_b32
// CHECK-NEXT: waveasm.s_waitcnt_lgkmcnt 0
// CHECK-NEXT: waveasm.s_barrier
waveasm.program @barrier_lds_two_waves target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> attributes {workgroup_size = [65, 1, 1]} {
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  waveasm.ds_write_b32 %v0, %v0 : !waveasm.pvreg<0>, !waveasm.pvreg<0>
  waveasm.s_barrier
  waveasm.s_endpgm
}

// -----

// LDS written by a direct-to-LDS load (vmcnt) is read by ds_read (lgkmcnt):
// in a single-wave workgroup (or one of unknown size) nothing else orders
// them, so the read waits for the DMA.
// CHECK-LABEL: waveasm.program @lds_dma_single_wave
// CHECK:      waveasm.buffer_load_dword_lds
// CHECK-NEXT: waveasm.s_waitcnt_vmcnt 0
// CHECK-NEXT: waveasm.ds_read_b32
waveasm.program @lds_dma_single_wave target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  waveasm.s_mov_b32_m0 %c0 : !waveasm.imm<0>
  waveasm.buffer_load_dword_lds %v0, %srd, %c0 : !waveasm.pvreg<0>, !waveasm.psreg<4, 4>, !waveasm.imm<0>
  %r = waveasm.ds_read_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// In a multi-wave workgroup, DMA'd LDS is shared data published by an
// s_barrier (which waits for the DMA, read after it); a ds_read before the
// barrier is taken to read the other buffer of a double-buffered pair and
// does not wait.
// CHECK-LABEL: waveasm.program @lds_dma_multi_wave
// CHECK:      waveasm.buffer_load_dword_lds
// CHECK-NEXT: waveasm.ds_read_b32
// CHECK-NEXT: waveasm.s_waitcnt vmcnt(0) lgkmcnt(0)
// CHECK-NEXT: waveasm.s_barrier
// CHECK-NEXT: waveasm.ds_read_b32
waveasm.program @lds_dma_multi_wave target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> attributes {workgroup_size = [128, 1, 1]} {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  waveasm.s_mov_b32_m0 %c0 : !waveasm.imm<0>
  waveasm.buffer_load_dword_lds %v0, %srd, %c0 : !waveasm.pvreg<0>, !waveasm.psreg<4, 4>, !waveasm.imm<0>
  %r = waveasm.ds_read_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.vreg
  waveasm.s_barrier
  %r2 = waveasm.ds_read_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.vreg
  waveasm.s_endpgm
}
