//===- FillCopies.h - fill without copy chains ------------------*- C++ -*-===//
//
// The fill the pipeliner emits before a kernel (its prologue steps and the
// steps that do not fill a kernel iteration) clones the body's rotation
// copies (RotatedIterArgs.h) once a step, so a rotation of N constant LDS
// bases by hand becomes N `s_mov_b32` a step, each copying the previous
// step's copy: the preshuffle loop deepened to 7 buffers runs 7 of them in
// each of its 7 fill steps, ahead of the fill's last loads. The epilogue
// forwards its copies when it is emitted (PipelineLoops.cpp,
// forwardedCopy); the fill keeps them, because forwarding them there
// changes the kernels the later rewrites make and the waits around them
// (rotating4 padded, 5 stages: 36.8 -> 39.0 slots per iteration; the
// 6-buffer direct loop in 3 stages 1534 -> 1541), so the pass applies this
// to the program it keeps and keeps it only where it measures faster.
//
// forwardFillCopies: in the block of each pipelined kernel (a loop with
// `waveasm.counted_waits`), before it, each register copy within one type
// (`s_mov_b32`/`v_mov_b32` of a register of its own type, not `no_cse`)
// of a register holding an immediate (a move of one, through such copies)
// gives its users its source instead, except the kernel's own inits (the
// kernel and the rewrites after it see the inits they saw); a copy left
// without users is erased.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPT_FILLCOPIES_H
#define WAVEASM_PIPELINE_OPT_FILLCOPIES_H

#include "ir/Dialect.h"

namespace waveasm {

/// Forwards the fill's copies of constants (above) in `program`; returns
/// the number of copies erased.
unsigned forwardFillCopies(ProgramOp program);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OPT_FILLCOPIES_H
