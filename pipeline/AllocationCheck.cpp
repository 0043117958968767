//===- AllocationCheck.cpp - do the registers fit? ------------------------===//

#include "pipeline/AllocationCheck.h"

#include "analysis/TargetModel.h"
#include "ir/TargetInfo.h"
#include "pipeline/Passes.h"

using namespace mlir;
using namespace waveasm;

AllocationCheck::AllocationCheck(MLIRContext *context,
                                 const CompileOptions &options)
    : pm(context), targetOverrides(options.targetOverrides),
      hazardTarget(getWaveASMToolDefaults().target) {
  // As Compiler: the input was verified and each pass keeps it valid.
  pm.enableVerifier(false);
  WaveASMPipelineConfig pipeline = options.pipeline;
  pipeline.targetOverrides = options.targetOverrides;
  buildWaveASMPipelineToAllocation(pm, pipeline);
}

LogicalResult AllocationCheck::run(ModuleOp module) {
  if (failed(pm.run(module)))
    return failure();
  // What the passes after allocation and the measure refuse whatever the
  // program (the hazard pass first, with its texts, so the first error is
  // compile()'s too): the target option and the model's overrides.
  for (ProgramOp program : module.getOps<ProgramOp>()) {
    if (!parseTargetKind(hazardTarget))
      return program.emitError()
             << "Invalid target architecture: '" << hazardTarget
             << "'. Supported targets: " << listTargetKinds();
    llvm::Expected<TargetModel> model =
        TargetModel::getWithOverrides(program.getTargetKind(), targetOverrides);
    if (!model)
      return program.emitError(llvm::toString(model.takeError()));
  }
  return success();
}
