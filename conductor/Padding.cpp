//===- Padding.cpp - the `pad lds S P` command ----------------------------===//

#include "conductor/Padding.h"

#include "pipeline/opt/PadLdsLayout.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::conductor;

ProgramOp conductor::getRegionProgram(const TaggedRegion &region) {
  if (!region.block)
    return {};
  Operation *owner = region.block->getParentOp();
  if (auto program = dyn_cast<ProgramOp>(owner))
    return program;
  return owner->getParentOfType<ProgramOp>();
}

std::optional<LdsPadding> conductor::readPadding(ProgramOp program) {
  auto attr =
      program ? program->getAttrOfType<DenseI64ArrayAttr>(kLdsPaddingAttrName)
              : DenseI64ArrayAttr();
  if (!attr || attr.size() != 2)
    return std::nullopt;
  return LdsPadding{attr[0], attr[1]};
}

bool conductor::isPadded(const TaggedRegion &region) {
  return readPadding(getRegionProgram(region)).has_value();
}

std::optional<std::string>
conductor::applyPadCommand(const TaggedRegion &region,
                           const MoveCommand &command) {
  ProgramOp program = getRegionProgram(region);
  if (!program)
    return std::string("the region is not in a program");
  LdsPadding padding{command.stride, command.pad};
  LdsPaddingPlan plan = planLdsLayoutRewrite(program, padding);
  if (!plan.ok()) {
    // The access the plan names: its tag (what the prompt shows) and where
    // it is in the input (the tag wraps the parsed location).
    std::string where;
    if (plan.refusedAt)
      if (std::optional<llvm::StringRef> tag = getTag(plan.refusedAt)) {
        where = tag->str();
        auto name = cast<NameLoc>(plan.refusedAt->getLoc());
        if (auto file = dyn_cast<FileLineColLoc>(name.getChildLoc()))
          where += " (" + file.getFilename().str() + ":" +
                   std::to_string(file.getLine()) + ":" +
                   std::to_string(file.getColumn()) + ")";
        where += ": ";
      }
    return where + "the LDS cannot be padded so: " + plan.refusal;
  }
  program->setAttr(kLdsPaddingAttrName,
                   DenseI64ArrayAttr::get(program.getContext(),
                                          {padding.stride, padding.pad}));
  return std::nullopt;
}

bool conductor::applyRecordedPadding(ProgramOp program, std::string &why) {
  std::optional<LdsPadding> padding = readPadding(program);
  program->removeAttr(kLdsPaddingAttrName);
  if (!padding)
    return true;
  std::string refused;
  if (!padLdsLayout(program, padding, refused)) {
    why = "the LDS cannot be padded: " + refused;
    return false;
  }
  return true;
}
