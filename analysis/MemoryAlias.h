//===- MemoryAlias.h - lightweight per-lane alias analysis ------*- C++ -*-===//
//
// Enough to keep the Conductor's hazard warnings honest and to find the
// accesses of one buffer region for the co-access graph (CoAccessGraph.h).
// Two memory ops provably touch disjoint bytes when they address the same
// space through
// the same base (buffer: same SRD, voffset and soffset values; LDS: same
// address value, or the same value plus a constant added by v_add_u32) at
// constant offsets whose [offset, offset + width) ranges do not overlap,
// and the address is the same in every lane (no per-lane VGPR base): the
// lanes of a wave run its memory ops in program order and may exchange data
// through them, so lane i's access at v_i + 4 may be lane i+1's at v_{i+1}.
// The same base at the same offset and width is MustAlias (each lane's own
// bytes: what redundant load elimination reuses).
//
// Reads/writes come from InstInfoOpInterface (memory spaces), never from op
// names; ops with regions read/write what their nested ops do.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_MEMORYALIAS_H
#define WAVEASM_ANALYSIS_MEMORYALIAS_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

#include <optional>

namespace waveasm {

enum class AliasResult { NoAlias, MayAlias, MustAlias };

/// MemSpace masks (ir/InstInfo.h) the op (or its nested ops) reads/writes.
unsigned memReads(mlir::Operation *op);
unsigned memWrites(mlir::Operation *op);
bool readsMemory(mlir::Operation *op);
bool writesMemory(mlir::Operation *op);

/// Where one memory op accesses: a base value, a constant byte offset and
/// the byte width per lane (nullopt: unknown).
struct MemoryAccess {
  unsigned spaces = 0;           // MemSpace mask touched
  mlir::Value srd;               // buffer: SRD operand
  mlir::Value base;              // voffset / LDS address (adjusted)
  mlir::Value soffset;           // buffer: soffset operand
  std::optional<int64_t> offset; // constant bytes added to base
  int64_t width = 0;             // bytes per lane
};
/// The access of a single memory op; nullopt for ops with regions or
/// unanalysable ones.
std::optional<MemoryAccess> getMemoryAccess(mlir::Operation *op);

/// Whether two accesses through the same base values (SRD, address,
/// soffset) at known offsets touch disjoint bytes in each lane; other lanes'
/// bytes may still be the same unless alias() says NoAlias.
bool disjointInEachLane(const MemoryAccess &x, const MemoryAccess &y);

/// Whether two memory ops may touch the same bytes (of a space one of them
/// writes or reads). Ops with regions compare every nested pair.
AliasResult alias(mlir::Operation *a, mlir::Operation *b);

/// "LDS", "global", "scalar", or "memory" for a mix.
llvm::StringRef describeSpaces(unsigned spaces);

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_MEMORYALIAS_H
