// --waveasm-loop-address-promotion (SPEC.md 18.7): a v_add_u32(invariant,
// rotating SGPR block argument) that feeds a ds_read becomes N VGPR
// iter_args computed before the loop and rotated on the back edge.
// Programs that are not rewritten come back unchanged; the debug log says
// why.
// RUN: waveasm-opt --waveasm-loop-address-promotion %s | FileCheck %s
// RUN: waveasm-opt --waveasm-loop-address-promotion %s | waveasm-opt > /dev/null
// RUN: waveasm-opt --waveasm-loop-address-promotion --mlir-disable-threading --debug-only=waveasm-loop-address-promotion %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOG

// Double buffer: (rd, wr) swap, a group of size 2. Two adds before the
// loop (with rd's init, then wr's), two VGPR iter_args yielded swapped; the
// read uses the first one; the write address (no ds_read user) stays.
// CHECK-LABEL: waveasm.program @double_buffer
// CHECK: waveasm.s_mov_b32 %{{.*}} : !waveasm.imm<0>
// CHECK-NEXT: %[[B0:.*]] = waveasm.s_mov_b32 %{{.*}} : !waveasm.imm<0>
// CHECK: %[[B1:.*]] = waveasm.s_mov_b32 %{{.*}} : !waveasm.imm<4096>
// CHECK: %[[A0:.*]] = waveasm.v_add_u32 %[[B0]], %[[OFF:.*]] : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
// CHECK-NEXT: %[[A1:.*]] = waveasm.v_add_u32 %[[B1]], %[[OFF]] : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
// CHECK-NEXT: waveasm.loop (%{{[^ ]*}} = %{{[^ ]*}}, %[[RD:[^ ]*]] = %[[B0]], %[[WR:[^ ]*]] = %[[B1]], %{{[^ ]*}} = %{{[^ ]*}}, %[[P0:[^ ]*]] = %[[A0]], %[[P1:[^ ]*]] = %[[A1]]) : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.vreg<2, 2>, !waveasm.vreg, !waveasm.vreg)
// CHECK: waveasm.v_add_u32 %[[WR]], %{{.*}}
// CHECK-NEXT: waveasm.ds_write_b64
// CHECK-NOT: waveasm.v_add_u32
// CHECK: waveasm.ds_read_b64 %[[P0]] :
// CHECK: waveasm.condition %{{.*}} : !waveasm.scc iter_args(%{{.*}}, %[[WR]], %[[RD]], %{{.*}}, %[[P1]], %[[P0]]) : !waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.vreg<2, 2>, !waveasm.vreg, !waveasm.vreg
// LOG: loop at {{.*}}: 1 address(es) promoted
waveasm.program @double_buffer target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c3 = waveasm.constant 3 : !waveasm.imm<3>
  %c4096 = waveasm.constant 4096 : !waveasm.imm<4096>
  %n = waveasm.constant 16 : !waveasm.imm<16>
  %off = waveasm.v_lshlrev_b32 %c3, %tid : !waveasm.imm<3>, !waveasm.pvreg<0> -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %b0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %b1 = waveasm.s_mov_b32 %c4096 : !waveasm.imm<4096> -> !waveasm.sreg
  %v0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<2, 2>
  %r:4 = waveasm.loop (%k = %k0, %rd = %b0, %wr = %b1, %v = %v0)
      : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.vreg<2, 2>)
     -> (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.vreg<2, 2>) {
    %w = waveasm.v_add_u32 %wr, %off : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.ds_write_b64 %v, %w : !waveasm.vreg<2, 2>, !waveasm.vreg
    waveasm.s_barrier
    %a = waveasm.v_add_u32 %rd, %off : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
    %x = waveasm.ds_read_b64 %a : !waveasm.vreg -> !waveasm.vreg<2, 2>
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %kn#0, %n : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%kn#0, %wr, %rd, %x) : !waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.vreg<2, 2>
  }
  waveasm.s_endpgm
}

// Triple buffer (a <- b <- c <- a), the add on the second member of the
// cycle (b) with the invariant first: its iter_args start at b, c, a and
// yield k+1 mod 3. Two adds of the same operands share one set.
// CHECK-LABEL: waveasm.program @triple_buffer
// CHECK: waveasm.s_mov_b32 %{{.*}} : !waveasm.imm<0>
// CHECK-NEXT: %[[BA:.*]] = waveasm.s_mov_b32 %{{.*}} : !waveasm.imm<0>
// CHECK: %[[BB:.*]] = waveasm.s_mov_b32 %{{.*}} : !waveasm.imm<2048>
// CHECK: %[[BC:.*]] = waveasm.s_mov_b32 %{{.*}} : !waveasm.imm<4096>
// CHECK: %[[Q0:.*]] = waveasm.v_add_u32 %[[OFF:.*]], %[[BB]] : !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg
// CHECK-NEXT: %[[Q1:.*]] = waveasm.v_add_u32 %[[OFF]], %[[BC]]
// CHECK-NEXT: %[[Q2:.*]] = waveasm.v_add_u32 %[[OFF]], %[[BA]]
// CHECK-NEXT: waveasm.loop ({{.*}}, %[[P0:[^ ]*]] = %[[Q0]], %[[P1:[^ ]*]] = %[[Q1]], %[[P2:[^ ]*]] = %[[Q2]]) : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg)
// CHECK-NOT: waveasm.v_add_u32
// CHECK: waveasm.ds_read_b32 %[[P0]] :
// CHECK-NEXT: waveasm.ds_read_b32 %[[P0]] {offset = 64 : i64}
// CHECK: iter_args(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[P1]], %[[P2]], %[[P0]])
// LOG: loop at {{.*}}: 1 address(es) promoted
waveasm.program @triple_buffer target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c2048 = waveasm.constant 2048 : !waveasm.imm<2048>
  %c4096 = waveasm.constant 4096 : !waveasm.imm<4096>
  %n = waveasm.constant 16 : !waveasm.imm<16>
  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %ba = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %bb = waveasm.s_mov_b32 %c2048 : !waveasm.imm<2048> -> !waveasm.sreg
  %bc = waveasm.s_mov_b32 %c4096 : !waveasm.imm<4096> -> !waveasm.sreg
  %r:4 = waveasm.loop (%k = %k0, %a = %ba, %b = %bb, %c = %bc)
      : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.sreg)
     -> (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.sreg) {
    %addr = waveasm.v_add_u32 %off, %b : !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg
    %x = waveasm.ds_read_b32 %addr : !waveasm.vreg -> !waveasm.vreg
    %addr2 = waveasm.v_add_u32 %off, %b : !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg
    %y = waveasm.ds_read_b32 %addr2 {offset = 64 : i64} : !waveasm.vreg -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %kn#0, %n : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%kn#0, %b, %c, %a) : !waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.sreg
  }
  waveasm.s_endpgm
}

// Nested loops: the inner loop's rotation is promoted first, then the
// outer loop's (whose add is in the outer body).
// CHECK-LABEL: waveasm.program @nested
// CHECK: waveasm.loop ({{.*}}) : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.vreg, !waveasm.vreg)
// CHECK: waveasm.loop ({{.*}}) : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.vreg, !waveasm.vreg)
// LOG: loop at {{.*}}: 1 address(es) promoted
// LOG: loop at {{.*}}: 1 address(es) promoted
waveasm.program @nested target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c1024 = waveasm.constant 1024 : !waveasm.imm<1024>
  %n = waveasm.constant 4 : !waveasm.imm<4>
  %j0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %p0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %p1 = waveasm.s_mov_b32 %c1024 : !waveasm.imm<1024> -> !waveasm.sreg
  %o:3 = waveasm.loop (%j = %j0, %oa = %p0, %ob = %p1)
      : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg) -> (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg) {
    %oaddr = waveasm.v_add_u32 %oa, %tid : !waveasm.sreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %ox = waveasm.ds_read_b32 %oaddr : !waveasm.vreg -> !waveasm.vreg
    %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
    %i:3 = waveasm.loop (%k = %k0, %ia = %p0, %ib = %p1)
        : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg) -> (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg) {
      %iaddr = waveasm.v_add_u32 %ia, %tid : !waveasm.sreg, !waveasm.pvreg<0> -> !waveasm.vreg
      %ix = waveasm.ds_read_b32 %iaddr : !waveasm.vreg -> !waveasm.vreg
      %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
      %go = waveasm.s_cmp_lt_u32 %kn#0, %n : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
      waveasm.condition %go : !waveasm.scc iter_args(%kn#0, %ib, %ia) : !waveasm.sreg, !waveasm.sreg, !waveasm.sreg
    }
    %jn:2 = waveasm.s_add_u32 %j, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %again = waveasm.s_cmp_lt_u32 %jn#0, %n : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
    waveasm.condition %again : !waveasm.scc iter_args(%jn#0, %ob, %oa) : !waveasm.sreg, !waveasm.sreg, !waveasm.sreg
  }
  waveasm.s_endpgm
}

//===----------------------------------------------------------------------===//
// Rejections: loops left unchanged.
//===----------------------------------------------------------------------===//

// The base is yielded unchanged: a rotation group of size 1.
// CHECK-LABEL: waveasm.program @group_of_one
// CHECK: waveasm.loop ({{.*}}) : (!waveasm.sreg, !waveasm.sreg) -> (!waveasm.sreg, !waveasm.sreg)
// CHECK: waveasm.v_add_u32
// LOG: v_add_u32 at {{.*}} not promoted: its block argument is in a rotation group of size 1 (yielded unchanged)
waveasm.program @group_of_one target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %n = waveasm.constant 4 : !waveasm.imm<4>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r:2 = waveasm.loop (%k = %k0, %b = %k0) : (!waveasm.sreg, !waveasm.sreg) -> (!waveasm.sreg, !waveasm.sreg) {
    %a = waveasm.v_add_u32 %b, %tid : !waveasm.sreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %x = waveasm.ds_read_b32 %a : !waveasm.vreg -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %kn#0, %n : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%kn#0, %b) : !waveasm.sreg, !waveasm.sreg
  }
  waveasm.s_endpgm
}

// The base is toggled with s_xor_b32 (not a permutation of block
// arguments): no rotation group.
// CHECK-LABEL: waveasm.program @toggled_not_rotated
// CHECK: waveasm.loop ({{.*}}) : (!waveasm.sreg, !waveasm.sreg) -> (!waveasm.sreg, !waveasm.sreg)
// CHECK: waveasm.v_add_u32
// LOG: v_add_u32 at {{.*}} not promoted: its block argument is not in a rotation group
waveasm.program @toggled_not_rotated target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8192 = waveasm.constant 8192 : !waveasm.imm<8192>
  %n = waveasm.constant 4 : !waveasm.imm<4>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r:2 = waveasm.loop (%k = %k0, %b = %k0) : (!waveasm.sreg, !waveasm.sreg) -> (!waveasm.sreg, !waveasm.sreg) {
    %a = waveasm.v_add_u32 %b, %tid : !waveasm.sreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %x = waveasm.ds_read_b32 %a : !waveasm.vreg -> !waveasm.vreg
    %bn:2 = waveasm.s_xor_b32 %b, %c8192 : !waveasm.sreg, !waveasm.imm<8192> -> !waveasm.sreg, !waveasm.scc
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %kn#0, %n : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%kn#0, %bn#0) : !waveasm.sreg, !waveasm.sreg
  }
  waveasm.s_endpgm
}

// The other operand is computed in the loop.
// CHECK-LABEL: waveasm.program @other_operand_in_loop
// CHECK: waveasm.loop ({{.*}}) : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg) -> (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg)
// LOG: v_add_u32 at {{.*}} not promoted: the other operand is computed in the loop
waveasm.program @other_operand_in_loop target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %b1 = waveasm.s_mov_b32 %c4 : !waveasm.imm<4> -> !waveasm.sreg
  %r:3 = waveasm.loop (%k = %k0, %rd = %k0, %wr = %b1)
      : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg) -> (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg) {
    %lane = waveasm.v_lshlrev_b32 %k, %tid : !waveasm.sreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a = waveasm.v_add_u32 %rd, %lane : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
    %x = waveasm.ds_read_b32 %a : !waveasm.vreg -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %kn#0, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%kn#0, %wr, %rd) : !waveasm.sreg, !waveasm.sreg, !waveasm.sreg
  }
  waveasm.s_endpgm
}

// Rotating VGPR block arguments are not LDS bases (SGPRs only), and an add
// that feeds no ds_read is not promoted (here: a ds_write).
// CHECK-LABEL: waveasm.program @not_candidates
// CHECK: waveasm.loop ({{.*}}) : (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.sreg, !waveasm.sreg) -> (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.sreg, !waveasm.sreg)
// CHECK-COUNT-2: waveasm.v_add_u32
waveasm.program @not_candidates target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %s = waveasm.precolored.sreg 8 : !waveasm.psreg<8>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %v0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %v1 = waveasm.v_mov_b32 %c4 : !waveasm.imm<4> -> !waveasm.vreg
  %r:5 = waveasm.loop (%k = %k0, %va = %v0, %vb = %v1, %sa = %k0, %sb = %k0)
      : (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.sreg, !waveasm.sreg)
     -> (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.sreg, !waveasm.sreg) {
    %a = waveasm.v_add_u32 %va, %s : !waveasm.vreg, !waveasm.psreg<8> -> !waveasm.vreg
    %x = waveasm.ds_read_b32 %a : !waveasm.vreg -> !waveasm.vreg
    %w = waveasm.v_add_u32 %sa, %tid : !waveasm.sreg, !waveasm.pvreg<0> -> !waveasm.vreg
    waveasm.ds_write_b32 %x, %w : !waveasm.vreg, !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %kn#0, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%kn#0, %vb, %va, %sb, %sa) : !waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.sreg, !waveasm.sreg
  }
  waveasm.s_endpgm
}
