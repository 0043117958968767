// Hazard mitigation after wait-count insertion on the upstream spec's
// examples (../shared); the output must still verify.
// REQUIRES: shared
// RUN: waveasm-opt --waveasm-insert-waitcnt --waveasm-hazard-mitigation %shared/examples/gemm_loop.mlir | waveasm-opt | FileCheck %s --check-prefix=GEMM
// RUN: waveasm-opt --waveasm-insert-waitcnt --waveasm-hazard-mitigation %shared/examples/copy_kernel.mlir | waveasm-opt | FileCheck %s --check-prefix=NONE
// RUN: waveasm-opt --waveasm-insert-waitcnt --waveasm-hazard-mitigation %shared/examples/scale_pack_loop.mlir | waveasm-opt | FileCheck %s --check-prefix=NONE
// RUN: waveasm-opt --waveasm-insert-waitcnt --waveasm-hazard-mitigation %shared/examples/strength_reduction_loop.mlir | waveasm-opt | FileCheck %s --check-prefix=NONE

// gemm_loop: the accumulators leave the loop 7 instructions after the first
// MFMA of the last iteration wrote them; 16x16x16 f16 (4 passes) needs 8
// wait states on gfx942 (upstream inserts nothing for MFMA results).
// GEMM:      waveasm.condition
// GEMM-NEXT: }
// GEMM-NEXT: waveasm.s_nop 0
// GEMM-NEXT: waveasm.buffer_store_dwordx4
// GEMM-NEXT: waveasm.s_nop 0
// GEMM-NEXT: waveasm.buffer_store_dwordx4
// GEMM-NEXT: waveasm.buffer_store_dwordx4
// GEMM-NEXT: waveasm.buffer_store_dwordx4
// GEMM-NEXT: waveasm.s_endpgm

// NONE-NOT: waveasm.s_nop
// NONE:     waveasm.s_endpgm
