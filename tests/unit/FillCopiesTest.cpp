//===- FillCopiesTest.cpp - a pipelined kernel's fill without copy chains -===//
//
// pipeline/opt/FillCopies.h on a hand-written program: before a kernel (a
// loop marked for counted waits), a chain of copies of a constant base,
// one per fill step, each read by that step's M0 write. Every copy but the
// kernel's init goes, its readers reading the constant's register; a copy
// of a computed value, a `no_cse` constant and the code before a loop
// that is not a kernel stay.
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestUtils.h"

#include "pipeline/CountedWaits.h"
#include "pipeline/opt/FillCopies.h"

#include <gtest/gtest.h>

using namespace waveasm;
using waveasm::test::ParsedAnalysisProgram;

namespace {

struct Forwarded {
  unsigned erased = 0;
  /// The `s_mov_b32` ops left before the loop.
  unsigned copiesLeft = 0;
  /// Whether the loop's init is still the last copy of the chain.
  bool initIsCopy = false;
};

/// `source` (a register %s) copied three times, %a -> %b -> %c, each read
/// by an M0 write, %c the loop's init; the loop marked as a kernel when
/// `kernel`.
Forwarded forward(llvm::StringRef source, bool kernel = true) {
  std::string text = (llvm::Twine(R"(
    %c0 = waveasm.constant 0 : !waveasm.imm<0>
    %c1 = waveasm.constant 1 : !waveasm.imm<1>
    %c8 = waveasm.constant 8 : !waveasm.imm<8>
    %c4096 = waveasm.constant 4096 : !waveasm.imm<4096>
    %x = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
    )") + source + R"(
    %a = waveasm.s_mov_b32 %s : !waveasm.sreg -> !waveasm.sreg
    waveasm.s_mov_b32_m0 %a : !waveasm.sreg
    %b = waveasm.s_mov_b32 %a : !waveasm.sreg -> !waveasm.sreg
    waveasm.s_mov_b32_m0 %b : !waveasm.sreg
    %c = waveasm.s_mov_b32 %b : !waveasm.sreg -> !waveasm.sreg
    waveasm.s_mov_b32_m0 %c : !waveasm.sreg
    %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
    %r:2 = waveasm.loop (%k = %k0, %base = %c) : (!waveasm.sreg, !waveasm.sreg) -> (!waveasm.sreg, !waveasm.sreg) {
      waveasm.s_mov_b32_m0 %base : !waveasm.sreg
      %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
      %more = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
      waveasm.condition %more : !waveasm.scc iter_args(%kn#0, %base) : !waveasm.sreg, !waveasm.sreg
    }
    waveasm.s_endpgm
  )")
                         .str();
  ParsedAnalysisProgram p(text);
  EXPECT_TRUE(p.module) << p.t.diagnostics;
  Forwarded f;
  if (!p.module)
    return f;
  LoopOp loop;
  p.program.walk([&](LoopOp l) { loop = l; });
  if (kernel)
    markCountedWaits(loop);
  f.erased = forwardFillCopies(p.program);
  for (mlir::Operation *op = loop->getPrevNode(); op; op = op->getPrevNode())
    if (auto mov = mlir::dyn_cast<S_MOV_B32>(op);
        mov && !mlir::isa<ImmType>(mov.getSrc().getType()))
      ++f.copiesLeft;
  auto init = loop.getInitArgs()[1].getDefiningOp<S_MOV_B32>();
  f.initIsCopy =
      init && !mlir::isa<ImmType>(init.getSrc().getType()) &&
      init.getSrc().getDefiningOp<S_MOV_B32>() &&
      mlir::isa<ImmType>(
          init.getSrc().getDefiningOp<S_MOV_B32>().getSrc().getType());
  return f;
}

constexpr llvm::StringLiteral kConstant = R"(
    %s = waveasm.s_mov_b32 %c4096 : !waveasm.imm<4096> -> !waveasm.sreg
)";

TEST(FillCopiesTest, ChainOfConstantCopiesGoesButTheKernelsInit) {
  Forwarded f = forward(kConstant);
  // %a and %b go; %c, the init, stays and now copies the constant.
  EXPECT_EQ(f.erased, 2u);
  EXPECT_EQ(f.copiesLeft, 1u);
  EXPECT_TRUE(f.initIsCopy);
}

TEST(FillCopiesTest, CopiesOfAComputedValueStay) {
  Forwarded f = forward(R"(
    %s, %scc = waveasm.s_add_u32 %x, %c1 : !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
  )");
  EXPECT_EQ(f.erased, 0u);
  EXPECT_EQ(f.copiesLeft, 3u);
}

TEST(FillCopiesTest, NoCseConstantStays) {
  Forwarded f = forward(R"(
    %s = waveasm.s_mov_b32 %c4096 {no_cse} : !waveasm.imm<4096> -> !waveasm.sreg
  )");
  EXPECT_EQ(f.erased, 0u);
  EXPECT_EQ(f.copiesLeft, 3u);
}

TEST(FillCopiesTest, NotBeforeALoopThatIsNoKernel) {
  Forwarded f = forward(kConstant, /*kernel=*/false);
  EXPECT_EQ(f.erased, 0u);
  EXPECT_EQ(f.copiesLeft, 3u);
}

} // namespace
