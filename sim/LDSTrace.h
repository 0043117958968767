//===- LDSTrace.h - the LDS addresses a run accesses ------------*- C++ -*-===//
//
// simulate() with a callback per ds_read*/ds_write* a wave executes: the
// ground truth the bank-conflict analysis (analysis/LdsBankConflicts.h) is
// checked against in tests/unit/LdsBankConflictsTest.cpp. Kept out of
// Simulator.h so its many includers do not change with it.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SIM_LDSTRACE_H
#define WAVEASM_SIM_LDSTRACE_H

#include "sim/Simulator.h"

#include <functional>

namespace waveasm::sim {

/// One wave's execution of a ds_read*/ds_write*.
struct LDSAccess {
  mlir::Operation *op = nullptr;
  unsigned wave = 0;
  uint64_t activeMask = 0;
  /// Per lane, the byte address (the op's offset included); inactive lanes
  /// hold 0.
  std::vector<uint32_t> addresses;
};
using LDSAccessHook = std::function<void(const LDSAccess &)>;

/// simulate(), calling `hook` for every ds op each wave executes, one wave
/// at a time. Waves that take different paths are run again on their own
/// threads, so an access may be reported twice: consumers take maxima.
SimResult simulateTracingLDS(ProgramOp program, const SimOptions &options,
                             const LDSAccessHook &hook);

} // namespace waveasm::sim

#endif // WAVEASM_SIM_LDSTRACE_H
