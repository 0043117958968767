//===- Machine.h - the simulator's state and op interface -------*- C++ -*-===//
//
// Internal to sim/: the state of a workgroup (memory, LDS, waves) and of a
// wave (virtual values, physical register files, SCC, VCC, EXEC, M0), and
// WaveExec, through which the op families (ALUOps.cpp, MemoryOps.cpp,
// MFMAOps.cpp) read operands and write results.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SIM_MACHINE_H
#define WAVEASM_SIM_MACHINE_H

#include "sim/Decoded.h"
#include "sim/LDSTrace.h"
#include "sim/Simulator.h"

#include "analysis/HazardRules.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Compiler.h"

#include <deque>
#include <map>
#include <set>

#include <atomic>
#include <mutex>

namespace waveasm::sim {

/// The contents of a value: `dwords` registers, one word per lane each for
/// vector registers ([dword * lanes + lane]), one word each for scalars.
struct RegValue {
  bool vector = false;
  unsigned dwords = 0;
  unsigned lanes = 1;
  llvm::SmallVector<uint32_t, 64> words;

  static RegValue scalar(unsigned dwords) {
    RegValue v;
    v.dwords = dwords;
    v.words.assign(dwords, 0);
    return v;
  }
  static RegValue vec(unsigned dwords, unsigned lanes) {
    RegValue v;
    v.vector = true;
    v.dwords = dwords;
    v.lanes = lanes;
    v.words.assign(size_t(dwords) * lanes, 0);
    return v;
  }
  /// Register `d` of `lane` (a scalar reads the same for every lane; a
  /// register past the value's width reads 0).
  /// (Through data(): every op calls these per lane, and the assertion in
  /// operator[] kept them from being inlined.)
  LLVM_ATTRIBUTE_ALWAYS_INLINE uint32_t at(unsigned lane,
                                           unsigned d = 0) const {
    if (d >= dwords)
      return 0;
    return words.data()[vector ? size_t(d) * lanes + lane : d];
  }
  LLVM_ATTRIBUTE_ALWAYS_INLINE uint64_t at64(unsigned lane) const {
    return uint64_t(at(lane, 0)) | (uint64_t(at(lane, 1)) << 32);
  }
  LLVM_ATTRIBUTE_ALWAYS_INLINE uint32_t &ref(unsigned lane, unsigned d = 0) {
    return words.data()[vector ? size_t(d) * lanes + lane : d];
  }
};

/// Global memory: the buffers' windows, paged, and the kernarg segment.
struct Memory {
  uint64_t seed = 0;
  const InitialMemory *initial = nullptr;
  unsigned numBuffers = 0;
  uint64_t kernargBase = 0;
  std::vector<uint8_t> kernarg;
  std::map<uint64_t, std::vector<uint8_t>> pages;
  std::map<uint64_t, bool> dirty;
  /// False when a byte lies outside every buffer window and the kernarg
  /// segment (or, for writes, in the read-only kernarg segment).
  bool read(uint64_t address, uint64_t size, uint8_t *out);
  bool write(uint64_t address, uint64_t size, const uint8_t *in);
  /// The bytes [address, address + size) in place when they lie in one
  /// page accessed lately (for a write: one marked written already), else
  /// null: read() and write() without a call or a lookup.
  LLVM_ATTRIBUTE_ALWAYS_INLINE const uint8_t *
  inRecentPage(uint64_t address, uint64_t size) const {
    uint64_t pageAddress = address & ~(kPageBytes - 1);
    const PageSlot &slot = slotOf(pageAddress);
    if (slot.address != pageAddress ||
        address - pageAddress + size > kPageBytes)
      return nullptr;
    return slot.bytes->data() + (address - pageAddress);
  }
  LLVM_ATTRIBUTE_ALWAYS_INLINE uint8_t *inRecentWrittenPage(uint64_t address,
                                                            uint64_t size) {
    if (!slotOf(address & ~(kPageBytes - 1)).written)
      return nullptr;
    return const_cast<uint8_t *>(inRecentPage(address, size));
  }

private:
  std::vector<uint8_t> *page(uint64_t pageAddress);
  /// Pages accessed lately, direct-mapped by address (map nodes do not
  /// move): the lanes of an access mostly fall in a few pages, and the
  /// map's lookup is most of the cost of one lane's access.
  struct PageSlot {
    uint64_t address = ~uint64_t(0);
    std::vector<uint8_t> *bytes = nullptr;
    bool written = false; // in `dirty` already
  };
  static constexpr unsigned kRecentPages = 1024;
  PageSlot recent[kRecentPages];
  /// The buffer's window (address bits 32 and up) is mixed in: the same
  /// offset in two buffers (a GEMM's A and B tiles) would share a slot
  /// and evict each other on every access.
  static unsigned slotIndex(uint64_t pageAddress) {
    return unsigned((pageAddress / kPageBytes) + (pageAddress >> 32) * 23) %
           kRecentPages;
  }
  PageSlot &slotOf(uint64_t pageAddress) {
    return recent[slotIndex(pageAddress)];
  }
  const PageSlot &slotOf(uint64_t pageAddress) const {
    return recent[slotIndex(pageAddress)];
  }
};

struct Workgroup;

/// A load whose registers are not written yet (SimOptions::timing), or a
/// store the counter still counts (no result).
struct PendingLoad {
  mlir::Operation *op;
  mlir::Value result; // null for a store
  RegValue data;
  uint64_t exec;         // the lanes active at issue
  uint64_t visibleAt;    // the wave's clock when its latency has passed
  bool scalarMemory;     // SMEM: lgkmcnt counts it out of order
  int64_t ldsWrite = -1; // a ds_write: its LDSWrite::id
  /// The result's registers (a load into allocated registers): checked by
  /// every read of registers while the load is outstanding.
  RegTypeInfo dest;
};

/// A ds_write other waves cannot see yet (timing mode): it becomes visible
/// to them after the wave waited for it (an lgkmcnt wait it no longer
/// counts in) and then passed an s_barrier.
struct LDSWrite {
  int64_t id;
  llvm::SmallVector<std::pair<uint32_t, uint32_t>, 16> ranges; // addr, size
  bool done = false;   // the counter no longer counts it
  bool waited = false; // a wait on its counter saw it done
  bool vm = false;     // a direct-to-LDS load: counted on vmcnt
};

/// An LDS read another wave must not overwrite yet (timing mode, allocated
/// IR, LDS.cpp): its bytes, and the wave's count of lgkmcnt ops issued up
/// to it. It is in flight until an lgkmcnt wait covers it by count (a
/// read done by latency alone is not ordered: latency is not completion).
struct LDSRead {
  uint64_t issue;
  llvm::SmallVector<std::pair<uint32_t, uint32_t>, 16> ranges; // addr, size
};

/// A register's recent hazard producers (SimOptions::timing, allocated
/// registers only; analysis/HazardRules.h decides what a record means).
struct HazardRecord {
  HazardSource source;
  int64_t clock;          // the wave's hazard clock when the producer issued
  int64_t mfmaWaitStates; // MFMA: TargetModel::getMFMAReadWaitStates
  mlir::Operation *producer;
  int64_t first, size; // the producer's result registers (accumulator chains)
};
struct HazardSlot {
  llvm::SmallVector<HazardRecord, 2> records;
  /// The register's contents before its latest producer wrote it: what a
  /// read too early sees (one word per lane; one word for an SGPR).
  llvm::SmallVector<uint32_t, 64> stale;
};

/// One wave's registers.
struct Wave {
  unsigned id = 0;
  unsigned lanes = 64;
  uint64_t exec = ~uint64_t(0);
  uint64_t vcc = 0;
  uint32_t m0 = 0;
  bool scc = false;
  bool ended = false;
  llvm::DenseMap<mlir::Value, RegValue> values; // virtual and SCC values
  std::vector<uint32_t> vgpr, agpr, sgpr;       // physical files
  std::vector<bool> vgprSet, agprSet, sgprSet;  // written or precolored
  /// Ops issued; loads outstanding per counter, oldest first (a deque:
  /// the oldest leaves first, and a vector moved every younger load's
  /// data down on each).
  uint64_t clock = 0;
  std::deque<PendingLoad> vmPending, lgkmPending;
  /// Per register file (indexed by RegClass), per register: the pending
  /// loads into it, so a read checks the queues only when one is (sized on
  /// first use).
  std::vector<uint16_t> loadsInto[3];
  /// Wait states issued (HazardRules.h's clock: s_nop N counts N+1) and
  /// the hazard records per register file (indexed by RegClass), sized on
  /// first use.
  int64_t hazardClock = 0;
  std::vector<HazardSlot> hazards[3];
  /// The implicit registers' latest hazard producers: VCC written by VALU,
  /// M0 by SALU (producer null: none), with their previous values.
  struct ImplicitRecord {
    mlir::Operation *producer = nullptr;
    int64_t clock = 0;
    uint64_t stale = 0;
  } vccRecord, m0Record;
  /// Set while an op runs with a stale VCC or M0: the current values.
  std::optional<uint64_t> heldVcc;
  std::optional<uint32_t> heldM0;
  uint64_t vccBefore = 0;
  uint32_t m0Before = 0;
  /// Ops this wave executed (its own count: an atomic one shared by the
  /// waves' threads costs a locked add per op).
  uint64_t opsExecuted = 0;
  /// Barriers passed; this wave's ds_writes other waves cannot see yet.
  uint32_t barriers = 0;
  int64_t nextLDSWrite = 0;
  std::vector<LDSWrite> ldsWrites;
  /// lgkmcnt ops issued; the LDS reads no wait has covered yet, and the
  /// bytes of the read being executed.
  uint64_t lgkmIssued = 0;
  std::vector<LDSRead> ldsReads;
  llvm::SmallVector<std::pair<uint32_t, uint32_t>, 16> readRanges;
};

/// Shared by the waves of one run.
struct Workgroup {
  const SimOptions &options;
  TargetKind target;
  Memory memory;
  std::vector<uint8_t> lds;
  /// LDS visibility across waves (timing mode, LDS.cpp): per byte, the
  /// wave whose write other waves may not see yet (-1: none), what they see
  /// instead, and the barrier (a count of barriers passed) that published
  /// it to waves past it (kUnpublished: not yet).
  std::vector<int16_t> ldsWriter;
  std::vector<uint8_t> ldsStale;
  std::vector<uint32_t> ldsPublishedAt;
  /// Per byte: its writer's latest write of it is a direct-to-LDS load,
  /// which the writer itself sees only once the load is done (cleared when
  /// a read finds it done).
  std::vector<uint8_t> ldsOwnDma;
  /// One wave: no barrier publishes its writes to anyone, so a waited one
  /// is forgotten at its wait (else a loop without barriers would pile
  /// them up for ownDmaInFlight to scan).
  bool singleWave = false;
  /// Write-after-read across waves (timing mode, LDS.cpp): per byte, the
  /// barrier interval of its latest reads (barriers passed + 1; 0: never
  /// read) and the wave that read it then (kSeveralReaders: more than one).
  std::vector<uint32_t> ldsReadInterval;
  std::vector<int16_t> ldsReader;
  /// Allocated IR: s_waitcnt in the program are its only waits. Virtual IR
  /// has none yet (the pipeline inserts them): a ds_write counts as waited.
  bool allocated = false;
  /// Allocated IR reads SCC as the one flag it is; virtual IR reads each
  /// SCC value as the SSA value it is (a later writer does not clobber it
  /// until SCC spill/reload and allocation make the program physical).
  bool physicalSCC = false;
  /// The hazard table of the target (the one the hazard pass uses).
  const TargetModel *model = nullptr;
  std::mutex errorMutex;
  std::optional<SimError> error;
  std::atomic<bool> failed{false};
  /// Ops computed at host precision (SimResult::hostPrecision).
  std::set<std::string> hostPrecision;
  /// Reads that saw a stale value (SimResult::staleReads).
  std::vector<std::string> staleReads;
  /// Write-after-read races across waves (SimResult::ldsRaces).
  std::vector<std::string> ldsRaces;
  /// simulateTracingLDS's callback (LDSTrace.h), or null.
  const LDSAccessHook *ldsTrace = nullptr;
  explicit Workgroup(const SimOptions &options) : options(options) {}
};

/// An op's operands as read (WaveExec::readOperands): a virtual value in
/// place in the wave's map (copying a 4-register vector is a heap
/// allocation and 1 KiB per read), anything else (immediates, physical
/// registers through the timing rules) read into `owned`. Valid until the
/// op writes its first result.
struct OperandViews {
  llvm::SmallVector<const RegValue *, 4> views;
  llvm::SmallVector<RegValue, 2> owned;
  const RegValue &operator[](size_t i) const { return *views[i]; }
  size_t size() const { return views.size(); }
};

/// What an op sees of the machine. Read/write failures record the error
/// and return false (or an empty value); the op then returns false.
class WaveExec {
public:
  WaveExec(Workgroup &wg, Wave &wave) : wg(wg), wave(wave) {}
  Workgroup &wg;
  Wave &wave;
  mlir::Operation *op = nullptr;
  /// The decoded form of the op the interpreter runs (Decoded.h); `op` may
  /// differ from it meanwhile (a pending load completing, a loop's copies).
  const DecodedOp *decoded = nullptr;
  /// InstFacts of `op`: the decoded ones when they are its.
  InstFacts facts() const {
    return decoded && decoded->op == op ? decoded->facts : lookupInstFacts(op);
  }

  unsigned lanes() const { return wave.lanes; }
  bool active(unsigned lane) const { return (wave.exec >> lane) & 1; }

  /// The value of `value` (an operand or block argument) in this wave.
  std::optional<RegValue> read(mlir::Value value);
  /// read() into `out`; false when the read failed.
  bool readInto(mlir::Value value, RegValue &out);
  /// Every operand of `op`, in order; false when a read failed.
  bool readOperands(llvm::SmallVectorImpl<RegValue> &out);
  bool readOperands(OperandViews &out);
  /// read(), in place for a virtual value (nullptr when the read failed;
  /// valid until the wave's next write), else into `scratch`.
  const RegValue *view(mlir::Value value, RegValue &scratch);
  /// Stores `contents` as `value`'s (a result or block argument): physical
  /// registers keep their inactive lanes.
  bool write(mlir::Value value, RegValue contents);
  enum class Counter { VM, LDS, SMEM };
  /// write() for a load's result: delayed in timing mode when `value` is
  /// allocated registers.
  bool writeLoaded(mlir::Value value, RegValue contents, Counter counter);
  /// Before each op, writes the loads that are surely done: the oldest
  /// beyond its counter's maximum (the wave could not have issued more) and,
  /// unless SimOptions::strictWaits, those whose latency has passed.
  bool retireCompleted();
  /// s_waitcnt: at most `vm` / `lgkm` loads left outstanding (nullopt: no
  /// wait on that counter).
  bool waitFor(std::optional<unsigned> vm, std::optional<unsigned> lgkm);
  /// Timing mode, allocated registers (Hazards.cpp): gives the registers of
  /// `v` that `op` reads too soon after their hazard producer the value
  /// they had before it.
  void applyReadHazards(mlir::Value value, const RegTypeInfo &info,
                        RegValue &v);
  /// Before `op` writes `value`'s registers: fails on an overwrite too soon
  /// after an MFMA or a large store that still reads them (Race), else
  /// keeps their contents and records the write as a hazard producer.
  bool noteWrite(mlir::Value value, const RegTypeInfo &info);
  /// Before `op` runs: an implicit read of VCC or M0 too soon after its
  /// producer sees the previous value (allocated IR).
  void beforeOp();
  /// After `op` ran: the records it leaves beyond its results (a large
  /// store's data registers, VCC, M0), and the hazard clock moves on.
  void afterOp();

  /// LDS through the visibility rules (LDS.cpp). `address + size` lies in
  /// the LDS. A write belongs to the ds_write between beginLDSWrite and
  /// endLDSWrite, which queues it on lgkmcnt.
  uint32_t readLDS(uint64_t address, unsigned size);
  /// After a ds_read's readLDS calls: `queued` (its result went on
  /// lgkmcnt) keeps its bytes in flight for the write-after-read rule
  /// until a wait covers it.
  void endLDSRead(bool queued);
  /// Whether LDS accesses go through the visibility rules (timing, more
  /// than one wave); else readLDS and writeLDS are plain copies.
  bool ldsTracked() const { return wg.options.timing && !wg.ldsWriter.empty(); }
  void beginLDSWrite(Counter counter = Counter::LDS);
  void writeLDS(uint64_t address, unsigned size, uint32_t word);
  /// Before a write of [address, address + size) (a ds_write or a
  /// direct-to-LDS load): when another wave read those bytes since the
  /// last barrier, on the GPU its read may see this write; noted in
  /// Workgroup::ldsRaces.
  void noteLDSOverwrite(uint64_t address, unsigned size);
  /// Queues the write on its counter: lgkmcnt (ds_write) or vmcnt (a
  /// direct-to-LDS load, whose LDS bytes other waves see only after a
  /// vmcnt wait and a barrier, like a ds_write's).
  void endLDSWrite(Counter counter = Counter::LDS);
  /// A store or DMA the counter counts until its latency passes or a wait.
  void countStore(Counter counter);
  /// s_barrier: this wave's waited ds_writes become visible to the waves
  /// past this barrier.
  void ldsBarrier();

  /// An all-zero value shaped like `value`'s type.
  RegValue shapeOf(mlir::Value value) const;

  bool fail(SimError::Kind kind, const llvm::Twine &message, int lane = -1);
  void noteHostPrecision(llvm::StringRef name) {
    std::lock_guard<std::mutex> lock(wg.errorMutex);
    wg.hostPrecision.insert(name.str());
  }
  bool notSimulated(const llvm::Twine &why = "");
};

/// simulate() of a program decoded once (for many seeds).
SimResult simulateDecoded(const DecodedProgram &program,
                          const SimOptions &options,
                          std::vector<std::string> &staleReads);

/// simulate(), also giving the reads that saw a stale value in timing mode
/// (a hazard without its s_nop, another wave's LDS write not yet published
/// to the reader), "where: what", the first few: Compare.h's report.
SimResult simulateNotingStaleReads(ProgramOp program, const SimOptions &options,
                                   std::vector<std::string> &staleReads);

/// The op families; each returns nullopt when `exec.op` is not one of its
/// ops, else whether it executed.
std::optional<bool> executeALU(WaveExec &exec);
std::optional<bool> executeMemory(WaveExec &exec);
std::optional<bool> executeMFMA(WaveExec &exec);

/// "file:line:col: 'waveasm.op'".
std::string describeOp(mlir::Operation *op);

} // namespace waveasm::sim

#endif // WAVEASM_SIM_MACHINE_H
