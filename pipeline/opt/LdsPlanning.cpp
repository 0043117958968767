//===- LdsPlanning.cpp - waveasm-lds-plan ---------------------------------===//
//
// Seed 004's memory planner on LDS: the plan of analysis/LdsPlan.h per
// program, its JSON on stdout, the out-of-memory error, and with `apply`
// the move of each movable buffer to its planned offset.
//
// A move rewrites the `offset` attribute of every ds op of the buffer by the
// same delta, which is exact because the analysis proved each of those ops
// touches only that buffer's bytes. It is done only when the plan is
// complete (every LDS address bounded), fits, and ends below the bytes the
// program uses as written; a buffer whose ops would need an offset outside
// the 16-bit field stays where it is and the rest is planned again.
// `lds_size` shrinks to the new end. Otherwise the IR is left byte-identical
// (the reason under --debug-only=waveasm-lds-plan).
//
//===----------------------------------------------------------------------===//

#include "pipeline/Passes.h"

#include "analysis/LdsPlan.h"
#include "ir/TargetInfo.h"

#include "mlir/IR/Builders.h"

#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"

#define DEBUG_TYPE "waveasm-lds-plan"

namespace waveasm {
#define GEN_PASS_DEF_WAVEASMLDSPLAN
#include "pipeline/Passes.h.inc"
} // namespace waveasm

using namespace mlir;
using namespace waveasm;

namespace {

/// The ds `offset` field is 16 bits.
constexpr int64_t kMaxDsOffset = 65535;

int64_t offsetOf(Operation *op) {
  if (auto attr = op->getAttrOfType<IntegerAttr>("offset"))
    return attr.getInt();
  return 0;
}

/// The error at the op where the most bytes are live, naming them.
void reportOutOfMemory(ProgramOp program, const LdsProgramPlan &plan) {
  const LdsArena &arena = plan.arena;
  Operation *at = arena.peakAt < plan.info.ops.size()
                      ? plan.info.ops[arena.peakAt]
                      : program.getOperation();
  std::string live;
  llvm::raw_string_ostream os(live);
  llvm::interleaveComma(arena.liveAtPeak, os, [&](unsigned b) {
    os << describeLdsBuffer(plan, b) << " " << plan.items[b].size << " B";
  });
  InFlightDiagnostic diag = emitError(at->getLoc())
                            << "LDS plan of @" << program.getSymName()
                            << " needs " << arena.arenaBytes << " bytes but "
                            << getTargetInfo(program.getTargetKind()).name
                            << " has " << plan.capacity << " per workgroup ("
                            << arena.arenaBytes - plan.capacity
                            << " bytes over); " << arena.peakBytes
                            << " bytes live here in " << arena.liveAtPeak.size()
                            << " buffers: " << live << "; nothing was changed";
  for (unsigned b : arena.liveAtPeak)
    diag.attachNote(plan.info.buffers[b].firstAccess->getLoc())
        << describeLdsBuffer(plan, b) << " (" << plan.items[b].size
        << " bytes) is first accessed here";
}

/// Buffers whose planned move would put an access's offset outside the
/// ds field.
std::vector<unsigned> unmovable(const LdsProgramPlan &plan) {
  std::vector<unsigned> out;
  for (auto [b, buffer] : llvm::enumerate(plan.info.buffers)) {
    int64_t delta = plan.arena.offsets[b] - buffer.begin;
    if (delta == 0 || !buffer.movable)
      continue;
    for (unsigned a : buffer.accesses) {
      int64_t offset = offsetOf(plan.info.accesses[a].op) + delta;
      if (offset < 0 || offset > kMaxDsOffset) {
        out.push_back(b);
        break;
      }
    }
  }
  return out;
}

struct LdsPlanPass : public waveasm::impl::WaveASMLdsPlanBase<LdsPlanPass> {
  using Base::Base;

  void runOnOperation() override {
    llvm::json::Array programs;
    bool failed = false, changed = false;
    getOperation().walk([&](ProgramOp program) {
      LdsPlanOptions options;
      options.alignment = std::max<int64_t>(alignment, 1);
      LdsProgramPlan plan = planLds(program, options);
      if (!plan.fits()) {
        reportOutOfMemory(program, plan);
        failed = true;
      } else if (apply) {
        changed |= applyPlan(program, plan, options);
      }
      programs.push_back(ldsPlanToJSON(program, plan));
    });
    if (json)
      llvm::outs() << llvm::formatv("{0:2}\n",
                                    llvm::json::Value(llvm::json::Object{
                                        {"programs", std::move(programs)}}));
    if (failed)
      return signalPassFailure();
    if (!changed)
      markAllAnalysesPreserved();
  }

  /// Moves the buffers; `plan` becomes the plan applied.
  bool applyPlan(ProgramOp program, LdsProgramPlan &plan,
                 const LdsPlanOptions &options) {
    if (!plan.info.complete()) {
      LLVM_DEBUG(llvm::dbgs()
                 << "[" DEBUG_TYPE "] @" << program.getSymName()
                 << ": not applied, the address of "
                 << plan.info.unknownAccess->getLoc() << " is not bounded\n");
      return false;
    }
    std::vector<unsigned> pinned;
    for (std::vector<unsigned> more = unmovable(plan); !more.empty();
         more = unmovable(plan)) {
      pinned.insert(pinned.end(), more.begin(), more.end());
      plan = planLds(program, options, pinned);
    }
    if (!plan.fits() || plan.arena.arenaBytes >= plan.originalBytes) {
      LLVM_DEBUG(llvm::dbgs()
                 << "[" DEBUG_TYPE "] @" << program.getSymName()
                 << ": not applied, the plan needs " << plan.arena.arenaBytes
                 << " bytes, as written " << plan.originalBytes << "\n");
      return false;
    }
    Builder builder(program.getContext());
    for (auto [b, buffer] : llvm::enumerate(plan.info.buffers)) {
      int64_t delta = plan.arena.offsets[b] - buffer.begin;
      if (delta == 0)
        continue;
      for (unsigned a : buffer.accesses) {
        Operation *op = plan.info.accesses[a].op;
        op->setAttr("offset", builder.getI64IntegerAttr(offsetOf(op) + delta));
      }
    }
    if (plan.declaredBytes && *plan.declaredBytes > plan.arena.arenaBytes)
      program.setLdsSize(plan.arena.arenaBytes);
    LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] @" << program.getSymName()
                            << ": " << plan.originalBytes << " -> "
                            << plan.arena.arenaBytes << " bytes\n");
    return true;
  }
};

} // namespace
