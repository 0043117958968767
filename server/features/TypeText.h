//===- TypeText.h - where an op's types are written -------------*- C++ -*-===//
//
// Internal to server/features: quick fixes that change a value's type must
// change every place the text spells it. In the instruction format
// `%r = waveasm.op %a, %b : T(a), T(b) -> T(r)` a value's type is written at
// its definition and again at each use, and the parser insists they agree.
// The AsmParserState records names, not types, so the type list is found in
// the op's text: after its last top-level `:`, operands before `->`.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SERVER_FEATURES_TYPETEXT_H
#define WAVEASM_SERVER_FEATURES_TYPETEXT_H

#include "server/DocumentState.h"

#include <optional>
#include <string>
#include <vector>

namespace waveasm::server::common {

/// Byte ranges in the document's text of an op's operand and result types.
struct OpTypeRanges {
  std::vector<llvm::SMRange> operands;
  std::vector<llvm::SMRange> results;
};

/// The type ranges of `op`, an op of `parsed` in the instruction format;
/// nullopt for ops with regions or another syntax (`condition`'s two type
/// lists, `loop` inits), i.e. whenever the list does not have exactly one
/// type per operand and per result.
std::optional<OpTypeRanges> findOpTypeRanges(const ParsedDocument &parsed,
                                             mlir::Operation *op);

/// The register type `type` with `size` registers: a physical one keeps
/// its index, a virtual one its alignment (at most `size`). Null for types
/// that are not registers.
mlir::Type withRegSize(mlir::Type type, int64_t size);
/// The virtual register type of `type`'s class and size with `alignment`.
mlir::Type toVirtualReg(mlir::Type type, int64_t alignment);

/// The edits that make the text give `value` (an op result) the type
/// `newType`: at its definition and at every use. Nullopt for block
/// arguments and when the definition or a user is not in the instruction
/// format.
std::optional<std::vector<lsp::TextEdit>>
retypeValue(const ParsedDocument &parsed, mlir::Value value,
            mlir::Type newType);

/// `edits` (of `text`, not overlapping) applied.
std::string applyTextEdits(const LineTable &lines,
                           llvm::ArrayRef<lsp::TextEdit> edits);

} // namespace waveasm::server::common

#endif // WAVEASM_SERVER_FEATURES_TYPETEXT_H
