//===- TailHoist.cpp - moving ops up the code after a kernel --------------===//

#include "pipeline/opt/TailHoist.h"

#include "ir/InstFacts.h"
#include "pipeline/opt/OperandFacts.h"

using namespace mlir;
using namespace waveasm;

SmallVector<Operation *> waveasm::straightCodeAfter(LoopOp kernel) {
  SmallVector<Operation *> tail;
  for (Operation *op = kernel->getNextNode(); op; op = op->getNextNode()) {
    if (op->getNumRegions() || op->hasTrait<mlir::OpTrait::IsTerminator>())
      break;
    tail.push_back(op);
  }
  return tail;
}

bool waveasm::isPureMovable(Operation *op) {
  InstFacts facts = lookupInstFacts(op);
  if (!facts.hasInfo || facts.pinned || op->getNumRegions() ||
      hasPhysicalResults(op) || facts.memReads != MemNone ||
      facts.memWrites != MemNone || (facts.implicitDefs & ~ImpSCC) ||
      (facts.implicitUses & ~ImpEXEC))
    return false;
  if (llvm::any_of(op->getOperandTypes(), llvm::IsaPred<SCCType>))
    return false;
  return llvm::all_of(op->getResults(), [](Value r) {
    return !isa<SCCType>(r.getType()) || r.use_empty();
  });
}

int64_t waveasm::vectorRegisters(Value v) {
  std::optional<RegClass> cls = getRegClass(v.getType());
  return cls && *cls != RegClass::SGPR ? getRegSize(v.getType()) : 0;
}

HoistSlice
waveasm::collectHoistSlice(Operation *root,
                           const llvm::SmallPtrSetImpl<Operation *> &tail,
                           const llvm::SmallPtrSetImpl<Operation *> &moved) {
  HoistSlice slice;
  SmallVector<Operation *> work{root};
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    for (Value v : op->getOperands()) {
      Operation *def = v.getDefiningOp();
      if (!def || !tail.count(def) || slice.ops.count(def) ||
          slice.fixed.count(def))
        continue;
      if (moved.count(def) || !isPureMovable(def)) {
        slice.fixed.insert(def);
        continue;
      }
      slice.ops.insert(def);
      work.push_back(def);
    }
  }
  for (Value r : root->getResults())
    slice.width += vectorRegisters(r);
  for (Operation *op : slice.ops)
    for (Value r : op->getResults())
      if (llvm::any_of(r.getUsers(), [&](Operation *u) {
            return u != root && !slice.ops.count(u);
          }))
        slice.width += vectorRegisters(r);
  return slice;
}

void waveasm::hoistSlice(Operation *root, const HoistSlice &slice,
                         Operation *insertBefore,
                         llvm::DenseMap<Operation *, int32_t> &added,
                         llvm::SmallPtrSetImpl<Operation *> &moved) {
  SmallVector<Operation *> order;
  for (Operation *op = insertBefore; op != root; op = op->getNextNode()) {
    if (slice.ops.count(op))
      order.push_back(op);
    else
      added[op] += slice.width;
  }
  order.push_back(root);
  for (Operation *op : order) {
    op->moveBefore(insertBefore);
    moved.insert(op);
  }
}
