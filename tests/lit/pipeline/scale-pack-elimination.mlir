// --waveasm-scale-pack-elimination (SPEC.md 18.1): four byte iter_args that
// are v_bfe_u32 bytes of one dword at the init and at the yield, repacked by
// a v_lshl_or_b32 chain (8, 16, 24) in the body, become one dword iter_arg.
// Every program below that is not rewritten comes back unchanged, and the
// debug log says why.
// RUN: waveasm-opt --waveasm-scale-pack-elimination %s | FileCheck %s
// RUN: waveasm-opt --waveasm-scale-pack-elimination %s | waveasm-opt > /dev/null
// RUN: waveasm-opt --waveasm-scale-pack-elimination --mlir-disable-threading --debug-only=waveasm-scale-pack-elimination %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOG

// The basic shape: 5 -> 2 iter args; the chain and the in-loop BFEs are
// gone, the packed value is the new block argument, the init is X and the
// yield is Y. The pre-loop BFEs are left (canonicalize removes them).
// CHECK-LABEL: waveasm.program @basic
// CHECK: %[[X:.*]] = waveasm.buffer_load_dword
// CHECK: %{{.*}}:2 = waveasm.loop (%[[K:.*]] = %{{.*}}, %[[D:.*]] = %[[X]]) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
// CHECK-NOT: v_lshl_or_b32
// CHECK-NOT: v_bfe_u32
// CHECK: waveasm.v_mfma_scale_f32_16x16x128_f8f6f4 %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[D]]
// CHECK: %[[Y:.*]] = waveasm.buffer_load_dword
// CHECK-NOT: v_bfe_u32
// CHECK: waveasm.condition %{{.*}} : !waveasm.scc iter_args(%{{.*}}, %[[Y]]) : !waveasm.sreg, !waveasm.vreg
// LOG: waveasm-scale-pack-elimination: loop at {{.*}}: 1 chain(s), 5 -> 2 iter_args
waveasm.program @basic target = #waveasm.target<#waveasm.gfx950> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %c24 = waveasm.constant 24 : !waveasm.imm<24>
  %n = waveasm.constant 8 : !waveasm.imm<8>
  %x = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %x0 = waveasm.v_bfe_u32 %x, %c0, %c8 : !waveasm.vreg, !waveasm.imm<0>, !waveasm.imm<8> -> !waveasm.vreg
  %x1 = waveasm.v_bfe_u32 %x, %c8, %c8 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.imm<8> -> !waveasm.vreg
  %x2 = waveasm.v_bfe_u32 %x, %c16, %c8 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.imm<8> -> !waveasm.vreg
  %x3 = waveasm.v_bfe_u32 %x, %c24, %c8 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.imm<8> -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %ab = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %r:5 = waveasm.loop (%k = %k0, %b0 = %x0, %b1 = %x1, %b2 = %x2, %b3 = %x3)
      : (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg)
     -> (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg) {
    %p1 = waveasm.v_lshl_or_b32 %b1, %c8, %b0 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.vreg -> !waveasm.vreg
    %p2 = waveasm.v_lshl_or_b32 %b2, %c16, %p1 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.vreg -> !waveasm.vreg
    %p = waveasm.v_lshl_or_b32 %b3, %c24, %p2 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.vreg -> !waveasm.vreg
    %m = waveasm.v_mfma_scale_f32_16x16x128_f8f6f4 %ab, %ab, %ab, %p, %p
        : !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg<4, 4>
    %y = waveasm.buffer_load_dword %srd, %tid, %k : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.sreg -> !waveasm.vreg
    %y0 = waveasm.v_bfe_u32 %y, %c0, %c8 : !waveasm.vreg, !waveasm.imm<0>, !waveasm.imm<8> -> !waveasm.vreg
    %y1 = waveasm.v_bfe_u32 %y, %c8, %c8 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.imm<8> -> !waveasm.vreg
    %y2 = waveasm.v_bfe_u32 %y, %c16, %c8 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.imm<8> -> !waveasm.vreg
    %y3 = waveasm.v_bfe_u32 %y, %c24, %c8 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.imm<8> -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %kn#0, %n : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%kn#0, %y0, %y1, %y2, %y3) : !waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg
  }
  waveasm.s_endpgm
}

// Two chains, the byte positions interleaved with other iter args, the
// byte arguments in another order than their positions; results of dropped
// positions used after the loop are re-extracted from the new dword result.
// Kept positions keep their relative order; dwords are appended.
// CHECK-LABEL: waveasm.program @two_chains_results_used
// CHECK: %[[X:.*]] = waveasm.buffer_load_dword
// CHECK: %[[ACC0:.*]] = waveasm.v_mov_b32
// CHECK: %[[R:.*]]:4 = waveasm.loop (%{{[^ ]*}} = %{{[^ ]*}}, %{{[^ ]*}} = %[[ACC0]], %{{[^ ]*}} = %[[X]], %{{[^ ]*}} = %[[X]]) : (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg)
// CHECK-NOT: v_lshl_or_b32
// CHECK: waveasm.condition
// CHECK-DAG: %[[C16:.*]] = waveasm.constant 16 : <16>
// CHECK-DAG: %[[C8:.*]] = waveasm.constant 8 : <8>
// CHECK: %[[B2:.*]] = waveasm.v_bfe_u32 %[[R]]#2, %[[C16]], %[[C8]] : !waveasm.vreg, !waveasm.imm<16>, !waveasm.imm<8> -> !waveasm.vreg
// CHECK: waveasm.v_add_u32 %[[B2]], %[[R]]#1
// LOG: loop at {{.*}}: 2 chain(s), 10 -> 4 iter_args
waveasm.program @two_chains_results_used target = #waveasm.target<#waveasm.gfx950> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %c24 = waveasm.constant 24 : !waveasm.imm<24>
  %x = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %x0 = waveasm.v_bfe_u32 %x, %c0, %c8 : !waveasm.vreg, !waveasm.imm<0>, !waveasm.imm<8> -> !waveasm.vreg
  %x1 = waveasm.v_bfe_u32 %x, %c8, %c8 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.imm<8> -> !waveasm.vreg
  %x2 = waveasm.v_bfe_u32 %x, %c16, %c8 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.imm<8> -> !waveasm.vreg
  %x3 = waveasm.v_bfe_u32 %x, %c24, %c8 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.imm<8> -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %acc0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %r:10 = waveasm.loop (%k = %k0, %e3 = %x3, %e0 = %x0, %acc = %acc0, %e2 = %x2, %e1 = %x1,
                        %f0 = %x0, %f1 = %x1, %f2 = %x2, %f3 = %x3)
      : (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg,
         !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg)
     -> (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg,
         !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg) {
    %p1 = waveasm.v_lshl_or_b32 %e1, %c8, %e0 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.vreg -> !waveasm.vreg
    %p2 = waveasm.v_lshl_or_b32 %e2, %c16, %p1 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.vreg -> !waveasm.vreg
    %p = waveasm.v_lshl_or_b32 %e3, %c24, %p2 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.vreg -> !waveasm.vreg
    %q1 = waveasm.v_lshl_or_b32 %f1, %c8, %f0 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.vreg -> !waveasm.vreg
    %q2 = waveasm.v_lshl_or_b32 %f2, %c16, %q1 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.vreg -> !waveasm.vreg
    %q = waveasm.v_lshl_or_b32 %f3, %c24, %q2 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.vreg -> !waveasm.vreg
    %s = waveasm.v_add_u32 %p, %q : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %acc_n = waveasm.v_add_u32 %acc, %s : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %y = waveasm.buffer_load_dword %srd, %tid, %k : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.sreg -> !waveasm.vreg
    %y0 = waveasm.v_bfe_u32 %y, %c0, %c8 : !waveasm.vreg, !waveasm.imm<0>, !waveasm.imm<8> -> !waveasm.vreg
    %y1 = waveasm.v_bfe_u32 %y, %c8, %c8 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.imm<8> -> !waveasm.vreg
    %y2 = waveasm.v_bfe_u32 %y, %c16, %c8 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.imm<8> -> !waveasm.vreg
    %y3 = waveasm.v_bfe_u32 %y, %c24, %c8 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.imm<8> -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%kn#0, %y3, %y0, %acc_n, %y2, %y1, %y0, %y1, %y2, %y3)
        : !waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg,
          !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg
  }
  // Byte 2 of the last dword (position 4 of the old loop).
  %last = waveasm.v_add_u32 %r#4, %r#3 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %last, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

// Nested loops: the inner loop's chain is rewritten first, then the outer
// loop's (whose yield-side BFEs read the inner loop's new dword result).
// CHECK-LABEL: waveasm.program @nested
// CHECK: waveasm.loop (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
// CHECK: %[[IN:.*]]:2 = waveasm.loop (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
// CHECK-NOT: v_lshl_or_b32
// CHECK-NOT: v_bfe_u32
// CHECK: waveasm.condition %{{.*}} iter_args(%{{.*}}, %[[IN]]#1) : !waveasm.sreg, !waveasm.vreg
// LOG: loop at {{.*}}: 1 chain(s), 5 -> 2 iter_args
// LOG: loop at {{.*}}: 1 chain(s), 5 -> 2 iter_args
waveasm.program @nested target = #waveasm.target<#waveasm.gfx950> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %c24 = waveasm.constant 24 : !waveasm.imm<24>
  %x = waveasm.v_mov_b32 %tid : !waveasm.pvreg<0> -> !waveasm.vreg
  %x0 = waveasm.v_bfe_u32 %x, %c0, %c8 : !waveasm.vreg, !waveasm.imm<0>, !waveasm.imm<8> -> !waveasm.vreg
  %x1 = waveasm.v_bfe_u32 %x, %c8, %c8 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.imm<8> -> !waveasm.vreg
  %x2 = waveasm.v_bfe_u32 %x, %c16, %c8 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.imm<8> -> !waveasm.vreg
  %x3 = waveasm.v_bfe_u32 %x, %c24, %c8 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.imm<8> -> !waveasm.vreg
  %j0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %o:5 = waveasm.loop (%j = %j0, %o0 = %x0, %o1 = %x1, %o2 = %x2, %o3 = %x3)
      : (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg)
     -> (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg) {
    %op1 = waveasm.v_lshl_or_b32 %o1, %c8, %o0 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.vreg -> !waveasm.vreg
    %op2 = waveasm.v_lshl_or_b32 %o2, %c16, %op1 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.vreg -> !waveasm.vreg
    %op = waveasm.v_lshl_or_b32 %o3, %c24, %op2 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.vreg -> !waveasm.vreg
    %i0 = waveasm.v_bfe_u32 %op, %c0, %c8 : !waveasm.vreg, !waveasm.imm<0>, !waveasm.imm<8> -> !waveasm.vreg
    %i1 = waveasm.v_bfe_u32 %op, %c8, %c8 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.imm<8> -> !waveasm.vreg
    %i2 = waveasm.v_bfe_u32 %op, %c16, %c8 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.imm<8> -> !waveasm.vreg
    %i3 = waveasm.v_bfe_u32 %op, %c24, %c8 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.imm<8> -> !waveasm.vreg
    %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
    %in:5 = waveasm.loop (%k = %k0, %b0 = %i0, %b1 = %i1, %b2 = %i2, %b3 = %i3)
        : (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg)
       -> (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg) {
      %p1 = waveasm.v_lshl_or_b32 %b1, %c8, %b0 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.vreg -> !waveasm.vreg
      %p2 = waveasm.v_lshl_or_b32 %b2, %c16, %p1 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.vreg -> !waveasm.vreg
      %p = waveasm.v_lshl_or_b32 %b3, %c24, %p2 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.vreg -> !waveasm.vreg
      %y = waveasm.v_add_u32 %p, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
      %y0 = waveasm.v_bfe_u32 %y, %c0, %c8 : !waveasm.vreg, !waveasm.imm<0>, !waveasm.imm<8> -> !waveasm.vreg
      %y1 = waveasm.v_bfe_u32 %y, %c8, %c8 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.imm<8> -> !waveasm.vreg
      %y2 = waveasm.v_bfe_u32 %y, %c16, %c8 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.imm<8> -> !waveasm.vreg
      %y3 = waveasm.v_bfe_u32 %y, %c24, %c8 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.imm<8> -> !waveasm.vreg
      %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
      %go = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
      waveasm.condition %go : !waveasm.scc iter_args(%kn#0, %y0, %y1, %y2, %y3) : !waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg
    }
    %jn:2 = waveasm.s_add_u32 %j, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %again = waveasm.s_cmp_lt_u32 %jn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %again : !waveasm.scc iter_args(%jn#0, %in#1, %in#2, %in#3, %in#4) : !waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg
  }
  waveasm.s_endpgm
}

//===----------------------------------------------------------------------===//
// Rejections: each program is printed unchanged; the log names the reason.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: waveasm.program @not_distinct
// CHECK: waveasm.loop (%{{.*}}) : (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg)
// CHECK-COUNT-3: waveasm.v_lshl_or_b32
// LOG: chain at {{.*}} not rewritten: the byte inputs are not four distinct block arguments
waveasm.program @not_distinct target = #waveasm.target<#waveasm.gfx950> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %c24 = waveasm.constant 24 : !waveasm.imm<24>
  %x = waveasm.v_mov_b32 %tid : !waveasm.pvreg<0> -> !waveasm.vreg
  %x0 = waveasm.v_bfe_u32 %x, %c0, %c8 : !waveasm.vreg, !waveasm.imm<0>, !waveasm.imm<8> -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r:5 = waveasm.loop (%k = %k0, %b0 = %x0, %b1 = %x0, %b2 = %x0, %b3 = %x0)
      : (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg)
     -> (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg) {
    %p1 = waveasm.v_lshl_or_b32 %b0, %c8, %b0 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.vreg -> !waveasm.vreg
    %p2 = waveasm.v_lshl_or_b32 %b2, %c16, %p1 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.vreg -> !waveasm.vreg
    %p = waveasm.v_lshl_or_b32 %b3, %c24, %p2 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.vreg -> !waveasm.vreg
    %go = waveasm.s_cmp_lt_u32 %k, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%k, %p, %b1, %b2, %b3) : !waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg
  }
  waveasm.s_endpgm
}

// A byte that is also read elsewhere in the body.
// CHECK-LABEL: waveasm.program @byte_used_elsewhere
// CHECK-COUNT-3: waveasm.v_lshl_or_b32
// LOG: chain at {{.*}} not rewritten: a byte block argument has uses besides the chain
waveasm.program @byte_used_elsewhere target = #waveasm.target<#waveasm.gfx950> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %c24 = waveasm.constant 24 : !waveasm.imm<24>
  %x = waveasm.v_mov_b32 %tid : !waveasm.pvreg<0> -> !waveasm.vreg
  %x0 = waveasm.v_bfe_u32 %x, %c0, %c8 : !waveasm.vreg, !waveasm.imm<0>, !waveasm.imm<8> -> !waveasm.vreg
  %x1 = waveasm.v_bfe_u32 %x, %c8, %c8 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.imm<8> -> !waveasm.vreg
  %x2 = waveasm.v_bfe_u32 %x, %c16, %c8 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.imm<8> -> !waveasm.vreg
  %x3 = waveasm.v_bfe_u32 %x, %c24, %c8 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.imm<8> -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r:6 = waveasm.loop (%k = %k0, %b0 = %x0, %b1 = %x1, %b2 = %x2, %b3 = %x3, %s = %x)
      : (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg)
     -> (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg) {
    %p1 = waveasm.v_lshl_or_b32 %b1, %c8, %b0 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.vreg -> !waveasm.vreg
    %p2 = waveasm.v_lshl_or_b32 %b2, %c16, %p1 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.vreg -> !waveasm.vreg
    %p = waveasm.v_lshl_or_b32 %b3, %c24, %p2 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.vreg -> !waveasm.vreg
    %s_n = waveasm.v_add_u32 %p, %b2 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %y0 = waveasm.v_bfe_u32 %s_n, %c0, %c8 : !waveasm.vreg, !waveasm.imm<0>, !waveasm.imm<8> -> !waveasm.vreg
    %y1 = waveasm.v_bfe_u32 %s_n, %c8, %c8 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.imm<8> -> !waveasm.vreg
    %y2 = waveasm.v_bfe_u32 %s_n, %c16, %c8 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.imm<8> -> !waveasm.vreg
    %y3 = waveasm.v_bfe_u32 %s_n, %c24, %c8 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.imm<8> -> !waveasm.vreg
    %go = waveasm.s_cmp_lt_u32 %k, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%k, %y0, %y1, %y2, %y3, %s_n) : !waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg
  }
  waveasm.s_endpgm
}

// The middle v_lshl_or_b32 has a second use.
// CHECK-LABEL: waveasm.program @multi_use_chain_value
// CHECK-COUNT-3: waveasm.v_lshl_or_b32
// LOG: chain at {{.*}} not rewritten: the inner or middle v_lshl_or_b32 has more than one use
waveasm.program @multi_use_chain_value target = #waveasm.target<#waveasm.gfx950> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %c24 = waveasm.constant 24 : !waveasm.imm<24>
  %x = waveasm.v_mov_b32 %tid : !waveasm.pvreg<0> -> !waveasm.vreg
  %x0 = waveasm.v_bfe_u32 %x, %c0, %c8 : !waveasm.vreg, !waveasm.imm<0>, !waveasm.imm<8> -> !waveasm.vreg
  %x1 = waveasm.v_bfe_u32 %x, %c8, %c8 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.imm<8> -> !waveasm.vreg
  %x2 = waveasm.v_bfe_u32 %x, %c16, %c8 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.imm<8> -> !waveasm.vreg
  %x3 = waveasm.v_bfe_u32 %x, %c24, %c8 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.imm<8> -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r:6 = waveasm.loop (%k = %k0, %b0 = %x0, %b1 = %x1, %b2 = %x2, %b3 = %x3, %s = %x)
      : (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg)
     -> (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg) {
    %p1 = waveasm.v_lshl_or_b32 %b1, %c8, %b0 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.vreg -> !waveasm.vreg
    %p2 = waveasm.v_lshl_or_b32 %b2, %c16, %p1 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.vreg -> !waveasm.vreg
    %p = waveasm.v_lshl_or_b32 %b3, %c24, %p2 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.vreg -> !waveasm.vreg
    %s_n = waveasm.v_add_u32 %p, %p2 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %y0 = waveasm.v_bfe_u32 %x, %c0, %c8 : !waveasm.vreg, !waveasm.imm<0>, !waveasm.imm<8> -> !waveasm.vreg
    %y1 = waveasm.v_bfe_u32 %x, %c8, %c8 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.imm<8> -> !waveasm.vreg
    %y2 = waveasm.v_bfe_u32 %x, %c16, %c8 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.imm<8> -> !waveasm.vreg
    %y3 = waveasm.v_bfe_u32 %x, %c24, %c8 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.imm<8> -> !waveasm.vreg
    %go = waveasm.s_cmp_lt_u32 %k, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%k, %y0, %y1, %y2, %y3, %s_n) : !waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg
  }
  waveasm.s_endpgm
}

// The inits are bytes of two different values.
// CHECK-LABEL: waveasm.program @inits_not_one_dword
// CHECK-COUNT-3: waveasm.v_lshl_or_b32
// LOG: chain at {{.*}} not rewritten: the inits are not v_bfe_u32(X, 0/8/16/24, 8) of one value
waveasm.program @inits_not_one_dword target = #waveasm.target<#waveasm.gfx950> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %c24 = waveasm.constant 24 : !waveasm.imm<24>
  %x = waveasm.v_mov_b32 %tid : !waveasm.pvreg<0> -> !waveasm.vreg
  %w = waveasm.v_mov_b32 %c8 : !waveasm.imm<8> -> !waveasm.vreg
  %x0 = waveasm.v_bfe_u32 %x, %c0, %c8 : !waveasm.vreg, !waveasm.imm<0>, !waveasm.imm<8> -> !waveasm.vreg
  %x1 = waveasm.v_bfe_u32 %x, %c8, %c8 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.imm<8> -> !waveasm.vreg
  %x2 = waveasm.v_bfe_u32 %w, %c16, %c8 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.imm<8> -> !waveasm.vreg
  %x3 = waveasm.v_bfe_u32 %x, %c24, %c8 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.imm<8> -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r:5 = waveasm.loop (%k = %k0, %b0 = %x0, %b1 = %x1, %b2 = %x2, %b3 = %x3)
      : (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg)
     -> (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg) {
    %p1 = waveasm.v_lshl_or_b32 %b1, %c8, %b0 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.vreg -> !waveasm.vreg
    %p2 = waveasm.v_lshl_or_b32 %b2, %c16, %p1 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.vreg -> !waveasm.vreg
    %p = waveasm.v_lshl_or_b32 %b3, %c24, %p2 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.vreg -> !waveasm.vreg
    %y0 = waveasm.v_bfe_u32 %p, %c0, %c8 : !waveasm.vreg, !waveasm.imm<0>, !waveasm.imm<8> -> !waveasm.vreg
    %y1 = waveasm.v_bfe_u32 %p, %c8, %c8 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.imm<8> -> !waveasm.vreg
    %y2 = waveasm.v_bfe_u32 %p, %c16, %c8 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.imm<8> -> !waveasm.vreg
    %y3 = waveasm.v_bfe_u32 %p, %c24, %c8 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.imm<8> -> !waveasm.vreg
    %go = waveasm.s_cmp_lt_u32 %k, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%k, %y0, %y1, %y2, %y3) : !waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg
  }
  waveasm.s_endpgm
}

// The yielded bytes are in the wrong positions (byte 1 yielded at byte 0's).
// CHECK-LABEL: waveasm.program @yields_swapped
// CHECK-COUNT-3: waveasm.v_lshl_or_b32
// LOG: chain at {{.*}} not rewritten: the yielded values are not v_bfe_u32(Y, 0/8/16/24, 8) of one value
waveasm.program @yields_swapped target = #waveasm.target<#waveasm.gfx950> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %c24 = waveasm.constant 24 : !waveasm.imm<24>
  %x = waveasm.v_mov_b32 %tid : !waveasm.pvreg<0> -> !waveasm.vreg
  %x0 = waveasm.v_bfe_u32 %x, %c0, %c8 : !waveasm.vreg, !waveasm.imm<0>, !waveasm.imm<8> -> !waveasm.vreg
  %x1 = waveasm.v_bfe_u32 %x, %c8, %c8 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.imm<8> -> !waveasm.vreg
  %x2 = waveasm.v_bfe_u32 %x, %c16, %c8 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.imm<8> -> !waveasm.vreg
  %x3 = waveasm.v_bfe_u32 %x, %c24, %c8 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.imm<8> -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r:5 = waveasm.loop (%k = %k0, %b0 = %x0, %b1 = %x1, %b2 = %x2, %b3 = %x3)
      : (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg)
     -> (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg) {
    %p1 = waveasm.v_lshl_or_b32 %b1, %c8, %b0 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.vreg -> !waveasm.vreg
    %p2 = waveasm.v_lshl_or_b32 %b2, %c16, %p1 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.vreg -> !waveasm.vreg
    %p = waveasm.v_lshl_or_b32 %b3, %c24, %p2 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.vreg -> !waveasm.vreg
    %y0 = waveasm.v_bfe_u32 %p, %c0, %c8 : !waveasm.vreg, !waveasm.imm<0>, !waveasm.imm<8> -> !waveasm.vreg
    %y1 = waveasm.v_bfe_u32 %p, %c8, %c8 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.imm<8> -> !waveasm.vreg
    %y2 = waveasm.v_bfe_u32 %p, %c16, %c8 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.imm<8> -> !waveasm.vreg
    %y3 = waveasm.v_bfe_u32 %p, %c24, %c8 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.imm<8> -> !waveasm.vreg
    %go = waveasm.s_cmp_lt_u32 %k, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%k, %y1, %y0, %y2, %y3) : !waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg
  }
  waveasm.s_endpgm
}

// A byte input computed in the body, not a block argument.
// CHECK-LABEL: waveasm.program @byte_not_block_argument
// CHECK-COUNT-3: waveasm.v_lshl_or_b32
// LOG: chain at {{.*}} not rewritten: a byte input is not a block argument of this loop
waveasm.program @byte_not_block_argument target = #waveasm.target<#waveasm.gfx950> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %c24 = waveasm.constant 24 : !waveasm.imm<24>
  %x = waveasm.v_mov_b32 %tid : !waveasm.pvreg<0> -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r:2 = waveasm.loop (%k = %k0, %b0 = %x)
      : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %b1 = waveasm.v_mov_b32 %c8 : !waveasm.imm<8> -> !waveasm.vreg
    %p1 = waveasm.v_lshl_or_b32 %b1, %c8, %b0 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.vreg -> !waveasm.vreg
    %p2 = waveasm.v_lshl_or_b32 %b1, %c16, %p1 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.vreg -> !waveasm.vreg
    %p = waveasm.v_lshl_or_b32 %b1, %c24, %p2 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.vreg -> !waveasm.vreg
    %go = waveasm.s_cmp_lt_u32 %k, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%k, %p) : !waveasm.sreg, !waveasm.vreg
  }
  waveasm.s_endpgm
}

// The init dword has another type than the repacked value.
// CHECK-LABEL: waveasm.program @dword_type_differs
// CHECK-COUNT-3: waveasm.v_lshl_or_b32
// LOG: chain at {{.*}} not rewritten: the init or yielded dword has another type than the repacked value
waveasm.program @dword_type_differs target = #waveasm.target<#waveasm.gfx950> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %c24 = waveasm.constant 24 : !waveasm.imm<24>
  %x0 = waveasm.v_bfe_u32 %tid, %c0, %c8 : !waveasm.pvreg<0>, !waveasm.imm<0>, !waveasm.imm<8> -> !waveasm.vreg
  %x1 = waveasm.v_bfe_u32 %tid, %c8, %c8 : !waveasm.pvreg<0>, !waveasm.imm<8>, !waveasm.imm<8> -> !waveasm.vreg
  %x2 = waveasm.v_bfe_u32 %tid, %c16, %c8 : !waveasm.pvreg<0>, !waveasm.imm<16>, !waveasm.imm<8> -> !waveasm.vreg
  %x3 = waveasm.v_bfe_u32 %tid, %c24, %c8 : !waveasm.pvreg<0>, !waveasm.imm<24>, !waveasm.imm<8> -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r:5 = waveasm.loop (%k = %k0, %b0 = %x0, %b1 = %x1, %b2 = %x2, %b3 = %x3)
      : (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg)
     -> (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg) {
    %p1 = waveasm.v_lshl_or_b32 %b1, %c8, %b0 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.vreg -> !waveasm.vreg
    %p2 = waveasm.v_lshl_or_b32 %b2, %c16, %p1 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.vreg -> !waveasm.vreg
    %p = waveasm.v_lshl_or_b32 %b3, %c24, %p2 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.vreg -> !waveasm.vreg
    %y0 = waveasm.v_bfe_u32 %p, %c0, %c8 : !waveasm.vreg, !waveasm.imm<0>, !waveasm.imm<8> -> !waveasm.vreg
    %y1 = waveasm.v_bfe_u32 %p, %c8, %c8 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.imm<8> -> !waveasm.vreg
    %y2 = waveasm.v_bfe_u32 %p, %c16, %c8 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.imm<8> -> !waveasm.vreg
    %y3 = waveasm.v_bfe_u32 %p, %c24, %c8 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.imm<8> -> !waveasm.vreg
    %go = waveasm.s_cmp_lt_u32 %k, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%k, %y0, %y1, %y2, %y3) : !waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg
  }
  waveasm.s_endpgm
}
