//===- PipelineView.cpp - waveasm/pipelineSnapshots -----------------------===//
//
// The program after each pass of the server's pipeline
// (pipeline/PipelineSnapshots.h) as the request's JSON; a failing pass
// carries its diagnostics, located in the document.
//
//===----------------------------------------------------------------------===//

#include "server/DiagnosticCapture.h"
#include "server/Features.h"

#include "pipeline/PipelineSnapshots.h"
#include "protocol/LspJSON.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::server;
using llvm::json::Array;
using llvm::json::Object;

namespace {
Object metricsJSON(const SnapshotMetrics &m) {
  return Object{{"instructions", m.instructions},
                {"peak_vgpr", m.peakVGPR},
                {"peak_sgpr", m.peakSGPR},
                {"peak_agpr", m.peakAGPR},
                {"est_cycles", m.estCycles}};
}
} // namespace

DocumentSnapshots
waveasm::server::computePipelineSnapshots(const ParsedDocument &parsed,
                                          const ServerSettings &settings) {
  DocumentSnapshots result;
  result.version = parsed.getVersion();
  ModuleOp input = parsed.getModule();
  if (!input || !parsed.isVerified())
    return result;
  IRMapping retargetMap;
  OwningOpRef<ModuleOp> retargeted =
      cloneWithTargetOverride(input, settings.targetOverride, retargetMap);

  // The background compile's pipeline and overrides (CompiledDocument).
  SnapshotOptions options;
  options.pipeline =
      CompileOptions::measuringPipeline(settings.optimizePipeline);
  options.targetOverrides = settings.targetModelOverrides;
  std::vector<RawDiagnostic> diagnostics;
  {
    DiagnosticCapture capture(*input->getContext());
    result.snapshots =
        snapshotPipeline(retargeted ? *retargeted : input, options);
    diagnostics = capture.take();
  }
  for (const RawDiagnostic &raw : diagnostics) {
    lsp::Diagnostic diag = parsed.toLspDiagnostic(raw);
    diag.code = "pipeline";
    result.diagnostics.push_back(std::move(diag));
  }
  return result;
}

std::optional<llvm::json::Value>
waveasm::server::selectPipelineSnapshots(const DocumentSnapshots &all,
                                         std::optional<int64_t> index,
                                         int64_t maxTextBytes) {
  const std::vector<PipelineSnapshot> &snapshots = all.snapshots.snapshots;
  if (index) {
    if (*index < 0 || *index >= int64_t(snapshots.size()))
      return std::nullopt;
    const PipelineSnapshot &chosen = snapshots[*index];
    Object answer{{"version", all.version},
                  {"index", *index},
                  {"pass", chosen.pass},
                  {"changed", chosen.changed}};
    // Unchanged snapshots show the last text before them.
    for (int64_t k = *index; k >= 0; --k)
      if (snapshots[k].changed) {
        answer["text"] = snapshots[k].text;
        break;
      }
    return llvm::json::Value(std::move(answer));
  }
  int64_t bytes = 0;
  for (const PipelineSnapshot &snapshot : snapshots)
    bytes += snapshot.text.size();
  bool withText = bytes <= maxTextBytes;
  Array list;
  for (const PipelineSnapshot &snapshot : snapshots) {
    Object item{{"pass", snapshot.pass},
                {"changed", snapshot.changed},
                {"metrics", metricsJSON(snapshot.metrics)}};
    if (snapshot.changed && withText)
      item["text"] = snapshot.text;
    if (snapshot.failed) {
      item["failed"] = true;
      Array diags;
      for (const lsp::Diagnostic &diag : all.diagnostics)
        diags.push_back(toJSON(diag));
      item["diagnostics"] = std::move(diags);
    }
    list.push_back(std::move(item));
  }
  return llvm::json::Value(Object{{"version", all.version},
                                  {"stale", false},
                                  {"textOnDemand", !withText},
                                  {"snapshots", std::move(list)}});
}
