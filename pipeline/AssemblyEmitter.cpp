//===- AssemblyEmitter.cpp - AMDGCN assembly from allocated IR ------------===//
//
// File layout (SPEC.md 17.2), validation of the input, register usage,
// structured control flow (17.5), parallel copies, labels and the SCC
// liveness check. One op's instruction(s) are printed by
// AsmInstructionPrinter.cpp; the descriptor and metadata by
// KernelDescriptor.cpp.
//
// Where this emitter differs from upstream's (SPEC.md 17.6 and 21 item 12),
// the code says so in a comment starting with "Upstream:".
//
//===----------------------------------------------------------------------===//

#include "pipeline/AsmEmitterImpl.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstring>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::asmemit;

//===----------------------------------------------------------------------===//
// Printing helpers and the text buffer
//===----------------------------------------------------------------------===//

/// Appends the decimal digits of `value` at `out`; returns the new end.
static char *appendDecimal(char *out, int64_t value) {
  uint64_t magnitude = value < 0 ? 0 - static_cast<uint64_t>(value)
                                 : static_cast<uint64_t>(value);
  if (value < 0)
    *out++ = '-';
  char digits[20];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + magnitude % 10);
    magnitude /= 10;
  } while (magnitude);
  while (n)
    *out++ = digits[--n];
  return out;
}

// Registers and immediates are formatted into a buffer and written once:
// the emitter's text stream is unbuffered, and writing a register piece by
// piece (prefix, '[', number, ':', number, ']') through raw_ostream's
// integer formatting was a fifth of the emission. ProgramEmitter::emit
// appends a whole instruction line this way and writes it in one call.
static void appendText(llvm::SmallVectorImpl<char> &out, StringRef text) {
  out.append(text.begin(), text.end());
}

static void appendReg(llvm::SmallVectorImpl<char> &out, const PhysReg &reg) {
  if (reg.cls == RegClass::SGPR && reg.index >= kVCCIndex) {
    if (reg.index == kVCCIndex && reg.size == 2)
      return appendText(out, "vcc");
    if (reg.size == 1)
      return appendText(out, reg.index == kVCCIndex ? "vcc_lo" : "vcc_hi");
  }
  char text[48];
  char *end = text;
  *end++ = reg.cls == RegClass::VGPR   ? 'v'
           : reg.cls == RegClass::SGPR ? 's'
                                       : 'a';
  if (reg.size == 1) {
    end = appendDecimal(end, reg.index);
  } else {
    *end++ = '[';
    end = appendDecimal(end, reg.index);
    *end++ = ':';
    end = appendDecimal(end, reg.index + reg.size - 1);
    *end++ = ']';
  }
  out.append(text, end);
}

static void appendOperand(llvm::SmallVectorImpl<char> &out,
                          const AsmOperand &operand) {
  switch (operand.kind) {
  case AsmOperand::Reg:
    if (operand.neg)
      out.push_back('-');
    return appendReg(out, operand.reg);
  case AsmOperand::Imm: {
    char text[32];
    char *end = text;
    if (operand.neg) {
      std::memcpy(end, "neg(", 4);
      end += 4;
    }
    end = appendDecimal(end, operand.imm);
    if (operand.neg)
      *end++ = ')';
    out.append(text, end);
    return;
  }
  case AsmOperand::Text:
    return appendText(out, operand.text);
  case AsmOperand::SCC:
    return appendText(out, "scc");
  case AsmOperand::None:
    return appendText(out, "<none>");
  }
}

void waveasm::asmemit::printReg(raw_ostream &os, const PhysReg &reg) {
  llvm::SmallString<48> text;
  appendReg(text, reg);
  os << text;
}

void waveasm::asmemit::printOperand(raw_ostream &os,
                                    const AsmOperand &operand) {
  llvm::SmallString<48> text;
  appendOperand(text, operand);
  os << text;
}

size_t AsmText::currentLine() {
  const char *data = buffer.data();
  size_t end = buffer.size();
  while (scanned < end) {
    const void *nl = std::memchr(data + scanned, '\n', end - scanned);
    if (!nl) {
      scanned = end;
      break;
    }
    ++lines;
    scanned = static_cast<const char *>(nl) - data + 1;
  }
  return lines;
}

void AsmText::mark(Operation *op) {
  if (op)
    marks.emplace_back(currentLine(), op);
}

void AsmText::appendLineMap(AsmLineMap &map) {
  size_t base = map.lineOps.size();
  size_t total = currentLine();
  if (!buffer.empty() && buffer.back() != '\n')
    ++total;
  map.lineOps.resize(base + total, nullptr);
  for (auto &[line, op] : marks)
    map.lineOps[base + line] = op;
}

//===----------------------------------------------------------------------===//
// ProgramEmitter: preparation
//===----------------------------------------------------------------------===//

ProgramEmitter::ProgramEmitter(ProgramOp program, AsmText &text,
                               ModuleState &module)
    : program(program), targetKind(program.getTargetKind()),
      target(getTargetInfo(targetKind)), text(text), module(module) {
  usedVGPRs.resize(kAddressableVGPRs);
  usedAGPRs.resize(kAddressableVGPRs);
  usedSGPRs.resize(kVCCIndex);
}

AsmOperand ProgramEmitter::resolve(Value value) const {
  Type type = value.getType();
  if (auto imm = dyn_cast<ImmType>(type)) {
    // SPEC.md 5: the constant's `value` wins over the type parameter.
    if (auto constant = value.getDefiningOp<ConstantOp>())
      return AsmOperand::ofImm(constant.getValueAttr().getInt());
    return AsmOperand::ofImm(imm.getValue());
  }
  if (isa<SCCType>(type)) {
    AsmOperand scc;
    scc.kind = AsmOperand::SCC;
    return scc;
  }
  // Class, size and index decoded once (the emitter resolves every operand
  // and result, some several times; three decodings were a fifth of it).
  RegTypeInfo info = getRegTypeInfo(type);
  if (!info.cls)
    return AsmOperand();
  if (info.physicalIndex)
    return AsmOperand::ofReg(
        PhysReg{*info.cls, *info.physicalIndex, info.size});
  // A precolored value is allocated by definition, whatever its type says.
  if (Operation *def = value.getDefiningOp()) {
    IntegerAttr index;
    if (auto op = dyn_cast<PrecoloredVRegOp>(def))
      index = op.getIndexAttr();
    else if (auto op = dyn_cast<PrecoloredSRegOp>(def))
      index = op.getIndexAttr();
    else if (auto op = dyn_cast<PrecoloredARegOp>(def))
      index = op.getIndexAttr();
    if (index)
      return AsmOperand::ofReg(PhysReg{*info.cls, index.getInt(), info.size});
  }
  return AsmOperand();
}

LogicalResult ProgramEmitter::markValue(Operation *op, Value value,
                                        const char *kind, unsigned index) {
  Type type = value.getType();
  if (isa<ImmType, SCCType>(type))
    return success();
  AsmOperand resolved = resolve(value);
  if (!resolved.isReg()) {
    if (isVirtualReg(type))
      return op->emitOpError()
             << kind << " #" << index
             << " is not allocated: run --waveasm-linear-scan first";
    return op->emitOpError() << kind << " #" << index << " has type " << type
                             << ", which has no assembly form";
  }
  const PhysReg &reg = resolved.reg;
  if (reg.index < 0 || reg.size < 1)
    return op->emitOpError() << kind << " #" << index
                             << " has an invalid physical register " << type;
  int64_t end = reg.index + reg.size;
  switch (reg.cls) {
  case RegClass::VGPR:
    peakVGPR = std::max(peakVGPR, end);
    usedVGPRs.set(std::min(reg.index, kAddressableVGPRs),
                  std::min(end, kAddressableVGPRs));
    if (reg.index <= kScratchVGPR && kScratchVGPR < end)
      programUsesScratch = true;
    break;
  case RegClass::AGPR:
    peakAGPR = std::max(peakAGPR, end);
    usedAGPRs.set(std::min(reg.index, kAddressableVGPRs),
                  std::min(end, kAddressableVGPRs));
    break;
  case RegClass::SGPR:
    // SPEC.md 17.4: indices >= 106 (VCC) are architectural, not counted.
    if (reg.index < kVCCIndex) {
      peakSGPR = std::max(peakSGPR, end);
      usedSGPRs.set(reg.index, std::min(end, kVCCIndex));
    }
    break;
  }
  return success();
}

static bool isValidSymbol(StringRef name) {
  if (name.empty() || llvm::isDigit(name.front()))
    return false;
  return llvm::all_of(name, [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '.' || c == '$';
  });
}

LogicalResult ProgramEmitter::prepareOp(Operation *op) {
  if (op->getDialect() != program->getDialect())
    return op->emitOpError("is not a WaveASM op; cannot emit assembly");
  for (auto [i, result] : llvm::enumerate(op->getResults()))
    if (failed(markValue(op, result, "result", i)))
      return failure();
  if (auto loop = dyn_cast<LoopOp>(op)) {
    if (!loop.getConditionOp())
      return loop.emitOpError("loop body must end with waveasm.condition");
    for (auto [i, arg] : llvm::enumerate(loop.getBodyBlock().getArguments()))
      if (failed(markValue(op, arg, "region iter_arg", i)))
        return failure();
  }
  if (auto label = dyn_cast<LabelOp>(op)) {
    StringRef name = label.getNameAttr().getValue();
    if (!isValidSymbol(name))
      return label.emitOpError("label name '")
             << name << "' is not a valid assembler symbol";
    if (labelNames.count(name))
      return label.emitOpError("label @")
             << name << " is defined more than once in this program";
    labelNames[name] = reserveSymbol(name);
  }
  if (auto pre = dyn_cast<PrecoloredSRegOp>(op)) {
    AsmOperand reg = resolve(pre.getResult());
    precoloredSGPRs.emplace_back(reg.reg.index, reg.reg.size);
  }
  return success();
}

static std::optional<int64_t> getIntAttr(Operation *op, StringRef name) {
  if (auto attr = op->getAttrOfType<IntegerAttr>(name))
    return attr.getInt();
  return std::nullopt;
}

LogicalResult ProgramEmitter::reserveName() {
  if (auto name = program->getAttrOfType<StringAttr>("kernel_name"))
    layout.name = name.getValue().str();
  else
    layout.name = program.getSymName().str();
  if (!isValidSymbol(layout.name))
    return program.emitOpError("kernel name '")
           << layout.name << "' is not a valid assembler symbol";
  if (!module.symbols.insert(layout.name).second)
    return program.emitOpError("kernel name '")
           << layout.name << "' is already used in this module";
  return success();
}

LogicalResult ProgramEmitter::computeLayout() {
  int64_t preloadAttr = program.getKernargPreloadLength();
  if (std::optional<int64_t> args = getIntAttr(program, "num_kernel_args"))
    layout.numKernelArgs = *args;
  else if (preloadAttr > 0)
    layout.numKernelArgs = std::max<int64_t>(1, preloadAttr / 2);
  else
    layout.numKernelArgs = 2;
  if (layout.numKernelArgs < 0)
    return program.emitOpError("num_kernel_args must not be negative");
  // SPEC.md 17.3: 16 bytes per (8-byte) argument, as upstream reserves.
  layout.kernargSize = layout.numKernelArgs * 16;

  // SPEC.md 17.3: gfx950 programs assume their arguments are preloaded
  // (upstream's convention; the project's gfx950 kernels rely on it). An
  // explicit kernarg_preload_length is honoured on gfx942 too, which supports
  // preloading as well.
  if (preloadAttr > 0)
    layout.preloadSGPRs = preloadAttr;
  else if (targetKind == TargetKind::gfx950)
    layout.preloadSGPRs = std::min<int64_t>(14, 2 * layout.numKernelArgs);
  if (layout.preloadSGPRs > 14)
    return program.emitOpError("kernarg_preload_length ")
           << layout.preloadSGPRs
           << " exceeds the 14 SGPRs available for preloaded arguments";
  if (layout.preloadSGPRs * 4 > layout.kernargSize)
    return program.emitOpError("kernarg_preload_length ")
           << layout.preloadSGPRs << " SGPRs exceeds the kernarg segment ("
           << layout.kernargSize << " bytes for " << layout.numKernelArgs
           << " arguments)";
  layout.userSGPRs = 2 + layout.preloadSGPRs;

  // Workgroup ids are system SGPRs right after the user SGPRs; all three are
  // enabled when any is read so their positions stay fixed.
  int64_t wgBase = layout.userSGPRs;
  ABIAttr abi = program.getAbi();
  for (auto [index, size] : precoloredSGPRs)
    if (index < wgBase + 3 && wgBase < index + size)
      layout.workgroupIds = true;
  std::optional<int64_t> abiIds[3] = {abi.getWgIdX(), abi.getWgIdY(),
                                      abi.getWgIdZ()};
  for (int dim = 0; dim < 3; ++dim) {
    if (!abiIds[dim])
      continue;
    layout.workgroupIds = true;
    if (*abiIds[dim] != wgBase + dim)
      return program.emitOpError("abi places workgroup id ")
             << "xyz"[dim] << " in s" << *abiIds[dim]
             << ", but the kernel descriptor puts it in s" << wgBase + dim
             << " (after " << layout.userSGPRs << " user SGPRs)";
  }
  if (abi.getKernarg() != 0)
    return program.emitOpError("abi places the kernarg pointer in s")
           << abi.getKernarg() << ", but the hardware loads it into s[0:1]";
  if (abi.getTid() != 0)
    return program.emitOpError("abi places the thread id in v")
           << abi.getTid() << ", but the hardware loads it into v0";

  layout.maxFlatWorkgroupSize = 256;
  if (std::optional<ArrayAttr> sizes = program.getWorkgroupSize()) {
    int64_t product = 1;
    SmallVector<int64_t, 3> dims;
    for (Attribute attr : *sizes)
      dims.push_back(cast<IntegerAttr>(attr).getInt());
    for (int64_t dim : dims)
      product *= dim;
    if (dims.empty() || dims.size() > 3 ||
        llvm::any_of(dims, [](int64_t dim) { return dim < 1; }) ||
        product > 1024)
      return program.emitOpError("workgroup_size must have 1-3 positive ")
             << "dimensions with at most 1024 work items";
    layout.maxFlatWorkgroupSize = product;
    if (dims.size() > 2 && dims[2] > 1)
      layout.workitemIdMode = 2;
    else if (dims.size() > 1 && dims[1] > 1)
      layout.workitemIdMode = 1;
  }
  if (std::optional<uint64_t> lds = program.getLdsSize())
    layout.ldsSize = static_cast<int64_t>(*lds);
  if (layout.ldsSize < 0 || layout.ldsSize > target.maxLDSBytes)
    return program.emitOpError("lds_size ")
           << layout.ldsSize << " exceeds the " << target.maxLDSBytes
           << " bytes of LDS a workgroup can use on " << target.name;
  layout.waveSize = target.defaultWaveSize;
  return success();
}

LogicalResult ProgramEmitter::prepare() {
  if (targetKind == TargetKind::gfx1250)
    return program.emitOpError(
        "assembly emission for gfx1250 is not supported: the emitter "
        "produces GFX9 (CDNA3/CDNA4) assembly");
  // Uses first, so that an unallocated value is reported where it is read
  // ("operand #N is not allocated"); then definitions nobody reads.
  WalkResult walk =
      program.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
        // The emitter may see IR that skipped verification (the language
        // server, --mlir-very-unsafe-disable-verifier-on-parsing): op-local
        // invariants (operand counts and types, loop/if structure) keep it
        // from reading what is not there. The program's own verifier, which
        // also checks register ranges, is not needed for that.
        if (!module.assumeVerified &&
            failed(op->getName().verifyInvariants(op)))
          return WalkResult::interrupt();
        if (op->getName().getStringRef().starts_with("waveasm.arith.")) {
          op->emitError() << op->getName()
                          << " must be legalized before assembly emission";
          return WalkResult::interrupt();
        }
        for (auto [i, operand] : llvm::enumerate(op->getOperands()))
          if (failed(markValue(op, operand, "operand", i)))
            return WalkResult::interrupt();
        return WalkResult::advance();
      });
  if (walk.wasInterrupted())
    return failure();
  walk = program.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    return failed(prepareOp(op)) ? WalkResult::interrupt()
                                 : WalkResult::advance();
  });
  if (walk.wasInterrupted() || failed(computeLayout()))
    return failure();

  // SPEC.md 17.7, checked before anything is printed so that an oversized
  // program gets this message rather than a per-instruction one.
  int64_t vgprs = std::max<int64_t>(peakVGPR, kScratchVGPR + 1);
  int64_t sgprs = std::max<int64_t>(
      peakSGPR, layout.userSGPRs + (layout.workgroupIds ? 3 : 0));
  int64_t unified = llvm::alignTo(vgprs, 4) + peakAGPR;
  std::string problems;
  llvm::raw_string_ostream msg(problems);
  auto add = [&](StringRef cls, int64_t used, int64_t limit) {
    if (!problems.empty())
      msg << "; ";
    msg << cls << ": " << used << " used, " << limit << " limit";
  };
  if (vgprs > target.maxArchVGPRs)
    add("VGPRs", vgprs, target.maxArchVGPRs);
  if (peakAGPR > target.maxAGPRs)
    add("AGPRs", peakAGPR, target.maxAGPRs);
  if (peakAGPR > 0 && unified > target.maxVGPRs)
    add("VGPRs+AGPRs", unified, target.maxVGPRs);
  if (sgprs > kAddressableSGPRs)
    add("SGPRs", sgprs, kAddressableSGPRs);
  if (!problems.empty()) {
    InFlightDiagnostic diag =
        program.emitError()
        << "kernel '" << layout.name
        << "' exceeds hardware register limit: " << problems;
    diag.attachNote() << "Register spilling is not supported; reduce register "
                         "pressure (e.g., smaller tile sizes, fewer unrolled "
                         "iterations).";
    return diag;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Symbols and labels
//===----------------------------------------------------------------------===//

std::string ProgramEmitter::reserveSymbol(StringRef base) {
  if (module.symbols.insert(base).second)
    return base.str();
  for (unsigned k = 1;; ++k) {
    std::string candidate = (base + "_" + Twine(k)).str();
    if (module.symbols.insert(candidate).second)
      return candidate;
  }
}

unsigned ProgramEmitter::freshLabelId() {
  for (;;) {
    unsigned id = module.nextLabelId++;
    std::string names[] = {("L_loop_" + Twine(id)).str(),
                           ("L_if_else_" + Twine(id)).str(),
                           ("L_if_end_" + Twine(id)).str()};
    if (llvm::any_of(names, [&](const std::string &n) {
          return module.symbols.contains(n);
        }))
      continue;
    for (const std::string &n : names)
      module.symbols.insert(n);
    return id;
  }
}

const std::string *ProgramEmitter::lookupLabel(StringRef irName) const {
  auto it = labelNames.find(irName);
  return it == labelNames.end() ? nullptr : &it->second;
}

//===----------------------------------------------------------------------===//
// Instruction-level services
//===----------------------------------------------------------------------===//

LogicalResult ProgramEmitter::fitWidth(Operation *op, AsmOperand &operand,
                                       int64_t width, const Twine &what) {
  if (!operand.isReg())
    return success();
  if (operand.reg.size < width) {
    std::string text;
    llvm::raw_string_ostream os(text);
    printReg(os, operand.reg);
    return op->emitOpError()
           << what << " must cover " << width << " registers, but " << text
           << " has " << operand.reg.size;
  }
  // Upstream: prints wider operands through their first register only for
  // ops with a single 1-register result; the instruction's width decides.
  operand.reg.size = width;
  return success();
}

LogicalResult ProgramEmitter::checkReg(Operation *op, const PhysReg &reg) {
  auto describe = [&]() {
    std::string text;
    llvm::raw_string_ostream os(text);
    printReg(os, reg);
    return text;
  };
  switch (reg.cls) {
  case RegClass::SGPR:
    if (reg.index == kVCCIndex && reg.size <= 2)
      return success();
    if (reg.index == kVCCIndex + 1 && reg.size == 1)
      return success();
    if (reg.index < 0 || reg.index + reg.size > kAddressableSGPRs)
      return op->emitOpError()
             << describe() << " is not addressable on " << target.name
             << " (usable SGPRs are s0-s" << kAddressableSGPRs - 1 << ")";
    if ((reg.size == 2 && reg.index % 2) || (reg.size >= 4 && reg.index % 4))
      return op->emitOpError()
             << "SGPR tuple " << describe() << " must start at a multiple of "
             << (reg.size == 2 ? 2 : 4);
    return success();
  case RegClass::VGPR:
  case RegClass::AGPR:
    if (reg.index < 0 || reg.index + reg.size > kAddressableVGPRs)
      return op->emitOpError()
             << describe() << " is not addressable on " << target.name;
    if (reg.cls == RegClass::AGPR && target.maxAGPRs == 0)
      return op->emitOpError() << target.name << " has no AGPRs";
    if (reg.size >= 2 && reg.index % 2)
      return op->emitOpError()
             << "register tuple " << describe() << " must start at an even "
             << "register on " << target.name;
    return success();
  }
  return success();
}

LogicalResult ProgramEmitter::emit(Operation *op, const AsmInst &inst) {
  for (const AsmOperand &operand : inst.operands)
    if (operand.isReg() && failed(checkReg(op, operand.reg)))
      return failure();
  llvm::SmallString<128> line;
  appendText(line, inst.mnemonic);
  for (auto [i, operand] : llvm::enumerate(inst.operands)) {
    appendText(line, i == 0 ? " " : ", ");
    appendOperand(line, operand);
  }
  appendText(line, inst.suffix);
  line.push_back('\n');
  text.inst(op) << line;
  // An instruction that writes v15 invalidates the literal cache; only
  // stageLiteralInScratch() re-establishes it.
  if (!inst.operands.empty() && inst.operands.front().isVGPR() &&
      inst.operands.front().reg.overlaps(scratch()))
    clobberScratch();
  return success();
}

LogicalResult ProgramEmitter::requireScratch(Operation *op) {
  if (!programUsesScratch)
    return success();
  return op->emitOpError("needs the scratch VGPR v")
         << kScratchVGPR << " to emit this instruction, but the program uses v"
         << kScratchVGPR
         << " (the register allocator reserves it for the emitter)";
}

LogicalResult ProgramEmitter::stageLiteralInScratch(Operation *op,
                                                    int64_t value) {
  if (failed(requireScratch(op)))
    return failure();
  if (!fitsIn32Bits(value))
    return op->emitOpError("immediate ") << value << " does not fit in 32 bits";
  if (scratchLiteral && *scratchLiteral == value)
    return success();
  AsmInst mov("v_mov_b32");
  mov.add(scratch()).add(AsmOperand::ofImm(value));
  if (failed(emit(op, mov)))
    return failure();
  scratchLiteral = value;
  return success();
}

//===----------------------------------------------------------------------===//
// Copies
//===----------------------------------------------------------------------===//

LogicalResult ProgramEmitter::emitCopy(Operation *op, const PhysReg &dst,
                                       const AsmOperand &src) {
  if (src.isImm() && !fitsIn32Bits(src.imm))
    return op->emitOpError("immediate ")
           << src.imm << " does not fit in 32 bits";
  switch (dst.cls) {
  case RegClass::VGPR: {
    AsmInst inst(src.isAGPR() ? "v_accvgpr_read_b32" : "v_mov_b32");
    return emit(op, inst.add(dst).add(src));
  }
  case RegClass::AGPR: {
    if (src.isAGPR())
      return emit(op, AsmInst("v_accvgpr_mov_b32").add(dst).add(src));
    if (src.isLiteral()) {
      if (failed(stageLiteralInScratch(op, src.imm)))
        return failure();
      return emit(op, AsmInst("v_accvgpr_write_b32").add(dst).add(scratch()));
    }
    return emit(op, AsmInst("v_accvgpr_write_b32").add(dst).add(src));
  }
  case RegClass::SGPR:
    if (src.isReg() && !src.isSGPR())
      return op->emitOpError("cannot copy a vector register into an SGPR");
    return emit(op, AsmInst("s_mov_b32").add(dst).add(src));
  }
  return success();
}

LogicalResult ProgramEmitter::addRangeCopy(Operation *op,
                                           SmallVectorImpl<CopyMove> &moves,
                                           const PhysReg &dst,
                                           const PhysReg &src) {
  if (dst == src)
    return success();
  if (dst.size != src.size)
    return op->emitOpError("cannot copy ")
           << src.size << " registers into " << dst.size;
  if (dst.cls == RegClass::SGPR && src.cls != RegClass::SGPR)
    return op->emitOpError("cannot copy a vector register into an SGPR");
  for (int64_t i = 0; i < dst.size; ++i)
    moves.push_back({dst.sub(i), AsmOperand::ofReg(src.sub(i))});
  return success();
}

std::optional<int64_t> ProgramEmitter::findFreeSGPR() const {
  // Above everything the program and the ABI use (upstream takes the peak),
  // else any SGPR the program never touches.
  int64_t abiEnd = layout.userSGPRs + (layout.workgroupIds ? 3 : 0);
  for (int64_t i = std::max(peakSGPR, abiEnd); i < kAddressableSGPRs; ++i)
    if (!usedSGPRs.test(i))
      return i;
  for (int64_t i = kAddressableSGPRs - 1; i >= abiEnd; --i)
    if (!usedSGPRs.test(i))
      return i;
  return std::nullopt;
}

LogicalResult
ProgramEmitter::emitParallelCopy(Operation *op,
                                 SmallVectorImpl<CopyMove> &moves) {
  llvm::erase_if(moves, [](const CopyMove &m) {
    return m.src.isReg() && m.src.reg == m.dst;
  });
  for (size_t i = 0; i < moves.size(); ++i)
    for (size_t j = i + 1; j < moves.size(); ++j)
      if (moves[i].dst == moves[j].dst)
        return op->emitOpError("writes a register twice in one copy");
  auto isRead = [&](const PhysReg &reg) {
    return llvm::any_of(moves, [&](const CopyMove &m) {
      return m.src.isReg() && m.src.reg == reg;
    });
  };
  // A literal going into an AGPR is staged in v15, which may be holding a
  // value parked to break a cycle.
  auto blockedByScratch = [&](const CopyMove &m) {
    return m.dst.cls == RegClass::AGPR && m.src.isLiteral() &&
           isRead(scratch());
  };
  while (!moves.empty()) {
    bool progress = false;
    for (size_t i = 0; i < moves.size();) {
      if (isRead(moves[i].dst) || blockedByScratch(moves[i])) {
        ++i;
        continue;
      }
      if (failed(emitCopy(op, moves[i].dst, moves[i].src)))
        return failure();
      moves.erase(moves.begin() + i);
      progress = true;
    }
    if (progress)
      continue;
    // Only cycles are left: park one destination's current value in a
    // temporary. Upstream: uses the register at the current peak, which
    // raises the register count; v15 is reserved anyway.
    PhysReg blocked = moves.front().dst;
    PhysReg temp;
    if (blocked.cls == RegClass::SGPR) {
      if (!swapSGPR)
        swapSGPR = findFreeSGPR();
      if (!swapSGPR)
        return op->emitOpError("needs a free SGPR to break a register copy "
                               "cycle, but the program uses every SGPR");
      swapSGPRUsed = true;
      temp = PhysReg{RegClass::SGPR, *swapSGPR, 1};
    } else {
      if (failed(requireScratch(op)))
        return failure();
      temp = scratch();
    }
    if (failed(emitCopy(op, temp, AsmOperand::ofReg(blocked))))
      return failure();
    for (CopyMove &m : moves)
      if (m.src.isReg() && m.src.reg == blocked)
        m.src.reg = temp;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// SCC liveness
//===----------------------------------------------------------------------===//

LogicalResult ProgramEmitter::checkSCCLive(Operation *user, Value scc) {
  Operation *def = scc.getDefiningOp();
  // The producer must precede the reader in a block enclosing it (the
  // emitter may see IR that skipped verification).
  Operation *anchor =
      def ? def->getBlock()->findAncestorOpInBlock(*user) : nullptr;
  if (!anchor || anchor == def || !def->isBeforeInBlock(anchor))
    return user->emitOpError("reads SCC from an op that does not precede it");
  // Which ops overwrite SCC on the way, shared with the SCC verifier and
  // spill/reload (SCCClobbers.h: enclosing blocks, loop back edges, SGPR
  // tests of `if`).
  if (!sccClobbers)
    sccClobbers = std::make_unique<SCCClobbers>(program);
  if (!sccClobbers->clobberedBetween(def, user))
    return success();
  Operation *clobber = sccClobbers->collectBetween(def, user).front();
  InFlightDiagnostic diag =
      user->emitOpError("reads SCC written by '")
      << def->getName() << "', but '" << clobber->getName()
      << "' overwrites SCC in between; keep the SCC producer next to its "
         "consumer";
  diag.attachNote(clobber->getLoc()) << "SCC is overwritten here";
  return diag;
}

//===----------------------------------------------------------------------===//
// Code emission
//===----------------------------------------------------------------------===//

void ProgramEmitter::emitKernargPreloadPrologue() {
  // Firmware that supports kernarg preloading starts the kernel 256 bytes
  // after its entry; older firmware starts at the entry, where this prologue
  // loads the same arguments. Upstream: sets the preload fields without this
  // prologue, so preloading firmware would skip the first 256 bytes of code.
  raw_ostream &os = text.os;
  os << "  ; kernarg preload: firmware without preloading starts here and "
        "loads s[2:"
     << 1 + layout.preloadSGPRs
     << "] itself;\n  ; firmware with it enters 256 bytes later\n";
  int64_t index = 2, end = 2 + layout.preloadSGPRs;
  while (index < end) {
    int64_t n = 1;
    for (int64_t candidate : {8, 4, 2})
      if (index + candidate <= end &&
          index % std::min<int64_t>(candidate, 4) == 0) {
        n = candidate;
        break;
      }
    raw_ostream &line = text.inst(nullptr);
    line << "s_load_dword" << (n > 1 ? "x" + std::to_string(n) : "") << ' ';
    printReg(line, PhysReg{RegClass::SGPR, index, n});
    line << ", s[0:1], " << (index - 2) * 4 << '\n';
    index += n;
  }
  std::string label = reserveSymbol("L_" + layout.name + "_preloaded");
  text.inst(nullptr) << "s_waitcnt lgkmcnt(0)\n";
  text.inst(nullptr) << "s_branch " << label << '\n';
  os << ".p2align 8\n" << label << ":\n";
}

LogicalResult ProgramEmitter::emitCode() {
  int64_t before = text.instructions;
  raw_ostream &os = text.os;
  const std::string &name = layout.name;
  os << ".protected " << name << "\n.globl " << name << "\n.p2align 8\n.type "
     << name << ",@function\n"
     << name << ":\n";
  if (layout.preloadSGPRs > 0)
    emitKernargPreloadPrologue();
  LogicalResult result = emitBlock(program.getBodyBlock());
  instructionCount = text.instructions - before;
  return result;
}

LogicalResult ProgramEmitter::emitBlock(Block &block) {
  for (Operation &op : block) {
    if (isa<ConditionOp, YieldOp>(op))
      continue; // emitted by the parent
    if (failed(emitOp(&op)))
      return failure();
  }
  return success();
}

LogicalResult ProgramEmitter::emitOp(Operation *op) {
  if (auto loop = dyn_cast<LoopOp>(op))
    return emitLoop(loop);
  if (auto ifOp = dyn_cast<IfOp>(op))
    return emitIf(ifOp);
  if (isa<ConstantOp, PrecoloredVRegOp, PrecoloredSRegOp, PrecoloredARegOp,
          DCEProtectOp>(op))
    return success();
  if (auto pack = dyn_cast<PackOp>(op))
    return emitPack(pack);
  if (auto extract = dyn_cast<ExtractOp>(op))
    return emitExtract(extract);
  if (auto insert = dyn_cast<InsertOp>(op))
    return emitInsert(insert);
  if (auto label = dyn_cast<LabelOp>(op))
    return emitLabel(label);
  if (auto comment = dyn_cast<CommentOp>(op)) {
    SmallVector<StringRef> lines;
    comment.getText().split(lines, '\n');
    for (StringRef line : lines)
      text.line(op) << "  ; " << line.rtrim('\r') << '\n';
    return success();
  }
  if (auto rawOp = dyn_cast<RawOp>(op)) {
    // Opaque text: it may write v15 or branch anywhere.
    invalidateScratch();
    SmallVector<StringRef> lines;
    rawOp.getText().split(lines, '\n');
    for (StringRef line : lines)
      text.inst(op) << line.rtrim('\r') << '\n';
    return success();
  }
  return emitInstruction(*this, op);
}

LogicalResult ProgramEmitter::emitLabel(LabelOp op) {
  // Upstream: drops labels inside regions; we keep them all.
  const std::string *name = lookupLabel(op.getNameAttr().getValue());
  invalidateScratch();
  text.line(op) << *name << ":\n";
  return success();
}

LogicalResult ProgramEmitter::emitBranchCondition(Operation *op,
                                                  Value condition) {
  if (isa<SCCType>(condition.getType()))
    return checkSCCLive(op, condition);
  // Upstream: tests SCC even when the condition is an SGPR.
  AsmOperand reg = resolve(condition);
  if (!reg.isSGPR() || reg.reg.size > 2)
    return op->emitOpError("condition must be SCC, an SGPR or an SGPR pair");
  AsmInst cmp(reg.reg.size == 2 ? "s_cmp_lg_u64" : "s_cmp_lg_u32");
  return emit(op, cmp.add(reg).add(AsmOperand::ofImm(0)));
}

LogicalResult ProgramEmitter::emitLoop(LoopOp loop) {
  ConditionOp cond = loop.getConditionOp();
  Block &body = loop.getBodyBlock();
  SmallVector<CopyMove, 16> moves;
  for (auto [init, arg] : llvm::zip(loop.getInitArgs(), body.getArguments()))
    if (failed(addRangeCopy(loop, moves, resolve(arg).reg, resolve(init).reg)))
      return failure();
  if (failed(emitParallelCopy(loop, moves)))
    return failure();

  // Upstream: adds a zero-trip guard (s_cmp_ge_u32 + s_cbranch_scc1 past the
  // loop) when the condition comes from s_cmp_lt_u32 on the first iter_arg.
  // waveasm.loop is a do-while loop: the body runs at least once, and the
  // guard would skip it (and leave the results in the block-argument
  // registers unset); it is never needed for correctness, so none is emitted.
  std::string label = ("L_loop_" + Twine(freshLabelId())).str();
  invalidateScratch();
  text.line(loop) << label << ":\n";
  if (failed(emitBlock(body)))
    return failure();

  if (failed(emitBranchCondition(cond, cond.getCondition())))
    return failure();
  // Back edge: iter_args into the block-argument registers. Upstream's
  // LinearScan records where each iter_arg lives in `_iterArgPhysRegs`
  // (before it coerces types); when present it names the copy source.
  SmallVector<int64_t, 8> physRegs;
  if (auto attr = cond->getAttrOfType<DenseI64ArrayAttr>("_iterArgPhysRegs"))
    physRegs.assign(attr.asArrayRef().begin(), attr.asArrayRef().end());
  else if (auto attr = cond->getAttrOfType<ArrayAttr>("_iterArgPhysRegs"))
    for (Attribute element : attr)
      physRegs.push_back(
          isa<IntegerAttr>(element) ? cast<IntegerAttr>(element).getInt() : -1);
  moves.clear();
  for (auto [i, value, arg] :
       llvm::enumerate(cond.getIterArgs(), body.getArguments())) {
    PhysReg src = resolve(value).reg;
    if (i < physRegs.size() && physRegs[i] >= 0)
      src.index = physRegs[i];
    if (failed(addRangeCopy(cond, moves, resolve(arg).reg, src)))
      return failure();
  }
  if (failed(emitParallelCopy(cond, moves)))
    return failure();
  if (failed(
          emit(cond, AsmInst("s_cbranch_scc1").add(AsmOperand::ofText(label)))))
    return failure();
  invalidateScratch();

  // Results are the last iteration's iter_args, now in the block-argument
  // registers.
  moves.clear();
  for (auto [result, arg] : llvm::zip(loop.getResults(), body.getArguments()))
    if (failed(
            addRangeCopy(loop, moves, resolve(result).reg, resolve(arg).reg)))
      return failure();
  return emitParallelCopy(loop, moves);
}

LogicalResult ProgramEmitter::emitIf(IfOp ifOp) {
  if (failed(emitBranchCondition(ifOp, ifOp.getCondition())))
    return failure();
  unsigned id = freshLabelId();
  std::string elseLabel = ("L_if_else_" + Twine(id)).str();
  std::string endLabel = ("L_if_end_" + Twine(id)).str();
  bool hasElse = !ifOp.getElseRegion().empty();
  if (failed(emit(
          ifOp, AsmInst("s_cbranch_scc0")
                    .add(AsmOperand::ofText(hasElse ? elseLabel : endLabel)))))
    return failure();

  auto emitRegion = [&](Region &region) -> LogicalResult {
    if (failed(emitBlock(region.front())))
      return failure();
    YieldOp yield = ifOp.getYield(region);
    SmallVector<CopyMove, 8> moves;
    for (auto [result, value] : llvm::zip(ifOp.getResults(), yield.getValues()))
      if (failed(addRangeCopy(yield, moves, resolve(result).reg,
                              resolve(value).reg)))
        return failure();
    return emitParallelCopy(yield, moves);
  };
  if (failed(emitRegion(ifOp.getThenRegion())))
    return failure();
  if (hasElse) {
    if (failed(
            emit(ifOp, AsmInst("s_branch").add(AsmOperand::ofText(endLabel)))))
      return failure();
    invalidateScratch();
    text.line(ifOp) << elseLabel << ":\n";
    if (failed(emitRegion(ifOp.getElseRegion())))
      return failure();
  }
  invalidateScratch();
  text.line(ifOp) << endLabel << ":\n";
  return success();
}

LogicalResult ProgramEmitter::emitPack(PackOp op) {
  // The allocator places element i at result + offset; anything else (hand
  // written IR) gets copies.
  PhysReg result = resolve(op.getResult()).reg;
  SmallVector<CopyMove, 8> moves;
  int64_t offset = 0;
  for (Value element : op.getElements()) {
    PhysReg reg = resolve(element).reg;
    if (offset + reg.size > result.size)
      return op.emitOpError("elements cover more registers than the result");
    PhysReg slot = result.sub(offset, reg.size);
    if (failed(addRangeCopy(op, moves, slot, reg)))
      return failure();
    offset += reg.size;
  }
  return emitParallelCopy(op, moves);
}

LogicalResult ProgramEmitter::emitExtract(ExtractOp op) {
  PhysReg source = resolve(op.getSource()).reg;
  PhysReg result = resolve(op.getResult()).reg;
  int64_t index = op.getIndexAttr().getInt();
  if (index < 0 || index + result.size > source.size)
    return op.emitOpError("extract range is outside the source registers");
  SmallVector<CopyMove, 4> moves;
  if (failed(addRangeCopy(op, moves, result, source.sub(index, result.size))))
    return failure();
  return emitParallelCopy(op, moves);
}

LogicalResult ProgramEmitter::emitInsert(InsertOp op) {
  PhysReg source = resolve(op.getVector()).reg;
  PhysReg value = resolve(op.getValue()).reg;
  PhysReg result = resolve(op.getResult()).reg;
  int64_t index = op.getIndexAttr().getInt();
  if (result.size != source.size || index < 0 ||
      index + value.size > source.size)
    return op.emitOpError("insert range is outside the registers");
  SmallVector<CopyMove, 8> moves;
  for (int64_t j = 0; j < result.size; ++j) {
    bool inserted = j >= index && j < index + value.size;
    PhysReg src = inserted ? value.sub(j - index) : source.sub(j);
    if (failed(addRangeCopy(op, moves, result.sub(j), src)))
      return failure();
  }
  return emitParallelCopy(op, moves);
}

LogicalResult ProgramEmitter::computeCounts() {
  counts.vgprPeak = std::max<int64_t>(peakVGPR, kScratchVGPR + 1);
  counts.agprPeak = peakAGPR;
  counts.sgprPeak = std::max<int64_t>(
      {peakSGPR, 2, layout.userSGPRs + (layout.workgroupIds ? 3 : 0)});
  if (swapSGPRUsed)
    counts.sgprPeak = std::max(counts.sgprPeak, *swapSGPR + 1);
  if (std::optional<int64_t> minSGPRs = getIntAttr(program, "min_sgprs"))
    counts.sgprPeak = std::max(counts.sgprPeak, *minSGPRs);
  int64_t granule = target.vgprAllocGranule;
  counts.accumOffset =
      std::clamp<int64_t>(llvm::alignTo(counts.vgprPeak, 4), 4, 256);
  int64_t total = counts.agprPeak > 0 ? counts.accumOffset + counts.agprPeak
                                      : counts.vgprPeak;
  counts.nextFreeVGPR = llvm::alignTo(total, granule);
  // SPEC.md 17.3: SGPR counts round to 8 and are capped at 102.
  counts.nextFreeSGPR =
      std::min<int64_t>(llvm::alignTo(counts.sgprPeak, 8), kAddressableSGPRs);
  if (counts.sgprPeak > kAddressableSGPRs)
    return program.emitError()
           << "kernel '" << layout.name
           << "' exceeds hardware register limit: SGPRs: " << counts.sgprPeak
           << " used, " << kAddressableSGPRs << " limit";
  return success();
}

EmittedProgramInfo ProgramEmitter::getInfo() const {
  EmittedProgramInfo info;
  info.kernelName = layout.name;
  info.vgprCount = counts.vgprPeak;
  info.sgprCount = counts.sgprPeak;
  info.agprCount = counts.agprPeak;
  info.instructionCount = instructionCount;
  return info;
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

/// Emits `programs` as one file: target directive, each kernel's code and
/// descriptor, one metadata block.
static LogicalResult emitPrograms(ArrayRef<ProgramOp> programs, raw_ostream &os,
                                  AsmLineMap *lineMap, EmittedProgramInfo *info,
                                  bool assumeVerified) {
  if (programs.empty())
    return success();
  ModuleState module;
  module.assumeVerified = assumeVerified;
  AsmText text;
  SmallVector<std::unique_ptr<ProgramEmitter>> emitters;
  bool ok = true;
  for (ProgramOp program : programs)
    emitters.push_back(std::make_unique<ProgramEmitter>(program, text, module));
  for (auto &emitter : emitters)
    ok &= succeeded(emitter->reserveName());
  if (!ok)
    return failure();
  for (auto &emitter : emitters)
    ok &= succeeded(emitter->prepare());
  if (!ok)
    return failure();
  TargetKind kind = emitters.front()->targetKind;
  for (auto &emitter : emitters)
    if (emitter->targetKind != kind)
      return emitter->program.emitOpError("targets ")
             << emitter->target.name << ", but the first program of the "
             << "module targets " << getTargetInfo(kind).name
             << "; one assembly file has one target";

  text.os << ".amdgcn_target \"amdgcn-amd-amdhsa--" << getTargetInfo(kind).name
          << "\"\n\n";
  for (auto &emitter : emitters) {
    text.os << ".text\n\n";
    if (failed(emitter->emitCode()) || failed(emitter->computeCounts())) {
      ok = false;
      continue;
    }
    text.os << '\n';
    emitter->emitDescriptor();
    text.os << '\n';
  }
  if (!ok)
    return failure();
  text.os << ".amdgpu_metadata\n---\namdhsa.version:\n  - 1\n  - 2\n"
             "amdhsa.kernels:\n";
  for (auto &emitter : emitters)
    emitter->emitMetadataEntry(text.os);
  text.os << "...\n.end_amdgpu_metadata\n";

  os << text.buffer;
  if (lineMap)
    text.appendLineMap(*lineMap);
  if (info)
    *info = emitters.front()->getInfo();
  return success();
}

LogicalResult waveasm::emitProgramAssembly(ProgramOp program, raw_ostream &os,
                                           AsmLineMap *lineMap,
                                           EmittedProgramInfo *info) {
  return emitPrograms({program}, os, lineMap, info, /*assumeVerified=*/false);
}

LogicalResult waveasm::emitModuleAssembly(ModuleOp module, raw_ostream &os,
                                          AsmLineMap *lineMap,
                                          bool assumeVerified) {
  SmallVector<ProgramOp> programs(module.getOps<ProgramOp>());
  return emitPrograms(programs, os, lineMap, /*info=*/nullptr, assumeVerified);
}
