//===- OpSignatures.cpp - the generated op signature table ----------------===//

#include "ir/OpSignatures.h"
#include "ir/Dialect.h"
#include "ir/RegisterTypes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#include <memory>
#include <mutex>

using namespace llvm;

namespace waveasm {

#include "ir/OpSignatures.inc"

unsigned getRegKind(mlir::Type type) {
  return TypeSwitch<mlir::Type, unsigned>(type)
      .Case<VRegType>([](auto) { return KindVReg; })
      .Case<SRegType>([](auto) { return KindSReg; })
      .Case<ARegType>([](auto) { return KindAReg; })
      .Case<PVRegType>([](auto) { return KindPVReg; })
      .Case<PSRegType>([](auto) { return KindPSReg; })
      .Case<PARegType>([](auto) { return KindPAReg; })
      .Case<ImmType>([](auto) { return KindImm; })
      .Case<SCCType>([](auto) { return KindSCC; })
      .Default([](auto) { return 0u; });
}

StringRef getRegKindMnemonic(unsigned kindBit) {
  switch (kindBit) {
  case KindVReg:
    return "vreg";
  case KindSReg:
    return "sreg";
  case KindAReg:
    return "areg";
  case KindPVReg:
    return "pvreg";
  case KindPSReg:
    return "psreg";
  case KindPAReg:
    return "pareg";
  case KindImm:
    return "imm";
  case KindSCC:
    return "scc";
  default:
    return "";
  }
}

std::string describeKinds(unsigned mask) {
  SmallVector<StringRef, 8> names;
  for (unsigned bit = 1; bit <= KindSCC; bit <<= 1)
    if (mask & bit)
      names.push_back(getRegKindMnemonic(bit));
  return join(names, ", ");
}

bool ValueSig::accepts(mlir::Type type) const {
  if (!(kinds & getRegKind(type)))
    return false;
  // Immediates and SCC have no width to check; an MFMA accumulator may
  // also be one register (SPEC.md 9.2).
  if (!width || isa<ImmType, SCCType>(type))
    return true;
  int64_t size = getRegSize(type);
  return size == width || (StringRef(name) == "acc" && size == 1);
}

ArrayRef<OpSignature> getOpSignatures() { return kOpSignatures; }

const OpSignature *lookupOpSignature(StringRef name) {
  name.consume_front("waveasm.");
  const OpSignature *it = llvm::lower_bound(
      kOpSignatures, name, [](const OpSignature &sig, StringRef key) {
        return StringRef(sig.mnemonic) < key;
      });
  if (it == std::end(kOpSignatures) || StringRef(it->mnemonic) != name)
    return nullptr;
  return it;
}

namespace {

/// Splits a declarative assembly format into FormatElements.
class FormatSplitter {
public:
  FormatSplitter(const OpSignature &sig) : sig(sig) {}

  OpFormat split(StringRef format) {
    OpFormat result;
    rest = format;
    while (!(rest = rest.ltrim()).empty())
      step(result);
    result.elements = std::move(out);
    return result;
  }

private:
  void step(OpFormat &result) {
    if (rest.consume_front("`")) {
      size_t end = rest.find('`');
      out.push_back({FormatElement::Literal, rest.take_front(end), 0});
      rest = rest.drop_front(end == StringRef::npos ? rest.size() : end + 1);
      return;
    }
    if (rest.starts_with("(")) { // an optional group
      int depth = 0;
      size_t i = 0;
      for (; i < rest.size(); ++i) {
        if (rest[i] == '`') // literals may hold parentheses
          i = rest.find('`', i + 1);
        if (i == StringRef::npos)
          break;
        if (rest[i] == '(')
          ++depth;
        else if (rest[i] == ')' && --depth == 0)
          break;
      }
      StringRef body = rest.slice(1, std::min(i, rest.size()));
      rest = i >= rest.size() ? StringRef() : rest.drop_front(i + 1);
      rest.consume_front("?");
      // Kept when a keyword opens it: the keyword says the group is there.
      FormatSplitter inner(sig);
      OpFormat group = inner.split(body);
      if (group.elements.empty() ||
          group.elements[0].kind != FormatElement::Literal ||
          group.elements[0].text.empty() ||
          !isAlpha(group.elements[0].text.front()))
        return;
      StringRef keyword = group.elements[0].text;
      group.elements.erase(group.elements.begin());
      out.push_back(
          {FormatElement::Optional, keyword, unsigned(result.groups.size())});
      result.groups.push_back(std::move(group.elements));
      return;
    }
    if (rest.consume_front("attr-dict-with-keyword") ||
        rest.consume_front("attr-dict")) {
      out.push_back({FormatElement::AttrDict, "", 0});
      return;
    }
    if (rest.consume_front("functional-type(")) {
      StringRef args = rest.take_until([](char c) { return c == ')'; });
      rest = rest.drop_front(std::min(args.size() + 1, rest.size()));
      auto [from, to] = args.split(',');
      out.push_back({FormatElement::Literal, "(", 0});
      typesOf(from.trim(), /*commas=*/true);
      out.push_back({FormatElement::Literal, ")", 0});
      out.push_back({FormatElement::Literal, "->", 0});
      typesOf(to.trim(), /*commas=*/true);
      return;
    }
    if (rest.consume_front("type(")) {
      StringRef arg = rest.take_until([](char c) { return c == ')'; });
      rest = rest.drop_front(std::min(arg.size() + 1, rest.size()));
      typesOf(arg.trim(), /*commas=*/false);
      return;
    }
    if (rest.consume_front("operands")) {
      for (unsigned i = 0; i < sig.numOperands; ++i) {
        if (i)
          out.push_back({FormatElement::Literal, ",", 0});
        out.push_back({FormatElement::Operand, "", i});
      }
      return;
    }
    if (rest.consume_front("$")) {
      StringRef name =
          rest.take_while([](char c) { return isAlnum(c) || c == '_'; });
      rest = rest.drop_front(name.size());
      rest.consume_front("^"); // an optional group's anchor
      if (std::optional<unsigned> i = indexOf(sig.operands(), name))
        out.push_back({FormatElement::Operand, "", *i});
      else if (std::optional<unsigned> i = attrIndex(name))
        out.push_back({FormatElement::Attribute, "", *i});
      return; // regions, successors: nothing to complete
    }
    // Anything else (custom directives) is skipped word by word.
    rest = rest.drop_front(std::max<size_t>(1, rest.find(' ')));
  }

  /// type($x) / `operands` / `results` as Type elements.
  void typesOf(StringRef arg, bool commas) {
    auto add = [&](unsigned index, bool first) {
      if (commas && !first)
        out.push_back({FormatElement::Literal, ",", 0});
      out.push_back({FormatElement::Type, "", index});
    };
    if (arg == "operands") {
      for (unsigned i = 0; i < sig.numOperands; ++i)
        add(i, i == 0);
      return;
    }
    if (arg == "results") {
      for (unsigned i = 0; i < sig.numResults; ++i)
        add(kResultTypeBase + i, i == 0);
      return;
    }
    arg.consume_front("$");
    if (std::optional<unsigned> i = indexOf(sig.operands(), arg))
      add(*i, true);
    else if (std::optional<unsigned> i = indexOf(sig.results(), arg))
      add(kResultTypeBase + *i, true);
  }

  static std::optional<unsigned> indexOf(ArrayRef<ValueSig> values,
                                         StringRef name) {
    for (auto [i, value] : llvm::enumerate(values))
      if (name == value.name)
        return i;
    return std::nullopt;
  }
  std::optional<unsigned> attrIndex(StringRef name) const {
    for (auto [i, attr] : llvm::enumerate(sig.attrs()))
      if (name == attr.name)
        return i;
    return std::nullopt;
  }

  const OpSignature &sig;
  StringRef rest;
  std::vector<FormatElement> out;
};

} // namespace

const OpFormat &getOpFormat(const OpSignature &sig) {
  static std::once_flag once;
  static std::unique_ptr<OpFormat[]> cache;
  std::call_once(once, [] {
    cache = std::make_unique<OpFormat[]>(std::size(kOpSignatures));
    for (auto [i, op] : llvm::enumerate(kOpSignatures))
      if (!op.customAssembly)
        cache[i] = FormatSplitter(op).split(op.assemblyFormat);
  });
  return cache[&sig - kOpSignatures];
}

} // namespace waveasm
