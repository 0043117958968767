//===- NoAliasArgs.h - waveasm.program's noalias_args attribute -*- C++ -*-===//
//
// `noalias_args = [0, 8]` on waveasm.program lists the kernarg byte offsets
// of 64-bit pointer arguments that address memory no other argument
// reaches (C's `restrict`). analysis/PointerRoots.h says how an access is
// traced to its argument; the program's verifier checks the list's form.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_IR_NOALIASARGS_H
#define WAVEASM_IR_NOALIASARGS_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace waveasm {

constexpr llvm::StringLiteral kNoAliasArgsAttr = "noalias_args";

/// The offsets `noalias_args` of `program` lists (empty without it).
llvm::SmallVector<int64_t, 4> getNoAliasArgs(mlir::Operation *program);

/// The problem with `noalias_args` of `program` (not an array of distinct
/// non-negative multiples of 8), or an empty string.
std::string checkNoAliasArgs(mlir::Operation *program);

} // namespace waveasm

#endif // WAVEASM_IR_NOALIASARGS_H
