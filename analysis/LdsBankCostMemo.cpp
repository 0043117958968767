//===- LdsBankCostMemo.cpp - ds access bank costs, remembered -------------===//

#include "analysis/LdsBankCostMemo.h"

#include "llvm/ADT/Hashing.h"

#include <algorithm>

using namespace waveasm;

namespace {
constexpr size_t kTableSize = 2 * 8192;
static_assert(kTableSize >= 2 * LdsBankCostMemo::kMaxEntries &&
                  (kTableSize & (kTableSize - 1)) == 0,
              "the table must stay sparse and be a power of two");
} // namespace

void LdsBankCostMemo::clear() {
  entries.clear();
  keys.clear();
  std::fill(table.begin(), table.end(), 0);
}

LdsBankCost LdsBankCostMemo::get(llvm::ArrayRef<uint32_t> addresses,
                                 llvm::ArrayRef<uint64_t> params,
                                 llvm::function_ref<LdsBankCost()> compute) {
  // The key: the addresses moved down by the smallest one rounded down to
  // its dword (the same whole number of dwords for every thread, no
  // wrap-around), then the params.
  uint32_t base = UINT32_MAX;
  for (uint32_t a : addresses)
    base = std::min(base, a);
  base &= ~uint32_t(3);
  size_t n = addresses.size();
  scratch.resize(n + 2 * params.size());
  uint32_t *out = scratch.data();
  const uint32_t *in = addresses.data();
  for (size_t l = 0; l < n; ++l)
    out[l] = in[l] - base;
  for (auto [k, p] : llvm::enumerate(params)) {
    out[n + 2 * k] = uint32_t(p);
    out[n + 2 * k + 1] = uint32_t(p >> 32);
  }
  llvm::ArrayRef<uint32_t> key(scratch);
  uint64_t hash = llvm::hash_combine(
      llvm::hash_combine_range(key.begin(), key.end()), n, params.size());

  if (table.empty())
    table.assign(kTableSize, 0);
  size_t slot = size_t(hash) & (kTableSize - 1);
  for (; table[slot] != 0; slot = (slot + 1) & (kTableSize - 1)) {
    const Entry &e = entries[table[slot] - 1];
    if (e.hash == hash && e.numLanes == n && e.numParams == params.size() &&
        std::equal(key.begin(), key.end(), keys.begin() + e.keyBegin)) {
      ++hits;
      return e.cost;
    }
  }
  ++misses;
  LdsBankCost cost = compute();
  if (entries.size() >= kMaxEntries) {
    clear();
    slot = size_t(hash) & (kTableSize - 1);
  }
  entries.push_back({hash, uint32_t(keys.size()), uint32_t(n),
                     uint32_t(params.size()), cost});
  keys.insert(keys.end(), key.begin(), key.end());
  table[slot] = entries.size();
  return cost;
}

LdsBankCostMemo &waveasm::getThreadLdsBankCostMemo() {
  thread_local LdsBankCostMemo memo;
  return memo;
}
