//===- KernelDescriptor.cpp - .amdhsa_kernel and metadata YAML ------------===//
//
// SPEC.md 17.3 (descriptor fields, in upstream's order) and 17.4 (the
// `amdhsa.kernels` entry). The counts come from ProgramEmitter::computeCounts.
//
//===----------------------------------------------------------------------===//

#include "pipeline/AsmEmitterImpl.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::asmemit;

void ProgramEmitter::emitDescriptor() {
  raw_ostream &os = text.os;
  const KernelLayout &l = layout;
  int wgIds = l.workgroupIds ? 1 : 0;
  os << ".section .rodata,#alloc\n.p2align 6\n.amdhsa_kernel " << l.name
     << "\n  .amdhsa_group_segment_fixed_size " << llvm::alignTo(l.ldsSize, 128)
     << "\n  .amdhsa_private_segment_fixed_size 0"
     << "\n  .amdhsa_kernarg_size " << l.kernargSize
     << "\n  .amdhsa_user_sgpr_count " << l.userSGPRs
     << "\n  .amdhsa_user_sgpr_dispatch_ptr 0"
     << "\n  .amdhsa_user_sgpr_queue_ptr 0"
     << "\n  .amdhsa_user_sgpr_kernarg_segment_ptr 1"
     << "\n  .amdhsa_user_sgpr_dispatch_id 0";
  // llvm-mc accepts the preload fields for gfx942 and gfx950 alike.
  if (l.preloadSGPRs > 0)
    os << "\n  .amdhsa_user_sgpr_kernarg_preload_length " << l.preloadSGPRs
       << "\n  .amdhsa_user_sgpr_kernarg_preload_offset 0";
  os << "\n  .amdhsa_user_sgpr_private_segment_size 0"
     << "\n  .amdhsa_uses_dynamic_stack 0"
     << "\n  .amdhsa_enable_private_segment 0";
  // Required on gfx90a and later (every target we emit for): AGPRs start at
  // accum_offset in the unified register file.
  os << "\n  .amdhsa_accum_offset " << counts.accumOffset
     << "\n  .amdhsa_next_free_vgpr " << counts.nextFreeVGPR
     << "\n  .amdhsa_next_free_sgpr " << counts.nextFreeSGPR
     << "\n  .amdhsa_system_sgpr_workgroup_id_x " << wgIds
     << "\n  .amdhsa_system_sgpr_workgroup_id_y " << wgIds
     << "\n  .amdhsa_system_sgpr_workgroup_id_z " << wgIds
     << "\n  .amdhsa_system_vgpr_workitem_id " << l.workitemIdMode
     << "\n  .amdhsa_float_denorm_mode_32 3"
     << "\n  .amdhsa_float_denorm_mode_16_64 3"
     << "\n.end_amdhsa_kernel\n";
}

void ProgramEmitter::emitMetadataEntry(raw_ostream &os) {
  const KernelLayout &l = layout;
  os << "  - .name: " << l.name << "\n    .symbol: " << l.name << ".kd\n";
  if (l.numKernelArgs == 0)
    os << "    .args: []\n";
  else
    os << "    .args:\n";
  for (int64_t i = 0; i < l.numKernelArgs; ++i)
    os << "      - .name: arg" << i << "_ptr\n        .offset: " << 8 * i
       << "\n        .size: 8\n        .value_kind: global_buffer\n"
          "        .value_type: 'i8*'\n";
  os << "    .kernarg_segment_size: " << l.kernargSize
     << "\n    .group_segment_fixed_size: " << l.ldsSize
     << "\n    .private_segment_fixed_size: 0"
     << "\n    .kernarg_segment_align: 8"
     << "\n    .wavefront_size: " << l.waveSize << "\n    .sgpr_count: "
     << counts.nextFreeSGPR
     // The unified VGPR+AGPR allocation, as LLVM reports it for gfx90a+.
     << "\n    .vgpr_count: " << counts.nextFreeVGPR << '\n';
  if (counts.agprPeak > 0)
    os << "    .agpr_count: " << counts.agprPeak << '\n';
  os << "    .max_flat_workgroup_size: " << l.maxFlatWorkgroupSize << '\n';
}
