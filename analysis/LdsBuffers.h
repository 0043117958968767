//===- LdsBuffers.h - LDS buffers and their lifetimes -----------*- C++ -*-===//
//
// The dialect declares no LDS regions (a program only has `lds_size`), so
// the buffers are recovered from the accesses: every ds_read/ds_write and
// direct-to-LDS load gets the set of bytes it may touch in any lane of any
// wave, from a value-range analysis of its address (constants, the packed
// work-item id of the ABI, adds, shifts, masks, bit-field extracts, xors of
// constant sets, loop iter_args to a fixed point, so rotating ping/pong bases
// are kept as a set of bases instead of one wide interval). Overlapping byte
// ranges are one buffer. An access whose address the analysis cannot bound
// makes the result incomplete: nothing may then be planned or moved.
//
// Lifetimes are intervals of program points in flattened pre-order
// (ProgramIndex's numbering). They are conservative for reuse between
// waves of one workgroup: a buffer accessed in a loop lives through the
// whole loop (data may cross the back edge), a buffer first read before it
// is written lives from the program's start (its bytes come from outside),
// and a buffer lives until the first s_barrier of its block (or an
// enclosing one) after its last access: without that barrier another wave
// may still be reading it when a buffer placed in the same bytes is
// written.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_LDSBUFFERS_H
#define WAVEASM_ANALYSIS_LDSBUFFERS_H

#include "ir/Dialect.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <optional>
#include <vector>

namespace waveasm {

/// The values an LDS address takes: {b + x : b in bases, x in [lo, hi]},
/// over every lane, wave and iteration. `bases` is sorted and non-empty.
struct LdsAddressRange {
  llvm::SmallVector<int64_t, 4> bases;
  int64_t lo = 0, hi = 0;
};

/// One LDS access of the program.
struct LdsAccess {
  mlir::Operation *op = nullptr;
  unsigned position = 0; // pre-order op number
  bool reads = false, writes = false;
  int64_t width = 0; // bytes written or read per lane (per wave: M0 loads)
  /// Bytes touched: one [begin, end) per address base; empty if unknown.
  llvm::SmallVector<std::pair<int64_t, int64_t>, 2> ranges;
  /// Buffers touched (indices into LdsBufferInfo::buffers).
  llvm::SmallVector<unsigned, 2> buffers;
  /// True for single-address ds ops: moving their bytes is an `offset`
  /// attribute change. Direct-to-LDS loads (M0) and two-address ds ops are
  /// not rewritable.
  bool offsetRewritable = false;
};

/// One buffer: a maximal set of overlapping accessed byte ranges.
struct LdsBuffer {
  int64_t begin = 0, end = 0; // bytes in the program as written
  int64_t size() const { return end - begin; }
  /// Largest per-lane access width (ds_read_b128: 16).
  int64_t accessAlignment = 4;
  /// Lifetime [start, stop] in pre-order op numbers (inclusive).
  unsigned start = 0, stop = 0;
  /// First and last accessing op; the op whose position is `stop`
  /// (an access, a loop, a barrier) is not kept.
  mlir::Operation *firstAccess = nullptr, *lastAccess = nullptr;
  llvm::SmallVector<unsigned, 4> accesses; // indices into accesses
  bool read = false, written = false;
  /// Read before written: its bytes come from before the program.
  bool liveIn = false;
  /// An access also touches another buffer (a rotating base, e.g. the
  /// ping/pong buffers of a software-pipelined loop).
  bool rotating = false;
  /// Every access is offsetRewritable and touches only this buffer, and
  /// it is not live-in: a plan may move it.
  bool movable = false;
  /// Innermost loop containing every access (ProgramIndex number), or
  /// ~0u; written and read in that loop means a software pipeliner would
  /// double it.
  unsigned loop = ~0u;
  bool readAndWrittenInLoop = false;
};

struct LdsBufferInfo {
  std::vector<mlir::Operation *> ops; // pre-order, as ProgramIndex numbers
  std::vector<LdsAccess> accesses;
  std::vector<LdsBuffer> buffers; // sorted by begin
  /// An access whose address could not be bounded (then `buffers` only
  /// holds what was bounded, and nothing may be moved).
  mlir::Operation *unknownAccess = nullptr;
  bool complete() const { return !unknownAccess; }
};

/// Buffers, accesses and lifetimes of one program.
LdsBufferInfo collectLdsBuffers(ProgramOp program);

/// The range of an LDS address value (exposed for tests); nullopt when it
/// cannot be bounded.
std::optional<LdsAddressRange> getLdsAddressRange(ProgramOp program,
                                                  mlir::Value address);

/// Low bits known to be zero in every value `value` takes (32 for zero):
/// constants, moves, adds, subs, ors, xors (the fewer of the two), ands (the
/// more), shifts left and multiplications through SGPR and VGPR chains; a
/// loop's iter_arg from its init and yields (a fixed point); 0 otherwise.
unsigned knownLowZeroBits(mlir::Value value);

/// The value M0 holds at `op` (a direct-to-LDS load's LDS base): the
/// source of the last s_mov_b32_m0 before it in its block, or null when
/// another M0 writer or the block's start comes first.
mlir::Value findM0Source(mlir::Operation *op);

/// Where an LDS access's bytes start and how far they reach, for one wave:
/// address + offset .. address + offset + extent, address over the wave's
/// lanes. A direct-to-LDS load writes M0 + instOffset + lane * width (its
/// address is M0's source, extent a wave of widths); ds_read (vaddr) and
/// ds_write (data, vaddr) access their last operand + `offset`, one width.
struct LdsAccessAddress {
  mlir::Value address;
  int64_t offset = 0, extent = 0;
  bool directToLds = false;
};
/// Nullopt for an op that touches no LDS or whose address is not one
/// value: ds_read2/ds_write2, a direct-to-LDS load with M0 unknown, a zero
/// data width.
std::optional<LdsAccessAddress> getLdsAccessAddress(mlir::Operation *op,
                                                    int64_t waveSize);

/// The bytes single LDS accesses of one program may touch, asked one access
/// at a time (what collectLdsBuffers gives every access, without the
/// program's buffers): one range evaluator for the program, each access's
/// answer kept. For a pass that asks about a few pairs of accesses (the
/// wait pass: whether a barrier outside a loop publishes a direct-to-LDS
/// load). The IR must not change while it is in use.
class LdsAccessBytes {
public:
  explicit LdsAccessBytes(ProgramOp program);
  ~LdsAccessBytes();
  LdsAccessBytes(const LdsAccessBytes &) = delete;
  LdsAccessBytes &operator=(const LdsAccessBytes &) = delete;

  using Ranges = llvm::SmallVector<std::pair<int64_t, int64_t>, 2>;
  /// One [begin, end) per address base, over every lane, wave and
  /// iteration; nullopt when `op` is no single-address LDS access or its
  /// address cannot be bounded.
  const std::optional<Ranges> &get(mlir::Operation *op);
  /// Whether `a` and `b` may touch a common byte (true when either is
  /// unknown).
  bool mayOverlap(mlir::Operation *a, mlir::Operation *b);

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_LDSBUFFERS_H
