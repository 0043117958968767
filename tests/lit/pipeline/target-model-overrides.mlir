// Target-model numbers are overridable from the command line: a longer
// global-load latency raises the estimate (load 100 -> 400 cycles, then the
// store's 100 before s_endpgm completes), a longer trans->VALU hazard gets a
// longer s_nop, an unknown name is a diagnostic listing the known ones.
// RUN: waveasm-opt --waveasm-metrics %s | FileCheck %s --check-prefix=BASE
// RUN: waveasm-opt --waveasm-metrics --target-model=latency.vmem_load=400 %s | FileCheck %s --check-prefix=SLOW
// RUN: waveasm-opt --waveasm-hazard-mitigation=model-override=hazard.trans_to_valu=3 %s | FileCheck %s --check-prefix=NOP
// RUN: not waveasm-opt --waveasm-metrics --target-model=latency.bogus=1 %s 2>&1 | FileCheck %s --check-prefix=BAD

// BASE: "est_cycles": 2{{[0-9][0-9]}},
// SLOW: "est_cycles": 5{{[0-9][0-9]}},
// NOP: waveasm.v_exp_f32
// NOP-NEXT: waveasm.s_nop 2
// NOP-NEXT: waveasm.v_add_u32
// BAD: error: unknown target override 'latency.bogus'; known names: latency.none,

waveasm.program @k target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %x = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %e = waveasm.v_exp_f32 %x : !waveasm.vreg -> !waveasm.vreg
  %y = waveasm.v_add_u32 %e, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %y, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}
