//===- OpCoverage.cpp - which ops of the dialect the simulator executes ---===//

#include "sim/OpCoverage.h"
#include "sim/Decoded.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/OperationSupport.h"

#include <algorithm>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::sim;

std::vector<OpCoverage> waveasm::sim::listOpCoverage(MLIRContext &context) {
  std::vector<OpCoverage> out;
  for (RegisteredOperationName name : context.getRegisteredOperations()) {
    if (name.getDialectNamespace() != "waveasm")
      continue;
    // An op without operands, results or attributes: the decoders read the
    // name, the facts and attributes when present (none here).
    OperationState state(UnknownLoc::get(&context), name);
    Operation *op = Operation::create(state);
    DecodedOp decoded;
    decoded.op = op;
    decoded.facts = lookupInstFacts(op);
    decodeKind(decoded);
    OpCoverage entry;
    entry.name = name.stripDialect().str();
    entry.family = stringifyExecUnit(decoded.facts.unit).str();
    // The program is the container the interpreter runs, not an op of it.
    entry.simulated = isSimulated(decoded) || isa<ProgramOp>(op);
    out.push_back(std::move(entry));
    op->destroy();
  }
  std::sort(
      out.begin(), out.end(),
      [](const OpCoverage &a, const OpCoverage &b) { return a.name < b.name; });
  return out;
}
