//===- OpSignaturesGen.cpp - ODS -> the op signature table ----------------===//
//
// `-gen-op-signatures`: one `OpSignature` (ir/OpSignatures.h) per WaveASM op,
// read from the same ODS records that generate the ops, so completion and
// signature help can never offer a shape the verifier would refuse: operand
// and result names, their type groups as masks of register kinds, the
// widths the verifier demands (MFMA accumulator and result, the 4-SGPR
// buffer descriptor) or the data width of memory ops, attributes with their
// defaults, the declarative assembly format, the unit and latency class.
//
//===----------------------------------------------------------------------===//

#include "mlir/TableGen/GenInfo.h"
#include "mlir/TableGen/Operator.h"
#include "mlir/TableGen/Trait.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/TableGen/Error.h"
#include "llvm/TableGen/Record.h"
#include "llvm/TableGen/TableGenBackend.h"

#include <map>

using namespace llvm;
using namespace mlir::tblgen;

namespace {

/// The bit of each WaveASM type mnemonic (ir/OpSignatures.h RegKind).
unsigned kindBitOf(StringRef mnemonic) {
  return StringSwitch<unsigned>(mnemonic)
      .Case("vreg", 1u << 0)
      .Case("sreg", 1u << 1)
      .Case("areg", 1u << 2)
      .Case("pvreg", 1u << 3)
      .Case("psreg", 1u << 4)
      .Case("pareg", 1u << 5)
      .Case("imm", 1u << 6)
      .Case("scc", 1u << 7)
      .Default(0);
}

/// Kinds a type constraint accepts: an `AnyTypeOf` of WaveASM types or one
/// WaveASM type; 0 for anything else (then completion offers no type).
unsigned kindsOf(const Record *def) {
  if (def->isSubClassOf("Variadic") || def->isSubClassOf("Optional"))
    def = def->getValueAsDef("baseType");
  if (def->isSubClassOf("AnyTypeOf")) {
    unsigned mask = 0;
    for (const Record *type : def->getValueAsListOfDefs("allowedTypes"))
      mask |= kindsOf(type);
    return mask;
  }
  if (def->getValue("mnemonic"))
    if (std::optional<StringRef> m = def->getValueAsOptionalString("mnemonic"))
      return kindBitOf(*m);
  return 0;
}

std::string quote(StringRef text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

/// A trait parameter of `name` (`MFMAWidth<4>` -> "4"), if the op has it.
/// ParamNativeTrait spells the trait "MFMAWidth<4>::Impl".
std::optional<std::string> traitParam(const Operator &op, StringRef name) {
  for (const Trait &trait : op.getTraits()) {
    const Record &def = trait.getDef();
    if (!def.isSubClassOf("NativeTrait"))
      continue;
    StringRef spelled = def.getValueAsString("trait");
    if (!spelled.consume_front(name) || !spelled.consume_front("<"))
      continue;
    return spelled.take_until([](char c) { return c == '>'; }).str();
  }
  return std::nullopt;
}

struct ValueRow {
  std::string name, summary;
  unsigned kinds = 0;
  int arity = 0; // 0 single, 1 optional, 2 variadic
  int width = 0; // registers the op requires, 0 = any
};

ValueRow makeRow(const NamedTypeConstraint &value) {
  ValueRow row;
  row.name = value.name.str();
  row.summary = value.constraint.getSummary();
  row.kinds = kindsOf(&value.constraint.getDef());
  row.arity = value.isVariadic() ? 2 : value.isOptional() ? 1 : 0;
  return row;
}

void emitRows(raw_ostream &os, StringRef array,
              const std::vector<ValueRow> &rows) {
  if (rows.empty())
    return;
  os << "static const ValueSig " << array << "[] = {\n";
  for (const ValueRow &r : rows)
    os << formatv("  {{{0}, {1}, {2}, {3}, {4}},\n", quote(r.name),
                  quote(r.summary), r.kinds, r.arity, r.width);
  os << "};\n";
}

bool emitOpSignatures(const RecordKeeper &records, raw_ostream &os) {
  emitSourceFileHeader("WaveASM op signatures (ir/OpSignatures.h)", os,
                       records);
  // Sorted by mnemonic for lookupOpSignature's binary search.
  std::map<std::string, const Record *> ops;
  for (const Record *def : records.getAllDerivedDefinitions("Op")) {
    Operator op(def);
    if (op.getDialectName() != "waveasm")
      continue;
    std::string name = op.getOperationName();
    ops[StringRef(name).drop_front(strlen("waveasm.")).str()] = def;
  }

  unsigned index = 0;
  std::string table;
  raw_string_ostream tos(table);
  for (auto &[mnemonic, def] : ops) {
    Operator op(def);
    int mfma = 0, data = 0;
    if (std::optional<std::string> w = traitParam(op, "MFMAWidth"))
      to_integer(*w, mfma);
    bool buffer = traitParam(op, "BufferAccess").has_value();
    if (std::optional<StringRef> d =
            def->getValueAsOptionalString("dataDwords"))
      to_integer(*d, data);

    // A and B of an MFMA (0 for the scaled ones: their cbsz/blgp decide).
    int mfmaSrc = 0;
    if (const llvm::RecordVal *src = def->getValue("mfmaSrcRegs"))
      if (const auto *init = dyn_cast<llvm::IntInit>(src->getValue()))
        mfmaSrc = init->getValue();

    std::vector<ValueRow> operands, results, attrs;
    for (const NamedTypeConstraint &value : op.getOperands()) {
      ValueRow row = makeRow(value);
      if (mfma && row.name == "acc")
        row.width = mfma;
      if (mfmaSrc && (row.name == "a" || row.name == "b"))
        row.width = mfmaSrc;
      if (buffer && (row.name == "saddr" || row.name == "srd"))
        row.width = 4;
      if (data && row.name == "data")
        row.width = data;
      operands.push_back(row);
    }
    for (const NamedTypeConstraint &value : op.getResults()) {
      ValueRow row = makeRow(value);
      if (mfma && row.name == "dst")
        row.width = mfma;
      if (data && op.getNumResults() == 1 && data > 0)
        row.width = data;
      results.push_back(row);
    }
    std::string id = std::to_string(index++);
    emitRows(os, "operands" + id, operands);
    emitRows(os, "results" + id, results);

    std::vector<std::string> attrRows;
    for (const mlir::tblgen::NamedAttribute &attr : op.getAttributes()) {
      std::string defaultValue =
          attr.attr.hasDefaultValue() ? attr.attr.getDefaultValue().str() : "";
      bool optional = attr.attr.isOptional() || attr.attr.hasDefaultValue();
      attrRows.push_back(formatv("  {{{0}, {1}, {2}, {3}},\n", quote(attr.name),
                                 quote(attr.attr.getReturnType()), optional,
                                 quote(defaultValue)));
    }
    if (!attrRows.empty()) {
      os << "static const AttrSig attrs" << id << "[] = {\n";
      for (const std::string &row : attrRows)
        os << row;
      os << "};\n";
    }

    std::string format =
        def->getValueAsOptionalString("assemblyFormat").value_or("").str();
    // One line of text, for the runtime tokenizer.
    for (char &c : format)
      if (c == '\n')
        c = ' ';
    std::string summary = op.getSummary().str();
    auto arrayOr = [&](StringRef array, size_t n) {
      return n ? (array + id).str() + ", " + std::to_string(n)
               : std::string("nullptr, 0");
    };
    tos << formatv(
        "  {{{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}, "
        "::waveasm::ExecUnit::{8}, ::waveasm::LatencyClass::{9}, "
        "{10}},\n",
        quote(mnemonic), quote(summary), arrayOr("operands", operands.size()),
        arrayOr("results", results.size()), arrayOr("attrs", attrRows.size()),
        quote(StringRef(format).trim()),
        def->getValueAsBit("hasCustomAssemblyFormat"), op.getNumRegions(),
        def->getValueAsString("unit"), def->getValueAsString("latClass"), mfma);
  }
  os << "static const OpSignature kOpSignatures[] = {\n" << table << "};\n";
  return false;
}

mlir::GenRegistration
    genOpSignatures("gen-op-signatures",
                    "WaveASM op signatures for completion and signature help",
                    emitOpSignatures);

} // namespace
