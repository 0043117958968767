// Kernel descriptor and metadata on gfx942, three kernels in one module (one
// .amdgcn_target, one metadata block): LDS rounding, kernel argument count,
// workgroup ids and workitem id VGPRs, AGPRs (accum_offset, unified VGPR
// count), kernel_name, min_sgprs, an explicit kernarg preload with its
// backward-compatible prologue.
// RUN: waveasm-opt --emit-assembly %s | FileCheck %s
// RUN: waveasm-opt --emit-assembly %s | llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj -o /dev/null

// CHECK:      .amdgcn_target "amdgcn-amd-amdhsa--gfx942"
// CHECK-EMPTY:
// CHECK-NEXT: .text
// CHECK-EMPTY:
// CHECK-NEXT: .protected plain
// CHECK-NEXT: .globl plain
// CHECK-NEXT: .p2align 8
// CHECK-NEXT: .type plain,@function
// CHECK-NEXT: {{^}}plain:
// CHECK-NEXT:   v_mov_b32 v40, s2
// CHECK-NEXT:   s_endpgm
// CHECK-EMPTY:
// CHECK-NEXT: .section .rodata,#alloc
// CHECK-NEXT: .p2align 6
// CHECK-NEXT: .amdhsa_kernel plain
// CHECK-NEXT:   .amdhsa_group_segment_fixed_size 1024
// CHECK-NEXT:   .amdhsa_private_segment_fixed_size 0
// CHECK-NEXT:   .amdhsa_kernarg_size 48
// CHECK-NEXT:   .amdhsa_user_sgpr_count 2
// CHECK-NEXT:   .amdhsa_user_sgpr_dispatch_ptr 0
// CHECK-NEXT:   .amdhsa_user_sgpr_queue_ptr 0
// CHECK-NEXT:   .amdhsa_user_sgpr_kernarg_segment_ptr 1
// CHECK-NEXT:   .amdhsa_user_sgpr_dispatch_id 0
// CHECK-NEXT:   .amdhsa_user_sgpr_private_segment_size 0
// CHECK-NEXT:   .amdhsa_uses_dynamic_stack 0
// CHECK-NEXT:   .amdhsa_enable_private_segment 0
// CHECK-NEXT:   .amdhsa_accum_offset 44
// CHECK-NEXT:   .amdhsa_next_free_vgpr 48
// CHECK-NEXT:   .amdhsa_next_free_sgpr 8
// CHECK-NEXT:   .amdhsa_system_sgpr_workgroup_id_x 1
// CHECK-NEXT:   .amdhsa_system_sgpr_workgroup_id_y 1
// CHECK-NEXT:   .amdhsa_system_sgpr_workgroup_id_z 1
// CHECK-NEXT:   .amdhsa_system_vgpr_workitem_id 1
// CHECK-NEXT:   .amdhsa_float_denorm_mode_32 3
// CHECK-NEXT:   .amdhsa_float_denorm_mode_16_64 3
// CHECK-NEXT: .end_amdhsa_kernel
// CHECK-EMPTY:
// CHECK-NEXT: .text
waveasm.program @plain target = #waveasm.target<#waveasm.gfx942, 5>
    abi = #waveasm.abi<tid = 0, kernarg = 0, wg_id_x = 2>
    attributes {lds_size = 1000 : i64, workgroup_size = [64, 4, 1],
                num_kernel_args = 3 : i64} {
  %wg = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %v = waveasm.v_mov_b32 %wg : !waveasm.psreg<2> -> !waveasm.pvreg<40>
  waveasm.s_endpgm
}

// 18 VGPRs (v15 counted) -> accum_offset 20; 20 + 32 AGPRs -> 56.
// CHECK:      {{^}}renamed_kernel:
// CHECK-NEXT:   v_mfma_f32_32x32x4_2b_f16 a[0:31], v[16:17], v[16:17], 0
// CHECK:      .amdhsa_kernel renamed_kernel
// CHECK:        .amdhsa_kernarg_size 32
// CHECK:        .amdhsa_accum_offset 20
// CHECK-NEXT:   .amdhsa_next_free_vgpr 56
// CHECK-NEXT:   .amdhsa_next_free_sgpr 40
// CHECK-NEXT:   .amdhsa_system_sgpr_workgroup_id_x 0
// CHECK-NEXT:   .amdhsa_system_sgpr_workgroup_id_y 0
// CHECK-NEXT:   .amdhsa_system_sgpr_workgroup_id_z 0
// CHECK-NEXT:   .amdhsa_system_vgpr_workitem_id 2
waveasm.program @agprs target = #waveasm.target<#waveasm.gfx942, 5>
    abi = #waveasm.abi<>
    attributes {kernel_name = "renamed_kernel", workgroup_size = [16, 4, 4],
                min_sgprs = 40 : i64} {
  %a = waveasm.precolored.vreg 16, 2 : !waveasm.pvreg<16, 2>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %acc = waveasm.v_mfma_f32_32x32x4_f16 %a, %a, %c0 : !waveasm.pvreg<16, 2>, !waveasm.pvreg<16, 2>, !waveasm.imm<0> -> !waveasm.pareg<0, 32>
  waveasm.s_endpgm
}

// An explicit preload on gfx942: the prologue loads the same SGPRs for
// firmware that does not preload and is padded to 256 bytes.
// CHECK:      {{^}}preload:
// CHECK-NEXT:   ; kernarg preload: firmware without preloading starts here and loads s[2:3] itself;
// CHECK-NEXT:   ; firmware with it enters 256 bytes later
// CHECK-NEXT:   s_load_dwordx2 s[2:3], s[0:1], 0
// CHECK-NEXT:   s_waitcnt lgkmcnt(0)
// CHECK-NEXT:   s_branch L_preload_preloaded
// CHECK-NEXT: .p2align 8
// CHECK-NEXT: {{^}}L_preload_preloaded:
// CHECK-NEXT:   s_add_u32 s6, s4, s2
// CHECK:      .amdhsa_kernel preload
// CHECK:        .amdhsa_kernarg_size 16
// CHECK-NEXT:   .amdhsa_user_sgpr_count 4
// CHECK:        .amdhsa_user_sgpr_dispatch_id 0
// CHECK-NEXT:   .amdhsa_user_sgpr_kernarg_preload_length 2
// CHECK-NEXT:   .amdhsa_user_sgpr_kernarg_preload_offset 0
// CHECK-NEXT:   .amdhsa_user_sgpr_private_segment_size 0
// CHECK:        .amdhsa_system_sgpr_workgroup_id_x 1
waveasm.program @preload target = #waveasm.target<#waveasm.gfx942, 5>
    abi = #waveasm.abi<wg_id_x = 4>
    attributes {kernarg_preload_length = 2 : i64} {
  %arg = waveasm.precolored.sreg 2, 2 : !waveasm.psreg<2, 2>
  %wg = waveasm.precolored.sreg 4 : !waveasm.psreg<4>
  %x:2 = waveasm.s_add_u32 %wg, %arg : !waveasm.psreg<4>, !waveasm.psreg<2, 2> -> !waveasm.psreg<6>, !waveasm.scc
  waveasm.s_endpgm
}

// CHECK:      .amdgpu_metadata
// CHECK-NEXT: ---
// CHECK-NEXT: amdhsa.version:
// CHECK-NEXT:   - 1
// CHECK-NEXT:   - 2
// CHECK-NEXT: amdhsa.kernels:
// CHECK-NEXT:   - .name: plain
// CHECK-NEXT:     .symbol: plain.kd
// CHECK-NEXT:     .args:
// CHECK-NEXT:       - .name: arg0_ptr
// CHECK-NEXT:         .offset: 0
// CHECK-NEXT:         .size: 8
// CHECK-NEXT:         .value_kind: global_buffer
// CHECK-NEXT:         .value_type: 'i8*'
// CHECK-NEXT:       - .name: arg1_ptr
// CHECK-NEXT:         .offset: 8
// CHECK:            - .name: arg2_ptr
// CHECK-NEXT:         .offset: 16
// CHECK:          .kernarg_segment_size: 48
// CHECK-NEXT:     .group_segment_fixed_size: 1000
// CHECK-NEXT:     .private_segment_fixed_size: 0
// CHECK-NEXT:     .kernarg_segment_align: 8
// CHECK-NEXT:     .wavefront_size: 64
// CHECK-NEXT:     .sgpr_count: 8
// CHECK-NEXT:     .vgpr_count: 48
// CHECK-NEXT:     .max_flat_workgroup_size: 256
// CHECK-NEXT:   - .name: renamed_kernel
// CHECK-NEXT:     .symbol: renamed_kernel.kd
// CHECK:          .sgpr_count: 40
// CHECK-NEXT:     .vgpr_count: 56
// CHECK-NEXT:     .agpr_count: 32
// CHECK-NEXT:     .max_flat_workgroup_size: 256
// CHECK-NEXT:   - .name: preload
// CHECK:          .kernarg_segment_size: 16
// CHECK:      ...
// CHECK-NEXT: .end_amdgpu_metadata
