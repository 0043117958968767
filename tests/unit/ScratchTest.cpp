#include "server/Features.h"
#include "mlir/IR/MLIRContext.h"
#include <fstream>
#include <sstream>
#include <gtest/gtest.h>
using namespace waveasm;
using namespace waveasm::server;
TEST(Scratch, Features) {
  const char *path = getenv("SCRATCH_FILE");
  if (!path)
    GTEST_SKIP();
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  mlir::MLIRContext ctx;
  ServerSettings settings;
  ParsedDocument doc(ctx, "file:///x.mlir", ss.str(), 1);
  CompiledDocument compiled(doc, settings);
  for (auto &d : computeDiagnostics(doc, &compiled, settings)) {
    llvm::errs() << "DIAG[" << d.code << "] " << d.range.start.line + 1 << ":" << d.range.start.character << " " << d.message << "\n";
    for (auto &r : d.related) llvm::errs() << "   REL " << r.location.range.start.line + 1 << " " << r.message << "\n";
  }
  for (auto &h : computeInlayHints(doc, &compiled, {{0, 0}, {60, 0}}, settings))
    llvm::errs() << "HINT " << h.position.line + 1 << ":" << h.position.character << " " << h.label << "\n";
  for (auto &l : computeCodeLenses(doc, &compiled))
    llvm::errs() << "LENS " << l.range.start.line + 1 << " " << l.command->title << "\n";
  llvm::errs() << renderMetricsTable(doc, compiled);
  llvm::errs() << renderInstructionTable(doc, compiled).substr(0, 4000);
  if (const char *pos = getenv("SCRATCH_POS")) {
    int l, c;
    sscanf(pos, "%d:%d", &l, &c);
    if (auto h = computeHover(doc, &compiled, {l - 1, c}))
      llvm::errs() << h->contents.value << "\n";
  }
}
