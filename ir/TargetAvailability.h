//===- TargetAvailability.h - ops a target lacks ----------------*- C++ -*-===//
//
// PROVISIONAL (replaced by the quick-fix branch's table when merged).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_IR_TARGETAVAILABILITY_H
#define WAVEASM_IR_TARGETAVAILABILITY_H

#include "ir/TargetInfo.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace waveasm {

struct OpAvailability {
  bool available = true;
  std::string replacement;
  std::string reason;
};

/// `mnemonic` without the "waveasm." prefix.
OpAvailability getOpAvailability(llvm::StringRef mnemonic, TargetKind target);

} // namespace waveasm

#endif // WAVEASM_IR_TARGETAVAILABILITY_H
