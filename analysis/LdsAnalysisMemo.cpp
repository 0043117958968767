//===- LdsAnalysisMemo.cpp - whole bank-conflict analyses, remembered -----===//

#include "analysis/LdsAnalysisMemo.h"

#include "llvm/ADT/Hashing.h"

#include <algorithm>

using namespace waveasm;

static uint64_t hashKey(llvm::ArrayRef<uint64_t> key) {
  return llvm::hash_combine_range(key.begin(), key.end());
}

const std::vector<LdsAccessInfo> *
LdsAnalysisMemo::lookup(llvm::ArrayRef<uint64_t> key) {
  uint64_t hash = hashKey(key);
  for (const Entry &entry : entries)
    if (entry.hash == hash && llvm::ArrayRef(entry.key) == key) {
      ++hits;
      return &entry.accesses;
    }
  ++misses;
  return nullptr;
}

void LdsAnalysisMemo::insert(llvm::ArrayRef<uint64_t> key,
                             const std::vector<LdsAccessInfo> &accesses) {
  Entry *entry;
  if (entries.size() < kMaxEntries) {
    entry = &entries.emplace_back();
  } else {
    entry = &entries[oldest];
    oldest = (oldest + 1) % kMaxEntries;
  }
  entry->hash = hashKey(key);
  entry->key.assign(key.begin(), key.end());
  entry->accesses = accesses;
}

void LdsAnalysisMemo::clear() {
  entries.clear();
  oldest = 0;
}

LdsAnalysisMemo &waveasm::getThreadLdsAnalysisMemo() {
  thread_local LdsAnalysisMemo memo;
  return memo;
}
