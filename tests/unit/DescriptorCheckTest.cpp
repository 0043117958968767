//===- DescriptorCheckTest.cpp - loop versioning's run-time check ---------===//
//
// pipeline/opt/DescriptorVersioning.h's check, executed by the simulator on
// descriptors placed where a test wants them (SimOptions::descriptorAt):
// the fast copy runs exactly when the two ranges, [base, base +
// num_records + reach), are disjoint and both descriptors are raw. The
// ranges touch, overlap by one byte, lie in one 4 GiB window or straddle
// two (the 64-bit compares' borrow and carry), and a stride, a cache
// swizzle or ADD_TID sends an apart pair to the loop as written. Then
// hoistSharedHead: the ops both copies start with go above the check, up
// to a read of a load's result, an op the copies do not share, or a store.
//
//===----------------------------------------------------------------------===//

#include "SimTestUtils.h"
#include "TestUtils.h"

#include "pipeline/opt/DescriptorVersioning.h"
#include "sim/Simulator.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"

#include <gtest/gtest.h>

#include <functional>

using namespace waveasm;
using namespace waveasm::test;
using llvm::cast;
using llvm::dyn_cast;
using mlir::Operation;
using mlir::Value;

namespace {

// B (s[8:11], buffer 1) is read with a scalar offset up to kReach past its
// records, C (s[12:15], buffer 2) is stored through; the loop yields 4, the
// fast copy (made to yield 7) shows which branch ran in buffer 3.
constexpr uint64_t kReach = 4096;
constexpr uint64_t kRecords = 1 << 20;
constexpr uint32_t kFast = 7, kSlow = 4;

const char *kBody = R"(
  %srd_b = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %srd_c = waveasm.precolored.sreg 12, 4 : !waveasm.psreg<12, 4>
  %out = waveasm.precolored.sreg 16, 4 : !waveasm.psreg<16, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r = waveasm.loop (%i = %i0) : (!waveasm.sreg) -> !waveasm.sreg {
    %i1:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %m = waveasm.s_cmp_lt_u32 %i1#0, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
    waveasm.condition %m : !waveasm.scc iter_args(%i1#0) : !waveasm.sreg
  }
  %v = waveasm.v_mov_b32 %r : !waveasm.sreg -> !waveasm.vreg
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %v, %out, %z : !waveasm.vreg, !waveasm.psreg<16, 4>, !waveasm.vreg
  waveasm.s_endpgm
)";

/// Where descriptors 1 (B) and 2 (C) point: buffer and byte offset (each
/// its own buffer when absent).
struct Placement {
  std::optional<std::pair<unsigned, uint64_t>> b, c;
};

/// Runs the versioned program; `edit` may change the check's words first
/// (descriptor, word index, the extract of it). What the loop yielded.
uint32_t run(const Placement &at,
             std::function<void(mlir::OpBuilder &, Value, unsigned, ExtractOp)>
                 edit = nullptr) {
  TestContext t;
  mlir::OwningOpRef<mlir::ModuleOp> module = t.parseModule(program(kBody));
  EXPECT_TRUE(module) << t.diagnostics;
  ProgramOp prog = firstProgram(*module);
  LoopOp loop = *prog.getBody().getOps<LoopOp>().begin();
  Value b, c;
  prog->walk([&](PrecoloredSRegOp op) {
    if (op.getIndex() == 8)
      b = op.getResult();
    if (op.getIndex() == 12)
      c = op.getResult();
  });
  DescriptorVersioning plan;
  plan.descriptors = {c, b};
  plan.reach = {0, kReach};
  plan.pairs = {{0, 1}};
  plan.loadsBehind = 1;
  VersionedLoop v = versionLoop(loop, plan);
  // The fast copy yields 7 instead of the loop's 4.
  auto yield = cast<YieldOp>(v.branch.getThenRegion().front().getTerminator());
  mlir::OpBuilder b2(yield);
  Value seven = S_MOV_B32::create(
      b2, yield.getLoc(), SRegType::get(&t.ctx, 1, 1),
      ConstantOp::create(b2, yield.getLoc(), ImmType::get(&t.ctx, kFast),
                         int64_t(kFast)));
  yield->setOperand(0, seven);
  if (edit)
    for (Operation *op = v.checkBegin; op != v.branch; op = op->getNextNode())
      if (auto extract = dyn_cast<ExtractOp>(op)) {
        mlir::OpBuilder after(extract->getBlock(),
                              std::next(extract->getIterator()));
        edit(after, extract.getSource(), unsigned(extract.getIndex()), extract);
        op = extract; // an edit inserts after it; go on from there
      }
  EXPECT_TRUE(mlir::succeeded(mlir::verify(prog))) << t.diagnostics;
  sim::SimOptions options;
  options.bufferBytes = kRecords;
  if (at.b)
    options.descriptorAt[1] = *at.b;
  if (at.c)
    options.descriptorAt[2] = *at.c;
  sim::SimResult result = sim::simulate(prog, options);
  EXPECT_TRUE(result.ok()) << (result.error ? result.error->str() : "");
  return wordAt(result, 3, 0);
}

TEST(DescriptorCheck, BuffersOfTheirOwnRunTheFastCopy) {
  EXPECT_EQ(run({}), kFast);
}

TEST(DescriptorCheck, CAfterBInOneWindow) {
  // B's range ends at num_records + reach: C there is apart, a byte
  // before overlaps.
  EXPECT_EQ(run({{}, {{1, kRecords + kReach}}}), kFast);
  EXPECT_EQ(run({{}, {{1, kRecords + kReach - 1}}}), kSlow);
}

TEST(DescriptorCheck, CBeforeBInOneWindow) {
  EXPECT_EQ(run({{{1, kRecords}}, {{1, 0}}}), kFast);
  EXPECT_EQ(run({{{1, kRecords - 1}}, {{1, 0}}}), kSlow);
}

TEST(DescriptorCheck, RangesAcrossAWindowBoundary) {
  // B starts 16 bytes below buffer 1's window (the high words differ) and
  // ends inside it: the low-word compare borrows.
  uint64_t below = (uint64_t(1) << 32) - 16;
  EXPECT_EQ(run({{{0, below}}, {{1, kRecords + kReach - 16}}}), kFast);
  EXPECT_EQ(run({{{0, below}}, {{1, kRecords + kReach - 17}}}), kSlow);
  EXPECT_EQ(run({{{1, kRecords - 16}}, {{0, below}}}), kFast);
  EXPECT_EQ(run({{{1, kRecords - 17}}, {{0, below}}}), kSlow);
}

TEST(DescriptorCheck, ADescriptorThatIsNotRawRunsTheLoopAsWritten) {
  // Apart, but one word flag set: each sends the run to the slow copy.
  for (auto [word, bits, onC] :
       {std::tuple{1u, 1u << 16, true},  // stride 1
        std::tuple{1u, 1u << 30, false}, // cache swizzle
        std::tuple{1u, 1u << 31, true},  // swizzle
        std::tuple{3u, 1u << 23, false}}) {
    auto setFlag = [&, word = word, bits = bits,
                    onC = onC](mlir::OpBuilder &b, Value descriptor,
                               unsigned index, ExtractOp extract) {
      auto reg = cast<PrecoloredSRegOp>(descriptor.getDefiningOp());
      if (index != word || reg.getIndex() != (onC ? 12 : 8))
        return;
      auto flagged = S_OR_B32::create(
          b, extract.getLoc(), extract.getType(), SCCType::get(b.getContext()),
          extract.getResult(),
          ConstantOp::create(b, extract.getLoc(),
                             ImmType::get(b.getContext(), int64_t(bits)),
                             int64_t(bits)));
      extract.getResult().replaceAllUsesExcept(flagged.getResult(0), flagged);
    };
    EXPECT_EQ(run({}, setFlag), kSlow) << "word " << word << " bits " << bits;
  }
}

} // namespace

namespace {

/// An if whose regions start with `head` then `thenRest` / `elseRest`,
/// behind `%mark` (the check's first op): hoistSharedHead's count and the
/// program after it.
std::pair<unsigned, std::string> hoist(llvm::StringRef head,
                                       llvm::StringRef thenRest,
                                       llvm::StringRef elseRest) {
  std::string body = (llvm::Twine(R"(
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %mark = waveasm.s_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.sreg
  %cond = waveasm.s_cmp_eq_u32 %mark, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.scc
  %r = waveasm.if %cond : !waveasm.scc -> !waveasm.vreg {)") +
                      head + thenRest + "\n  } else {" + head + elseRest +
                      R"(
  }
  waveasm.buffer_store_dword %r, %srd, %r : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
)")
                         .str();
  TestContext t;
  mlir::OwningOpRef<mlir::ModuleOp> module = t.parseModule(program(body));
  EXPECT_TRUE(module) << t.diagnostics;
  if (!module)
    return {0, ""};
  ProgramOp prog = firstProgram(*module);
  VersionedLoop v;
  prog->walk([&](IfOp op) { v.branch = op; });
  prog->walk([&](S_MOV_B32 op) { v.checkBegin = op; });
  unsigned moved = hoistSharedHead(v);
  EXPECT_TRUE(mlir::succeeded(mlir::verify(prog))) << t.diagnostics;
  std::string text;
  llvm::raw_string_ostream os(text);
  prog->print(os);
  return {moved, text};
}

const char *kLoad = R"(
    %a = waveasm.v_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.vreg
    %l = waveasm.buffer_load_dword %srd, %a, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg)";

TEST(SharedHead, LoadsGoAboveTheCheckUpToAReadOfTheirResult) {
  // The read of %l would wait for the load: it stays in both regions.
  const char *rest = R"(
    %s = waveasm.v_add_u32 %l, %a : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.yield %s : !waveasm.vreg)";
  auto [moved, text] = hoist(kLoad, rest, rest);
  EXPECT_EQ(moved, 2u);
  size_t load = text.find("buffer_load_dword"), mark = text.find("s_mov_b32"),
         branch = text.find("waveasm.if");
  EXPECT_LT(load, mark) << text;
  EXPECT_LT(mark, branch) << text;
  EXPECT_EQ(text.find("buffer_load_dword", load + 1), std::string::npos);
  EXPECT_NE(text.find("v_add_u32", branch), text.rfind("v_add_u32")) << text;
}

TEST(SharedHead, StopsAtTheFirstOpTheCopiesDoNotShare) {
  // The second op differs (its offset): only the first moves.
  const char *fast = R"(
    %l = waveasm.buffer_load_dword %srd, %a, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    waveasm.yield %l : !waveasm.vreg)";
  const char *slow = R"(
    %l = waveasm.buffer_load_dword %srd, %a, %c0 offset : 4 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    waveasm.yield %l : !waveasm.vreg)";
  const char *mov = R"(
    %a = waveasm.v_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.vreg)";
  EXPECT_EQ(hoist(mov, fast, slow).first, 1u);
}

TEST(SharedHead, NothingMovesPastAStore) {
  const char *store = R"(
    %a = waveasm.v_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.vreg
    waveasm.buffer_store_dword %a, %srd, %a : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
    %l = waveasm.buffer_load_dword %srd, %a, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg)";
  const char *rest = R"(
    waveasm.yield %l : !waveasm.vreg)";
  EXPECT_EQ(hoist(store, rest, rest).first, 1u); // the v_mov only
}

} // namespace
