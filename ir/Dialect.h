//===- Dialect.h - the WaveASM dialect --------------------------*- C++ -*-===//
//
// Include this to use WaveASM types, attributes and ops.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_IR_DIALECT_H
#define WAVEASM_IR_DIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "ir/InstInfo.h"
#include "ir/RegisterTypes.h"
#include "ir/TargetInfo.h"
#include "ir/Traits.h"

#include "ir/WaveASMAttrInterfaces.h.inc"
#include "ir/WaveASMDialect.h.inc"
#include "ir/WaveASMEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "ir/WaveASMAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "ir/WaveASMTypes.h.inc"

#include "ir/WaveASMOpInterfaces.h.inc"

#define GET_OP_CLASSES
#include "ir/WaveASMOps.h.inc"

#endif // WAVEASM_IR_DIALECT_H
