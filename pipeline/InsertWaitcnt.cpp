//===- InsertWaitcnt.cpp ---------------------------------------------------===//
//
// Placeholder: the pass is being implemented (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "pipeline/Passes.h"

namespace waveasm {
#define GEN_PASS_DEF_WAVEASMINSERTWAITCNT
#include "pipeline/Passes.h.inc"
} // namespace waveasm

using namespace waveasm;

namespace {
struct InsertWaitcntPass : public impl::WaveASMInsertWaitcntBase<InsertWaitcntPass> {
  using WaveASMInsertWaitcntBase::WaveASMInsertWaitcntBase;
  void runOnOperation() override {}
};
} // namespace
