// Adjacent wait ops merge into one with the per-counter minimum (SPEC.md
// 15), in every mode: waits already in the input with each other, and
// inserted waits with input ones on either side. A run of any length
// becomes one wait (upstream merges pairs, so a run of three keeps two).
// s_waitcnt_expcnt is not a mergeable wait (as upstream).
// RUN: waveasm-opt --split-input-file --waveasm-insert-waitcnt %s | FileCheck %s
// RUN: waveasm-opt --split-input-file --waveasm-insert-waitcnt=ticketed-waitcnt=false %s | FileCheck %s --check-prefix=ZERO
// RUN: waveasm-opt --split-input-file --waveasm-insert-waitcnt=insert-after-loads=true %s | FileCheck %s --check-prefix=AFTER

// Two input waits on different counters: one s_waitcnt.
// CHECK-LABEL: waveasm.program @input_pair
// CHECK:      waveasm.v_mov_b32
// CHECK-NEXT: waveasm.s_waitcnt vmcnt(3) lgkmcnt(2)
// CHECK-NEXT: waveasm.v_mov_b32
// CHECK-NOT:  s_waitcnt
// ZERO-LABEL: waveasm.program @input_pair
// ZERO:       waveasm.s_waitcnt vmcnt(3) lgkmcnt(2)
// ZERO-NEXT:  waveasm.v_mov_b32
waveasm.program @input_pair target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %a = waveasm.v_mov_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.vreg
  waveasm.s_waitcnt_vmcnt 3
  waveasm.s_waitcnt_lgkmcnt 2
  %b = waveasm.v_mov_b32 %a : !waveasm.vreg -> !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// Two input waits on the same counter: the stricter wins, in the same form.
// CHECK-LABEL: waveasm.program @same_counter
// CHECK:      waveasm.v_mov_b32
// CHECK-NEXT: waveasm.s_waitcnt_vmcnt 1
// CHECK-NEXT: waveasm.v_mov_b32
// CHECK-NOT:  s_waitcnt
waveasm.program @same_counter target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %a = waveasm.v_mov_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.vreg
  waveasm.s_waitcnt_vmcnt 4
  waveasm.s_waitcnt_vmcnt 1
  %b = waveasm.v_mov_b32 %a : !waveasm.vreg -> !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// A run of three, with an s_waitcnt carrying expcnt: all of it merges into
// that s_waitcnt, which keeps its expcnt.
// CHECK-LABEL: waveasm.program @run_of_three
// CHECK:      waveasm.v_mov_b32
// CHECK-NEXT: waveasm.s_waitcnt vmcnt(1) lgkmcnt(0) expcnt(2)
// CHECK-NEXT: waveasm.v_mov_b32
// CHECK-NOT:  s_waitcnt
waveasm.program @run_of_three target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %a = waveasm.v_mov_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.vreg
  waveasm.s_waitcnt_vmcnt 5
  waveasm.s_waitcnt vmcnt(1) expcnt(2)
  waveasm.s_waitcnt_lgkmcnt 0
  %b = waveasm.v_mov_b32 %a : !waveasm.vreg -> !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// A full wait (no fields) absorbs its neighbours; waits separated by an
// instruction stay apart; s_waitcnt_expcnt is left alone.
// CHECK-LABEL: waveasm.program @full_and_apart
// CHECK:      waveasm.v_mov_b32
// CHECK-NEXT: waveasm.s_waitcnt{{$}}
// CHECK-NEXT: waveasm.v_mov_b32
// CHECK-NEXT: waveasm.s_waitcnt_lgkmcnt 3
// CHECK-NEXT: waveasm.s_waitcnt_expcnt 0
// CHECK-NEXT: waveasm.s_waitcnt_vmcnt 2
// CHECK-NEXT: waveasm.v_mov_b32
waveasm.program @full_and_apart target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %a = waveasm.v_mov_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.vreg
  waveasm.s_waitcnt_vmcnt 2
  waveasm.s_waitcnt
  waveasm.s_waitcnt_lgkmcnt 3
  %b = waveasm.v_mov_b32 %a : !waveasm.vreg -> !waveasm.vreg
  waveasm.s_waitcnt_lgkmcnt 3
  waveasm.s_waitcnt_expcnt 0
  waveasm.s_waitcnt_vmcnt 2
  %c = waveasm.v_mov_b32 %b : !waveasm.vreg -> !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// The wait the pass inserts before the use lands after two input waits:
// the three merge (the inserted lgkmcnt(0) with the input's vmcnt(4) and
// lgkmcnt(6)).
// CHECK-LABEL: waveasm.program @inserted_after_input_pair
// CHECK:      waveasm.ds_read_b32
// CHECK-NEXT: waveasm.s_waitcnt vmcnt(4) lgkmcnt(0)
// CHECK-NEXT: waveasm.v_mov_b32
// CHECK-NOT:  s_waitcnt
// CHECK:      waveasm.s_endpgm
waveasm.program @inserted_after_input_pair target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %l = waveasm.ds_read_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.vreg
  waveasm.s_waitcnt_vmcnt 4
  waveasm.s_waitcnt_lgkmcnt 6
  %m = waveasm.v_mov_b32 %l : !waveasm.vreg -> !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// With insert-after-loads the wait after a load lands before an input wait
// that follows the load: they merge.
// AFTER-LABEL: waveasm.program @after_load
// AFTER:      waveasm.buffer_load_dword
// AFTER-NEXT: waveasm.s_waitcnt vmcnt(0) lgkmcnt(1)
// AFTER-NEXT: waveasm.v_mov_b32
// AFTER-NOT:  s_waitcnt
// AFTER:      waveasm.s_endpgm
waveasm.program @after_load target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %a = waveasm.buffer_load_dword %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.s_waitcnt_lgkmcnt 1
  %m = waveasm.v_mov_b32 %a : !waveasm.vreg -> !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// Inside a loop body: the drain-free loop still merges the input waits at
// the body's start.
// CHECK-LABEL: waveasm.program @in_loop
// CHECK:      waveasm.loop
// CHECK-NEXT: waveasm.s_waitcnt vmcnt(2) lgkmcnt(1)
// CHECK-NEXT: waveasm.s_add_u32
waveasm.program @in_loop target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r = waveasm.loop (%i = %i0) : (!waveasm.sreg) -> (!waveasm.sreg) {
    waveasm.s_waitcnt_lgkmcnt 1
    waveasm.s_waitcnt_vmcnt 2
    %n:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %n#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%n#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}
