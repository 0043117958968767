//===- NoAliasArgs.cpp - waveasm.program's noalias_args attribute ---------===//

#include "ir/NoAliasArgs.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace waveasm;

SmallVector<int64_t, 4> waveasm::getNoAliasArgs(Operation *program) {
  SmallVector<int64_t, 4> offsets;
  if (!program)
    return offsets;
  if (auto list = program->getAttrOfType<ArrayAttr>(kNoAliasArgsAttr))
    for (Attribute entry : list)
      if (auto value = dyn_cast<IntegerAttr>(entry))
        offsets.push_back(value.getInt());
  return offsets;
}

std::string waveasm::checkNoAliasArgs(Operation *program) {
  Attribute attr = program->getAttr(kNoAliasArgsAttr);
  if (!attr)
    return "";
  auto list = dyn_cast<ArrayAttr>(attr);
  const char *form = "; write it as noalias_args = [0, 8] (the kernarg byte "
                     "offsets of 64-bit pointer arguments)";
  if (!list)
    return std::string("'noalias_args' must be an array of integers") + form;
  llvm::SmallDenseSet<int64_t, 8> seen;
  for (Attribute entry : list) {
    auto value = dyn_cast<IntegerAttr>(entry);
    if (!value)
      return std::string("'noalias_args' must be an array of integers") + form;
    int64_t offset = value.getInt();
    if (offset < 0 || offset % 8 != 0)
      return "'noalias_args' entry " + std::to_string(offset) +
             " is not a kernarg offset of a 64-bit pointer (a non-negative "
             "multiple of 8)";
    if (!seen.insert(offset).second)
      return "'noalias_args' lists offset " + std::to_string(offset) + " twice";
  }
  return "";
}
