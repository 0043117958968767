// Rematerialization (SPEC.md 14.4 step 3): v_mov_b32 of a constant or an
// SGPR and s_mov_b32 of a constant that live longer than 10 points are
// cloned next to their users and the original is erased. A VGPR clone never
// goes into a loop its original is outside of: the users inside such a loop
// share one clone right before the outermost of those loops. SGPR clones go
// right before each user, inside loops too. The s_nop runs only make ranges
// long.
// RUN: waveasm-opt --split-input-file --waveasm-linear-scan %s | FileCheck %s
// RUN: waveasm-opt --split-input-file --waveasm-linear-scan --debug-only=waveasm-linear-scan --mlir-disable-threading %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOG

// A broadcast defined at the top and used inside a loop: one clone right
// before the loop (so it is not live from the top), none inside it.
// LOG: rematerialized waveasm.v_mov_b32 at {{.*}}: 1 clone(s), 1 before a loop
// CHECK-LABEL: waveasm.program @vgpr_used_in_loop
// CHECK:      waveasm.s_nop
// CHECK-NOT:  waveasm.v_mov_b32
// CHECK:      waveasm.s_mov_b32 %{{.*}} : !waveasm.imm<0>
// CHECK-NEXT: %[[B:[0-9]+]] = waveasm.v_mov_b32 %{{.*}} : !waveasm.imm<77> -> !waveasm.pvreg<1>
// CHECK-NEXT: waveasm.loop
// CHECK-NOT:  waveasm.v_mov_b32
// CHECK:      waveasm.v_add_u32 %{{.*}}, %[[B]]
// CHECK-NOT:  waveasm.v_mov_b32
// CHECK:      waveasm.condition
waveasm.program @vgpr_used_in_loop target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c77 = waveasm.constant 77 : !waveasm.imm<77>
  %b = waveasm.v_mov_b32 %c77 : !waveasm.imm<77> -> !waveasm.vreg
  waveasm.s_nop 0
  waveasm.s_nop 0
  waveasm.s_nop 0
  waveasm.s_nop 0
  waveasm.s_nop 0
  waveasm.s_nop 0
  waveasm.s_nop 0
  waveasm.s_nop 0
  waveasm.s_nop 0
  waveasm.s_nop 0
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r = waveasm.loop (%i = %i0) : (!waveasm.sreg) -> (!waveasm.sreg) {
    %x = waveasm.v_add_u32 %tid, %b : !waveasm.pvreg<0>, !waveasm.vreg -> !waveasm.vreg
    waveasm.buffer_store_dword %x, %srd, %tid : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
    %n:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %n#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%n#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}

// -----

// Users in a nested loop and after the loops, a loop init and an SGPR
// broadcast: the users inside the outer loop (also those in the inner one)
// share the clone before the outer loop; the init gets its own clone, which
// dies at the loop and so shares the block argument's register; the user
// after the loop gets its own clone.
// LOG: rematerialized waveasm.v_mov_b32 at {{.*}}: 3 clone(s), 1 before a loop
// CHECK-LABEL: waveasm.program @nested_and_init
// CHECK:      waveasm.s_nop
// CHECK-NOT:  waveasm.v_mov_b32
// CHECK:      %[[INIT:[0-9]+]] = waveasm.v_mov_b32 %[[WG:[0-9]+]] : !waveasm.psreg<2> -> !waveasm.pvreg<[[R:[0-9]+]]>
// CHECK-NEXT: %[[IN:[0-9]+]] = waveasm.v_mov_b32 %[[WG]] : !waveasm.psreg<2> -> !waveasm.pvreg<{{[0-9]+}}>
// CHECK-NEXT: waveasm.loop (%{{.*}} = %{{.*}}, %[[ARG:arg[0-9]+]] = %[[INIT]]) : (!waveasm.psreg<{{[0-9]+}}>, !waveasm.pvreg<[[R]]>)
// CHECK-NOT:  waveasm.v_mov_b32
// CHECK:      waveasm.loop
// CHECK-NOT:  waveasm.v_mov_b32
// CHECK:      waveasm.v_add_u32 %[[ARG]], %[[IN]]
// CHECK-NOT:  waveasm.v_mov_b32
// CHECK:      waveasm.condition
// CHECK-NOT:  waveasm.v_mov_b32
// CHECK:      waveasm.condition
// CHECK-NEXT: {{^ *}}}{{$}}
// CHECK-NEXT: %[[AFTER:[0-9]+]] = waveasm.v_mov_b32 %[[WG]] : !waveasm.psreg<2>
// CHECK-NEXT: waveasm.buffer_store_dword %[[AFTER]]
waveasm.program @nested_and_init target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %wg = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %b = waveasm.v_mov_b32 %wg : !waveasm.psreg<2> -> !waveasm.vreg
  waveasm.s_nop 0
  waveasm.s_nop 0
  waveasm.s_nop 0
  waveasm.s_nop 0
  waveasm.s_nop 0
  waveasm.s_nop 0
  waveasm.s_nop 0
  waveasm.s_nop 0
  waveasm.s_nop 0
  waveasm.s_nop 0
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r:2 = waveasm.loop (%i = %i0, %acc = %b) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %j0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
    %rj = waveasm.loop (%j = %j0) : (!waveasm.sreg) -> (!waveasm.sreg) {
      %x = waveasm.v_add_u32 %acc, %b : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      waveasm.buffer_store_dword %x, %srd, %tid : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
      %m:2 = waveasm.s_add_u32 %j, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
      %goj = waveasm.s_cmp_lt_u32 %m#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
      waveasm.condition %goj : !waveasm.scc iter_args(%m#0) : !waveasm.sreg
    }
    %y = waveasm.v_add_u32 %acc, %tid : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %n:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %n#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%n#0, %y) : !waveasm.sreg, !waveasm.vreg
  }
  waveasm.buffer_store_dword %b, %srd, %r#1 : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// Defined in the outer loop's body and used in the inner loop: the clone
// goes before the inner loop (inside the outer one, where the original is).
// An s_mov_b32 constant is cloned right before its user, inside the loop.
// CHECK-LABEL: waveasm.program @def_in_outer_loop
// CHECK:      waveasm.loop
// CHECK-NOT:  waveasm.v_mov_b32
// CHECK:      waveasm.s_nop
// CHECK:      waveasm.v_mov_b32 %{{.*}} : !waveasm.imm<77>
// CHECK-NEXT: waveasm.loop
// CHECK-NOT:  waveasm.v_mov_b32
// CHECK:      waveasm.s_mov_b32 %{{.*}} : !waveasm.imm<99>
// CHECK-NEXT: waveasm.s_mov_b32_m0
waveasm.program @def_in_outer_loop target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c77 = waveasm.constant 77 : !waveasm.imm<77>
  %c99 = waveasm.constant 99 : !waveasm.imm<99>
  %s = waveasm.s_mov_b32 %c99 : !waveasm.imm<99> -> !waveasm.sreg
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r = waveasm.loop (%i = %i0) : (!waveasm.sreg) -> (!waveasm.sreg) {
    %b = waveasm.v_mov_b32 %c77 : !waveasm.imm<77> -> !waveasm.vreg
    waveasm.s_nop 0
    waveasm.s_nop 0
    waveasm.s_nop 0
    waveasm.s_nop 0
    waveasm.s_nop 0
    waveasm.s_nop 0
    waveasm.s_nop 0
    waveasm.s_nop 0
    waveasm.s_nop 0
    waveasm.s_nop 0
    %j0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
    %rj = waveasm.loop (%j = %j0) : (!waveasm.sreg) -> (!waveasm.sreg) {
      %x = waveasm.v_add_u32 %tid, %b : !waveasm.pvreg<0>, !waveasm.vreg -> !waveasm.vreg
      waveasm.buffer_store_dword %x, %srd, %tid : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
      waveasm.s_mov_b32_m0 %s : !waveasm.sreg
      %m:2 = waveasm.s_add_u32 %j, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
      %goj = waveasm.s_cmp_lt_u32 %m#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
      waveasm.condition %goj : !waveasm.scc iter_args(%m#0) : !waveasm.sreg
    }
    %n:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %n#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%n#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}

// -----

// Not rematerialized: a range of at most 10 points, and a move from a
// physical SGPR that the program writes again (a clone after the write
// would read a different value).
// LOG: kept waveasm.v_mov_b32 at {{.*}}: the program writes its SGPR again
// CHECK-LABEL: waveasm.program @kept
// CHECK:      %[[SHORT:[0-9]+]] = waveasm.v_mov_b32 %{{.*}} : !waveasm.imm<77>
// CHECK-NEXT: %[[FROM:[0-9]+]] = waveasm.v_mov_b32 %{{.*}} : !waveasm.psreg<20>
// CHECK-NEXT: waveasm.s_mov_b32 %{{.*}} : !waveasm.imm<5> -> !waveasm.psreg<20>
// CHECK-NOT:  waveasm.v_mov_b32
// CHECK:      waveasm.buffer_store_dword %[[SHORT]]
// CHECK-NOT:  waveasm.v_mov_b32
// CHECK:      waveasm.buffer_store_dword %[[FROM]]
waveasm.program @kept target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %s20 = waveasm.precolored.sreg 20 : !waveasm.psreg<20>
  %c5 = waveasm.constant 5 : !waveasm.imm<5>
  %c77 = waveasm.constant 77 : !waveasm.imm<77>
  %short = waveasm.v_mov_b32 %c77 : !waveasm.imm<77> -> !waveasm.vreg
  %from = waveasm.v_mov_b32 %s20 : !waveasm.psreg<20> -> !waveasm.vreg
  %w = waveasm.s_mov_b32 %c5 : !waveasm.imm<5> -> !waveasm.psreg<20>
  waveasm.s_nop 0
  waveasm.s_nop 0
  waveasm.s_nop 0
  waveasm.s_nop 0
  waveasm.s_nop 0
  waveasm.s_nop 0
  waveasm.buffer_store_dword %short, %srd, %tid : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.s_nop 0
  waveasm.s_nop 0
  waveasm.s_nop 0
  waveasm.s_nop 0
  waveasm.buffer_store_dword %from, %srd, %tid : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.s_mov_b32_m0 %w : !waveasm.psreg<20>
  waveasm.s_endpgm
}
