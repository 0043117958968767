//===- LiveValues.cpp - what is live where, and at the peak ---------------===//
//
// waveasm/liveAt, the peak instruction's hover section, `Show live values
// at peak` and the `liveThrough` lint. All read the liveness of the program
// as written (ParsedDocument::getLiveness, analysis/Liveness.h: built once
// per document version), so they describe the text the user edits, not the
// optimized program.
//
//===----------------------------------------------------------------------===//

#include "server/Features.h"
#include "server/features/Common.h"

#include "ir/RegisterTypes.h"
#include "protocol/LspJSON.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::server;
using namespace waveasm::server::common;
using llvm::json::Array;
using llvm::json::Object;

namespace {

/// The op at `pos` whose program point the request means: the innermost op
/// around it (an op with regions stands for its header), never a program.
std::optional<unsigned> findPointOp(const ParsedDocument &parsed,
                                    lsp::Position pos) {
  unsigned entry = parsed.findOpAt(pos);
  if (entry == OpEntry::kNone || isa<ProgramOp>(parsed.getOps()[entry].op))
    return std::nullopt;
  return entry;
}

/// The op entry of `value`'s last use (latest in program order).
std::optional<unsigned> findLastUse(const ParsedDocument &parsed,
                                    const ProgramIndex &index, Value value) {
  std::optional<unsigned> best, bestIdx;
  for (Operation *user : value.getUsers()) {
    std::optional<unsigned> idx = index.lookup(user);
    if (!idx || (bestIdx && *idx <= *bestIdx))
      continue;
    if (std::optional<unsigned> entry = parsed.lookupOp(user)) {
      best = entry;
      bestIdx = idx;
    }
  }
  return best;
}

LiveValueInfo describe(const ParsedDocument &parsed, const Liveness &liveness,
                       Value value) {
  const ProgramIndex &index = liveness.getIndex();
  LiveValueInfo info;
  info.value = value;
  info.name = getValueName(parsed, value);
  Type type = value.getType();
  info.regClass = *getRegClass(type);
  info.width = getRegSize(type);
  if (isPhysicalReg(type))
    info.physical = formatRegisters(type);
  info.range = *liveness.getRange(value);
  if (std::optional<lsp::Range> def = getValueDefRange(parsed, value))
    info.definition = *def;
  if (std::optional<unsigned> use = findLastUse(parsed, index, value))
    info.lastUse = parsed.getOps()[*use].name;
  return info;
}

Object valueJSON(const LiveValueInfo &info) {
  Object item{{"name", info.name},
              {"class", getRegClassName(info.regClass)},
              {"width", info.width},
              {"definition", lsp::toJSON(info.definition)},
              {"length", info.length()}};
  if (info.physical)
    item["register"] = *info.physical;
  item["lastUse"] =
      info.lastUse ? lsp::toJSON(*info.lastUse) : llvm::json::Value(nullptr);
  return item;
}

/// "v 12 · s 4" style counts of registers.
Object countsJSON(const RegCounts &counts) {
  return Object{{"vgpr", counts.vgprs()},
                {"sgpr", counts.sgprs()},
                {"agpr", counts.agprs()}};
}

} // namespace

std::optional<LiveAtInfo>
waveasm::server::findLiveValuesAt(const ParsedDocument &parsed,
                                  lsp::Position pos) {
  if (!parsed.getModule() || !parsed.isVerified())
    return std::nullopt;
  std::optional<unsigned> entry = findPointOp(parsed, pos);
  if (!entry)
    return std::nullopt;
  const OpEntry &op = parsed.getOps()[*entry];
  const Liveness *liveness = parsed.getLiveness(op.program);
  if (!liveness)
    return std::nullopt;
  std::optional<unsigned> idx = liveness->getIndex().lookup(op.op);
  if (!idx)
    return std::nullopt;
  LiveAtInfo result;
  result.opEntry = *entry;
  result.point = *idx;
  result.liveAfter = liveness->getLiveAfter(*idx);
  for (Value value : liveness->getLiveOut(*idx))
    result.values.push_back(describe(parsed, *liveness, value));
  llvm::stable_sort(result.values,
                    [](const LiveValueInfo &a, const LiveValueInfo &b) {
                      return a.range.start < b.range.start;
                    });
  return result;
}

llvm::json::Value waveasm::server::computeLiveAt(const ParsedDocument &parsed,
                                                 lsp::Position pos) {
  Object result{{"version", parsed.getVersion()}};
  std::optional<LiveAtInfo> live = findLiveValuesAt(parsed, pos);
  if (!live) {
    result["op"] = nullptr;
    result["values"] = Array();
    return result;
  }
  const OpEntry &op = parsed.getOps()[live->opEntry];
  result["op"] =
      Object{{"name", getMnemonic(op.op)}, {"range", lsp::toJSON(op.name)}};
  result["liveRegisters"] = countsJSON(live->liveAfter);
  Array values;
  for (const LiveValueInfo &info : live->values)
    values.push_back(valueJSON(info));
  result["values"] = std::move(values);
  return result;
}

std::optional<unsigned>
waveasm::server::findPressurePeakOp(const ParsedDocument &parsed,
                                    unsigned program) {
  const Liveness *liveness = parsed.getLiveness(program);
  if (!liveness)
    return std::nullopt;
  const PressurePeak &peak = liveness->getPeak(RegClass::VGPR);
  if (!peak.op || peak.regs == 0)
    return std::nullopt;
  return parsed.lookupOp(peak.op);
}

std::optional<std::string>
waveasm::server::computePeakLiveHover(const ParsedDocument &parsed,
                                      lsp::Position pos, unsigned maxShown) {
  if (!parsed.getModule() || !parsed.isVerified())
    return std::nullopt;
  unsigned entry = parsed.findOpNameAt(pos);
  if (entry == OpEntry::kNone)
    return std::nullopt;
  unsigned program = parsed.getOps()[entry].program;
  if (findPressurePeakOp(parsed, program) != entry)
    return std::nullopt;
  const Liveness &liveness = *parsed.getLiveness(program);
  const PressurePeak &peak = liveness.getPeak(RegClass::VGPR);
  // The register blocks occupying the peak (their sizes add up to it),
  // longest-lived first: the best candidates to shorten.
  SmallVector<LiveValue> live;
  for (const LiveValue &value : liveness.getLiveValuesAt(peak.index))
    if (value.regClass == RegClass::VGPR)
      live.push_back(value);
  llvm::stable_sort(live, [](const LiveValue &a, const LiveValue &b) {
    return a.range.end - a.range.start > b.range.end - b.range.start;
  });
  std::string text = "**VGPR pressure peak**: " + std::to_string(peak.regs) +
                     " VGPRs live here (as written). Longest-lived:\n";
  unsigned shown = 0;
  for (const LiveValue &value : live) {
    if (shown == maxShown)
      break;
    ++shown;
    text += "- `" + getValueName(parsed, value.value) + "` " + "x" +
            std::to_string(value.size) + ", live across " +
            std::to_string(value.range.end - value.range.start) + " ops";
    if (std::optional<lsp::Range> def = getValueDefRange(parsed, value.value))
      text += " (defined on line " + std::to_string(def->start.line + 1) + ")";
    text += "\n";
  }
  if (live.size() > shown)
    text += "- ... " + std::to_string(live.size() - shown) + " more\n";
  return text;
}

llvm::json::Value waveasm::server::computeLivePeak(const ParsedDocument &parsed,
                                                   llvm::StringRef uri) {
  if (!parsed.getModule() || !parsed.isVerified())
    return nullptr;
  for (unsigned p = 0; p < parsed.getPrograms().size(); ++p) {
    // The first program's peak (a document usually holds one kernel).
    std::optional<unsigned> entry = findPressurePeakOp(parsed, p);
    if (!entry)
      continue;
    const OpEntry &op = parsed.getOps()[*entry];
    Object answer = *computeLiveAt(parsed, op.name.start).getAsObject();
    answer["uri"] = uri;
    answer["peak"] = parsed.getLiveness(p)->getPeak(RegClass::VGPR).regs;
    return answer;
  }
  return nullptr;
}

//===--- the liveThrough lint --------------------------------------------===//

/// A value is reported when its live range covers at least this share of
/// a loop body's ops (pre-order points of the body, nested ops included)
/// without any use in the body: it holds its registers through nearly the
/// whole iteration for a use after the loop. Below that, the allocator can
/// usually reuse its registers within the body.
constexpr int64_t kLiveThroughPercent = 75;
/// Bodies shorter than this are not worth a message.
constexpr int64_t kLiveThroughMinBodyOps = 4;

std::vector<lsp::Diagnostic>
waveasm::server::lintLiveThroughLoops(const ParsedDocument &parsed,
                                      lsp::DiagnosticSeverity severity) {
  std::vector<lsp::Diagnostic> out;
  if (!parsed.getModule() || !parsed.isVerified())
    return out;
  for (unsigned p = 0; p < parsed.getPrograms().size(); ++p) {
    const Liveness *liveness = parsed.getLiveness(p);
    if (!liveness)
      continue;
    const ProgramIndex &index = liveness->getIndex();
    // Loops x values: loops are few (a kernel has a handful), each check
    // is constant time but for the uses of values that cover the body.
    for (unsigned loopIdx : index.getLoops()) {
      auto [first, last] = index.getRegionRange(loopIdx, 0);
      if (last < first || last >= index.getNumOps())
        continue;
      int64_t bodyOps = last - first + 1;
      if (bodyOps < kLiveThroughMinBodyOps)
        continue;
      for (unsigned id = 0, e = index.getNumValues(); id < e; ++id) {
        Value value = index.getValue(id);
        if (!liveness->isTracked(value) || index.isDefinedInside(id, loopIdx) ||
            index.getDefOp(id) >= first)
          continue;
        LiveRange range = liveness->getRangeById(id);
        int64_t covered = int64_t(std::min(range.end, last)) -
                          int64_t(std::max(range.start, first)) + 1;
        if (covered * 100 < bodyOps * kLiveThroughPercent)
          continue;
        bool usedInBody = llvm::any_of(value.getUsers(), [&](Operation *op) {
          std::optional<unsigned> at = index.lookup(op);
          return at && *at >= first && *at <= last;
        });
        if (usedInBody)
          continue;
        std::optional<lsp::Range> def = getValueDefRange(parsed, value);
        std::optional<unsigned> loopEntry =
            parsed.lookupOp(index.getOp(loopIdx));
        if (!def || !loopEntry)
          continue;
        int64_t width = getRegSize(value.getType());
        lsp::Diagnostic diag = makeLintDiagnostic(
            LintCode::LiveThrough, *def, severity,
            getValueName(parsed, value) + " (" + std::to_string(width) + " " +
                getRegClassName(*getRegClass(value.getType())).str() +
                (width == 1 ? "" : "s") + ") is live across " +
                std::to_string(covered * 100 / bodyOps) +
                "% of the loop on line " +
                std::to_string(getDisplayLine(parsed, *loopEntry)) +
                " without being used in it: define it after the loop, or "
                "recompute it there, to free its registers in the loop");
        diag.related.push_back(
            {makeLocation(parsed, parsed.getOps()[*loopEntry].name),
             "the loop it is live through"});
        if (std::optional<unsigned> use = findLastUse(parsed, index, value))
          diag.related.push_back(
              {makeLocation(parsed, parsed.getOps()[*use].name),
               "its use after the loop"});
        out.push_back(std::move(diag));
      }
    }
  }
  return out;
}
