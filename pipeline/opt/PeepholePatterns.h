//===- PeepholePatterns.h - rewrite patterns of waveasm-peephole *- C++ -*-===//
//
// `waveasm-peephole` (SPEC.md 18.2, 18.4, 18.5) is a set of rewrite patterns
// applied by PatternDriver.h: the instruction-combining rules live in
// PeepholeArithmetic.cpp, the direct-to-LDS soffset rewrite in
// PeepholeLDSSoffset.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPT_PEEPHOLEPATTERNS_H
#define WAVEASM_PIPELINE_OPT_PEEPHOLEPATTERNS_H

#include "mlir/IR/PatternMatch.h"

namespace waveasm {

/// SPEC.md 18.5's rules and the BFE pack identity of 18.2.
void populatePeepholeArithmeticPatterns(mlir::RewritePatternSet &patterns);

/// A superset of the ops the match-any patterns of the peephole (the MFMA
/// zero accumulator) can match, for applyPatternsWithWorklist's filter.
bool peepholeAnyOpMayMatch(mlir::Operation *op);

/// SPEC.md 18.4: the IV-dependent scalar shift in the voffset of a
/// direct-to-LDS load moves to its soffset (cases 1, 2 and 3).
void populateLDSSoffsetPatterns(mlir::RewritePatternSet &patterns);

/// A "scalar shift" (SPEC.md 18.4): `v_lshlrev_b32(C, sgpr)` with a constant
/// C in 0..31 and a single use.
bool isScalarShift(mlir::Value value);

/// Whether `value` is the voffset of a direct-to-LDS load whose soffset is
/// the constant 0 or, with `throughOneAdd`, is an operand of a `v_add_u32`
/// that is: the shapes the soffset rewrite looks for.
bool feedsLDSLoadVoffset(mlir::Value value, bool throughOneAdd);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OPT_PEEPHOLEPATTERNS_H
