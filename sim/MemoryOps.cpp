//===- MemoryOps.cpp - buffer, global, scalar and LDS memory ops ----------===//
//
// Buffer accesses follow the descriptor (SPEC.md 12.4): base in words 0-1,
// stride in word 1 (only raw buffers, stride 0, are simulated), the byte
// size in word 2. Every dword (or the whole access, for byte and short) is
// checked against the size: out of range reads give 0 and writes are
// dropped, as on hardware. The range check covers voffset + soffset +
// offset together (gfx9 leaves soffset out; both programs of a comparison
// see the same rule, and an in-range kernel never notices). An in-range
// address that no simulated buffer backs is a fault. LDS accesses outside
// the target's LDS read 0 and drop writes.
//
//===----------------------------------------------------------------------===//

#include "sim/Decoded.h"
#include "sim/Float.h"
#include "sim/Machine.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstring>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::sim;

namespace {

/// Bytes moved by a memory op, from its mnemonic's suffix.
unsigned accessBytes(llvm::StringRef name) {
  if (name.ends_with("dwordx4") || name.ends_with("b128"))
    return 16;
  if (name.ends_with("dwordx3"))
    return 12;
  if (name.ends_with("dwordx2") || name.ends_with("b64"))
    return 8;
  if (name.ends_with("dword") || name.ends_with("b32"))
    return 4;
  if (name.ends_with("short") || name.ends_with("16"))
    return 2;
  if (name.ends_with("byte") || name.ends_with("8"))
    return 1;
  return 0;
}

bool signExtends(llvm::StringRef name) {
  return name.ends_with("sbyte") || name.ends_with("sshort") ||
         name.ends_with("_i8") || name.ends_with("_i16");
}

int64_t intAttr(Operation *op, llvm::StringRef name) {
  if (auto attr = op->getAttrOfType<IntegerAttr>(name))
    return attr.getInt();
  return 0;
}

/// A sub-dword load's word: zero- or sign-extended.
uint32_t extend(uint32_t raw, unsigned bytes, bool sign) {
  if (bytes >= 4)
    return raw;
  unsigned bits = 8 * bytes;
  uint32_t value = raw & ((1u << bits) - 1);
  if (sign && (value >> (bits - 1)))
    value |= ~((1u << bits) - 1);
  return value;
}

/// `bytes` (4, 8, 12 or 16) from `from` to `to` by fixed-size copies (a
/// memcpy of a variable size is a call).
LLVM_ATTRIBUTE_ALWAYS_INLINE void copyDwords(void *to, const void *from,
                                             unsigned bytes) {
  switch (bytes) {
  case 4:
    std::memcpy(to, from, 4);
    return;
  case 8:
    std::memcpy(to, from, 8);
    return;
  case 12:
    std::memcpy(to, from, 12);
    return;
  default:
    std::memcpy(to, from, 16);
    return;
  }
}

/// Register 0 of an address operand by lane (a scalar: the same word for
/// every lane; no registers: 0), as RegValue::at reads it, without its
/// branches per lane.
struct LaneAddresses {
  const uint32_t *words;
  unsigned stride;
  explicit LaneAddresses(const RegValue &v) {
    static const uint32_t zero = 0;
    words = v.dwords ? v.words.data() : &zero;
    stride = v.dwords && v.vector ? 1 : 0;
  }
  LLVM_ATTRIBUTE_ALWAYS_INLINE uint32_t operator[](unsigned lane) const {
    return words[lane * stride];
  }
};

/// The active lanes' whole accesses of `Bytes` at LDS address
/// `address[lane] + offset` into (Write: from) the lane's words of `regs`
/// (register d of lane l at regs[d * lanes + l]; zeros before a read); a
/// lane whose access lies partly in the LDS goes to `other(lane)`. One copy
/// per lane of a size known here.
template <unsigned Bytes, bool Write, typename Other>
LLVM_ATTRIBUTE_ALWAYS_INLINE void
wholeLDSAccesses(uint8_t *lds, uint64_t ldsSize, LaneAddresses address,
                 uint32_t offset, uint64_t mask, unsigned lanes, uint32_t *regs,
                 Other other) {
  for (unsigned lane = 0; lane < lanes; ++lane) {
    if (!((mask >> lane) & 1))
      continue;
    uint64_t at = uint64_t(address[lane]) + offset;
    // Wholly outside the LDS (its first dword is, so every later one is):
    // a read gives the zeros `regs` holds, a write is dropped.
    if (at + 4 > ldsSize)
      continue;
    if (at + Bytes > ldsSize) {
      other(lane);
      continue;
    }
    uint32_t words[Bytes / 4];
    if (Write) {
      for (unsigned d = 0; d < Bytes / 4; ++d)
        words[d] = regs[d * lanes + lane];
      std::memcpy(lds + at, words, Bytes);
    } else {
      std::memcpy(words, lds + at, Bytes);
      for (unsigned d = 0; d < Bytes / 4; ++d)
        regs[d * lanes + lane] = words[d];
    }
  }
}

/// wholeLDSAccesses for a size known at run time (4, 8, 12 or 16).
template <bool Write, typename Other>
void wholeLDSAccesses(unsigned bytes, uint8_t *lds, uint64_t ldsSize,
                      LaneAddresses address, uint32_t offset, uint64_t mask,
                      unsigned lanes, uint32_t *regs, Other other) {
  switch (bytes) {
  case 4:
    return wholeLDSAccesses<4, Write>(lds, ldsSize, address, offset, mask,
                                      lanes, regs, other);
  case 8:
    return wholeLDSAccesses<8, Write>(lds, ldsSize, address, offset, mask,
                                      lanes, regs, other);
  case 12:
    return wholeLDSAccesses<12, Write>(lds, ldsSize, address, offset, mask,
                                       lanes, regs, other);
  default:
    return wholeLDSAccesses<16, Write>(lds, ldsSize, address, offset, mask,
                                       lanes, regs, other);
  }
}

struct Descriptor {
  uint64_t base;
  uint32_t stride;
  uint32_t records;
};

Descriptor decode(const RegValue &srd) {
  return {uint64_t(srd.at(0, 0)) | (uint64_t(srd.at(0, 1) & 0xffff) << 32),
          (srd.at(0, 1) >> 16) & 0x3fff, srd.at(0, 2)};
}

/// How a VMEM op turns a lane's offsets into an address: through a raw
/// buffer descriptor, range-checked, or from a global pointer pair.
struct Addressing {
  bool buffer;
  Descriptor srd;
  uint64_t pointer;
  uint32_t instOffset;

  /// The address of bytes [byte, byte + size) of a lane's access, or
  /// nullopt when a buffer's range check fails (reads give 0, writes are
  /// dropped).
  std::optional<uint64_t> at(uint32_t voffset, uint32_t soffset, unsigned byte,
                             unsigned size) const {
    if (!buffer)
      return pointer + voffset + soffset + int64_t(int32_t(instOffset)) + byte;
    uint32_t offset = voffset + soffset + instOffset;
    if (uint64_t(offset) + byte + size > srd.records)
      return std::nullopt;
    return srd.base + offset + byte;
  }
};

/// The active lanes' whole loads of `Bytes` through `a` into the lane's
/// words of `to` (register d of lane l at to[d * lanes + l], zeros before),
/// from a page accessed lately when they lie in one; a lane whose access is
/// partly in range, or not in memory, goes to `other(lane)`.
template <unsigned Bytes, bool Buffer, typename Other>
LLVM_ATTRIBUTE_ALWAYS_INLINE void
wholeLoads(Memory &memory, const Addressing &a, LaneAddresses voffset,
           uint32_t soffset, uint64_t mask, unsigned lanes, uint32_t *to,
           Other other) {
  for (unsigned lane = 0; lane < lanes; ++lane) {
    if (!((mask >> lane) & 1))
      continue;
    uint64_t address;
    if (Buffer) {
      uint32_t offset = voffset[lane] + soffset + a.instOffset;
      // Wholly out of range (its first dword is, so every later one is):
      // it reads zeros, which `to` holds already.
      if (uint64_t(offset) + 4 > a.srd.records)
        continue;
      if (uint64_t(offset) + Bytes > a.srd.records) {
        other(lane);
        continue;
      }
      address = a.srd.base + offset;
    } else {
      address =
          a.pointer + voffset[lane] + soffset + int64_t(int32_t(a.instOffset));
    }
    uint32_t words[Bytes / 4];
    if (const uint8_t *in = memory.inRecentPage(address, Bytes))
      std::memcpy(words, in, Bytes);
    else if (!memory.read(address, Bytes, reinterpret_cast<uint8_t *>(words))) {
      other(lane);
      continue;
    }
    for (unsigned d = 0; d < Bytes / 4; ++d)
      to[d * lanes + lane] = words[d];
  }
}

/// wholeLoads for a size and an addressing known at run time.
template <typename Other>
void wholeLoads(unsigned bytes, Memory &memory, const Addressing &a,
                LaneAddresses voffset, uint32_t soffset, uint64_t mask,
                unsigned lanes, uint32_t *to, Other other) {
#define WAVEASM_WHOLE_LOADS(BYTES)                                             \
  return a.buffer ? wholeLoads<BYTES, true>(memory, a, voffset, soffset, mask, \
                                            lanes, to, other)                  \
                  : wholeLoads<BYTES, false>(memory, a, voffset, soffset,      \
                                             mask, lanes, to, other)
  switch (bytes) {
  case 4:
    WAVEASM_WHOLE_LOADS(4);
  case 8:
    WAVEASM_WHOLE_LOADS(8);
  case 12:
    WAVEASM_WHOLE_LOADS(12);
  default:
    WAVEASM_WHOLE_LOADS(16);
  }
#undef WAVEASM_WHOLE_LOADS
}

class MemoryExec {
public:
  explicit MemoryExec(WaveExec &exec) : exec(exec) {}

  /// Reads `bytes` of global memory for `lane`: false on a fault.
  bool load(uint64_t address, unsigned bytes, uint8_t *out, int lane) {
    if (!exec.wg.memory.read(address, bytes, out))
      return exec.fail(SimError::Kind::Fault,
                       llvm::formatv("reads {0} bytes at {1:x}, outside every "
                                     "simulated buffer",
                                     bytes, address),
                       lane);
    return true;
  }
  bool store(uint64_t address, unsigned bytes, const uint8_t *in, int lane) {
    if (!exec.wg.memory.write(address, bytes, in))
      return exec.fail(SimError::Kind::Fault,
                       llvm::formatv("writes {0} bytes at {1:x}, outside "
                                     "every simulated buffer",
                                     bytes, address),
                       lane);
    return true;
  }

  /// The op's addressing from its address operand (`saddr`): nullopt, with
  /// the run stopped, for a descriptor with a stride.
  std::optional<Addressing> addressing(const RegValue &saddr, bool buffer) {
    Addressing a{buffer, decode(saddr), saddr.at64(0),
                 uint32_t(exec.decoded->offset)};
    if (buffer && a.srd.stride) {
      exec.notSimulated("a buffer descriptor with a stride");
      return std::nullopt;
    }
    return a;
  }

  /// buffer_load_* / global_load_*: one result of dwords.
  bool vmemLoad(bool buffer) {
    Operation *op = exec.op;
    OperandViews in;
    if (!exec.readOperands(in))
      return false;
    const RegValue &saddr = in[0], &voffset = in[1], &soffset = in[2];
    unsigned bytes = exec.decoded->bytes;
    bool sign = exec.decoded->sign;
    Memory &memory = exec.wg.memory;
    std::optional<Addressing> addressing = this->addressing(saddr, buffer);
    if (!addressing)
      return false;
    Value result = op->getResult(0);
    RegValue out = exec.shapeOf(result);
    // Whole dwords the result holds: a lane's access in one piece when it
    // is in range as a whole (then each dword is), dword by dword below
    // otherwise (partly out of range, or a fault to report as such).
    bool whole =
        bytes % 4 == 0 && bytes <= 16 && bytes <= 4 * out.dwords && out.vector;
    uint32_t soffsetWord = soffset.at(0);
    bool ok = true;
    // One lane dword by dword: partly out of range, or a fault to report.
    auto byDword = [&](unsigned lane) {
      for (unsigned d = 0; ok && d * 4 < bytes && d < out.dwords; ++d) {
        unsigned size = std::min(bytes - 4 * d, 4u);
        uint32_t word = 0;
        std::optional<uint64_t> address =
            addressing->at(voffset.at(lane), soffsetWord, 4 * d, size);
        if (address &&
            !load(*address, size, reinterpret_cast<uint8_t *>(&word), lane)) {
          ok = false;
          return;
        }
        out.ref(lane, d) = extend(word, size, sign);
      }
    };
    if (whole) {
      // Stops at the first fault: the lanes after it do not run.
      uint64_t mask = exec.wave.exec;
      wholeLoads(bytes, memory, *addressing, LaneAddresses(voffset),
                 soffsetWord, mask, exec.lanes(), out.words.data(),
                 [&](unsigned lane) {
                   if (ok)
                     byDword(lane);
                 });
    } else {
      for (unsigned lane = 0; ok && lane < exec.lanes(); ++lane)
        if (exec.active(lane))
          byDword(lane);
    }
    if (!ok)
      return false;
    return exec.writeLoaded(result, std::move(out), WaveExec::Counter::VM);
  }

  /// buffer_store_* / global_store_*: (data, saddr, voffset).
  bool vmemStore(bool buffer) {
    OperandViews in;
    if (!exec.readOperands(in))
      return false;
    const RegValue &data = in[0], &saddr = in[1], &voffset = in[2];
    unsigned bytes = exec.decoded->bytes;
    std::optional<Addressing> addressing = this->addressing(saddr, buffer);
    if (!addressing)
      return false;
    Memory &memory = exec.wg.memory;
    bool whole = bytes % 4 == 0 && bytes <= 16;
    for (unsigned lane = 0; lane < exec.lanes(); ++lane) {
      if (!exec.active(lane))
        continue;
      // A buffer store wholly out of range (its first dword is, so every
      // later one is) is dropped.
      if (whole && addressing->buffer &&
          !addressing->at(voffset.at(lane), 0, 0, 4))
        continue;
      if (whole) {
        // In range as a whole (then each dword is) and in the page written
        // last: one copy; else dword by dword below.
        std::optional<uint64_t> address =
            addressing->at(voffset.at(lane), 0, 0, bytes);
        if (uint8_t *to = address ? memory.inRecentWrittenPage(*address, bytes)
                                  : nullptr) {
          uint32_t words[4];
          for (unsigned d = 0; d < bytes / 4; ++d)
            words[d] = data.at(lane, d);
          copyDwords(to, words, bytes);
          continue;
        }
      }
      for (unsigned d = 0; d * 4 < bytes; ++d) {
        unsigned size = std::min(bytes - 4 * d, 4u);
        uint32_t word = data.at(lane, d);
        // Stores have no soffset operand.
        std::optional<uint64_t> address =
            addressing->at(voffset.at(lane), 0, 4 * d, size);
        if (address &&
            !store(*address, size, reinterpret_cast<uint8_t *>(&word), lane))
          return false;
      }
    }
    exec.countStore(WaveExec::Counter::VM);
    return true;
  }

  /// buffer_atomic_add_f32 / buffer_atomic_pk_add_bf16: (data, saddr,
  /// voffset), one read-modify-write per active lane in lane order.
  bool bufferAtomic() {
    OperandViews in;
    if (!exec.readOperands(in))
      return false;
    const RegValue &data = in[0], &saddr = in[1], &voffset = in[2];
    std::optional<Addressing> addressing =
        this->addressing(saddr, /*buffer=*/true);
    if (!addressing)
      return false;
    bool packed = exec.decoded->variant; // buffer_atomic_pk_add_bf16
    for (unsigned lane = 0; lane < exec.lanes(); ++lane) {
      if (!exec.active(lane))
        continue;
      std::optional<uint64_t> address =
          addressing->at(voffset.at(lane), 0, 0, 4);
      if (!address)
        continue;
      uint32_t old;
      if (!load(*address, 4, reinterpret_cast<uint8_t *>(&old), lane))
        return false;
      uint32_t add = data.at(lane), result;
      if (packed) {
        auto half = [&](unsigned i) {
          float x = bf16ToFloat(uint16_t(old >> (16 * i)));
          float y = bf16ToFloat(uint16_t(add >> (16 * i)));
          return uint32_t(floatToBF16(x + y)) << (16 * i);
        };
        result = half(0) | half(1);
      } else {
        result = asBits(asFloat(old) + asFloat(add));
      }
      if (!store(*address, 4, reinterpret_cast<uint8_t *>(&result), lane))
        return false;
    }
    exec.countStore(WaveExec::Counter::VM);
    return true;
  }

  /// buffer_load_dword(x4)_lds: (voffset, srd, soffset); each lane's data
  /// lands in LDS at M0 + instOffset + lane * size.
  bool loadToLDS() {
    OperandViews in;
    if (!exec.readOperands(in))
      return false;
    const RegValue &voffset = in[0], &saddr = in[1], &soffset = in[2];
    unsigned bytes = exec.decoded->bytes;
    std::optional<Addressing> addressing =
        this->addressing(saddr, /*buffer=*/true);
    if (!addressing)
      return false;
    std::vector<uint8_t> &lds = exec.wg.lds;
    exec.beginLDSWrite(WaveExec::Counter::VM);
    for (unsigned lane = 0; lane < exec.lanes(); ++lane) {
      if (!exec.active(lane))
        continue;
      uint64_t ldsAddress = uint64_t(exec.wave.m0) + addressing->instOffset +
                            uint64_t(lane) * bytes;
      for (unsigned d = 0; d * 4 < bytes; ++d) {
        uint32_t word = 0;
        std::optional<uint64_t> address =
            addressing->at(voffset.at(lane), soffset.at(0), 4 * d, 4);
        if (address &&
            !load(*address, 4, reinterpret_cast<uint8_t *>(&word), lane))
          return false;
        uint64_t at = ldsAddress + 4 * d;
        if (at + 4 > lds.size())
          continue;
        // Other waves see it after a vmcnt wait and a barrier (LDS.cpp).
        exec.writeLDS(at, 4, word);
      }
    }
    exec.endLDSWrite(WaveExec::Counter::VM);
    return true;
  }

  /// s_load_dword*: (saddr pair, offset in bytes).
  bool scalarLoad() {
    Operation *op = exec.op;
    OperandViews in;
    if (!exec.readOperands(in))
      return false;
    const RegValue &saddr = in[0], &offset = in[1];
    Value result = op->getResult(0);
    RegValue out = exec.shapeOf(result);
    uint64_t address = saddr.at64(0) + offset.at(0);
    for (unsigned d = 0; d < out.dwords; ++d) {
      uint32_t word;
      if (!load(address + 4 * d, 4, reinterpret_cast<uint8_t *>(&word), -1))
        return false;
      out.ref(0, d) = word;
    }
    return exec.writeLoaded(result, std::move(out), WaveExec::Counter::SMEM);
  }

  /// simulateTracingLDS's callback with this wave's lane addresses.
  void traceLDS(const RegValue &vaddr, uint32_t offset) {
    if (!exec.wg.ldsTrace)
      return;
    LDSAccess access;
    access.op = exec.op;
    access.wave = exec.wave.id;
    access.addresses.assign(exec.lanes(), 0);
    for (unsigned lane = 0; lane < exec.lanes(); ++lane)
      if (exec.active(lane)) {
        access.activeMask |= uint64_t(1) << lane;
        access.addresses[lane] = vaddr.at(lane) + offset;
      }
    (*exec.wg.ldsTrace)(access);
  }

  bool ldsRead() {
    Operation *op = exec.op;
    OperandViews in;
    if (!exec.readOperands(in))
      return false;
    const RegValue &vaddr = in[0];
    unsigned bytes = exec.decoded->bytes;
    bool sign = exec.decoded->sign;
    uint32_t offset = uint32_t(exec.decoded->offset);
    Value result = op->getResult(0);
    RegValue out = exec.shapeOf(result);
    const std::vector<uint8_t> &lds = exec.wg.lds;
    traceLDS(vaddr, offset);
    // Untracked LDS (one wave, or no timing): whole dwords in one copy,
    // straight into the result's words.
    bool whole = !exec.ldsTracked() && bytes % 4 == 0 && bytes <= 16 &&
                 bytes <= 4 * out.dwords && out.vector;
    // One lane's access dword by dword, through the visibility rules.
    auto byDword = [&](unsigned lane) {
      uint64_t address = uint64_t(vaddr.at(lane)) + offset;
      for (unsigned d = 0; d * 4 < bytes && d < out.dwords; ++d) {
        unsigned size = std::min(bytes - 4 * d, 4u);
        uint32_t word = 0;
        if (address + 4 * d + size <= lds.size())
          word = exec.readLDS(address + 4 * d, size);
        out.ref(lane, d) = extend(word, size, sign);
      }
    };
    if (whole) {
      wholeLDSAccesses</*Write=*/false>(
          bytes, exec.wg.lds.data(), lds.size(), LaneAddresses(vaddr), offset,
          exec.wave.exec, exec.lanes(), out.words.data(), byDword);
    } else {
      for (unsigned lane = 0; lane < exec.lanes(); ++lane)
        if (exec.active(lane))
          byDword(lane);
    }
    return writeLoadedRead(result, std::move(out));
  }

  /// A ds_read's result onto lgkmcnt, its bytes in flight until waited.
  bool writeLoadedRead(Value result, RegValue out) {
    uint64_t before = exec.wave.lgkmIssued;
    bool ok = exec.writeLoaded(result, std::move(out), WaveExec::Counter::LDS);
    exec.endLDSRead(exec.wave.lgkmIssued != before);
    return ok;
  }

  bool ldsWrite() {
    OperandViews in;
    if (!exec.readOperands(in))
      return false;
    const RegValue &data = in[0], &vaddr = in[1];
    unsigned bytes = exec.decoded->bytes;
    uint32_t offset = uint32_t(exec.decoded->offset);
    const std::vector<uint8_t> &lds = exec.wg.lds;
    traceLDS(vaddr, offset);
    exec.beginLDSWrite();
    bool whole = !exec.ldsTracked() && bytes % 4 == 0 && bytes <= 16 &&
                 data.vector && data.lanes == exec.lanes() &&
                 bytes <= 4 * data.dwords;
    auto byDword = [&](unsigned lane) {
      uint64_t address = uint64_t(vaddr.at(lane)) + offset;
      for (unsigned d = 0; d * 4 < bytes; ++d) {
        unsigned size = std::min(bytes - 4 * d, 4u);
        uint32_t word = data.at(lane, d);
        if (address + 4 * d + size <= lds.size())
          exec.writeLDS(address + 4 * d, size, word);
      }
    };
    if (whole) {
      // The data's words are only read (Write copies from them).
      wholeLDSAccesses</*Write=*/true>(
          bytes, exec.wg.lds.data(), lds.size(), LaneAddresses(vaddr), offset,
          exec.wave.exec, exec.lanes(),
          const_cast<uint32_t *>(data.words.data()), byDword);
    } else {
      for (unsigned lane = 0; lane < exec.lanes(); ++lane)
        if (exec.active(lane))
          byDword(lane);
    }
    exec.endLDSWrite();
    return true;
  }

  /// ds_read2_b32/b64: two elements per lane, at vaddr + offset and vaddr
  /// + offset2 (decodeMemory), into the low and the high half of the
  /// result; out of the LDS reads 0.
  bool ldsRead2() {
    OperandViews in;
    if (!exec.readOperands(in))
      return false;
    const RegValue &vaddr = in[0];
    const DecodedOp &d = *exec.decoded;
    unsigned elementDwords = d.bytes / 4;
    int64_t offsets[2] = {d.offset, d.offset2};
    Value result = exec.op->getResult(0);
    RegValue out = exec.shapeOf(result);
    uint64_t ldsBytes = exec.wg.lds.size();
    for (int64_t offset : offsets)
      traceLDS(vaddr, uint32_t(offset));
    for (unsigned lane = 0; lane < exec.lanes(); ++lane) {
      if (!exec.active(lane))
        continue;
      for (unsigned e = 0; e < 2; ++e) {
        uint64_t address = uint64_t(vaddr.at(lane)) + offsets[e];
        for (unsigned w = 0; w < elementDwords; ++w) {
          unsigned dword = e * elementDwords + w;
          if (dword >= out.dwords)
            break;
          uint32_t word = 0;
          if (address + 4 * w + 4 <= ldsBytes)
            word = exec.readLDS(address + 4 * w, 4);
          out.ref(lane, dword) = word;
        }
      }
    }
    return writeLoadedRead(result, std::move(out));
  }

  /// ds_write2_b32/b64: the data's low half to vaddr + offset, its high
  /// half to vaddr + offset2; out of the LDS is dropped.
  bool ldsWrite2() {
    OperandViews in;
    if (!exec.readOperands(in))
      return false;
    const RegValue &data = in[0], &vaddr = in[1];
    const DecodedOp &d = *exec.decoded;
    unsigned elementDwords = d.bytes / 4;
    int64_t offsets[2] = {d.offset, d.offset2};
    uint64_t ldsBytes = exec.wg.lds.size();
    for (int64_t offset : offsets)
      traceLDS(vaddr, uint32_t(offset));
    exec.beginLDSWrite();
    for (unsigned lane = 0; lane < exec.lanes(); ++lane) {
      if (!exec.active(lane))
        continue;
      for (unsigned e = 0; e < 2; ++e) {
        uint64_t address = uint64_t(vaddr.at(lane)) + offsets[e];
        for (unsigned w = 0; w < elementDwords; ++w)
          if (address + 4 * w + 4 <= ldsBytes)
            exec.writeLDS(address + 4 * w, 4,
                          data.at(lane, e * elementDwords + w));
      }
    }
    exec.endLDSWrite();
    return true;
  }

private:
  WaveExec &exec;
};

/// ds_read2*/ds_write2*'s two byte offsets, as the emitter writes them
/// (AsmInstructionPrinter.cpp): `offset0`/`offset1` in elements when
/// either is given (a byte `offset` is then dropped), else elements at
/// `offset` and `offset` + one element. False for element offsets outside
/// the instruction's 0..255.
bool decodePairOffsets(DecodedOp &d) {
  auto o0 = d.op->getAttrOfType<IntegerAttr>("offset0");
  auto o1 = d.op->getAttrOfType<IntegerAttr>("offset1");
  if (o0 || o1) {
    int64_t first = o0 ? o0.getInt() : 0, second = o1 ? o1.getInt() : 0;
    if (first < 0 || first > 255 || second < 0 || second > 255)
      return false;
    d.offset = first * d.bytes;
    d.offset2 = second * d.bytes;
    return true;
  }
  d.offset = intAttr(d.op, "offset");
  d.offset2 = d.offset + d.bytes;
  return true;
}

} // namespace

std::optional<bool> waveasm::sim::executeMemory(WaveExec &exec) {
  const DecodedOp &d = *exec.decoded;
  MemoryExec memory(exec);
  switch (MemoryForm(d.form)) {
  case MemoryForm::LoadToLDS:
    return memory.loadToLDS();
  case MemoryForm::VMemLoad:
    return memory.vmemLoad(/*buffer=*/!d.global);
  case MemoryForm::Atomic:
    return memory.bufferAtomic();
  case MemoryForm::VMemStore:
    return memory.vmemStore(/*buffer=*/!d.global);
  case MemoryForm::ScalarLoad:
    return memory.scalarLoad();
  case MemoryForm::LDSRead:
    return memory.ldsRead();
  case MemoryForm::LDSWrite:
    return memory.ldsWrite();
  case MemoryForm::LDSRead2:
  case MemoryForm::LDSWrite2:
    if (d.variant) // decodePairOffsets refused them
      return exec.notSimulated("offset0/offset1 outside 0..255 elements");
    return MemoryForm(d.form) == MemoryForm::LDSRead2 ? memory.ldsRead2()
                                                      : memory.ldsWrite2();
  }
  return std::nullopt;
}

bool waveasm::sim::decodeMemory(DecodedOp &d) {
  llvm::StringRef name = d.op->getName().stripDialect();
  auto set = [&](MemoryForm form) {
    d.kind = OpKind::Memory;
    d.form = uint8_t(form);
    d.bytes = accessBytes(name);
    d.sign = signExtends(name);
    return true;
  };
  if (name.starts_with("ds_read2") || name.starts_with("ds_write2")) {
    set(name.starts_with("ds_read2") ? MemoryForm::LDSRead2
                                     : MemoryForm::LDSWrite2);
    d.variant = !decodePairOffsets(d);
    return true;
  }
  if (name.ends_with("_lds") && name.starts_with("buffer_load")) {
    set(MemoryForm::LoadToLDS);
    d.bytes = name.contains("dwordx4") ? 16 : 4;
    d.offset = intAttr(d.op, "instOffset");
    return true;
  }
  d.global = name.starts_with("global_");
  if (name.starts_with("buffer_load_") || name.starts_with("global_load_")) {
    d.offset = intAttr(d.op, "instOffset");
    return set(MemoryForm::VMemLoad);
  }
  if (name.starts_with("buffer_atomic_")) {
    d.offset = intAttr(d.op, "instOffset");
    d.variant = name == "buffer_atomic_pk_add_bf16";
    return set(MemoryForm::Atomic);
  }
  if (name.starts_with("buffer_store_") || name.starts_with("global_store_")) {
    d.offset = intAttr(d.op, "instOffset");
    return set(MemoryForm::VMemStore);
  }
  if (name.starts_with("s_load_"))
    return set(MemoryForm::ScalarLoad);
  d.offset = intAttr(d.op, "offset");
  if (name.starts_with("ds_read_"))
    return set(MemoryForm::LDSRead);
  if (name.starts_with("ds_write_"))
    return set(MemoryForm::LDSWrite);
  return false;
}
