// v_accvgpr_write_b32 writes its destination operand and has no result:
// upstream declares it Pure, so canonicalize (which the production
// pipeline runs) erased every write (SPEC.md 21 item 8). Here it is no pure
// op and survives, as does the MFMA reading the AGPR it wrote.
// RUN: waveasm-opt --canonicalize %s | FileCheck %s
// RUN: waveasm-opt --waveasm-pipeline --emit-assembly %s | FileCheck %s --check-prefix=ASM

// CHECK: waveasm.v_accvgpr_write_b32
// ASM: v_accvgpr_write_b32 a0, v0
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %a0 = waveasm.precolored.areg 0 : !waveasm.pareg<0>
  waveasm.v_accvgpr_write_b32 %v0, %a0 : !waveasm.pvreg<0>, !waveasm.pareg<0>
  waveasm.s_endpgm
}
