//===- CompareBuffers.h - equivalence on the buffers only -------*- C++ -*-===//
//
// compareOnSeeds without the LDS left at the end of the run. The LDS does
// not outlive the workgroup, so a change of LDS layout (the LDS planner's
// moved buffers, --waveasm-lds-plan=apply; a pipelined loop's LDS copies)
// changes where bytes are left,
// not what the kernel computes; what it read from LDS still reaches the
// buffers it writes, which are compared. Apart from Compare.h so the many
// users of that header do not rebuild for this one caller's option.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SIM_COMPAREBUFFERS_H
#define WAVEASM_SIM_COMPAREBUFFERS_H

#include "sim/Compare.h"

namespace waveasm::sim {

/// compareOnSeeds with only the buffers compared.
Comparison compareBuffersOnSeeds(ProgramOp a, ProgramOp b, unsigned seeds,
                                 SimOptions options = {});
/// compareWithRuns with only the buffers compared (the LDS ping/pong of a
/// pipelined loop leaves its last tile in another copy).
Comparison compareBuffersWithRuns(llvm::ArrayRef<SimResult> first, ProgramOp b,
                                  SimOptions options = {});

} // namespace waveasm::sim

#endif // WAVEASM_SIM_COMPAREBUFFERS_H
