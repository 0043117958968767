//===- PointerRoots.h - which kernel argument a global pointer comes from -===//
//
// A program may declare kernel arguments whose pointers address memory no
// other argument reaches, as C's `restrict` does:
//
//   waveasm.program @k target = ... abi = ...
//     attributes {noalias_args = [0, 8]} { ... }
//
// lists the kernarg byte offsets of such 64-bit pointers. Two global
// accesses whose addresses derive from two different kernel arguments, one
// of them listed, touch different bytes. The user vouches for it; the
// simulator's runs give each argument a buffer of its own, so they agree.
//
// An address derives from argument K when its pointer (the SGPR pair of a
// global/scalar access, the base dwords of a buffer descriptor) is the
// `s_load_dwordx2/x4/x8` of offset K from the ABI's kernarg register,
// followed through extract/pack, 32-bit adds and copies (the one argument
// among the operands is the pointer, the rest its offset) and through loop
// iter_args whose yields keep the argument. What the offsets read is kept
// too: an offset computed from either pointer of a pair (x + (y - x) is
// y's) keeps the pair together, and so does anything not followed (a
// value loaded from memory, a chain too deep). Offsets computed from other
// arguments are taken for integers (the declaration's promise covers the
// rest).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_POINTERROOTS_H
#define WAVEASM_ANALYSIS_POINTERROOTS_H

#include "ir/NoAliasArgs.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace waveasm {

/// The kernarg byte offset the pointer `value` derives from, if known.
std::optional<int64_t> getPointerArg(mlir::Value value);

/// The pointer operand a global or scalar memory op addresses through (its
/// SGPR pair or buffer descriptor), or null.
mlir::Value getAddressPointer(mlir::Operation *op);

/// Whether `a` and `b` address through pointers of two different kernel
/// arguments, at least one of them in the program's `noalias_args`, or
/// through two precolored descriptors a run-time check proved apart
/// (analysis/DescriptorsApart.h).
bool inDistinctNoAliasArgs(mlir::Operation *a, mlir::Operation *b);

/// For a dependence between `a` and `b` that the alias rules keep: when they
/// address through two different kernel arguments, the words that name them
/// and the declaration that would separate them; else an empty string.
std::string noAliasHint(mlir::Operation *a, mlir::Operation *b);

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_POINTERROOTS_H
