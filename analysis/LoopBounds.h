//===- LoopBounds.h - resource bound and critical path ----------*- C++ -*-===//
//
// Schedule-independent bounds on a region of a program: how long its busiest
// execution unit (or the issue stage) is occupied, and its longest
// latency-weighted dependency chain with unlimited resources. The rules are
// documented in CycleModel.h, which reports both per loop.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_LOOPBOUNDS_H
#define WAVEASM_ANALYSIS_LOOPBOUNDS_H

#include "analysis/OpFacts.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <array>

namespace waveasm {

/// Trip count of the loop at an op index.
using TripCountFn = llvm::function_ref<int64_t(unsigned loopIdx)>;

struct UnitUsage {
  std::array<int64_t, 9> unitCycles = {}; // indexed by ExecUnit
  int64_t issueCycles = 0;

  /// max(busiest unit, issue cycles).
  int64_t getLowerBound() const;
  /// Name of the unit giving the bound: stringifyExecUnit, or "issue" when
  /// the issue stage is strictly busier than every unit.
  llvm::StringRef getBusiestUnit() const;
};

/// Usage of the body of loop `loopIdx` in one iteration.
UnitUsage computeLoopUsage(const ProgramIndex &index,
                           llvm::ArrayRef<OpFacts> facts, unsigned loopIdx,
                           TripCountFn tripCount);

/// Critical path lengths: of the whole program and per loop body.
class CriticalPaths {
public:
  CriticalPaths(const ProgramIndex &index, llvm::ArrayRef<OpFacts> facts);
  /// The whole program, each loop counted once.
  int64_t ofProgram();
  /// One iteration of loop `loopIdx`: values from outside and block
  /// arguments ready at 0.
  int64_t ofLoop(unsigned loopIdx);

private:
  int64_t walk(unsigned begin, unsigned end);

  const ProgramIndex &index;
  llvm::ArrayRef<OpFacts> facts;
  static constexpr int64_t kNoChain = -1;
  std::vector<int64_t> ready; // by value id
  /// By value id: when an MFMA may read it as SrcC (an MFMA result), else
  /// kNoChain.
  std::vector<int64_t> chainReady;
};

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_LOOPBOUNDS_H
