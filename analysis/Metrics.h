//===- Metrics.h - what a compiled program is judged by ---------*- C++ -*-===//
//
// The numbers the Conductor compares schedules by, and their JSON form:
//   {"programs": [{"name", "peak_vgpr", "peak_sgpr", "peak_agpr",
//                  "nops_inserted", "waitcnts_inserted",
//                  "total_instructions", "est_cycles",
//                  "lower_bound_cycles", "bound_kind", "occupancy",
//                  "loops": [{"est_cycles_per_iter", "steady_iterations",
//                             "trip_count", "trip_count_source",
//                             "lower_bound_cycles", "bound_kind",
//                             "resource_bound_cycles", "busiest_unit",
//                             "recurrence_bound_cycles",
//                             "memory_recurrence_bound_cycles",
//                             "latency_limited_cycles", "prefetch_distance",
//                             "max_prefetch_distance", "critical_path",
//                             "coaccess_cost", "coaccess_modularity",
//                             "coaccess_clusters"}]}]}
// Field names follow those keys. The pipeline layer measures the register
// peaks (computePhysicalPeaks on allocated IR) and the inserted nops/waits
// and instruction count; the cycle model supplies the timing fields; the
// co-access figures (OrderCost.h) are of the loop body as written, the order
// a schedule chooses (addCoAccessMetrics).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_METRICS_H
#define WAVEASM_ANALYSIS_METRICS_H

#include "analysis/CycleModel.h"

#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace waveasm {

struct LoopMetrics {
  int64_t est_cycles_per_iter = 0; // steady-state cycles of one iteration
  int64_t steady_iterations = 0;   // iterations the model simulated for it
  int64_t trip_count = 1;          // TripCount.h: runs of the body
  std::string trip_count_source;   // "attribute", "inferred", "default"
  int64_t lower_bound_cycles = 0;  // max of the three bounds, per iteration
  std::string bound_kind; // busiest_unit, "recurrence", "memory recurrence"
  int64_t resource_bound_cycles = 0; // busiest unit (or issue), must-execute
  std::string busiest_unit;
  int64_t recurrence_bound_cycles = 0; // loop-carried dependence cycles
  // A store to bytes the next iteration's load may read (LoopBounds.h).
  int64_t memory_recurrence_bound_cycles = 0;
  // Not a bound: what the global-load latency allows with the deepest
  // prefetch the VGPR file holds at the program's occupancy
  // (LoopBounds.h computeLatencyLimit); 0 when no VMEM load writes VGPRs.
  int64_t latency_limited_cycles = 0;
  int64_t prefetch_distance = 0;     // as written (LoopBounds.h)
  int64_t max_prefetch_distance = 0; // the deepest the budget allows
  int64_t critical_path = 0;         // one iteration
  // The body's co-access graph in its input order: C(pi), Q of the best
  // contiguous clustering, and how many clusters that is (OrderCost.h).
  double coaccess_cost = 0;
  double coaccess_modularity = 0;
  int64_t coaccess_clusters = 0;

  bool operator==(const LoopMetrics &other) const;
};

/// What limits occupancy (analysis/Occupancy.h), for the metrics JSON:
/// `occupancy_limit: {limited_by, summary, waves: {vgpr, sgpr, lds,
/// workgroup}, next_wave: {cut, waves}}`.
struct OccupancyLimitMetrics {
  std::string limited_by; // "VGPR", "SGPR", "LDS", "workgroup size", ...
  std::string summary;    // OccupancyExplanation::summarize()
  int64_t vgpr_waves = 0, sgpr_waves = 0, lds_waves = 0, workgroup_waves = 0;
  int64_t next_wave_cut = 0; // registers or bytes; 0: no single cut helps
  int64_t next_wave_waves = 0;

  bool operator==(const OccupancyLimitMetrics &other) const;
};

struct ProgramMetrics {
  std::string name;
  int64_t peak_vgpr = 0;
  int64_t peak_sgpr = 0;
  int64_t peak_agpr = 0;
  int64_t nops_inserted = 0;
  int64_t waitcnts_inserted = 0;
  int64_t total_instructions = 0;
  int64_t est_cycles = 0;
  // A lower bound of est_cycles for every legal schedule of the program,
  // loops unrolled to their trip counts (LoopBoundsProgram.h), and what
  // binds it ("critical path", "issue", "MFMA", ...).
  int64_t lower_bound_cycles = 0;
  std::string bound_kind;
  int64_t occupancy = 0; // waves per SIMD, from the allocation
  OccupancyLimitMetrics occupancy_limit;
  std::vector<LoopMetrics> loops; // pre-order

  bool operator==(const ProgramMetrics &other) const;
};

//===--- computing --------------------------------------------------------===//

struct PeakRegisters {
  int64_t vgpr = 0;
  int64_t sgpr = 0;
  int64_t agpr = 0;
};

/// SPEC.md 17.4, on allocated IR: per class the maximum index + size over
/// every physical type of a result, operand or block argument (SGPR indices
/// at or above the target's maxSGPRs -- VCC and friends -- excluded); then
/// at least 16 VGPRs when `reserveScratchVGPR` (upstream always reserves
/// v15), at least 1 VGPR and 2 SGPRs, and the `min_sgprs` attribute.
PeakRegisters computePhysicalPeaks(ProgramOp program,
                                   bool reserveScratchVGPR = true);

/// What the pipeline counted on the compiled program.
struct PipelineCounts {
  PeakRegisters peaks;
  int64_t nops_inserted = 0;
  int64_t waitcnts_inserted = 0;
  int64_t total_instructions = 0;
};

/// Metrics of `program` from the pipeline's counts and `cycles` (a model of
/// the same program): est_cycles, loops, occupancy from the peaks.
ProgramMetrics computeProgramMetrics(ProgramOp program,
                                     const CycleModel &cycles,
                                     const PipelineCounts &counts,
                                     bool programBound = true);
/// Same, building the cycle model with `target`.
ProgramMetrics computeProgramMetrics(ProgramOp program,
                                     const TargetModel &target,
                                     const PipelineCounts &counts);

/// The co-access figures of `source`'s loop bodies (pre-order, as written)
/// into `metrics.loops`, which must be the compiled program's loops of the
/// same program (pre-order; the loops the pipeline keeps). Nothing when the
/// loop counts differ.
void addCoAccessMetrics(ProgramOp source, ProgramMetrics &metrics);

/// Instructions the program issues (ops that take an issue slot; s_nop
/// counts once).
int64_t countInstructions(ProgramOp program);

//===--- comparing --------------------------------------------------------===//

enum class MetricKey : uint8_t {
  PeakVGPR,
  PeakSGPR,
  PeakAGPR,
  NopsInserted,
  WaitcntsInserted,
  TotalInstructions,
  EstCycles,
  Occupancy, // the only key where more is better
};

/// The JSON key name ("peak_vgpr", ...).
llvm::StringRef stringifyMetricKey(MetricKey key);
std::optional<MetricKey> parseMetricKey(llvm::StringRef name);
/// peak_vgpr, waitcnts_inserted, nops_inserted, total_instructions
/// (SCHEDULING-FACTS.md).
llvm::ArrayRef<MetricKey> getDefaultMetricOrder();

int64_t getMetric(const ProgramMetrics &metrics, MetricKey key);
/// <0 if `a` is better than `b` at the first key where they differ, >0 if
/// worse, 0 if equal on every key.
int compareMetrics(const ProgramMetrics &a, const ProgramMetrics &b,
                   llvm::ArrayRef<MetricKey> keyOrder);
/// Lexicographic: `a` is strictly better than `b`.
bool isBetter(const ProgramMetrics &a, const ProgramMetrics &b,
              llvm::ArrayRef<MetricKey> keyOrder = getDefaultMetricOrder());

//===--- JSON -------------------------------------------------------------===//

llvm::json::Value toJSON(const LoopMetrics &metrics);
llvm::json::Value toJSON(const ProgramMetrics &metrics);
llvm::json::Value toJSON(const OccupancyLimitMetrics &metrics);
bool fromJSON(const llvm::json::Value &value, OccupancyLimitMetrics &metrics,
              llvm::json::Path path);
bool fromJSON(const llvm::json::Value &value, LoopMetrics &metrics,
              llvm::json::Path path);
bool fromJSON(const llvm::json::Value &value, ProgramMetrics &metrics,
              llvm::json::Path path);

/// {"programs": [...]}.
llvm::json::Value metricsToJSON(llvm::ArrayRef<ProgramMetrics> programs);
void writeMetricsJSON(llvm::raw_ostream &os,
                      llvm::ArrayRef<ProgramMetrics> programs,
                      bool pretty = true);
llvm::Expected<std::vector<ProgramMetrics>>
parseMetricsJSON(llvm::StringRef text);

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_METRICS_H
