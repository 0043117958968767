//===- CompiledDocument.cpp - pipeline + annotations on a clone -----------===//

#include "server/DiagnosticCapture.h"
#include "server/DocumentState.h"
#include "server/Timing.h"

#include "analysis/TargetModel.h"
#include "ir/TargetKindAttr.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"

#include <chrono>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::server;

CompiledDocument::~CompiledDocument() = default;

OwningOpRef<ModuleOp> waveasm::server::cloneWithTargetOverride(
    ModuleOp input, std::optional<TargetKind> target, IRMapping &mapping) {
  if (!target)
    return nullptr;
  MLIRContext *ctx = input->getContext();
  auto retargeted = cast<ModuleOp>(input->clone(mapping));
  auto kind = cast<TargetAttrInterface>(getTargetKindAttr(ctx, *target));
  for (ProgramOp program : retargeted.getOps<ProgramOp>())
    program.setTargetAttr(
        TargetAttr::get(ctx, kind, program.getTarget().getCodeObjectVersion()));
  return retargeted;
}

// An allocation failure is reported where the allocator gave up, which is
// rarely where the user must act: point at the pressure peaks of the input
// (liveness works on virtual registers, so the input can be analysed).
void CompiledDocument::addAllocationFailureNotes(const ParsedDocument &parsed) {
  bool allocation = llvm::any_of(diagnostics, [](const lsp::Diagnostic &d) {
    std::string lower = llvm::StringRef(d.message).lower();
    return llvm::StringRef(lower).contains("allocat") ||
           llvm::StringRef(lower).contains("out of registers");
  });
  if (!allocation)
    return;
  for (unsigned entry : parsed.getPrograms()) {
    auto program = cast<ProgramOp>(parsed.getOps()[entry].op);
    ProgramAnnotations ann(program);
    const std::pair<RegClass, int64_t> limits[] = {
        {RegClass::VGPR, program.getVgprs()},
        {RegClass::SGPR, program.getSgprs()},
        {RegClass::AGPR, 256}};
    for (auto [cls, limit] : limits) {
      const PressurePeak &peak = ann.getPeak(cls);
      if (!peak.op || peak.regs == 0)
        continue;
      std::optional<unsigned> at = parsed.lookupOp(peak.op);
      lsp::Diagnostic diag;
      diag.code = "pipeline";
      diag.severity = peak.regs > limit ? lsp::DiagnosticSeverity::Error
                                        : lsp::DiagnosticSeverity::Information;
      diag.range = parsed.getOps()[at ? *at : entry].name;
      diag.message =
          std::to_string(peak.regs) + " " + getRegClassName(cls).str() +
          "s are live here, the peak of @" + program.getSymName().str() +
          " (limit " + std::to_string(limit) + ")";
      diagnostics.push_back(std::move(diag));
    }
  }
}

CompiledDocument::CompiledDocument(const ParsedDocument &parsed,
                                   const ServerSettings &settings)
    : version(parsed.getVersion()), textHash(parsed.getTextHash()),
      targetOverride(settings.targetOverride),
      modelOverrides(settings.targetModelOverrides),
      optimizePipeline(settings.optimizePipeline) {
  ModuleOp input = parsed.getModule();
  if (!input || !parsed.isVerified())
    return;
  MLIRContext *ctx = input->getContext();
  auto start = std::chrono::steady_clock::now();

  CompileOptions options;
  options.pipeline =
      CompileOptions::measuringPipeline(settings.optimizePipeline);
  options.emitAssembly = kEmitAssemblyInServer;
  options.keepCompiledModule = true;
  options.traceOptimizations = settings.optimizePipeline;
  options.targetOverrides = settings.targetModelOverrides;

  // A target override is a different program attribute: compile a copy
  // carrying it (compileAndMeasure never changes its input).
  IRMapping retargetMap;
  OwningOpRef<ModuleOp> retargeted =
      cloneWithTargetOverride(input, settings.targetOverride, retargetMap);
  ModuleOp toCompile = retargeted ? *retargeted : input;

  FailureOr<CompileResult> result = failure();
  {
    DiagnosticCapture capture(*ctx);
    result = compileAndMeasure(toCompile, options);
    for (const RawDiagnostic &raw : capture.take()) {
      lsp::Diagnostic diag = parsed.toLspDiagnostic(raw);
      diag.code = "pipeline";
      diagnostics.push_back(std::move(diag));
    }
  }
  compileMs = msSince(start);
  if (failed(result)) {
    if (diagnostics.empty()) {
      lsp::Diagnostic diag;
      diag.code = "pipeline";
      diag.message = "the backend pipeline failed";
      diagnostics.push_back(std::move(diag));
    }
    addAllocationFailureNotes(parsed);
    return;
  }
  ok = true;
  start = std::chrono::steady_clock::now();
  compiled = std::move(result->compiled);

  // compiledOf may only name ops that survived the pipeline.
  llvm::DenseSet<Operation *> live;
  compiled->walk([&](Operation *op) { live.insert(op); });

  llvm::ArrayRef<OpEntry> entries = parsed.getOps();
  opInfo.resize(entries.size());
  SmallVector<ProgramOp> compiledPrograms(compiled->getOps<ProgramOp>());
  for (auto [p, programResult] : llvm::enumerate(result->programs)) {
    if (p >= parsed.getPrograms().size() || p >= compiledPrograms.size())
      break;
    CompiledProgramInfo info;
    info.entry = parsed.getPrograms()[p];
    ProgramOp program = compiledPrograms[p];
    llvm::Expected<TargetModel> target = TargetModel::getWithOverrides(
        program.getTargetKind(), settings.targetModelOverrides);
    if (!target) {
      // compileAndMeasure accepted the same overrides; keep going without.
      llvm::consumeError(target.takeError());
      info.annotations = std::make_unique<ProgramAnnotations>(program);
    } else {
      info.annotations = std::make_unique<ProgramAnnotations>(program, *target);
    }
    info.result = std::move(programResult);
    programsInfo.push_back(std::move(info));
  }

  // Input op entries -> compiled ops and their annotations.
  for (auto [i, entry] : llvm::enumerate(entries)) {
    if (entry.program >= programsInfo.size())
      continue;
    CompiledProgramInfo &info = programsInfo[entry.program];
    Operation *source =
        retargeted ? retargetMap.lookupOrNull(entry.op) : entry.op;
    Operation *copy = source ? info.result.compiledOf.lookup(source) : nullptr;
    if (!copy || !live.contains(copy))
      continue;
    opInfo[i].compiled = copy;
    opInfo[i].program = entry.program;
    opInfo[i].annotation = info.annotations->lookup(copy);
    entryOfCompiled[copy] = i;
  }

  // Ops the pipeline inserted (waits, nops) belong to the input op they
  // precede in their block: their stall is that op's wait.
  for (CompiledProgramInfo &info : programsInfo) {
    info.annotations->getProgram()->walk([&](Block *block) {
      SmallVector<Operation *, 2> pending;
      for (Operation &op : *block) {
        auto it = entryOfCompiled.find(&op);
        if (it == entryOfCompiled.end()) {
          pending.push_back(&op);
          continue;
        }
        CompiledOpInfo &target = opInfo[it->second];
        for (Operation *inserted : pending) {
          target.insertedBefore.push_back(inserted);
          if (const InstAnnotation *a = info.annotations->lookup(inserted)) {
            target.insertedStall += a->stall;
            if (a->inLoop)
              target.insertedSteadyStall += a->steadyStall;
          }
        }
        pending.clear();
      }
    });
  }
  analyzeMs = msSince(start);
}

const CompiledOpInfo *CompiledDocument::lookup(unsigned opEntry) const {
  if (opEntry >= opInfo.size() || !opInfo[opEntry].compiled)
    return nullptr;
  return &opInfo[opEntry];
}

std::optional<unsigned>
CompiledDocument::lookupCompiled(Operation *compiledOp) const {
  auto it = entryOfCompiled.find(compiledOp);
  if (it == entryOfCompiled.end())
    return std::nullopt;
  return it->second;
}
