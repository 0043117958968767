//===- DescriptorsApart.h - precolored descriptors a check proved apart ---===//
//
// Buffer descriptors preset in SGPRs (`waveasm.precolored.sreg`, 4 SGPRs)
// carry no declaration that their memory is apart, so a load through one
// stays behind a store through another. Loop versioning
// (pipeline/opt/DescriptorVersioning.h) checks at run time that their byte
// ranges cannot meet and branches to a copy of the loop in which they may
// pass each other; the branch says so with an attribute of ours on the
// `waveasm.if`:
//
//   waveasm.if %apart {            // then: the copy the check proved apart
//     ...
//   } else { ... } {waveasm.descriptors_apart = [12, 4, 12, 8],
//                    waveasm.likely = "then"}
//
// lists pairs of first SGPR indices (s[12:15] apart from s[4:7] and from
// s[8:11]). Two global accesses in the then region whose descriptors are
// the precolored tuples of one listed pair touch different bytes. The else
// region (the loop as written) has no such promise.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_DESCRIPTORSAPART_H
#define WAVEASM_ANALYSIS_DESCRIPTORSAPART_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <utility>

namespace waveasm {

constexpr llvm::StringLiteral kDescriptorsApartAttr =
    "waveasm.descriptors_apart";

/// The first SGPR of the precolored 4-SGPR descriptor `pointer` is, if it
/// is one.
std::optional<int64_t> getPrecoloredDescriptor(mlir::Value pointer);

/// The pairs `waveasm.descriptors_apart` of `ifOp` lists (empty without
/// it, or when malformed: an odd count or a non-integer).
llvm::SmallVector<std::pair<int64_t, int64_t>>
getDescriptorsApart(mlir::Operation *ifOp);

/// Whether `a` and `b` address through two precolored descriptors that an
/// enclosing `waveasm.if`'s then region holds proven apart.
bool inDescriptorsCheckedApart(mlir::Operation *a, mlir::Operation *b);

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_DESCRIPTORSAPART_H
