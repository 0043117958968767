//===- Workgroup.cpp - how many waves a program's workgroup has -----------===//

#include "ir/Workgroup.h"
#include "ir/Dialect.h"

using namespace mlir;
using namespace waveasm;

static ProgramOp programOf(Operation *op) {
  auto program = dyn_cast_or_null<ProgramOp>(op);
  if (!program && op)
    program = op->getParentOfType<ProgramOp>();
  return program;
}

std::optional<std::array<int64_t, 3>>
waveasm::getDeclaredWorkgroupSize(Operation *op) {
  ProgramOp program = programOf(op);
  if (!program)
    return std::nullopt;
  std::optional<ArrayAttr> size = program.getWorkgroupSize();
  if (!size)
    return std::nullopt;
  std::array<int64_t, 3> dims = {1, 1, 1};
  for (unsigned i = 0; i < 3 && i < size->size(); ++i)
    if (auto value = dyn_cast<IntegerAttr>((*size)[i]))
      dims[i] = std::max<int64_t>(value.getInt(), 1);
  return dims;
}

int64_t waveasm::getWorkgroupWorkItems(Operation *program, int64_t fallback) {
  std::optional<std::array<int64_t, 3>> dims =
      getDeclaredWorkgroupSize(program);
  return dims ? (*dims)[0] * (*dims)[1] * (*dims)[2] : fallback;
}

std::optional<int64_t> waveasm::getWorkgroupWaves(Operation *op) {
  ProgramOp program = programOf(op);
  if (!program || !program.getWorkgroupSize())
    return std::nullopt;
  int64_t threads = getWorkgroupWorkItems(program, 1);
  int64_t lanes = getTargetInfo(program.getTargetKind()).defaultWaveSize;
  return (threads + lanes - 1) / lanes;
}
