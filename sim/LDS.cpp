//===- LDS.cpp - LDS writes other waves see only after wait and barrier ---===//
//
// Timing mode: a wave's ds_write is in the LDS at once for the wave itself
// (LDS ops of one wave execute in order), but other waves see what the LDS
// held before until the writing wave has waited for the write (an lgkmcnt
// wait after which the counter no longer counts it) and then passed an
// s_barrier -- the protocol insert-waitcnt implements. A read from another
// wave before that sees the stale bytes, so a missing lgkmcnt(0) or
// s_barrier changes the result. Virtual IR has no waits yet: its ds_writes
// count as waited, the barrier still publishes them.
//
// The barrier also orders a read before another wave's later write of the
// same bytes (write-after-read): a write of bytes another wave read since
// the last barrier (a ds_write or a direct-to-LDS load) is noted as a race
// (SimResult::ldsRaces), since on the GPU that read may see the new value.
// In allocated IR a ds_read counts until an lgkmcnt wait covers it: one the
// wave has not waited for when it passes a barrier still counts as read in
// the next interval (the barrier does not wait for it), so the write after
// the next barrier races with it unless that barrier's wait covered it.
//
// Direct-to-LDS loads (buffer_load ... lds) follow the same protocol on
// vmcnt: other waves see their bytes after a vmcnt wait that no longer
// counts the load and an s_barrier. The issuing wave itself sees them once
// the load is done (its latency passed or a vmcnt wait covered it): unlike
// its ds_writes, which its LDS queue keeps in order with its ds_reads, a
// DMA lands whenever the memory returns, so a ds_read of its bytes before
// then reads the old bytes (noted as a stale read, like the cross-wave
// case). This is tracked even for a single wave when the program has a
// direct-to-LDS load.
//
//===----------------------------------------------------------------------===//

#include "sim/Machine.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstring>
#include <limits>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::sim;

namespace {
constexpr uint32_t kUnpublished = std::numeric_limits<uint32_t>::max();
constexpr int16_t kSeveralReaders = -2;

bool tracking(const Workgroup &wg) {
  return wg.options.timing && !wg.ldsWriter.empty();
}

/// Appends `message()` about the op described by `where` to `notes`: the
/// first few, one per op (a wide access would repeat it for every byte).
void noteOncePerOp(Workgroup &wg, std::vector<std::string> &notes,
                   const std::string &where,
                   llvm::function_ref<std::string()> message) {
  std::lock_guard<std::mutex> lock(wg.errorMutex);
  if (notes.size() < 8 && (notes.empty() || notes.back().rfind(where, 0) != 0))
    notes.push_back(message());
}

/// Whether the byte at `address`, last written by `wave`'s own
/// direct-to-LDS load, is still in flight for the wave: that load (its
/// latest write containing the byte) is not done. Clears the byte's flag
/// once it is.
bool ownDmaInFlight(Workgroup &wg, const Wave &wave, uint64_t address) {
  for (const LDSWrite &write : llvm::reverse(wave.ldsWrites))
    for (auto [first, size] : write.ranges)
      if (address >= first && address < uint64_t(first) + size) {
        if (write.vm && !write.done)
          return true;
        wg.ldsOwnDma[address] = 0;
        return false;
      }
  // Published and forgotten: it was waited for.
  wg.ldsOwnDma[address] = 0;
  return false;
}

/// Notes `wave`'s read of the byte at `at` in barrier interval `interval`.
void noteRead(Workgroup &wg, const Wave &wave, uint64_t at, uint32_t interval) {
  if (wg.ldsReadInterval[at] != interval) {
    wg.ldsReadInterval[at] = interval;
    wg.ldsReader[at] = int16_t(wave.id);
  } else if (wg.ldsReader[at] != int16_t(wave.id)) {
    wg.ldsReader[at] = kSeveralReaders;
  }
}

/// Whether `wave` sees the byte at `address` as written.
bool visibleTo(const Workgroup &wg, const Wave &wave, uint64_t address) {
  int16_t writer = wg.ldsWriter[address];
  return writer < 0 || unsigned(writer) == wave.id ||
         (wg.ldsPublishedAt[address] != kUnpublished &&
          wave.barriers > wg.ldsPublishedAt[address]);
}
} // namespace

uint32_t WaveExec::readLDS(uint64_t address, unsigned size) {
  uint32_t word = 0;
  std::memcpy(&word, wg.lds.data() + address, size);
  if (!tracking(wg))
    return word;
  // Barrier intervals are workgroup-wide: every read of interval k runs
  // before any op of interval k + 1 (lockstep, or the waves' turns).
  uint32_t interval = wave.barriers + 1;
  auto &ranges = wave.readRanges;
  if (!ranges.empty() &&
      ranges.back().first + ranges.back().second == uint32_t(address))
    ranges.back().second += size;
  else
    ranges.push_back({uint32_t(address), size});
  for (unsigned i = 0; i < size; ++i) {
    uint64_t at = address + i;
    noteRead(wg, wave, at, interval);
    // The wave's own DMA still in flight, or another wave's write this
    // wave may not see yet: either way the bytes before it.
    bool ownDma = wg.ldsOwnDma[at] && wg.ldsWriter[at] == int16_t(wave.id) &&
                  ownDmaInFlight(wg, wave, at);
    if (!ownDma && visibleTo(wg, wave, at))
      continue;
    reinterpret_cast<uint8_t *>(&word)[i] = wg.ldsStale[at];
    std::string where = describeOp(op);
    noteOncePerOp(wg, wg.staleReads, where, [&]() -> std::string {
      if (ownDma)
        return llvm::formatv(
                   "{0}: wave {1} reads LDS byte {2:x} that its own "
                   "direct-to-LDS load wrote, before a vmcnt wait for that "
                   "load (the stale value: the DMA may not have landed)",
                   where, wave.id, at)
            .str();
      return llvm::formatv(
                 "{0}: wave {1} reads LDS byte {2:x} that wave {3} wrote "
                 "without a wait for the write (lgkmcnt; vmcnt for a "
                 "direct-to-LDS load) and an s_barrier between (the stale "
                 "value)",
                 where, wave.id, at, wg.ldsWriter[at])
          .str();
    });
  }
  return word;
}

void WaveExec::endLDSRead(bool queued) {
  if (!tracking(wg))
    return;
  if (queued && !wg.singleWave && !wave.readRanges.empty())
    wave.ldsReads.push_back({wave.lgkmIssued, std::move(wave.readRanges)});
  wave.readRanges.clear();
}

void WaveExec::beginLDSWrite(Counter counter) {
  if (!tracking(wg))
    return;
  LDSWrite write;
  write.id = wave.nextLDSWrite++;
  write.vm = counter == Counter::VM;
  wave.ldsWrites.push_back(std::move(write));
}

void WaveExec::noteLDSOverwrite(uint64_t address, unsigned size) {
  if (!tracking(wg))
    return;
  uint32_t interval = wave.barriers + 1;
  for (unsigned i = 0; i < size; ++i) {
    uint64_t at = address + i;
    int16_t reader = wg.ldsReader[at];
    if (wg.ldsReadInterval[at] != interval || reader == int16_t(wave.id))
      continue;
    std::string who = reader == kSeveralReaders
                          ? std::string("other waves")
                          : "wave " + std::to_string(reader);
    std::string where = describeOp(op);
    noteOncePerOp(wg, wg.ldsRaces, where, [&]() -> std::string {
      return llvm::formatv(
                 "{0}: wave {1} writes LDS byte {2:x} that {3} read since the "
                 "last s_barrier: on the GPU that read may see this write (a "
                 "write-after-read race; an s_barrier between the read and the "
                 "write orders them)",
                 where, wave.id, at, who)
          .str();
    });
    return;
  }
}

void WaveExec::writeLDS(uint64_t address, unsigned size, uint32_t word) {
  if (tracking(wg)) {
    noteLDSOverwrite(address, size);
    for (unsigned i = 0; i < size; ++i) {
      uint64_t at = address + i;
      // What the other waves see stays what they saw: the bytes before
      // this wave's unpublished writes, or the current ones.
      bool pending =
          wg.ldsWriter[at] >= 0 && (unsigned(wg.ldsWriter[at]) == wave.id
                                        ? wg.ldsPublishedAt[at] == kUnpublished
                                        : !visibleTo(wg, wave, at));
      if (!pending)
        wg.ldsStale[at] = wg.lds[at];
      wg.ldsWriter[at] = int16_t(wave.id);
      wg.ldsPublishedAt[at] = kUnpublished;
      wg.ldsOwnDma[at] = wave.ldsWrites.back().vm;
    }
    auto &ranges = wave.ldsWrites.back().ranges;
    if (!ranges.empty() &&
        ranges.back().first + ranges.back().second == uint32_t(address))
      ranges.back().second += size;
    else
      ranges.push_back({uint32_t(address), size});
  }
  std::memcpy(wg.lds.data() + address, &word, size);
}

void WaveExec::endLDSWrite(Counter counter) {
  // Allocated IR counts the write on its counter like the hardware (so
  // waits count as they do there); virtual IR has no waits yet, the
  // pipeline will put them: its writes count as waited. Decided by the
  // program, not by an operand: a direct-to-LDS load's voffset may be an
  // immediate.
  bool counted = wg.options.timing && wg.allocated;
  int64_t id = -1;
  if (tracking(wg)) {
    LDSWrite &write = wave.ldsWrites.back();
    id = write.id;
    if (!counted)
      write.done = write.waited = true;
  }
  if (!counted)
    return;
  bool vm = counter == Counter::VM;
  PendingLoad entry{op,
                    Value(),
                    RegValue(),
                    wave.exec,
                    wave.clock +
                        (vm ? wg.options.vmemLatency : wg.options.ldsLatency),
                    false};
  entry.ldsWrite = id;
  (vm ? wave.vmPending : wave.lgkmPending).push_back(std::move(entry));
  wave.lgkmIssued += !vm;
}

void WaveExec::countStore(Counter counter) {
  if (!wg.options.timing || !wg.allocated)
    return;
  unsigned latency =
      counter == Counter::VM ? wg.options.vmemLatency : wg.options.ldsLatency;
  PendingLoad entry{op,   Value(), RegValue(), wave.exec, wave.clock + latency,
                    false};
  (counter == Counter::VM ? wave.vmPending : wave.lgkmPending)
      .push_back(std::move(entry));
  wave.lgkmIssued += counter != Counter::VM;
}

void WaveExec::ldsBarrier() {
  if (!tracking(wg)) {
    ++wave.barriers;
    return;
  }
  llvm::erase_if(wave.ldsWrites, [&](const LDSWrite &write) {
    if (!write.waited)
      return false;
    for (auto [address, size] : write.ranges)
      for (uint32_t at = address; at < address + size; ++at)
        if (wg.ldsWriter[at] == int16_t(wave.id) &&
            wg.ldsPublishedAt[at] == kUnpublished)
          wg.ldsPublishedAt[at] = wave.barriers;
    return true;
  });
  ++wave.barriers;
  // Reads not waited for are still reads of the interval this barrier
  // opens: a write by another wave in it may land before them.
  for (const LDSRead &read : wave.ldsReads)
    for (auto [address, size] : read.ranges)
      for (uint32_t at = address; at < address + size; ++at)
        noteRead(wg, wave, at, wave.barriers + 1);
}
