// A load writes its registers when it lands. A load nothing reads (the
// prefetch a loop issues for an iteration that does not exist) is waited
// for by nothing, so a value given its registers right after it must wait
// for it first (write after write). Its registers stay its own for its
// latency (pipeline/LiveIntervals.h reserveUnreadLoads): the LDS read
// takes other registers and waits for nothing global. The load's own
// reader-free result and a loop result whose iter_arg a load yields are
// both kept; when the files are too small for that, the allocation is
// made as before.
// RUN: waveasm-opt --split-input-file --waveasm-linear-scan --waveasm-insert-waitcnt %s | FileCheck %s
// RUN: waveasm-opt --split-input-file --waveasm-linear-scan="max-vgprs=10" --waveasm-insert-waitcnt %s 2>&1 | FileCheck %s --check-prefix=TIGHT
// RUN: waveasm-opt --waveasm-pipeline %s -o %t.mlir
// RUN: waveasm-sim --compare %s %t.mlir | FileCheck %s --check-prefix=EQ
// EQ-COUNT-2: equal on 4 seeds

// CHECK-LABEL: waveasm.program @unread_load
// CHECK: waveasm.buffer_load_dwordx4 {{.*}} -> !waveasm.pvreg<[[X:[0-9]+]], 4>
// CHECK-NOT: waveasm.s_waitcnt_vmcnt
// CHECK: waveasm.ds_read_b128 {{.*}} -> !waveasm.pvreg<{{[0-9]+}}, 4>
// CHECK-NOT: waveasm.s_waitcnt_vmcnt
// CHECK: waveasm.buffer_store_dwordx4
// Too small a file for both: the read takes the load's registers and waits
// for it, as before.
// TIGHT-LABEL: waveasm.program @unread_load
// TIGHT: waveasm.buffer_load_dwordx4 {{.*}} -> !waveasm.pvreg<[[X:[0-9]+]], 4>
// TIGHT: waveasm.s_waitcnt_vmcnt 0
// TIGHT-NEXT: waveasm.ds_read_b128 {{.*}} -> !waveasm.pvreg<[[X]], 4>
waveasm.program @unread_load
  target = #waveasm.target<#waveasm.gfx942, 5>
  abi = #waveasm.abi<tid = 0, kernarg = 0>
  attributes {lds_size = 1024 : i64, workgroup_size = [64, 1, 1]} {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %off = waveasm.v_lshlrev_b32 %c4, %tid : !waveasm.imm<4>, !waveasm.pvreg<0> -> !waveasm.vreg
  %x = waveasm.buffer_load_dwordx4 %srd, %off, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %y = waveasm.ds_read_b128 %off : !waveasm.vreg -> !waveasm.vreg<4, 4>
  waveasm.buffer_store_dwordx4 %y, %srd, %off : !waveasm.vreg<4, 4>, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// The loop's last iteration prefetches a tile nothing reads: the loop's
// result for it is unread, and the read after the loop keeps off its
// registers.
// CHECK-LABEL: waveasm.program @unread_prefetch
// CHECK: waveasm.condition
// CHECK-NOT: waveasm.s_waitcnt_vmcnt
// CHECK: waveasm.ds_read_b128
// CHECK-NOT: waveasm.s_waitcnt_vmcnt
// CHECK: waveasm.buffer_store_dwordx4
waveasm.program @unread_prefetch
  target = #waveasm.target<#waveasm.gfx942, 5>
  abi = #waveasm.abi<tid = 0, kernarg = 0>
  attributes {lds_size = 1024 : i64, workgroup_size = [64, 1, 1]} {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %c6 = waveasm.constant 6 : !waveasm.imm<6>
  %off = waveasm.v_lshlrev_b32 %c4, %tid : !waveasm.imm<4>, !waveasm.pvreg<0> -> !waveasm.vreg
  %first = waveasm.buffer_load_dwordx4 %srd, %off, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r:2 = waveasm.loop (%k = %k0, %cur = %first) : (!waveasm.sreg, !waveasm.vreg<4, 4>) -> (!waveasm.sreg, !waveasm.vreg<4, 4>) {
    waveasm.ds_write_b128 %cur, %off : !waveasm.vreg<4, 4>, !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %soff:2 = waveasm.s_lshl_b32 %kn#0, %c6 : !waveasm.sreg, !waveasm.imm<6> -> !waveasm.sreg, !waveasm.scc
    %next = waveasm.buffer_load_dwordx4 %srd, %off, %soff#0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg<4, 4>
    %more = waveasm.s_cmp_lt_u32 %kn#0, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0, %next) : !waveasm.sreg, !waveasm.vreg<4, 4>
  }
  %rd = waveasm.v_add_u32 %off, %c4 : !waveasm.vreg, !waveasm.imm<4> -> !waveasm.vreg
  %y = waveasm.ds_read_b128 %rd : !waveasm.vreg -> !waveasm.vreg<4, 4>
  waveasm.buffer_store_dwordx4 %y, %srd, %off offset : 2048 : !waveasm.vreg<4, 4>, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
}
