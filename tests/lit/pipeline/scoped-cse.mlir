// waveasm-scoped-cse (SPEC.md 19): equal ops in the same or an enclosing
// scope are merged; the rules that keep two equal-looking ops apart.
// RUN: waveasm-opt --split-input-file --waveasm-scoped-cse %s | FileCheck %s

// Same block: arithmetic (operands of commutative ops in either order),
// constants and moves merge; non-commutative operand orders, other result
// types, attributes or `no_cse` do not.
// CHECK-LABEL: waveasm.program @same_block
// CHECK-DAG:   %[[X:.*]] = waveasm.precolored.vreg 1 :
// CHECK-DAG:   %[[Y:.*]] = waveasm.precolored.vreg 2 :
// CHECK:       %[[C4:.*]] = waveasm.constant 4 :
// CHECK-NOT:   waveasm.constant 4
// CHECK:       %[[A:.*]] = waveasm.v_add_u32 %[[X]], %[[Y]]
// CHECK-NEXT:  %[[S1:.*]] = waveasm.v_sub_u32 %[[X]], %[[Y]]
// CHECK-NEXT:  %[[S2:.*]] = waveasm.v_sub_u32 %[[Y]], %[[X]]
// CHECK-NEXT:  %[[M:.*]] = waveasm.v_mov_b32 %[[C4]] : !waveasm.imm<4> -> !waveasm.vreg
// CHECK-NEXT:  %[[M4:.*]] = waveasm.v_mov_b32 %[[C4]] : !waveasm.imm<4> -> !waveasm.vreg<4, 4>
// CHECK-NEXT:  %[[N1:.*]] = waveasm.v_mov_b32 %[[C4]] {no_cse}
// CHECK-NEXT:  %[[N2:.*]] = waveasm.v_mov_b32 %[[C4]] {no_cse}
// CHECK-NEXT:  %[[T1:.*]] = waveasm.v_mov_b32 %[[C4]] {tag = 1 : i64}
// CHECK-NEXT:  %[[T2:.*]] = waveasm.v_mov_b32 %[[C4]] {tag = 2 : i64}
// CHECK-NEXT:  waveasm.dce_protect %[[A]]
// CHECK-NEXT:  waveasm.dce_protect %[[A]]
// CHECK-NEXT:  waveasm.dce_protect %[[S1]]
// CHECK-NEXT:  waveasm.dce_protect %[[S2]]
// CHECK-NEXT:  waveasm.dce_protect %[[M]]
// CHECK-NEXT:  waveasm.dce_protect %[[M]]
// CHECK-NEXT:  waveasm.dce_protect %[[M4]]
waveasm.program @same_block target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %x = waveasm.precolored.vreg 1 : !waveasm.vreg
  %y = waveasm.precolored.vreg 2 : !waveasm.vreg
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %c4b = waveasm.constant 4 : !waveasm.imm<4>
  %a = waveasm.v_add_u32 %x, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %b = waveasm.v_add_u32 %y, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %s1 = waveasm.v_sub_u32 %x, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %s2 = waveasm.v_sub_u32 %y, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %m = waveasm.v_mov_b32 %c4 : !waveasm.imm<4> -> !waveasm.vreg
  %m2 = waveasm.v_mov_b32 %c4b : !waveasm.imm<4> -> !waveasm.vreg
  %m4 = waveasm.v_mov_b32 %c4 : !waveasm.imm<4> -> !waveasm.vreg<4, 4>
  %n1 = waveasm.v_mov_b32 %c4 {no_cse} : !waveasm.imm<4> -> !waveasm.vreg
  %n2 = waveasm.v_mov_b32 %c4 {no_cse} : !waveasm.imm<4> -> !waveasm.vreg
  %t1 = waveasm.v_mov_b32 %c4 {tag = 1 : i64} : !waveasm.imm<4> -> !waveasm.vreg
  %t2 = waveasm.v_mov_b32 %c4 {tag = 2 : i64} : !waveasm.imm<4> -> !waveasm.vreg
  waveasm.dce_protect %a : !waveasm.vreg
  waveasm.dce_protect %b : !waveasm.vreg
  waveasm.dce_protect %s1 : !waveasm.vreg
  waveasm.dce_protect %s2 : !waveasm.vreg
  waveasm.dce_protect %m : !waveasm.vreg
  waveasm.dce_protect %m2 : !waveasm.vreg
  waveasm.dce_protect %m4 : !waveasm.vreg<4, 4>
  waveasm.dce_protect %n1 : !waveasm.vreg
  waveasm.dce_protect %n2 : !waveasm.vreg
  waveasm.dce_protect %t1 : !waveasm.vreg
  waveasm.dce_protect %t2 : !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// Scopes: an op in a loop body equal to one before the loop is replaced by
// it; the then and else regions of an if are separate scopes, and what is
// defined in a region is gone after it.
// CHECK-LABEL: waveasm.program @scopes
// CHECK:       %[[OUT:.*]] = waveasm.v_add_u32
// CHECK:       waveasm.loop
// CHECK-NOT:   waveasm.v_add_u32
// CHECK:       waveasm.dce_protect %[[OUT]]
// CHECK:       waveasm.condition
// CHECK:       waveasm.if
// CHECK-NEXT:  %[[T:.*]] = waveasm.v_mul_lo_u32
// CHECK-NEXT:  waveasm.dce_protect %[[T]]
// CHECK-NEXT:  waveasm.dce_protect %[[T]]
// CHECK:       } else {
// CHECK-NEXT:  %[[E:.*]] = waveasm.v_mul_lo_u32
// CHECK-NEXT:  waveasm.dce_protect %[[E]]
// CHECK:       %[[AFTER:.*]] = waveasm.v_mul_lo_u32
// CHECK-NEXT:  waveasm.dce_protect %[[AFTER]]
waveasm.program @scopes target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %x = waveasm.precolored.vreg 1 : !waveasm.vreg
  %y = waveasm.precolored.vreg 2 : !waveasm.vreg
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %out = waveasm.v_add_u32 %x, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r = waveasm.loop (%k = %k0) : (!waveasm.sreg) -> !waveasm.sreg {
    %in = waveasm.v_add_u32 %x, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.dce_protect %in : !waveasm.vreg
    %next:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %next#0, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%next#0) : !waveasm.sreg
  }
  %cond = waveasm.s_cmp_eq_u32 %r, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
  waveasm.if %cond {
    %t = waveasm.v_mul_lo_u32 %x, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %t2 = waveasm.v_mul_lo_u32 %x, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.dce_protect %t : !waveasm.vreg
    waveasm.dce_protect %t2 : !waveasm.vreg
    waveasm.yield
  } else {
    %e = waveasm.v_mul_lo_u32 %x, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.dce_protect %e : !waveasm.vreg
    waveasm.yield
  }
  %after = waveasm.v_mul_lo_u32 %x, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.dce_protect %after : !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// Never merged: memory ops, precolored values, ops reading VCC implicitly
// (v_cndmask_b32), ops writing VCC (a carry-in op may read it), allocated
// ops, SCC writers whose SCC result is used.
// CHECK-LABEL: waveasm.program @never
// CHECK-COUNT-2: waveasm.buffer_load_dword
// CHECK-COUNT-2: waveasm.precolored.vreg 1 :
// CHECK-COUNT-2: waveasm.v_cndmask_b32
// CHECK-COUNT-2: waveasm.v_add_co_u32
// CHECK-COUNT-2: waveasm.v_add_u32 {{.*}} -> !waveasm.pvreg<5>
// CHECK-COUNT-2: waveasm.s_add_u32
waveasm.program @never target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %x = waveasm.precolored.vreg 1 : !waveasm.vreg
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %l1 = waveasm.buffer_load_dword %srd, %x, %c0 : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  %l2 = waveasm.buffer_load_dword %srd, %x, %c0 : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  %p1 = waveasm.precolored.vreg 1 : !waveasm.vreg
  %p2 = waveasm.precolored.vreg 1 : !waveasm.vreg
  waveasm.v_cmp_gt_u32 %l1, %l2 : !waveasm.vreg, !waveasm.vreg
  %s1 = waveasm.v_cndmask_b32 %l1, %l2, %c0 : !waveasm.vreg, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  %s2 = waveasm.v_cndmask_b32 %l1, %l2, %c0 : !waveasm.vreg, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  %lo1, %cy1 = waveasm.v_add_co_u32 %l1, %l2 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg, !waveasm.sreg<2>
  %lo2, %cy2 = waveasm.v_add_co_u32 %l1, %l2 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg, !waveasm.sreg<2>
  %hi, %cy3 = waveasm.v_addc_co_u32 %l1, %l2 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg, !waveasm.sreg<2>
  %a1 = waveasm.v_add_u32 %l1, %l2 : !waveasm.vreg, !waveasm.vreg -> !waveasm.pvreg<5>
  %a2 = waveasm.v_add_u32 %l1, %l2 : !waveasm.vreg, !waveasm.vreg -> !waveasm.pvreg<5>
  %k = waveasm.precolored.sreg 4 : !waveasm.sreg
  %q1:2 = waveasm.s_add_u32 %k, %k : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg, !waveasm.scc
  %q2:2 = waveasm.s_add_u32 %k, %k : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg, !waveasm.scc
  %h:2 = waveasm.s_addc_u32 %q2#1, %k, %k : !waveasm.scc, !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg, !waveasm.scc
  waveasm.dce_protect %p1 : !waveasm.vreg
  waveasm.dce_protect %p2 : !waveasm.vreg
  waveasm.dce_protect %s1 : !waveasm.vreg
  waveasm.dce_protect %s2 : !waveasm.vreg
  waveasm.dce_protect %lo1 : !waveasm.vreg
  waveasm.dce_protect %lo2 : !waveasm.vreg
  waveasm.dce_protect %hi : !waveasm.vreg
  waveasm.dce_protect %a1 : !waveasm.pvreg<5>
  waveasm.dce_protect %a2 : !waveasm.pvreg<5>
  waveasm.dce_protect %q1#0 : !waveasm.sreg
  waveasm.dce_protect %h#0 : !waveasm.sreg
  waveasm.s_endpgm
}

// -----

// SCC writers merge when the duplicate's SCC result is unused and nothing
// reads SCC without an SSA operand.
// CHECK-LABEL: waveasm.program @scc_writers
// CHECK:       %[[A:.*]], %{{.*}} = waveasm.s_and_b32
// CHECK-NOT:   waveasm.s_and_b32
// CHECK:       waveasm.dce_protect %[[A]]
// CHECK-NEXT:  waveasm.dce_protect %[[A]]
waveasm.program @scc_writers target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %k = waveasm.precolored.sreg 4 : !waveasm.sreg
  %c15 = waveasm.constant 15 : !waveasm.imm<15>
  %a:2 = waveasm.s_and_b32 %k, %c15 : !waveasm.sreg, !waveasm.imm<15> -> !waveasm.sreg, !waveasm.scc
  %b:2 = waveasm.s_and_b32 %k, %c15 : !waveasm.sreg, !waveasm.imm<15> -> !waveasm.sreg, !waveasm.scc
  waveasm.dce_protect %a#0 : !waveasm.sreg
  waveasm.dce_protect %b#0 : !waveasm.sreg
  waveasm.s_endpgm
}

// -----

// A branch reads SCC with no SSA operand: the s_and_b32 that last wrote SCC
// before it must stay.
// CHECK-LABEL: waveasm.program @implicit_scc_reader
// CHECK-COUNT-2: waveasm.s_and_b32
waveasm.program @implicit_scc_reader target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %k = waveasm.precolored.sreg 4 : !waveasm.sreg
  %c15 = waveasm.constant 15 : !waveasm.imm<15>
  %a:2 = waveasm.s_and_b32 %k, %c15 : !waveasm.sreg, !waveasm.imm<15> -> !waveasm.sreg, !waveasm.scc
  %t:2 = waveasm.s_or_b32 %k, %c15 : !waveasm.sreg, !waveasm.imm<15> -> !waveasm.sreg, !waveasm.scc
  %b:2 = waveasm.s_and_b32 %k, %c15 : !waveasm.sreg, !waveasm.imm<15> -> !waveasm.sreg, !waveasm.scc
  waveasm.s_cbranch_scc1 @done
  waveasm.dce_protect %a#0 : !waveasm.sreg
  waveasm.dce_protect %t#0 : !waveasm.sreg
  waveasm.dce_protect %b#0 : !waveasm.sreg
  waveasm.label @done
  waveasm.s_endpgm
}

// -----

// EXEC: VALU ops separated by an EXEC write compute under different masks;
// SALU ops do not care. The body of a loop that writes EXEC may start under
// another mask than the code before the loop.
// CHECK-LABEL: waveasm.program @exec
// CHECK:       %[[V1:.*]] = waveasm.v_add_u32
// CHECK:       %[[S1:.*]], %{{.*}} = waveasm.s_lshl_b32
// CHECK:       waveasm.s_and_saveexec_b64
// CHECK-NEXT:  %[[V2:.*]] = waveasm.v_add_u32
// CHECK-NOT:   waveasm.s_lshl_b32
// CHECK:       waveasm.s_mov_b64_exec
// CHECK-NEXT:  %[[V4:.*]] = waveasm.v_add_u32
// CHECK:       waveasm.loop
// CHECK-NEXT:  %[[V3:.*]] = waveasm.v_add_u32
// CHECK-NEXT:  waveasm.dce_protect %[[V3]]
// CHECK:       waveasm.dce_protect %[[V1]]
// CHECK-NEXT:  waveasm.dce_protect %[[V2]]
// CHECK-NEXT:  waveasm.dce_protect %[[V4]]
// CHECK-NEXT:  waveasm.dce_protect %[[S1]]
// CHECK-NEXT:  waveasm.dce_protect %[[S1]]
waveasm.program @exec target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %x = waveasm.precolored.vreg 1 : !waveasm.vreg
  %y = waveasm.precolored.vreg 2 : !waveasm.vreg
  %k = waveasm.precolored.sreg 4 : !waveasm.sreg
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %v1 = waveasm.v_add_u32 %x, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %s1:2 = waveasm.s_lshl_b32 %k, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.sreg, !waveasm.scc
  waveasm.v_cmp_gt_u32 %x, %y : !waveasm.vreg, !waveasm.vreg
  %saved = waveasm.s_and_saveexec_b64 -> !waveasm.sreg<2, 2>
  %v2 = waveasm.v_add_u32 %x, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %s2:2 = waveasm.s_lshl_b32 %k, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.sreg, !waveasm.scc
  waveasm.s_mov_b64_exec %saved : !waveasm.sreg<2, 2>
  %v4 = waveasm.v_add_u32 %x, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r = waveasm.loop (%i = %k0) : (!waveasm.sreg) -> !waveasm.sreg {
    %v3 = waveasm.v_add_u32 %x, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.dce_protect %v3 : !waveasm.vreg
    waveasm.v_cmp_gt_u32 %x, %y : !waveasm.vreg, !waveasm.vreg
    %sv = waveasm.s_and_saveexec_b64 -> !waveasm.sreg<2, 2>
    %next:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %next#0, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%next#0) : !waveasm.sreg
  }
  waveasm.dce_protect %v1 : !waveasm.vreg
  waveasm.dce_protect %v2 : !waveasm.vreg
  waveasm.dce_protect %v4 : !waveasm.vreg
  waveasm.dce_protect %s1#0 : !waveasm.sreg
  waveasm.dce_protect %s2#0 : !waveasm.sreg
  waveasm.s_endpgm
}
