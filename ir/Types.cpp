//===- Types.cpp - WaveASM register and immediate types -------------------===//

#include "ir/Dialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace waveasm;

#define GET_TYPEDEF_CLASSES
#include "ir/WaveASMTypes.cpp.inc"

void WaveASMDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "ir/WaveASMTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Virtual registers: `vreg ( '<' size ( ',' alignment )? '>' )?`
//===----------------------------------------------------------------------===//

template <typename T> static Type parseVirtualReg(AsmParser &parser) {
  int64_t size = 1, alignment = 1;
  if (succeeded(parser.parseOptionalLess())) {
    if (parser.parseInteger(size))
      return {};
    if (succeeded(parser.parseOptionalComma()) &&
        parser.parseInteger(alignment))
      return {};
    if (parser.parseGreater())
      return {};
  }
  return parser.getChecked<T>(parser.getContext(), size, alignment);
}

// Defaults are elided as upstream does, except that a non-default alignment
// is always kept (upstream loses it when size is 1, SPEC.md 21 item 3).
static void printVirtualReg(AsmPrinter &printer, int64_t size,
                            int64_t alignment) {
  if (size == 1 && alignment == 1)
    return;
  printer << '<' << size;
  if (alignment != 1)
    printer << ", " << alignment;
  printer << '>';
}

static LogicalResult verifyVirtualReg(function_ref<InFlightDiagnostic()> emit,
                                      int64_t size, int64_t alignment) {
  if (size < 1)
    return emit() << "register count must be at least 1, got " << size;
  if (alignment < 1)
    return emit() << "register alignment must be at least 1, got " << alignment;
  return success();
}

#define DEFINE_VIRTUAL_REG(T)                                                  \
  Type T::parse(AsmParser &parser) { return parseVirtualReg<T>(parser); }      \
  void T::print(AsmPrinter &printer) const {                                   \
    printVirtualReg(printer, getSize(), getAlignment());                       \
  }                                                                            \
  LogicalResult T::verify(function_ref<InFlightDiagnostic()> emitError,        \
                          int64_t size, int64_t alignment) {                   \
    return verifyVirtualReg(emitError, size, alignment);                       \
  }
DEFINE_VIRTUAL_REG(VRegType)
DEFINE_VIRTUAL_REG(SRegType)
DEFINE_VIRTUAL_REG(ARegType)
#undef DEFINE_VIRTUAL_REG

//===----------------------------------------------------------------------===//
// Physical registers: `pvreg '<' index ( ',' size )? '>'`
//===----------------------------------------------------------------------===//

template <typename T> static Type parsePhysicalReg(AsmParser &parser) {
  int64_t index = 0, size = 1;
  if (parser.parseLess() || parser.parseInteger(index))
    return {};
  if (succeeded(parser.parseOptionalComma()) && parser.parseInteger(size))
    return {};
  if (parser.parseGreater())
    return {};
  return parser.getChecked<T>(parser.getContext(), index, size);
}

static void printPhysicalReg(AsmPrinter &printer, int64_t index, int64_t size) {
  printer << '<' << index;
  if (size != 1)
    printer << ", " << size;
  printer << '>';
}

static LogicalResult verifyPhysicalReg(function_ref<InFlightDiagnostic()> emit,
                                       int64_t index, int64_t size) {
  if (index < 0)
    return emit() << "physical register index must be non-negative, got "
                  << index;
  if (size < 1)
    return emit() << "register count must be at least 1, got " << size;
  return success();
}

#define DEFINE_PHYSICAL_REG(T)                                                 \
  Type T::parse(AsmParser &parser) { return parsePhysicalReg<T>(parser); }     \
  void T::print(AsmPrinter &printer) const {                                   \
    printPhysicalReg(printer, getIndex(), getSize());                          \
  }                                                                            \
  LogicalResult T::verify(function_ref<InFlightDiagnostic()> emitError,        \
                          int64_t index, int64_t size) {                       \
    return verifyPhysicalReg(emitError, index, size);                          \
  }
DEFINE_PHYSICAL_REG(PVRegType)
DEFINE_PHYSICAL_REG(PSRegType)
DEFINE_PHYSICAL_REG(PARegType)
#undef DEFINE_PHYSICAL_REG
