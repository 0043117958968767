// Sync/control ops round-trip: s_waitcnt (every group combination), counted waits, s_nop/s_setprio/s_sched_barrier, s_barrier, s_endpgm, branches.
// RUN: waveasm-opt %s | FileCheck %s
// RUN: waveasm-opt %s | waveasm-opt | FileCheck %s

// CHECK-LABEL: waveasm.program @sync target = <#waveasm.gfx942> abi = <> {
waveasm.program @sync target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // Every subset of {vmcnt, lgkmcnt, expcnt}; spaces before `(` are accepted
  // on input and never printed.
  // CHECK:      waveasm.s_waitcnt{{$}}
  // CHECK-NEXT: waveasm.s_waitcnt vmcnt(0){{$}}
  // CHECK-NEXT: waveasm.s_waitcnt lgkmcnt(3){{$}}
  // CHECK-NEXT: waveasm.s_waitcnt expcnt(2){{$}}
  // CHECK-NEXT: waveasm.s_waitcnt vmcnt(3) lgkmcnt(4){{$}}
  // CHECK-NEXT: waveasm.s_waitcnt vmcnt(5) expcnt(6){{$}}
  // CHECK-NEXT: waveasm.s_waitcnt lgkmcnt(3) expcnt(7){{$}}
  // CHECK-NEXT: waveasm.s_waitcnt vmcnt(63) lgkmcnt(15) expcnt(0){{$}}
  // CHECK-NEXT: waveasm.s_waitcnt lgkmcnt(0) {tag}{{$}}
  waveasm.s_waitcnt
  waveasm.s_waitcnt vmcnt(0)
  waveasm.s_waitcnt lgkmcnt (3)
  waveasm.s_waitcnt expcnt(2)
  waveasm.s_waitcnt vmcnt(3) lgkmcnt(4)
  waveasm.s_waitcnt vmcnt(5) expcnt(6)
  waveasm.s_waitcnt lgkmcnt (3) expcnt (7)
  waveasm.s_waitcnt vmcnt (63) lgkmcnt(15) expcnt( 0 )
  waveasm.s_waitcnt lgkmcnt(0) {tag}

  // CHECK-NEXT: waveasm.s_waitcnt_vmcnt 3{{$}}
  // CHECK-NEXT: waveasm.s_waitcnt_lgkmcnt 0{{$}}
  // CHECK-NEXT: waveasm.s_waitcnt_expcnt 7{{$}}
  // CHECK-NEXT: waveasm.s_nop 1{{$}}
  // CHECK-NEXT: waveasm.s_setprio 2{{$}}
  // CHECK-NEXT: waveasm.s_sched_barrier 0{{$}}
  // CHECK-NEXT: waveasm.s_barrier{{$}}
  waveasm.s_waitcnt_vmcnt 3
  waveasm.s_waitcnt_lgkmcnt 0
  waveasm.s_waitcnt_expcnt 7
  waveasm.s_nop 1
  waveasm.s_setprio 2
  waveasm.s_sched_barrier 0
  waveasm.s_barrier

  // Branch targets are symbol references, not checked against labels.
  // CHECK-NEXT: waveasm.label @L_top
  // CHECK-NEXT: waveasm.s_branch @L_top{{$}}
  // CHECK-NEXT: waveasm.s_cbranch_scc0 @L_top{{$}}
  // CHECK-NEXT: waveasm.s_cbranch_scc1 @L_end{{$}}
  // CHECK-NEXT: waveasm.s_cbranch_vccz @L_top{{$}}
  // CHECK-NEXT: waveasm.s_cbranch_vccnz @L_end{{$}}
  // CHECK-NEXT: waveasm.s_cbranch_execz @L_top{{$}}
  // CHECK-NEXT: waveasm.s_cbranch_execnz @L_end{{$}}
  // CHECK-NEXT: waveasm.label @L_end
  // CHECK-NEXT: waveasm.s_endpgm{{$}}
  // CHECK-NEXT: }
  waveasm.label @L_top
  waveasm.s_branch @L_top
  waveasm.s_cbranch_scc0 @L_top
  waveasm.s_cbranch_scc1 @L_end
  waveasm.s_cbranch_vccz @L_top
  waveasm.s_cbranch_vccnz @L_end
  waveasm.s_cbranch_execz @L_top
  waveasm.s_cbranch_execnz @L_end
  waveasm.label @L_end
  waveasm.s_endpgm
}
