//===- ConstantIterArgs.h - iter_args a kernel brings back ------*- C++ -*-===//
//
// LDS ping/pong (LdsCopies.h) moves each iteration of a pipelined loop to
// its copy of the loop's LDS buffers through a rotating SGPR base
// (`s_xor_b32` for two copies, add/compare/select for more) and one
// `v_add_u32 base, address` per LDS address. After modulo variable
// expansion a kernel of U steps, U a multiple of the copies, carries each
// step's base through an iter_arg that the U updates bring back to its
// value: every base is then one constant in every kernel iteration, and the
// base updates and address adds are work each step repeats for nothing
// (gemm_loop, 6 steps of two copies: 3 of a step's 23 issue slots).
//
// foldConstantIterArgs proves it by induction: an SGPR iter_arg whose init
// evaluates to a constant c (through constants, `s_mov_b32`, `s_xor_b32`,
// `s_add_u32`, `s_cmp_ge_u32`, `s_cselect_b32`) and whose yielded value,
// evaluated with every such candidate holding its init, is c again holds c
// in every iteration (candidates whose yield differs or is unknown are
// dropped until the rest are consistent). Such an argument is yielded as
// itself, so its update chain dies and goes; a `v_add_u32` of a body whose
// SGPR operand evaluates to a constant (such an argument, or a value from
// before the loop, as the hand-rotated bases foldInvariantRotations leaves)
// becomes its other operand when the constant is 0, else takes the
// constant as an immediate, which the memory offset pass folds into the ds
// op's offset field.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPT_CONSTANTITERARGS_H
#define WAVEASM_PIPELINE_OPT_CONSTANTITERARGS_H

#include "ir/Dialect.h"

#include <optional>

namespace waveasm {

/// The 32-bit constant an SGPR (or SCC, as 0 or 1) value holds, evaluated
/// through the scalar ops above; `argument(k)` gives body argument k's
/// value (nullopt: unknown) for values computed in a loop body.
class ScalarEvaluator {
public:
  using ArgumentFn =
      llvm::function_ref<std::optional<uint32_t>(mlir::BlockArgument)>;
  explicit ScalarEvaluator(ArgumentFn argument) : argument(argument) {}
  std::optional<uint32_t> evaluate(mlir::Value value);

private:
  std::optional<uint32_t> evaluate(mlir::Value value, unsigned depth);
  ArgumentFn argument;
};

/// Folds the constant iter_args of `kernel` and the address adds of
/// constants in its body (above). Returns the number of ops removed or
/// rewritten.
unsigned foldConstantIterArgs(LoopOp kernel);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OPT_CONSTANTITERARGS_H
