//===- MFMATable.h - the MFMA table's rows, cached per op class -*- C++ -*-===//
//
// TargetModel's MFMA pass counts and families come from one table of
// opcodes (TargetModel.cpp). The model reads it through a per-thread cache
// keyed by the op class; this header exposes a row with and without the
// cache, so that a test can compare the two.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_MFMATABLE_H
#define WAVEASM_ANALYSIS_MFMATABLE_H

#include "analysis/TargetModel.h"

#include <optional>

namespace waveasm {

/// An MFMA opcode's row of the table: its family and its passes on gfx942
/// and gfx950 (0: not on that target).
struct MFMATableRow {
  MFMAKind kind;
  int64_t gfx942, gfx950;
  bool operator==(const MFMATableRow &o) const {
    return kind == o.kind && gfx942 == o.gfx942 && gfx950 == o.gfx950;
  }
};

/// `op`'s row, or nullopt when the table has none. getMFMAPasses and
/// getMFMAKind read it through a per-thread cache keyed by the op class;
/// `byName` reads the table by the op's name, as the cache does on a miss.
std::optional<MFMATableRow> getMFMATableRow(mlir::Operation *op,
                                            bool byName = false);

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_MFMATABLE_H
