//===- JsonDepth.h - bounded nesting for every JSON the project reads -----===//
//
// JSON parsers and the value trees they build recurse once per nesting
// level, so a message like `[[[[...]]]]` 100,000 levels deep overflows the
// stack. Every JSON text the project reads (JSON-RPC messages, settings,
// cache entries, LLM replies and tool arguments, metrics) is first checked
// here, in one linear scan that recurses nowhere; text nested deeper than
// `kMaxJsonDepth` is refused with one clear error and never parsed.
//
// Header-only and standard C++ only, so every layer shares it, the LLM
// clients (which link no LLVM) included. `BoundedJson.h` wraps
// `llvm::json::parse` with it.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SUPPORT_JSONDEPTH_H
#define WAVEASM_SUPPORT_JSONDEPTH_H

#include <optional>
#include <string>
#include <string_view>

namespace waveasm {

/// Far above anything the project writes or reads (LSP messages nest about
/// ten levels), far below what exhausts a thread's stack.
constexpr unsigned kMaxJsonDepth = 256;

/// Why `text` must not be parsed (arrays and objects nested deeper than
/// `maxDepth`), or nullopt. Brackets inside strings do not count; the text
/// need not be valid JSON (the parser reports that).
inline std::optional<std::string>
checkJsonDepth(std::string_view text, unsigned maxDepth = kMaxJsonDepth) {
  unsigned depth = 0;
  bool inString = false;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i; // the escaped character cannot end the string
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > maxDepth)
        return "JSON nested deeper than " + std::to_string(maxDepth) +
               " levels (at byte " + std::to_string(i) + ")";
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

} // namespace waveasm

#endif // WAVEASM_SUPPORT_JSONDEPTH_H
