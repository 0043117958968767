//===- DebugOptions.cpp - -debug and -debug-only for waveasm-opt ----------===//
//
// Passes log why they do or do not apply with LLVM_DEBUG under a DEBUG_TYPE
// named like their flag. LLVM registers -debug/-debug-only only when LLVM
// itself is built with assertions, which Debian's packages are not, although
// the functions behind them are always there. This file registers the two
// options for waveasm-opt (built with assertions), so that
// `waveasm-opt --debug-only=waveasm-peephole ...` prints the pass's log.
//
//===----------------------------------------------------------------------===//

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"

#include <string>
#include <vector>

namespace {

#ifndef NDEBUG
llvm::cl::opt<bool>
    debug("debug", llvm::cl::desc("Print every pass's debug log (LLVM_DEBUG)"),
          llvm::cl::Hidden, llvm::cl::callback([](const bool &enabled) {
            llvm::DebugFlag |= enabled;
          }));

std::vector<std::string> &debugTypes() {
  static std::vector<std::string> types;
  return types;
}

llvm::cl::list<std::string> debugOnly(
    "debug-only",
    llvm::cl::desc("Print the debug log of these passes only, e.g. "
                   "--debug-only=waveasm-peephole,waveasm-scoped-cse"),
    llvm::cl::CommaSeparated, llvm::cl::value_desc("debug types"),
    llvm::cl::callback([](const std::string &type) {
      debugTypes().push_back(type);
      std::vector<const char *> names;
      for (const std::string &name : debugTypes())
        names.push_back(name.c_str());
      llvm::DebugFlag = true;
      llvm::setCurrentDebugTypes(names.data(), names.size());
    }));
#endif

} // namespace
