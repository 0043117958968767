// The valid SPEC examples allocate completely, verify, and round-trip; loop
// kernels carry their accumulators in one register range per position.
// REQUIRES: shared
// RUN: waveasm-opt --waveasm-linear-scan %shared/examples/copy_kernel.mlir | waveasm-opt | FileCheck %s --check-prefixes=ALL,COPY
// RUN: waveasm-opt --waveasm-linear-scan %shared/examples/gemm_loop.mlir | waveasm-opt | FileCheck %s --check-prefixes=ALL,GEMM
// RUN: waveasm-opt --waveasm-linear-scan %shared/examples/scale_pack_loop.mlir | waveasm-opt | FileCheck %s --check-prefixes=ALL,SCALE
// RUN: waveasm-opt --waveasm-linear-scan %shared/examples/strength_reduction_loop.mlir | waveasm-opt | FileCheck %s --check-prefixes=ALL,DOT
// ALL-NOT: !waveasm.vreg
// ALL-NOT: !waveasm.sreg
// ALL-NOT: !waveasm.areg

// COPY-LABEL: waveasm.program @copy_rows
// The descriptor words are built in place: one aligned SGPR quad.
// COPY: waveasm.pack {{.*}} -> !waveasm.psreg<{{[0-9]*[048]}}, 4>
// COPY: waveasm.s_endpgm

// GEMM-LABEL: waveasm.program @gemm_32x32_f16
// GEMM: waveasm.loop ({{.*}}) : (!waveasm.psreg<[[K:[0-9]+]]>, !waveasm.pvreg<[[A:[0-9]+]], 4>, !waveasm.pvreg<[[B:[0-9]+]], 4>, !waveasm.pvreg<[[C0:[0-9]+]], 4>, !waveasm.pvreg<[[C1:[0-9]+]], 4>, !waveasm.pvreg<[[C2:[0-9]+]], 4>, !waveasm.pvreg<[[C3:[0-9]+]], 4>) -> (!waveasm.psreg<[[K]]>, !waveasm.pvreg<[[A]], 4>, !waveasm.pvreg<[[B]], 4>, !waveasm.pvreg<[[C0]], 4>, !waveasm.pvreg<[[C1]], 4>, !waveasm.pvreg<[[C2]], 4>, !waveasm.pvreg<[[C3]], 4>)
// GEMM: waveasm.v_mfma_f32_16x16x16_f16 {{.*}} -> !waveasm.pvreg<[[C0]], 4>
// GEMM: waveasm.condition {{.*}} {_iterArgPhysRegs = array<i64: [[K]], [[A]], [[B]], [[C0]], [[C1]], [[C2]], [[C3]]>}

// SCALE-LABEL: waveasm.program @mxfp4_gemm_k_loop
// SCALE: waveasm.v_mfma_scale_f32_16x16x128_f8f6f4 {{.*}} !waveasm.pvreg<[[ACC:[0-9]+]], 4>, !waveasm.pvreg<{{[0-9]+}}>, !waveasm.pvreg<{{[0-9]+}}> -> !waveasm.pvreg<[[ACC]], 4>
// SCALE: waveasm.condition {{.*}} {_iterArgPhysRegs = array<i64:

// DOT-LABEL: waveasm.program @dot_rows
// DOT: %[[R:.*]]:2 = waveasm.loop (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (!waveasm.psreg<{{[0-9]+}}>, !waveasm.pvreg<[[S:[0-9]+]]>) -> (!waveasm.psreg<{{[0-9]+}}>, !waveasm.pvreg<[[S]]>)
// DOT: waveasm.buffer_store_dword %[[R]]#1, {{.*}} : !waveasm.pvreg<[[S]]>
