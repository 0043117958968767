//===- ValuesInScope.h - SSA values a new operand may name ------*- C++ -*-===//
//
// Internal to server/features: the values visible at a position of the
// current text, which usually does not parse while an op is being typed.
// They come from the last text that parsed, with its lines mapped onto the
// current text (`TextDelta`: the unchanged lines before and after the
// edited region), plus the ops written since in the edited region, read
// from their text (names and result types).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SERVER_FEATURES_VALUESINSCOPE_H
#define WAVEASM_SERVER_FEATURES_VALUESINSCOPE_H

#include "server/DocumentState.h"

namespace waveasm::server {

/// Two versions of a text: the lines before the first difference and after
/// the last are the same lines, shifted.
class TextDelta {
public:
  TextDelta(llvm::StringRef oldText, llvm::StringRef newText);

  /// Lines [firstChanged, oldEnd) of the old text became [firstChanged,
  /// newEnd) of the new one.
  int firstChanged = 0, oldEnd = 0, newEnd = 0;

  /// The new line of an old line; nullopt inside the changed region.
  std::optional<int> newLineOf(int oldLine) const;
  /// Where a new position was in the old text: itself before the change,
  /// shifted after it, the change's start inside it.
  lsp::Position oldPositionOf(lsp::Position pos) const;
};

struct ScopedValue {
  std::string name; // "%x", "%x#1"
  mlir::Type type;
  int line = 0; // of the definition, in the current text
  /// "waveasm.v_add_u32", or "block argument": the context's op name or
  /// the text's, alive as long as both (no copy: 10k values per
  /// keystroke).
  llvm::StringRef definer;
};

/// Values visible at `pos` of `text`: defined before it, in a block
/// enclosing it, not results of the op at `pos` itself. `lastGood` is the
/// newest parse that produced a module (null: only the text is read).
std::vector<ScopedValue> findValuesInScope(const ParsedDocument *lastGood,
                                           llvm::StringRef text,
                                           lsp::Position pos,
                                           mlir::MLIRContext &context);

} // namespace waveasm::server

#endif // WAVEASM_SERVER_FEATURES_VALUESINSCOPE_H
