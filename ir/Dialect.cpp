//===- Dialect.cpp - WaveASM dialect registration -------------------------===//

#include "ir/Dialect.h"

using namespace mlir;
using namespace waveasm;

#include "ir/WaveASMDialect.cpp.inc"

void WaveASMDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "ir/WaveASMOps.cpp.inc"
      >();
}

StringRef waveasm::stringifyExecUnit(ExecUnit unit) {
  switch (unit) {
  case ExecUnit::None:
    return "none";
  case ExecUnit::VALU:
    return "VALU";
  case ExecUnit::SALU:
    return "SALU";
  case ExecUnit::SMEM:
    return "SMEM";
  case ExecUnit::VMEM:
    return "VMEM";
  case ExecUnit::LDS:
    return "LDS";
  case ExecUnit::MFMA:
    return "MFMA";
  case ExecUnit::Branch:
    return "branch";
  case ExecUnit::Sync:
    return "sync";
  }
  llvm_unreachable("unknown unit");
}

StringRef waveasm::stringifyLatencyClass(LatencyClass cls) {
  switch (cls) {
  case LatencyClass::None:
    return "none";
  case LatencyClass::VALU:
    return "valu";
  case LatencyClass::Trans:
    return "trans";
  case LatencyClass::SALU:
    return "salu";
  case LatencyClass::SMEM:
    return "smem";
  case LatencyClass::VMEMLoad:
    return "vmem_load";
  case LatencyClass::VMEMStore:
    return "vmem_store";
  case LatencyClass::LDSLoad:
    return "lds_load";
  case LatencyClass::LDSStore:
    return "lds_store";
  case LatencyClass::MFMA:
    return "mfma";
  case LatencyClass::Branch:
    return "branch";
  case LatencyClass::Sync:
    return "sync";
  }
  llvm_unreachable("unknown latency class");
}
