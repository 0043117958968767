//===- LoopNumbering.h - a program's loops by number ------------*- C++ -*-===//
//
// Loops are numbered in pre-order within their waveasm.program: the order
// of the metrics' `loops` list, the lens and the pipelining table. A
// pipelined loop keeps its number (its prologue is straight-line code, and
// a guard's fallback loop comes after the kernel).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_IR_LOOPNUMBERING_H
#define WAVEASM_IR_LOOPNUMBERING_H

#include "ir/Dialect.h"

#include <optional>

namespace waveasm {

/// The number of `loop` among its program's loops; none outside a program.
std::optional<unsigned> getLoopNumber(LoopOp loop);
/// The loop numbered `number` in `program`, or null.
LoopOp getLoopByNumber(ProgramOp program, unsigned number);

} // namespace waveasm

#endif // WAVEASM_IR_LOOPNUMBERING_H
