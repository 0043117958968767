//===- Simulator.cpp - the environment, the waves and control flow --------===//
//
// Waves run one at a time, in order, each until it reaches s_barrier or its
// end (a deterministic interleaving that respects every barrier); each wave
// has its own thread so that the recursive interpreter can stop inside a
// loop body at a barrier and resume there.
//
//===----------------------------------------------------------------------===//

#include "sim/Machine.h"

#include "ir/DefinedValues.h"
#include "ir/Workgroup.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <condition_variable>
#include <cstring>
#include <thread>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::sim;

namespace {

constexpr unsigned kVGPRs = 512, kAGPRs = 256, kSGPRs = 128;
constexpr uint64_t kKernargBase = 0x7f0000000000;

/// SplitMix64: the environment's only source of randomness.
struct Random {
  uint64_t state;
  explicit Random(uint64_t seed) : state(seed * 0x9e3779b97f4a7c15 + 1) {}
  static uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
    z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
    return z ^ (z >> 31);
  }
  uint64_t next() { return mix(state += 0x9e3779b97f4a7c15); }
  /// Words of the next numbers, in order (the state in a local the
  /// compiler keeps in a register, not the member through a pointer).
  void fill(std::vector<uint32_t> &words) {
    uint64_t s = state;
    for (uint32_t &w : words)
      w = uint32_t(mix(s += 0x9e3779b97f4a7c15));
    state = s;
  }
  void fill(std::vector<uint8_t> &bytes) {
    for (size_t i = 0; i < bytes.size(); i += 8) {
      uint64_t word = next();
      for (size_t j = 0; j < 8 && i + j < bytes.size(); ++j)
        bytes[i + j] = uint8_t(word >> (8 * j));
    }
  }
};

uint64_t bufferBase(unsigned k) { return bufferAddress(k); }

/// Even seeds (SimOptions): every random byte of the buffers and the LDS
/// mapped into 0x38-0x47, moderate in every float format.
void makeModerateOnEvenSeed(uint64_t seed,
                            llvm::MutableArrayRef<uint8_t> bytes) {
  if (seed % 2 == 0)
    for (uint8_t &b : bytes)
      b = uint8_t(0x38 + (b & 15));
}

/// Buffer k's descriptor (SPEC.md 12.4): base, stride 0, byte size, the
/// default word 3.
std::array<uint32_t, 4> descriptor(unsigned k, uint64_t bytes) {
  uint64_t base = bufferBase(k);
  return {uint32_t(base), uint32_t(base >> 32) & 0xffff, uint32_t(bytes),
          0x20000};
}

/// Turn-taking of the waves: one runs at a time; s_barrier passes the turn
/// on and waits until every wave that has not ended arrived.
class Turns {
public:
  Turns(unsigned waves, std::atomic<bool> &failed)
      : done(waves, false), atBarrier(waves, false), failed(failed) {}

  /// Blocks until it is `id`'s turn; false when the run failed meanwhile.
  bool wait(unsigned id) {
    std::unique_lock<std::mutex> lock(mutex);
    cv.wait(lock, [&] { return turn == id || failed; });
    return !failed;
  }
  bool barrier(unsigned id) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      atBarrier[id] = true;
      passOn(id);
    }
    cv.notify_all();
    return wait(id);
  }
  void finish(unsigned id) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      done[id] = true;
      passOn(id);
    }
    cv.notify_all();
  }
  void abort() { cv.notify_all(); }

private:
  /// The next wave to run after `id`: the next that is neither done nor
  /// waiting; when all that are not done wait, the barrier opens.
  void passOn(unsigned id) {
    unsigned n = done.size();
    for (unsigned step = 1; step <= n; ++step) {
      unsigned next = (id + step) % n;
      if (!done[next] && !atBarrier[next]) {
        turn = next;
        return;
      }
    }
    for (unsigned i = 0; i < n; ++i)
      atBarrier[i] = false;
    for (unsigned i = 0; i < n; ++i)
      if (!done[i]) {
        turn = i;
        return;
      }
    turn = n; // everyone is done
  }

  std::mutex mutex;
  std::condition_variable cv;
  unsigned turn = 0;
  std::vector<bool> done, atBarrier;
  std::atomic<bool> &failed;
};

/// Whether `a` and `b` are the same allocated registers.
bool sameRegisters(Value a, Value b) {
  RegTypeInfo x = getRegTypeInfo(a.getType());
  RegTypeInfo y = getRegTypeInfo(b.getType());
  return x.physicalIndex && y.physicalIndex && x.cls == y.cls &&
         *x.physicalIndex == *y.physicalIndex && x.size == y.size;
}

/// Runs the program for a set of waves. With several waves and no turns
/// it runs them in lockstep (each op for every wave before the next op: a
/// legal interleaving in which every barrier holds trivially) and stops
/// with `diverged` when the waves disagree on a loop or if condition; with
/// turns it runs one wave, which passes the turn on at each barrier.
class Runner {
public:
  Runner(Workgroup &wg, llvm::MutableArrayRef<Wave> waves, Turns *turns,
         const DecodedProgram &program)
      : program(program), turns(turns) {
    for (Wave &wave : waves)
      execs.emplace_back(wg, wave);
    cur = &execs.front();
  }

  /// Runs the program's body; false when the run failed or diverged.
  bool run() {
    bool ok = runBlock(program.entry);
    if (ok || diverged || cur->wg.failed)
      return ok;
    return llvm::all_of(execs, [](WaveExec &e) { return e.wave.ended; });
  }
  bool diverged = false;

private:
  /// False to stop: an error, divergence, or s_endpgm (wave.ended).
  bool runBlock(uint32_t first) {
    for (uint32_t i = first; i != kNoOp; i = program.ops[i].next) {
      if (cur->wg.failed || !runOp(program.ops[i]))
        return false;
    }
    return true;
  }

  /// The condition every wave computed, or nullopt (recorded) when they
  /// disagree or a read failed.
  std::optional<bool> uniformCondition(Operation *op, Value condition) {
    std::optional<bool> value;
    for (WaveExec &e : execs) {
      e.op = op;
      std::optional<RegValue> flag = e.read(condition);
      if (!flag)
        return std::nullopt;
      bool bit = flag->at(0) != 0;
      if (value && *value != bit) {
        diverged = true;
        return std::nullopt;
      }
      value = bit;
    }
    return value;
  }

  /// Reads `sources` for a parallel copy into `dests`. A source already in
  /// its destination's registers is not read (marked by an empty value):
  /// the emitter copies nothing there, and in timing mode a load may still
  /// be landing in them.
  bool readCopies(WaveExec &e, ValueRange sources, ValueRange dests,
                  llvm::SmallVectorImpl<RegValue> &out) {
    out.clear();
    for (auto [source, dest] : llvm::zip(sources, dests)) {
      if (sameRegisters(source, dest)) {
        out.emplace_back();
        continue;
      }
      std::optional<RegValue> r = e.read(source);
      if (!r)
        return false;
      out.push_back(std::move(*r));
    }
    return true;
  }
  /// Writes what readCopies read; an unread source goes to a destination
  /// in other registers by a read now.
  bool writeCopies(WaveExec &e, ValueRange sources, ValueRange dests,
                   llvm::ArrayRef<RegValue> values) {
    for (auto [source, dest, value] : llvm::zip(sources, dests, values)) {
      if (value.dwords) {
        if (!e.write(dest, value))
          return false;
        continue;
      }
      if (sameRegisters(source, dest))
        continue;
      std::optional<RegValue> r = e.read(source);
      if (!r || !e.write(dest, std::move(*r)))
        return false;
    }
    return true;
  }

  bool runLoop(const DecodedOp &decoded) {
    auto loop = cast<LoopOp>(decoded.op);
    Block &body = loop.getBodyBlock();
    ConditionOp condition = loop.getConditionOp();
    std::vector<llvm::SmallVector<RegValue, 4>> values(execs.size());
    for (auto [e, v] : llvm::zip(execs, values)) {
      e.op = loop;
      if (!readCopies(e, loop.getInitArgs(), body.getArguments(), v))
        return false;
    }
    ValueRange sources = loop.getInitArgs();
    uint64_t iterations = 0;
    while (true) {
      for (auto [e, v] : llvm::zip(execs, values))
        if (!writeCopies(e, sources, body.getArguments(), v))
          return false;
      sources = condition.getIterArgs();
      if (!runBlock(decoded.body))
        return false;
      std::optional<bool> more =
          uniformCondition(condition, condition.getCondition());
      if (!more)
        return false;
      for (auto [e, v] : llvm::zip(execs, values))
        if (!readCopies(e, condition.getIterArgs(), body.getArguments(), v))
          return false;
      if (!*more)
        break;
      if (++iterations >= cur->wg.options.maxLoopIterations) {
        cur->op = loop;
        return cur->fail(SimError::Kind::Limit,
                         llvm::formatv("the loop ran {0} iterations without "
                                       "ending (the limit)",
                                       iterations));
      }
    }
    for (auto [e, v] : llvm::zip(execs, values)) {
      e.op = loop;
      if (!writeCopies(e, condition.getIterArgs(), loop.getResults(), v))
        return false;
    }
    return true;
  }

  bool runIf(const DecodedOp &decoded) {
    auto ifOp = cast<IfOp>(decoded.op);
    std::optional<bool> taken = uniformCondition(ifOp, ifOp.getCondition());
    if (!taken)
      return false;
    Region &region = *taken ? ifOp.getThenRegion() : ifOp.getElseRegion();
    if (region.empty())
      return true;
    if (!runBlock(*taken ? decoded.body : decoded.elseBody))
      return false;
    YieldOp yield = ifOp.getYield(region);
    if (!yield)
      return true;
    llvm::SmallVector<RegValue, 4> values;
    for (WaveExec &e : execs) {
      e.op = ifOp;
      if (!readCopies(e, yield.getValues(), ifOp.getResults(), values) ||
          !writeCopies(e, yield.getValues(), ifOp.getResults(), values))
        return false;
    }
    return true;
  }

  bool runOp(const DecodedOp &op) {
    if (op.kind == OpKind::Loop)
      return runLoop(op);
    if (op.kind == OpKind::If)
      return runIf(op);
    bool ended = false;
    for (WaveExec &e : execs) {
      cur = &e;
      if (!runLeaf(op))
        return false;
      ended |= e.wave.ended;
    }
    return !ended;
  }

  bool runPrecolored(Operation *op, RegClass cls, int64_t index, int64_t size) {
    Value result = op->getResult(0);
    Wave &w = cur->wave;
    std::vector<bool> &set = cls == RegClass::VGPR   ? w.vgprSet
                             : cls == RegClass::AGPR ? w.agprSet
                                                     : w.sgprSet;
    if (index < 0 || index + size > int64_t(set.size()))
      return cur->fail(SimError::Kind::Fault,
                       llvm::formatv("{0}{1} is outside the register file",
                                     getRegPrefix(cls), index));
    for (int64_t i = index; i < index + size; ++i)
      set[i] = true;
    if (!isVirtualReg(result.getType()))
      return true;
    // A virtual value pinned to registers: their contents at this point.
    RegValue v = cls == RegClass::SGPR ? RegValue::scalar(size)
                                       : RegValue::vec(size, w.lanes);
    const std::vector<uint32_t> &file = cls == RegClass::VGPR   ? w.vgpr
                                        : cls == RegClass::AGPR ? w.agpr
                                                                : w.sgpr;
    for (int64_t d = 0; d < size; ++d)
      for (unsigned lane = 0; lane < (v.vector ? w.lanes : 1); ++lane)
        v.ref(lane, d) =
            v.vector ? file[(index + d) * w.lanes + lane] : file[index + d];
    w.values[result] = std::move(v);
    return true;
  }

  bool runPack(PackOp pack) {
    // Allocated registers already side by side: nothing to copy.
    RegTypeInfo to = getRegTypeInfo(pack.getResult().getType());
    if (to.physicalIndex) {
      int64_t next = *to.physicalIndex;
      bool inPlace = true;
      for (Value element : pack.getElements()) {
        RegTypeInfo e = getRegTypeInfo(element.getType());
        inPlace &=
            e.physicalIndex && e.cls == to.cls && *e.physicalIndex == next;
        next += e.size;
      }
      if (inPlace && next == *to.physicalIndex + to.size)
        return true;
    }
    RegValue out = cur->shapeOf(pack.getResult());
    unsigned d = 0;
    for (Value element : pack.getElements()) {
      std::optional<RegValue> v = cur->read(element);
      if (!v)
        return false;
      for (unsigned i = 0; i < v->dwords && d < out.dwords; ++i, ++d)
        for (unsigned lane = 0; lane < (out.vector ? out.lanes : 1); ++lane)
          out.ref(lane, d) = v->at(lane, i);
    }
    return cur->write(pack.getResult(), std::move(out));
  }

  bool runExtract(ExtractOp extract) {
    // A sub-range of allocated registers names them: nothing to copy.
    RegTypeInfo from = getRegTypeInfo(extract.getSource().getType());
    RegTypeInfo to = getRegTypeInfo(extract.getResult().getType());
    if (from.physicalIndex && to.physicalIndex && from.cls == to.cls &&
        *to.physicalIndex == *from.physicalIndex + int64_t(extract.getIndex()))
      return true;
    std::optional<RegValue> source = cur->read(extract.getSource());
    if (!source)
      return false;
    RegValue out = cur->shapeOf(extract.getResult());
    unsigned first = extract.getIndex();
    for (unsigned d = 0; d < out.dwords; ++d)
      for (unsigned lane = 0; lane < (out.vector ? out.lanes : 1); ++lane)
        out.ref(lane, d) = source->at(lane, first + d);
    return cur->write(extract.getResult(), std::move(out));
  }

  bool runInsert(InsertOp insert) {
    std::optional<RegValue> value = cur->read(insert.getValue());
    std::optional<RegValue> vector = cur->read(insert.getVector());
    if (!value || !vector)
      return false;
    RegValue out = cur->shapeOf(insert.getResult());
    unsigned first = insert.getIndex();
    for (unsigned d = 0; d < out.dwords; ++d)
      for (unsigned lane = 0; lane < (out.vector ? out.lanes : 1); ++lane)
        out.ref(lane, d) = d >= first && d < first + value->dwords
                               ? value->at(lane, d - first)
                               : vector->at(lane, d);
    return cur->write(insert.getResult(), std::move(out));
  }

  bool runLeaf(const DecodedOp &decoded) {
    cur->op = decoded.op;
    cur->decoded = &decoded;
    cur->beforeOp();
    bool ok = executeLeaf(decoded);
    cur->op = decoded.op;
    cur->decoded = &decoded;
    cur->afterOp();
    return ok;
  }

  bool executeLeaf(const DecodedOp &decoded) {
    Operation *op = decoded.op;
    ++cur->wave.opsExecuted;
    if (!cur->retireCompleted())
      return false;
    ++cur->wave.clock;
    OpKind kind = decoded.kind;
    switch (kind) {
    case OpKind::Wait: {
      auto wait = cast<S_WAITCNT>(op);
      std::optional<unsigned> vm = wait.getVmcnt(), lgkm = wait.getLgkmcnt();
      if (!vm && !lgkm && !wait.getExpcnt())
        vm = lgkm = 0; // no field: everything
      return cur->waitFor(vm, lgkm);
    }
    case OpKind::WaitVM:
      return cur->waitFor(cast<S_WAITCNT_VMCNT>(op).getCount(), std::nullopt);
    case OpKind::WaitLGKM:
      return cur->waitFor(std::nullopt, cast<S_WAITCNT_LGKMCNT>(op).getCount());
    case OpKind::Nothing:
      return true; // the enclosing op reads terminators; the rest is timing
    case OpKind::PrecoloredV: {
      auto p = cast<PrecoloredVRegOp>(op);
      return runPrecolored(op, RegClass::VGPR, p.getIndex(), p.getSize());
    }
    case OpKind::PrecoloredS: {
      auto p = cast<PrecoloredSRegOp>(op);
      return runPrecolored(op, RegClass::SGPR, p.getIndex(), p.getSize());
    }
    case OpKind::PrecoloredA: {
      auto p = cast<PrecoloredARegOp>(op);
      return runPrecolored(op, RegClass::AGPR, p.getIndex(), p.getSize());
    }
    case OpKind::Pack:
      return runPack(cast<PackOp>(op));
    case OpKind::Extract:
      return runExtract(cast<ExtractOp>(op));
    case OpKind::Insert:
      return runInsert(cast<InsertOp>(op));
    case OpKind::EndPgm:
      cur->wave.ended = true;
      return false;
    case OpKind::Barrier: // in lockstep every wave is here already
      cur->ldsBarrier();
      return !turns || turns->barrier(cur->wave.id);
    case OpKind::MovM0: {
      std::optional<RegValue> v = cur->read(cast<S_MOV_B32_M0>(op).getSrc());
      if (!v)
        return false;
      cur->wave.m0 = v->at(0);
      return true;
    }
    case OpKind::ALU:
      if (std::optional<bool> done = executeALU(*cur))
        return *done;
      // Declined at run time (SALUUnknown): the next family, as by name.
      kind = decoded.fallback;
      break;
    default:
      break;
    }
    if (kind == OpKind::MFMA)
      if (std::optional<bool> done = executeMFMA(*cur))
        return *done;
    if (kind == OpKind::Memory)
      if (std::optional<bool> done = executeMemory(*cur))
        return *done;
    return cur->notSimulated();
  }

  const DecodedProgram &program;
  std::vector<WaveExec> execs;
  WaveExec *cur;
  Turns *turns;
};

void initWave(Wave &wave, unsigned id, unsigned lanes, uint64_t threads,
              ProgramOp program, Random &random, const SimOptions &options,
              const std::array<int64_t, 3> &size) {
  wave.id = id;
  wave.lanes = lanes;
  wave.exec = 0;
  for (unsigned lane = 0; lane < lanes; ++lane)
    if (uint64_t(id) * lanes + lane < threads)
      wave.exec |= uint64_t(1) << lane;
  wave.vgpr.resize(size_t(kVGPRs) * lanes);
  wave.agpr.resize(size_t(kAGPRs) * lanes);
  wave.sgpr.resize(kSGPRs);
  random.fill(wave.vgpr);
  random.fill(wave.agpr);
  random.fill(wave.sgpr);
  wave.vgprSet.assign(kVGPRs, false);
  wave.agprSet.assign(kAGPRs, false);
  wave.sgprSet.assign(kSGPRs, false);
  wave.m0 = uint32_t(random.next());
  // Descriptors of the buffers in s[4(k+1)..], the kernarg pointer and
  // workgroup ids (0: the first workgroup) where the ABI puts them.
  for (unsigned k = 0; k < options.numBuffers && 4 * (k + 1) + 3 < kSGPRs;
       ++k) {
    std::array<uint32_t, 4> srd = descriptor(k, options.bufferBytes);
    if (auto at = options.descriptorAt.find(k);
        at != options.descriptorAt.end()) {
      uint64_t base = bufferBase(at->second.first) + at->second.second;
      srd[0] = uint32_t(base);
      srd[1] = uint32_t(base >> 32) & 0xffff;
    }
    for (unsigned i = 0; i < 4; ++i)
      wave.sgpr[4 * (k + 1) + i] = srd[i];
  }
  ABIAttr abi = program.getAbi();
  if (abi.getKernarg() >= 0 && abi.getKernarg() + 1 < int64_t(kSGPRs)) {
    wave.sgpr[abi.getKernarg()] = uint32_t(kKernargBase);
    wave.sgpr[abi.getKernarg() + 1] = uint32_t(kKernargBase >> 32);
  }
  for (std::optional<int64_t> reg :
       {abi.getWgIdX(), abi.getWgIdY(), abi.getWgIdZ()})
    if (reg && *reg >= 0 && *reg < int64_t(kSGPRs))
      wave.sgpr[*reg] = 0;
  // The work-item id, packed x | y << 10 | z << 20 as gfx9 delivers it.
  if (abi.getTid() >= 0 && abi.getTid() < int64_t(kVGPRs))
    for (unsigned lane = 0; lane < lanes; ++lane) {
      uint64_t flat = uint64_t(id) * lanes + lane;
      uint64_t x = flat % size[0], y = flat / size[0] % size[1],
               z = flat / (size[0] * size[1]);
      wave.vgpr[abi.getTid() * lanes + lane] =
          uint32_t(x | (y << 10) | (z << 20));
    }
}

} // namespace

uint64_t waveasm::sim::bufferAddress(unsigned k) {
  return uint64_t(k + 1) << 32;
}

std::vector<uint8_t> waveasm::sim::initialBytes(uint64_t seed, uint64_t address,
                                                uint64_t size,
                                                const InitialMemory &initial) {
  const ByteRanges &ranges = initial.byteRanges;
  const BufferFiles &files = initial.bufferFiles;
  std::vector<uint8_t> out(size);
  for (uint64_t i = 0; i < size;) {
    uint64_t pageAddress = (address + i) & ~(kPageBytes - 1);
    Random random(seed ^ (pageAddress * 0x2545f4914f6cdd1d));
    std::vector<uint8_t> bytes(kPageBytes);
    random.fill(bytes);
    // SimOptions: a buffer's own range, else moderate bytes on even seeds.
    auto range = ranges.find(unsigned(pageAddress >> 32) - 1);
    if (range != ranges.end()) {
      auto [lo, hi] = range->second;
      for (uint8_t &b : bytes)
        b = uint8_t(lo + b % (hi - lo + 1));
    } else {
      makeModerateOnEvenSeed(seed, bytes);
    }
    // A file's bytes over the drawn ones, as far as the file goes.
    auto file = files.find(unsigned(pageAddress >> 32) - 1);
    uint64_t offset = pageAddress & 0xffffffff;
    if (file != files.end() && offset < file->second->size())
      std::memcpy(
          bytes.data(), file->second->data() + offset,
          std::min<uint64_t>(kPageBytes, file->second->size() - offset));
    uint64_t from = address + i - pageAddress;
    uint64_t n = std::min(kPageBytes - from, size - i);
    std::memcpy(out.data() + i, bytes.data() + from, n);
    i += n;
  }
  return out;
}

std::vector<uint8_t> *Memory::page(uint64_t pageAddress) {
  PageSlot &slot = slotOf(pageAddress);
  if (slot.address == pageAddress)
    return slot.bytes;
  unsigned window = unsigned(pageAddress >> 32);
  if (window < 1 || window > numBuffers)
    return nullptr;
  auto [it, fresh] = pages.try_emplace(pageAddress);
  if (fresh)
    it->second = initialBytes(seed, pageAddress, kPageBytes, *initial);
  slot = PageSlot{pageAddress, &it->second, dirty.count(pageAddress) != 0};
  return slot.bytes;
}

bool Memory::read(uint64_t address, uint64_t size, uint8_t *out) {
  if (address >= kernargBase &&
      address + size <= kernargBase + kernarg.size()) {
    std::memcpy(out, kernarg.data() + (address - kernargBase), size);
    return true;
  }
  for (uint64_t i = 0; i < size;) {
    uint64_t pageAddress = (address + i) & ~(kPageBytes - 1);
    std::vector<uint8_t> *bytes = page(pageAddress);
    if (!bytes)
      return false;
    uint64_t from = address + i - pageAddress;
    uint64_t n = std::min(kPageBytes - from, size - i);
    std::memcpy(out + i, bytes->data() + from, n);
    i += n;
  }
  return true;
}

bool Memory::write(uint64_t address, uint64_t size, const uint8_t *in) {
  for (uint64_t i = 0; i < size;) {
    uint64_t pageAddress = (address + i) & ~(kPageBytes - 1);
    std::vector<uint8_t> *bytes = page(pageAddress);
    if (!bytes)
      return false;
    if (PageSlot &slot = slotOf(pageAddress); !slot.written) {
      dirty[pageAddress] = true;
      slot.written = true;
    }
    uint64_t from = address + i - pageAddress;
    uint64_t n = std::min(kPageBytes - from, size - i);
    std::memcpy(bytes->data() + from, in + i, n);
    i += n;
  }
  return true;
}

std::string waveasm::sim::describeOp(Operation *op) {
  if (!op)
    return "";
  std::string text;
  llvm::raw_string_ostream os(text);
  // The file position, also inside the Conductor's tag names (I3(...)).
  Location loc = op->getLoc();
  if (auto file = loc->findInstanceOf<FileLineColLoc>())
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn();
  else
    loc.print(os);
  os << ": '" << op->getName().getStringRef() << "'";
  return text;
}

std::string SimError::str() const {
  std::string text = where + ": ";
  if (kind == Kind::NotSimulated)
    text += "not simulated";
  else if (kind == Kind::Limit)
    text += "limit";
  else if (kind == Kind::Race)
    text += "race"; // a missing s_waitcnt or s_nop
  else
    text += "fault";
  if (!message.empty())
    text += ": " + message;
  if (lane >= 0)
    text += " (lane " + std::to_string(lane) + ")";
  return text;
}

std::vector<uint8_t> SimResult::bytes(uint64_t address, uint64_t size) const {
  std::vector<uint8_t> out = initialBytes(seed, address, size, initial);
  for (uint64_t i = 0; i < size;) {
    uint64_t pageAddress = (address + i) & ~(kPageBytes - 1);
    uint64_t from = address + i - pageAddress;
    uint64_t n = std::min(kPageBytes - from, size - i);
    auto it = pages.find(pageAddress);
    if (it != pages.end())
      std::memcpy(out.data() + i, it->second.data() + from, n);
    i += n;
  }
  return out;
}

uint64_t SimResult::digest() const {
  uint64_t hash = 0xcbf29ce484222325;
  auto add = [&](const uint8_t *bytes, size_t size) {
    for (size_t i = 0; i < size; ++i)
      hash = (hash ^ bytes[i]) * 0x100000001b3;
  };
  for (const auto &[address, bytes] : pages) {
    if (bytes == initialBytes(seed, address, kPageBytes, initial))
      continue;
    add(reinterpret_cast<const uint8_t *>(&address), sizeof(address));
    add(bytes.data(), bytes.size());
  }
  add(lds.data(), lds.size());
  return hash;
}

namespace {
/// One run from a fresh environment: the waves in lockstep (`diverged` set
/// when they disagree on a condition), or each on its thread, taking turns.
SimResult runWorkgroup(const DecodedProgram &decoded, const SimOptions &options,
                       bool lockstep, bool *diverged,
                       std::vector<std::string> &staleReads,
                       const LDSAccessHook *ldsTrace = nullptr) {
  ProgramOp program = decoded.program;
  Workgroup wg(options);
  wg.ldsTrace = ldsTrace;
  wg.target = program.getTargetKind();
  wg.physicalSCC = !definesVirtualRegisters(program.getBody());
  wg.model = &TargetModel::get(wg.target);
  wg.allocated = wg.physicalSCC;
  wg.memory.seed = options.seed;
  wg.memory.initial = &options.initial;
  wg.memory.numBuffers = options.numBuffers;
  // Kernarg: the buffers' addresses, 8 bytes each, then dwords of 64 (a
  // plausible size for any scalar argument a kernel reads there).
  wg.memory.kernargBase = kKernargBase;
  wg.memory.kernarg.resize(256);
  for (unsigned i = 0; i < 256 / 4; ++i) {
    uint32_t word = 64;
    if (i / 2 < options.numBuffers)
      word = uint32_t(bufferBase(i / 2) >> (32 * (i % 2)));
    std::memcpy(wg.memory.kernarg.data() + 4 * i, &word, 4);
  }
  for (auto [offset, word] : options.kernargDwords)
    if (offset % 4 == 0 && offset + 4 <= wg.memory.kernarg.size())
      std::memcpy(wg.memory.kernarg.data() + offset, &word, 4);

  const TargetInfo &target = getTargetInfo(wg.target);
  Random random(options.seed ^ 0x5eed5eed);
  wg.lds.resize(target.maxLDSBytes);
  random.fill(wg.lds);
  makeModerateOnEvenSeed(options.seed, wg.lds);

  unsigned lanes = target.defaultWaveSize;
  std::array<int64_t, 3> size = getDeclaredWorkgroupSize(program).value_or(
      std::array<int64_t, 3>{int64_t(lanes), 1, 1});
  uint64_t threads = size[0] * size[1] * size[2];
  unsigned waves =
      options.waves ? options.waves : unsigned((threads + lanes - 1) / lanes);
  if (options.waves)
    threads = uint64_t(waves) * lanes;

  if (options.timing && (waves > 1 || decoded.loadsToLDS)) {
    // Across waves LDS visibility matters; within one, for DMA bytes alone
    // (a wave sees its own ds_writes in order).
    wg.ldsWriter.assign(wg.lds.size(), -1);
    wg.ldsStale.assign(wg.lds.size(), 0);
    wg.ldsOwnDma.assign(wg.lds.size(), 0);
    wg.singleWave = waves == 1;
    wg.ldsPublishedAt.assign(wg.lds.size(), 0);
    wg.ldsReadInterval.assign(wg.lds.size(), 0);
    wg.ldsReader.assign(wg.lds.size(), -1);
  }

  std::vector<Wave> state(waves);
  for (unsigned id = 0; id < waves; ++id)
    initWave(state[id], id, lanes, threads, program, random, options, size);

  if (lockstep) {
    Runner runner(wg, state, nullptr, decoded);
    runner.run();
    if (diverged)
      *diverged = runner.diverged;
  } else {
    Turns turns(waves, wg.failed);
    std::vector<std::thread> threadsOfWaves;
    for (unsigned id = 0; id < waves; ++id)
      threadsOfWaves.emplace_back([&, id] {
        if (turns.wait(id))
          Runner(wg, llvm::MutableArrayRef<Wave>(state[id]), &turns, decoded)
              .run();
        turns.finish(id);
        if (wg.failed)
          turns.abort();
      });
    for (std::thread &t : threadsOfWaves)
      t.join();
  }

  SimResult result;
  result.error = wg.error;
  result.seed = options.seed;
  result.initial = options.initial;
  for (auto &[address, dirty] : wg.memory.dirty)
    result.pages[address] = std::move(wg.memory.pages[address]);
  result.lds = std::move(wg.lds);
  for (const Wave &wave : state)
    result.opsExecuted += wave.opsExecuted;
  staleReads = std::move(wg.staleReads);
  result.ldsRaces = std::move(wg.ldsRaces);
  result.hostPrecision.assign(wg.hostPrecision.begin(), wg.hostPrecision.end());
  return result;
}
} // namespace

SimResult waveasm::sim::simulateDecoded(const DecodedProgram &program,
                                        const SimOptions &options,
                                        std::vector<std::string> &staleReads) {
  // Lockstep first (no threads, no hand-offs); waves that take different
  // paths need their own threads.
  bool diverged = false;
  SimResult result =
      runWorkgroup(program, options, /*lockstep=*/true, &diverged, staleReads);
  if (diverged)
    result =
        runWorkgroup(program, options, /*lockstep=*/false, nullptr, staleReads);
  return result;
}

SimResult
waveasm::sim::simulateNotingStaleReads(ProgramOp program,
                                       const SimOptions &options,
                                       std::vector<std::string> &staleReads) {
  return simulateDecoded(DecodedProgram(program), options, staleReads);
}

SimResult waveasm::sim::simulateTracingLDS(ProgramOp program,
                                           const SimOptions &options,
                                           const LDSAccessHook &hook) {
  std::vector<std::string> staleReads;
  DecodedProgram decoded(program);
  bool diverged = false;
  SimResult result = runWorkgroup(decoded, options, /*lockstep=*/true,
                                  &diverged, staleReads, &hook);
  if (diverged)
    result = runWorkgroup(decoded, options, /*lockstep=*/false, nullptr,
                          staleReads, &hook);
  return result;
}

SimResult waveasm::sim::simulate(ProgramOp program, const SimOptions &options) {
  std::vector<std::string> staleReads;
  return simulateNotingStaleReads(program, options, staleReads);
}

//===----------------------------------------------------------------------===//
// WaveExec
//===----------------------------------------------------------------------===//

bool WaveExec::fail(SimError::Kind kind, const llvm::Twine &message, int lane) {
  std::lock_guard<std::mutex> lock(wg.errorMutex);
  if (!wg.error) {
    SimError error;
    error.kind = kind;
    error.message = message.str();
    error.where = describeOp(op);
    error.lane = lane;
    wg.error = std::move(error);
  }
  wg.failed = true;
  return false;
}

bool WaveExec::notSimulated(const llvm::Twine &why) {
  return fail(SimError::Kind::NotSimulated, why);
}

namespace {
/// Counts a load into (`delta` +1) or out of (-1) its result's registers
/// (Wave::loadsInto).
void noteLoadInto(Wave &wave, const RegTypeInfo &dest, int delta) {
  std::vector<uint16_t> &counts = wave.loadsInto[unsigned(*dest.cls)];
  if (counts.empty())
    counts.resize(*dest.cls == RegClass::VGPR   ? wave.vgprSet.size()
                  : *dest.cls == RegClass::AGPR ? wave.agprSet.size()
                                                : wave.sgprSet.size());
  for (int64_t d = 0; d < dest.size; ++d) {
    int64_t index = *dest.physicalIndex + d;
    if (index >= 0 && index < int64_t(counts.size()))
      counts[index] += delta;
  }
}
} // namespace

bool WaveExec::writeLoaded(Value value, RegValue contents, Counter counter) {
  const SimOptions &options = wg.options;
  if (!options.timing || !getRegTypeInfo(value.getType()).physicalIndex)
    return write(value, std::move(contents));
  unsigned latency = counter == Counter::VM    ? options.vmemLatency
                     : counter == Counter::LDS ? options.ldsLatency
                                               : options.smemLatency;
  PendingLoad load{op,
                   value,
                   std::move(contents),
                   wave.exec,
                   wave.clock + latency,
                   counter == Counter::SMEM};
  load.dest = getRegTypeInfo(value.getType());
  noteLoadInto(wave, load.dest, +1);
  (counter == Counter::VM ? wave.vmPending : wave.lgkmPending)
      .push_back(std::move(load));
  wave.lgkmIssued += counter != Counter::VM;
  return true;
}

namespace {
/// Writes `load`'s registers with the lanes active when it issued.
bool complete(WaveExec &exec, PendingLoad &load) {
  if (!load.result) {
    // A store: the counter no longer counts it.
    for (LDSWrite &write : exec.wave.ldsWrites)
      if (write.id == load.ldsWrite)
        write.done = true;
    return true;
  }
  noteLoadInto(exec.wave, load.dest, -1);
  uint64_t exec_ = exec.wave.exec;
  Operation *op = exec.op;
  exec.wave.exec = load.exec;
  exec.op = load.op; // the load writes its registers
  bool ok = exec.write(load.result, std::move(load.data));
  exec.wave.exec = exec_;
  exec.op = op;
  return ok;
}
} // namespace

bool WaveExec::retireCompleted() {
  // A full counter stalls the wave's next issue until its oldest op is
  // done, so at most the counter's maximum can be outstanding.
  const TargetInfo &target = getTargetInfo(wg.target);
  for (auto [queue, max] : {std::pair(&wave.vmPending, target.maxVmcnt),
                            std::pair(&wave.lgkmPending, target.maxLgkmcnt)})
    while (int64_t(queue->size()) > max) {
      if (!complete(*this, queue->front()))
        return false;
      queue->pop_front();
    }
  if (wg.options.strictWaits)
    return true;
  for (std::deque<PendingLoad> *queue : {&wave.vmPending, &wave.lgkmPending})
    while (!queue->empty()) {
      // In order per counter: a younger load never lands before an older.
      auto ready = llvm::find_if(*queue, [&](const PendingLoad &load) {
        return load.visibleAt <= wave.clock;
      });
      if (ready == queue->end())
        break;
      if (!complete(*this, *ready))
        return false;
      queue->erase(ready);
    }
  return true;
}

bool WaveExec::waitFor(std::optional<unsigned> vm,
                       std::optional<unsigned> lgkm) {
  auto drain = [&](std::deque<PendingLoad> &queue, unsigned left,
                   bool allIfScalar) {
    // SMEM returns out of order: only lgkmcnt(0) is sure to cover it. With
    // one outstanding, lgkmcnt(N > 0) may have let every SMEM op finish
    // first and leaves the N newest LDS ops in flight: only the LDS ops
    // older than those are sure to be done.
    bool scalar = allIfScalar && llvm::any_of(queue, [](const PendingLoad &l) {
                    return l.scalarMemory;
                  });
    if (scalar && left > 0) {
      size_t lds = llvm::count_if(
          queue, [](const PendingLoad &l) { return !l.scalarMemory; });
      for (size_t done = lds > left ? lds - left : 0; done > 0; --done) {
        auto oldest = llvm::find_if(
            queue, [](const PendingLoad &l) { return !l.scalarMemory; });
        if (!complete(*this, *oldest))
          return false;
        queue.erase(oldest);
      }
      return true;
    }
    while (queue.size() > left) {
      if (!complete(*this, queue.front()))
        return false;
      queue.pop_front();
    }
    return true;
  };
  if (lgkm && !wave.ldsReads.empty()) {
    // The reads this wait covers by count (LDS.cpp: in flight until then);
    // with SMEM outstanding only lgkmcnt(0) covers anything.
    uint64_t left = *lgkm;
    if (left < wave.lgkmPending.size() &&
        llvm::any_of(wave.lgkmPending,
                     [](const PendingLoad &l) { return l.scalarMemory; }))
      left = 0;
    uint64_t covered = wave.lgkmIssued - std::min(left, wave.lgkmIssued);
    llvm::erase_if(wave.ldsReads,
                   [&](const LDSRead &read) { return read.issue <= covered; });
  }
  if (!(!vm || drain(wave.vmPending, *vm, false)) ||
      !(!lgkm || drain(wave.lgkmPending, *lgkm, true)))
    return false;
  // The wave has now seen its finished ds_writes (lgkmcnt) or
  // direct-to-LDS loads (vmcnt) complete.
  for (LDSWrite &write : wave.ldsWrites)
    if (write.vm ? bool(vm) : bool(lgkm))
      write.waited |= write.done;
  if (wg.singleWave)
    llvm::erase_if(wave.ldsWrites,
                   [](const LDSWrite &write) { return write.waited; });
  return true;
}

RegValue WaveExec::shapeOf(Value value) const {
  RegTypeInfo info = getRegTypeInfo(value.getType());
  if (info.cls && *info.cls != RegClass::SGPR)
    return RegValue::vec(info.size, wave.lanes);
  return RegValue::scalar(info.size);
}

namespace {
struct FileRef {
  std::vector<uint32_t> *words;
  std::vector<bool> *set;
  bool vector;
};
FileRef fileOf(Wave &wave, RegClass cls) {
  switch (cls) {
  case RegClass::VGPR:
    return {&wave.vgpr, &wave.vgprSet, true};
  case RegClass::AGPR:
    return {&wave.agpr, &wave.agprSet, true};
  case RegClass::SGPR:
    return {&wave.sgpr, &wave.sgprSet, false};
  }
  llvm_unreachable("register class");
}
} // namespace

bool WaveExec::readInto(Value value, RegValue &v) {
  Type type = value.getType();
  if (auto imm = dyn_cast<ImmType>(type)) {
    // Sign-extended to 64 bits: 64-bit ops read both words.
    v = RegValue::scalar(2);
    uint64_t bits = uint64_t(imm.getValue());
    if (auto constant = value.getDefiningOp<ConstantOp>())
      bits = uint64_t(constant.getValue());
    v.words = {uint32_t(bits), uint32_t(bits >> 32)};
    return true;
  }
  if (isa<SCCType>(type)) {
    if (wg.physicalSCC) {
      v = RegValue::scalar(1);
      v.words[0] = wave.scc;
      return true;
    }
  }
  RegTypeInfo info = getRegTypeInfo(type);
  if (info.physicalIndex) {
    FileRef file = fileOf(wave, *info.cls);
    int64_t index = *info.physicalIndex;
    if (index < 0 || index + info.size > int64_t(file.set->size())) {
      fail(SimError::Kind::Fault,
           llvm::formatv("{0}{1} is outside the register file",
                         getRegPrefix(*info.cls), index));
      return false;
    }
    // Every word is copied from the file below: no zeros first.
    v.vector = file.vector;
    v.dwords = info.size;
    v.lanes = file.vector ? wave.lanes : 1;
    v.words.resize_for_overwrite(size_t(info.size) * v.lanes);
    // The queues only when a load into these registers is pending (the
    // first such in queue order is the one named).
    const std::vector<uint16_t> &loading = wave.loadsInto[unsigned(*info.cls)];
    bool loadPending = false;
    for (int64_t d = 0; d < info.size && !loading.empty(); ++d)
      loadPending |= loading[index + d] != 0;
    for (const std::deque<PendingLoad> *queue :
         {&wave.vmPending, &wave.lgkmPending})
      for (const PendingLoad &load : *queue) {
        if (!loadPending)
          break;
        if (!load.result)
          continue; // a store writes no registers
        const RegTypeInfo &dest = load.dest;
        if (dest.cls == info.cls && *dest.physicalIndex < index + info.size &&
            index < *dest.physicalIndex + dest.size) {
          fail(SimError::Kind::Race,
               llvm::formatv("reads {0}{1} while the load at {2} into it is "
                             "outstanding (no s_waitcnt covers it)",
                             getRegPrefix(*info.cls),
                             std::max(index, *dest.physicalIndex),
                             describeOp(load.op)));
          return false;
        }
      }
    for (int64_t d = 0; d < info.size; ++d) {
      if (!(*file.set)[index + d]) {
        fail(SimError::Kind::Fault,
             llvm::formatv("reads {0}{1}, which nothing wrote before",
                           getRegPrefix(*info.cls), index + d));
        return false;
      }
      if (file.vector)
        std::copy_n(file.words->begin() + (index + d) * wave.lanes, wave.lanes,
                    v.words.begin() + d * wave.lanes);
      else
        v.words[d] = (*file.words)[index + d];
    }
    applyReadHazards(value, info, v);
    return true;
  }
  auto it = wave.values.find(value);
  if (it == wave.values.end()) {
    fail(SimError::Kind::Fault, "reads a value before its definition ran");
    return false;
  }
  v = it->second;
  return true;
}

std::optional<RegValue> WaveExec::read(Value value) {
  RegValue v;
  if (!readInto(value, v))
    return std::nullopt;
  return v;
}

bool WaveExec::readOperands(llvm::SmallVectorImpl<RegValue> &out) {
  out.clear();
  for (Value operand : op->getOperands()) {
    std::optional<RegValue> value = read(operand);
    if (!value)
      return false;
    out.push_back(std::move(*value));
  }
  return true;
}

const RegValue *WaveExec::view(Value value, RegValue &scratch) {
  Type type = value.getType();
  bool inMap = !isa<ImmType>(type) && !(isa<SCCType>(type) && wg.physicalSCC) &&
               !isPhysicalReg(type);
  if (inMap) {
    auto it = wave.values.find(value);
    if (it != wave.values.end())
      return &it->second;
  }
  // Everything else, and the diagnostic of a missing value, as read(),
  // straight into `scratch`.
  if (!readInto(value, scratch))
    return nullptr;
  return &scratch;
}

bool WaveExec::readOperands(OperandViews &out) {
  out.views.clear();
  out.owned.clear();
  // Reserved up front: `owned` never reallocates under the views.
  out.owned.reserve(op->getNumOperands());
  for (Value operand : op->getOperands()) {
    out.owned.emplace_back();
    const RegValue *v = view(operand, out.owned.back());
    if (!v)
      return false;
    out.views.push_back(v);
  }
  return true;
}

bool WaveExec::write(Value value, RegValue contents) {
  Type type = value.getType();
  if (isa<SCCType>(type)) {
    wave.scc = contents.at(0) & 1;
    wave.values[value] = std::move(contents);
    return true;
  }
  RegTypeInfo info = getRegTypeInfo(type);
  if (!info.cls)
    return notSimulated("a result of type other than a register");
  bool vector = *info.cls != RegClass::SGPR;
  if (!info.physicalIndex) {
    if (vector && !contents.vector) {
      // A scalar written to a vector register: every lane gets it.
      RegValue v = RegValue::vec(contents.dwords, wave.lanes);
      for (unsigned d = 0; d < contents.dwords; ++d)
        for (unsigned lane = 0; lane < wave.lanes; ++lane)
          v.ref(lane, d) = contents.at(0, d);
      contents = std::move(v);
    }
    wave.values[value] = std::move(contents);
    return true;
  }
  FileRef file = fileOf(wave, *info.cls);
  int64_t index = *info.physicalIndex;
  if (index < 0 || index + info.size > int64_t(file.set->size()))
    return fail(SimError::Kind::Fault,
                llvm::formatv("{0}{1} is outside the register file",
                              getRegPrefix(*info.cls), index));
  if (!noteWrite(value, info))
    return false;
  bool allActive = wave.lanes == 64
                       ? wave.exec == ~uint64_t(0)
                       : wave.exec == (uint64_t(1) << wave.lanes) - 1;
  for (int64_t d = 0; d < info.size; ++d) {
    (*file.set)[index + d] = true;
    if (!vector) {
      (*file.words)[index + d] = contents.at(0, d);
      continue;
    }
    uint32_t *to = file.words->data() + (index + d) * wave.lanes;
    if (allActive && contents.vector && d < contents.dwords &&
        contents.lanes == wave.lanes) {
      std::memcpy(to, contents.words.data() + d * wave.lanes, 4 * wave.lanes);
      continue;
    }
    for (unsigned lane = 0; lane < wave.lanes; ++lane)
      if (active(lane))
        to[lane] = contents.at(lane, d);
  }
  return true;
}
