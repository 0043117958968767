//===- Attrs.cpp - WaveASM attributes -------------------------------------===//

#include "ir/Dialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace waveasm;

#include "ir/WaveASMAttrInterfaces.cpp.inc"
#include "ir/WaveASMEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "ir/WaveASMAttrs.cpp.inc"

void WaveASMDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ir/WaveASMAttrs.cpp.inc"
      >();
}

TargetKind GFX942Attr::getTargetKind() const { return TargetKind::gfx942; }
TargetKind GFX950Attr::getTargetKind() const { return TargetKind::gfx950; }
TargetKind GFX1250Attr::getTargetKind() const { return TargetKind::gfx1250; }
