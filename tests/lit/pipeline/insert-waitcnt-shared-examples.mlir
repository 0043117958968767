// Wait-count insertion on the upstream spec's examples (../shared), spot
// checks; the output must still verify.
// REQUIRES: shared
// RUN: waveasm-opt --waveasm-insert-waitcnt %shared/examples/gemm_loop.mlir | waveasm-opt | FileCheck %s --check-prefix=GEMM
// RUN: waveasm-opt --waveasm-insert-waitcnt %shared/examples/copy_kernel.mlir | waveasm-opt | FileCheck %s --check-prefix=COPY
// RUN: waveasm-opt --waveasm-insert-waitcnt %shared/examples/scale_pack_loop.mlir | waveasm-opt | FileCheck %s --check-prefix=SCALE
// RUN: waveasm-opt --waveasm-insert-waitcnt %shared/examples/strength_reduction_loop.mlir | waveasm-opt | FileCheck %s --check-prefix=SR

// gemm_loop: its workgroup is declared one wave, so the s_barrier after the
// ds_write_b128 stores waits for no LDS access (the wave's LDS ops execute
// in order; a multi-wave workgroup gets lgkmcnt(0) there, which upstream
// misses: insert-waitcnt-tickets.mlir, pipeline-loops-single-wave.test);
// the loop-carried tiles are waited for at the ds_writes and not at the
// latch, the second barrier needs nothing.
// GEMM:      waveasm.loop
// GEMM-NEXT: waveasm.s_waitcnt_vmcnt 1
// GEMM-NEXT: waveasm.ds_write_b128
// GEMM-NEXT: waveasm.s_waitcnt_vmcnt 0
// GEMM-NEXT: waveasm.ds_write_b128
// GEMM-NEXT: waveasm.s_barrier
// GEMM:      waveasm.s_waitcnt_lgkmcnt 1
// GEMM-NEXT: waveasm.v_mfma_f32_16x16x16_f16
// GEMM-NEXT: waveasm.s_waitcnt_lgkmcnt 0
// GEMM-NEXT: waveasm.v_mfma_f32_16x16x16_f16
// GEMM:      waveasm.s_setprio 0
// GEMM-NEXT: waveasm.s_barrier
// GEMM-NEXT: waveasm.s_cmp_lt_u32
// GEMM-NEXT: waveasm.condition
// GEMM-NOT:  s_waitcnt
// GEMM:      waveasm.s_endpgm

// copy_kernel: the input's own wait after the s_loads is kept and not
// repeated; each store waits for its data; the store takes a ticket, so the
// second store's data is one ticket older again (vmcnt(1)).
// COPY:      waveasm.s_load_dwordx2
// COPY-NEXT: waveasm.s_load_dwordx2
// COPY-NEXT: waveasm.s_waitcnt lgkmcnt(0)
// COPY-NOT:  lgkmcnt
// COPY:      waveasm.s_waitcnt_vmcnt 1
// COPY-NEXT: waveasm.buffer_store_dwordx4
// COPY-NEXT: waveasm.s_waitcnt_vmcnt 1
// COPY-NEXT: waveasm.buffer_store_dwordx4
// COPY:      waveasm.global_load_dword
// COPY-NEXT: waveasm.s_waitcnt_vmcnt 0
// COPY-NEXT: waveasm.global_store_dword
// COPY-NEXT: waveasm.s_endpgm

// SCALE:      waveasm.buffer_load_dword {{.*}} offset : 256
// SCALE-NEXT: waveasm.s_waitcnt_vmcnt 0
// SCALE-NEXT: waveasm.v_bfe_u32
// SCALE:      waveasm.loop
// SCALE-NOT:  s_waitcnt
// SCALE:      waveasm.buffer_load_dword {{.*}} offset : 256
// SCALE-NEXT: waveasm.s_waitcnt_vmcnt 0
// SCALE-NEXT: waveasm.v_bfe_u32

// SR:      waveasm.buffer_load_dword
// SR-NEXT: waveasm.buffer_load_dword
// SR-NEXT: waveasm.buffer_load_dword
// SR-NEXT: waveasm.s_waitcnt_vmcnt 0
// SR-NEXT: waveasm.v_mul_f32
