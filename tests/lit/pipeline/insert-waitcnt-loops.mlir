// Wait counts around structured control flow: the loop body is iterated to a
// fixed point with the back edge merged into the loop head (upstream walks
// it once), values carried through iter_args are waited for where they are
// used, and `if` branches join.
// RUN: waveasm-opt --split-input-file --waveasm-insert-waitcnt %s | FileCheck %s

// Loop-carried prefetch (gemm_loop's shape): the tiles loaded in iteration k
// are written to LDS in iteration k+1. They are passed in place, so the latch
// does not wait; the ds_writes wait vmcnt(1) / vmcnt(0) in the next iteration
// (the same thresholds hold for the prologue's loads on the first one).
// CHECK-LABEL: waveasm.program @prefetch
// CHECK:      waveasm.loop
// CHECK-NEXT: waveasm.s_waitcnt_vmcnt 1
// CHECK-NEXT: waveasm.ds_write_b128 %arg1
// CHECK-NEXT: waveasm.s_waitcnt_vmcnt 0
// CHECK-NEXT: waveasm.ds_write_b128 %arg2
// CHECK-NEXT: waveasm.s_waitcnt_lgkmcnt 0
// CHECK-NEXT: waveasm.s_barrier
// CHECK:      waveasm.buffer_load_dwordx4
// CHECK-NEXT: waveasm.buffer_load_dwordx4
// CHECK-NEXT: waveasm.s_cmp_lt_u32
// CHECK-NEXT: waveasm.condition
// The loop results are the last prefetch, still in flight after the loop.
// CHECK:      waveasm.s_waitcnt_vmcnt 1
// CHECK-NEXT: waveasm.v_mov_b32 %{{.*}}#1
waveasm.program @prefetch target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %a0 = waveasm.buffer_load_dwordx4 %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %b0 = waveasm.buffer_load_dwordx4 %srd, %v0, %c0 offset : 16 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %r:3 = waveasm.loop (%k = %k0, %a = %a0, %b = %b0)
      : (!waveasm.sreg, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>) -> (!waveasm.sreg, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>) {
    waveasm.ds_write_b128 %a, %v0 : !waveasm.vreg<4, 4>, !waveasm.pvreg<0>
    waveasm.ds_write_b128 %b, %v0 {offset = 1024 : i64} : !waveasm.vreg<4, 4>, !waveasm.pvreg<0>
    waveasm.s_barrier
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %an = waveasm.buffer_load_dwordx4 %srd, %v0, %kn#0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.sreg -> !waveasm.vreg<4, 4>
    %bn = waveasm.buffer_load_dwordx4 %srd, %v0, %kn#0 offset : 16 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.sreg -> !waveasm.vreg<4, 4>
    %more = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0, %an, %bn) : !waveasm.sreg, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>
  }
  %x = waveasm.v_mov_b32 %r#1 : !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  waveasm.s_endpgm
}

// -----

// Outstanding ops at the loop head: the ds_write at the end of one iteration
// is still in flight at the barrier that starts the next. A single walk of
// the body sees nothing outstanding there; the fixed point does.
// CHECK-LABEL: waveasm.program @head_barrier
// CHECK:      waveasm.loop
// CHECK-NEXT: waveasm.s_waitcnt_lgkmcnt 0
// CHECK-NEXT: waveasm.s_barrier
waveasm.program @head_barrier target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r = waveasm.loop (%k = %k0) : (!waveasm.sreg) -> !waveasm.sreg {
    waveasm.s_barrier
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    waveasm.ds_write_b32 %v0, %v0 : !waveasm.pvreg<0>, !waveasm.pvreg<0>
    %more = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}

// -----

// A value loaded before a later use of the block argument it replaces cannot
// share its register: the emitter copies it at the latch, so the latch waits.
// On the first iteration the block argument is the prologue's load, one
// ticket older than the body's.
// CHECK-LABEL: waveasm.program @latch_copy
// CHECK:      waveasm.loop
// CHECK-NEXT: %[[N:.*]] = waveasm.buffer_load_dword
// CHECK-NEXT: waveasm.s_waitcnt_vmcnt 1
// CHECK-NEXT: waveasm.v_add_u32 %arg0, %arg0
// CHECK-NEXT: waveasm.s_waitcnt_vmcnt 0
// CHECK-NEXT: waveasm.condition {{.*}} iter_args(%[[N]])
waveasm.program @latch_copy target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %s = waveasm.precolored.sreg 9 : !waveasm.psreg<9>
  %x0 = waveasm.buffer_load_dword %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %r = waveasm.loop (%x = %x0) : (!waveasm.vreg) -> !waveasm.vreg {
    %n = waveasm.buffer_load_dword %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %u = waveasm.v_add_u32 %x, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.condition %s : !waveasm.psreg<9> iter_args(%n) : !waveasm.vreg
  }
  waveasm.s_endpgm
}

// -----

// The same after allocation: an iter_arg in the block argument's register is
// passed in place (no wait at the latch), one in another register is copied
// (wait at the latch).
// CHECK-LABEL: waveasm.program @physical_loop
// CHECK:      waveasm.loop
// CHECK-NEXT: waveasm.s_waitcnt_vmcnt 1
// CHECK-NEXT: waveasm.v_add_u32 %arg0, %arg0 :
// CHECK-NEXT: waveasm.buffer_load_dword {{.*}} -> !waveasm.pvreg<10>
// CHECK-NEXT: waveasm.buffer_load_dword {{.*}} -> !waveasm.pvreg<12>
// CHECK-NEXT: waveasm.s_waitcnt_vmcnt 0
// CHECK-NEXT: waveasm.condition
waveasm.program @physical_loop target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %s = waveasm.precolored.sreg 9 : !waveasm.psreg<9>
  %x0 = waveasm.buffer_load_dword %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.pvreg<10>
  %y0 = waveasm.buffer_load_dword %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.pvreg<11>
  %r:2 = waveasm.loop (%x = %x0, %y = %y0) : (!waveasm.pvreg<10>, !waveasm.pvreg<11>) -> (!waveasm.pvreg<10>, !waveasm.pvreg<11>) {
    %u = waveasm.v_add_u32 %x, %x : !waveasm.pvreg<10>, !waveasm.pvreg<10> -> !waveasm.pvreg<13>
    %xn = waveasm.buffer_load_dword %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.pvreg<10>
    %yn = waveasm.buffer_load_dword %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.pvreg<12>
    waveasm.condition %s : !waveasm.psreg<9> iter_args(%xn, %yn) : !waveasm.pvreg<10>, !waveasm.pvreg<12>
  }
  waveasm.s_endpgm
}

// -----

// `if`: a load in one branch is outstanding after the join; the result is
// passed in place from the then-yield and waited for at its use.
// CHECK-LABEL: waveasm.program @if_join
// CHECK:      waveasm.if
// CHECK-NEXT: waveasm.buffer_load_dword
// CHECK-NEXT: waveasm.yield
// CHECK-NOT:  s_waitcnt
// CHECK:      waveasm.yield
// CHECK-NEXT: }
// CHECK-NEXT: waveasm.s_waitcnt_vmcnt 0
// CHECK-NEXT: waveasm.v_mov_b32
waveasm.program @if_join target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %s = waveasm.precolored.sreg 9 : !waveasm.psreg<9>
  %cc = waveasm.s_cmp_eq_u32 %s, %c0 : !waveasm.psreg<9>, !waveasm.imm<0> -> !waveasm.scc
  %r = waveasm.if %cc : !waveasm.scc -> !waveasm.vreg {
    %l = waveasm.buffer_load_dword %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    waveasm.yield %l : !waveasm.vreg
  } else {
    %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
    waveasm.yield %z : !waveasm.vreg
  }
  %m = waveasm.v_mov_b32 %r : !waveasm.vreg -> !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// A loop that leaves a store in flight every iteration: the fixed point
// still converges without falling back to draining everything at the head.
// CHECK-LABEL: waveasm.program @store_loop
// CHECK:      waveasm.loop
// CHECK-NEXT: waveasm.buffer_store_dword
// CHECK-NEXT: waveasm.condition
// CHECK-NOT:  s_waitcnt
// CHECK:      waveasm.s_endpgm
waveasm.program @store_loop target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %s = waveasm.precolored.sreg 9 : !waveasm.psreg<9>
  waveasm.loop () : () -> () {
    waveasm.buffer_store_dword %v0, %srd, %v0 : !waveasm.pvreg<0>, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
    waveasm.condition %s : !waveasm.psreg<9>
  }
  waveasm.s_endpgm
}
