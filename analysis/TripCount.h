//===- TripCount.h - iterations of a waveasm.loop ---------------*- C++ -*-===//
//
// How many times a loop body runs, for the cycle model's program estimate
// and the pipeliner. A `trip_count` integer attribute on the loop wins;
// otherwise the count is inferred from the loop control, else the body runs
// once (do-while: it always runs at least once).
//
// Inference works on affine scalar values: a constant, or a block argument
// of the body plus a constant, through `s_add/s_sub_{u32,i32}` by a
// constant (either operand of an add) and `s_mov_b32` copies (the
// allocator's copies into the loop's yields among them). An induction
// variable is a block argument whose yield is itself plus a nonzero
// constant and whose init is a constant; the loop may have several, each
// with any number of uses. The condition must be an `s_cmp_<pred>_{u32,i32}`
// whose two operands are each a constant or an induction variable plus a
// constant (k, k + 1, k + 3, a second counter, the bound on either side);
// the count is then the first iteration whose compare fails, on 32-bit
// wrapping values with the compare's signedness, if within 2^20 iterations.
// Anything else (a bound or step in a register, an init that is not a
// constant, a yield through an `if` or another argument, a condition that
// is not such a compare) is refused: nothing is guessed.
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
