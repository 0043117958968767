//===- DocumentStateTest.cpp - parsed and compiled document snapshots -----===//

#include "server/DocumentState.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace waveasm;
using namespace waveasm::server;

namespace {

const char *kKernel = R"(waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %x = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %y = waveasm.v_add_u32 %x, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %y, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}
)";

} // namespace

TEST(DocumentState, Scratch) {
  mlir::MLIRContext ctx;
  ParsedDocument doc(ctx, "file:///k.mlir", kKernel, 1);
  ASSERT_TRUE(doc.getModule());
  EXPECT_TRUE(doc.isVerified());
  for (const OpEntry &e : doc.getOps())
    llvm::errs() << e.op->getName() << " " << e.name.start.line << ":"
                 << e.name.start.character << "-" << e.name.end.line << ":"
                 << e.name.end.character << " scope to " << e.scope.end.line
                 << ":" << e.scope.end.character << " tag " << e.tag << "\n";
  for (const ValueEntry &v : doc.getValues()) {
    llvm::errs() << v.name << " def " << v.def.start.line << ":"
                 << v.def.start.character << " uses";
    for (auto &u : v.uses)
      llvm::errs() << " " << u.start.line << ":" << u.start.character << "-"
                   << u.end.character;
    llvm::errs() << "\n";
  }
  CompiledDocument compiled(doc, {});
  EXPECT_TRUE(compiled.succeeded());
  for (auto &d : compiled.getDiagnostics())
    llvm::errs() << d.message << "\n";
  for (unsigned i = 0; i < doc.getOps().size(); ++i)
    if (const CompiledOpInfo *info = compiled.lookup(i))
      if (info->annotation)
        llvm::errs() << doc.getOps()[i].op->getName() << " lat "
                     << info->annotation->latency << " stall "
                     << info->annotation->stall << " +"
                     << info->insertedStall << " v "
                     << info->annotation->liveAfter.vgprs() << "\n";
}

#include "server/Features.h"
#include <fstream>
#include <sstream>

TEST(DocumentState, ScratchFeatures) {
  const char *path = getenv("SCRATCH_FILE");
  if (!path)
    GTEST_SKIP();
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  mlir::MLIRContext ctx;
  ServerSettings settings;
  ParsedDocument doc(ctx, "file:///x.mlir", ss.str(), 1);
  for (auto &d : doc.getDiagnostics())
    llvm::errs() << "DIAG " << d.range.start.line << ":" << d.range.start.character << " " << d.message << "\n";
  CompiledDocument compiled(doc, settings);
  for (auto &d : computeDiagnostics(doc, &compiled, settings))
    llvm::errs() << "DIAG[" << d.code << "] " << d.range.start.line + 1 << ":" << d.range.start.character << " " << d.message << "\n";
  for (auto &h : computeInlayHints(doc, &compiled, {{0, 0}, {60, 0}}, settings))
    llvm::errs() << "HINT " << h.position.line + 1 << ":" << h.position.character << " " << h.label << "\n";
  for (auto &l : computeCodeLenses(doc, &compiled))
    llvm::errs() << "LENS " << l.range.start.line + 1 << " " << l.command->title << "\n";
  llvm::errs() << renderMetricsTable(doc, compiled);
  llvm::errs() << renderInstructionTable(doc, compiled).substr(0, 3000);
  if (const char *pos = getenv("SCRATCH_POS")) {
    int l, c;
    sscanf(pos, "%d:%d", &l, &c);
    if (auto h = computeHover(doc, &compiled, {l - 1, c}))
      llvm::errs() << h->contents.value << "\n";
  }
}
