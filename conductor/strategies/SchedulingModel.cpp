//===- SchedulingModel.cpp - per-op numbers the list schedulers use -------===//

#include "conductor/strategies/SchedulingModel.h"

#include "ir/Dialect.h"
#include "ir/InstFacts.h"

using namespace mlir;

namespace waveasm::conductor {

static uint64_t edgeKey(unsigned from, unsigned to) {
  return (static_cast<uint64_t>(from) << 32) | to;
}

static std::optional<unsigned> trackedClass(Type type) {
  std::optional<RegClass> cls = getRegClass(type);
  if (cls == RegClass::VGPR)
    return 0;
  if (cls == RegClass::AGPR)
    return 1;
  return std::nullopt;
}

SchedulingModel::SchedulingModel(const DependenceGraph &graph,
                                 const TargetModel &target)
    : graph(graph) {
  unsigned n = graph.size();
  ops.resize(n);
  Block *block = n ? graph.getOp(0)->getBlock() : nullptr;
  llvm::DenseMap<Value, unsigned> valueIds;

  for (unsigned i = 0; i < n; ++i) {
    Operation *op = graph.getOp(i);
    InstFacts facts = lookupInstFacts(op);
    SchedOp &so = ops[i];
    if (graph.isFree(i)) {
      so.latency = 0;
      so.issueCycles = 0;
    } else if (op->getNumRegions() || !facts.hasInfo) {
      so.latency = 1;
    } else {
      so.latency = target.getOpLatency(op);
      if (facts.nonEmitting)
        so.issueCycles = 0;
    }
    if (facts.unit == ExecUnit::MFMA)
      so.mfmaOccupancy = target.getUnitOccupancy(op);
    so.isGlobalLoad = facts.unit == ExecUnit::VMEM &&
                      (facts.memReads & MemGlobal) && !facts.memWrites;
    so.deadResults =
        !graph.isFree(i) && !graph.isWall(i) && op->getNumResults() > 0 &&
        llvm::all_of(op->getResults(),
                     [](Value v) {
                       return v.use_empty() || isa<SCCType>(v.getType());
                     }) &&
        llvm::any_of(op->getResults(),
                     [](Value v) { return !isa<SCCType>(v.getType()); });
    so.isLDSRead = facts.unit == ExecUnit::LDS && (facts.memReads & MemLDS) &&
                   !facts.memWrites;

    for (Value result : op->getResults()) {
      std::optional<unsigned> cls = trackedClass(result.getType());
      if (!cls)
        continue;
      SchedValue sv{*cls, getRegSize(result.getType()), i, {}};
      // An accumulator updated in place: result 0 of an op whose tied
      // operand is a loop-carried value read only here (or such a result
      // itself) lives in the carried value's registers, which are live
      // across the whole block anyway (Liveness ties them into one block).
      if (cast<OpResult>(result).getResultNumber() == 0 &&
          facts.tiedOperand >= 0 &&
          static_cast<unsigned>(facts.tiedOperand) < op->getNumOperands()) {
        Value tied = op->getOperand(facts.tiedOperand);
        auto arg = dyn_cast<BlockArgument>(tied);
        bool carried = arg && arg.getOwner() == block && tied.hasOneUse();
        auto inBlock = valueIds.find(tied);
        bool chained = inBlock != valueIds.end() &&
                       values[inBlock->second].size == 0 && tied.hasOneUse();
        if (carried || chained)
          sv.size = 0;
      }
      for (Operation *user : result.getUsers())
        if (Operation *anc = block->findAncestorOpInBlock(*user))
          if (std::optional<unsigned> u = graph.indexOf(anc))
            sv.users.push_back(*u);
      llvm::sort(sv.users);
      sv.users.erase(std::unique(sv.users.begin(), sv.users.end()),
                     sv.users.end());
      valueIds[result] = values.size();
      so.defs.push_back(values.size());
      values.push_back(std::move(sv));
    }
  }

  for (unsigned i = 0; i < n; ++i) {
    Operation *op = graph.getOp(i);
    InstFacts facts = lookupInstFacts(op);
    SchedOp &so = ops[i];
    op->walk([&](Operation *nested) {
      for (OpOperand &operand : nested->getOpOperands()) {
        Value v = operand.get();
        Operation *def = v.getDefiningOp();
        if (!def)
          continue;
        Operation *anc = block->findAncestorOpInBlock(*def);
        if (!anc || anc == op)
          continue;
        unsigned d = *graph.indexOf(anc);
        int64_t lat = ops[d].latency;
        bool chain =
            nested == op && facts.unit == ExecUnit::MFMA &&
            static_cast<int>(operand.getOperandNumber()) == facts.tiedOperand &&
            ops[d].mfmaOccupancy > 0;
        if (chain)
          lat = target.getMFMAChainLatency(graph.getOp(d));
        int64_t &slot = dataLatency[edgeKey(d, i)];
        slot = std::max(slot, lat);
        auto it = valueIds.find(v);
        if (it == valueIds.end())
          continue;
        if (!llvm::is_contained(so.reads, it->second))
          so.reads.push_back(it->second);
        if (chain ||
            (nested == op &&
             static_cast<int>(operand.getOperandNumber()) == facts.tiedOperand))
          so.tiedValue = it->second;
      }
    });
  }

  heights.assign(n, 0);
  for (unsigned i = n; i-- > 0;) {
    int64_t h = std::max(ops[i].latency, ops[i].issueCycles);
    for (unsigned s : graph.succs(i))
      h = std::max(h, edgeLatency(i, s) + heights[s]);
    heights[i] = h;
  }
}

int64_t SchedulingModel::edgeLatency(unsigned from, unsigned to) const {
  auto it = dataLatency.find(edgeKey(from, to));
  if (it != dataLatency.end())
    return it->second;
  return ops[from].issueCycles;
}

SchedulingModel::PressureProfile
SchedulingModel::simulatePressure(llvm::ArrayRef<unsigned> order) const {
  PressureProfile profile;
  LiveTracker tracker(*this);
  for (unsigned i : order) {
    RegVector peak = tracker.peakIfPlaced(i);
    tracker.place(i);
    for (unsigned c = 0; c < kNumTrackedClasses; ++c) {
      profile.peak[c] = std::max(profile.peak[c], peak[c]);
      profile.area[c] += tracker.live()[c];
    }
  }
  return profile;
}

LiveTracker::LiveTracker(const SchedulingModel &model) : model(model) {
  remainingUsers.resize(model.getNumValues());
  defined.assign(model.getNumValues(), false);
  for (unsigned v = 0; v < model.getNumValues(); ++v)
    remainingUsers[v] = model.value(v).users.size();
}

RegVector LiveTracker::peakIfPlaced(unsigned i) const {
  const SchedOp &op = model.op(i);
  RegVector peak = liveNow;
  for (unsigned v : op.defs)
    peak[model.value(v).cls] += model.value(v).size;
  // An accumulator that dies here shares its registers with the result.
  if (op.tiedValue >= 0 && remainingUsers[op.tiedValue] == 1 &&
      !op.defs.empty() &&
      model.value(op.defs.front()).cls == model.value(op.tiedValue).cls)
    peak[model.value(op.tiedValue).cls] -= model.value(op.tiedValue).size;
  return peak;
}

RegVector LiveTracker::deltaIfPlaced(unsigned i) const {
  const SchedOp &op = model.op(i);
  RegVector delta = {0, 0};
  for (unsigned v : op.defs)
    if (!model.value(v).users.empty())
      delta[model.value(v).cls] += model.value(v).size;
  for (unsigned v : op.reads)
    if (remainingUsers[v] == 1 && defined[v])
      delta[model.value(v).cls] -= model.value(v).size;
  return delta;
}

void LiveTracker::place(unsigned i) {
  RegVector delta = deltaIfPlaced(i);
  for (unsigned c = 0; c < kNumTrackedClasses; ++c)
    liveNow[c] += delta[c];
  const SchedOp &op = model.op(i);
  for (unsigned v : op.defs)
    defined[v] = true;
  for (unsigned v : op.reads)
    if (remainingUsers[v] > 0)
      --remainingUsers[v];
}

} // namespace waveasm::conductor
