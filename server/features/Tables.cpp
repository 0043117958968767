//===- Tables.cpp - the text tables of `waveasm-lsp check` ----------------===//

#include "server/Features.h"
#include "server/features/Common.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::server;
using namespace waveasm::server::common;

namespace {

std::string regs(int64_t v, int64_t s, int64_t a) {
  return std::to_string(v) + "/" + std::to_string(s) + "/" + std::to_string(a);
}

} // namespace

std::string
waveasm::server::renderMetricsTable(const ParsedDocument &parsed,
                                    const CompiledDocument &compiled) {
  if (!compiled.isFor(parsed) || !compiled.succeeded())
    return "no metrics: the document did not compile\n";
  std::vector<std::vector<std::string>> rows = {
      {"program/loop", "line", "est slots", "lower bound", "unit", "crit path",
       "live V/S/A", "alloc V/S/A", "occupancy", "waitcnts", "nops",
       "instructions"}};
  for (const CompiledProgramInfo &program : compiled.getPrograms()) {
    const ProgramAnnotations &ann = *program.annotations;
    const ProgramMetrics &m = program.result.metrics;
    unsigned numOps = ann.getIndex().getNumOps();
    SpanSummary summary = summarize(ann, 0, numOps ? numOps - 1 : 0);
    LowerBound bound = computeProgramLowerBound(ann);
    rows.push_back(
        {"@" + ann.getProgram().getSymName().str(),
         std::to_string(getDisplayLine(parsed, program.entry)),
         std::to_string(m.est_cycles), std::to_string(bound.cycles), bound.unit,
         std::to_string(ann.getCriticalPath()),
         regs(summary.peak.vgprs(), summary.peak.sgprs(), summary.peak.agprs()),
         regs(m.peak_vgpr, m.peak_sgpr, m.peak_agpr),
         std::to_string(m.occupancy), std::to_string(m.waitcnts_inserted),
         std::to_string(m.nops_inserted),
         std::to_string(m.total_instructions)});
    for (const LoopTiming &loop : ann.getLoops()) {
      std::optional<unsigned> entry = compiled.lookupCompiled(loop.loop);
      SpanSummary body = summarize(ann, loop.index + 1,
                                   ann.getIndex().getSubtreeEnd(loop.index));
      rows.push_back(
          {"  loop (per iter, trip " + std::to_string(loop.tripCount.count) +
               ")",
           entry ? std::to_string(getDisplayLine(parsed, *entry)) : "-",
           std::to_string(loop.steadyStateCycles),
           std::to_string(loop.lowerBoundCycles), describeBoundKind(loop),
           std::to_string(loop.criticalPath),
           regs(body.peak.vgprs(), body.peak.sgprs(), body.peak.agprs()), "-",
           "-", std::to_string(body.waitcnts), std::to_string(body.nops),
           std::to_string(body.instructions)});
    }
  }
  return renderTable(rows);
}

std::string
waveasm::server::renderInstructionTable(const ParsedDocument &parsed,
                                        const CompiledDocument &compiled) {
  if (!compiled.isFor(parsed) || !compiled.succeeded())
    return "no timing: the document did not compile\n";
  std::vector<std::vector<std::string>> rows = {{"line", "tag", "instruction",
                                                 "unit", "lat", "issue",
                                                 "stall", "v", "s", "a"}};
  auto addRow = [&](std::string line, std::string tag, std::string name,
                    const InstAnnotation &a, bool steady) {
    rows.push_back({std::move(line), std::move(tag), std::move(name),
                    getUnitName(a.unit), std::to_string(a.latency),
                    std::to_string(steady ? a.steadyIssueCycle : a.issueCycle) +
                        (steady ? "*" : ""),
                    std::to_string(steady ? a.steadyStall : a.stall),
                    std::to_string(a.liveAfter.vgprs()),
                    std::to_string(a.liveAfter.sgprs()),
                    std::to_string(a.liveAfter.agprs())});
  };
  for (unsigned i = 0, e = parsed.getOps().size(); i < e; ++i) {
    const CompiledOpInfo *info = compiled.lookup(i);
    if (!info || !info->annotation)
      continue;
    const ProgramAnnotations &ann =
        *compiled.getPrograms()[info->program].annotations;
    std::string line = std::to_string(getDisplayLine(parsed, i));
    for (Operation *inserted : info->insertedBefore)
      if (const InstAnnotation *a = ann.lookup(inserted); a && a->issued)
        addRow(line, "", "+ " + getShortText(inserted), *a, a->inLoop);
    const InstAnnotation &a = *info->annotation;
    if (!a.issued)
      continue;
    const OpEntry &entry = parsed.getOps()[i];
    addRow(line, entry.tag >= 0 ? formatConductorTag(entry.tag) : "",
           getShortText(entry.op), a, a.inLoop);
  }
  std::string out = renderTable(rows);
  out += "(issue*: cycle within the steady-state iteration of the loop; "
         "+: inserted by the pipeline; v/s/a: registers live after)\n";
  return out;
}
