// Hazard mitigation after wait-count insertion (the pipeline's order) on the
// example kernels, spot checks; the output must still verify.
// RUN: waveasm-opt --waveasm-insert-waitcnt --waveasm-hazard-mitigation %examples/mxfp4_gemm_direct_to_lds.mlir | waveasm-opt | FileCheck %s --check-prefix=MX
// RUN: waveasm-opt --waveasm-insert-waitcnt --waveasm-hazard-mitigation %examples/gemm_f16_double_buffer.mlir | waveasm-opt | FileCheck %s --check-prefix=DB
// RUN: waveasm-opt --waveasm-insert-waitcnt --waveasm-hazard-mitigation %examples/gemm_f16_32x32x8_global.mlir | waveasm-opt | FileCheck %s --check-prefix=GL

// mxfp4: VALU -> v_readfirstlane, and every M0 write right before the *_lds
// load that reads it.
// MX:      waveasm.v_lshrrev_b32
// MX-NEXT: waveasm.s_nop 0
// MX-NEXT: waveasm.v_readfirstlane_b32
// MX:      waveasm.s_mov_b32_m0
// MX-NEXT: waveasm.s_nop 0
// MX-NEXT: waveasm.buffer_load_dwordx4_lds
// MX:      waveasm.s_mov_b32_m0
// MX-NEXT: waveasm.s_nop 0
// MX-NEXT: waveasm.buffer_load_dwordx4_lds
// MX:      waveasm.loop
// MX:      waveasm.s_mov_b32_m0
// MX-NEXT: waveasm.s_nop 0
// MX-NEXT: waveasm.buffer_load_dwordx4_lds
// MX:      waveasm.s_mov_b32_m0
// MX-NEXT: waveasm.s_nop 0
// MX-NEXT: waveasm.buffer_load_dwordx4_lds
// MX:      waveasm.s_endpgm

// Double buffer: every MFMA result is far enough from its readers (the
// epilogue's address arithmetic covers the 8 wait states).
// DB-NOT:  waveasm.s_nop
// DB:      waveasm.s_endpgm

// 32x32x8 f16 accumulators (8 passes) need 12 wait states: the epilogue's
// first store is 15 instructions after the last MFMA writing its data, so
// no nop (20 before the calibration to passes).
// GL-NOT:  waveasm.s_nop
// GL:      waveasm.extract %{{.*}}#7[12]
// GL-NEXT: waveasm.buffer_store_dwordx4
