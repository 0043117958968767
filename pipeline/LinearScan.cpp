//===- LinearScan.cpp ---------------------------------------------------===//
//
// Placeholder: the pass is being implemented (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "pipeline/Passes.h"

namespace waveasm {
#define GEN_PASS_DEF_WAVEASMLINEARSCAN
#include "pipeline/Passes.h.inc"
} // namespace waveasm

using namespace waveasm;

namespace {
struct LinearScanPass : public impl::WaveASMLinearScanBase<LinearScanPass> {
  using WaveASMLinearScanBase::WaveASMLinearScanBase;
  void runOnOperation() override {}
};
} // namespace
