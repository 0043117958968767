//===- HazardRulesTest.cpp - what the hazard rules never ask for ----------===//
//
// The hazard pass (pipeline/HazardMitigation.cpp, readsMayNeedWaitStates)
// does not look up the operands of an op whose unit is not VALU, MFMA, VMEM
// or LDS: it relies on getReadHazardWaitStates being 0 for such a reader
// under every source, reader flag and target. This holds the rules to that.
//
//===----------------------------------------------------------------------===//

#include "analysis/HazardRules.h"

#include <gtest/gtest.h>

using namespace waveasm;

namespace {

constexpr HazardSource kSources[] = {
    HazardSource::Trans,  HazardSource::ValuVGPR, HazardSource::ValuSGPR,
    HazardSource::SaluM0, HazardSource::MFMA,     HazardSource::StoreData};
constexpr ExecUnit kUnits[] = {
    ExecUnit::None, ExecUnit::VALU,   ExecUnit::SALU,
    ExecUnit::SMEM, ExecUnit::VMEM,   ExecUnit::LDS,
    ExecUnit::MFMA, ExecUnit::Branch, ExecUnit::Sync};

bool readsMayNeedWaitStates(ExecUnit unit) {
  return unit == ExecUnit::VALU || unit == ExecUnit::MFMA ||
         unit == ExecUnit::VMEM || unit == ExecUnit::LDS;
}

/// The largest wait any reader of `unit` needs, over every source, reader
/// flag an op of that unit can have (OperandHazardReaders: the lane flags
/// only on v_readfirstlane/v_readlane/v_writelane, VALU ops; SrcC only on
/// an MFMA) and accumulator chain.
int64_t largestReadWait(const TargetModel &model, ExecUnit unit) {
  int64_t largest = 0;
  for (HazardSource source : kSources)
    for (unsigned flags = 0; flags < 16; ++flags)
      for (bool chain : {false, true}) {
        HazardReader reader;
        reader.unit = unit;
        reader.trans = flags & 1;
        reader.readLaneSource = (flags & 2) && unit == ExecUnit::VALU;
        reader.laneSelect = (flags & 4) && unit == ExecUnit::VALU;
        reader.mfmaAcc = (flags & 8) && unit == ExecUnit::MFMA;
        largest = std::max(largest, getReadHazardWaitStates(
                                        model, source,
                                        /*mfmaWaitStates=*/20, reader, chain));
      }
  return largest;
}

TEST(HazardRules, OnlyVectorMemoryAndLdsReadersWait) {
  for (TargetKind kind :
       {TargetKind::gfx942, TargetKind::gfx950, TargetKind::gfx1250}) {
    const TargetModel &model = TargetModel::get(kind);
    for (ExecUnit unit : kUnits) {
      int64_t largest = largestReadWait(model, unit);
      if (readsMayNeedWaitStates(unit))
        continue;
      EXPECT_EQ(largest, 0) << "unit " << static_cast<int>(unit)
                            << " on target " << static_cast<int>(kind);
    }
    // The units the pass does look at do wait for something (on targets
    // with MFMA hazards at least: an MFMA result read by them).
    if (model.getHazardWaitStates(HazardKind::MfmaResultToRead) > 0)
      for (ExecUnit unit :
           {ExecUnit::VALU, ExecUnit::MFMA, ExecUnit::VMEM, ExecUnit::LDS})
        EXPECT_GT(largestReadWait(model, unit), 0)
            << "unit " << static_cast<int>(unit);
  }
}

} // namespace
