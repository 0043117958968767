//===- PipelineSnapshots.cpp - the program after each pass ----------------===//

#include "pipeline/PipelineSnapshots.h"
#include "pipeline/DeferredErase.h"
#include "pipeline/Passes.h"

#include "analysis/CycleModel.h"
#include "analysis/Liveness.h"
#include "analysis/Metrics.h"
#include "analysis/ProgramIndex.h"
#include "analysis/TargetModel.h"
#include "ir/DefinedValues.h"
#include "ir/RegisterTypes.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"

#include <optional>

using namespace mlir;
using namespace waveasm;

namespace {

/// How `--mlir-print-ir-after-all` prints an op nested in a module.
OpPrintingFlags snapshotPrintingFlags() {
  return OpPrintingFlags().useLocalScope();
}

/// `sizeHint`: the previous text's size (the string grows once, not by
/// doubling through a multi-megabyte program).
std::string printProgram(ProgramOp program, size_t sizeHint = 0) {
  std::string text;
  text.reserve(sizeHint + sizeHint / 8);
  llvm::raw_string_ostream os(text);
  program->print(os, snapshotPrintingFlags());
  os << '\n';
  return text;
}

/// One program's figures (SnapshotMetrics explains the peaks).
SnapshotMetrics measure(ProgramOp program,
                        llvm::ArrayRef<std::string> overrides) {
  SnapshotMetrics metrics;
  ProgramIndex index(program);
  llvm::Expected<TargetModel> target =
      TargetModel::getWithOverrides(program.getTargetKind(), overrides);
  if (!target) {
    // The server checked its overrides already; measure without them.
    llvm::consumeError(target.takeError());
    target = TargetModel::get(program.getTargetKind());
  }
  CycleModel cycles(index, *target);
  PipelineCounts counts;
  if (definesVirtualRegisters(program.getBody())) {
    Liveness liveness(index);
    counts.peaks.vgpr = liveness.getPeak(RegClass::VGPR).regs;
    counts.peaks.sgpr = liveness.getPeak(RegClass::SGPR).regs;
    counts.peaks.agpr = liveness.getPeak(RegClass::AGPR).regs;
  } else {
    counts.peaks = computePhysicalPeaks(program);
  }
  counts.total_instructions = llvm::count_if(
      cycles.getOpFacts(), [](const OpFacts &f) { return f.issued; });
  ProgramMetrics full = computeProgramMetrics(program, cycles, counts);
  metrics.instructions = full.total_instructions;
  metrics.peakVGPR = full.peak_vgpr;
  metrics.peakSGPR = full.peak_sgpr;
  metrics.peakAGPR = full.peak_agpr;
  metrics.estCycles = full.est_cycles;
  return metrics;
}

/// One program's history: one entry per snapshot (input, then each pass
/// that ran on it).
struct ProgramTrack {
  struct Entry {
    std::string pass;
    bool changed = false;
    bool failed = false;
    unsigned text = 0; // into `texts`: the program's text after this entry
    SnapshotMetrics metrics;
  };
  std::vector<Entry> entries;
  std::vector<std::string> texts;
  std::optional<OperationFingerPrint> fingerprint;
};

/// The programs a pass ran on: the op itself or those it contains.
SmallVector<ProgramOp> programsOf(Operation *op) {
  SmallVector<ProgramOp> out;
  if (auto program = dyn_cast<ProgramOp>(op))
    out.push_back(program);
  else
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (auto program : block.getOps<ProgramOp>())
          out.push_back(program);
  return out;
}

/// Records each program after each pass. The tracks are created before the
/// run and each is only touched by the thread running its program's passes
/// (module-level passes run when no nested pipeline does), so no lock.
class SnapshotRecorder : public PassInstrumentation {
public:
  SnapshotRecorder(llvm::DenseMap<Operation *, ProgramTrack> &tracks,
                   llvm::ArrayRef<std::string> overrides)
      : tracks(tracks), overrides(overrides) {}

  void runAfterPass(Pass *pass, Operation *op) override {
    record(pass, op, /*failed=*/false);
  }
  void runAfterPassFailed(Pass *pass, Operation *op) override {
    record(pass, op, /*failed=*/true);
  }

private:
  void record(Pass *pass, Operation *op, bool failed) {
    // The pass managers' adaptors (nesting) have no flag: their passes
    // report themselves.
    if (pass->getArgument().empty())
      return;
    for (ProgramOp program : programsOf(op)) {
      auto it = tracks.find(program.getOperation());
      if (it == tracks.end())
        continue;
      ProgramTrack &track = it->second;
      ProgramTrack::Entry entry = track.entries.back();
      entry.pass = pass->getArgument().str();
      entry.changed = false;
      entry.failed = failed;
      if (!failed) {
        // The fingerprint hashes each op's address, parent, attributes,
        // properties, location, operands and result types, not its name:
        // a pass that frees an op and creates one of another name at the
        // same address, same everything else, would go unseen. Ops erased
        // through eraseOp stay allocated until the run ends (the scope in
        // snapshotPipeline), which leaves only the greedy rewriter's own
        // erasures, and those replace ops created before the erasure.
        OperationFingerPrint fingerprint(program);
        if (fingerprint != *track.fingerprint) {
          track.fingerprint = fingerprint;
          std::string text =
              printProgram(program, track.texts[entry.text].size());
          if (text != track.texts[entry.text]) {
            entry.changed = true;
            entry.text = track.texts.size();
            track.texts.push_back(std::move(text));
            entry.metrics = measure(program, overrides);
          }
        }
      }
      track.entries.push_back(std::move(entry));
    }
  }

  llvm::DenseMap<Operation *, ProgramTrack> &tracks;
  llvm::ArrayRef<std::string> overrides;
};

/// The snapshot list from the programs' tracks (module order).
/// One program's texts are moved out of its track.
PipelineSnapshots assemble(llvm::ArrayRef<ProgramTrack *> tracks) {
  PipelineSnapshots result;
  size_t length = 0;
  for (ProgramTrack *track : tracks)
    length = std::max(length, track->entries.size());
  for (size_t k = 0; k < length; ++k) {
    PipelineSnapshot snapshot;
    for (ProgramTrack *track : tracks) {
      // A program another program's failure cut short keeps its last IR.
      const ProgramTrack::Entry &entry =
          track->entries[std::min(k, track->entries.size() - 1)];
      if (k < track->entries.size()) {
        snapshot.pass = entry.pass;
        snapshot.changed |= entry.changed;
        snapshot.failed |= entry.failed;
      }
      SnapshotMetrics &sum = snapshot.metrics;
      sum.instructions += entry.metrics.instructions;
      sum.estCycles += entry.metrics.estCycles;
      sum.peakVGPR = std::max(sum.peakVGPR, entry.metrics.peakVGPR);
      sum.peakSGPR = std::max(sum.peakSGPR, entry.metrics.peakSGPR);
      sum.peakAGPR = std::max(sum.peakAGPR, entry.metrics.peakAGPR);
    }
    if (k == 0) {
      snapshot.pass = "input";
      snapshot.changed = true;
    }
    if (snapshot.changed && tracks.size() == 1) {
      // One program: each of its texts belongs to one snapshot.
      const ProgramTrack::Entry &entry = tracks[0]->entries[k];
      snapshot.text = std::move(tracks[0]->texts[entry.text]);
    } else if (snapshot.changed) {
      for (auto [i, track] : llvm::enumerate(tracks)) {
        const ProgramTrack::Entry &entry =
            track->entries[std::min(k, track->entries.size() - 1)];
        if (i)
          snapshot.text += '\n';
        snapshot.text += track->texts[entry.text];
      }
    }
    result.snapshots.push_back(std::move(snapshot));
    if (result.snapshots.back().failed) {
      result.failed = true;
      break;
    }
  }
  return result;
}

} // namespace

std::string waveasm::printPrograms(ModuleOp module) {
  std::string text;
  for (auto [i, program] : llvm::enumerate(module.getOps<ProgramOp>())) {
    if (i)
      text += '\n';
    text += printProgram(program);
  }
  return text;
}

PipelineSnapshots waveasm::snapshotPipeline(ModuleOp module,
                                            const SnapshotOptions &options) {
  OwningOpRef<ModuleOp> clone = module.clone();
  // Ops the passes erase stay allocated until the run ends, as in
  // compile-and-measure (the passes rely on it).
  DeferredEraseScope deferErasures(clone->getOperation());

  llvm::DenseMap<Operation *, ProgramTrack> tracks;
  SmallVector<ProgramTrack *> ordered;
  for (ProgramOp program : clone->getOps<ProgramOp>()) {
    ProgramTrack &track = tracks[program.getOperation()];
    track.fingerprint.emplace(program);
    track.texts.push_back(printProgram(program));
    ProgramTrack::Entry input;
    input.pass = "input";
    input.changed = true;
    input.metrics = measure(program, options.targetOverrides);
    track.entries.push_back(std::move(input));
  }
  for (ProgramOp program : clone->getOps<ProgramOp>())
    ordered.push_back(&tracks[program.getOperation()]);

  PassManager pm(module->getContext());
  // As compile-and-measure: the input verified, each pass keeps it valid.
  pm.enableVerifier(false);
  WaveASMPipelineConfig pipeline = options.pipeline;
  pipeline.targetOverrides = options.targetOverrides;
  buildWaveASMPipeline(pm, pipeline);
  pm.addInstrumentation(
      std::make_unique<SnapshotRecorder>(tracks, options.targetOverrides));
  LogicalResult ran = pm.run(*clone);

  PipelineSnapshots result = assemble(ordered);
  if (result.snapshots.empty()) {
    // No program: the input (nothing to print) and no pass with work.
    PipelineSnapshot input;
    input.pass = "input";
    input.changed = true;
    result.snapshots.push_back(std::move(input));
  }
  result.failed = result.failed || failed(ran);
  return result;
}
