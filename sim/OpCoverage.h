//===- OpCoverage.h - the ops the simulator executes ------------*- C++ -*-===//
//
// Every registered op of the dialect, decoded as the interpreter decodes
// it (Decoded.h: the same tables and kinds that run programs), with its
// unit: simulated or not. `waveasm-sim --list-ops` prints it by family, so
// the list of ops simulated and not simulated is the code's, never a copy.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SIM_OPCOVERAGE_H
#define WAVEASM_SIM_OPCOVERAGE_H

#include "ir/InstInfo.h"

#include "mlir/IR/MLIRContext.h"

#include <string>
#include <vector>

namespace waveasm::sim {

struct OpCoverage {
  std::string name; // without the dialect prefix
  /// The family: stringifyExecUnit of the op's unit ("none": pseudo ops).
  std::string family;
  bool simulated = false;
};

/// The waveasm ops registered in `context` (the dialect loaded), by name.
std::vector<OpCoverage> listOpCoverage(mlir::MLIRContext &context);

} // namespace waveasm::sim

#endif // WAVEASM_SIM_OPCOVERAGE_H
