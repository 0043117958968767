//===- ControlFlowOps.cpp - program, loop, if, condition, yield -----------===//
//
// Custom syntax (SPEC.md 4), region-branch semantics and verifiers of the
// structure ops.
//
//===----------------------------------------------------------------------===//

#include "ir/DefinedValues.h"
#include "ir/Dialect.h"
#include "ir/NoAliasArgs.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace waveasm;

//===----------------------------------------------------------------------===//
// ProgramOp
//===----------------------------------------------------------------------===//

TargetKind ProgramOp::getTargetKind() {
  return getTarget().getTargetKind().getTargetKind();
}

// Physical registers must exist on the program's target. Upstream only checks
// this at assembly emission; an out-of-range index is a user error worth
// reporting where it is written.
static LogicalResult checkPhysicalRange(Operation *op, Type type,
                                        const TargetInfo &target) {
  std::optional<int64_t> index = getPhysicalIndex(type);
  if (!index)
    return success();
  RegClass cls = *getRegClass(type);
  int64_t size = getRegSize(type);
  int64_t limit = 0;
  switch (cls) {
  case RegClass::VGPR:
    limit = target.maxArchVGPRs;
    break;
  case RegClass::SGPR:
    // s106-s107 alias VCC: addressable, never allocated.
    limit = target.maxSGPRs + 2;
    break;
  case RegClass::AGPR:
    limit = target.maxAGPRs;
    break;
  }
  if (*index + size <= limit)
    return success();
  StringRef prefix = getRegPrefix(cls);
  InFlightDiagnostic diag = op->emitOpError("physical register ");
  if (size == 1)
    diag << prefix << *index;
  else
    diag << prefix << "[" << *index << ":" << *index + size - 1 << "]";
  diag << " is out of range for " << target.name << ": ";
  if (limit == 0)
    return diag << target.name << " has no " << getRegClassName(cls) << "s";
  return diag << "valid " << getRegClassName(cls) << "s are " << prefix << "0-"
              << prefix << limit - 1;
}

LogicalResult ProgramOp::verifyRegions() {
  if (std::string problem = checkNoAliasArgs(*this); !problem.empty())
    return emitOpError(problem);
  const TargetInfo &target = getTargetInfo(getTargetKind());
  // Types are uniqued and a program uses few of them: check each once.
  llvm::SmallDenseSet<Type, 32> checked;
  auto check = [&](Operation *op, Type type) {
    if (!isPhysicalReg(type) || checked.contains(type))
      return success();
    if (failed(checkPhysicalRange(op, type, target)))
      return failure();
    checked.insert(type);
    return success();
  };
  WalkResult result =
      walkDefinedValues(getBody(), [&](Operation *op, Value value) {
        return failed(check(op, value.getType())) ? WalkResult::interrupt()
                                                  : WalkResult::advance();
      });
  return failure(result.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// LoopOp
//===----------------------------------------------------------------------===//

ConditionOp LoopOp::getConditionOp() {
  if (getBody().empty() || getBody().front().empty())
    return {};
  return dyn_cast<ConditionOp>(getBody().front().back());
}

// `( %arg = %init [: type], ... ) : (T...) -> R {body} attr-dict`; the list
// may be omitted or empty. The `: type` after an init is our extension for
// allocated IR whose init register differs from the block argument's.
ParseResult LoopOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::Argument> args;
  SmallVector<OpAsmParser::UnresolvedOperand> inits;
  SmallVector<Type> initTypes; // null: same as the block argument
  if (succeeded(parser.parseOptionalLParen()) &&
      failed(parser.parseOptionalRParen())) {
    do {
      OpAsmParser::Argument arg;
      OpAsmParser::UnresolvedOperand init;
      Type initType;
      if (parser.parseArgument(arg) || parser.parseEqual() ||
          parser.parseOperand(init))
        return failure();
      if (succeeded(parser.parseOptionalColon()) && parser.parseType(initType))
        return failure();
      args.push_back(arg);
      inits.push_back(init);
      initTypes.push_back(initType);
    } while (succeeded(parser.parseOptionalComma()));
    if (parser.parseRParen())
      return failure();
  }

  SMLoc typeLoc = parser.getCurrentLocation();
  FunctionType fnType;
  if (parser.parseColonType(fnType))
    return failure();
  if (fnType.getNumInputs() != inits.size())
    return parser.emitError(typeLoc)
           << "expected as many input types as operands (expected "
           << inits.size() << " got " << fnType.getNumInputs() << ")";
  for (auto [i, arg] : llvm::enumerate(args)) {
    arg.type = fnType.getInput(i);
    Type initType = initTypes[i] ? initTypes[i] : arg.type;
    if (parser.resolveOperand(inits[i], initType, result.operands))
      return failure();
  }
  result.addTypes(fnType.getResults());

  Region *body = result.addRegion();
  if (parser.parseRegion(*body, args))
    return failure();
  return parser.parseOptionalAttrDict(result.attributes);
}

void LoopOp::print(OpAsmPrinter &p) {
  Block::BlockArgListType args;
  if (!getBody().empty())
    args = getBody().getArguments();
  if (!getInitArgs().empty()) {
    p << " (";
    llvm::interleaveComma(llvm::zip(args, getInitArgs()), p, [&](auto pair) {
      auto [arg, init] = pair;
      p << arg << " = " << init;
      if (init.getType() != arg.getType())
        p << " : " << init.getType();
    });
    p << ")";
  }
  p << " : ";
  p.printFunctionalType(TypeRange(ValueRange(args)), getResultTypes());
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/true);
  p.printOptionalAttrDict((*this)->getAttrs());
}

LogicalResult LoopOp::verify() {
  Region &body = getBody();
  if (body.empty() || body.front().empty())
    return emitOpError("expects a non-empty block");
  if (!body.hasOneBlock())
    return emitOpError("expects a single block in its body");
  ConditionOp condition = getConditionOp();
  if (!condition) {
    // A condition that is not last is the Terminator trait's to report
    // ("must be the last operation in the parent block").
    if (!body.front().getOps<ConditionOp>().empty())
      return success();
    return emitOpError("loop body must end with waveasm.condition, found '")
           << body.front().back().getName() << "'";
  }

  Block::BlockArgListType args = body.getArguments();
  if (getInitArgs().size() != args.size())
    return emitOpError("different number of inits (")
           << getInitArgs().size() << ") and region iter_args (" << args.size()
           << ")";

  OperandRange yielded = condition.getIterArgs();
  if (yielded.size() != args.size() ||
      !llvm::all_of(llvm::zip(yielded, args), [](auto pair) {
        return waveasm::areTypesCompatible(std::get<0>(pair).getType(),
                                           std::get<1>(pair).getType());
      }))
    return emitOpError(
        "condition iter_arg types must be compatible with loop arg types");

  if (getNumResults() != args.size() ||
      !llvm::all_of(llvm::zip(getResultTypes(), args), [](auto pair) {
        return waveasm::areTypesCompatible(std::get<0>(pair),
                                           std::get<1>(pair).getType());
      }))
    return emitOpError("result types must be compatible with iter arg types");

  for (auto [index, init, arg] : llvm::enumerate(getInitArgs(), args)) {
    Type initType = init.getType(), argType = arg.getType();
    if (!waveasm::areTypesCompatible(initType, argType))
      return emitOpError("init types must be compatible with iter arg types: ")
             << index << "-th init has type " << initType
             << " but its region iter_arg has type " << argType;
    // Before allocation the loop-carried types must be identical (this is
    // MLIR's LoopLikeOpInterface rule and message, which upstream gets from
    // the interface). Allocated IR may legitimately differ.
    if (isVirtualReg(initType) && isVirtualReg(argType) && initType != argType)
      return emitOpError() << index << "-th init and " << index
                           << "-th region iter_arg have different type: "
                           << initType << " != " << argType;
    Type yieldType = yielded[index].getType();
    if (isVirtualReg(argType) && isVirtualReg(yieldType) &&
        argType != yieldType)
      return emitOpError() << index << "-th region iter_arg and " << index
                           << "-th yielded value have different type: "
                           << argType << " != " << yieldType;
  }
  return success();
}

void LoopOp::getSuccessorRegions(RegionBranchPoint point,
                                 SmallVectorImpl<RegionSuccessor> &regions) {
  // Do-while: entering always runs the body; the condition either repeats it
  // or leaves the loop.
  if (getBody().empty())
    return;
  regions.push_back(RegionSuccessor(&getBody(), getBody().getArguments()));
  if (!point.isParent())
    regions.push_back(RegionSuccessor(getOperation(), getResults()));
}

OperandRange LoopOp::getEntrySuccessorOperands(RegionSuccessor) {
  return getInitArgs();
}

bool LoopOp::areTypesCompatible(Type lhs, Type rhs) {
  return waveasm::areTypesCompatible(lhs, rhs);
}

SmallVector<Region *> LoopOp::getLoopRegions() { return {&getBody()}; }

//===----------------------------------------------------------------------===//
// ConditionOp
//===----------------------------------------------------------------------===//

MutableOperandRange ConditionOp::getMutableSuccessorOperands(RegionSuccessor) {
  return getIterArgsMutable();
}

LogicalResult ConditionOp::verify() {
  auto loop = dyn_cast<LoopOp>((*this)->getParentOp());
  if (!loop || loop.getBody().empty())
    return success(); // HasParent reports a misplaced condition.
  Block::BlockArgListType args = loop.getBody().getArguments();
  if (getIterArgs().size() != args.size())
    return emitOpError("iter_args count must match loop args");
  for (auto [value, arg] : llvm::zip(getIterArgs(), args))
    if (!waveasm::areTypesCompatible(value.getType(), arg.getType()))
      return emitOpError("iter_arg types must be compatible with loop arg "
                         "types");
  return success();
}

//===----------------------------------------------------------------------===//
// IfOp
//===----------------------------------------------------------------------===//

YieldOp IfOp::getYield(Region &region) {
  if (region.empty() || region.front().empty())
    return {};
  return dyn_cast<YieldOp>(region.front().back());
}

// `%cond [: TYPE [-> T0, T1]] {then} [else {else}] attr-dict`; the condition
// type defaults to !waveasm.scc.
ParseResult IfOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand condition;
  Type conditionType = SCCType::get(parser.getContext());
  if (parser.parseOperand(condition))
    return failure();
  if (succeeded(parser.parseOptionalColon())) {
    if (parser.parseType(conditionType))
      return failure();
    if (succeeded(parser.parseOptionalArrow()) &&
        parser.parseTypeList(result.types))
      return failure();
  }
  if (parser.resolveOperand(condition, conditionType, result.operands))
    return failure();
  Region *thenRegion = result.addRegion();
  Region *elseRegion = result.addRegion();
  if (parser.parseRegion(*thenRegion, /*arguments=*/{}))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("else"))) {
    if (parser.parseRegion(*elseRegion, /*arguments=*/{}))
      return failure();
    // `else {}` is an else region without a block, not a missing else: give
    // it one so the verifier reports it instead of dropping it.
    if (elseRegion->empty())
      elseRegion->emplaceBlock();
  }
  return parser.parseOptionalAttrDict(result.attributes);
}

// Upstream prints the condition type only when the op has results, so an
// SGPR condition without results does not round-trip (SPEC.md 21 item 4);
// we also print it whenever it is not the default !waveasm.scc.
void IfOp::print(OpAsmPrinter &p) {
  p << ' ' << getCondition();
  Type conditionType = getCondition().getType();
  if (getNumResults() != 0 || !isa<SCCType>(conditionType)) {
    p << " : " << conditionType;
    if (getNumResults() != 0) {
      p << " -> ";
      llvm::interleaveComma(getResultTypes(), p);
    }
  }
  p << ' ';
  p.printRegion(getThenRegion(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/true);
  if (!getElseRegion().empty()) {
    p << " else ";
    p.printRegion(getElseRegion(), /*printEntryBlockArgs=*/false,
                  /*printBlockTerminators=*/true);
  }
  p.printOptionalAttrDict((*this)->getAttrs());
}

static LogicalResult verifyIfRegion(IfOp op, Region &region, StringRef name) {
  if (region.empty() || region.front().empty())
    return op.emitOpError("expects a non-empty block");
  if (!region.hasOneBlock())
    return op.emitOpError("expects a single block in its ")
           << name << " region";
  if (region.front().getNumArguments() != 0)
    return op.emitOpError("expects no arguments in its ") << name << " region";
  if (!isa<YieldOp>(region.front().back()))
    return op.emitOpError()
           << name << " region must end with waveasm.yield, "
           << "found '" << region.front().back().getName() << "'";
  return success();
}

static bool compatibleTypes(TypeRange lhs, TypeRange rhs) {
  return lhs.size() == rhs.size() &&
         llvm::all_of(llvm::zip(lhs, rhs), [](auto pair) {
           return waveasm::areTypesCompatible(std::get<0>(pair),
                                              std::get<1>(pair));
         });
}

/// A yield that is not the last op is the Terminator trait's to report
/// ("must be the last operation in the parent block").
static bool hasMisplacedYield(Region &region) {
  return !region.empty() && !region.front().empty() &&
         !isa<YieldOp>(region.front().back()) &&
         !region.front().getOps<YieldOp>().empty();
}

LogicalResult IfOp::verify() {
  if (hasMisplacedYield(getThenRegion()) || hasMisplacedYield(getElseRegion()))
    return success();
  if (failed(verifyIfRegion(*this, getThenRegion(), "then")))
    return failure();
  bool hasElse = !getElseRegion().empty();
  if (hasElse && failed(verifyIfRegion(*this, getElseRegion(), "else")))
    return failure();
  TypeRange thenTypes = getYield(getThenRegion()).getValues().getTypes();
  if (hasElse &&
      !compatibleTypes(thenTypes,
                       getYield(getElseRegion()).getValues().getTypes()))
    return emitOpError("then and else must yield compatible types");
  if (getNumResults() != 0 && !hasElse)
    return emitOpError("if operation with results must have an else region");
  if (!compatibleTypes(getResultTypes(), thenTypes))
    return emitOpError("result types must be compatible with yield types");
  return success();
}

void IfOp::getSuccessorRegions(RegionBranchPoint point,
                               SmallVectorImpl<RegionSuccessor> &regions) {
  if (!point.isParent()) {
    regions.push_back(RegionSuccessor(getOperation(), getResults()));
    return;
  }
  regions.push_back(RegionSuccessor(&getThenRegion()));
  if (getElseRegion().empty())
    regions.push_back(RegionSuccessor(getOperation(), getResults()));
  else
    regions.push_back(RegionSuccessor(&getElseRegion()));
}

bool IfOp::areTypesCompatible(Type lhs, Type rhs) {
  return waveasm::areTypesCompatible(lhs, rhs);
}
