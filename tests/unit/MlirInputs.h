//===- MlirInputs.h - every .mlir input of the repository -------*- C++ -*-===//
//
// For tests that compare a shortcut with its definition on every input
// there is: the examples, the shared examples and the lit inputs.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_TESTS_UNIT_MLIRINPUTS_H
#define WAVEASM_TESTS_UNIT_MLIRINPUTS_H

#include "TestPaths.h"
#include "TestUtils.h"

#include "pipeline/Passes.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <string>
#include <vector>

namespace waveasm::test {

/// The `.mlir` files under `dir` and its subdirectories, sorted.
inline std::vector<std::string> mlirFilesUnder(const std::string &dir) {
  std::vector<std::string> paths;
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator it(dir, ec), end;
       it != end && !ec; it.increment(ec))
    if (llvm::sys::path::extension(it->path()) == ".mlir")
      paths.push_back(it->path());
  std::sort(paths.begin(), paths.end());
  return paths;
}

/// examples/ (with its subdirectories), the shared examples and the lit
/// inputs (some of which do not parse on purpose).
inline std::vector<std::string> allMlirInputs() {
  std::string root = examplesDir();
  std::vector<std::string> paths = mlirFilesUnder(root);
  for (const std::string &dir :
       {std::string(sharedExamplesDir()), root + "/../tests/lit"})
    for (std::string &path : mlirFilesUnder(dir))
      paths.push_back(std::move(path));
  return paths;
}

/// Calls `check(module, name)` on every input of allMlirInputs that parses
/// and verifies, and again on each example (ours and the shared ones) after
/// waveasm-pipeline-loops: pipelined kernels, with their rotated iter_args,
/// packs and extracts, are what the analyses' shortcuts must hold on too.
inline void forEachInputAndPipelinedExample(
    llvm::function_ref<void(mlir::ModuleOp, const std::string &)> check) {
  static bool registered = (registerWaveASMPipeline(), true);
  (void)registered;
  std::string examples = examplesDir(), shared = sharedExamplesDir();
  for (const std::string &path : allMlirInputs()) {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    if (!buffer)
      continue;
    TestContext t;
    mlir::OwningOpRef<mlir::ModuleOp> module =
        t.parseModule((*buffer)->getBuffer());
    if (!module || mlir::failed(mlir::verify(*module)))
      continue; // negative lit inputs
    check(*module, path);
    if (!llvm::StringRef(path).starts_with(examples) &&
        !llvm::StringRef(path).starts_with(shared))
      continue;
    mlir::PassManager pm = mlir::PassManager::on<mlir::ModuleOp>(&t.ctx);
    if (mlir::succeeded(mlir::parsePassPipeline(
            "waveasm.program(waveasm-pipeline-loops)", pm)) &&
        mlir::succeeded(pm.run(*module)))
      check(*module, path + " pipelined");
  }
}

} // namespace waveasm::test

#endif // WAVEASM_TESTS_UNIT_MLIRINPUTS_H
