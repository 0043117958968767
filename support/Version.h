//===- Version.h - the project version and the build's git revision -------===//
//
// One source for what every tool answers to --version, what the server
// reports in serverInfo and what the reports name as their tool.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SUPPORT_VERSION_H
#define WAVEASM_SUPPORT_VERSION_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace waveasm {

/// The project version, e.g. "0.2.0" (CMakeLists.txt's project()).
llvm::StringRef getVersion();

/// The short git revision the binary was built from, with "-dirty" when the
/// tree had uncommitted changes, or "unknown" outside a git checkout.
llvm::StringRef getGitRevision();

/// "VERSION (git REVISION)", what the server reports in serverInfo.
std::string getVersionString();

/// "TOOL VERSION (git REVISION)", the line --version prints.
std::string getVersionLine(llvm::StringRef tool);

/// Makes llvm::cl's --version print getVersionLine(tool) instead of LLVM's
/// own version text.
void installVersionPrinter(llvm::StringRef tool);

} // namespace waveasm

#endif // WAVEASM_SUPPORT_VERSION_H
