//===- Workgroup.h - how many waves a program's workgroup has ---*- C++ -*-===//
//
// `workgroup_size = [x, y, z]` on waveasm.program. Whether the workgroup is
// a single wave decides what an s_barrier orders: between waves, LDS and
// global memory (SPEC.md 11.2); within one wave no LDS access: the wave's
// LDS ops execute in order (sim/LDS.cpp models it so) and LLVM lowers the
// barrier of a workgroup that fits in a wave to a wave barrier, with no
// wait. The wait pass (pipeline/InsertWaitcnt.cpp (b), (d)) and the step
// order's drain (pipeline/opt/StepMerge.h) ask here.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_IR_WORKGROUP_H
#define WAVEASM_IR_WORKGROUP_H

#include "mlir/IR/Operation.h"

#include <array>
#include <optional>

namespace waveasm {

/// The declared `workgroup_size` of `program` (a waveasm.program, or any op
/// inside one) as three dimensions, each at least 1 (missing ones are 1);
/// nullopt when it declares none. Each user picks its own default then:
/// one wave (the simulator, the bank-conflict and range analyses) or the
/// metadata's 256 work items (occupancy).
std::optional<std::array<int64_t, 3>>
getDeclaredWorkgroupSize(mlir::Operation *program);

/// The declared size's work items, or `fallback` without one.
int64_t getWorkgroupWorkItems(mlir::Operation *program, int64_t fallback);

/// The waves of the workgroup of `program` (a waveasm.program, or any op
/// inside one): its work items over the target's wave size, rounded up;
/// nullopt when it declares no size (the simulator then runs one wave, and
/// each rule picks its own safe side).
std::optional<int64_t> getWorkgroupWaves(mlir::Operation *program);

/// Whether the workgroup is declared to be one wave: only then may a
/// barrier skip waiting for LDS accesses.
inline bool isDeclaredSingleWave(mlir::Operation *program) {
  std::optional<int64_t> waves = getWorkgroupWaves(program);
  return waves && *waves <= 1;
}

} // namespace waveasm

#endif // WAVEASM_IR_WORKGROUP_H
