//===- ServerTestUtils.h - documents for the server tests -------*- C++ -*-===//

#ifndef WAVEASM_TESTS_UNIT_SERVERTESTUTILS_H
#define WAVEASM_TESTS_UNIT_SERVERTESTUTILS_H

#include "server/Features.h"
#include "server/features/TypeText.h"

#include "mlir/IR/MLIRContext.h"

#include <memory>
#include <string>

namespace waveasm::test {

/// A program body: a buffer load, its use and a store.
inline const char *kLoadUse =
    R"(  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %x = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %y = waveasm.v_add_u32 %x, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %y, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
)";

/// One document, parsed and (on request) compiled, in its own context.
struct ServerDoc {
  mlir::MLIRContext ctx;
  server::ServerSettings settings;
  std::string text;
  std::unique_ptr<server::ParsedDocument> parsed;
  std::unique_ptr<server::CompiledDocument> compiled;

  explicit ServerDoc(std::string source, bool compile = true,
                     server::ServerSettings s = {})
      : settings(std::move(s)), text(std::move(source)) {
    parsed = std::make_unique<server::ParsedDocument>(ctx, "file:///test.mlir",
                                                      text, 1, settings);
    if (compile)
      compiled = std::make_unique<server::CompiledDocument>(*parsed, settings);
  }

  /// Position of the `occurrence`-th `needle` in the text (ASCII lines),
  /// plus `offset` characters.
  lsp::Position pos(llvm::StringRef needle, int offset = 0,
                    unsigned occurrence = 0) const {
    size_t at = 0;
    for (unsigned i = 0; i <= occurrence; ++i) {
      at = llvm::StringRef(text).find(needle, i ? at + 1 : 0);
      if (at == llvm::StringRef::npos)
        return {-1, -1};
    }
    lsp::Position p = parsed->getLines().getPosition(at);
    p.character += offset;
    return p;
  }
  int line(llvm::StringRef needle, unsigned occurrence = 0) const {
    return pos(needle, 0, occurrence).line;
  }
};

/// Applies text edits (non-overlapping) to `text`, as the server does.
inline std::string applyEdits(const std::string &text,
                              std::vector<lsp::TextEdit> edits) {
  return server::common::applyTextEdits(server::LineTable(text), edits);
}

/// A gfx942 program around `body`.
inline std::string serverProgram(llvm::StringRef body,
                                 llvm::StringRef attrs = "") {
  return ("waveasm.program @k target = #waveasm.target<#waveasm.gfx942> "
          "abi = #waveasm.abi<>" +
          attrs + " {\n" + body + "}\n")
      .str();
}

} // namespace waveasm::test

#endif // WAVEASM_TESTS_UNIT_SERVERTESTUTILS_H
