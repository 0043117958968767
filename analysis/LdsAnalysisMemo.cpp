//===- LdsAnalysisMemo.cpp - whole bank-conflict analyses, remembered -----===//

#include "analysis/LdsAnalysisMemo.h"

#include "llvm/ADT/bit.h"

#include <algorithm>

using namespace waveasm;

/// The hash only rejects (a hit compares the whole key), so it need not be
/// strong: one rotate, xor and multiply per word, where
/// hash_combine_range spent about three times as many instructions on a
/// key of 1.5K words.
static uint64_t hashKey(llvm::ArrayRef<uint64_t> key) {
  uint64_t hash = key.size();
  for (uint64_t word : key)
    hash = (llvm::rotl(hash, 23) ^ word) * 0x9E3779B97F4A7C15ull;
  return hash ^ (hash >> 32);
}

LdsAnalysisMemo::Key::Key(llvm::ArrayRef<uint64_t> words)
    : words(words), hash(hashKey(words)) {}

const std::vector<LdsAccessInfo> *LdsAnalysisMemo::lookup(const Key &key) {
  for (const Entry &entry : entries)
    if (entry.hash == key.hash && llvm::ArrayRef(entry.key) == key.words) {
      ++hits;
      return &entry.accesses;
    }
  ++misses;
  return nullptr;
}

void LdsAnalysisMemo::insert(const Key &key,
                             const std::vector<LdsAccessInfo> &accesses) {
  Entry *entry;
  if (entries.size() < kMaxEntries) {
    entry = &entries.emplace_back();
  } else {
    entry = &entries[oldest];
    oldest = (oldest + 1) % kMaxEntries;
  }
  entry->hash = key.hash;
  entry->key.assign(key.words.begin(), key.words.end());
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
