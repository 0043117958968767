//===- Ops.cpp - ODS-generated op definitions -----------------------------===//
//
// Only the generated code lives here (it is large); hand-written op methods
// are in ControlFlowOps.cpp and Verifiers.cpp.
//
//===----------------------------------------------------------------------===//

#include "ir/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace waveasm;

#include "ir/WaveASMOpInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "ir/WaveASMOps.cpp.inc"
