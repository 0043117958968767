//===- Version.cpp - the project version and the build's git revision -----===//

#include "support/Version.h"

#include "support/GitRevision.inc"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

llvm::StringRef waveasm::getVersion() { return WAVEASM_VERSION; }

llvm::StringRef waveasm::getGitRevision() { return WAVEASM_GIT_REVISION; }

std::string waveasm::getVersionString() {
  return (getVersion() + " (git " + getGitRevision() + ")").str();
}

std::string waveasm::getVersionLine(llvm::StringRef tool) {
  return (tool + " " + getVersionString()).str();
}

void waveasm::installVersionPrinter(llvm::StringRef tool) {
  llvm::cl::SetVersionPrinter(
      [line = getVersionLine(tool)](llvm::raw_ostream &os) {
        os << line << '\n';
      });
}
