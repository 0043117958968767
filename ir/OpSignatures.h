//===- OpSignatures.h - what each op's text looks like ----------*- C++ -*-===//
//
// The operand, result and attribute lists of every WaveASM op with the type
// groups they accept, generated from the ODS definitions by
// `waveasm-tblgen -gen-op-signatures` (tools/waveasm-tblgen), and the
// declarative assembly format split into elements. Completion, signature
// help and the quick fixes read these instead of matching strings, so what
// they offer is what the verifier accepts.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_IR_OPSIGNATURES_H
#define WAVEASM_IR_OPSIGNATURES_H

#include "ir/InstInfo.h"

#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace waveasm {

/// The WaveASM type kinds, as bits of a type group's mask.
enum RegKind : unsigned {
  KindVReg = 1u << 0,
  KindSReg = 1u << 1,
  KindAReg = 1u << 2,
  KindPVReg = 1u << 3,
  KindPSReg = 1u << 4,
  KindPAReg = 1u << 5,
  KindImm = 1u << 6,
  KindSCC = 1u << 7,
};

/// The kind bit of `type` (0 for a type outside the dialect).
unsigned getRegKind(mlir::Type type);
/// "vreg", "psreg", ... for one kind bit.
llvm::StringRef getRegKindMnemonic(unsigned kindBit);
/// The kinds of `mask` in words: "vreg, sreg, pvreg, psreg, imm".
std::string describeKinds(unsigned mask);

/// One operand or result.
struct ValueSig {
  const char *name;    // "src0", "acc", "dst"
  const char *summary; // the type group: "VALU source operand"
  unsigned kinds;      // RegKind mask (0: not a WaveASM type group)
  unsigned arity;      // 0 one value, 1 optional, 2 variadic
  int width;           // registers the op requires (0: any)

  bool isVariadic() const { return arity == 2; }
  bool accepts(mlir::Type type) const;
};

/// One inherent attribute.
struct AttrSig {
  const char *name;         // "instOffset"
  const char *cppType;      // "uint64_t", "::llvm::StringRef"
  bool optional;            // optional or defaulted
  const char *defaultValue; // C++ text of the default ("" if none)
};

struct OpSignature {
  const char *mnemonic; // without "waveasm."
  const char *summary;
  const ValueSig *operandList;
  unsigned numOperands;
  const ValueSig *resultList;
  unsigned numResults;
  const AttrSig *attrList;
  unsigned numAttrs;
  const char *assemblyFormat; // "" for custom assembly
  bool customAssembly;
  unsigned numRegions;
  ExecUnit unit;
  LatencyClass latencyClass;
  int mfmaWidth; // accumulator/result registers of an MFMA, else 0

  llvm::ArrayRef<ValueSig> operands() const {
    return {operandList, numOperands};
  }
  llvm::ArrayRef<ValueSig> results() const { return {resultList, numResults}; }
  llvm::ArrayRef<AttrSig> attrs() const { return {attrList, numAttrs}; }
  std::string getName() const { return "waveasm." + std::string(mnemonic); }
};

/// Every op, sorted by mnemonic.
llvm::ArrayRef<OpSignature> getOpSignatures();
/// By mnemonic, with or without the "waveasm." prefix; null if unknown.
const OpSignature *lookupOpSignature(llvm::StringRef name);

/// An element of a declarative assembly format, in order.
struct FormatElement {
  enum Kind {
    Literal,   // `,` `:` `->` `[` `into` ...
    Operand,   // $src0 (index into operands())
    Attribute, // $value (index into attrs())
    Type,      // type($x): an operand (index) or a result (index + 1000)
    AttrDict,  // attr-dict
    Optional,  // an optional group opened by keyword `text` (index into
               // OpFormat::groups)
  } kind;
  llvm::StringRef text; // Literal, Optional: the keyword
  unsigned index = 0;
};
constexpr unsigned kResultTypeBase = 1000;

/// An op's declarative format. `functional-type(a, b)` becomes `(` types of
/// a `)` `->` types of b, `operands`/`results` every operand or result.
/// Optional groups opened by a keyword (`(`offset` `:` $instOffset^)?`)
/// are Optional elements with their elements (after the keyword) in
/// `groups`; other optional groups are left out.
struct OpFormat {
  std::vector<FormatElement> elements;
  std::vector<std::vector<FormatElement>> groups;
};

/// The op's format (cached; empty for custom assembly).
const OpFormat &getOpFormat(const OpSignature &sig);

} // namespace waveasm

#endif // WAVEASM_IR_OPSIGNATURES_H
