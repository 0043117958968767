// If results: both yielded values are computed into the result's register,
// so no yield-to-result move is left to the emitter. A yielded value from
// outside the if (it is live across the other branch too) is copied at the
// end of its branch.
// RUN: waveasm-opt --waveasm-linear-scan %s | FileCheck %s

// CHECK-LABEL: waveasm.program @select
waveasm.program @select target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %c3 = waveasm.constant 3 : !waveasm.imm<3>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %n = waveasm.s_mov_b32 %c3 : !waveasm.imm<3> -> !waveasm.sreg
  // CHECK: %[[OUTER:.*]] = waveasm.v_add_u32 {{.*}} -> !waveasm.pvreg<1>
  %outer = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  %cond = waveasm.s_cmp_lt_u32 %n, %c3 : !waveasm.sreg, !waveasm.imm<3> -> !waveasm.scc
  // CHECK: %[[R:.*]]:2 = waveasm.if %{{.*}} : !waveasm.scc -> !waveasm.pvreg<[[X:[0-9]+]]>, !waveasm.pvreg<[[Q:[0-9]+]], 4> {
  %r:2 = waveasm.if %cond : !waveasm.scc -> !waveasm.vreg, !waveasm.vreg<4, 4> {
    // CHECK: %[[T1:.*]] = waveasm.v_add_u32 {{.*}} -> !waveasm.pvreg<[[X]]>
    %t1 = waveasm.v_add_u32 %outer, %tid : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    // CHECK: %[[T2:.*]] = waveasm.buffer_load_dwordx4 {{.*}} -> !waveasm.pvreg<[[Q]], 4>
    %t2 = waveasm.buffer_load_dwordx4 %srd, %t1, %c0 : !waveasm.psreg<0, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
    // CHECK: waveasm.yield %[[T1]], %[[T2]] : !waveasm.pvreg<[[X]]>, !waveasm.pvreg<[[Q]], 4>
    waveasm.yield %t1, %t2 : !waveasm.vreg, !waveasm.vreg<4, 4>
  } else {
    %e2 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
    // %outer is still stored after the if: a copy is yielded.
    // CHECK: %[[OC:.*]] = waveasm.v_mov_b32 %[[OUTER]] : !waveasm.pvreg<1> -> !waveasm.pvreg<[[X]]>
    // CHECK-NEXT: waveasm.yield %[[OC]], %{{.*}} : !waveasm.pvreg<[[X]]>, !waveasm.pvreg<[[Q]], 4>
    waveasm.yield %outer, %e2 : !waveasm.vreg, !waveasm.vreg<4, 4>
  }
  // CHECK: waveasm.buffer_store_dwordx4 %[[R]]#1, %{{.*}}, %[[R]]#0 : !waveasm.pvreg<[[Q]], 4>, !waveasm.psreg<0, 4>, !waveasm.pvreg<[[X]]>
  waveasm.buffer_store_dwordx4 %r#1, %srd, %r#0 : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.vreg
  // CHECK: waveasm.buffer_store_dword %[[OUTER]], %{{.*}} : !waveasm.pvreg<1>
  waveasm.buffer_store_dword %outer, %srd, %tid : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

// A value live across an if but not used in it keeps its register through
// both branches; values local to one branch may reuse registers of the
// other.
// CHECK-LABEL: waveasm.program @branch_locals
waveasm.program @branch_locals target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %c3 = waveasm.constant 3 : !waveasm.imm<3>
  %n = waveasm.s_mov_b32 %c3 : !waveasm.imm<3> -> !waveasm.sreg
  // CHECK: waveasm.v_add_u32 {{.*}} -> !waveasm.pvreg<1>
  %live = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  %cond = waveasm.s_cmp_lt_u32 %n, %c3 : !waveasm.sreg, !waveasm.imm<3> -> !waveasm.scc
  waveasm.if %cond {
    // CHECK: waveasm.v_add_u32 {{.*}} -> !waveasm.pvreg<2>
    %a = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
    waveasm.buffer_store_dword %a, %srd, %tid : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
    waveasm.yield
  } else {
    // CHECK: waveasm.v_add_u32 {{.*}} -> !waveasm.pvreg<2>
    %b = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
    waveasm.buffer_store_dword %b, %srd, %tid : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
    waveasm.yield
  }
  waveasm.buffer_store_dword %live, %srd, %tid : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}
