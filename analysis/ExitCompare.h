//===- ExitCompare.h - the exit compare of a counted loop -------*- C++ -*-===//
//
// The loop control analysis/TripCount.h infers a trip count from, for
// rewrites that move a loop's bound by whole iterations
// (pipeline/opt/LdsDeepening.cpp): the exit `s_cmp` and its two operands,
// each a constant or an induction variable plus a constant (TripCount.h's
// rules; implemented in TripCount.cpp, beside the inference that uses it).
// Kept out of TripCount.h, which the cycle model's header includes, so a
// change here does not rebuild every reader of the cycle model.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_EXITCOMPARE_H
#define WAVEASM_ANALYSIS_EXITCOMPARE_H

#include "ir/Dialect.h"

#include <optional>

namespace waveasm {

/// One side of a counted loop's exit compare: a constant `offset` (arg <
/// 0), or block argument `arg` of the body plus `offset`, where the
/// argument is an induction variable starting at `init` and moving by
/// `step` each iteration (32-bit wrapping values).
struct ExitOperand {
  int arg = -1;
  uint32_t offset = 0, init = 0, step = 0;
  bool varies() const { return arg >= 0 && step != 0; }
  /// Its value in iteration `iteration` (from 0).
  uint32_t at(int64_t iteration) const {
    if (arg < 0)
      return offset;
    return init + uint32_t(iteration) * step + offset;
  }
};

/// The exit compare: the `s_cmp` op and its operands 0 and 1.
struct ExitCompare {
  mlir::Operation *compare = nullptr;
  ExitOperand lhs, rhs;
};

/// The loop's exit compare when the trip count inference reads it
/// (whatever its `trip_count` attribute says), else nullopt.
std::optional<ExitCompare> getExitCompare(LoopOp loop);

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_EXITCOMPARE_H
