// An MFMA whose accumulator is a precolored tuple keeps that tuple for its
// result (SPEC.md 14.3: the MFMA tie result -> acc applies to precolored
// accumulators too), and so does a chain of MFMAs on it. Fresh registers
// only where the precolored contents are still needed after the MFMA, where
// another value names the registers, where A/B come from them, or where the
// precolored op sits in a loop.
// RUN: waveasm-opt --split-input-file --waveasm-linear-scan %s | FileCheck %s
// RUN: waveasm-opt --split-input-file --waveasm-linear-scan --debug-only=waveasm-linear-scan --mlir-disable-threading %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOG
// The whole pipeline's assembly assembles.
// RUN: waveasm-opt --split-input-file --waveasm-pipeline --emit-assembly %s | llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj -o /dev/null

// LOG: MFMA at {{.*}}: result in its precolored accumulator's registers
// CHECK-LABEL: waveasm.program @agpr_chain
// CHECK:      %[[ACC:.*]] = waveasm.precolored.areg 8, 4 : !waveasm.pareg<8, 4>
// CHECK:      %[[M0:.*]] = waveasm.v_mfma_f32_16x16x16_f16 %{{.*}}, %{{.*}}, %[[ACC]] : !waveasm.pvreg<{{[0-9]+}}, 2>, !waveasm.pvreg<{{[0-9]+}}, 2>, !waveasm.pareg<8, 4> -> !waveasm.pareg<8, 4>
// CHECK-NEXT: %[[M1:.*]] = waveasm.v_mfma_f32_16x16x16_f16 %{{.*}}, %{{.*}}, %[[M0]] : {{.*}} -> !waveasm.pareg<8, 4>
// CHECK-NEXT: waveasm.v_accvgpr_read_b32 %[[M1]] : !waveasm.pareg<8, 4>
waveasm.program @agpr_chain target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %acc = waveasm.precolored.areg 8, 4 : !waveasm.areg<4, 4>
  %a = waveasm.ds_read_b64 %tid : !waveasm.pvreg<0> -> !waveasm.vreg<2, 2>
  %b = waveasm.ds_read_b64 %tid {offset = 8 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg<2, 2>
  %m0 = waveasm.v_mfma_f32_16x16x16_f16 %a, %b, %acc : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.areg<4, 4> -> !waveasm.areg<4, 4>
  %m1 = waveasm.v_mfma_f32_16x16x16_f16 %a, %b, %m0 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.areg<4, 4> -> !waveasm.areg<4, 4>
  %v = waveasm.v_accvgpr_read_b32 %m1 : !waveasm.areg<4, 4> -> !waveasm.vreg<4, 4>
  waveasm.buffer_store_dwordx4 %v, %srd, %tid : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

// -----

// A VGPR accumulator that is a part of a wider precolored tuple (v[8:15],
// accumulator v[12:15]): the result goes to v[12:15].
// CHECK-LABEL: waveasm.program @vgpr_part
// CHECK:      waveasm.v_mfma_f32_16x16x16_f16 {{.*}} -> !waveasm.pvreg<12, 4>
waveasm.program @vgpr_part target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %wide = waveasm.precolored.vreg 8, 8 : !waveasm.vreg<8, 4>
  %acc = waveasm.extract %wide[4] : !waveasm.vreg<8, 4> -> !waveasm.vreg<4, 4>
  %a = waveasm.ds_read_b64 %tid : !waveasm.pvreg<0> -> !waveasm.vreg<2, 2>
  %m = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %acc : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  waveasm.buffer_store_dwordx4 %m, %srd, %tid : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

// -----

// The precolored accumulator is read again after the MFMA: fresh AGPRs.
// LOG-NEXT: MFMA at {{.*}}: result in other registers than its precolored accumulator
// CHECK-LABEL: waveasm.program @acc_still_read
// CHECK:      waveasm.v_mfma_f32_16x16x16_f16 {{.*}}, !waveasm.pareg<0, 4> -> !waveasm.pareg<4, 4>
waveasm.program @acc_still_read target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %acc = waveasm.precolored.areg 0, 4 : !waveasm.areg<4, 4>
  %a = waveasm.ds_read_b64 %tid : !waveasm.pvreg<0> -> !waveasm.vreg<2, 2>
  %m = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %acc : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.areg<4, 4> -> !waveasm.areg<4, 4>
  %v = waveasm.v_accvgpr_read_b32 %m : !waveasm.areg<4, 4> -> !waveasm.vreg<4, 4>
  %w = waveasm.v_accvgpr_read_b32 %acc : !waveasm.areg<4, 4> -> !waveasm.vreg<4, 4>
  waveasm.buffer_store_dwordx4 %v, %srd, %tid : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.buffer_store_dwordx4 %w, %srd, %tid : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

// -----

// a1 is also named by another precolored value read later: fresh AGPRs.
// LOG-NEXT: MFMA at {{.*}}: result in other registers than its precolored accumulator
// CHECK-LABEL: waveasm.program @shared_register
// CHECK:      waveasm.v_mfma_f32_16x16x16_f16 {{.*}}, !waveasm.pareg<0, 4> -> !waveasm.pareg<4, 4>
waveasm.program @shared_register target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %acc = waveasm.precolored.areg 0, 4 : !waveasm.areg<4, 4>
  %a1 = waveasm.precolored.areg 1 : !waveasm.areg
  %a = waveasm.ds_read_b64 %tid : !waveasm.pvreg<0> -> !waveasm.vreg<2, 2>
  %m = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %acc : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.areg<4, 4> -> !waveasm.areg<4, 4>
  %v = waveasm.v_accvgpr_read_b32 %m : !waveasm.areg<4, 4> -> !waveasm.vreg<4, 4>
  %w = waveasm.v_accvgpr_read_b32 %a1 : !waveasm.areg -> !waveasm.vreg
  waveasm.buffer_store_dwordx4 %v, %srd, %tid : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.buffer_store_dword %w, %srd, %tid : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

// -----

// A (v[8:9] of the precolored tuple) is read while the destination would
// be written over v[12:15] of the same tuple: fresh VGPRs.
// CHECK-LABEL: waveasm.program @a_from_same_tuple
// CHECK:      waveasm.v_mfma_f32_16x16x16_f16 {{.*}} : !waveasm.pvreg<8, 2>, !waveasm.pvreg<8, 2>, !waveasm.pvreg<12, 4> -> !waveasm.pvreg<{{[0-9]+}}, 4>
// CHECK-NOT:  -> !waveasm.pvreg<12, 4>
waveasm.program @a_from_same_tuple target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %wide = waveasm.precolored.vreg 8, 8 : !waveasm.vreg<8, 4>
  %x = waveasm.extract %wide[0] : !waveasm.vreg<8, 4> -> !waveasm.vreg<2, 2>
  %acc = waveasm.extract %wide[4] : !waveasm.vreg<8, 4> -> !waveasm.vreg<4, 4>
  %m = waveasm.v_mfma_f32_16x16x16_f16 %x, %x, %acc : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  waveasm.buffer_store_dwordx4 %m, %srd, %tid : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

// -----

// A loop-carried result of an MFMA on a precolored accumulator: the block
// argument, iter_arg and loop result live in a[0:3] with it (the
// precolored tuple dies at the MFMA, before the loop).
// LOG-NEXT: MFMA at {{.*}}: result in its precolored accumulator's registers
// CHECK-LABEL: waveasm.program @then_loop
// CHECK:      waveasm.v_mfma_f32_16x16x16_f16 {{.*}}, !waveasm.pareg<0, 4> -> !waveasm.pareg<0, 4>
// CHECK:      waveasm.loop ({{.*}}) : (!waveasm.pareg<0, 4>) -> !waveasm.pareg<0, 4>
// CHECK:      waveasm.v_mfma_f32_16x16x16_f16 {{.*}}, !waveasm.pareg<0, 4> -> !waveasm.pareg<0, 4>
waveasm.program @then_loop target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %s = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %acc = waveasm.precolored.areg 0, 4 : !waveasm.areg<4, 4>
  %a = waveasm.ds_read_b64 %tid : !waveasm.pvreg<0> -> !waveasm.vreg<2, 2>
  %m = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %acc : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.areg<4, 4> -> !waveasm.areg<4, 4>
  %r = waveasm.loop (%c = %m) : (!waveasm.areg<4, 4>) -> (!waveasm.areg<4, 4>) {
    %b = waveasm.ds_read_b64 %tid : !waveasm.pvreg<0> -> !waveasm.vreg<2, 2>
    %n = waveasm.v_mfma_f32_16x16x16_f16 %b, %b, %c : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.areg<4, 4> -> !waveasm.areg<4, 4>
    %go = waveasm.s_cmp_lt_u32 %s, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%n) : !waveasm.areg<4, 4>
  }
  %v = waveasm.v_accvgpr_read_b32 %r : !waveasm.areg<4, 4> -> !waveasm.vreg<4, 4>
  waveasm.buffer_store_dwordx4 %v, %srd, %tid : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}
