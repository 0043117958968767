// Kernel descriptor and metadata on gfx950: upstream's implicit kernarg
// preload (2 SGPRs per argument, workgroup ids after them) with the
// backward-compatible prologue, AGPRs, LDS size, a kernel without arguments.
// RUN: waveasm-opt --emit-assembly %s | FileCheck %s
// RUN: waveasm-opt --emit-assembly %s | llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx950 -filetype=obj -o /dev/null

// CHECK:      .amdgcn_target "amdgcn-amd-amdhsa--gfx950"
// CHECK:      {{^}}gemm:
// CHECK-NEXT:   ; kernarg preload: firmware without preloading starts here and loads s[2:5] itself;
// CHECK-NEXT:   ; firmware with it enters 256 bytes later
// CHECK-NEXT:   s_load_dwordx2 s[2:3], s[0:1], 0
// CHECK-NEXT:   s_load_dwordx2 s[4:5], s[0:1], 8
// CHECK-NEXT:   s_waitcnt lgkmcnt(0)
// CHECK-NEXT:   s_branch L_gemm_preloaded
// CHECK-NEXT: .p2align 8
// CHECK-NEXT: {{^}}L_gemm_preloaded:
// CHECK-NEXT:   v_mfma_f32_16x16x32_f16 a[0:3], v[32:35], v[32:35], 0
// CHECK-NEXT:   s_endpgm
// CHECK:      .amdhsa_kernel gemm
// CHECK-NEXT:   .amdhsa_group_segment_fixed_size 16384
// CHECK-NEXT:   .amdhsa_private_segment_fixed_size 0
// CHECK-NEXT:   .amdhsa_kernarg_size 32
// CHECK-NEXT:   .amdhsa_user_sgpr_count 6
// CHECK-NEXT:   .amdhsa_user_sgpr_dispatch_ptr 0
// CHECK-NEXT:   .amdhsa_user_sgpr_queue_ptr 0
// CHECK-NEXT:   .amdhsa_user_sgpr_kernarg_segment_ptr 1
// CHECK-NEXT:   .amdhsa_user_sgpr_dispatch_id 0
// CHECK-NEXT:   .amdhsa_user_sgpr_kernarg_preload_length 4
// CHECK-NEXT:   .amdhsa_user_sgpr_kernarg_preload_offset 0
// CHECK-NEXT:   .amdhsa_user_sgpr_private_segment_size 0
// CHECK-NEXT:   .amdhsa_uses_dynamic_stack 0
// CHECK-NEXT:   .amdhsa_enable_private_segment 0
// CHECK-NEXT:   .amdhsa_accum_offset 36
// CHECK-NEXT:   .amdhsa_next_free_vgpr 40
// CHECK-NEXT:   .amdhsa_next_free_sgpr 16
// CHECK-NEXT:   .amdhsa_system_sgpr_workgroup_id_x 1
// CHECK-NEXT:   .amdhsa_system_sgpr_workgroup_id_y 1
// CHECK-NEXT:   .amdhsa_system_sgpr_workgroup_id_z 1
// CHECK-NEXT:   .amdhsa_system_vgpr_workitem_id 0
// CHECK-NEXT:   .amdhsa_float_denorm_mode_32 3
// CHECK-NEXT:   .amdhsa_float_denorm_mode_16_64 3
// CHECK-NEXT: .end_amdhsa_kernel
waveasm.program @gemm target = #waveasm.target<#waveasm.gfx950, 5>
    abi = #waveasm.abi<tid = 0, kernarg = 0, wg_id_x = 6, wg_id_y = 7>
    attributes {lds_size = 16384 : i64, workgroup_size = [256, 1, 1]} {
  %wg_x = waveasm.precolored.sreg 6 : !waveasm.psreg<6>
  %a = waveasm.precolored.vreg 32, 4 : !waveasm.pvreg<32, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %acc = waveasm.v_mfma_f32_16x16x32_f16 %a, %a, %c0 : !waveasm.pvreg<32, 4>, !waveasm.pvreg<32, 4>, !waveasm.imm<0> -> !waveasm.pareg<0, 4>
  waveasm.s_endpgm
}

// No arguments: nothing to preload.
// CHECK:      {{^}}noargs:
// CHECK-NEXT:   s_endpgm
// CHECK:      .amdhsa_kernel noargs
// CHECK-NEXT:   .amdhsa_group_segment_fixed_size 0
// CHECK-NEXT:   .amdhsa_private_segment_fixed_size 0
// CHECK-NEXT:   .amdhsa_kernarg_size 0
// CHECK-NEXT:   .amdhsa_user_sgpr_count 2
// CHECK-NOT:    preload
// CHECK:        .amdhsa_system_sgpr_workgroup_id_x 0
waveasm.program @noargs target = #waveasm.target<#waveasm.gfx950, 5>
    abi = #waveasm.abi<> attributes {num_kernel_args = 0 : i64} {
  waveasm.s_endpgm
}

// CHECK:      amdhsa.kernels:
// CHECK-NEXT:   - .name: gemm
// CHECK-NEXT:     .symbol: gemm.kd
// CHECK-NEXT:     .args:
// CHECK-NEXT:       - .name: arg0_ptr
// CHECK:            - .name: arg1_ptr
// CHECK:          .kernarg_segment_size: 32
// CHECK-NEXT:     .group_segment_fixed_size: 16384
// CHECK-NEXT:     .private_segment_fixed_size: 0
// CHECK-NEXT:     .kernarg_segment_align: 8
// CHECK-NEXT:     .wavefront_size: 64
// CHECK-NEXT:     .sgpr_count: 16
// CHECK-NEXT:     .vgpr_count: 40
// CHECK-NEXT:     .agpr_count: 4
// CHECK-NEXT:     .max_flat_workgroup_size: 256
// CHECK-NEXT:   - .name: noargs
// CHECK-NEXT:     .symbol: noargs.kd
// CHECK-NEXT:     .args: []
// CHECK-NEXT:     .kernarg_segment_size: 0
// CHECK:          .vgpr_count: 16
// CHECK-NEXT:     .max_flat_workgroup_size: 256
// CHECK-NEXT: ...
