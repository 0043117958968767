//===- Simulator.h - functional execution of WaveASM programs ---*- C++ -*-===//
//
// Runs one workgroup of a waveasm.program: one or more waves of the target's
// wave size, their register files (virtual values by SSA value, allocated
// registers by index, so an allocator that reuses a live register changes
// the result), SCC, VCC, EXEC and M0, buffer resources over simulated
// global memory, LDS, s_barrier across the waves, loops and ifs. Every op
// either executes with the ISA's semantics or stops the run with its name
// ("not simulated"): a run never approximates silently.
//
// The environment is a pure function of the seed: N buffers of random bytes
// at fixed addresses, a kernarg segment holding their addresses, SGPR
// tuples s[4k..4k+3] (k >= 1) preset to those descriptors, the thread id in
// the ABI's VGPR, LDS and every other register filled with random words.
// Two programs run from the same seed see the same inputs, so their written
// memory can be compared (Compare.h).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SIM_SIMULATOR_H
#define WAVEASM_SIM_SIMULATOR_H

#include "ir/Dialect.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace waveasm::sim {

/// Per buffer index, the inclusive range its initial bytes are drawn from.
using ByteRanges = std::map<unsigned, std::pair<uint8_t, uint8_t>>;
/// Per buffer index, the bytes it starts with (a file's contents); shared,
/// since every run and every result of a compare holds them.
using BufferFiles =
    std::map<unsigned, std::shared_ptr<const std::vector<uint8_t>>>;

/// The buffers' contents before any write, beyond the seed's random bytes.
struct InitialMemory {
  /// Buffer k's initial bytes drawn from [first, second] instead, on every
  /// seed (E8M0 block scales near 127, say, so scaled MFMAs stay finite).
  ByteRanges byteRanges;
  /// Buffer k's first bytes from a file (`waveasm-sim --input=K:FILE`); the
  /// bytes past the file's end are the seed's as above.
  BufferFiles bufferFiles;
};

/// The environment's initial bytes: uniform on odd seeds (every bit
/// pattern, NaN and infinity included); on even seeds each byte from
/// 0x38-0x47, moderate in every float format (f16 within 2^-1..2^3, f32 and
/// bf16 within 2^-15..2^17, fp8 near 1), so a float kernel's results stay
/// finite and a difference shows in their digits instead of vanishing into
/// NaN. compareOnSeeds on two or more seeds sees both.
struct SimOptions {
  uint64_t seed = 1;
  /// Buffers: buffer k lives in the 4 GiB window at bufferAddress(k), its
  /// descriptor (of `bufferBytes` records) sits in s[4(k+1) .. 4(k+1)+3]
  /// and its address at kernarg offset 8k.
  unsigned numBuffers = 6;
  uint64_t bufferBytes = 1 << 20;
  /// Waves of the workgroup; 0 = from the program's workgroup_size (one
  /// wave when it has none).
  unsigned waves = 0;
  /// A loop that runs more iterations than this stops the run.
  uint64_t maxLoopIterations = 1 << 20;
  /// Timing-aware: a load into allocated registers writes them only when
  /// an s_waitcnt covers it (or its counter is full: the wave stalls until
  /// the oldest is done), with strictWaits=false also when its latency (in
  /// ops issued since, below) has passed; a read of them before that stops
  /// the run (SimError::Race: a missing wait). Stores count on their counters
  /// too. A read of allocated registers (or VCC, M0) sooner after their
  /// producer than the hazard rules allow (analysis/HazardRules.h) sees their
  /// previous contents, as hardware without the s_nop would (Hazards.cpp);
  /// another wave sees a ds_write only after its wave waited for it and passed
  /// an s_barrier (LDS.cpp). Virtual values are never delayed.
  bool timing = true;
  /// Timing mode: a load lands only when an s_waitcnt covers it, never by
  /// latency alone (hardware guarantees no latency: a read that is right
  /// only because the load was probably back is a missing wait, and a
  /// register written while a load into it is in flight may be overwritten
  /// by the load later). Stores and LDS writes leave their counters the
  /// same way. false: the latencies below also retire them (a likelier
  /// timing, for tests that want a run to reach a later race).
  bool strictWaits = true;
  unsigned vmemLatency = 100, ldsLatency = 20, smemLatency = 16;
  /// What the buffers hold before the run, over the seed's bytes.
  InitialMemory initial;
  /// Descriptor k (in s[4(k+1) ..]) addressing buffer j's memory from byte
  /// `offset` on instead of its own (`--descriptor=K:J+OFFSET`): buffers
  /// that overlap, which a program versioned on its descriptors being apart
  /// (pipeline/opt/DescriptorVersioning.h) must run through its slow copy.
  /// The kernarg pointers stay each buffer's own.
  std::map<unsigned, std::pair<unsigned, uint64_t>> descriptorAt;
  /// Kernarg dwords by byte offset (a multiple of 4 below 256), over the
  /// default segment (the buffers' addresses at 8k, then dwords of 64): a
  /// kernel's sizes and counts, so its loops run.
  std::map<unsigned, uint32_t> kernargDwords;
};

/// Reads `// waveasm-sim: --byte-range=K:LO-HI --kernarg-dword=OFFSET:VALUE
/// --descriptor=K:J+OFFSET` lines of a file's text
/// into `options` (what the file's author knows of its inputs: which
/// buffers hold scales); an error names the line and the bad word.
llvm::Error applySimDirectives(llvm::StringRef text, SimOptions &options);

/// Global memory is paged: a page's first contents are a function of the
/// seed and its address, made when first touched.
constexpr uint64_t kPageBytes = 4096;
uint64_t bufferAddress(unsigned k);
/// The environment's bytes at [address, address + size) before any write.
std::vector<uint8_t> initialBytes(uint64_t seed, uint64_t address,
                                  uint64_t size,
                                  const InitialMemory &initial = {});

/// Where a run stopped, with the op's location and, when one lane is at
/// fault, the lane.
struct SimError {
  enum class Kind {
    NotSimulated, // an op or form the simulator does not execute
    Fault,        // an undefined register, an access outside every buffer
    Limit,        // a loop over maxLoopIterations
    Race,         // timing: a read of registers a load has not written yet,
                  // or an overwrite too soon after an MFMA or large store
  };
  Kind kind = Kind::Fault;
  std::string message;
  /// "file:line:col: 'waveasm.op'" of the op that stopped the run.
  std::string where;
  int lane = -1;
  std::string str() const;
};

struct SimResult {
  /// Set when the run did not finish; the memory below is then partial.
  std::optional<SimError> error;
  uint64_t seed = 0;
  InitialMemory initial; // the run's SimOptions::initial
  /// Global memory pages the run wrote, by address.
  std::map<uint64_t, std::vector<uint8_t>> pages;
  std::vector<uint8_t> lds;
  /// Ops whose hardware result is an approximation, computed here
  /// correctly rounded ("v_exp_f32", ...): a comparison of two programs is
  /// exact, a comparison with hardware is not, for these.
  std::vector<std::string> hostPrecision;
  /// Timing mode, more than one wave: writes of LDS bytes another wave read
  /// since the last s_barrier (a write-after-read race: on the GPU that
  /// read may see the write), the first few, one per op. The run goes on
  /// in its own order; a compare reports a race the second program has and
  /// the first has not.
  std::vector<std::string> ldsRaces;
  /// Ops executed (all waves, each op once per wave).
  uint64_t opsExecuted = 0;
  bool ok() const { return !error; }
  /// Global memory after the run.
  std::vector<uint8_t> bytes(uint64_t address, uint64_t size) const;
  /// FNV-1a of the written pages that differ from their first contents,
  /// and of the LDS.
  uint64_t digest() const;
};

/// Runs `program` from the environment of `options.seed`.
SimResult simulate(ProgramOp program, const SimOptions &options = {});

} // namespace waveasm::sim

#endif // WAVEASM_SIM_SIMULATOR_H
