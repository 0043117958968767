//===- OneSweepCanonicalizer.h - canonicalize in one sweep ---*- C++ -*-===//
//
// The pipeline's `canonicalize`: MLIR's canonicalizer (the patterns of every
// loaded dialect and registered op, the greedy driver with one iteration and
// no region simplification), and, when its only possible effect is erasing
// trivially dead ops, that effect without the greedy driver.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_ONESWEEPCANONICALIZER_H
#define WAVEASM_PIPELINE_ONESWEEPCANONICALIZER_H

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

#include <memory>

namespace waveasm {

/// A pass named `canonicalize`. `deadOpFastPath = false` always runs the
/// greedy driver (the reference the fast path is tested against).
std::unique_ptr<mlir::Pass>
createOneSweepCanonicalizer(bool deadOpFastPath = true);

/// The passes the production order (buildWaveASMPipeline) runs before its
/// canonicalize, on a module pass manager: where the canonicalizer's input
/// comes from (defined in Registration.cpp, which builds the order).
void addWaveASMPassesBeforeCanonicalize(mlir::OpPassManager &pm);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_ONESWEEPCANONICALIZER_H
