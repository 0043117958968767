// Loads that repeat an earlier identical load of their block, with nothing
// in between that may change the bytes or the lanes, reuse its result:
// global (a store to disjoint bytes of the same buffer in between), LDS (a
// ds_write to a disjoint constant offset in between), scalar, and two
// loads of one iteration inside a loop. The simulator shows the same
// results, and the output goes through the pipeline and llvm-mc.
// RUN: waveasm-opt --waveasm-redundant-load-elim %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: waveasm-sim --compare --seeds 2 %s %t.mlir | FileCheck %s --check-prefix=SIM
// RUN: waveasm-opt --waveasm-pipeline --emit-assembly %t.mlir -o %t.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t.s -o %t.o
// SIM-DAG: @global: equal on 2 seeds
// SIM-DAG: @lds: equal on 2 seeds
// SIM-DAG: @scalar: equal on 2 seeds
// SIM-DAG: @loop_body: equal on 2 seeds

// CHECK-LABEL: waveasm.program @global
// CHECK:       %[[X:.*]] = waveasm.buffer_load_dword
// CHECK-NOT:   waveasm.buffer_load_dword
// CHECK:       waveasm.buffer_store_dword
// CHECK-NOT:   waveasm.buffer_load_dword
// CHECK:       waveasm.v_add_u32 %[[X]], %[[X]]
waveasm.program @global target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<tid = 0> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %a = waveasm.buffer_load_dword %srd, %off, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  // Same descriptor and voffset, 1024 bytes further: disjoint per lane.
  waveasm.buffer_store_dword %a, %srd, %off {instOffset = 1024 : i64} : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  %b = waveasm.buffer_load_dword %srd, %off, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  %s = waveasm.v_add_u32 %a, %b : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %s, %srd, %off {instOffset = 2048 : i64} : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
}

// CHECK-LABEL: waveasm.program @lds
// CHECK:       %[[R:.*]] = waveasm.ds_read_b32
// CHECK-NOT:   waveasm.ds_read_b32
// CHECK:       waveasm.v_add_u32 %[[R]], %[[R]]
waveasm.program @lds target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<tid = 0> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %g = waveasm.buffer_load_dword %srd, %off, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.ds_write_b32 %g, %off : !waveasm.vreg, !waveasm.vreg
  %r = waveasm.ds_read_b32 %off : !waveasm.vreg -> !waveasm.vreg
  waveasm.ds_write_b32 %r, %off {offset = 1024 : i64} : !waveasm.vreg, !waveasm.vreg
  %r2 = waveasm.ds_read_b32 %off : !waveasm.vreg -> !waveasm.vreg
  %s = waveasm.v_add_u32 %r, %r2 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %s, %srd, %off {instOffset = 1024 : i64} : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
}

// CHECK-LABEL: waveasm.program @scalar
// CHECK:       %[[P:.*]] = waveasm.s_load_dwordx2
// CHECK-NOT:   waveasm.s_load_dwordx2
// CHECK:       waveasm.extract %[[P]][1]
waveasm.program @scalar target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<tid = 0, kernarg = 0> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %kargs = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %p = waveasm.s_load_dwordx2 %kargs, %c0 : !waveasm.psreg<0, 2>, !waveasm.imm<0> -> !waveasm.sreg<2, 2>
  %q = waveasm.s_load_dwordx2 %kargs, %c0 : !waveasm.psreg<0, 2>, !waveasm.imm<0> -> !waveasm.sreg<2, 2>
  %p0 = waveasm.extract %p[0] : !waveasm.sreg<2, 2> -> !waveasm.sreg
  %q1 = waveasm.extract %q[1] : !waveasm.sreg<2, 2> -> !waveasm.sreg
  %s:2 = waveasm.s_add_u32 %p0, %q1 : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg, !waveasm.scc
  %v = waveasm.v_mov_b32 %s#0 : !waveasm.sreg -> !waveasm.vreg
  waveasm.buffer_store_dword %v, %srd, %off : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
}

// Inside the loop the address changes per iteration; the two loads of one
// iteration read the same bytes and merge, the load before the loop (the
// first iteration's address, another value) stays.
// CHECK-LABEL: waveasm.program @loop_body
// CHECK:       waveasm.buffer_load_dword
// CHECK:       waveasm.loop
// CHECK:       %[[L:.*]] = waveasm.buffer_load_dword
// CHECK-NOT:   waveasm.buffer_load_dword
// CHECK:       waveasm.v_add_u32 %{{.*}}, %[[L]]
// CHECK:       waveasm.v_add_u32 %{{.*}}, %[[L]]
waveasm.program @loop_body target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<tid = 0> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c256 = waveasm.constant 256 : !waveasm.imm<256>
  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %first = waveasm.buffer_load_dword %srd, %off, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r:3 = waveasm.loop (%k = %k0, %a = %off, %acc = %first) : (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg) {
    %x = waveasm.buffer_load_dword %srd, %a, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %acc1 = waveasm.v_add_u32 %acc, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %y = waveasm.buffer_load_dword %srd, %a, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %acc2 = waveasm.v_add_u32 %acc1, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %an = waveasm.v_add_u32 %a, %c256 : !waveasm.vreg, !waveasm.imm<256> -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0, %an, %acc2) : !waveasm.sreg, !waveasm.vreg, !waveasm.vreg
  }
  waveasm.buffer_store_dword %r#2, %srd, %off {instOffset = 2048 : i64} : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
}
