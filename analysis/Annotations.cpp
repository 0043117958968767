//===- Annotations.cpp - per-instruction facts for the editor -------------===//

#include "analysis/Annotations.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace waveasm;

ProgramAnnotations::ProgramAnnotations(ProgramOp program)
    : ProgramAnnotations(program, TargetModel::get(program.getTargetKind())) {}

ProgramAnnotations::ProgramAnnotations(ProgramOp program,
                                       const TargetModel &targetModel)
    : target(std::make_unique<TargetModel>(targetModel)),
      index(std::make_unique<ProgramIndex>(program)),
      liveness(std::make_unique<Liveness>(*index)),
      cycles(std::make_unique<CycleModel>(*index, *target)) {
  unsigned numOps = index->getNumOps();
  annotations.resize(numOps);
  for (unsigned idx = 0; idx < numOps; ++idx) {
    InstAnnotation &a = annotations[idx];
    const OpTiming &t = cycles->getTiming(idx);
    a.issueCycle = t.issueCycle;
    a.stall = t.stall;
    a.stallReason = t.reason;
    a.latency = t.latency;
    a.issueCycles = t.issueCycles;
    a.issued = t.issued;
    a.unit = cycles->getOpFacts()[idx].unit;
    if (const OpTiming *s = cycles->getSteadyTiming(idx)) {
      a.inLoop = true;
      a.steadyIssueCycle = s->issueCycle;
      a.steadyStall = s->stall;
      a.steadyStallReason = s->reason;
    }
    a.liveAfter = liveness->getLiveAfter(idx);
    a.pressure = liveness->getPressure(idx);
  }
}

const InstAnnotation *ProgramAnnotations::lookup(Operation *op) const {
  std::optional<unsigned> idx = index->lookup(op);
  return idx ? &annotations[*idx] : nullptr;
}

int64_t ProgramAnnotations::getOccupancy() const {
  return target->getProgramOccupancy(getProgram(), getPeak(RegClass::VGPR).regs,
                                     getPeak(RegClass::AGPR).regs,
                                     getPeak(RegClass::SGPR).regs);
}

void ProgramAnnotations::print(llvm::raw_ostream &os) const {
  os << "program @" << getProgram().getSymName() << ": " << getTotalCycles()
     << " cycles, critical path " << getCriticalPath() << ", peaks v"
     << getPeak(RegClass::VGPR).regs << " s" << getPeak(RegClass::SGPR).regs
     << " a" << getPeak(RegClass::AGPR).regs << ", occupancy " << getOccupancy()
     << "\n";
  for (unsigned idx = 0; idx < annotations.size(); ++idx) {
    const InstAnnotation &a = annotations[idx];
    Operation *op = index->getOp(idx);
    os << llvm::formatv("{0,5} ", idx);
    if (a.issued)
      os << llvm::formatv("@{0,-6} +{1,-4} lat {2,-3} {3,-6}", a.issueCycle,
                          a.stall, a.latency, stringifyExecUnit(a.unit));
    else
      os << llvm::formatv("{0,-31}", "-");
    if (a.inLoop && a.issued)
      os << llvm::formatv(" | ss @{0,-5} +{1,-4}", a.steadyIssueCycle,
                          a.steadyStall);
    else
      os << llvm::formatv(" | {0,-15}", "");
    os << llvm::formatv(" | v{0,-4} s{1,-3} a{2,-4}| ", a.liveAfter.vgprs(),
                        a.liveAfter.sgprs(), a.liveAfter.agprs());
    for (unsigned depth = 0, p = idx;
         index->getParentLoop(p) != ProgramIndex::kNone;
         p = index->getParentLoop(p), ++depth)
      os << "  ";
    os << op->getName().getStringRef();
    if (auto loc = dyn_cast<NameLoc>(op->getLoc()))
      os << " loc(" << loc.getName() << ")";
    if (a.stall > 0)
      os << "  ; stall: " << stringifyStallReason(a.stallReason);
    os << "\n";
  }
  for (const LoopTiming &loop : getLoops())
    os << llvm::formatv("loop at {0}: {1} trips ({2}), first iteration {3}, "
                        "steady {4}, lower bound {5} ({6}), critical path "
                        "{7}\n",
                        loop.index, loop.tripCount.count,
                        stringifyTripCountSource(loop.tripCount.source),
                        loop.firstIterationCycles, loop.steadyStateCycles,
                        loop.lowerBoundCycles, describeBoundKind(loop),
                        loop.criticalPath);
  for (const UncoveredDependency &dep : getUncoveredDependencies())
    os << llvm::formatv("uncovered: op {0} reads the result of op {1} "
                        "(stall {2})\n",
                        *index->lookup(dep.user),
                        dep.load ? int64_t(*index->lookup(dep.load)) : -1,
                        dep.stallCycles);
}
