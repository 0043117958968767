//===- Decoded.h - a program decoded once for execution ---------*- C++ -*-===//
//
// Internal to sim/: every op of a program with what executing it needs
// that depends on the op alone -- what kind of op it is, the form and the
// function its mnemonic names, access sizes and offsets, its InstFacts and
// hazard clock width -- looked up once per program (DecodedProgram)
// instead of by name and attribute on every execution, by every wave, on
// every seed. The ops lie in one array in program order, each with the
// index of the next op of its block and, for loop and if, of the first op
// of each region, so the interpreter walks the array, not the IR.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SIM_DECODED_H
#define WAVEASM_SIM_DECODED_H

#include "analysis/TargetModel.h"
#include "ir/Dialect.h"
#include "ir/InstFacts.h"

#include <cstdint>
#include <vector>

namespace waveasm::sim {

/// No op: the end of a block, or an empty region.
constexpr uint32_t kNoOp = ~uint32_t(0);

enum class OpKind : uint8_t {
  Nothing, // terminators (their parent reads them), constants, timing hints
  Wait,    // s_waitcnt
  WaitVM,
  WaitLGKM,
  PrecoloredV,
  PrecoloredS,
  PrecoloredA,
  Pack,
  Extract,
  Insert,
  EndPgm,
  Barrier,
  MovM0,
  Loop,
  If,
  ALU,
  MFMA,
  Memory,
  NotSimulated,
};

/// How ALUOps.cpp executes an ALU op.
enum class ALUForm : uint8_t {
  Arith,
  SCselect,
  SAndSaveexec,
  SMovB64Exec,
  SMov,
  SALU,        // salu() by mnemonic
  SALUUnknown, // reads its operands, then is not an ALU op after all
  VUnary,
  VTranscendental,
  VBinary,
  VTernary,
  VBinary64,
  VMov,
  VAccWrite,
  VCmp,
  VCndmask,
  VCarry,
  VReadlane,
  VWritelane,
  VMbcnt,
};

/// How MemoryOps.cpp executes a memory op.
enum class MemoryForm : uint8_t {
  LoadToLDS,
  VMemLoad,
  Atomic,
  VMemStore,
  ScalarLoad,
  LDSRead,
  LDSWrite,
  LDSRead2,
  LDSWrite2,
};

struct DecodedOp {
  mlir::Operation *op = nullptr;
  OpKind kind = OpKind::NotSimulated;
  /// ALU: when executeALU declines the op at run time (SALUUnknown), the
  /// family tried next, as the dispatch by name did.
  OpKind fallback = OpKind::NotSimulated;
  uint8_t form = 0; // ALUForm or MemoryForm
  /// ALU: VCmp's predicate and type, VMov's and VCarry's variants.
  uint8_t predicate = 0, type = 0;
  bool variant = false, variant2 = false;
  /// Memory: bytes per access (per element for ds_read2/ds_write2), sign
  /// extension, global (not buffer) addressing.
  uint16_t bytes = 0;
  bool sign = false;
  bool global = false;
  /// Memory: `offset` (LDS) or `instOffset` (VMEM); ds_read2/ds_write2:
  /// the byte offsets of their two elements.
  int64_t offset = 0, offset2 = 0;
  /// ALU: the function of the mnemonic (Unary, Binary, ... of ALUOps.cpp).
  const void *fn = nullptr;
  InstFacts facts;
  int64_t clockWidth = 0;
  /// An MFMA unit op: TargetModel::getMFMAReadWaitStates on the program's
  /// target (a table lookup by name; Hazards.cpp needs it per result).
  int64_t mfmaReadWaitStates = 0;
  uint32_t next = kNoOp;
  /// Loop: its body; if: its then and else regions.
  uint32_t body = kNoOp, elseBody = kNoOp;
};

class DecodedProgram {
public:
  explicit DecodedProgram(ProgramOp program);
  ProgramOp program;
  /// The program's target model (the hazard tables).
  const TargetModel *model;
  std::vector<DecodedOp> ops;
  /// The first op of the program's body.
  uint32_t entry = kNoOp;
  /// Some op is a direct-to-LDS load: even one wave tracks LDS writes, to
  /// see whether it reads its own DMA bytes before waiting for them.
  bool loadsToLDS = false;

private:
  uint32_t decodeBlock(mlir::Block &block);
};

/// What executes `d.op` (d.op and d.facts set): its kind and family form,
/// from the op's name and attributes alone.
void decodeKind(DecodedOp &d);
/// Whether a decoded op executes (its kind, or for an SALU mnemonic the
/// ALU tables do not know, the family after it); what the op's operands
/// and attributes hold may still stop it (a wave of 32 lanes for an MFMA,
/// a strided buffer descriptor).
bool isSimulated(const DecodedOp &d);

/// The families' decoders: whether `d.op` is theirs (then they set d.kind
/// and what they need).
bool decodeALU(DecodedOp &d);
bool decodeMFMA(DecodedOp &d);
bool decodeMemory(DecodedOp &d);

} // namespace waveasm::sim

#endif // WAVEASM_SIM_DECODED_H
