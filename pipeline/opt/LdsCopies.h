//===- LdsCopies.h - rotating LDS copies for a pipelined loop ---*- C++ -*-===//
//
// LDS ping/pong (issue 12 item 2). When a loop's stages put the LDS writes
// of iteration j+1 before the reads of iteration j (analysis/LoopStages.h,
// `ldsCopies` = C > 1), each iteration gets its own copy of the loop's LDS
// buffers: copy c lives at the buffers' bytes + c * stride, where the
// stride is the program's LDS end (LdsBuffers.h) rounded up to 128 bytes,
// so no copy overlaps any buffer of the program. Iteration j uses copy
// j mod C through a rotating SGPR base carried as a new iter_arg (0, stride,
// ... (C-1) * stride, 0, ...), added to each LDS address in the body.
//
// Planned first (nothing changes on failure), then applied.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPT_LDSCOPIES_H
#define WAVEASM_PIPELINE_OPT_LDSCOPIES_H

#include "ir/Dialect.h"

#include "llvm/ADT/DenseMap.h"

#include <string>

namespace waveasm {

struct LdsCopyPlan {
  int copies = 1;
  int64_t stride = 0;
  /// The program's `lds_size` after the rewrite.
  int64_t ldsBytes = 0;
  /// Why no plan (empty when planned); `outOfMemory` when only the size
  /// forbids it (the text then names the buffers and the bytes over).
  std::string failure;
  bool outOfMemory = false;
  bool ok() const { return failure.empty(); }
};

/// The copies `copies` rotating copies of `loop`'s LDS buffers need, or
/// why they cannot be made: an LDS address the planner cannot bound, a
/// buffer also accessed outside the loop, or more bytes than the target's
/// LDS.
LdsCopyPlan planLdsCopies(LoopOp loop, int copies);

/// Applies `plan` to `loop` (replaced: the returned loop has one more
/// iter_arg, the copy base, and the same body ops plus the base update at
/// the start of the body and one v_add_u32 per LDS address value before its
/// first user). `newOps` receives the ops added to the body.
LoopOp applyLdsCopies(LoopOp loop, const LdsCopyPlan &plan,
                      llvm::SmallVectorImpl<mlir::Operation *> &newOps);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OPT_LDSCOPIES_H
