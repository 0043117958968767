//===- LoopInvariantBases.h - Accesses whose bases a loop keeps -*- C++ -*-===//
//
// Whether a memory op's base values (SRD, address, soffset) are defined
// outside a loop's body: then what the alias analysis compares is the same
// in every iteration, so its per-iteration answer holds between iterations
// too. The memory edges of the stage analysis (LoopStages.cpp) and the
// memory recurrence bound (LoopBounds.cpp) ask it.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_LOOPINVARIANTBASES_H
#define WAVEASM_ANALYSIS_LOOPINVARIANTBASES_H

#include "analysis/MemoryAlias.h"
#include "ir/Dialect.h"

namespace waveasm {

inline bool hasLoopInvariantBases(mlir::Operation *op, LoopOp loop) {
  std::optional<MemoryAccess> access = getMemoryAccess(op);
  if (!access)
    return false;
  for (mlir::Value v : {access->srd, access->base, access->soffset})
    if (v && loop.getBody().isAncestor(v.getParentRegion()))
      return false;
  return true;
}

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_LOOPINVARIANTBASES_H
