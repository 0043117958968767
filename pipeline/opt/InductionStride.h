//===- InductionStride.h - how buffer-load addresses move per iteration -*-===//
//
// The analysis half of `waveasm-buffer-load-strength-reduction` (SPEC.md
// 18.3): which loads qualify, the loop's induction variable, and the
// per-iteration change ("stride") of a voffset computed in the loop body,
// as the symbolic derivative of its address arithmetic with respect to the
// induction variable.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPT_INDUCTIONSTRIDE_H
#define WAVEASM_PIPELINE_OPT_INDUCTIONSTRIDE_H

#include "ir/Dialect.h"

#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace waveasm {

/// Operand positions of the loads the pass rewrites:
/// buffer_load_{dword,dwordx2,dwordx3,dwordx4,ubyte,ushort} (descriptor,
/// voffset, soffset) and buffer_load_dword[x4]_lds (voffset, descriptor,
/// soffset).
struct BufferLoadOperands {
  unsigned voffset, srd, soffset;
  bool toLDS;
};
std::optional<BufferLoadOperands> getBufferLoadOperands(mlir::Operation *op);

/// SPEC.md 18.3's address ops: the arithmetic a voffset chain may contain.
bool isAddressOp(mlir::Operation *op);

/// The induction variable: block argument 0, whose iter_arg is
/// `s_add_u32(iv, step)` with a constant step (either operand order); in a
/// pipelined kernel of U steps (getPipelinedKernelSteps) any SGPR block
/// argument whose iter_arg is it stepped by up to U such adds, step = their
/// sum.
struct InductionVariable {
  mlir::BlockArgument iv;
  int64_t step = 0;
};

/// The steps per iteration of a steady-state loop `waveasm-pipeline-loops`
/// built (`waveasm.counted_waits`; `waveasm.pipeline_steps`, else 1), 0 for
/// any other loop.
unsigned getPipelinedKernelSteps(LoopOp loop);

/// The induction variable of `loop`, or the reason there is none.
std::optional<InductionVariable> getInductionVariable(LoopOp loop,
                                                      const char *&whyNot);

/// Per-iteration change of values of one loop body, memoized; each value
/// and op is looked at once, so all loads of a body cost one pass over
/// their chains. Values defined outside the loop, other block arguments and
/// constants do not move; the induction variable moves by its step.
class StrideAnalysis {
public:
  struct Stride {
    /// Null when the value is address arithmetic of constants, values
    /// defined outside the loop and block arguments; else why not.
    const char *error = nullptr;
    /// The op the error is about.
    mlir::Operation *culprit = nullptr;
    /// The value depends on the induction variable...
    bool dependsOnIV = false;
    /// ...and changes by this much per iteration (32-bit wrapping
    /// arithmetic; values outside int32 are an error).
    int64_t perIteration = 0;
  };

  StrideAnalysis(LoopOp loop, InductionVariable iv);

  /// The stride of `value`, a value used in the loop body's block.
  const Stride &get(mlir::Value value);

private:
  Stride leaf(mlir::Value value);
  Stride derive(mlir::Operation *op);
  /// The memoized stride of an operand (get() has computed it).
  const Stride &of(mlir::Value value) const;

  mlir::Block &body;
  InductionVariable iv;
  llvm::DenseMap<mlir::Value, Stride> strides;
};

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OPT_INDUCTIONSTRIDE_H
