//===- TargetKindAttr.h - target kind -> target attribute -------*- C++ -*-===//
//
// The attribute that names a TargetKind (#waveasm.gfx942, ...), for code that
// retargets a program. Kept out of TargetInfo.h, which every dialect user
// includes through Dialect.h, so that its users alone depend on it.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_IR_TARGETKINDATTR_H
#define WAVEASM_IR_TARGETKINDATTR_H

#include "ir/TargetInfo.h"

#include "mlir/IR/Attributes.h"

namespace waveasm {

/// The target kind attribute naming `kind`; it implements
/// TargetAttrInterface. Defined in TargetInfo.cpp beside the target table.
mlir::Attribute getTargetKindAttr(mlir::MLIRContext *ctx, TargetKind kind);

} // namespace waveasm

#endif // WAVEASM_IR_TARGETKINDATTR_H
