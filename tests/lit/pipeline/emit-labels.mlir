// Labels: kept inside regions, never clashing with generated loop/if labels
// or with the labels of another kernel in the same file.
// RUN: waveasm-opt --emit-assembly %s | FileCheck %s
// RUN: waveasm-opt --emit-assembly %s | llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj -o /dev/null

// CHECK-LABEL: {{^}}first:
// CHECK-NEXT: {{^}}L_top:
// CHECK-NEXT: {{^}}L_loop_0:
// CHECK-NEXT: {{^}}L_loop_1:
// CHECK-NEXT: {{^}}L_body:
// CHECK-NEXT:   s_cmp_eq_u32 s8, s8
// CHECK-NEXT:   s_cbranch_scc1 L_loop_1
// CHECK-NEXT:   s_branch L_top
// CHECK-NEXT:   s_cbranch_scc0 L_body
// CHECK-NEXT:   s_endpgm
// CHECK-LABEL: {{^}}second:
// CHECK-NEXT: {{^}}L_top_1:
// CHECK-NEXT:   s_cbranch_execnz L_top_1
// CHECK-NEXT:   s_endpgm
waveasm.program @first target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 8 : !waveasm.psreg<8>
  waveasm.label @L_top
  // A user label that looks like a generated one: the loop takes the next id.
  waveasm.label @L_loop_0
  %r = waveasm.loop (%i = %s) : (!waveasm.psreg<8>) -> !waveasm.psreg<8> {
    waveasm.label @L_body
    %c = waveasm.s_cmp_eq_u32 %i, %i : !waveasm.psreg<8>, !waveasm.psreg<8> -> !waveasm.scc
    waveasm.condition %c : !waveasm.scc iter_args(%i) : !waveasm.psreg<8>
  }
  waveasm.s_branch @L_top
  waveasm.s_cbranch_scc0 @L_body
  waveasm.s_endpgm
}

// The same label names in a second kernel of the file are uniqued; its
// branches follow.
waveasm.program @second target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  waveasm.label @L_top
  waveasm.s_cbranch_execnz @L_top
  waveasm.s_endpgm
}
