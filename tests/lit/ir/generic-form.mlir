// The generic MLIR op form (properties in <{...}>) is accepted and printed in custom form; generic output re-parses.
// RUN: waveasm-opt %s | FileCheck %s
// RUN: waveasm-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: waveasm-opt %s --mlir-print-op-generic | waveasm-opt | FileCheck %s

// CHECK-LABEL: waveasm.program @gen target = <#waveasm.gfx942> abi = <tid = 1> attributes {vgprs = 64 : i64} {
// GENERIC: "waveasm.program"() <{abi = #waveasm.abi<tid = 1>, kernarg_preload_length = 0 : i64, sgprs = 104 : i64, sym_name = "gen", target = #waveasm.target<#waveasm.gfx942>, vgprs = 64 : i64}> ({
"waveasm.program"() <{sym_name = "gen", target = #waveasm.target<#waveasm.gfx942>,
                      abi = #waveasm.abi<tid = 1>, vgprs = 64 : i64}> ({
  // CHECK-NEXT: %[[C:.*]] = waveasm.constant 7 : <7>
  // CHECK-NEXT: %[[A:.*]] = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  // CHECK-NEXT: %[[B:.*]] = waveasm.precolored.sreg 2 : !waveasm.sreg{{$}}
  // CHECK-NEXT: %[[SRD:.*]] = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  // GENERIC: "waveasm.v_add_u32"(%{{.*}}, %{{.*}}) : (!waveasm.pvreg<0>, !waveasm.sreg) -> !waveasm.vreg
  %c = "waveasm.constant"() <{value = 7 : i64}> : () -> !waveasm.imm<7>
  %a = "waveasm.precolored.vreg"() <{index = 0 : i64}> : () -> !waveasm.pvreg<0>
  %b = "waveasm.precolored.sreg"() <{index = 2 : i64, size = 1 : i64}> : () -> !waveasm.sreg
  %srd = "waveasm.precolored.sreg"() <{index = 4 : i64, size = 4 : i64}> : () -> !waveasm.psreg<4, 4>

  // CHECK-NEXT: %[[ADD:.*]] = waveasm.v_add_u32 %[[A]], %[[B]] : !waveasm.pvreg<0>, !waveasm.sreg -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %dst, %scc = waveasm.s_add_u32 %[[B]], %[[C]] : !waveasm.sreg, !waveasm.imm<7> -> !waveasm.sreg, !waveasm.scc{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.arith.cmp sge, %[[B]], %[[C]] : (!waveasm.sreg, !waveasm.imm<7>) -> !waveasm.sreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.buffer_load_dword %[[SRD]], %[[ADD]], %dst offset : 16 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.ds_read_b64 %[[ADD]] {offset = 64 : i64} : !waveasm.vreg -> !waveasm.vreg<2, 2>
  // CHECK-NEXT: waveasm.s_waitcnt vmcnt(0) lgkmcnt(1)
  // CHECK-NEXT: waveasm.s_cbranch_scc1 @L0
  %add = "waveasm.v_add_u32"(%a, %b) : (!waveasm.pvreg<0>, !waveasm.sreg) -> !waveasm.vreg
  %sum:2 = "waveasm.s_add_u32"(%b, %c) : (!waveasm.sreg, !waveasm.imm<7>) -> (!waveasm.sreg, !waveasm.scc)
  %cmp = "waveasm.arith.cmp"(%b, %c) <{predicate = 5 : i64}> : (!waveasm.sreg, !waveasm.imm<7>) -> !waveasm.sreg
  %l = "waveasm.buffer_load_dword"(%srd, %add, %sum#0) <{instOffset = 16 : i64}>
      : (!waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.sreg) -> !waveasm.vreg
  %r = "waveasm.ds_read_b64"(%add) <{offset = 64 : i64}> : (!waveasm.vreg) -> !waveasm.vreg<2, 2>
  "waveasm.s_waitcnt"() <{vmcnt = 0 : i32, lgkmcnt = 1 : i32}> : () -> ()
  "waveasm.s_cbranch_scc1"() <{target = @L0}> : () -> ()

  // Region ops in generic form.
  // CHECK-NEXT: %[[LOOP:.*]] = waveasm.loop (%[[I:.*]] = %[[B]]) : (!waveasm.sreg) -> !waveasm.sreg {
  // CHECK-NEXT:   %[[CC:.*]] = waveasm.s_cmp_lt_u32 %[[I]], %[[B]] : !waveasm.sreg, !waveasm.sreg -> !waveasm.scc{{$}}
  // CHECK-NEXT:   waveasm.condition %[[CC]] : !waveasm.scc iter_args(%[[I]]) : !waveasm.sreg{{$}}
  // CHECK-NEXT: }
  %loop = "waveasm.loop"(%b) ({
  ^bb0(%i: !waveasm.sreg):
    %cc = "waveasm.s_cmp_lt_u32"(%i, %b) : (!waveasm.sreg, !waveasm.sreg) -> !waveasm.scc
    "waveasm.condition"(%cc, %i) : (!waveasm.scc, !waveasm.sreg) -> ()
  }) : (!waveasm.sreg) -> !waveasm.sreg
  // CHECK-NEXT: %{{.*}} = waveasm.if %[[LOOP]] : !waveasm.sreg -> !waveasm.sreg {
  // CHECK-NEXT:   waveasm.yield %[[B]] : !waveasm.sreg{{$}}
  // CHECK-NEXT: } else {
  // CHECK-NEXT:   waveasm.yield %[[LOOP]] : !waveasm.sreg{{$}}
  // CHECK-NEXT: }
  %if = "waveasm.if"(%loop) ({
    "waveasm.yield"(%b) : (!waveasm.sreg) -> ()
  }, {
    "waveasm.yield"(%loop) : (!waveasm.sreg) -> ()
  }) : (!waveasm.sreg) -> !waveasm.sreg
  // CHECK-NEXT: waveasm.s_endpgm
  // CHECK-NEXT: }
  "waveasm.s_endpgm"() : () -> ()
}) : () -> ()
