//===- BankConflicts.h - LDS bank conflicts in hover and lint ---*- C++ -*-===//
//
// The texts of analysis/LdsBankConflicts.h's results for a ds op: the hover
// section and the bank-conflict lint's message with what to do about it.
// Both read the analysis of the compiled program, the one whose extra slots
// the cycle model charges, so they agree with the timing figures.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SERVER_FEATURES_BANKCONFLICTS_H
#define WAVEASM_SERVER_FEATURES_BANKCONFLICTS_H

#include "server/DocumentState.h"

#include "analysis/LdsBankConflicts.h"

#include <optional>
#include <string>

namespace waveasm::server {

/// "**LDS banks** (64 × 4 B): lane address lane × 128 B; 32-way bank
/// conflict ..." (markdown) for a ds op; empty for other ops.
std::string formatBankConflictHover(const LdsBankConflicts &banks,
                                    mlir::Operation *compiledOp);

/// The lint message for a ds op whose conflict costs clocks; nullopt
/// otherwise. Names the stride to pad (at its input line) when padding
/// helps.
std::optional<std::string> formatBankConflictLint(
    const ParsedDocument &parsed, const CompiledDocument &compiled,
    const LdsBankConflicts &banks, mlir::Operation *compiledOp);

} // namespace waveasm::server

#endif // WAVEASM_SERVER_FEATURES_BANKCONFLICTS_H
