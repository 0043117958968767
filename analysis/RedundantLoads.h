//===- RedundantLoads.h - loads that repeat an earlier load -----*- C++ -*-===//
//
// Seed 004's redundant load elimination, as a question: which loads read
// what an earlier load of the same block already read? A load repeats an
// earlier one when both are the same op with the same operands (so the
// same address in every lane), attributes and result types, and nothing
// between them may change those bytes or the lanes:
//   - no op that writes memory MemoryAlias.h cannot prove disjoint from the
//     load (ops with regions count with their nested ops);
//   - no s_barrier (another wave's write becomes visible), no op that
//     writes EXEC (other lanes), no label, raw text or op without facts;
// nested blocks start with nothing known (a loop body runs after its own
// writes; an `if` body under another EXEC). Results must be virtual
// registers (after allocation a register may be overwritten between), and
// programs with explicit s_waitcnt are skipped: a removed load changes what
// their counts wait for. Loads marked `no_cse` are kept.
//
// The pass `waveasm-redundant-load-elim` replaces each such load by the
// earlier one; the language server reports them as the `redundantLoad`
// lint.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_REDUNDANTLOADS_H
#define WAVEASM_ANALYSIS_REDUNDANTLOADS_H

#include "ir/Dialect.h"

#include <vector>

namespace waveasm {

struct RedundantLoad {
  mlir::Operation *load;    // the repeat
  mlir::Operation *earlier; // whose results it can use
};

/// The redundant loads of `program`, in program order; `earlier` is never
/// itself redundant.
std::vector<RedundantLoad> findRedundantLoads(ProgramOp program);

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_REDUNDANTLOADS_H
