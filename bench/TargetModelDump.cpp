//===- TargetModelDump.cpp - the target model per opcode, as JSON ---------===//
//
// waveasm-target-model: prints, for gfx942 and gfx950, every WaveASM op's
// unit, result latency and unit occupancy (issue slots) from
// analysis/TargetModel, as {"gfx942": {"v_add_u32": {"unit", "latency",
// "occupancy"}, ...}, ...}. bench/mca_compare.py joins it with llvm-mca's
// per-instruction numbers (the same unit) to list where the two models
// differ. Ops are built detached and operand-less: every number here
// depends on the opcode (and f8f6f4 formats, left at the default) only.
//
//===----------------------------------------------------------------------===//

#include "analysis/TargetModel.h"
#include "ir/Dialect.h"
#include "ir/InstFacts.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Operation.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace waveasm;

int main() {
  MLIRContext ctx;
  ctx.loadDialect<WaveASMDialect>();
  llvm::json::Object out;
  for (TargetKind kind : {TargetKind::gfx942, TargetKind::gfx950}) {
    const TargetModel &model = TargetModel::get(kind);
    llvm::json::Object ops;
    for (RegisteredOperationName name : ctx.getRegisteredOperations()) {
      if (name.getDialectNamespace() != "waveasm")
        continue;
      OperationState state(UnknownLoc::get(&ctx), name);
      Operation *op = Operation::create(state);
      InstFacts facts = lookupInstFacts(op);
      if (facts.hasInfo && !facts.nonEmitting)
        ops[name.stripDialect()] =
            llvm::json::Object{{"unit", stringifyExecUnit(facts.unit)},
                               {"latency", model.getOpLatency(op)},
                               {"occupancy", model.getUnitOccupancy(op)}};
      op->destroy();
    }
    out[model.arch->name] = std::move(ops);
  }
  llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(out)))
               << "\n";
  return 0;
}
