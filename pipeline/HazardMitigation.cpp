//===- HazardMitigation.cpp ---------------------------------------------------===//
//
// Placeholder: the pass is being implemented (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "pipeline/Passes.h"

namespace waveasm {
#define GEN_PASS_DEF_WAVEASMHAZARDMITIGATION
#include "pipeline/Passes.h.inc"
} // namespace waveasm

using namespace waveasm;

namespace {
struct HazardMitigationPass : public impl::WaveASMHazardMitigationBase<HazardMitigationPass> {
  using WaveASMHazardMitigationBase::WaveASMHazardMitigationBase;
  void runOnOperation() override {}
};
} // namespace
