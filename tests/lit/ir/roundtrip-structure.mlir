// Structure ops round-trip: program attributes (defaults elided), loop, if, yield, condition.
// RUN: waveasm-opt %s | FileCheck %s
// RUN: waveasm-opt %s | waveasm-opt | FileCheck %s

// Every declared attribute at its default value, fully-qualified target/abi:
// the printer strips the attributes and drops the whole dictionary.
// CHECK-LABEL: waveasm.program @defaults target = <#waveasm.gfx942> abi = <> {
// CHECK-NEXT:    waveasm.s_endpgm
// CHECK-NEXT:  }
waveasm.program @defaults target = #waveasm.target<#waveasm.gfx942, 5>
    abi = #waveasm.abi<tid = 0, kernarg = 0>
    attributes {vgprs = 256 : i64, sgprs = 104 : i64, kernarg_preload_length = 0 : i64} {
  waveasm.s_endpgm
}

// Every program attribute with a non-default value plus discardable ones,
// written in the stripped form; the dictionary prints alphabetically.
// CHECK-LABEL: waveasm.program @all target = <#waveasm.gfx950> abi = <tid = 1, kernarg = 2, wg_id_x = 3, wg_id_y = 4, wg_id_z = 5> attributes {kernarg_preload_length = 2 : i64, kernel_name = "all_kernel", lds_size = 2048 : i64, min_sgprs = 16 : i64, num_kernel_args = 3 : i64, sgprs = 64 : i64, vgprs = 128 : i64, workgroup_size = [256, 1, 1]} {
// CHECK-NEXT:    waveasm.s_endpgm
// CHECK-NEXT:  }
waveasm.program @all target = <#waveasm.gfx950>
    abi = <wg_id_z = 5, wg_id_y = 4, wg_id_x = 3, kernarg = 2, tid = 1>
    attributes {workgroup_size = [256, 1, 1], vgprs = 128 : i64, sgprs = 64 : i64,
                lds_size = 2048 : i64, kernarg_preload_length = 2 : i64,
                kernel_name = "all_kernel", num_kernel_args = 3 : i64,
                min_sgprs = 16 : i64} {
  waveasm.s_endpgm
}

// An empty program body.
// CHECK-LABEL: waveasm.program @empty target = <#waveasm.gfx942> abi = <> {
// CHECK-NEXT:  }
waveasm.program @empty target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
}

// CHECK-LABEL: waveasm.program @loops target = <#waveasm.gfx942> abi = <> {
waveasm.program @loops target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // CHECK:      %[[C0:.*]] = waveasm.constant 0 : <0>
  // CHECK-NEXT: %[[C1:.*]] = waveasm.constant 1 : <1>
  // CHECK-NEXT: %[[I0:.*]] = waveasm.s_mov_b32 %[[C0]] : !waveasm.imm<0> -> !waveasm.sreg{{$}}
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg

  // No iter args, written with an empty list: prints without the list.
  // CHECK-NEXT: waveasm.loop : () -> () {
  // CHECK-NEXT:   %[[S:.*]] = waveasm.s_mov_b32 %[[C0]] : !waveasm.imm<0> -> !waveasm.sreg{{$}}
  // CHECK-NEXT:   %[[CC:.*]] = waveasm.s_cmp_lt_u32 %[[S]], %[[C1]] : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.scc{{$}}
  // CHECK-NEXT:   waveasm.condition %[[CC]] : !waveasm.scc{{$}}
  // CHECK-NEXT: }
  waveasm.loop () : () -> () {
    %s = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
    %cc = waveasm.s_cmp_lt_u32 %s, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.scc
    waveasm.condition %cc : !waveasm.scc
  }

  // No iter args, list omitted, SGPR condition, trailing attribute dictionary.
  // CHECK-NEXT: waveasm.loop : () -> () {
  // CHECK-NEXT:   %[[S2:.*]] = waveasm.s_mov_b32 %[[C0]] : !waveasm.imm<0> -> !waveasm.sreg{{$}}
  // CHECK-NEXT:   waveasm.condition %[[S2]] : !waveasm.sreg{{$}}
  // CHECK-NEXT: } {unroll = 2 : i64}
  waveasm.loop : () -> () {
    %s = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
    waveasm.condition %s : !waveasm.sreg
  } {unroll = 2 : i64}

  // One iter arg and one result (printed without parentheses), containing a
  // nested loop with two iter args and two results (printed with parentheses).
  // CHECK-NEXT: %[[R:.*]] = waveasm.loop (%[[A0:.*]] = %[[I0]]) : (!waveasm.sreg) -> !waveasm.sreg {
  // CHECK-NEXT:   %[[IN:.*]]:2 = waveasm.loop (%[[A1:.*]] = %[[A0]], %[[A2:.*]] = %[[A0]]) : (!waveasm.sreg, !waveasm.sreg) -> (!waveasm.sreg, !waveasm.sreg) {
  // CHECK-NEXT:     %dst, %scc = waveasm.s_add_u32 %[[A1]], %[[C1]] : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc{{$}}
  // CHECK-NEXT:     %[[GO:.*]] = waveasm.s_cmp_lt_u32 %dst, %[[C1]] : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.scc{{$}}
  // CHECK-NEXT:     waveasm.condition %[[GO]] : !waveasm.scc iter_args(%dst, %[[A2]]) : !waveasm.sreg, !waveasm.sreg{{$}}
  // CHECK-NEXT:   }
  // CHECK-NEXT:   %[[GO2:.*]] = waveasm.s_cmp_lt_u32 %[[IN]]#0, %[[C1]] : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.scc{{$}}
  // CHECK-NEXT:   waveasm.condition %[[GO2]] : !waveasm.scc iter_args(%[[IN]]#1) : !waveasm.sreg{{$}}
  // CHECK-NEXT: }
  %r = waveasm.loop (%i = %i0) : (!waveasm.sreg) -> (!waveasm.sreg) {
    %in:2 = waveasm.loop (%j = %i, %k = %i)
        : (!waveasm.sreg, !waveasm.sreg) -> (!waveasm.sreg, !waveasm.sreg) {
      %n:2 = waveasm.s_add_u32 %j, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
      %go = waveasm.s_cmp_lt_u32 %n#0, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.scc
      waveasm.condition %go : !waveasm.scc iter_args(%n#0, %k) : !waveasm.sreg, !waveasm.sreg
    }
    %go2 = waveasm.s_cmp_lt_u32 %in#0, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.scc
    waveasm.condition %go2 : !waveasm.scc iter_args(%in#1) : !waveasm.sreg
  }

  // Allocated IR: an init whose type differs from its block argument prints
  // its own type after the init.
  // CHECK-NEXT: %[[P:.*]] = waveasm.precolored.vreg 3 : !waveasm.pvreg<3>
  // CHECK-NEXT: %{{.*}} = waveasm.loop (%[[A3:.*]] = %[[P]] : !waveasm.pvreg<3>) : (!waveasm.vreg) -> !waveasm.pvreg<3> {
  // CHECK-NEXT:   waveasm.condition %[[R]] : !waveasm.sreg iter_args(%[[A3]]) : !waveasm.vreg{{$}}
  // CHECK-NEXT: }
  %p = waveasm.precolored.vreg 3 : !waveasm.pvreg<3>
  %q = waveasm.loop (%x = %p : !waveasm.pvreg<3>) : (!waveasm.vreg) -> !waveasm.pvreg<3> {
    waveasm.condition %r : !waveasm.sreg iter_args(%x) : !waveasm.vreg
  }
  // CHECK-NEXT: waveasm.s_endpgm
  waveasm.s_endpgm
}

// CHECK-LABEL: waveasm.program @ifs target = <#waveasm.gfx942> abi = <> {
waveasm.program @ifs target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // CHECK:      %[[C0:.*]] = waveasm.constant 0 : <0>
  // CHECK-NEXT: %[[S:.*]] = waveasm.precolored.sreg 4 : !waveasm.sreg{{$}}
  // CHECK-NEXT: %[[CC:.*]] = waveasm.s_cmp_eq_u32 %[[S]], %[[C0]] : !waveasm.sreg, !waveasm.imm<0> -> !waveasm.scc{{$}}
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %s = waveasm.precolored.sreg 4 : !waveasm.sreg
  %cc = waveasm.s_cmp_eq_u32 %s, %c0 : !waveasm.sreg, !waveasm.imm<0> -> !waveasm.scc

  // No results, no else, condition type defaulted to !waveasm.scc.
  // CHECK-NEXT: waveasm.if %[[CC]] {
  // CHECK-NEXT:   waveasm.s_nop 0
  // CHECK-NEXT:   waveasm.yield{{$}}
  // CHECK-NEXT: }{{$}}
  waveasm.if %cc {
    waveasm.s_nop 0
    waveasm.yield
  }

  // No results, with else; the explicit default condition type is elided.
  // CHECK-NEXT: waveasm.if %[[CC]] {
  // CHECK-NEXT:   waveasm.yield
  // CHECK-NEXT: } else {
  // CHECK-NEXT:   waveasm.s_nop 1
  // CHECK-NEXT:   waveasm.yield
  // CHECK-NEXT: }
  waveasm.if %cc : !waveasm.scc {
    waveasm.yield
  } else {
    waveasm.s_nop 1
    waveasm.yield
  }

  // No results, SGPR condition: the type is kept so that it round-trips.
  // CHECK-NEXT: waveasm.if %[[S]] : !waveasm.sreg {
  // CHECK-NEXT:   waveasm.yield
  // CHECK-NEXT: }
  waveasm.if %s : !waveasm.sreg {
    waveasm.yield
  }

  // Two results (plain comma list after ->), with else and an attribute dictionary.
  // CHECK-NEXT: %[[IF:.*]]:2 = waveasm.if %[[CC]] : !waveasm.scc -> !waveasm.vreg, !waveasm.sreg {
  // CHECK-NEXT:   %[[A:.*]] = waveasm.v_mov_b32 %[[C0]] : !waveasm.imm<0> -> !waveasm.vreg{{$}}
  // CHECK-NEXT:   waveasm.yield %[[A]], %[[S]] : !waveasm.vreg, !waveasm.sreg{{$}}
  // CHECK-NEXT: } else {
  // CHECK-NEXT:   %[[B:.*]] = waveasm.v_mov_b32 %[[S]] : !waveasm.sreg -> !waveasm.vreg{{$}}
  // CHECK-NEXT:   waveasm.yield %[[B]], %[[S]] : !waveasm.vreg, !waveasm.sreg{{$}}
  // CHECK-NEXT: } {tag = "merge"}
  %v:2 = waveasm.if %cc : !waveasm.scc -> !waveasm.vreg, !waveasm.sreg {
    %a = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
    waveasm.yield %a, %s : !waveasm.vreg, !waveasm.sreg
  } else {
    %b = waveasm.v_mov_b32 %s : !waveasm.sreg -> !waveasm.vreg
    waveasm.yield %b, %s : !waveasm.vreg, !waveasm.sreg
  } {tag = "merge"}

  // One result with an SGPR condition.
  // CHECK-NEXT: %{{.*}} = waveasm.if %[[S]] : !waveasm.sreg -> !waveasm.vreg {
  // CHECK-NEXT:   waveasm.yield %[[IF]]#0 : !waveasm.vreg{{$}}
  // CHECK-NEXT: } else {
  // CHECK-NEXT:   waveasm.yield %[[IF]]#0 : !waveasm.vreg{{$}}
  // CHECK-NEXT: }
  %w = waveasm.if %s : !waveasm.sreg -> !waveasm.vreg {
    waveasm.yield %v#0 : !waveasm.vreg
  } else {
    waveasm.yield %v#0 : !waveasm.vreg
  }

  // A yield is also allowed as the last op of a program body.
  // CHECK-NEXT: waveasm.s_endpgm
  // CHECK-NEXT: waveasm.yield{{$}}
  // CHECK-NEXT: }
  waveasm.s_endpgm
  waveasm.yield
}
