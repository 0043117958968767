//===- LoopNumbering.cpp - a program's loops by number --------------------===//

#include "ir/LoopNumbering.h"

using namespace mlir;

std::optional<unsigned> waveasm::getLoopNumber(LoopOp loop) {
  auto program = loop ? loop->getParentOfType<ProgramOp>() : ProgramOp();
  if (!program)
    return std::nullopt;
  unsigned number = 0;
  std::optional<unsigned> found;
  program.walk<WalkOrder::PreOrder>([&](LoopOp each) {
    if (each == loop) {
      found = number;
      return WalkResult::interrupt();
    }
    ++number;
    return WalkResult::advance();
  });
  return found;
}

waveasm::LoopOp waveasm::getLoopByNumber(ProgramOp program, unsigned number) {
  LoopOp found;
  unsigned seen = 0;
  program.walk<WalkOrder::PreOrder>([&](LoopOp each) {
    if (seen++ != number)
      return WalkResult::advance();
    found = each;
    return WalkResult::interrupt();
  });
  return found;
}
