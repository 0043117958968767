//===- TailHoist.h - moving ops up the code after a kernel ------*- C++ -*-===//
//
// What the two hoists of the straight code after a pipelined kernel share
// (EpiloguePrefetch.h moves global loads up, DrainReadsAhead.h LDS reads):
// the code itself, which pure ops may move with the op they compute an
// operand of, the vector registers a moved op holds over the ops it passes,
// and the move. Each hoist keeps its own rules for what may be passed.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPT_TAILHOIST_H
#define WAVEASM_PIPELINE_OPT_TAILHOIST_H

#include "analysis/Liveness.h"
#include "ir/Dialect.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

namespace waveasm {

/// The ops of `kernel`'s block after it, up to the first op with regions or
/// the terminator.
llvm::SmallVector<mlir::Operation *> straightCodeAfter(LoopOp kernel);

/// An op that may move up with an op it computes an operand of: no memory,
/// no region, not pinned, no implicit register but EXEC read and SCC
/// written, no SCC read, no SCC result that anything reads (another writer
/// could come between it and its reader), and no physical register result
/// (moving it could pass a reader or writer of that register's earlier
/// value, which SSA does not show).
bool isPureMovable(mlir::Operation *op);

/// Vector (VGPR or AGPR) registers of `v`; 0 for SGPRs and non-registers.
int64_t vectorRegisters(mlir::Value v);

/// VGPRs plus AGPRs: one unified file on the targets with AGPRs.
inline int32_t vectorPressure(const RegCounts &c) {
  return c.vgprs() + c.agprs();
}

/// The ops computing `root`'s operands in `tail` that move up with it
/// (`ops`), those that cannot (`fixed`: it stays below them; ops already
/// `moved` are fixed), and the vector registers held from its new place on
/// (`width`: its results, and those of its moved ops that ops staying below
/// read).
struct HoistSlice {
  llvm::SmallPtrSet<mlir::Operation *, 16> ops, fixed;
  int64_t width = 0;
};
HoistSlice
collectHoistSlice(mlir::Operation *root,
                  const llvm::SmallPtrSetImpl<mlir::Operation *> &tail,
                  const llvm::SmallPtrSetImpl<mlir::Operation *> &moved);

/// Moves `slice`'s ops between `insertBefore` and `root`, in their order,
/// then `root`, before `insertBefore`; the ops they pass hold `slice.width`
/// registers more (`added`), and the moved ops join `moved`.
void hoistSlice(mlir::Operation *root, const HoistSlice &slice,
                mlir::Operation *insertBefore,
                llvm::DenseMap<mlir::Operation *, int32_t> &added,
                llvm::SmallPtrSetImpl<mlir::Operation *> &moved);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OPT_TAILHOIST_H
