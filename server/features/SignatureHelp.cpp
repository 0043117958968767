//===- SignatureHelp.cpp - textDocument/signatureHelp ---------------------===//
//
// The op's operands and results as one signature,
//   waveasm.v_add_u32(src0: VALU source operand, src1: VALU source operand)
//       -> (dst: any VGPR)
// with the parameter under the cursor active: the operand being written,
// or the operand or result whose type is being written.
//
//===----------------------------------------------------------------------===//

#include "server/Completion.h"
#include "server/features/Common.h"
#include "server/features/OpLineContext.h"

#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace waveasm::server {

namespace {

std::string describeValue(const ValueSig &value) {
  std::string out =
      std::string(value.summary) + ": " + describeKinds(value.kinds);
  if (value.width)
    out += "; " + std::to_string(value.width) + " registers" +
           (StringRef(value.name) == "acc" ? " (or 1, or an immediate)" : "");
  if (value.isVariadic())
    out += "; any number";
  return out;
}

} // namespace

std::optional<lsp::SignatureHelp> computeSignatureHelp(StringRef text,
                                                       lsp::Position pos) {
  StatementText stmt = getStatementAt(text, pos.line, pos.character);
  if (!stmt.valid)
    return std::nullopt;
  OpLineContext ctx = analyzeOpLine(stmt.text, stmt.cursor);
  const OpSignature *sig = ctx.op;
  if (!sig || sig->customAssembly || (!sig->numOperands && !sig->numResults))
    return std::nullopt;
  using Where = OpLineContext::Where;
  std::optional<unsigned> active;
  switch (ctx.where) {
  case Where::Operand:
  case Where::Literal:
  case Where::Nothing:
  case Where::TypeSlot:
    if (ctx.slot != ~0u)
      active = ctx.slot >= kResultTypeBase
                   ? sig->numOperands + (ctx.slot - kResultTypeBase)
                   : ctx.slot;
    break;
  case Where::AttrName:
  case Where::AttrValue:
  case Where::TypeText:
    break;
  default:
    return std::nullopt;
  }

  lsp::SignatureInformation info;
  std::string &label = info.label;
  auto param = [&](const ValueSig &value) {
    lsp::ParameterInformation p;
    p.labelStart = label.size();
    label += std::string(value.name) + (value.isVariadic() ? "..." : "") +
             ": " + value.summary;
    p.labelEnd = label.size(); // ASCII: UTF-16 offsets are byte offsets
    p.documentation =
        lsp::MarkupContent{lsp::MarkupKind::Markdown, describeValue(value)};
    info.parameters.push_back(std::move(p));
  };
  label = sig->getName() + "(";
  for (auto [i, operand] : llvm::enumerate(sig->operands())) {
    if (i)
      label += ", ";
    param(operand);
  }
  label += ")";
  if (sig->numResults) {
    label += " -> (";
    for (auto [i, result] : llvm::enumerate(sig->results())) {
      if (i)
        label += ", ";
      param(result);
    }
    label += ")";
  }
  std::string doc = common::getUnitName(sig->unit);
  if (sig->latencyClass != LatencyClass::None)
    doc += " · latency class " + stringifyLatencyClass(sig->latencyClass).str();
  if (*sig->summary)
    doc += " · " + std::string(sig->summary);
  info.documentation = lsp::MarkupContent{lsp::MarkupKind::Markdown, doc};
  info.activeParameter = active;

  lsp::SignatureHelp help;
  help.activeParameter = active;
  help.signatures.push_back(std::move(info));
  return help;
}

} // namespace waveasm::server
