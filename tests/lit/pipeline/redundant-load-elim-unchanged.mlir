// Loads the pass must keep: an aliasing store in between (same bytes, or a
// buffer it cannot tell apart), a barrier (another wave's LDS write),
// an EXEC change (other lanes), a repeat inside a nested block (an `if`
// body), a loop whose address changes per iteration (a store each
// iteration to the bytes the next reads), and a program with explicit
// waits. The output is the input, printed.
// RUN: waveasm-opt %s -o %t.in.mlir
// RUN: waveasm-opt --waveasm-redundant-load-elim %s -o %t.out.mlir
// RUN: diff %t.in.mlir %t.out.mlir
// RUN: waveasm-opt --waveasm-redundant-load-elim %s | FileCheck %s
// CHECK-LABEL: @store_between
// CHECK-COUNT-2: waveasm.buffer_load_dword
// CHECK-LABEL: @may_alias
// CHECK-COUNT-2: waveasm.buffer_load_dword
// CHECK-LABEL: @barrier_between
// CHECK-COUNT-2: waveasm.ds_read_b32
// CHECK-LABEL: @exec_between
// CHECK-COUNT-2: waveasm.buffer_load_dword
// CHECK-LABEL: @nested_if
// CHECK-COUNT-2: waveasm.ds_read_b32
// CHECK-LABEL: @loop_carried
// CHECK-COUNT-2: waveasm.ds_read_b32
// CHECK-LABEL: @explicit_waits
// CHECK-COUNT-2: waveasm.buffer_load_dword

waveasm.program @store_between target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<tid = 0> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %a = waveasm.buffer_load_dword %srd, %off, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  %a1 = waveasm.v_add_u32 %a, %c2 : !waveasm.vreg, !waveasm.imm<2> -> !waveasm.vreg
  waveasm.buffer_store_dword %a1, %srd, %off : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  %b = waveasm.buffer_load_dword %srd, %off, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %b, %srd, %off {instOffset = 1024 : i64} : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
}

waveasm.program @may_alias target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<tid = 0> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %other = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %a = waveasm.buffer_load_dword %srd, %off, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  // Another descriptor may describe the same memory.
  waveasm.buffer_store_dword %a, %other, %off : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.vreg
  %b = waveasm.buffer_load_dword %srd, %off, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %b, %other, %off {instOffset = 1024 : i64} : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.vreg
  waveasm.s_endpgm
}

waveasm.program @barrier_between target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<tid = 0>
    attributes {workgroup_size = [128, 1, 1]} {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %a = waveasm.ds_read_b32 %off : !waveasm.vreg -> !waveasm.vreg
  waveasm.s_barrier
  %b = waveasm.ds_read_b32 %off : !waveasm.vreg -> !waveasm.vreg
  %s = waveasm.v_add_u32 %a, %b : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %s, %srd, %off : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
}

waveasm.program @exec_between target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<tid = 0> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c32 = waveasm.constant 32 : !waveasm.imm<32>
  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %a = waveasm.buffer_load_dword %srd, %off, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.v_cmp_lt_u32 %tid, %c32 : !waveasm.pvreg<0>, !waveasm.imm<32>
  %saved = waveasm.s_and_saveexec_b64 -> !waveasm.sreg<2, 2>
  %b = waveasm.buffer_load_dword %srd, %off, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.s_mov_b64_exec %saved : !waveasm.sreg<2, 2>
  %s = waveasm.v_add_u32 %a, %b : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %s, %srd, %off : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
}

waveasm.program @nested_if target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<tid = 0> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %flag = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %a = waveasm.ds_read_b32 %off : !waveasm.vreg -> !waveasm.vreg
  %r = waveasm.if %flag : !waveasm.psreg<2> -> !waveasm.vreg {
    %b = waveasm.ds_read_b32 %off : !waveasm.vreg -> !waveasm.vreg
    waveasm.yield %b : !waveasm.vreg
  } else {
    waveasm.yield %a : !waveasm.vreg
  }
  %s = waveasm.v_add_u32 %a, %r : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %s, %srd, %off : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
}

// Each iteration reads the bytes the previous one wrote: the load before
// the loop and the one inside read the same address value but not the
// same data.
waveasm.program @loop_carried target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<tid = 0> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %a = waveasm.ds_read_b32 %off : !waveasm.vreg -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r:2 = waveasm.loop (%k = %k0, %acc = %a) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %x = waveasm.ds_read_b32 %off : !waveasm.vreg -> !waveasm.vreg
    %acc1 = waveasm.v_add_u32 %acc, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.ds_write_b32 %acc1, %off : !waveasm.vreg, !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %kn#0, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0, %acc1) : !waveasm.sreg, !waveasm.vreg
  }
  waveasm.buffer_store_dword %r#1, %srd, %off : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
}

waveasm.program @explicit_waits target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<tid = 0> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %a = waveasm.buffer_load_dword %srd, %off, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  %b = waveasm.buffer_load_dword %srd, %off, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.s_waitcnt_vmcnt 1
  %s = waveasm.v_add_u32 %a, %a : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.s_waitcnt_vmcnt 0
  %t = waveasm.v_add_u32 %s, %b : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %t, %srd, %off : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
}
