//===- SwizzleDmaLds.h - an XOR swizzle for LDS rows written by DMA -*- C++
//-*-===//
//
// A tile that `buffer_load_dwordx4 ... lds` writes has the layout of the
// lanes' order (lane l at M0 + 16 l), so rows of 64 B read by ds_read_b128
// down a column (16 lanes, one row each) hit 4 of the 16 bank groups: a
// 4-way conflict that padding cannot remove (the DMA cannot skip bytes).
// The swizzle moves the data instead: every LDS byte address A is stored at
//
//   S(A) = A ^ ((A >> 4) & 0x30)      (bits 8-9 XORed into bits 4-5)
//
// an involution that keeps each 16-byte unit whole and each 1 KiB block in
// place, so a column of rows spreads over all 16 bank groups.
//
//  - ds accesses: the address is rewritten to S(address). An address
//    `uniform + lane term` whose uniform part is a multiple of 1024 (as the
//    `offset`, which must be) becomes `uniform + S(lane term)`: the lane term
//    is usually loop-invariant, so the loop computes nothing more.
//  - a 16-byte DMA load at M0 + offset = a multiple of 1024: lane l writes
//    S(its old place), which is lane pi(l)'s old place, pi(l) = l ^ (l >> 4
//    & 3); so its voffset is recomputed from the permuted thread id (the
//    voffset's VALU slice cloned on tid ^ (tid >> 4 & 3)). A 1-, 2- or
//    4-byte DMA load at a multiple of 1024 writes at most 256 B, where S is
//    the identity: unchanged.
//
// An access the swizzle cannot carry (an LDS access not aligned to its
// width, a ds offset or DMA base that is not a multiple of 1024, as the
// rotating mxfp4 loop's scale dwords written at M0 = base + wave * 256,
// where S would move them between lanes by wave) keeps the 1 KiB blocks it
// may touch (LdsBuffers.h's bounds, every iteration and wave) as written:
// S moves no byte out of its block, so blocks are swizzled or not
// independently, and every access into a kept block is left unchanged.
//
// Refused, with the reason and the program untouched: a target whose wave
// is not 64 lanes, a workgroup whose x size is not a multiple of 64, EXEC
// written anywhere, an access the swizzle cannot carry when some LDS access
// is unbounded, an access reaching both kept and swizzled blocks, no 16-byte
// DMA load left to swizzle, a voffset that depends on the lane other than
// through the thread id and lane-local integer arithmetic.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPT_SWIZZLEDMALDS_H
#define WAVEASM_PIPELINE_OPT_SWIZZLEDMALDS_H

#include "ir/Dialect.h"
#include <string>
#include <vector>

namespace waveasm {

struct DmaSwizzlePlan {
  ProgramOp program;
  std::string failure;                     // empty when the swizzle applies
  mlir::Value tid;                         // the ABI thread-id VGPR
  std::vector<mlir::Operation *> dmaLoads; // 16-byte loads to permute
  std::vector<mlir::Operation *> dsAccesses;
  /// LDS accesses left as written, in 1 KiB blocks kept unswizzled because
  /// one of them cannot be swizzled (`keptWhy`).
  std::vector<mlir::Operation *> kept;
  std::string keptWhy;
  bool ok() const { return failure.empty(); }
};

/// Whether the swizzle applies to `program`, and where.
DmaSwizzlePlan planDmaSwizzle(ProgramOp program);

/// Rewrites the program by an ok() plan.
void applyDmaSwizzle(const DmaSwizzlePlan &plan);

/// The program's LDS bank-conflict issue slots (analysis/LdsBankConflicts.h,
/// summed over its ds accesses, each counted once).
int64_t ldsBankConflictSlots(ProgramOp program);

/// The swizzle applied where it applies and lowers the bank-conflict slots
/// (measured on a copy first): true then, with `what` saying so; else
/// false with the reason, the program unchanged.
bool swizzleDmaLdsIfFewerConflicts(ProgramOp program, std::string &what);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OPT_SWIZZLEDMALDS_H
