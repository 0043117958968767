//===- Hover.cpp - what an instruction or a value is ----------------------===//
//
// Static facts come from the parsed IR (InstInfoOpInterface, types); the
// timing, live registers and the allocator's registers from a fresh
// compiled snapshot, when there is one; a loop's co-access figures from
// its body as written.
//
//===----------------------------------------------------------------------===//

#include "server/Features.h"
#include "server/features/BankConflicts.h"
#include "server/features/Common.h"
#include "server/features/Pipelining.h"

#include "analysis/OrderCost.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::server;
using namespace waveasm::server::common;

namespace {

std::string memSpaces(unsigned mask) {
  std::string text;
  auto add = [&](unsigned bit, const char *name) {
    if (mask & bit)
      text += text.empty() ? name : std::string(", ") + name;
  };
  add(MemGlobal, "global");
  add(MemLDS, "LDS");
  add(MemScalar, "scalar");
  return text;
}

std::string implicitRegs(unsigned mask) {
  std::string text;
  auto add = [&](unsigned bit, const char *name) {
    if (mask & bit)
      text += text.empty() ? name : std::string(", ") + name;
  };
  add(ImpSCC, "SCC");
  add(ImpVCC, "VCC");
  add(ImpEXEC, "EXEC");
  add(ImpM0, "M0");
  return text;
}

const char *counterName(WaitCounter counter) {
  switch (counter) {
  case WaitCounter::None:
    return "";
  case WaitCounter::VMCnt:
    return "vmcnt";
  case WaitCounter::LGKMCnt:
    return "lgkmcnt";
  case WaitCounter::VMAndLGKM:
    return "vmcnt and lgkmcnt";
  }
  return "";
}

/// "line 12" for a value's definition.
std::string defLine(const ParsedDocument &parsed, Value value) {
  if (std::optional<lsp::Range> def = getValueDefRange(parsed, value))
    return "line " + std::to_string(def->start.line + 1);
  return "";
}

/// Lines of the uses of `value` as written ("lines 4, 7"), at most 8.
std::string useLines(const ValueEntry &entry) {
  if (entry.uses.empty())
    return "unused";
  std::vector<int> lines;
  for (const lsp::Range &use : entry.uses)
    if (lines.empty() || lines.back() != use.start.line)
      lines.push_back(use.start.line);
  std::string text = std::to_string(entry.uses.size()) +
                     (entry.uses.size() == 1 ? " use" : " uses") +
                     (lines.size() == 1 ? ", line" : ", lines");
  for (auto [i, line] : llvm::enumerate(lines)) {
    if (i == 8) {
      text += ", ...";
      break;
    }
    text += (i ? ", " : " ") + std::to_string(line + 1);
  }
  return text;
}

/// The allocator's registers for a compiled value, or why there are none.
std::string allocated(Value compiledValue) {
  if (!compiledValue)
    return "";
  Type type = compiledValue.getType();
  if (!getRegClass(type))
    return "";
  if (isPhysicalReg(type))
    return formatRegisters(type);
  return "not allocated";
}

/// A program's occupancy: the allocation's registers against each limit,
/// the binding one and what gains the next wave.
void describeOccupancy(llvm::raw_ostream &os, const ParsedDocument &parsed,
                       const CompiledDocument &compiled, unsigned idx) {
  for (const CompiledProgramInfo &program : compiled.getPrograms()) {
    if (program.entry != idx)
      continue;
    const ProgramMetrics &m = program.result.metrics;
    const OccupancyLimitMetrics &limit = m.occupancy_limit;
    auto programOp = cast<ProgramOp>(parsed.getOps()[idx].op);
    // The program's figure against what no schedule of its ops beats: a
    // short counted loop has no steady state to compare with its per
    // iteration bound (analysis/LoopBoundsProgram.h).
    os << "**Program**: " << m.est_cycles
       << " issue slots (4 clocks each); lower bound " << m.lower_bound_cycles
       << " (" << m.bound_kind
       << "; every schedule, loops unrolled to their trip counts)\n\n";
    os << "**Occupancy**: " << limit.summary << "\n\n"
       << "| limit | uses (allocated) | waves per SIMD |\n|---|---|---|\n"
       << "| VGPR file | v " << m.peak_vgpr << " · a " << m.peak_agpr << " | "
       << limit.vgpr_waves << " |\n"
       << "| SGPR | " << m.peak_sgpr << " | " << limit.sgpr_waves << " |\n"
       << "| LDS | ";
    if (std::optional<uint64_t> lds = programOp.getLdsSize())
      os << *lds << " bytes per workgroup";
    else
      os << "none";
    os << " | " << limit.lds_waves << " |\n| workgroup size | ";
    if (std::optional<ArrayAttr> size = programOp.getWorkgroupSize())
      llvm::interleave(
          *size, os,
          [&](Attribute dim) { os << cast<IntegerAttr>(dim).getInt(); }, "×");
    else
      os << "256 (default)";
    os << " | " << limit.workgroup_waves << " |\n\n";
    return;
  }
}

void describeOp(llvm::raw_ostream &os, const ParsedDocument &parsed,
                const CompiledDocument *compiled, unsigned idx) {
  const OpEntry &entry = parsed.getOps()[idx];
  Operation *op = entry.op;
  os << "### " << op->getName().getStringRef() << "\n\n";
  const CompiledOpInfo *info = compiled ? compiled->lookup(idx) : nullptr;
  auto facts = dyn_cast<InstInfoOpInterface>(op);
  if (facts) {
    os << "**Unit** " << getUnitName(facts.getExecUnit())
       << " · latency class `" << stringifyLatencyClass(facts.getLatencyClass())
       << "`";
    if (info && info->annotation)
      os << " · **lat " << info->annotation->latency << "** slots";
    if (entry.tag >= 0)
      os << " · tag `" << formatConductorTag(entry.tag) << "`";
    os << "\n\n";
    std::string reads = memSpaces(facts.getMemReads());
    std::string writes = memSpaces(facts.getMemWrites());
    if (!reads.empty() || !writes.empty()) {
      os << "Memory:";
      if (!reads.empty())
        os << " reads " << reads;
      if (!writes.empty())
        os << (reads.empty() ? " writes " : "; writes ") << writes;
      if (facts.getWaitCounter() != WaitCounter::None)
        os << "; completes on " << counterName(facts.getWaitCounter());
      os << "\n\n";
    }
    std::string impUses = implicitRegs(facts.getImplicitUses());
    std::string impDefs = implicitRegs(facts.getImplicitDefs());
    if (!impUses.empty() || !impDefs.empty()) {
      os << "Implicit:";
      if (!impUses.empty())
        os << " reads " << impUses;
      if (!impDefs.empty())
        os << (impUses.empty() ? " writes " : "; writes ") << impDefs;
      os << "\n\n";
    }
    if (facts.isPinned())
      os << "Pinned: a scheduler does not move it.\n\n";
  }

  Operation *copy = info ? info->compiled : nullptr;
  bool showAlloc = copy != nullptr;
  auto row = [&](const char *role, Value value, Value compiledValue) {
    os << "| " << role << " | `" << getValueName(parsed, value) << "` | `"
       << printType(value.getType()) << "` | "
       << formatRegClass(value.getType());
    if (showAlloc)
      os << " | " << allocated(compiledValue);
    os << " |\n";
  };
  if (op->getNumResults() + op->getNumOperands() > 0 &&
      op->getNumRegions() == 0) {
    os << "| | value | type | class" << (showAlloc ? " | allocated" : "")
       << " |\n|---|---|---|---" << (showAlloc ? "|---" : "") << "|\n";
    for (OpResult result : op->getResults())
      row("def", result,
          copy && result.getResultNumber() < copy->getNumResults()
              ? copy->getResult(result.getResultNumber())
              : Value());
    for (OpOperand &operand : op->getOpOperands())
      row("use", operand.get(),
          copy && operand.getOperandNumber() < copy->getNumOperands()
              ? copy->getOperand(operand.getOperandNumber())
              : Value());
    os << "\n";
  }

  if (compiled && isa<ProgramOp>(op))
    describeOccupancy(os, parsed, *compiled, idx);
  if (info && isa<LoopOp>(op)) {
    const ProgramAnnotations &ann =
        *compiled->getPrograms()[info->program].annotations;
    if (const LoopTiming *loop =
            ann.getCycleModel().getLoopTiming(cast<LoopOp>(info->compiled))) {
      os << "**Loop**: " << loop->steadyStateCycles
         << " issue slots (4 clocks each) per iteration in the steady state "
            "(first iteration "
         << loop->firstIterationCycles
         << formatPerInputIteration(loop->loop, loop->steadyStateCycles)
         << "); trip count " << loop->tripCount.count << " ("
         << stringifyTripCountSource(loop->tripCount.source)
         << "); lower bound " << loop->lowerBoundCycles << " ("
         << describeBoundKind(*loop) << "; resource "
         << loop->resourceBoundCycles << " " << loop->busiestUnit
         << ", recurrence " << loop->recurrenceBoundCycles;
      if (loop->memoryRecurrenceBoundCycles)
        os << ", memory recurrence " << loop->memoryRecurrenceBoundCycles;
      os << "); critical path " << loop->criticalPath << "\n\n";
    }
    if (const LoopOptimizationEffect *effect = findLoopEffect(
            *compiled, info->program, cast<LoopOp>(info->compiled)))
      os << formatLoopEffectHover(*effect) << "\n";
  }
  if (auto loop = dyn_cast<LoopOp>(op)) {
    // Of the body as written (the order a schedule changes), so it needs no
    // compile; cheap next to the pipeline (OrderCost.h).
    CoAccessSummary coaccess = summarizeCoAccess(loop.getBodyBlock());
    os << llvm::formatv("**Co-access** (body as written): C(π) = {0:f1} over "
                        "{1} edges; modularity Q = {2:f3} in {3} clusters\n\n",
                        coaccess.cost, coaccess.edges, coaccess.modularity,
                        coaccess.clusters);
  }
  if (info && info->annotation && info->annotation->issueCycles > 0) {
    EffectiveTiming t = getEffectiveTiming(*info);
    os << "**Timing**: issues at slot " << t.issueCycle
       << (t.steady ? " of its loop's steady-state iteration" : "")
       << ", stall " << t.stall + t.waited;
    if (t.waited)
      os << " (" << t.waited << " in inserted waits)";
    os << "\n\n";
    const RegCounts &live = info->annotation->liveAfter;
    os << "**Live after**: v " << live.vgprs() << " · s " << live.sgprs()
       << " · a " << live.agprs() << "\n\n";
  }
  if (info && info->compiled && isa<InstInfoOpInterface>(info->compiled) &&
      cast<InstInfoOpInterface>(info->compiled).getExecUnit() ==
          ExecUnit::LDS) {
    // The analysis the cycle model charged, kept with it.
    const ProgramAnnotations &ann =
        *compiled->getPrograms()[info->program].annotations;
    os << formatBankConflictHover(ann.getCycleModel().getLdsBankConflicts(),
                                  info->compiled);
  }
  // Uses of the results, as written.
  for (OpResult result : op->getResults()) {
    std::optional<unsigned> v = parsed.lookupValue(result);
    if (!v)
      continue;
    const ValueEntry &value = parsed.getValues()[*v];
    if (value.value != result)
      continue; // one line per result group
    os << "`" << value.name << "`: " << useLines(value) << "\n\n";
  }
}

void describeValue(llvm::raw_ostream &os, const ParsedDocument &parsed,
                   const CompiledDocument *compiled, const ValueEntry &entry,
                   Value value) {
  os << "### " << getValueName(parsed, value) << " : `"
     << printType(value.getType()) << "`\n\n";
  os << "Class: " << formatRegisters(value.getType()) << "\n\n";
  if (entry.owner != OpEntry::kNone) {
    const OpEntry &owner = parsed.getOps()[entry.owner];
    os << (entry.isBlockArg ? "Block argument of `" : "Defined by `")
       << owner.op->getName().getStringRef() << "` at line "
       << owner.name.start.line + 1 << "\n\n";
  }
  os << "Uses: " << useLines(entry) << "\n\n";
  if (!compiled)
    return;
  Value copy = getCompiledValue(parsed, *compiled, value);
  if (!copy)
    return;
  if (std::string regs = allocated(copy); !regs.empty())
    os << "Allocated: " << regs << "\n\n";
  std::optional<unsigned> entryIdx = entry.owner == OpEntry::kNone
                                         ? std::nullopt
                                         : std::optional<unsigned>(entry.owner);
  const CompiledOpInfo *info = entryIdx ? compiled->lookup(*entryIdx) : nullptr;
  if (!info)
    return;
  const ProgramAnnotations &ann =
      *compiled->getPrograms()[info->program].annotations;
  std::optional<LiveRange> range = ann.getLiveness().getRange(copy);
  if (!range)
    return;
  auto lineOf = [&](unsigned point) -> int {
    Operation *op = ann.getIndex().getOp(point);
    std::optional<unsigned> e = getEntryFor(*compiled, op);
    return e ? getDisplayLine(parsed, *e) : 0;
  };
  os << "**Live range**: " << range->end - range->start
     << " instructions (program points " << range->start << "–" << range->end
     << ", lines " << lineOf(range->start) << "–" << lineOf(range->end)
     << ")\n\n";
}

/// The definition of a result group `%x:2`: each result's type.
void describeGroup(llvm::raw_ostream &os, const ParsedDocument &parsed,
                   const ValueEntry &entry) {
  os << "### " << entry.name << ":" << entry.numValues << "\n\n";
  Operation *op = entry.value.getDefiningOp();
  unsigned first = cast<OpResult>(entry.value).getResultNumber();
  for (unsigned i = 0; i < entry.numValues; ++i) {
    Value result = op->getResult(first + i);
    os << "- `" << entry.name << "#" << i << "` : `"
       << printType(result.getType()) << "` ("
       << formatRegisters(result.getType()) << ")\n";
  }
  os << "\nDefined by `" << op->getName().getStringRef()
     << "`; uses: " << useLines(entry) << "\n";
}

} // namespace

std::optional<lsp::Hover> waveasm::server::computeHover(
    const ParsedDocument &parsed, const CompiledDocument *compiled,
    lsp::Position pos, const DocumentProfile *profile) {
  compiled = freshOrNull(parsed, compiled);
  if (compiled && !compiled->succeeded())
    compiled = nullptr;
  std::string text;
  llvm::raw_string_ostream os(text);
  lsp::Hover hover;
  if (const NameOccurrence *occ = parsed.findOccurrenceAt(pos)) {
    const ValueEntry &entry = parsed.getValues()[occ->value];
    Value value = entry.value;
    // `%x#1`: the use names result 1 of the group.
    if (!entry.isBlockArg && entry.numValues > 1) {
      size_t end = parsed.getLines().getOffset(occ->range.end);
      StringRef rest = parsed.getText().drop_front(end);
      unsigned number = 0;
      if (rest.consume_front("#") && !rest.consumeInteger(10, number) &&
          number < entry.numValues)
        value = value.getDefiningOp()->getResult(
            cast<OpResult>(value).getResultNumber() + number);
    }
    if (occ->isDef && !entry.isBlockArg && entry.numValues > 1)
      describeGroup(os, parsed, entry);
    else
      describeValue(os, parsed, compiled, entry, value);
    hover.range = occ->range;
  } else if (unsigned idx = parsed.findOpNameAt(pos); idx != OpEntry::kNone) {
    describeOp(os, parsed, compiled, idx);
    // The profile's rows for this op, as their hints' tooltips say them.
    if (profile)
      for (const OpProfile &row :
           correlateDocumentProfile(parsed, compiled, profile->rows))
        if (row.opEntry == idx)
          os << "\n\n---\n\n"
             << makeProfileHint(row, profile->path, {}).tooltip;
    hover.range = parsed.getOps()[idx].name;
  } else {
    return std::nullopt;
  }
  hover.contents.kind = lsp::MarkupKind::Markdown;
  hover.contents.value = std::move(text);
  return hover;
}
