//===- ConductorTextEditTest.cpp - text-preserving reorder ----------------===//

#include "ConductorTestUtils.h"
#include "TestPaths.h"

#include "conductor/TextEdit.h"

#include "mlir/AsmParser/AsmParser.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::conductor;
using waveasm::test::makeSession;
using waveasm::test::TestContext;

namespace {

/// A parse with its AsmParserState, as the CLI and the server do.
struct Parsed {
  std::string text;
  llvm::SourceMgr sourceMgr;
  AsmParserState state;
  Block block;
  OwningOpRef<ModuleOp> module;

  Parsed(MLIRContext &ctx, std::string source) : text(std::move(source)) {
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(text, "input.mlir", false),
        llvm::SMLoc());
    ParserConfig config(&ctx);
    if (failed(parseAsmSourceFile(sourceMgr, &block, config, &state)))
      return;
    module = mlir::detail::constructContainerOpForParserIfNecessary<ModuleOp>(
        &block, &ctx, UnknownLoc::get(&ctx));
  }
};

std::string printedWithoutLocations(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os);
  return text;
}

std::vector<std::string> sortedLines(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  std::vector<std::string> out(lines.begin(), lines.end());
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace

TEST(ConductorTextEdit, ReorderedTextReparsesWithTheSameSemantics) {
  TestContext t;
  std::string source =
      waveasm::test::readFile(std::string(waveasm::test::examplesDir()) +
                              "/gemm_f16_double_buffer.mlir");
  Parsed input(t.ctx, source);
  ASSERT_TRUE(input.module) << t.diagnostics;
  auto session = makeSession(*input.module);
  ASSERT_TRUE(session);
  ASSERT_TRUE(session
                  ->applyReply("move I7 after I15\nmove I9 after I17\n"
                               "move I11 after I14\nswap I23 I24\n")
                  .improved);

  Block *block = session->inputOp(0)->getBlock();
  std::string error;
  FailureOr<std::vector<OpTextRange>> ranges =
      computeOpTextRanges(input.text, *block, input.state, &error);
  ASSERT_TRUE(succeeded(ranges)) << error;
  ASSERT_EQ(ranges->size(), session->region().ops.size());
  FailureOr<std::string> edited =
      reorderBlockText(input.text, *ranges, session->currentOrder(), &error);
  ASSERT_TRUE(succeeded(edited)) << error;
  EXPECT_NE(*edited, input.text);

  // Same ops, same SSA graph: the reparsed text prints exactly like the
  // session's schedule (the printer renumbers values by position).
  Parsed output(t.ctx, *edited);
  ASSERT_TRUE(output.module) << t.diagnostics;
  EXPECT_TRUE(succeeded(verify(*output.module)));
  EXPECT_EQ(printedWithoutLocations(*output.module),
            printedWithoutLocations(session->bestModule()));
  // Text-preserving: the same lines (comments, spacing, SSA names), moved.
  EXPECT_EQ(sortedLines(*edited), sortedLines(input.text));
  // The section comment stays in its slot (ahead of slot 14, where I7, the
  // %a01 read, now is: I7, I9 and I11 left slots 7..13).
  llvm::StringRef text(*edited);
  size_t comment = text.find("// (3) 2x2 accumulators");
  ASSERT_NE(comment, llvm::StringRef::npos);
  EXPECT_TRUE(text.substr(comment).split('\n').second.ltrim().starts_with(
      "%a01 = waveasm.ds_read_b64"));

  // The identity order changes nothing; a broken order is refused.
  std::vector<unsigned> identity(ranges->size());
  std::iota(identity.begin(), identity.end(), 0);
  EXPECT_EQ(*reorderBlockText(input.text, *ranges, identity), input.text);
  FailureOr<BlockTextEdit> none =
      computeBlockTextEdit(input.text, *ranges, identity);
  ASSERT_TRUE(succeeded(none));
  EXPECT_EQ(none->begin, none->end);
  std::vector<unsigned> twice = identity;
  twice[1] = 0;
  EXPECT_TRUE(failed(reorderBlockText(input.text, *ranges, twice, &error)));
  EXPECT_EQ(error, "the new order is not a permutation of the block");
  identity.pop_back();
  EXPECT_TRUE(failed(reorderBlockText(input.text, *ranges, identity, &error)));
}

TEST(ConductorTextEdit, SingleEditCoversOnlyTheChangedSlots) {
  TestContext t;
  std::string source = waveasm::test::program(waveasm::test::kConductorLoop);
  Parsed input(t.ctx, source);
  ASSERT_TRUE(input.module) << t.diagnostics;
  auto session = makeSession(*input.module);
  ASSERT_TRUE(session);
  std::vector<unsigned> order = session->currentOrder();
  std::swap(order[3], order[4]); // the two LDS reads
  Block *block = session->inputOp(0)->getBlock();
  auto ranges = computeOpTextRanges(input.text, *block, input.state);
  ASSERT_TRUE(succeeded(ranges));
  FailureOr<BlockTextEdit> edit =
      computeBlockTextEdit(input.text, *ranges, order);
  ASSERT_TRUE(succeeded(edit));
  EXPECT_EQ(edit->begin, (*ranges)[3].begin);
  EXPECT_EQ(edit->end, (*ranges)[4].end);
  EXPECT_EQ(edit->text,
            "    %w = waveasm.ds_read_b32 %off : !waveasm.vreg -> "
            "!waveasm.vreg\n"
            "    %z = waveasm.ds_read_b32 %off {offset = 4 : i64} : "
            "!waveasm.vreg -> !waveasm.vreg\n");
}

TEST(ConductorTextEdit, OpsSharingALineAreRefused) {
  TestContext t;
  Parsed input(t.ctx, waveasm::test::program(R"(
  %c0 = waveasm.constant 0 : !waveasm.imm<0>  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  waveasm.s_endpgm
)"));
  ASSERT_TRUE(input.module) << t.diagnostics;
  ProgramOp p = *input.module->getOps<ProgramOp>().begin();
  std::string error;
  EXPECT_TRUE(failed(computeOpTextRanges(input.text, p.getBody().front(),
                                         input.state, &error)));
  EXPECT_EQ(error, "'waveasm.constant' does not start its line");
}
