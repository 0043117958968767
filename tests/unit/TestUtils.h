//===- TestUtils.h - helpers shared by the unit tests -----------*- C++ -*-===//

#ifndef WAVEASM_TESTS_UNIT_TESTUTILS_H
#define WAVEASM_TESTS_UNIT_TESTUTILS_H

#include "TestPaths.h"
#include "ir/Dialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <vector>

#include <string>

namespace waveasm::test {

/// A context with the WaveASM dialect loaded that records diagnostics
/// instead of printing them.
struct TestContext {
  mlir::MLIRContext ctx;
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler;

  TestContext()
      : handler(&ctx, [this](mlir::Diagnostic &diag) {
          diagnostics += diag.str();
          diagnostics += '\n';
          return mlir::success();
        }) {
    ctx.loadDialect<WaveASMDialect>();
  }

  mlir::Type parseType(llvm::StringRef text) {
    return mlir::parseType(text, &ctx);
  }
  mlir::Attribute parseAttr(llvm::StringRef text) {
    return mlir::parseAttribute(text, &ctx);
  }
  mlir::OwningOpRef<mlir::ModuleOp> parseModule(llvm::StringRef text) {
    return mlir::parseSourceString<mlir::ModuleOp>(text, &ctx);
  }
};

/// Wraps `body` in a gfx942 program.
inline std::string program(llvm::StringRef body,
                           llvm::StringRef target = "gfx942") {
  return ("waveasm.program @k target = #waveasm.target<#waveasm." + target +
          "> abi = #waveasm.abi<> {\n" + body + "\n}\n")
      .str();
}

/// Prints `type` or `attr` as MLIR does.
template <typename T> std::string print(T value) {
  std::string out;
  llvm::raw_string_ostream os(out);
  value.print(os);
  return out;
}

/// The `.mlir` files of examples/, sorted.
inline std::vector<std::string> exampleKernelPaths() {
  std::vector<std::string> paths;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(waveasm::test::examplesDir(), ec),
       end;
       it != end && !ec; it.increment(ec))
    if (llvm::sys::path::extension(it->path()) == ".mlir")
      paths.push_back(it->path());
  std::sort(paths.begin(), paths.end());
  return paths;
}

/// The contents of `path`, or "" when it cannot be read.
inline std::string readFileText(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

/// `text` parsed in `t`, the passes `build` adds run on it, and printed; or
/// why not ("parse error: ..." / "pass failure: ..." with the diagnostics).
inline std::string
runPassesAndPrint(TestContext &t, llvm::StringRef text,
                  llvm::function_ref<void(mlir::OpPassManager &)> build) {
  mlir::OwningOpRef<mlir::ModuleOp> module = t.parseModule(text);
  if (!module)
    return "parse error: " + t.diagnostics;
  mlir::PassManager pm(&t.ctx);
  build(pm);
  if (mlir::failed(pm.run(*module)))
    return "pass failure: " + t.diagnostics;
  return print(*module);
}

} // namespace waveasm::test

#endif // WAVEASM_TESTS_UNIT_TESTUTILS_H
