//===- LdsAnalysisMemo.h - bank-conflict analyses, remembered -*- C++ -*-===//
//
// LdsBankConflicts evaluates every ds access's address chain for every
// thread of the workgroup, and that evaluation (not the costing, which
// LdsBankCostMemo.h remembers) was most of the analysis: a 300-op loop's
// 46 chain values times 256 threads, about 0.45M instructions of each
// compile-and-measure. The Conductor, the strategies and the pipelining
// pass measure one program hundreds of times, and the language server
// recompiles it on every keystroke: orders and register choices change,
// the address chains do not.
//
// The analysis reads only its parameters (wave size, threads, workgroup
// dimensions, the ABI's thread-id register, the bank model) and the ds ops
// in program order with their attributes and the graph their address
// chains span (ops by registered op kind, constants, precolored indices,
// register kinds, operand and result numbers, loop block arguments with
// their inits and yields). `LdsBankConflicts` writes all of that as a key
// (LdsBankConflicts.cpp, `writeAnalysisKey`); equal keys mean isomorphic
// inputs and so the same analysis, whatever program they came from. The
// memo compares keys in full (the hash only rejects), so a changed chain
// is another key and never a stale answer.
//
// One memo per thread (`getThreadLdsAnalysisMemo`), the last kMaxEntries
// analyses (a pipelining pass interleaves its trials' programs).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_LDSANALYSISMEMO_H
#define WAVEASM_ANALYSIS_LDSANALYSISMEMO_H

#include "analysis/LdsBankConflicts.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <vector>

namespace waveasm {

class LdsAnalysisMemo {
public:
  static constexpr size_t kMaxEntries = 8;

  /// A key and its hash, hashed once for a lookup and the insert after a
  /// miss.
  struct Key {
    explicit Key(llvm::ArrayRef<uint64_t> words);
    llvm::ArrayRef<uint64_t> words;
    uint64_t hash;
  };

  /// The accesses remembered under `key` (their `op`s are those of the
  /// program analysed then: the caller puts its own in), or null.
  const std::vector<LdsAccessInfo> *lookup(const Key &key);
  /// Remembers `accesses` under `key`, replacing the oldest entry when
  /// full.
  void insert(const Key &key, const std::vector<LdsAccessInfo> &accesses);

  size_t size() const { return entries.size(); }
  uint64_t getHits() const { return hits; }
  uint64_t getMisses() const { return misses; }
  void clear();

private:
  struct Entry {
    uint64_t hash = 0;
    std::vector<uint64_t> key;
    std::vector<LdsAccessInfo> accesses;
  };
  std::vector<Entry> entries;
  size_t oldest = 0; // the entry insert() replaces when full
  uint64_t hits = 0, misses = 0;
};

/// This thread's memo (what LdsBankConflicts uses).
LdsAnalysisMemo &getThreadLdsAnalysisMemo();

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_LDSANALYSISMEMO_H
