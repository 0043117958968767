//===- LoadsBehindStores.h - loads only a declaration could move ahead ----===//
//
// In a loop that holds another loop (an outer loop over tiles, which
// `waveasm-pipeline-loops` rotates around its pipelined kernel,
// pipeline/opt/OuterOverlap.h), a global load of the body's own ops (the
// next tile's first loads) runs after the global stores of the body (the
// previous tile's results). When nothing says the two touch different
// bytes, every reordering keeps the load behind the store: the rotation's
// region issues the next tile's loads after this tile's stores, and the
// load's latency is no longer hidden (the nested GEMM: an 85-slot wait for
// its first B tile, 396 slots an outer iteration against 302 declared
// apart).
//
// What would separate them is a declaration: two different kernel
// arguments listed in `noalias_args` (analysis/PointerRoots.h), or, for
// buffer descriptors preset in SGPRs (`waveasm.precolored.sreg`, which no
// declaration covers), descriptors built from the kernel arguments and then
// declared. The finding names the store, the two pointers and that
// declaration; it says nothing when the pointers are the same argument or
// descriptor, or when a declaration could not separate them (an offset
// computed from the other pointer, a pointer not followed).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_LOADSBEHINDSTORES_H
#define WAVEASM_ANALYSIS_LOADSBEHINDSTORES_H

#include "ir/Dialect.h"

#include <string>
#include <vector>

namespace waveasm {

struct LoadBehindStore {
  /// A global load among the outer loop body's own ops.
  mlir::Operation *load = nullptr;
  /// The store of the same body it stays behind (the last one in body
  /// order that may touch its bytes: the previous iteration's when it
  /// follows the load in the body).
  mlir::Operation *store = nullptr;
  /// Whether the store precedes the load in the body (same iteration);
  /// else it is the previous iteration's.
  bool sameIteration = false;
  /// The two pointers in words ("the kernel arguments at kernarg offsets 8
  /// and 16", "the precolored descriptors s[8:11] and s[12:15]") and the
  /// declaration that would separate them.
  std::string apart;
};

/// Every such load of `program`, one finding per load, in program order.
std::vector<LoadBehindStore> findLoadsBehindStores(ProgramOp program);

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_LOADSBEHINDSTORES_H
