//===- DebugOptions.cpp - --debug and --debug-only for waveasm-opt --------===//
//
// Passes log why they changed nothing with LLVM_DEBUG (DEBUG_TYPE = the pass
// flag). LLVM registers `--debug` and `--debug-only` only in its own
// assertion builds, and Debian's LLVM is a release build; this project's
// code keeps assertions (and LLVM_DEBUG) on, so the tool declares the two
// options itself, setting the flags LLVM_DEBUG reads.
//
//===----------------------------------------------------------------------===//

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace {

struct DebugTypes {
  std::vector<std::string> names;
  void operator=(const std::string &list) {
    llvm::DebugFlag = true;
    llvm::SmallVector<llvm::StringRef> parts;
    llvm::StringRef(list).split(parts, ',', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef part : parts)
      names.push_back(part.str());
#ifndef NDEBUG
    std::vector<const char *> pointers;
    for (const std::string &name : names)
      pointers.push_back(name.c_str());
    llvm::setCurrentDebugTypes(pointers.data(), pointers.size());
#else
    // The release build (cmake/Release.cmake) compiles LLVM_DEBUG out.
    llvm::errs() << "waveasm-opt: --debug-only has no effect: this is a "
                    "release build, without the passes' debug logs (use the "
                    "test build, build/bin/waveasm-opt)\n";
#endif
  }
};

DebugTypes debugTypes;

llvm::cl::opt<bool, true>
    debugAll("debug", llvm::cl::desc("Print every pass's debug log"),
             llvm::cl::Hidden, llvm::cl::location(llvm::DebugFlag));

llvm::cl::opt<DebugTypes, true, llvm::cl::parser<std::string>> debugOnly(
    "debug-only",
    llvm::cl::desc("Print the debug log of these passes (comma-separated "
                   "DEBUG_TYPEs, e.g. waveasm-vgpr-compaction)"),
    llvm::cl::Hidden, llvm::cl::value_desc("names"),
    llvm::cl::location(debugTypes), llvm::cl::ValueRequired);

} // namespace
