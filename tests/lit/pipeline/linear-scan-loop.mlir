// Loops: the init, block argument, condition iter_arg and result of each
// position share one register (SPEC.md 14.3); values defined before a loop
// and used in it stay live across the whole loop; `_iterArgPhysRegs`
// records the iter_args' registers. Where a position cannot share (swap,
// init still used after the loop, duplicated init, iter_arg computed before
// the block argument's last use, loop-invariant iter_arg), an explicit copy
// is inserted so that all four types stay identical (upstream leaves the
// types different and relies on the emitter).
// RUN: waveasm-opt --waveasm-linear-scan %s | FileCheck %s
// RUN: waveasm-opt --waveasm-linear-scan %s | FileCheck %s --check-prefix=NOVIRT
// NOVIRT-NOT: !waveasm.vreg
// NOVIRT-NOT: !waveasm.sreg
// NOVIRT: waveasm.program @carried

// CHECK-LABEL: waveasm.program @carried
waveasm.program @carried target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  // CHECK: %[[K0:.*]] = waveasm.s_mov_b32 %{{.*}} -> !waveasm.psreg<4>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  // Loop invariant, used in the body: live across the whole loop (v1).
  // CHECK: %[[OFF:.*]] = waveasm.v_add_u32 %{{.*}} -> !waveasm.pvreg<1>
  %off = waveasm.v_add_u32 %tid, %c1 : !waveasm.pvreg<0>, !waveasm.imm<1> -> !waveasm.vreg
  // CHECK: %[[ACC0:.*]] = waveasm.v_mov_b32 %{{.*}} -> !waveasm.pvreg<2>
  %acc0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  // CHECK: %[[R:.*]]:2 = waveasm.loop (%[[K:.*]] = %[[K0]], %[[ACC:.*]] = %[[ACC0]]) : (!waveasm.psreg<4>, !waveasm.pvreg<2>) -> (!waveasm.psreg<4>, !waveasm.pvreg<2>) {
  %r:2 = waveasm.loop (%k = %k0, %acc = %acc0) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    // A body temporary never takes v1 (the invariant) although its last
    // textual use is above.
    // CHECK: %[[X:.*]] = waveasm.buffer_load_dword %{{.*}}, %[[OFF]], %{{.*}} -> !waveasm.pvreg<3>
    %x = waveasm.buffer_load_dword %srd, %off, %c0 : !waveasm.psreg<0, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    // The new accumulator reuses the block argument's register.
    // CHECK: %[[NEXT:.*]] = waveasm.v_add_f32 %[[ACC]], %[[X]] : !waveasm.pvreg<2>, !waveasm.pvreg<3> -> !waveasm.pvreg<2>
    %next = waveasm.v_add_f32 %acc, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    // CHECK: %[[KN:.*]], %{{.*}} = waveasm.s_add_u32 %[[K]], %{{.*}} -> !waveasm.psreg<4>, !waveasm.scc
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    // CHECK: waveasm.condition %{{.*}} : !waveasm.scc iter_args(%[[KN]], %[[NEXT]]) : !waveasm.psreg<4>, !waveasm.pvreg<2> {_iterArgPhysRegs = array<i64: 4, 2>}
    waveasm.condition %go : !waveasm.scc iter_args(%kn#0, %next) : !waveasm.sreg, !waveasm.vreg
  }
  // CHECK: waveasm.buffer_store_dword %[[R]]#1, %{{.*}}, %[[OFF]] : !waveasm.pvreg<2>, !waveasm.psreg<0, 4>, !waveasm.pvreg<1>
  waveasm.buffer_store_dword %r#1, %srd, %off : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.vreg
  waveasm.s_endpgm
}

// Double buffering: the condition yields (%b, %a), the "swap" pattern. The
// old %a is saved to a temporary, then both block arguments are written.
// CHECK-LABEL: waveasm.program @swap
waveasm.program @swap target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %a0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %b0 = waveasm.s_mov_b32 %c8 : !waveasm.imm<8> -> !waveasm.sreg
  // CHECK: waveasm.loop (%[[I:.*]] = %{{.*}}, %[[A:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}}) : (!waveasm.psreg<0>, !waveasm.psreg<1>, !waveasm.psreg<2>) -> (!waveasm.psreg<0>, !waveasm.psreg<1>, !waveasm.psreg<2>)
  %r:3 = waveasm.loop (%i = %i0, %a = %a0, %b = %b0) : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg) -> (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg) {
    waveasm.s_mov_b32_m0 %a : !waveasm.sreg
    %in:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %in#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    // CHECK: %[[T:.*]] = waveasm.s_mov_b32 %[[A]] : !waveasm.psreg<1> -> !waveasm.psreg<[[TMP:[0-9]+]]>
    // CHECK-NEXT: %[[NA:.*]] = waveasm.s_mov_b32 %[[B]] : !waveasm.psreg<2> -> !waveasm.psreg<1>
    // CHECK-NEXT: %[[NB:.*]] = waveasm.s_mov_b32 %[[T]] : !waveasm.psreg<[[TMP]]> -> !waveasm.psreg<2>
    // CHECK-NEXT: waveasm.condition %{{.*}} iter_args(%{{.*}}, %[[NA]], %[[NB]]) : !waveasm.psreg<0>, !waveasm.psreg<1>, !waveasm.psreg<2> {_iterArgPhysRegs = array<i64: 0, 1, 2>}
    waveasm.condition %go : !waveasm.scc iter_args(%in#0, %b, %a) : !waveasm.sreg, !waveasm.sreg, !waveasm.sreg
  }
  waveasm.s_mov_b32_m0 %r#1 : !waveasm.sreg
  waveasm.s_endpgm
}

// Inits that cannot share the block argument's register: %v is used after
// the loop, and %z feeds two positions. Each gets a copy right before the
// loop; the copies are the inits. (The two quads also swap every iteration.)
// CHECK-LABEL: waveasm.program @inits
waveasm.program @inits target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %s = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  // CHECK: %[[V:.*]] = waveasm.v_add_u32 {{.*}} -> !waveasm.pvreg<1>
  %v = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  // CHECK: %[[Z:.*]] = waveasm.v_mov_b32 %{{.*}} : !waveasm.imm<0> -> !waveasm.pvreg<[[ZR:[0-9]+]], 4>
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  // CHECK: %[[V2:.*]] = waveasm.v_mov_b32 %[[V]] : !waveasm.pvreg<1> -> !waveasm.pvreg<[[V2R:[0-9]+]]>
  // CHECK-NEXT: %[[Z2:.*]] = waveasm.v_mov_b32 %[[Z]] : !waveasm.pvreg<[[ZR]], 4> -> !waveasm.pvreg<[[Z2R:[0-9]+]], 4>
  // CHECK-NEXT: waveasm.loop (%{{.*}} = %[[V2]], %{{.*}} = %[[Z]], %{{.*}} = %[[Z2]]) : (!waveasm.pvreg<[[V2R]]>, !waveasm.pvreg<[[ZR]], 4>, !waveasm.pvreg<[[Z2R]], 4>)
  %r:3 = waveasm.loop (%x = %v, %p = %z, %q = %z) : (!waveasm.vreg, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>) -> (!waveasm.vreg, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>) {
    %x2 = waveasm.v_add_u32 %x, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %go = waveasm.s_cmp_lt_u32 %s, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%x2, %q, %p) : !waveasm.vreg, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>
  }
  waveasm.buffer_store_dword %v, %srd, %r#0 : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.vreg
  waveasm.buffer_store_dwordx4 %r#1, %srd, %v : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.vreg
  waveasm.buffer_store_dwordx4 %r#2, %srd, %v : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.vreg
  waveasm.s_endpgm
}

// Iter_args that cannot share: %n is computed while %a is still needed
// (write-after-read), %inv is loop-invariant. Copies sit right before the
// condition, after the last use of the block arguments.
// CHECK-LABEL: waveasm.program @iter_args
waveasm.program @iter_args target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %s = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %inv = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  %a0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %b0 = waveasm.v_mov_b32 %c8 : !waveasm.imm<8> -> !waveasm.vreg
  // CHECK: waveasm.loop (%[[A:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}}) : (!waveasm.pvreg<[[AR:[0-9]+]]>, !waveasm.pvreg<[[BR:[0-9]+]]>) -> (!waveasm.pvreg<[[AR]]>, !waveasm.pvreg<[[BR]]>)
  %r:2 = waveasm.loop (%a = %a0, %b = %b0) : (!waveasm.vreg, !waveasm.vreg) -> (!waveasm.vreg, !waveasm.vreg) {
    // CHECK: %[[N:.*]] = waveasm.v_add_u32 %[[A]], %[[B]]
    %n = waveasm.v_add_u32 %a, %b : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    // CHECK-NEXT: waveasm.buffer_store_dword %[[A]]
    waveasm.buffer_store_dword %a, %srd, %n : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.vreg
    %go = waveasm.s_cmp_lt_u32 %s, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    // CHECK: %[[CA:.*]] = waveasm.v_mov_b32 %[[N]] : !waveasm.pvreg<{{[0-9]+}}> -> !waveasm.pvreg<[[AR]]>
    // CHECK-NEXT: %[[CB:.*]] = waveasm.v_mov_b32 %{{.*}} : !waveasm.pvreg<{{[0-9]+}}> -> !waveasm.pvreg<[[BR]]>
    // CHECK-NEXT: waveasm.condition %{{.*}} iter_args(%[[CA]], %[[CB]]) : !waveasm.pvreg<[[AR]]>, !waveasm.pvreg<[[BR]]> {_iterArgPhysRegs = array<i64: [[AR]], [[BR]]>}
    waveasm.condition %go : !waveasm.scc iter_args(%n, %inv) : !waveasm.vreg, !waveasm.vreg
  }
  waveasm.buffer_store_dword %r#0, %srd, %r#1 : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.vreg
  waveasm.s_endpgm
}

// Nested loops: the inner loop's results are the outer iter_args; the outer
// block argument is the inner init. All of them share one register.
// CHECK-LABEL: waveasm.program @nested
waveasm.program @nested target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %s = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %v0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  // CHECK: waveasm.loop (%[[O:.*]] = %{{.*}}) : (!waveasm.pvreg<[[R:[0-9]+]]>) -> !waveasm.pvreg<[[R]]>
  %out = waveasm.loop (%o = %v0) : (!waveasm.vreg) -> (!waveasm.vreg) {
    // CHECK: %[[IN:.*]] = waveasm.loop (%[[I:.*]] = %[[O]]) : (!waveasm.pvreg<[[R]]>) -> !waveasm.pvreg<[[R]]>
    %in = waveasm.loop (%i = %o) : (!waveasm.vreg) -> (!waveasm.vreg) {
      // CHECK: %[[I2:.*]] = waveasm.v_add_u32 %[[I]], %{{.*}} -> !waveasm.pvreg<[[R]]>
      %i2 = waveasm.v_add_u32 %i, %tid : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
      %go = waveasm.s_cmp_lt_u32 %s, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
      // CHECK: waveasm.condition %{{.*}} iter_args(%[[I2]]) : !waveasm.pvreg<[[R]]>
      waveasm.condition %go : !waveasm.scc iter_args(%i2) : !waveasm.vreg
    }
    %go = waveasm.s_cmp_lt_u32 %s, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    // CHECK: waveasm.condition %{{.*}} iter_args(%[[IN]]) : !waveasm.pvreg<[[R]]> {_iterArgPhysRegs = array<i64: [[R]]>}
    waveasm.condition %go : !waveasm.scc iter_args(%in) : !waveasm.vreg
  }
  waveasm.buffer_store_dword %out, %srd, %tid : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

// As upstream, an iter_arg loaded by a sub-dword buffer load is never
// computed in place into the block argument's register: it is copied.
// CHECK-LABEL: waveasm.program @byte_load
waveasm.program @byte_load target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %s = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %b0 = waveasm.buffer_load_ubyte %srd, %tid, %c0 : !waveasm.psreg<0, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  // CHECK: waveasm.loop (%[[B:.*]] = %{{.*}}) : (!waveasm.pvreg<[[R:[0-9]+]]>) -> !waveasm.pvreg<[[R]]>
  %r = waveasm.loop (%b = %b0) : (!waveasm.vreg) -> (!waveasm.vreg) {
    waveasm.buffer_store_dword %b, %srd, %tid : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
    // CHECK: %[[L:.*]] = waveasm.buffer_load_ubyte {{.*}} -> !waveasm.pvreg<[[LR:[0-9]+]]>
    %n = waveasm.buffer_load_ubyte %srd, %tid, %c0 : !waveasm.psreg<0, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %go = waveasm.s_cmp_lt_u32 %s, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    // CHECK: %[[C:.*]] = waveasm.v_mov_b32 %[[L]] : !waveasm.pvreg<[[LR]]> -> !waveasm.pvreg<[[R]]>
    // CHECK-NEXT: waveasm.condition %{{.*}} iter_args(%[[C]]) : !waveasm.pvreg<[[R]]>
    waveasm.condition %go : !waveasm.scc iter_args(%n) : !waveasm.vreg
  }
  waveasm.buffer_store_dword %r, %srd, %tid : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}
