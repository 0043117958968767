//===- WaveASMBase.td - WaveASM dialect definition ---------*- tablegen -*-===//
//
// The dialect object and the base classes every WaveASM def derives from.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_BASE_TD
#define WAVEASM_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def WaveASM_Dialect : Dialect {
  let name = "waveasm";
  let summary = "Instruction-level IR of the Wave DSL's AMDGCN backend";
  let description = [{
    One op per GPU instruction, on virtual (`!waveasm.vreg`) or physical
    (`!waveasm.pvreg<5>`) registers, with structured control flow
    (`waveasm.loop`, `waveasm.if`) inside `waveasm.program` kernels.
  }];
  let cppNamespace = "::waveasm";
  // Types: the generated parser behind a cache of parsed spellings
  // (Types.cpp); a kernel spells a handful of types tens of thousands times.
  let useDefaultTypePrinterParser = 0;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();

    ::mlir::Type parseType(::mlir::DialectAsmParser &parser) const override;
    void printType(::mlir::Type type,
                   ::mlir::DialectAsmPrinter &printer) const override;

  private:
    struct TypeCache;
    // shared_ptr: its deleter is bound where it is created (Types.cpp), so
    // the generated destructor needs no complete type.
    std::shared_ptr<TypeCache> typeCache;

  public:
  }];
}

#endif // WAVEASM_BASE_TD
