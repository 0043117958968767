//===- AnalysisTestUtils.h - parsed programs for analysis tests -*- C++ -*-===//
//
// Tests name the ops they check with locations: `... loc("A")` is found by
// `p.op("A")`, its first result by `p.value("A")`.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_TESTS_UNIT_ANALYSISTESTUTILS_H
#define WAVEASM_TESTS_UNIT_ANALYSISTESTUTILS_H

#include "TestUtils.h"

#include "analysis/ProgramIndex.h"

namespace waveasm::test {

struct ParsedAnalysisProgram {
  TestContext t;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  ProgramOp program;

  explicit ParsedAnalysisProgram(llvm::StringRef body,
                                 llvm::StringRef target = "gfx942") {
    module = t.parseModule(waveasm::test::program(body, target));
    if (module)
      program = *module->getOps<ProgramOp>().begin();
  }
  /// Parses a whole file's text (its first program).
  static std::unique_ptr<ParsedAnalysisProgram> fromFile(llvm::StringRef text) {
    auto p = std::make_unique<ParsedAnalysisProgram>();
    p->module = p->t.parseModule(text);
    if (p->module)
      p->program = *p->module->getOps<ProgramOp>().begin();
    return p;
  }
  ParsedAnalysisProgram() = default;

  mlir::Operation *op(llvm::StringRef name) {
    mlir::Operation *found = nullptr;
    program.walk([&](mlir::Operation *o) {
      if (auto loc = mlir::dyn_cast<mlir::NameLoc>(o->getLoc()))
        if (loc.getName() == name)
          found = o;
    });
    return found;
  }
  mlir::Value value(llvm::StringRef name, unsigned result = 0) {
    mlir::Operation *o = op(name);
    return o ? o->getResult(result) : mlir::Value();
  }
};

} // namespace waveasm::test

#endif // WAVEASM_TESTS_UNIT_ANALYSISTESTUTILS_H
