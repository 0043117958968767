// The production driver's rule for ticketed waits (SPEC.md 13): ticketed
// only when the workgroup has at least 2 waves in both M (x work items over
// the subgroup size) and N (y). The program's workgroup_size decides, else
// the tool's --workgroup-size-x/y and --subgroup-size.
// RUN: waveasm-opt --split-input-file --waveasm-insert-waitcnt=ticketed-by-workgroup=true %s | FileCheck %s
// Without the attribute: 128 x 2 work items of 64 lanes are 2 x 2 waves.
// RUN: waveasm-opt --waveasm-insert-waitcnt=ticketed-by-workgroup=true --workgroup-size-x=128 --workgroup-size-y=2 %S/Inputs/two-loads.mlir | FileCheck %S/Inputs/two-loads.mlir --check-prefix=TICKET
// RUN: waveasm-opt --waveasm-insert-waitcnt=ticketed-by-workgroup=true --workgroup-size-x=128 --workgroup-size-y=2 --subgroup-size=128 %S/Inputs/two-loads.mlir | FileCheck %S/Inputs/two-loads.mlir --check-prefix=ZERO
// RUN: waveasm-opt --waveasm-insert-waitcnt=ticketed-by-workgroup=true %S/Inputs/two-loads.mlir | FileCheck %S/Inputs/two-loads.mlir --check-prefix=ZERO
// The pipeline's default (auto) is this rule; true and false force it.
// RUN: waveasm-opt --waveasm-pipeline --dump-pass-pipeline %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: waveasm-opt --waveasm-pipeline=ticketed-waitcnt=false --dump-pass-pipeline %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORCED
// Bad tool options are usage errors.
// RUN: not waveasm-opt --workgroup-size-x=0 %s 2>&1 | FileCheck %s --check-prefix=BADSIZE
// RUN: not waveasm-opt --target=gfx90a %s 2>&1 | FileCheck %s --check-prefix=BADTARGET

// AUTO: waveasm-insert-waitcnt{insert-after-loads=false ticketed-by-workgroup=true ticketed-waitcnt=true}
// FORCED: waveasm-insert-waitcnt{insert-after-loads=false ticketed-by-workgroup=false ticketed-waitcnt=false}
// BADSIZE: error: --workgroup-size-{x,y,z} and --subgroup-size must be positive
// BADTARGET: error: unknown --target 'gfx90a' (expected gfx942, gfx950, gfx1250)

// 128 x 2: 2 waves in M, 2 in N: ticketed.
// CHECK-LABEL: waveasm.program @two_by_two
// CHECK: waveasm.s_waitcnt_vmcnt 1
// CHECK-NEXT: waveasm.buffer_store_dword
waveasm.program @two_by_two target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> attributes {workgroup_size = [128, 2, 1]} {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %a = waveasm.buffer_load_dword %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %b = waveasm.buffer_load_dword %srd, %v0, %c0 offset : 4 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %a, %srd, %v0 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.buffer_store_dword %b, %srd, %v0 offset : 4 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

// -----

// 256 x 1: 4 waves in M, 1 in N: waits for 0.
// CHECK-LABEL: waveasm.program @four_by_one
// CHECK: waveasm.s_waitcnt_vmcnt 0
// CHECK-NEXT: waveasm.buffer_store_dword
waveasm.program @four_by_one target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> attributes {workgroup_size = [256, 1, 1]} {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %a = waveasm.buffer_load_dword %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %b = waveasm.buffer_load_dword %srd, %v0, %c0 offset : 4 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %a, %srd, %v0 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.buffer_store_dword %b, %srd, %v0 offset : 4 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}
