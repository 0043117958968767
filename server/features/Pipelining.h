//===- Pipelining.h - software pipelining and LDS in the editor -*- C++ -*-===//
//
// Issue 12 item 5 in the editor:
//  - "Pipeline this loop (2 stages): -N cycles/iter, +M VGPR, LDS x1" on a
//    loop's header line (", occupancy 4 -> 3 waves" after the VGPRs when
//    the unified register file loses a wave): the Conductor's pipeline strategy
//    (conductor/strategies/PipelineStrategy.h) with that stage count, as a
//    Session round kept on est_cycles and checked by execution; the edit
//    replaces the program with the pipelined IR (prologue, steady state,
//    epilogue). Offered only when it lowers the program's est_cycles.
//  - "Plan LDS: LDS A -> B bytes (live peak P)": `--waveasm-lds-plan` with
//    `apply=true` when it moves a buffer, checked by execution.
//  - The loop lens: stages (when annotated, else why the loop cannot be
//    pipelined), the program's LDS peak (analysis/LdsPlan.h) and the bank
//    conflicts of the loop's ds ops (analysis/LdsBankConflicts.h).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SERVER_FEATURES_PIPELINING_H
#define WAVEASM_SERVER_FEATURES_PIPELINING_H

#include "server/Features.h"

#include "analysis/LdsBankConflicts.h"
#include "analysis/LdsPlan.h"
#include "analysis/Metrics.h"

#include <optional>
#include <string>
#include <vector>

namespace waveasm::server {

constexpr llvm::StringLiteral kPipelineLoopTitle = "Pipeline this loop";
constexpr llvm::StringLiteral kPlanLdsTitle = "Plan LDS";

/// The loop whose header line `pos` is on (a verified document; not on an
/// op of its body): where the loop-wide actions are offered.
std::optional<ScheduleTarget> findLoopHeaderAt(const ParsedDocument &parsed,
                                               lsp::Position pos);

/// The pipelining actions (2 and 3 stages) of the loop whose header line is
/// at `pos`; empty elsewhere, when the loop cannot be pipelined or when
/// pipelining does not lower est_cycles. Compiles the program a few times
/// and runs it in the simulator: for the worker.
std::vector<lsp::CodeAction>
computePipelineLoopActions(const ParsedDocument &parsed, lsp::Position pos,
                           const ServerSettings &settings,
                           const CodeActionOptions &options = {});

/// "Declare the kernel arguments ... apart" for the loop whose header line
/// is at `pos`: when a global store and another access of the loop address
/// through different kernel arguments and declaring them in the program's
/// `noalias_args` (analysis/PointerRoots.h) lets the loop be pipelined.
std::optional<lsp::CodeAction>
computeDeclareNoAliasAction(const ParsedDocument &parsed, lsp::Position pos,
                            const CodeActionOptions &options = {});

/// "Plan LDS" for the program around `pos`, when the plan moves a buffer
/// and the moved program computes the same.
std::optional<lsp::CodeAction>
computePlanLdsAction(const ParsedDocument &parsed, lsp::Position pos,
                     const CodeActionOptions &options = {});

/// "+24 VGPR", then ", +8 AGPR" when the AGPR peak moves and ", occupancy
/// 4 -> 3 waves" when the waves per SIMD change: the register cost in the
/// pipelining action's title.
std::string formatRegisterCost(const ProgramMetrics &before,
                               const ProgramMetrics &after);

/// ", 3 iterations as written per iteration: 40.3 each" for such a loop of
/// `cycles` slots per iteration; empty for 1.
std::string formatPerInputIteration(LoopOp loop, int64_t cycles);

/// `session`'s best metrics with the loop `loopIndex`'s est_cycles_per_iter
/// per iteration as written: a pipelined kernel that runs U input
/// iterations per iteration (waveasm.pipeline_steps) is divided by U, so
/// the figure compares with the baseline's.
ProgramMetrics bestMetricsPerInputIteration(const conductor::Session &session,
                                            std::optional<unsigned> loopIndex);

/// The edit replacing program `program` of `parsed` with program `program`
/// of `result` (a Session's pipelined result); nullopt when the new text does
/// not verify.
std::optional<lsp::TextEdit>
computePipelinedProgramEdit(const ParsedDocument &parsed, unsigned program,
                            mlir::ModuleOp result);

/// The loop lens "stages 2 · LDS peak 8192 B · bank conflicts: 4 ds ops,
/// +24 slots/iter" (parts that do not apply are left out; empty: no lens).
/// `parsedLoop` is the loop as written, `compiledLoop` its compiled
/// counterpart, `banks` the compiled program's conflicts.
std::string formatLoopPipelineLens(LoopOp parsedLoop,
                                   mlir::Operation *compiledLoop,
                                   const LdsProgramPlan &plan,
                                   const LdsBankConflicts &banks);

} // namespace waveasm::server

#endif // WAVEASM_SERVER_FEATURES_PIPELINING_H
