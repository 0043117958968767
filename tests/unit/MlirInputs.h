//===- MlirInputs.h - every .mlir input of the repository -------*- C++ -*-===//
//
// For tests that compare a shortcut with its definition on every input
// there is: the examples, the shared examples and the lit inputs.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_TESTS_UNIT_MLIRINPUTS_H
#define WAVEASM_TESTS_UNIT_MLIRINPUTS_H

#include "TestPaths.h"

#include "llvm/Support/FileSystem.h"
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

} // namespace waveasm::test

#endif // WAVEASM_TESTS_UNIT_MLIRINPUTS_H
