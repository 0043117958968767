//===- LdsPlan.h - LDS arena plan: offsets, peak, fragmentation -*- C++ -*-===//
//
// Seed 004's arena allocator for LDS. `planArena` is independent of the IR:
// items with a size, an alignment, a lifetime interval and optionally a
// fixed offset get offsets such that items whose lifetimes overlap never
// share bytes (fixed items first, then the others largest first, each at
// the lowest aligned offset free during its lifetime). A software
// pipeliner asks what a double-buffered loop needs by adding a copy of an
// item with the same lifetime; a bank-conflict analysis reads the offsets.
//
// `planLds` applies it to a program's buffers (LdsBuffers.h): buffers that
// cannot move (live-in, rotating bases, direct-to-LDS, two-address ops)
// stay where they are; the peak is the most bytes live at one program
// point (a lower bound for any plan), the arena the plan's end, the
// fragmentation 1 - peak / arena. Per loop whose buffers are written and
// read inside it, the plan a ping/pong copy of each would need.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_LDSPLAN_H
#define WAVEASM_ANALYSIS_LDSPLAN_H

#include "analysis/LdsBuffers.h"

#include "llvm/Support/JSON.h"

namespace waveasm {

struct LdsPlanItem {
  int64_t size = 0;
  int64_t alignment = 1;        // a power of two
  unsigned start = 0, stop = 0; // lifetime, inclusive
  std::optional<int64_t> fixedOffset;
};

struct LdsArena {
  std::vector<int64_t> offsets;     // per item
  int64_t arenaBytes = 0;           // max(offset + size)
  int64_t peakBytes = 0;            // most bytes live at one point
  unsigned peakAt = 0;              // the first point with peakBytes live
  std::vector<unsigned> liveAtPeak; // items, by index
  /// 1 - peak / arena: the share of the arena lost to alignment and to
  /// lifetimes that do not pack (0 for an empty arena).
  double fragmentation() const {
    return arenaBytes ? 1.0 - double(peakBytes) / double(arenaBytes) : 0.0;
  }
};

/// Offsets for `items`; fixed items keep theirs even if they overlap.
LdsArena planArena(llvm::ArrayRef<LdsPlanItem> items);

/// A double-buffered plan of one loop: its buffers written and read inside
/// it get a second copy with the same lifetime.
struct LdsPingPong {
  unsigned loop = 0; // pre-order number (LdsBufferInfo::ops)
  std::vector<unsigned> buffers;
  int64_t extraBytes = 0;
  LdsArena arena;
};

struct LdsProgramPlan {
  LdsBufferInfo info;
  std::vector<LdsPlanItem> items; // one per buffer
  LdsArena arena;
  int64_t capacity = 0;                 // the target's LDS bytes per workgroup
  int64_t originalBytes = 0;            // end of the last buffer as written
  std::optional<int64_t> declaredBytes; // the program's lds_size
  std::vector<LdsPingPong> pingPong;
  bool fits() const { return arena.arenaBytes <= capacity; }
};

struct LdsPlanOptions {
  /// Least alignment of a moved buffer; 128 (32 banks x 4 bytes) keeps
  /// every lane's bank as in the input, so a move adds no bank conflicts.
  int64_t alignment = 128;
};

/// The plan of one program; buffers in `pinned` keep their offsets.
LdsProgramPlan planLds(ProgramOp program, const LdsPlanOptions &options = {},
                       llvm::ArrayRef<unsigned> pinned = {});

/// "lds0 [0, 4096)".
std::string describeLdsBuffer(const LdsProgramPlan &plan, unsigned buffer);

/// One program's plan as a JSON object (the `--waveasm-lds-plan` dump):
/// name, capacity, buffers (offsets as written and planned, sizes,
/// lifetimes, first access), peak, arena, fragmentation, ping/pong plans.
llvm::json::Object ldsPlanToJSON(ProgramOp program, const LdsProgramPlan &plan);

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_LDSPLAN_H
