//===- BankConflicts.cpp - LDS bank conflicts in hover and lint -----------===//

#include "server/features/BankConflicts.h"

#include "server/features/Common.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::server;

std::string
waveasm::server::formatBankConflictHover(const LdsBankConflicts &banks,
                                         Operation *compiledOp) {
  const LdsAccessInfo *access = banks.lookup(compiledOp);
  if (!access)
    return "";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "**LDS banks** (" << banks.getModel().banks << " × 4 B): ";
  if (!access->known) {
    os << "unknown: " << access->whyUnknown << "\n\n";
    return text;
  }
  os << "lane address " << describeLdsPattern(*access) << "; ";
  const LdsBankCost &c = access->cost;
  if (c.degree <= 1)
    os << "no bank conflict";
  else
    os << c.degree << "-way bank conflict";
  os << " (" << c.phases << (c.phases == 1 ? " phase" : " phases") << " of "
     << access->bytesPerLane << " B per lane): " << c.clocks << " LDS clocks";
  if (c.extraClocks() > 0)
    os << " instead of " << c.idealClocks << ", **+" << access->extraSlots
       << " issue slot" << (access->extraSlots == 1 ? "" : "s") << "**";
  os << "\n\n";
  return text;
}

std::optional<std::string> waveasm::server::formatBankConflictLint(
    const ParsedDocument &parsed, const CompiledDocument &compiled,
    const LdsBankConflicts &banks, Operation *compiledOp) {
  const LdsAccessInfo *access = banks.lookup(compiledOp);
  if (!access || !access->known || access->cost.extraClocks() <= 0)
    return std::nullopt;
  const LdsBankCost &c = access->cost;
  std::string message = llvm::formatv(
      "`{0}` has a {1}-way LDS bank conflict (lane address {2}, {3} banks "
      "of 4 B): {4} LDS clocks instead of {5}, +{6} issue slots each time",
      common::getMnemonic(compiledOp), c.degree, describeLdsPattern(*access),
      banks.getModel().banks, c.clocks, c.idealClocks, access->extraSlots);
  if (std::optional<LdsPaddingHint> hint = banks.suggestPadding(*access)) {
    std::string where = "`" + common::getMnemonic(hint->op).str() + "`";
    if (std::optional<unsigned> e = compiled.lookupCompiled(hint->op))
      where += " on line " + std::to_string(common::getDisplayLine(parsed, *e));
    message += llvm::formatv(
        "; pad the row stride from {0} to {1} bytes ({2}) to make it {3}; "
        "every access to that LDS region must use the same layout, and the "
        "LDS use grows",
        hint->fromBytes, hint->toBytes, where,
        hint->degree == 1 ? std::string("conflict-free")
                          : std::to_string(hint->degree) + "-way");
  } else {
    message += "; `waveasm-opt --waveasm-pad-lds-layout` pads the LDS rows "
               "of every access alike, or pad the row stride by one bank (4 "
               "bytes) or swizzle the layout (XOR the column with the row)";
  }
  return message;
}
