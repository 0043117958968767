//===- TripCount.h - iterations of a waveasm.loop ---------------*- C++ -*-===//
//
// How many times a loop body runs, for the cycle model's program estimate.
// A `trip_count` integer attribute on the loop wins; otherwise the common
// counted-loop shape is recognised: the condition is `s_cmp_<pred>_{u32,i32}`
// of an induction block argument (or its increment yielded as the next
// iter_arg) against a constant, the increment is `s_add/s_sub_{u32,i32}` by a
// constant, and the init is a constant (`s_mov_b32` of an immediate).
// Anything else runs once (do-while: the body always runs at least once).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_TRIPCOUNT_H
#define WAVEASM_ANALYSIS_TRIPCOUNT_H

#include "ir/Dialect.h"

namespace waveasm {

/// Discardable attribute giving a loop's trip count explicitly.
inline constexpr llvm::StringLiteral kTripCountAttrName = "trip_count";

enum class TripCountSource : uint8_t { Attribute, Inferred, Default };

struct TripCount {
  int64_t count = 1;
  TripCountSource source = TripCountSource::Default;
};

TripCount getTripCount(LoopOp loop);

/// "attribute", "inferred" or "default".
llvm::StringRef stringifyTripCountSource(TripCountSource source);

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_TRIPCOUNT_H
