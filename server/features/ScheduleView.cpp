//===- ScheduleView.cpp - the data behind the pictures of a schedule ------===//
//
// waveasm/schedule and `check --format html` draw what the background
// compile's ProgramAnnotations already know: per issued op its unit, issue
// slot, stall and latency, and the registers occupied. A view is one frame
// of timing: the program timeline, or the steady-state iteration of one
// loop (the issue slots the cycle model reports relative to that
// iteration's start). A loop nested in the frame has its own view and
// shows here as one summary row, so no instruction is drawn twice and a
// 20,000-instruction file makes 20,000 rows, not one per enclosing frame.
//
//===----------------------------------------------------------------------===//

#include "server/Features.h"
#include "server/features/Common.h"

#include "analysis/Occupancy.h"
#include "protocol/LspJSON.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::server;
using namespace waveasm::server::common;
using llvm::json::Array;
using llvm::json::Object;

namespace {

void maxInto(RegCounts &into, const RegCounts &other) {
  for (unsigned c = 0; c < 3; ++c)
    into.regs[c] = std::max(into.regs[c], other.regs[c]);
}

/// The input op a compiled op is shown as, and whether the pipeline
/// inserted it.
void placeRow(const ParsedDocument &parsed, const CompiledDocument &compiled,
              Operation *op, ScheduleRow &row) {
  std::optional<unsigned> own = compiled.lookupCompiled(op);
  std::optional<unsigned> entry = own ? own : getEntryFor(compiled, op);
  row.inserted = !own;
  if (!entry)
    return;
  row.opEntry = *entry;
  row.range = parsed.getOps()[*entry].name;
  row.line = getDisplayLine(parsed, *entry);
}

ScheduleView buildView(const ParsedDocument &parsed,
                       const CompiledDocument &compiled, unsigned programNo,
                       std::optional<unsigned> loopSlot) {
  const CompiledProgramInfo &program = compiled.getPrograms()[programNo];
  const ProgramAnnotations &ann = *program.annotations;
  const ProgramIndex &index = ann.getIndex();
  const CycleModel &cycles = ann.getCycleModel();
  llvm::ArrayRef<OpFacts> facts = cycles.getOpFacts();
  llvm::ArrayRef<InstAnnotation> all = ann.getAll();

  ScheduleView view;
  view.program = programNo;
  view.programName = ann.getProgram().getSymName().str();
  view.loop = loopSlot;
  view.ownerEntry = program.entry;
  view.occupancy = program.result.metrics.occupancy;
  unsigned first = 0, last = index.getNumOps();
  bool steady = loopSlot.has_value();
  std::string where = "@" + view.programName;
  if (loopSlot) {
    const LoopTiming &loop = ann.getLoops()[*loopSlot];
    first = loop.index + 1;
    last = index.getSubtreeEnd(loop.index) + 1;
    view.cycles = loop.steadyStateCycles;
    std::optional<unsigned> entry = compiled.lookupCompiled(loop.loop);
    if (entry)
      view.ownerEntry = *entry;
    where += llvm::formatv(" loop at line {0} (trip {1}, steady state)",
                           entry ? getDisplayLine(parsed, *entry) : 0,
                           loop.tripCount.count);
  } else {
    view.cycles = ann.getTotalCycles();
  }
  view.title = std::move(where);
  view.range = parsed.getOps()[view.ownerEntry].name;

  // Registers occupied since the last row: ops that issue nothing (and a
  // nested loop's body) still hold registers, and the peak must not hide
  // between rows.
  RegCounts pending;
  for (unsigned i = first; i < last; ++i) {
    Operation *op = index.getOp(i);
    const InstAnnotation &a = all[i];
    maxInto(pending, a.pressure);
    if (auto nested = dyn_cast<LoopOp>(op)) {
      unsigned end = index.getSubtreeEnd(i);
      for (unsigned j = i + 1; j <= end; ++j)
        maxInto(pending, all[j].pressure);
      ScheduleRow row;
      row.point = i;
      placeRow(parsed, compiled, op, row);
      const LoopTiming *timing = cycles.getLoopTiming(nested);
      int64_t trip = timing ? timing->tripCount.count : 1;
      row.loop = true;
      row.mnemonic = "loop";
      row.text = llvm::formatv("loop ({0} ops, trip {1})", end - i, trip);
      row.issue = steady ? a.steadyIssueCycle : a.issueCycle;
      row.busy =
          timing
              ? std::max<int64_t>(1, timing->firstIterationCycles +
                                         (trip - 1) * timing->steadyStateCycles)
              : 1;
      row.pressure = pending;
      pending = RegCounts();
      view.rows.push_back(std::move(row));
      i = end;
      continue;
    }
    if (!a.issued)
      continue;
    ScheduleRow row;
    row.point = i;
    placeRow(parsed, compiled, op, row);
    row.mnemonic = getMnemonic(op).str();
    row.text = getShortText(op);
    row.unit = a.unit;
    row.issue = steady ? a.steadyIssueCycle : a.issueCycle;
    row.stall = steady ? a.steadyStall : a.stall;
    row.stallReason = steady ? a.steadyStallReason : a.stallReason;
    row.latency = a.latency;
    row.busy = std::max<int64_t>({1, facts[i].occupancy, a.issueCycles});
    row.pressure = pending;
    pending = RegCounts();
    if (a.unit != ExecUnit::None)
      view.unitBusy[static_cast<unsigned>(a.unit)] += row.busy;
    view.rows.push_back(std::move(row));
  }
  if (!view.rows.empty())
    maxInto(view.rows.back().pressure, pending);

  view.peakRow.fill(view.rows.size());
  for (auto [r, row] : llvm::enumerate(view.rows))
    for (unsigned c = 0; c < 3; ++c)
      if (view.peakRow[c] == view.rows.size() ||
          row.pressure.regs[c] > view.peak.regs[c]) {
        view.peak.regs[c] = row.pressure.regs[c];
        view.peakRow[c] = r;
      }

  const TargetModel &target = ann.getTarget();
  for (auto [vgprs, waves] : target.vgprOccupancy)
    view.thresholds.push_back({vgprs, std::min(waves, target.maxWavesPerSIMD)});
  view.mfmaBusy = view.unitBusy[static_cast<unsigned>(ExecUnit::MFMA)];
  if (view.cycles > 0)
    view.mfmaUtilization =
        std::min(1.0, double(view.mfmaBusy) / double(view.cycles));
  return view;
}

/// The slot of `loop` (a compiled op) among the program's loop timings.
std::optional<unsigned> findLoopSlot(const ProgramAnnotations &ann,
                                     Operation *loop) {
  for (auto [slot, timing] : llvm::enumerate(ann.getLoops()))
    if (LoopOp(timing.loop).getOperation() == loop)
      return slot;
  return std::nullopt;
}

} // namespace

std::optional<ScheduleView>
waveasm::server::computeScheduleView(const ParsedDocument &parsed,
                                     const CompiledDocument *compiled,
                                     std::optional<lsp::Position> pos) {
  compiled = freshOrNull(parsed, compiled);
  if (!compiled || !compiled->succeeded() || compiled->getPrograms().empty())
    return std::nullopt;
  std::optional<ScheduleTarget> target;
  if (pos)
    target = findScheduleTarget(parsed, *pos);
  if (target) {
    std::optional<unsigned> entry = parsed.lookupOp(target->owner);
    const CompiledOpInfo *info = entry ? compiled->lookup(*entry) : nullptr;
    if (info && info->compiled) {
      const ProgramAnnotations &ann =
          *compiled->getPrograms()[info->program].annotations;
      if (isa<ProgramOp>(target->owner))
        return buildView(parsed, *compiled, info->program, std::nullopt);
      if (std::optional<unsigned> slot = findLoopSlot(ann, info->compiled))
        return buildView(parsed, *compiled, info->program, slot);
      return buildView(parsed, *compiled, info->program, std::nullopt);
    }
  }
  // No position, or one outside every program: what a kernel engineer
  // looks at first, the first loop.
  const ProgramAnnotations &first = *compiled->getPrograms()[0].annotations;
  if (!first.getLoops().empty())
    return buildView(parsed, *compiled, 0, 0u);
  return buildView(parsed, *compiled, 0, std::nullopt);
}

std::vector<ScheduleView>
waveasm::server::computeAllScheduleViews(const ParsedDocument &parsed,
                                         const CompiledDocument *compiled) {
  std::vector<ScheduleView> views;
  compiled = freshOrNull(parsed, compiled);
  if (!compiled || !compiled->succeeded())
    return views;
  for (auto [p, program] : llvm::enumerate(compiled->getPrograms())) {
    views.push_back(buildView(parsed, *compiled, p, std::nullopt));
    for (unsigned slot = 0, e = program.annotations->getLoops().size();
         slot < e; ++slot)
      views.push_back(buildView(parsed, *compiled, p, slot));
  }
  return views;
}

llvm::json::Value waveasm::server::scheduleViewToJSON(const ScheduleView &view,
                                                      int64_t version,
                                                      ScheduleRender render) {
  Array rows;
  rows.reserve(view.rows.size());
  for (const ScheduleRow &row : view.rows) {
    // Flat rows (no nested objects): they are most of a big answer.
    Object item{
        {"line", row.line},
        {"text", row.text},
        {"mnemonic", row.mnemonic},
        {"unit", row.loop ? std::string("loop") : getUnitName(row.unit)},
        {"issue", row.issue},
        {"stall", row.stall},
        {"latency", row.latency},
        {"busy", row.busy},
        {"pressure", Array{row.pressure.vgprs(), row.pressure.sgprs(),
                           row.pressure.agprs()}}};
    if (row.opEntry != OpEntry::kNone)
      item["at"] = Array{row.range.start.line, row.range.start.character};
    if (row.inserted)
      item["inserted"] = true;
    if (row.loop)
      item["loop"] = true;
    if (row.stall > 0)
      item["stallReason"] = stringifyStallReason(row.stallReason);
    rows.push_back(std::move(item));
  }
  Array units;
  for (unsigned u = 0; u < kNumExecUnits; ++u)
    if (view.unitBusy[u])
      units.push_back(Object{{"unit", getUnitName(static_cast<ExecUnit>(u))},
                             {"busy", view.unitBusy[u]}});
  Object peak;
  static constexpr const char *kClasses[] = {"vgpr", "sgpr", "agpr"};
  for (unsigned c = 0; c < 3; ++c) {
    Object one{{"regs", view.peak.regs[c]}};
    one["row"] = view.peakRow[c] < view.rows.size()
                     ? llvm::json::Value(int64_t(view.peakRow[c]))
                     : llvm::json::Value(nullptr);
    peak[kClasses[c]] = std::move(one);
  }
  Array thresholds;
  for (const OccupancyThreshold &t : view.thresholds)
    thresholds.push_back(Object{{"vgprs", t.vgprs}, {"waves", t.waves}});
  Object result{{"version", version},
                {"title", view.title},
                {"program", view.programName},
                {"kind", view.loop ? "loop" : "program"},
                {"range", lsp::toJSON(view.range)},
                {"cycles", view.cycles},
                {"rows", std::move(rows)},
                {"units", std::move(units)},
                {"peak", std::move(peak)},
                {"occupancy", Object{{"waves", view.occupancy},
                                     {"thresholds", std::move(thresholds)}}},
                {"mfma", Object{{"busy", view.mfmaBusy},
                                {"utilization", view.mfmaUtilization}}}};
  if (render == ScheduleRender::SVG) {
    result["svg"] = renderScheduleSvg(view);
    result["css"] = getScheduleCss();
  } else if (render == ScheduleRender::Text) {
    result["text"] = renderScheduleText(view);
  }
  return result;
}
