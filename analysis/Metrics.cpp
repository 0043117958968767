//===- Metrics.cpp - computing and comparing program metrics --------------===//

#include "analysis/Metrics.h"

#include "analysis/IssueRules.h"
#include "analysis/LoopBounds.h"
#include "analysis/LoopBoundsProgram.h"
#include "analysis/Occupancy.h"
#include "analysis/OrderCost.h"
#include "ir/DefinedValues.h"

#include <array>

using namespace mlir;
using namespace waveasm;

bool LoopMetrics::operator==(const LoopMetrics &other) const {
  return est_cycles_per_iter == other.est_cycles_per_iter &&
         steady_iterations == other.steady_iterations &&
         trip_count == other.trip_count &&
         trip_count_source == other.trip_count_source &&
         lower_bound_cycles == other.lower_bound_cycles &&
         bound_kind == other.bound_kind &&
         resource_bound_cycles == other.resource_bound_cycles &&
         busiest_unit == other.busiest_unit &&
         recurrence_bound_cycles == other.recurrence_bound_cycles &&
         memory_recurrence_bound_cycles ==
             other.memory_recurrence_bound_cycles &&
         latency_limited_cycles == other.latency_limited_cycles &&
         prefetch_distance == other.prefetch_distance &&
         max_prefetch_distance == other.max_prefetch_distance &&
         critical_path == other.critical_path &&
         coaccess_cost == other.coaccess_cost &&
         coaccess_modularity == other.coaccess_modularity &&
         coaccess_clusters == other.coaccess_clusters;
}

bool OccupancyLimitMetrics::operator==(
    const OccupancyLimitMetrics &other) const {
  return limited_by == other.limited_by && summary == other.summary &&
         vgpr_waves == other.vgpr_waves && sgpr_waves == other.sgpr_waves &&
         lds_waves == other.lds_waves &&
         workgroup_waves == other.workgroup_waves &&
         next_wave_cut == other.next_wave_cut &&
         next_wave_waves == other.next_wave_waves;
}

bool ProgramMetrics::operator==(const ProgramMetrics &other) const {
  return name == other.name && peak_vgpr == other.peak_vgpr &&
         peak_sgpr == other.peak_sgpr && peak_agpr == other.peak_agpr &&
         nops_inserted == other.nops_inserted &&
         waitcnts_inserted == other.waitcnts_inserted &&
         total_instructions == other.total_instructions &&
         est_cycles == other.est_cycles &&
         lower_bound_cycles == other.lower_bound_cycles &&
         bound_kind == other.bound_kind && occupancy == other.occupancy &&
         occupancy_limit == other.occupancy_limit && loops == other.loops;
}

//===----------------------------------------------------------------------===//
// Computing
//===----------------------------------------------------------------------===//

PeakRegisters waveasm::computePhysicalPeaks(ProgramOp program,
                                            bool reserveScratchVGPR) {
  const TargetInfo &arch = getTargetInfo(program.getTargetKind());
  PeakRegisters peaks;
  auto note = [&](Type type) {
    RegTypeInfo info = getRegTypeInfo(type);
    if (!info.physicalIndex || !info.cls)
      return;
    int64_t end = *info.physicalIndex + info.size;
    switch (*info.cls) {
    case RegClass::VGPR:
      peaks.vgpr = std::max(peaks.vgpr, end);
      break;
    case RegClass::SGPR:
      // VCC, EXEC and the other architectural SGPRs are not allocated.
      if (*info.physicalIndex < arch.maxSGPRs)
        peaks.sgpr = std::max(peaks.sgpr, end);
      break;
    case RegClass::AGPR:
      peaks.agpr = std::max(peaks.agpr, end);
      break;
    }
  };
  // A type noted twice changes no peak, and a program names few register
  // types (a physical type is uniqued by class, index and size): each is
  // decoded once per stay in a small direct-mapped table of the types seen.
  std::array<const void *, 64> seen{};
  auto noteOnce = [&](Type type) {
    const void *key = type.getAsOpaquePointer();
    const void *&slot =
        seen[(reinterpret_cast<uintptr_t>(key) >> 4) % seen.size()];
    if (slot == key)
      return;
    slot = key;
    note(type);
  };
  // Every value an op reads is defined in the program, which is isolated
  // from above: noting the results and block arguments notes every operand.
  for (Block &block : program.getBody())
    for (BlockArgument arg : block.getArguments())
      noteOnce(arg.getType());
  forEachDefinedValue(program.getBody(), [&](Operation *, Value value) {
    noteOnce(value.getType());
  });
  if (reserveScratchVGPR)
    peaks.vgpr = std::max<int64_t>(peaks.vgpr, 16);
  peaks.vgpr = std::max<int64_t>(peaks.vgpr, 1);
  peaks.sgpr = std::max<int64_t>(peaks.sgpr, 2);
  if (auto minSGPRs = program->getAttrOfType<IntegerAttr>("min_sgprs"))
    peaks.sgpr = std::max(peaks.sgpr, minSGPRs.getInt());
  return peaks;
}

ProgramMetrics waveasm::computeProgramMetrics(ProgramOp program,
                                              const CycleModel &cycles,
                                              const PipelineCounts &counts,
                                              bool programBound) {
  ProgramMetrics m;
  m.name = program.getSymName().str();
  m.peak_vgpr = counts.peaks.vgpr;
  m.peak_sgpr = counts.peaks.sgpr;
  m.peak_agpr = counts.peaks.agpr;
  m.nops_inserted = counts.nops_inserted;
  m.waitcnts_inserted = counts.waitcnts_inserted;
  m.total_instructions = counts.total_instructions;
  m.est_cycles = cycles.getTotalCycles();
  if (programBound) {
    ProgramBound bound =
        computeProgramBound(cycles.getIndex(), cycles.getOpFacts());
    m.lower_bound_cycles = bound.cycles;
    m.bound_kind = std::move(bound.kind);
  }
  const TargetModel &target = cycles.getTarget();
  OccupancyExplanation occupancy = explainOccupancy(
      target, getProgramOccupancyInput(target, program, m.peak_vgpr,
                                       m.peak_agpr, m.peak_sgpr));
  m.occupancy = occupancy.waves;
  m.occupancy_limit = {stringifyOccupancyLimiter(occupancy.limitedBy).str(),
                       occupancy.summarize(),
                       occupancy.vgprWaves,
                       occupancy.sgprWaves,
                       occupancy.ldsWaves,
                       occupancy.workgroupWaves,
                       occupancy.cutForNextWave,
                       occupancy.nextWaves};
  // The unified file's entries the program may grow to at its occupancy:
  // the largest file size that still gives as many waves.
  int64_t budget = 0;
  for (auto [limit, waves] : target.vgprOccupancy)
    if (std::min(waves, target.maxWavesPerSIMD) >= occupancy.waves)
      budget = std::max(budget, limit);
  int64_t freeEntries = std::max<int64_t>(0, budget - occupancy.vgprFileUse);
  for (const LoopTiming &loop : cycles.getLoops()) {
    LoopMetrics lm;
    lm.est_cycles_per_iter = loop.steadyStateCycles;
    lm.steady_iterations = loop.steadyIterations;
    lm.trip_count = loop.tripCount.count;
    lm.trip_count_source =
        stringifyTripCountSource(loop.tripCount.source).str();
    lm.lower_bound_cycles = loop.lowerBoundCycles;
    lm.bound_kind = loop.boundKind.str();
    lm.resource_bound_cycles = loop.resourceBoundCycles;
    lm.busiest_unit = loop.busiestUnit.str();
    lm.recurrence_bound_cycles = loop.recurrenceBoundCycles;
    lm.memory_recurrence_bound_cycles = loop.memoryRecurrenceBoundCycles;
    LatencyLimit latency = computeLatencyLimit(
        cycles.getIndex(), cycles.getOpFacts(), loop.index, freeEntries);
    lm.latency_limited_cycles = latency.cycles;
    lm.prefetch_distance = loop.prefetchDistance;
    lm.max_prefetch_distance = latency.maxDistance;
    lm.critical_path = loop.criticalPath;
    m.loops.push_back(std::move(lm));
  }
  return m;
}

ProgramMetrics waveasm::computeProgramMetrics(ProgramOp program,
                                              const TargetModel &target,
                                              const PipelineCounts &counts) {
  ProgramIndex index(program);
  CycleModel cycles(index, target);
  return computeProgramMetrics(program, cycles, counts);
}

void waveasm::addCoAccessMetrics(ProgramOp source, ProgramMetrics &metrics) {
  SmallVector<LoopOp> loops;
  source.getBody().walk<WalkOrder::PreOrder>(
      [&](LoopOp loop) { loops.push_back(loop); });
  if (loops.size() != metrics.loops.size())
    return;
  for (auto [loop, m] : llvm::zip(loops, metrics.loops)) {
    CoAccessSummary summary = summarizeCoAccess(loop.getBody().front());
    m.coaccess_cost = summary.cost;
    m.coaccess_modularity = summary.modularity;
    m.coaccess_clusters = summary.clusters;
  }
}

int64_t waveasm::countInstructions(ProgramOp program) {
  int64_t count = 0;
  program.getBody().walk([&](Operation *op) {
    if (takesIssueSlot(op, lookupInstFacts(op)))
      ++count;
  });
  return count;
}

//===----------------------------------------------------------------------===//
// Comparing
//===----------------------------------------------------------------------===//

namespace {
struct KeyName {
  MetricKey key;
  llvm::StringLiteral name;
};
constexpr KeyName kKeyNames[] = {
    {MetricKey::PeakVGPR, "peak_vgpr"},
    {MetricKey::PeakSGPR, "peak_sgpr"},
    {MetricKey::PeakAGPR, "peak_agpr"},
    {MetricKey::NopsInserted, "nops_inserted"},
    {MetricKey::WaitcntsInserted, "waitcnts_inserted"},
    {MetricKey::TotalInstructions, "total_instructions"},
    {MetricKey::EstCycles, "est_cycles"},
    {MetricKey::Occupancy, "occupancy"},
};
} // namespace

StringRef waveasm::stringifyMetricKey(MetricKey key) {
  for (const KeyName &entry : kKeyNames)
    if (entry.key == key)
      return entry.name;
  return "";
}

std::optional<MetricKey> waveasm::parseMetricKey(StringRef name) {
  for (const KeyName &entry : kKeyNames)
    if (entry.name == name)
      return entry.key;
  return std::nullopt;
}

llvm::ArrayRef<MetricKey> waveasm::getDefaultMetricOrder() {
  static const MetricKey order[] = {
      MetricKey::PeakVGPR, MetricKey::WaitcntsInserted, MetricKey::NopsInserted,
      MetricKey::TotalInstructions};
  return order;
}

int64_t waveasm::getMetric(const ProgramMetrics &m, MetricKey key) {
  switch (key) {
  case MetricKey::PeakVGPR:
    return m.peak_vgpr;
  case MetricKey::PeakSGPR:
    return m.peak_sgpr;
  case MetricKey::PeakAGPR:
    return m.peak_agpr;
  case MetricKey::NopsInserted:
    return m.nops_inserted;
  case MetricKey::WaitcntsInserted:
    return m.waitcnts_inserted;
  case MetricKey::TotalInstructions:
    return m.total_instructions;
  case MetricKey::EstCycles:
    return m.est_cycles;
  case MetricKey::Occupancy:
    return m.occupancy;
  }
  return 0;
}

int waveasm::compareMetrics(const ProgramMetrics &a, const ProgramMetrics &b,
                            llvm::ArrayRef<MetricKey> keyOrder) {
  for (MetricKey key : keyOrder) {
    int64_t x = getMetric(a, key), y = getMetric(b, key);
    if (x == y)
      continue;
    bool aBetter = key == MetricKey::Occupancy ? x > y : x < y;
    return aBetter ? -1 : 1;
  }
  return 0;
}

bool waveasm::isBetter(const ProgramMetrics &a, const ProgramMetrics &b,
                       llvm::ArrayRef<MetricKey> keyOrder) {
  return compareMetrics(a, b, keyOrder) < 0;
}
