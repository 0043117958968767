//===- AssemblyEmitter.cpp --------------------------------------------===//
//
// Placeholder: the emitter is being implemented (see AssemblyEmitter.h).
//
//===----------------------------------------------------------------------===//

#include "pipeline/AssemblyEmitter.h"

using namespace mlir;
using namespace waveasm;

LogicalResult waveasm::emitProgramAssembly(ProgramOp program, raw_ostream &,
                                           AsmLineMap *, EmittedProgramInfo *) {
  return program.emitOpError("assembly emission is not available yet");
}

LogicalResult waveasm::emitModuleAssembly(ModuleOp module, raw_ostream &os,
                                          AsmLineMap *lineMap) {
  for (auto program : module.getOps<ProgramOp>())
    if (failed(emitProgramAssembly(program, os, lineMap)))
      return failure();
  return success();
}
