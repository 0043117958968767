//===- DescriptorVersioning.h - a loop versioned on descriptors apart -----===//
//
// A loop whose global loads stay behind its global stores only because
// their buffer descriptors are preset in SGPRs (`waveasm.precolored.sreg`,
// which no declaration covers: analysis/LoadsBehindStores.h) gets two
// copies behind a run-time check of the descriptors:
//
//   %apart = <the check>                  // SALU, once, before the loop
//   waveasm.if %apart {                   // likely: the ranges are apart
//     <the loop, whose loads may pass its stores>
//   } else {
//     <the loop as written>
//   } {waveasm.descriptors_apart = [...], waveasm.likely = "then"}
//
// The check reads each descriptor (SPEC.md 7.7: effective address = base +
// voffset + soffset + offset; the buffer resource's words 0-1 hold the
// 48-bit base, word 1 bits 16-29 the stride, word 2 num_records, word 3 bit
// 23 ADD_TID_ENABLE): a raw buffer (stride 0, no swizzle, no thread id
// added) reaches [base, base + num_records + reach), where `reach` bounds
// the scalar offsets of the loop's accesses through it (gfx9 range-checks
// voffset + offset against num_records, not soffset). Every pair of a
// store's descriptor and another descriptor the loop accesses must have
// disjoint ranges; anything else runs the loop as written. (A raw
// descriptor here also has word 1 bit 30, cache swizzle, clear: it moves
// no byte, but then word 1 is the base's high half with no mask.)
//
// The then region's copy carries the promise in `waveasm.descriptors_apart`
// (analysis/DescriptorsApart.h), which the alias analysis reads like a
// `noalias_args` declaration; the cycle model follows the likely branch.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPT_DESCRIPTORVERSIONING_H
#define WAVEASM_PIPELINE_OPT_DESCRIPTORVERSIONING_H

#include "ir/Dialect.h"

#include "llvm/ADT/SmallVector.h"

#include <string>
#include <utility>

namespace waveasm {

/// What versioning `loop` checks, or why it is not versioned.
struct DescriptorVersioning {
  /// Empty when the loop can be versioned; else why not, in words.
  std::string failure;
  /// The precolored descriptors the check reads, and per descriptor the
  /// bytes its accesses may reach past num_records (scalar offsets).
  llvm::SmallVector<mlir::Value> descriptors;
  llvm::SmallVector<uint64_t> reach;
  /// Pairs of indices into `descriptors`, the first one stored through.
  llvm::SmallVector<std::pair<unsigned, unsigned>> pairs;
  /// The loads kept behind a store only by the descriptors (at least one).
  unsigned loadsBehind = 0;
  bool ok() const { return failure.empty(); }
  /// "s[12:15] apart from s[4:7] and s[8:11]".
  std::string describe() const;
};

/// The check `loop` would get; a failure when no load of its body is kept
/// behind a store only by precolored descriptors, or when an access's
/// scalar offset through a checked descriptor has no bound.
DescriptorVersioning planDescriptorVersioning(LoopOp loop);

struct VersionedLoop {
  IfOp branch;
  LoopOp fast; // the copy in the then region (descriptors apart)
  LoopOp slow; // the loop as written, moved into the else region
  mlir::Operation *checkBegin = nullptr; // the check's first op
  unsigned checkSlots = 0;               // issue slots of the check
};

/// Puts the check before `loop` and the two copies behind it (`plan` must
/// be ok()). The check, in issue slots: per descriptor two adds for its
/// end (two more for a scalar reach), words 1 and 3 or-ed over the N
/// descriptors and masked once for raw buffers (2(N - 1) + 3), per pair
/// two 64-bit compares of three ops and a select each (8), one compare
/// with 0 and the branch. The nested GEMM's C apart from A and B (B with a
/// reach): 8 + 7 + 16 + 2 = 33 slots, where a compare per word and flag
/// took 53.
VersionedLoop versionLoop(LoopOp loop, const DescriptorVersioning &plan);

/// Moves the ops both copies start with (equal ops on equal operands: a
/// rotated loop's peeled first tile, the same in both) above the check, up
/// to the first that would wait on memory or that is not the same, so the
/// check issues while their loads are in flight instead of before them.
/// In-order issue, as the cycle model charges it: the check's SALU slots
/// then fill the wait for those loads (the nested GEMM's first ds_write
/// waits for a load issued about 50 slots before it, of 100) instead of
/// delaying every load behind them. Returns how many ops moved.
unsigned hoistSharedHead(const VersionedLoop &versioned);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OPT_DESCRIPTORVERSIONING_H
