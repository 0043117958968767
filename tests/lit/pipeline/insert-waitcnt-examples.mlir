// Wait-count insertion on the project's example kernels, spot checks. The
// output must still verify (it is parsed again).
// RUN: waveasm-opt --waveasm-insert-waitcnt %examples/gemm_f16_double_buffer.mlir | waveasm-opt | FileCheck %s --check-prefix=DB
// RUN: waveasm-opt --waveasm-insert-waitcnt %examples/mxfp4_gemm_direct_to_lds.mlir | waveasm-opt | FileCheck %s --check-prefix=MX
// RUN: waveasm-opt --waveasm-insert-waitcnt %examples/gemm_f16_32x32x8_global.mlir | waveasm-opt | FileCheck %s --check-prefix=GL

// Double buffer: the prologue's tiles are waited for one by one, the
// ds_writes are published by the barrier with lgkmcnt(0) (vmcnt is not
// drained there); in the loop the fragment reads are waited for in order and
// the prefetched tile right before it is written to LDS.
// DB:      waveasm.buffer_load_dwordx4
// DB-NEXT: waveasm.buffer_load_dwordx4
// DB-NEXT: waveasm.s_waitcnt_vmcnt 1
// DB-NEXT: waveasm.ds_write_b128
// DB-NEXT: waveasm.s_waitcnt_vmcnt 0
// DB-NEXT: waveasm.ds_write_b128
// DB:      waveasm.s_waitcnt_lgkmcnt 0
// DB-NEXT: waveasm.s_barrier
// DB:      waveasm.loop
// DB:      waveasm.ds_read_b64
// DB:      waveasm.s_waitcnt_lgkmcnt 3
// DB-NEXT: waveasm.v_mfma_f32_16x16x16_f16
// DB-NEXT: waveasm.s_waitcnt_lgkmcnt 1
// DB-NEXT: waveasm.v_mfma_f32_16x16x16_f16
// DB:      waveasm.s_waitcnt_lgkmcnt 0
// DB-NEXT: waveasm.v_mfma_f32_16x16x16_f16
// DB:      waveasm.s_waitcnt_vmcnt 1
// DB-NEXT: waveasm.ds_write_b128
// DB-NEXT: waveasm.s_waitcnt_vmcnt 0
// DB-NEXT: waveasm.ds_write_b128
// DB-NEXT: waveasm.s_waitcnt_lgkmcnt 0
// DB-NEXT: waveasm.s_barrier
// DB-NEXT: waveasm.s_cmp_lt_u32
// DB-NEXT: waveasm.condition
// DB-NOT:  s_waitcnt
// DB:      waveasm.s_endpgm

// Direct-to-LDS: the barrier waits for the two *_lds loads only (vmcnt(1):
// the scale load issued after them stays in flight), and the scale, copied
// at the latch (it is loaded before the MFMAs read the previous one), is
// waited for there.
// MX:      waveasm.buffer_load_dwordx4_lds
// MX:      waveasm.buffer_load_dwordx4_lds
// MX-NEXT: waveasm.buffer_load_dword %
// MX:      waveasm.s_waitcnt_vmcnt 1
// MX-NEXT: waveasm.s_barrier
// MX:      waveasm.loop
// MX:      waveasm.s_waitcnt vmcnt(3) lgkmcnt(1)
// MX-NEXT: waveasm.v_mfma_scale_f32_16x16x128_f8f6f4
// MX:      waveasm.s_waitcnt_vmcnt 1
// MX-NEXT: waveasm.s_barrier
// MX-NEXT: waveasm.s_cmp_lt_u32
// MX-NEXT: waveasm.s_waitcnt_vmcnt 0
// MX-NEXT: waveasm.condition

// Global-pointer GEMM: the s_load of the kernel arguments is waited for
// before its first use, the three prefetched tiles in order.
// GL:      waveasm.s_load_dwordx8
// GL:      waveasm.s_waitcnt_lgkmcnt 0
// GL:      waveasm.loop
// GL-NEXT: waveasm.s_waitcnt_vmcnt 2
// GL-NEXT: waveasm.ds_write_b128
// GL-NEXT: waveasm.s_waitcnt_vmcnt 1
// GL-NEXT: waveasm.ds_write_b128
// GL-NEXT: waveasm.s_waitcnt_vmcnt 0
// GL-NEXT: waveasm.ds_write_b128
// GL-NEXT: waveasm.s_waitcnt_lgkmcnt 0
// GL-NEXT: waveasm.s_barrier
