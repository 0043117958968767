//===- RandomPrograms.h - random WaveASM programs for tests -----*- C++ -*-===//

#ifndef WAVEASM_TESTS_UNIT_RANDOMPROGRAMS_H
#define WAVEASM_TESTS_UNIT_RANDOMPROGRAMS_H

#include <random>
#include <string>
#include <vector>

namespace waveasm::test {

/// Random programs: VALU chains whose results are stored, used later or
/// left dead; constants used or not; loops (pure or storing, nested) whose
/// results are used or not, with dead ops inside that use outer values.
class DeadCodeGenerator {
public:
  explicit DeadCodeGenerator(unsigned seed) : rng(seed) {}

  std::string program() {
    out = "waveasm.program @dce target = #waveasm.target<#waveasm.gfx942> "
          "abi = #waveasm.abi<> {\n";
    scopes.assign(1, {});
    line("%tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>");
    line("%srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>");
    line("%c0 = waveasm.constant 0 : !waveasm.imm<0>");
    line("%c1 = waveasm.constant 1 : !waveasm.imm<1>");
    line("%c8 = waveasm.constant 8 : !waveasm.imm<8>");
    line("%s0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg");
    scopes.back().push_back({"%tid", "!waveasm.pvreg<0>"});
    block(0, 10 + rng() % 30);
    line("waveasm.s_endpgm");
    out += "}\n";
    return out;
  }

private:
  struct Val {
    std::string name, type;
  };
  std::mt19937 rng;
  std::string out;
  int indent = 1, counter = 0;
  std::vector<std::vector<Val>> scopes;

  bool chance(unsigned percent) { return rng() % 100 < percent; }
  void line(const std::string &s) {
    out += std::string(2 * indent, ' ') + s + "\n";
  }
  std::string fresh(const char *prefix) {
    return prefix + std::to_string(counter++);
  }
  const Val &pick() {
    std::vector<const Val *> all;
    for (auto &scope : scopes)
      for (const Val &v : scope)
        all.push_back(&v);
    size_t n = all.size();
    return *all[chance(60) ? n - 1 - rng() % std::min<size_t>(n, 3)
                           : rng() % n];
  }
  std::string valu() {
    static const char *const ops[] = {"v_add_u32", "v_xor_b32", "v_and_b32",
                                      "v_or_b32"};
    Val a = pick(), b = pick();
    std::string n = fresh("%v");
    line(n + " = waveasm." + ops[rng() % 4] + " " + a.name + ", " + b.name +
         " : " + a.type + ", " + b.type + " -> !waveasm.vreg");
    scopes.back().push_back({n, "!waveasm.vreg"});
    return n;
  }
  void store() {
    Val v = pick(), a = pick();
    line("waveasm.buffer_store_dword " + v.name + ", %srd, " + a.name + " : " +
         v.type + ", !waveasm.psreg<4, 4>, " + a.type);
  }
  void constant() {
    unsigned k = rng() % 64;
    std::string c = fresh("%k");
    std::string ty = "!waveasm.imm<" + std::to_string(k) + ">";
    line(c + " = waveasm.constant " + std::to_string(k) + " : " + ty);
    if (chance(50)) {
      Val a = pick();
      std::string n = fresh("%v");
      line(n + " = waveasm.v_add_u32 " + a.name + ", " + c + " : " + a.type +
           ", " + ty + " -> !waveasm.vreg");
      scopes.back().push_back({n, "!waveasm.vreg"});
    }
  }
  void loop(int depth) {
    std::string res = fresh("%l"), iv = fresh("%i"), acc = fresh("%a");
    Val init = pick();
    line(res + ":2 = waveasm.loop (" + iv + " = %s0, " + acc + " = " +
         init.name + ") : (!waveasm.sreg, " + init.type +
         ") -> (!waveasm.sreg, !waveasm.vreg) {");
    ++indent;
    scopes.push_back({{acc, init.type}});
    bool pure = chance(50);
    int n = 1 + rng() % 6;
    for (int i = 0; i < n; ++i) {
      if (!pure && chance(25))
        store();
      else if (depth < 1 && chance(10))
        loop(depth + 1);
      else
        valu();
    }
    // The yielded value must have the block argument's type.
    std::string next = acc;
    if (init.type == "!waveasm.vreg")
      next = valu();
    std::string step = fresh("%n"), go = fresh("%g");
    line(step + ":2 = waveasm.s_add_u32 " + iv +
         ", %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, "
         "!waveasm.scc");
    line(go + " = waveasm.s_cmp_lt_u32 " + step +
         "#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc");
    line("waveasm.condition " + go + " : !waveasm.scc iter_args(" + step +
         "#0, " + next + ") : !waveasm.sreg, " + init.type);
    scopes.pop_back();
    --indent;
    line("}");
    if (init.type == "!waveasm.vreg" && chance(60))
      scopes.back().push_back({res + "#1", "!waveasm.vreg"});
  }
  void block(int depth, int n) {
    for (int i = 0; i < n; ++i) {
      unsigned r = rng() % 100;
      if (r < 45)
        valu();
      else if (r < 60)
        constant();
      else if (r < 75)
        store();
      else if (r < 85 && depth < 2)
        loop(depth);
      else
        for (int k = 0; k < 3; ++k)
          valu();
    }
  }
};

} // namespace waveasm::test

#endif // WAVEASM_TESTS_UNIT_RANDOMPROGRAMS_H
