//===- CycleModelTestUtils.h - a parsed program and its cycle model -*- C++
//-*-===//
//
// The fixture of the cycle-model and loop-bound tests: `body` parsed into a
// program (AnalysisTestUtils.h) and the CycleModel run on it, with the
// prologue their loops start from.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_TESTS_UNIT_CYCLEMODELTESTUTILS_H
#define WAVEASM_TESTS_UNIT_CYCLEMODELTESTUTILS_H

#include "AnalysisTestUtils.h"

#include "analysis/CycleModel.h"

#include <memory>

namespace waveasm::test {

/// Parses `body` and runs the model on it (null `model` when it does not
/// parse: `p.t.diagnostics` says why).
struct Modeled {
  ParsedAnalysisProgram p;
  std::unique_ptr<ProgramIndex> index;
  std::unique_ptr<CycleModel> model;

  explicit Modeled(
      llvm::StringRef body,
      const TargetModel &target = TargetModel::get(TargetKind::gfx942))
      : p(body) {
    if (!p.module)
      return;
    index = std::make_unique<ProgramIndex>(p.program);
    model = std::make_unique<CycleModel>(*index, target);
  }
  /// The timing of the op named `name` (`loc("name")`).
  const OpTiming &at(llvm::StringRef name) {
    return *model->getTiming(p.op(name));
  }
  /// The program's first loop.
  const LoopTiming &loop() const { return model->getLoops().front(); }
};

/// A buffer SRD, the lane id and constants 0, 1 and 4.
inline constexpr llvm::StringLiteral kModelPrelude = R"(
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
)";

} // namespace waveasm::test

#endif // WAVEASM_TESTS_UNIT_CYCLEMODELTESTUTILS_H
