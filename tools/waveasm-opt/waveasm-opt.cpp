//===- waveasm-opt.cpp - mlir-opt style driver for WaveASM ----------------===//
//
// Parses, verifies and prints WaveASM files, runs pass pipelines, and
// supports --split-input-file and --verify-diagnostics (MlirOptMain).
//
//===----------------------------------------------------------------------===//

#include "ir/Dialect.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<waveasm::WaveASMDialect>();
  // Generic passes the upstream pipelines use (SPEC.md 13).
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerLoopInvariantCodeMotionPass();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "WaveASM optimizer driver\n", registry));
}
