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
                 uint32_t(intAttr(exec.op, "instOffset"))};
    if (buffer && a.srd.stride) {
      exec.notSimulated("a buffer descriptor with a stride");
      return std::nullopt;
    }
    return a;
  }

  /// buffer_load_* / global_load_*: one result of dwords.
  bool vmemLoad(llvm::StringRef name, bool buffer) {
    Operation *op = exec.op;
    OperandViews in;
    if (!exec.readOperands(in))
      return false;
    const RegValue &saddr = in[0], &voffset = in[1], &soffset = in[2];
    unsigned bytes = accessBytes(name);
    bool sign = signExtends(name);
    std::optional<Addressing> addressing = this->addressing(saddr, buffer);
    if (!addressing)
      return false;
    Value result = op->getResult(0);
    RegValue out = exec.shapeOf(result);
    // Whole dwords the result holds: a lane's access in one piece when it
    // is in range as a whole (then each dword is), dword by dword below
    // otherwise (partly out of range, or a fault to report as such).
    bool whole = bytes % 4 == 0 && bytes <= 16 && bytes <= 4 * out.dwords;
    for (unsigned lane = 0; lane < exec.lanes(); ++lane) {
      if (!exec.active(lane))
        continue;
      if (whole) {
        uint32_t words[4];
        std::optional<uint64_t> address =
            addressing->at(voffset.at(lane), soffset.at(0), 0, bytes);
        if (address &&
            exec.wg.memory.read(*address, bytes,
                                reinterpret_cast<uint8_t *>(words))) {
          for (unsigned d = 0; d < bytes / 4; ++d)
            out.ref(lane, d) = words[d];
          continue;
        }
      }
      for (unsigned d = 0; d * 4 < bytes && d < out.dwords; ++d) {
        unsigned size = std::min(bytes - 4 * d, 4u);
        uint32_t word = 0;
        std::optional<uint64_t> address =
            addressing->at(voffset.at(lane), soffset.at(0), 4 * d, size);
        if (address &&
            !load(*address, size, reinterpret_cast<uint8_t *>(&word), lane))
          return false;
        out.ref(lane, d) = extend(word, size, sign);
      }
    }
    return exec.writeLoaded(result, std::move(out), WaveExec::Counter::VM);
  }

  /// buffer_store_* / global_store_*: (data, saddr, voffset).
  bool vmemStore(llvm::StringRef name, bool buffer) {
    Operation *op = exec.op;
    OperandViews in;
    if (!exec.readOperands(in))
      return false;
    const RegValue &data = in[0], &saddr = in[1], &voffset = in[2];
    unsigned bytes = accessBytes(name);
    std::optional<Addressing> addressing = this->addressing(saddr, buffer);
    if (!addressing)
      return false;
    for (unsigned lane = 0; lane < exec.lanes(); ++lane) {
      if (!exec.active(lane))
        continue;
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
  bool bufferAtomic(llvm::StringRef name) {
    Operation *op = exec.op;
    OperandViews in;
    if (!exec.readOperands(in))
      return false;
    const RegValue &data = in[0], &saddr = in[1], &voffset = in[2];
    std::optional<Addressing> addressing =
        this->addressing(saddr, /*buffer=*/true);
    if (!addressing)
      return false;
    bool packed = name == "buffer_atomic_pk_add_bf16";
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
  bool loadToLDS(llvm::StringRef name) {
    Operation *op = exec.op;
    OperandViews in;
    if (!exec.readOperands(in))
      return false;
    const RegValue &voffset = in[0], &saddr = in[1], &soffset = in[2];
    unsigned bytes = name.contains("dwordx4") ? 16 : 4;
    std::optional<Addressing> addressing =
        this->addressing(saddr, /*buffer=*/true);
    if (!addressing)
      return false;
    std::vector<uint8_t> &lds = exec.wg.lds;
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
        std::memcpy(lds.data() + at, &word, 4);
        // Visible to every wave at once (LDS.cpp does not model DMA).
        if (!exec.wg.ldsWriter.empty())
          std::fill_n(exec.wg.ldsWriter.begin() + at, 4, -1);
      }
    }
    exec.countStore(WaveExec::Counter::VM);
    return true;
  }

  /// s_load_dword*: (saddr pair, offset in bytes).
  bool scalarLoad(llvm::StringRef name) {
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

  bool ldsRead(llvm::StringRef name) {
    Operation *op = exec.op;
    OperandViews in;
    if (!exec.readOperands(in))
      return false;
    const RegValue &vaddr = in[0];
    unsigned bytes = accessBytes(name);
    bool sign = signExtends(name);
    uint32_t offset = uint32_t(intAttr(op, "offset"));
    Value result = op->getResult(0);
    RegValue out = exec.shapeOf(result);
    const std::vector<uint8_t> &lds = exec.wg.lds;
    traceLDS(vaddr, offset);
    // Untracked LDS (one wave, or no timing): whole dwords in one copy.
    bool whole = !exec.ldsTracked() && bytes % 4 == 0 && bytes <= 16 &&
                 bytes <= 4 * out.dwords;
    for (unsigned lane = 0; lane < exec.lanes(); ++lane) {
      if (!exec.active(lane))
        continue;
      uint64_t address = uint64_t(vaddr.at(lane)) + offset;
      if (whole && address + bytes <= lds.size()) {
        uint32_t words[4];
        std::memcpy(words, lds.data() + address, bytes);
        for (unsigned d = 0; d < bytes / 4; ++d)
          out.ref(lane, d) = words[d];
        continue;
      }
      for (unsigned d = 0; d * 4 < bytes && d < out.dwords; ++d) {
        unsigned size = std::min(bytes - 4 * d, 4u);
        uint32_t word = 0;
        if (address + 4 * d + size <= lds.size())
          word = exec.readLDS(address + 4 * d, size);
        out.ref(lane, d) = extend(word, size, sign);
      }
    }
    return exec.writeLoaded(result, std::move(out), WaveExec::Counter::LDS);
  }

  bool ldsWrite(llvm::StringRef name) {
    Operation *op = exec.op;
    OperandViews in;
    if (!exec.readOperands(in))
      return false;
    const RegValue &data = in[0], &vaddr = in[1];
    unsigned bytes = accessBytes(name);
    uint32_t offset = uint32_t(intAttr(op, "offset"));
    const std::vector<uint8_t> &lds = exec.wg.lds;
    traceLDS(vaddr, offset);
    exec.beginLDSWrite();
    bool whole = !exec.ldsTracked() && bytes % 4 == 0 && bytes <= 16;
    for (unsigned lane = 0; lane < exec.lanes(); ++lane) {
      if (!exec.active(lane))
        continue;
      uint64_t address = uint64_t(vaddr.at(lane)) + offset;
      if (whole && address + bytes <= lds.size()) {
        uint32_t words[4];
        for (unsigned d = 0; d < bytes / 4; ++d)
          words[d] = data.at(lane, d);
        std::memcpy(exec.wg.lds.data() + address, words, bytes);
        continue;
      }
      for (unsigned d = 0; d * 4 < bytes; ++d) {
        unsigned size = std::min(bytes - 4 * d, 4u);
        uint32_t word = data.at(lane, d);
        if (address + 4 * d + size <= lds.size())
          exec.writeLDS(address + 4 * d, size, word);
      }
    }
    exec.endLDSWrite();
    return true;
  }

private:
  WaveExec &exec;
};

} // namespace

std::optional<bool> waveasm::sim::executeMemory(WaveExec &exec) {
  llvm::StringRef name = exec.op->getName().stripDialect();
  MemoryExec memory(exec);
  if (name.starts_with("ds_read2") || name.starts_with("ds_write2"))
    return exec.notSimulated("two-address LDS ops");
  if (name.ends_with("_lds") && name.starts_with("buffer_load"))
    return memory.loadToLDS(name);
  if (name.starts_with("buffer_load_"))
    return memory.vmemLoad(name, /*buffer=*/true);
  if (name.starts_with("global_load_"))
    return memory.vmemLoad(name, /*buffer=*/false);
  if (name.starts_with("buffer_atomic_"))
    return memory.bufferAtomic(name);
  if (name.starts_with("buffer_store_"))
    return memory.vmemStore(name, /*buffer=*/true);
  if (name.starts_with("global_store_"))
    return memory.vmemStore(name, /*buffer=*/false);
  if (name.starts_with("s_load_"))
    return memory.scalarLoad(name);
  if (name.starts_with("ds_read_"))
    return memory.ldsRead(name);
  if (name.starts_with("ds_write_"))
    return memory.ldsWrite(name);
  return std::nullopt;
}
