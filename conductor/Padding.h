//===- Padding.h - the `pad lds S P` command -------------------*- C++ -*-===//
//
// Issue 12 item 4 in the Conductor. `pad lds S P` lays the scheduled
// program's LDS out in rows of S bytes padded by P (analysis/LdsPadding.h,
// the rewrite of pipeline/opt/PadLdsLayout.h). The rewrite adds address ops
// and changes offsets, which moves cannot express and tags cannot follow,
// so, like `stage Ix N`, the command only records its choice: it is
// validated against the program (the rewrite's own plan: refused with its
// reason when the rewrite would refuse) and written as the program
// attribute `waveasm.lds_padding = array<i64: S, P>`. The working module
// keeps its ops (snapshots, replayable command lists and the cache work as
// for moves); the clone a round compiles, checks by execution and hands out
// is padded (conductor/Stages.h expandSchedule).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_CONDUCTOR_PADDING_H
#define WAVEASM_CONDUCTOR_PADDING_H

#include "conductor/Commands.h"
#include "conductor/Tags.h"

#include "analysis/LdsPadding.h"

#include <optional>
#include <string>

namespace waveasm {
namespace conductor {

/// The program attribute `pad lds S P` writes.
inline constexpr llvm::StringLiteral kLdsPaddingAttrName =
    "waveasm.lds_padding";

/// The program the region belongs to.
ProgramOp getRegionProgram(const TaggedRegion &region);

/// The padding `program` carries, or nullopt.
std::optional<LdsPadding> readPadding(ProgramOp program);
/// Whether the region's program carries a `pad lds` padding.
bool isPadded(const TaggedRegion &region);

/// Validates `command` (kind PadLds) with the rewrite's plan on the
/// region's program and records it; returns why it is refused (the plan's
/// reason, behind the tag of the access it names when that is tagged).
std::optional<std::string> applyPadCommand(const TaggedRegion &region,
                                           const MoveCommand &command);

/// The recorded padding applied to `program` (a clone) and its attribute
/// removed; false with `why` when the rewrite refuses. True, untouched,
/// when nothing is recorded.
bool applyRecordedPadding(ProgramOp program, std::string &why);

} // namespace conductor
} // namespace waveasm

#endif // WAVEASM_CONDUCTOR_PADDING_H
