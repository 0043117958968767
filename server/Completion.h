//===- Completion.h - completion and signature help -------------*- C++ -*-===//
//
// The features that help write WaveASM, as pure functions of the current
// text and the last text that parsed (never waiting for a parse: the line
// being typed rarely parses). Implementations: features/Completion.cpp,
// features/SignatureHelp.cpp, on ir/OpSignatures.h (generated from ODS) and
// features/OpLineContext.h (where in an op's text the cursor is).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SERVER_COMPLETION_H
#define WAVEASM_SERVER_COMPLETION_H

#include "server/DocumentState.h"

#include "ir/TargetInfo.h"
#include "protocol/LspCompletion.h"

namespace waveasm::server {

struct CompletionOptions {
  /// The client inserts snippets (textDocument.completion.completionItem.
  /// snippetSupport): ops come with placeholders for operands and types.
  bool snippets = false;
  /// The client takes itemDefaults.editRange (LSP 3.17): the list says the
  /// range once.
  bool defaultEditRange = false;
  /// The `target` setting, which overrides the program's.
  std::optional<TargetKind> targetOverride;
  /// At most this many values; more make the list incomplete (the client
  /// asks again as the user types).
  size_t maxValues = 100;
};

/// What may be typed at `pos` of `text`:
///  - at an op name: the ops valid in the enclosing region (`condition` in
///    a loop body, `yield` in an if, `program` only outside one) and on the
///    program's target, as snippets of the whole op;
///  - at an operand: the values in scope whose type the operand's group
///    accepts (nearest first);
///  - at a type: the operand's own value type first, then the types of the
///    operand's or result's group with the width the op requires;
///  - in `{...}`: the op's attributes and those SPEC.md 3.5 gives meaning;
///  - `#` attributes (targets, abi) and the format's keywords.
/// `lastGood` (the newest parse that produced a module, may be stale or
/// null) supplies the values.
lsp::CompletionList computeCompletion(const ParsedDocument *lastGood,
                                      llvm::StringRef text, lsp::Position pos,
                                      mlir::MLIRContext &context,
                                      const CompletionOptions &options);
/// completionItem/resolve: an op item's documentation (operand table,
/// latency on the target, availability).
void resolveCompletionItem(lsp::CompletionItem &item);

/// While an op's operands or types are typed: its operands and results
/// with what each accepts, the active one being the cursor's.
std::optional<lsp::SignatureHelp> computeSignatureHelp(llvm::StringRef text,
                                                       lsp::Position pos);

/// The region around a text offset, read from the text (braces outside
/// comments and strings).
struct EnclosingRegion {
  enum Kind { None, Program, Loop, If, Other } innermost = None;
  bool inProgram = false;
  std::optional<TargetKind> target; // the program header's
};
EnclosingRegion findEnclosingRegion(llvm::StringRef text, size_t offset);

/// Line `line` of `text` (without its line break) and its start offset;
/// nullopt past the text's last line.
std::optional<std::pair<llvm::StringRef, size_t>>
getLineOfText(llvm::StringRef text, int line);

} // namespace waveasm::server

#endif // WAVEASM_SERVER_COMPLETION_H
