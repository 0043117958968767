//===- RandomLoopText.h - op lines of random loop tests -------*- C++ -*-===//
//
// The text of the ops the random loops of the cycle model's tests
// (LoopBoundsTest, CycleSimulatorTest) are made of, and the program around
// such a loop: one spelling, so the generators differ only in which ops
// they pick. The values they name (%srd, %c0, %a, ...) come from
// CycleModelTestUtils.h's prelude and the tests' own.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_TESTS_UNIT_RANDOMLOOPTEXT_H
#define WAVEASM_TESTS_UNIT_RANDOMLOOPTEXT_H

#include <string>
#include <vector>

namespace waveasm::test::loop_text {

inline std::string dsReadB32(const std::string &t, const std::string &addr) {
  return "    " + t + " = waveasm.ds_read_b32 " + addr +
         " : !waveasm.vreg -> !waveasm.vreg\n";
}

inline std::string dsReadB128(const std::string &t, const std::string &addr) {
  return "    " + t + " = waveasm.ds_read_b128 " + addr +
         " : !waveasm.vreg -> !waveasm.vreg<4, 4>\n";
}

inline std::string dsWriteB32(const std::string &data,
                              const std::string &addr) {
  return "    waveasm.ds_write_b32 " + data + ", " + addr +
         " : !waveasm.vreg, !waveasm.vreg\n";
}

inline std::string bufferLoad(const std::string &t, const std::string &addr) {
  return "    " + t + " = waveasm.buffer_load_dword %srd, " + addr +
         ", %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> "
         "-> !waveasm.vreg\n";
}

inline std::string bufferStore(const std::string &data,
                               const std::string &addr) {
  return "    waveasm.buffer_store_dword " + data + ", %srd, " + addr +
         " : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg\n";
}

inline std::string vAdd(const std::string &t, const std::string &a,
                        const std::string &b) {
  return "    " + t + " = waveasm.v_add_u32 " + a + ", " + b +
         " : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg\n";
}

/// A 16x16x16 f16 MFMA of %a by %a into `acc`.
inline std::string mfma(const std::string &t, const std::string &acc) {
  return "    " + t + " = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, " + acc +
         " : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, "
         "!waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>\n";
}

inline const char *barrier() { return "    waveasm.s_barrier\n"; }

/// The iter_args of a random loop: the counter %i, `numV` VGPRs %v<j> from
/// %p0 and `numAcc` 4-VGPR accumulators %acc<j> from %z.
struct LoopArgs {
  std::vector<std::string> v, acc;
  std::string args = "%i = %i0", types = "!waveasm.sreg";

  LoopArgs(unsigned numV, unsigned numAcc) {
    for (unsigned j = 0; j < numV; ++j) {
      v.push_back("%v" + std::to_string(j));
      args += ", " + v.back() + " = %p0";
      types += ", !waveasm.vreg";
    }
    for (unsigned j = 0; j < numAcc; ++j) {
      acc.push_back("%acc" + std::to_string(j));
      args += ", " + acc.back() + " = %z";
      types += ", !waveasm.vreg<4, 4>";
    }
  }
};

/// `body` as a loop of 10 trips over `loopArgs` (results %r), counted by
/// %i, yielding `yields` (", "-led, one per VGPR and accumulator argument),
/// then the program's end.
inline std::string countedLoop(const LoopArgs &loopArgs,
                               const std::string &body,
                               const std::string &yields) {
  std::string yieldTypes;
  for (size_t j = 0; j < loopArgs.v.size(); ++j)
    yieldTypes += ", !waveasm.vreg";
  for (size_t j = 0; j < loopArgs.acc.size(); ++j)
    yieldTypes += ", !waveasm.vreg<4, 4>";
  return "  %r:" + std::to_string(1 + loopArgs.v.size() + loopArgs.acc.size()) +
         " = waveasm.loop (" + loopArgs.args + ") : (" + loopArgs.types +
         ") -> (" + loopArgs.types + ") {\n" + body +
         "    %i_n, %scc = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, "
         "!waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc\n"
         "    %more = waveasm.s_cmp_lt_u32 %i_n, %c4 : !waveasm.sreg, "
         "!waveasm.imm<4> -> !waveasm.scc\n"
         "    waveasm.condition %more : !waveasm.scc iter_args(%i_n" +
         yields + ") : !waveasm.sreg" + yieldTypes +
         "\n  } {trip_count = 10 : i64}\n  waveasm.s_endpgm";
}

/// `body` (the prelude and the loop) as a gfx942 program of `waves` waves.
inline std::string programOfWaves(unsigned waves, const std::string &body) {
  return "waveasm.program @k target = #waveasm.target<#waveasm.gfx942> "
         "abi = #waveasm.abi<> attributes {workgroup_size = [" +
         std::to_string(64 * waves) + ", 1, 1]} {\n" + body + "\n}\n";
}

} // namespace waveasm::test::loop_text

#endif // WAVEASM_TESTS_UNIT_RANDOMLOOPTEXT_H
