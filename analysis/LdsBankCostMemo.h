//===- LdsBankCostMemo.h - ds access bank costs, remembered -----*- C++ -*-===//
//
// The bank cost of a ds access (LdsBankConflicts.h: every wave's cost by
// computeLdsBankCost, the worst kept) is a pure function of its threads'
// addresses, its offsets, width and pairing, the wave size and the bank
// model. It does not change when every thread's address moves by one
// multiple of 4 bytes without wrapping around 32 bits: each wave's dwords
// move together, their banks are permuted and which of them are distinct
// stays. The memo keys a cost by the addresses moved down to the smallest
// (rounded down to a dword) and by every other input in full, compared in
// full on a hit (the hash only finds candidates), so no change of a program
// can make an entry wrong: a mutated address chain is another key. The
// Conductor and the language server measure one program hundreds of times
// and every compile meets the same address patterns again (the bank costs
// were about half of the cycle model of a 300-op loop).
//
// One memo per thread (`getThreadLdsBankCostMemo`): no locking, and no
// thread sees another's entries being written. It holds at most
// `kMaxEntries` costs and forgets them all when full.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_LDSBANKCOSTMEMO_H
#define WAVEASM_ANALYSIS_LDSBANKCOSTMEMO_H

#include "analysis/LdsBankConflicts.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <vector>

namespace waveasm {

class LdsBankCostMemo {
public:
  static constexpr size_t kMaxEntries = 4096;

  /// The cost of the access whose threads' addresses are `addresses` and
  /// whose other inputs are `params` (any encoding that determines them,
  /// the caller's); `compute()` when no equal key was costed before.
  /// `addresses` must not wrap when moved: the caller checks that its
  /// largest address plus offsets and width stays within 32 bits.
  LdsBankCost get(llvm::ArrayRef<uint32_t> addresses,
                  llvm::ArrayRef<uint64_t> params,
                  llvm::function_ref<LdsBankCost()> compute);

  size_t size() const { return entries.size(); }
  uint64_t getHits() const { return hits; }
  uint64_t getMisses() const { return misses; }
  void clear();

private:
  struct Entry {
    uint64_t hash;
    uint32_t keyBegin, numLanes, numParams;
    LdsBankCost cost;
  };

  std::vector<Entry> entries;
  /// Each entry's key: its moved addresses then its params (as two words
  /// each).
  std::vector<uint32_t> keys;
  /// Open addressing over entry positions + 1 (0: empty), a power of two
  /// at least twice kMaxEntries.
  std::vector<uint32_t> table;
  std::vector<uint32_t> scratch; // the key being looked up
  uint64_t hits = 0, misses = 0;
};

/// This thread's memo (what LdsBankConflicts uses).
LdsBankCostMemo &getThreadLdsBankCostMemo();

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_LDSBANKCOSTMEMO_H
