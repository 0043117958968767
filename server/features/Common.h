//===- Common.h - helpers shared by the feature implementations -*- C++ -*-===//
//
// Internal to server/features: naming ops and registers the way the
// editor shows them, and mapping between the input and the compiled IR.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SERVER_FEATURES_COMMON_H
#define WAVEASM_SERVER_FEATURES_COMMON_H

#include "server/DocumentState.h"

#include "ir/Dialect.h"

#include <string>

namespace waveasm::server::common {

/// The op name without the dialect prefix: "v_add_u32", "loop".
llvm::StringRef getMnemonic(mlir::Operation *op);
/// "VALU", "MFMA", ... ("pseudo" for ops that issue nothing).
std::string getUnitName(ExecUnit unit);
/// The op as one short line without types, e.g. "s_waitcnt vmcnt(0)",
/// "s_nop 1".
std::string getShortText(mlir::Operation *op);

/// "v7", "v[8:11]", "s[4:7]", "a0"; for virtual registers "VGPR x4".
std::string formatRegisters(mlir::Type type);
/// `type` as the printer spells it ("!waveasm.vreg<4, 4>").
std::string printType(mlir::Type type);
/// "VGPR", "SGPR", "AGPR", "imm", "scc".
std::string formatRegClass(mlir::Type type);

/// What to show of an op's timing: the steady-state iteration of its
/// innermost loop when it is in a loop (what repeats), else the program
/// timeline; `stall` excludes the waits inserted before the op, `waited`
/// is their stall.
struct EffectiveTiming {
  int64_t issueCycle = 0;
  int64_t stall = 0;
  int64_t waited = 0;
  int32_t latency = 0;
  StallReason reason = StallReason::None;
  bool steady = false;
  bool issued = false;
};
EffectiveTiming getEffectiveTiming(const CompiledOpInfo &info);

/// The input op entry standing for a compiled op: its own, or for an op
/// the pipeline inserted the next input op of its block (else its parent).
std::optional<unsigned> getEntryFor(const CompiledDocument &compiled,
                                    mlir::Operation *compiledOp);
/// The input value a compiled value comes from (null if inserted).
mlir::Value getInputValue(const ParsedDocument &parsed,
                          const CompiledDocument &compiled,
                          mlir::Value compiledValue);
/// The compiled counterpart of an input value (null if none).
mlir::Value getCompiledValue(const ParsedDocument &parsed,
                             const CompiledDocument &compiled,
                             mlir::Value inputValue);
/// "%x", or "%x#1" for a later result of a group; "<value>" if unnamed.
std::string getValueName(const ParsedDocument &parsed, mlir::Value value);
/// The definition range of an input value (nullopt if not written).
std::optional<lsp::Range> getValueDefRange(const ParsedDocument &parsed,
                                           mlir::Value value);

/// 1-based line of an op entry, for messages ("line 12").
int getDisplayLine(const ParsedDocument &parsed, unsigned entry);
/// The text of an op entry's definition, which an edit elsewhere (a move,
/// a new line above) leaves verbatim: how the op is found again in the
/// edited text.
llvm::StringRef getOpText(const ParsedDocument &parsed, unsigned entry);

/// An operand of a compiled op and the issued op its data comes from.
struct OperandSource {
  mlir::Value operand;                 // as read by the user
  mlir::Operation *producer = nullptr; // looking through free ops (extract)
  explicit operator bool() const { return producer != nullptr; }
};
/// The operand of compiled op `user` that is ready last by the annotations
/// (producer issue + latency), optionally only among data produced by
/// memory ops. Ops that issue nothing (extract, pack) pass readiness
/// through, so their inputs' producers count.
OperandSource findLatestOperand(const ProgramAnnotations &annotations,
                                mlir::Operation *user, bool memoryOnly);

bool isWaitOp(mlir::Operation *op);

lsp::Location makeLocation(const ParsedDocument &parsed, lsp::Range range);

/// A lint's diagnostic: `code`'s name, the severity it is reported with.
lsp::Diagnostic makeLintDiagnostic(LintCode code, lsp::Range range,
                                   lsp::DiagnosticSeverity severity,
                                   std::string message);

/// What a span of compiled ops (a program or a loop body) contains.
struct SpanSummary {
  int64_t instructions = 0; // issued
  int64_t waitcnts = 0;
  int64_t nops = 0;
  int64_t byUnit[kNumExecUnits] = {};
  RegCounts peak; // maximum pressure over the span
};
/// Over compiled op numbers [first, last] of `annotations`' program.
SpanSummary summarize(const ProgramAnnotations &annotations, unsigned first,
                      unsigned last);
/// "VALU 30 · MFMA 8 · ..." (units in ExecUnit order, zeros left out).
std::string formatMix(const SpanSummary &summary);

/// The whole program's lower bound (analysis/LoopBoundsProgram.h: every
/// legal schedule, loops unrolled to their trip counts).
struct LowerBound {
  int64_t cycles = 0;
  std::string unit; // "critical path", "issue" or a stringifyExecUnit name
};
LowerBound computeProgramLowerBound(const ProgramAnnotations &annotations);

/// Text table: columns padded to their widest cell; cells that parse as
/// numbers are right-aligned. The first row is the header.
std::string renderTable(const std::vector<std::vector<std::string>> &rows);

} // namespace waveasm::server::common

#endif // WAVEASM_SERVER_FEATURES_COMMON_H
