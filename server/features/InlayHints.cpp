//===- InlayHints.cpp - latency, stall, live registers, tags --------------===//
//
// One hint per kind after each instruction in the requested range. The ops
// are found by binary search in the document's op index and the numbers
// are read from the compiled snapshot's per-op table: the cost is
// proportional to the range, not the document.
//
//===----------------------------------------------------------------------===//

#include "server/Features.h"
#include "server/features/Common.h"

#include "analysis/LoopStages.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::server;
using namespace waveasm::server::common;

namespace {

// U+00B7 MIDDLE DOT between the numbers of one hint.
constexpr const char *kSep = " \xC2\xB7 ";

std::string describeStallReason(StallReason reason) {
  switch (reason) {
  case StallReason::None:
    return "";
  case StallReason::Operand:
    return "waiting for a register operand";
  case StallReason::UncoveredLoad:
    return "waiting for load data no s_waitcnt covers";
  case StallReason::MFMAPipe:
    return "waiting for the previous MFMA to leave the MFMA pipe";
  case StallReason::MFMACoIssue:
    return "waiting out the VALU co-issue gap after an MFMA";
  case StallReason::WaitCnt:
    return "waiting for memory counters";
  }
  return "";
}

lsp::InlayHint makeLatencyHint(const CompiledDocument &compiled,
                               const CompiledOpInfo &info, lsp::Position at) {
  EffectiveTiming t = getEffectiveTiming(info);
  int64_t stall = t.stall + t.waited;
  lsp::InlayHint hint;
  hint.position = at;
  hint.label = "lat " + std::to_string(t.latency);
  if (stall > 0)
    hint.label += kSep + ("stall " + std::to_string(stall));
  hint.paddingLeft = true;

  std::string tip;
  llvm::raw_string_ostream os(tip);
  os << "**Latency " << t.latency << "**: issue slots (4 clocks each) from "
     << "issue until the result "
     << "can be read (" << getUnitName(info.annotation->unit) << ", "
     << compiled.getPrograms()[info.program].annotations->getTarget().arch->name
     << " model).\n\n";
  os << "**Stall " << stall << "**: slots this instruction waits before it "
     << "issues";
  if (t.stall > 0)
    os << "; " << t.stall << " " << describeStallReason(t.reason);
  if (t.waited > 0) {
    os << "; " << t.waited << " in the";
    for (Operation *op : info.insertedBefore)
      os << " `" << getShortText(op) << "`";
    os << " the pipeline inserted before it";
  }
  os << ".\n\nIssues at slot " << t.issueCycle
     << (t.steady ? " of the steady-state iteration of its loop."
                  : " of the program.");
  hint.tooltip = std::move(tip);
  return hint;
}

lsp::InlayHint makePressureHint(const CompiledDocument &compiled,
                                const CompiledOpInfo &info, lsp::Position at) {
  const RegCounts &live = info.annotation->liveAfter;
  const ProgramAnnotations &ann =
      *compiled.getPrograms()[info.program].annotations;
  lsp::InlayHint hint;
  hint.position = at;
  hint.label = "v " + std::to_string(live.vgprs()) + kSep + "s " +
               std::to_string(live.sgprs());
  // AGPRs only in programs that use them: the same columns on every line.
  if (ann.getPeak(RegClass::AGPR).regs > 0)
    hint.label += kSep + ("a " + std::to_string(live.agprs()));
  hint.paddingLeft = true;

  std::string tip;
  llvm::raw_string_ostream os(tip);
  os << "**Live after**: registers holding values still needed after this "
     << "instruction: " << live.vgprs() << " VGPRs, " << live.sgprs()
     << " SGPRs, " << live.agprs() << " AGPRs (values whose last use is here "
     << "are not counted).\n\nProgram peak of live values: "
     << ann.getPeak(RegClass::VGPR).regs << " VGPRs, "
     << ann.getPeak(RegClass::SGPR).regs << " SGPRs, "
     << ann.getPeak(RegClass::AGPR).regs << " AGPRs; they alone would allow "
     << ann.getOccupancy()
     << " waves per SIMD (the occupancy of the allocated kernel is in the "
        "program's code lens).";
  hint.tooltip = std::move(tip);
  return hint;
}

lsp::InlayHint makeTagHint(int tag, lsp::Position at) {
  lsp::InlayHint hint;
  hint.position = at;
  hint.label = formatConductorTag(tag);
  hint.paddingLeft = true;
  hint.tooltip = "**Conductor tag** `" + hint.label + "`: this is op number " +
                 std::to_string(tag) +
                 " of its block, counting from 0. Conductor moves and code "
                 "actions name ops by these tags.";
  return hint;
}

/// `st0 c1` for an op with loop-stage annotations (analysis/LoopStages.h),
/// read from the parse: a stage edited by hand shows at once, and
/// `waveasm-pipeline-loops` honours it (or says which rule it breaks).
std::optional<lsp::InlayHint> makeStageHint(Operation *op, lsp::Position at) {
  auto stage = op->getAttrOfType<IntegerAttr>(kStageAttrName);
  if (!stage)
    return std::nullopt;
  lsp::InlayHint hint;
  hint.position = at;
  hint.label = "st" + std::to_string(stage.getInt());
  auto cluster = op->getAttrOfType<IntegerAttr>(kClusterAttrName);
  if (cluster)
    hint.label += " c" + std::to_string(cluster.getInt());
  hint.paddingLeft = true;
  hint.tooltip = "**Pipeline stage** " + std::to_string(stage.getInt()) +
                 (cluster ? ", cluster " + std::to_string(cluster.getInt())
                          : std::string()) +
                 ": once the loop is software-pipelined "
                 "(`--waveasm-pipeline-loops`), this op runs for the "
                 "iteration that started this many steps earlier. Edit "
                 "`waveasm.stage` to move it; the pass checks the change.";
  return hint;
}

/// Where an op's hints go: after its text. The parser's scope end stops
/// before the body of a trailing dialect type (`!waveasm.vreg<4, 4>`), and
/// hints there would split the type; so they go to the end of the code on
/// that line (before a trailing comment), unless another op starts later
/// on the same line.
lsp::Position hintPosition(const ParsedDocument &parsed,
                           llvm::ArrayRef<OpEntry> ops, unsigned i) {
  lsp::Position end = ops[i].scope.end;
  if (i + 1 < ops.size() && ops[i + 1].name.start.line == end.line)
    return end;
  llvm::StringRef line = parsed.getLines().getLine(end.line);
  size_t codeEnd = std::min(line.find("//"), line.size());
  int character = utf16Length(line.take_front(codeEnd).rtrim());
  if (character > end.character)
    end.character = character;
  return end;
}

} // namespace

std::vector<lsp::InlayHint> waveasm::server::computeInlayHints(
    const ParsedDocument &parsed, const CompiledDocument *compiled,
    lsp::Range range, const ServerSettings &settings,
    const DocumentProfile *profile) {
  std::vector<lsp::InlayHint> hints;
  compiled = freshOrNull(parsed, compiled);
  // Profile rows by op entry, sorted: walked along with the ops below.
  std::vector<OpProfile> profiled;
  if (profile && settings.hintProfile)
    profiled = correlateDocumentProfile(parsed, compiled, profile->rows);
  auto nextProfiled = profiled.begin();
  bool numbers = compiled && compiled->succeeded() &&
                 (settings.hintLatency || settings.hintPressure);
  auto [begin, end] = parsed.getOpsOnLines(range.start.line, range.end.line);
  llvm::ArrayRef<OpEntry> ops = parsed.getOps();
  for (unsigned i = begin; i < end; ++i) {
    const OpEntry &entry = ops[i];
    // Structure ops get code lenses instead.
    if (entry.op->getNumRegions() != 0)
      continue;
    lsp::Position at = hintPosition(parsed, ops, i);
    const CompiledOpInfo *info = numbers ? compiled->lookup(i) : nullptr;
    if (info && info->annotation && info->annotation->issueCycles > 0) {
      if (settings.hintLatency)
        hints.push_back(makeLatencyHint(*compiled, *info, at));
      if (settings.hintPressure)
        hints.push_back(makePressureHint(*compiled, *info, at));
    }
    if (auto stage = makeStageHint(entry.op, at))
      hints.push_back(std::move(*stage));
    if (settings.hintTag && entry.tag >= 0)
      hints.push_back(makeTagHint(entry.tag, at));
    while (nextProfiled != profiled.end() && nextProfiled->opEntry < i)
      ++nextProfiled;
    for (; nextProfiled != profiled.end() && nextProfiled->opEntry == i;
         ++nextProfiled)
      hints.push_back(makeProfileHint(*nextProfiled, profile->path, at));
  }
  return hints;
}
