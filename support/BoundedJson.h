//===- BoundedJson.h - llvm::json::parse behind the depth check -----------===//

#ifndef WAVEASM_SUPPORT_BOUNDEDJSON_H
#define WAVEASM_SUPPORT_BOUNDEDJSON_H

#include "support/JsonDepth.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

namespace waveasm {

/// `llvm::json::parse` of text that passed `checkJsonDepth`; the error
/// names the problem either way.
inline llvm::Expected<llvm::json::Value>
parseJsonBounded(llvm::StringRef text) {
  if (std::optional<std::string> problem =
          checkJsonDepth(std::string_view(text.data(), text.size())))
    return llvm::createStringError(*problem);
  return llvm::json::parse(text);
}

} // namespace waveasm

#endif // WAVEASM_SUPPORT_BOUNDEDJSON_H
