//===- Directives.h - a file's `// waveasm-sim:` lines ----------*- C++ -*-===//
//
// The one reader of the simulator options a file's text sets, for every
// place that runs a document's kernel: waveasm-sim (a bad line is an error
// at FILE:LINE:COL, exit 2), the Conductor's check of kept rounds and the
// server's code actions (a bad line leaves the check "not checked", with
// the message as its one warning).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SIM_DIRECTIVES_H
#define WAVEASM_SIM_DIRECTIVES_H

#include "sim/Simulator.h"

#include <optional>
#include <string>

namespace waveasm::sim {

/// Where and why a `// waveasm-sim:` line could not be read.
struct DirectiveError {
  unsigned line = 0, column = 0; // 1-based; the column of the bad word
  std::string message;           // "'WORD': expected ..."
  /// "line LINE: waveasm-sim directive: MESSAGE", or with a file name
  /// "FILE:LINE:COL: waveasm-sim directive: MESSAGE".
  std::string str(llvm::StringRef file = "") const;
};

/// What a file's lines set: `base` with every directive applied, or the
/// first word that is not one.
struct SimDirectives {
  SimOptions options;
  std::optional<DirectiveError> error;
  bool ok() const { return !error; }
};

/// Reads `// waveasm-sim: --byte-range=K:LO-HI --kernarg-dword=OFFSET:VALUE`
/// lines of `text` over `base`.
SimDirectives readSimDirectives(llvm::StringRef text,
                                const SimOptions &base = {});

} // namespace waveasm::sim

#endif // WAVEASM_SIM_DIRECTIVES_H
