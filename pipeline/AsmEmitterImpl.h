//===- AsmEmitterImpl.h - internals of the assembly emitter -----*- C++ -*-===//
//
// Shared by AssemblyEmitter.cpp (layout, control flow, copies),
// AsmInstructionPrinter.cpp (one op -> instruction lines) and
// KernelDescriptor.cpp (register counts, .amdhsa_kernel, metadata YAML).
// Not a public header: only the emitter's own files include it.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_ASMEMITTERIMPL_H
#define WAVEASM_PIPELINE_ASMEMITTERIMPL_H

#include "pipeline/AssemblyEmitter.h"
#include "pipeline/Literals.h"
#include "pipeline/SCCClobbers.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <memory>
#include <optional>
#include <string>

namespace waveasm::asmemit {

/// psreg<106, 2> names VCC; indices >= 106 do not count as allocated SGPRs.
constexpr int64_t kVCCIndex = 106;
/// Addressable SGPRs on CDNA3/CDNA4 with the default target id (xnack any):
/// s0-s101. `.amdhsa_next_free_sgpr` above 102 is rejected by llvm-mc.
constexpr int64_t kAddressableSGPRs = 102;
constexpr int64_t kAddressableVGPRs = 256;

/// A physical register range.
struct PhysReg {
  RegClass cls = RegClass::VGPR;
  int64_t index = 0;
  int64_t size = 1;

  PhysReg sub(int64_t offset, int64_t count = 1) const {
    return PhysReg{cls, index + offset, count};
  }
  bool overlaps(const PhysReg &other) const {
    return cls == other.cls && index < other.index + other.size &&
           other.index < index + size;
  }
  bool operator==(const PhysReg &other) const {
    return cls == other.cls && index == other.index && size == other.size;
  }
  bool operator!=(const PhysReg &other) const { return !(*this == other); }
};

/// One printed instruction operand.
struct AsmOperand {
  enum Kind : uint8_t { None, Reg, Imm, SCC, Text };
  Kind kind = None;
  PhysReg reg;
  int64_t imm = 0;
  llvm::StringRef text; // Text: vcc, off, m0, exec, a label, ...
  bool neg = false;     // VOP3 neg modifier

  static AsmOperand ofReg(PhysReg r) {
    AsmOperand o;
    o.kind = Reg;
    o.reg = r;
    return o;
  }
  static AsmOperand ofImm(int64_t v) {
    AsmOperand o;
    o.kind = Imm;
    o.imm = v;
    return o;
  }
  static AsmOperand ofText(llvm::StringRef t) {
    AsmOperand o;
    o.kind = Text;
    o.text = t;
    return o;
  }
  bool isReg() const { return kind == Reg; }
  bool isImm() const { return kind == Imm; }
  bool isReg(RegClass cls) const { return kind == Reg && reg.cls == cls; }
  bool isVGPR() const { return isReg(RegClass::VGPR); }
  bool isSGPR() const { return isReg(RegClass::SGPR); }
  bool isAGPR() const { return isReg(RegClass::AGPR); }
  bool isLiteral() const { return kind == Imm && !isInlineConstant(imm); }
};

void printReg(llvm::raw_ostream &os, const PhysReg &reg);
void printOperand(llvm::raw_ostream &os, const AsmOperand &operand);

/// An instruction about to be printed: `mnemonic op0, op1, ...suffix`.
struct AsmInst {
  llvm::SmallString<32> mnemonic;
  llvm::SmallVector<AsmOperand, 6> operands;
  llvm::SmallString<48> suffix; // modifiers, starting with a space

  AsmInst() = default;
  explicit AsmInst(llvm::StringRef m) : mnemonic(m) {}
  AsmInst &add(const AsmOperand &o) {
    operands.push_back(o);
    return *this;
  }
  AsmInst &add(const PhysReg &r) { return add(AsmOperand::ofReg(r)); }
};

/// The emitted text plus, for each line, the op that produced it.
class AsmText {
public:
  AsmText() : os(buffer) {}

  /// Starts an instruction line of `op` (two-space indent).
  llvm::raw_ostream &inst(mlir::Operation *op) {
    mark(op);
    ++instructions;
    return os << "  ";
  }
  /// Starts a non-instruction line (label, comment) produced by `op`.
  llvm::raw_ostream &line(mlir::Operation *op) {
    mark(op);
    return os;
  }
  /// Records that the line starting at the current end was produced by `op`.
  void mark(mlir::Operation *op);
  /// Lines completed so far.
  size_t currentLine();
  /// Appends the map of the whole buffer to `map`.
  void appendLineMap(AsmLineMap &map);

  llvm::SmallString<0> buffer;
  llvm::raw_svector_ostream os;
  int64_t instructions = 0;

private:
  std::vector<std::pair<size_t, mlir::Operation *>> marks;
  size_t scanned = 0;
  size_t lines = 0;
};

/// State shared by the programs of one module (one output file).
struct ModuleState {
  /// Every symbol defined so far: kernel names and labels.
  llvm::StringSet<> symbols;
  unsigned nextLabelId = 0;
  /// The caller verified the module just before (mlir::verify): prepare()
  /// then skips its per-op invariant checks, which only repeat part of it.
  bool assumeVerified = false;
};

/// Where the ABI puts things, from the program attributes (SPEC.md 17.3).
struct KernelLayout {
  std::string name;
  int64_t numKernelArgs = 2;
  int64_t kernargSize = 32;
  int64_t preloadSGPRs = 0; // kernarg SGPRs preloaded after s[0:1]
  int64_t userSGPRs = 2;    // kernarg pointer + preloaded args
  bool workgroupIds = false;
  int64_t workitemIdMode = 0; // 0: x, 1: x y, 2: x y z
  int64_t maxFlatWorkgroupSize = 256;
  int64_t ldsSize = 0;
  int64_t waveSize = 64;
};

/// Register counts after emission (SPEC.md 17.3/17.4).
struct RegisterCounts {
  int64_t vgprPeak = 0, sgprPeak = 0, agprPeak = 0;
  int64_t accumOffset = 4, nextFreeVGPR = 0, nextFreeSGPR = 0;
};

/// A 32-bit copy `dst = src` inside a parallel copy.
struct CopyMove {
  PhysReg dst;
  AsmOperand src;
};

/// Emits one waveasm.program.
class ProgramEmitter {
public:
  ProgramEmitter(ProgramOp program, AsmText &text, ModuleState &module);

  /// Computes and reserves the kernel symbol (before any label is named).
  mlir::LogicalResult reserveName();
  /// Validation (allocation, legalization, labels), register usage and the
  /// ABI layout. Emits nothing.
  mlir::LogicalResult prepare();
  /// The kernel symbol and its instructions.
  mlir::LogicalResult emitCode();
  /// Register counts and the overflow check (SPEC.md 17.7).
  mlir::LogicalResult computeCounts();
  /// `.amdhsa_kernel` ... `.end_amdhsa_kernel` (KernelDescriptor.cpp).
  void emitDescriptor();
  /// This kernel's entry of `amdhsa.kernels` (KernelDescriptor.cpp).
  void emitMetadataEntry(llvm::raw_ostream &os);
  EmittedProgramInfo getInfo() const;

  //===--------------------------------------------------------------------===//
  // Services for the instruction printer.
  //===--------------------------------------------------------------------===//

  /// The register/immediate/SCC a value stands for (after prepare()).
  AsmOperand resolve(mlir::Value value) const;
  AsmOperand operand(mlir::Operation *op, unsigned index) const {
    return resolve(op->getOperand(index));
  }
  PhysReg resultReg(mlir::Operation *op, unsigned index) const {
    return resolve(op->getResult(index)).reg;
  }

  /// Checks that a register operand covers `width` registers and narrows it
  /// to exactly `width` (a wider value is used through its low registers).
  mlir::LogicalResult fitWidth(mlir::Operation *op, AsmOperand &operand,
                               int64_t width, const llvm::Twine &what);
  /// Validates registers and prints one instruction line.
  mlir::LogicalResult emit(mlir::Operation *op, const AsmInst &inst);
  /// Register range and alignment rules of the target.
  mlir::LogicalResult checkReg(mlir::Operation *op, const PhysReg &reg);

  /// True if the emitter may use v15 (the program itself does not).
  bool scratchAvailable() const { return !programUsesScratch; }
  /// Reports an error at `op` when v15 cannot be used.
  mlir::LogicalResult requireScratch(mlir::Operation *op);
  /// `v_mov_b32 v15, value` unless v15 already holds it.
  mlir::LogicalResult stageLiteralInScratch(mlir::Operation *op, int64_t value);
  /// v15 was written with something other than a cached literal.
  void clobberScratch() { scratchLiteral.reset(); }
  /// Control flow joins here (labels, region boundaries, EXEC changes).
  void invalidateScratch() { scratchLiteral.reset(); }
  PhysReg scratch() const { return PhysReg{RegClass::VGPR, kScratchVGPR, 1}; }

  /// Copies `moves` as if all happened at once (cycles go through v15 or a
  /// free SGPR); lines are attributed to `op`.
  mlir::LogicalResult emitParallelCopy(mlir::Operation *op,
                                       llvm::SmallVectorImpl<CopyMove> &moves);
  /// One 32-bit copy.
  mlir::LogicalResult emitCopy(mlir::Operation *op, const PhysReg &dst,
                               const AsmOperand &src);
  /// Appends the per-register copies of `src` into `dst` (no-ops skipped).
  mlir::LogicalResult addRangeCopy(mlir::Operation *op,
                                   llvm::SmallVectorImpl<CopyMove> &moves,
                                   const PhysReg &dst, const PhysReg &src);

  /// The emitted name of the label an IR symbol refers to, or null.
  const std::string *lookupLabel(llvm::StringRef irName) const;
  /// A label id N such that L_loop_N, L_if_else_N and L_if_end_N are free.
  unsigned freshLabelId();
  /// Reserves a symbol derived from `base` (uniqued with a suffix).
  std::string reserveSymbol(llvm::StringRef base);

  /// Checks that the SCC value `scc` read by `user` is still in SCC: no SCC
  /// writer runs between its producer and `user`.
  mlir::LogicalResult checkSCCLive(mlir::Operation *user, mlir::Value scc);

  ProgramOp program;
  TargetKind targetKind;
  const TargetInfo &target;
  AsmText &text;
  ModuleState &module;
  KernelLayout layout;
  RegisterCounts counts;

private:
  mlir::LogicalResult prepareOp(mlir::Operation *op);
  mlir::LogicalResult markValue(mlir::Operation *op, mlir::Value value,
                                const char *kind, unsigned index);
  mlir::LogicalResult computeLayout();
  mlir::LogicalResult emitBlock(mlir::Block &block);
  mlir::LogicalResult emitOp(mlir::Operation *op);
  mlir::LogicalResult emitLoop(LoopOp loop);
  mlir::LogicalResult emitIf(IfOp ifOp);
  mlir::LogicalResult emitBranchCondition(mlir::Operation *op,
                                          mlir::Value condition);
  mlir::LogicalResult emitPack(PackOp op);
  mlir::LogicalResult emitExtract(ExtractOp op);
  mlir::LogicalResult emitInsert(InsertOp op);
  mlir::LogicalResult emitLabel(LabelOp op);
  void emitKernargPreloadPrologue();
  std::optional<int64_t> findFreeSGPR() const;

  llvm::BitVector usedVGPRs, usedSGPRs, usedAGPRs;
  int64_t peakVGPR = 0, peakSGPR = 0, peakAGPR = 0;
  bool programUsesScratch = false;
  std::optional<int64_t> scratchLiteral;
  std::optional<int64_t> swapSGPR; // chosen lazily, counted when used
  bool swapSGPRUsed = false;
  int64_t instructionCount = 0;
  llvm::StringMap<std::string> labelNames;
  llvm::SmallVector<std::pair<int64_t, int64_t>, 8> precoloredSGPRs;
  std::unique_ptr<SCCClobbers> sccClobbers; // built on the first SCC read
};

/// Emits the instruction(s) of one machine op (AsmInstructionPrinter.cpp).
mlir::LogicalResult emitInstruction(ProgramEmitter &emitter,
                                    mlir::Operation *op);

} // namespace waveasm::asmemit

#endif // WAVEASM_PIPELINE_ASMEMITTERIMPL_H
