//===- Workgroup.cpp - how many waves a program's workgroup has -----------===//

#include "ir/Workgroup.h"
#include "ir/Dialect.h"

using namespace mlir;
using namespace waveasm;

std::optional<int64_t> waveasm::getWorkgroupWaves(Operation *op) {
  auto program = dyn_cast_or_null<ProgramOp>(op);
  if (!program && op)
    program = op->getParentOfType<ProgramOp>();
  if (!program)
    return std::nullopt;
  std::optional<ArrayAttr> size = program.getWorkgroupSize();
  if (!size)
    return std::nullopt;
  int64_t threads = 1;
  for (Attribute dim : *size)
    if (auto value = dyn_cast<IntegerAttr>(dim))
      threads *= std::max<int64_t>(value.getInt(), 1);
  int64_t lanes = getTargetInfo(program.getTargetKind()).defaultWaveSize;
  return (threads + lanes - 1) / lanes;
}
