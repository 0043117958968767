//===- VectorPressureBound.h - a cheap bound of the vector peak -*- C++ -*-===//
//
// An upper bound of Liveness's peak VGPRs plus its peak AGPRs
// (analysis/Liveness.h) of one program, in one walk that builds no
// ProgramIndex and no tied groups. Loop address promotion only asks whether
// that peak is far below its limit, a question monotone in the peak: where
// the bound answers yes, the exact peak answers yes too, and only where it
// does not is Liveness built (the same decision on every input, for a
// fifth of the cost where the bound suffices).
//
// Why it bounds: Liveness counts, at each point, every tied group whose
// envelope (the first start to the last end of its members' ranges) covers
// the point, by the size of the group's widest member. Here each value
// counts over its own range, computed as Liveness computes it, by the
// widest member of the union of every group it could join (every pack,
// extract, insert, loop, if and tied-operand relation of its class, whether
// Liveness's conflict checks admit it or not). Each relation Liveness ties
// joins two ranges that touch or overlap, so the members' ranges cover
// their group's envelope, except for a value yielded by an if's then
// region: the else region lies between its yield and the if's result, so
// here every yielded value lives to the if's last op. At each point, each
// group covering it then has a member covering it, distinct groups have
// distinct members, and each member counts at least its group's size.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPT_VECTORPRESSUREBOUND_H
#define WAVEASM_PIPELINE_OPT_VECTORPRESSUREBOUND_H

#include "ir/Dialect.h"

#include <cstdint>

namespace waveasm {

/// At least Liveness(ProgramIndex(program)).getPeak(VGPR).regs +
/// getPeak(AGPR).regs.
int64_t boundVectorRegisterPeak(ProgramOp program);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OPT_VECTORPRESSUREBOUND_H
