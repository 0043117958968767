//===- JSONHelpers.h - readers shared by the protocol's JSON ----*- C++ -*-===//
//
// Internal to protocol/: the two readers every LSP struct's fromJSON needs
// beyond llvm::json::ObjectMapper.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PROTOCOL_JSONHELPERS_H
#define WAVEASM_PROTOCOL_JSONHELPERS_H

#include "llvm/Support/JSON.h"

#include <initializer_list>
#include <optional>
#include <string>

namespace waveasm::lsp::detail {

/// Reads an integer-valued LSP enum, accepting only the listed values.
template <typename Enum>
bool enumFromJSON(const llvm::json::Value &value, Enum &out,
                  llvm::json::Path path, std::initializer_list<Enum> allowed) {
  std::optional<int64_t> raw = value.getAsInteger();
  if (!raw) {
    path.report("expected an integer");
    return false;
  }
  for (Enum e : allowed) {
    if (static_cast<int64_t>(e) == *raw) {
      out = e;
      return true;
    }
  }
  path.report("unknown enum value");
  return false;
}

/// Optional string member; absent means empty.
inline bool mapString(llvm::json::ObjectMapper &o, llvm::StringLiteral key,
                      std::string &out) {
  std::optional<std::string> value;
  if (!o.map(key, value))
    return false;
  out = value.value_or("");
  return true;
}

} // namespace waveasm::lsp::detail

#endif // WAVEASM_PROTOCOL_JSONHELPERS_H
