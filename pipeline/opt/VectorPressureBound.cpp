//===- VectorPressureBound.cpp - a cheap bound of the vector peak ---------===//

#include "pipeline/opt/VectorPressureBound.h"

#include "ir/InstFacts.h"
#include "pipeline/ForEachOp.h"
#include "pipeline/LiveIntervals.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <vector>

using namespace mlir;
using namespace waveasm;

namespace {

/// One pre-order walk over the program's ops, numbered as ProgramIndex
/// numbers them, tracking the VGPR and AGPR values only (the other classes
/// never share a group with them).
class BoundWalker {
public:
  int64_t run(ProgramOp program) {
    // Room for every value at once: growing the table rehashes it, and
    // growing the vectors copies them. Counted by an inlined walk
    // (ForEachOp.h; Region::walk calls back out of line on every op).
    size_t numValues = 0;
    forEachOpPreOrder(program.getBody(), [&](Operation *op) {
      numValues += op->getNumResults();
      for (Region &region : op->getRegions())
        for (Block &block : region)
          numValues += block.getNumArguments();
    });
    slotOf.reserve(numValues);
    values.reserve(numValues);
    parent.reserve(numValues);
    for (Operation &op : program.getBodyBlock())
      visit(&op);
    // A value used inside a loop that does not contain its definition
    // lives to that loop's end (the outermost such loop around the use).
    for (auto [slot, loop] : extensions)
      values[slot].end = std::max(values[slot].end, loopEnd[loop]);
    // Each value over its range, by the widest member of its union.
    std::vector<int32_t> widest(values.size(), 0);
    for (unsigned s = 0; s < values.size(); ++s) {
      int32_t &w = widest[find(s)];
      w = std::max(w, values[s].size);
    }
    std::vector<int64_t> delta[2];
    for (auto &d : delta)
      d.assign(numOps + 1, 0);
    for (unsigned s = 0; s < values.size(); ++s) {
      const Tracked &v = values[s];
      int32_t w = widest[find(s)];
      delta[v.agpr][v.start] += w;
      delta[v.agpr][v.end + 1] -= w;
    }
    int64_t total = 0;
    for (auto &d : delta) {
      int64_t live = 0, peak = 0;
      for (unsigned p = 0; p < numOps; ++p)
        peak = std::max(peak, live += d[p]);
      total += peak;
    }
    return total;
  }

private:
  struct Tracked {
    unsigned defOp; // the defining op, or the op owning the block argument
    unsigned start, end;
    int32_t size;
    bool agpr;
  };
  struct OpenLoop {
    unsigned idx, id;
  };

  /// Hashed as the allocator's models hash values (ValuePointerInfo).
  llvm::DenseMap<Value, unsigned, regalloc::ValuePointerInfo> slotOf;
  std::vector<Tracked> values;
  std::vector<unsigned> parent; // union-find over the values
  llvm::SmallVector<OpenLoop, 8> loops;
  std::vector<unsigned> loopEnd;                         // by loop id
  std::vector<std::pair<unsigned, unsigned>> extensions; // (value, loop id)
  unsigned numOps = 0;

  unsigned find(unsigned s) {
    while (parent[s] != s)
      s = parent[s] = parent[parent[s]];
    return s;
  }
  int lookup(Value v) const {
    auto it = slotOf.find(v);
    return it == slotOf.end() ? -1 : static_cast<int>(it->second);
  }
  /// Every relation Liveness may tie, between values of one class.
  void join(Value a, Value b) {
    int sa = lookup(a), sb = lookup(b);
    if (sa < 0 || sb < 0 || values[sa].agpr != values[sb].agpr)
      return;
    parent[find(sa)] = find(sb);
  }
  void add(Value v, unsigned idx) {
    RegTypeInfo type = getRegTypeInfo(v.getType());
    if (type.cls != RegClass::VGPR && type.cls != RegClass::AGPR)
      return;
    slotOf[v] = values.size();
    parent.push_back(values.size());
    values.push_back({idx, idx, idx, static_cast<int32_t>(type.size),
                      type.cls == RegClass::AGPR});
  }
  void use(Value v, unsigned idx) {
    // Most operands are SGPRs and immediates: a type check, no lookup.
    std::optional<RegClass> cls = getRegClass(v.getType());
    if (cls != RegClass::VGPR && cls != RegClass::AGPR)
      return;
    int s = lookup(v);
    if (s < 0)
      return;
    Tracked &info = values[s];
    info.end = std::max(info.end, idx);
    // The outermost open loop that starts after the definition (block
    // arguments of a loop are defined at the loop, inside it).
    for (const OpenLoop &loop : loops)
      if (loop.idx > info.defOp) {
        extensions.push_back({static_cast<unsigned>(s), loop.id});
        break;
      }
  }

  void visit(Operation *op) {
    unsigned idx = numOps++;
    for (Value operand : op->getOperands())
      use(operand, idx);
    for (Value result : op->getResults())
      add(result, idx);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          add(arg, idx);

    if (op->getNumRegions() == 0) {
      if (auto pack = dyn_cast<PackOp>(op)) {
        for (Value element : pack.getElements())
          join(element, pack.getResult());
      } else if (auto extract = dyn_cast<ExtractOp>(op)) {
        join(extract.getSource(), extract.getResult());
      } else if (auto insert = dyn_cast<InsertOp>(op)) {
        join(insert.getVector(), insert.getResult());
      } else if (InstFacts facts = lookupInstFacts(op); facts.hasInfo) {
        int tied = facts.tiedOperand;
        if (tied >= 0 && static_cast<unsigned>(tied) < op->getNumOperands() &&
            op->getNumResults() != 0)
          join(op->getOperand(tied), op->getResult(0));
      }
      return;
    }

    auto loop = dyn_cast<LoopOp>(op);
    if (loop) {
      loops.push_back({idx, static_cast<unsigned>(loopEnd.size())});
      loopEnd.push_back(idx);
    }
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Operation &nested : block)
          visit(&nested);
    unsigned last = numOps - 1;
    // Results of a region op are produced at its last op; block arguments
    // are live to it (the next iteration's value arrives there).
    for (Value result : op->getResults())
      if (int s = lookup(result); s >= 0)
        values[s].start = values[s].end = last;
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (int s = lookup(arg); s >= 0)
            values[s].end = std::max(values[s].end, last);

    if (loop) {
      loopEnd[loops.back().id] = last;
      loops.pop_back();
      if (!loop.getBody().empty()) {
        Block::BlockArgListType args = loop.getBody().getArguments();
        for (auto [i, arg] : llvm::enumerate(args)) {
          if (i < op->getNumResults())
            join(arg, op->getResult(i));
          if (i < op->getNumOperands())
            join(arg, op->getOperand(i));
        }
        if (ConditionOp cond = loop.getConditionOp())
          for (auto [arg, next] : llvm::zip(args, cond.getIterArgs()))
            join(arg, next);
      }
    } else if (auto ifOp = dyn_cast<IfOp>(op)) {
      for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()}) {
        YieldOp yield = ifOp.getYield(*region);
        if (!yield)
          continue;
        for (auto [value, result] :
             llvm::zip(yield->getOperands(), op->getResults())) {
          join(value, result);
          // A then region's yield is followed by the else region, which
          // its group's envelope covers: live to the if's last op.
          if (int s = lookup(value); s >= 0)
            values[s].end = std::max(values[s].end, last);
        }
      }
    }
  }
};

} // namespace

int64_t waveasm::boundVectorRegisterPeak(ProgramOp program) {
  if (program.getBody().empty())
    return 0;
  return BoundWalker().run(program);
}
