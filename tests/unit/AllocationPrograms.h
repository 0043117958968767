//===- AllocationPrograms.h - random programs for allocation -*- C++ -*-===//
//
// Random well-formed programs with every construct allocation meets: tuples
// of each register class, packs, extracts, inserts, MFMAs with tied
// accumulators, loops with carried values and ifs with results, and
// precolored stand-ins of ABI registers. The linear scan's tests allocate
// them; loop address promotion's pressure bound is checked on them.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_TESTS_UNIT_ALLOCATIONPROGRAMS_H
#define WAVEASM_TESTS_UNIT_ALLOCATIONPROGRAMS_H

#include <random>
#include <string>
#include <vector>

namespace waveasm::test::allocation {

enum Kind { V1, V2, V4, V4U, S1, S2, A4, kNumKinds };
inline const char *kTypes[] = {"!waveasm.vreg",       "!waveasm.vreg<2, 2>",
                               "!waveasm.vreg<4, 4>", "!waveasm.vreg<4>",
                               "!waveasm.sreg",       "!waveasm.sreg<2, 2>",
                               "!waveasm.areg<4, 4>"};

/// Random well-formed programs. Every value has a kind (its virtual type);
/// a few are physical or precolored stand-ins of a kind (ABI registers).
class Generator {
public:
  /// `vgprBase`: where the precolored VGPR tuples live (%pq and those the
  /// program defines on the way).
  explicit Generator(unsigned seed, int vgprBase = 100)
      : rng(seed), vgprBase(vgprBase), nextVGPR(vgprBase + 4),
        vgprEnd(vgprBase < 16 ? 12 : 196) {}

  std::string program() {
    out = "waveasm.program @fuzz target = #waveasm.target<#waveasm.gfx942> "
          "abi = #waveasm.abi<> {\n";
    scopes.emplace_back();
    line("%tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>");
    line("%srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>");
    line("%pv = waveasm.precolored.vreg 200 : !waveasm.vreg");
    line("%pq = waveasm.precolored.vreg " + std::to_string(vgprBase) +
         ", 4 : !waveasm.vreg<4, 4>");
    line("%ps = waveasm.precolored.sreg 40 : !waveasm.sreg");
    line("%pa = waveasm.precolored.areg 200, 4 : !waveasm.areg<4, 4>");
    line("%c0 = waveasm.constant 0 : !waveasm.imm<0>");
    line("%c3 = waveasm.constant 3 : !waveasm.imm<3>");
    line("%c7 = waveasm.constant 7 : !waveasm.imm<7>");
    add(V1, "%tid", "!waveasm.pvreg<0>");
    add(V1, "%pv");
    add(V4, "%pq");
    add(S1, "%ps");
    add(A4, "%pa");
    make(V1);
    make(S1);
    make(V4);
    block(0, 25 + rng() % 30);
    for (int i = 0; i < 4; ++i)
      use();
    line("waveasm.s_endpgm");
    out += "}\n";
    return out;
  }

private:
  struct Val {
    std::string name;
    Kind kind;
    std::string type;
  };
  std::mt19937 rng;
  int vgprBase;
  // Fresh precolored quads: the next base and the end of the range (VGPRs
  // stay below v15 and v200, which other precolored values use).
  int nextVGPR, vgprEnd;
  int nextSGPR = 52, nextAGPR = 204;
  std::string out;
  int indent = 1;
  int counter = 0;
  std::vector<std::vector<Val>> scopes;

  bool chance(unsigned percent) { return rng() % 100 < percent; }
  void line(const std::string &s) {
    out += std::string(2 * indent, ' ') + s + "\n";
  }
  std::string def(const std::string &rhs) {
    std::string n = "%v" + std::to_string(counter++);
    line(n + " = " + rhs);
    return n;
  }
  void add(Kind k, const std::string &n, std::string type = "") {
    scopes.back().push_back({n, k, type.empty() ? kTypes[k] : type});
  }
  std::string ty(const std::string &name) {
    for (auto &scope : scopes)
      for (const Val &v : scope)
        if (v.name == name)
          return v.type;
    return "?";
  }
  Kind kindOf(const std::string &name) {
    for (auto &scope : scopes)
      for (const Val &v : scope)
        if (v.name == name)
          return v.kind;
    return kNumKinds;
  }
  /// A visible value of kind `k`, recent ones preferred; "" if none.
  std::string pick(Kind k) {
    std::vector<const Val *> all;
    for (auto &scope : scopes)
      for (const Val &v : scope)
        if (v.kind == k)
          all.push_back(&v);
    if (all.empty())
      return "";
    size_t n = all.size();
    size_t i = chance(60) ? n - 1 - rng() % std::min<size_t>(n, 4) : rng() % n;
    return all[i]->name;
  }
  std::string need(Kind k) {
    std::string n = pick(k);
    return n.empty() ? make(k) : n;
  }
  /// `need(k)` restricted to virtual types (for ops that demand them).
  std::string needVirtual(Kind k) {
    std::string n = need(k);
    return ty(n) == kTypes[k] ? n : make(k);
  }
  std::string make(Kind k) {
    std::string n;
    switch (k) {
    case V1:
      if (chance(20)) {
        std::string s = need(S1);
        n = def("waveasm.v_mov_b32 " + s + " : " + ty(s) + " -> !waveasm.vreg");
      } else if (chance(8)) {
        std::string a = need(V1);
        n = def("waveasm.buffer_load_ubyte %srd, " + a +
                ", %c0 : !waveasm.psreg<4, 4>, " + ty(a) +
                ", !waveasm.imm<0> -> !waveasm.vreg");
      } else if (chance(10)) {
        std::string p = need(S2), a = need(V1);
        n = def("waveasm.global_load_dword " + p + ", " + a + ", %c0 : " +
                ty(p) + ", " + ty(a) + ", !waveasm.imm<0> -> !waveasm.vreg");
      } else {
        std::string a = need(V1);
        n = def("waveasm.v_add_u32 " + a + ", %tid : " + ty(a) +
                ", !waveasm.pvreg<0> -> !waveasm.vreg");
      }
      break;
    case V2: {
      std::string a = need(V1);
      n = def("waveasm.ds_read_b64 " + a + " : " + ty(a) +
              " -> !waveasm.vreg<2, 2>");
      break;
    }
    case V4:
    case V4U: {
      std::string a = need(V1);
      n = def("waveasm.buffer_load_dwordx4 %srd, " + a +
              ", %c0 : !waveasm.psreg<4, 4>, " + ty(a) +
              ", !waveasm.imm<0> -> " + kTypes[k]);
      break;
    }
    case S1:
      if (chance(40)) {
        n = def("waveasm.s_mov_b32 %c3 : !waveasm.imm<3> -> !waveasm.sreg");
      } else {
        std::string a = need(S1), b = need(S1);
        n = def("waveasm.s_mul_i32 " + a + ", " + b + " : " + ty(a) + ", " +
                ty(b) + " -> !waveasm.sreg");
      }
      break;
    case S2:
      n = def("waveasm.s_load_dwordx2 %srd, %c0 : !waveasm.psreg<4, 4>, "
              "!waveasm.imm<0> -> !waveasm.sreg<2, 2>");
      break;
    case A4:
      n = def("waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.areg<4, 4>");
      break;
    default:
      break;
    }
    add(k, n);
    return n;
  }

  void use() {
    switch (rng() % 6) {
    case 0: {
      std::string a = need(V1), b = need(V1);
      line("waveasm.buffer_store_dword " + a + ", %srd, " + b + " : " + ty(a) +
           ", !waveasm.psreg<4, 4>, " + ty(b));
      break;
    }
    case 1:
    case 5: {
      std::string a = need(chance(50) ? V4 : V4U), b = need(V1);
      line("waveasm.buffer_store_dwordx4 " + a + ", %srd, " + b + " : " +
           ty(a) + ", !waveasm.psreg<4, 4>, " + ty(b));
      break;
    }
    case 2: {
      std::string s = need(S1);
      line("waveasm.s_mov_b32_m0 " + s + " : " + ty(s));
      break;
    }
    case 3: {
      std::string a = need(A4);
      add(V4, def("waveasm.v_accvgpr_read_b32 " + a + " : " + ty(a) +
                  " -> !waveasm.vreg<4, 4>"));
      break;
    }
    default: {
      std::string p = need(S2), a = need(V1);
      line("waveasm.global_store_dword " + a + ", " + p + ", " + a + " : " +
           ty(a) + ", " + ty(p) + ", " + ty(a));
      break;
    }
    }
  }

  void statement(int depth) {
    unsigned r = rng() % 100;
    if (r < 18) {
      make(static_cast<Kind>(rng() % kNumKinds));
    } else if (r < 30) {
      // MFMA chain step; accumulator VGPR or AGPR, sometimes an immediate.
      Kind acc = chance(30) ? A4 : V4;
      std::string a = need(V2), b = chance(15) ? a : need(V2);
      std::string c = chance(10) ? "%c0" : need(acc);
      std::string ct = c == "%c0" ? "!waveasm.imm<0>" : ty(c);
      add(acc,
          def("waveasm.v_mfma_f32_16x16x16_f16 " + a + ", " + b + ", " + c +
              " : " + ty(a) + ", " + ty(b) + ", " + ct + " -> " + kTypes[acc]));
    } else if (r < 38) {
      use();
    } else if (r < 44) {
      std::string src = need(V4);
      if (chance(50))
        add(V1, def("waveasm.extract " + src + "[" + std::to_string(rng() % 4) +
                    "] : " + ty(src) + " -> !waveasm.vreg"));
      else
        add(V2, def("waveasm.extract " + src + "[" +
                    std::to_string(2 * (rng() % 2)) + "] : " + ty(src) +
                    " -> !waveasm.vreg<2, 2>"));
    } else if (r < 50) {
      // pack (operands may repeat, be extracts, block arguments, physical)
      bool four = chance(50);
      std::vector<std::string> ops;
      for (int i = 0; i < (four ? 4 : 2); ++i)
        ops.push_back(chance(70) ? make(V1) : need(V1));
      std::string list, types;
      for (size_t i = 0; i < ops.size(); ++i) {
        list += (i ? ", " : "") + ops[i];
        types += (i ? ", " : "") + ty(ops[i]);
      }
      Kind k = four ? V4 : V2;
      add(k,
          def("waveasm.pack " + list + " : (" + types + ") -> " + kTypes[k]));
    } else if (r < 55) {
      std::string val = need(V1), src = needVirtual(V4);
      add(V4, def("waveasm.insert " + val + " into " + src + "[" +
                  std::to_string(rng() % 4) + "] : " + ty(val) + ", " +
                  ty(src) + " -> " + ty(src)));
    } else if (r < 62) {
      precoloredTuple();
    } else if (r < 68 && depth < 2) {
      loop(depth);
    } else if (r < 76 && depth < 2) {
      ifOp(depth);
    } else {
      make(chance(50) ? V1 : S1);
    }
  }

  /// A precolored tuple defined here, at fresh registers or at registers
  /// another precolored value names too: a VGPR or SGPR tuple with a word
  /// inserted (twice, now and then), or an MFMA accumulator (VGPR or AGPR).
  void precoloredTuple() {
    // A fresh quad while there is room, else the same base as %pq / %pa or
    // one overlapping two quads.
    auto base = [&](int shared, int &next, int end) {
      if (chance(60) && next + 4 <= end) {
        next += 4;
        return next - 4;
      }
      return shared + (chance(50) ? 0 : 2);
    };
    switch (rng() % 4) {
    case 0: {
      std::string t = def("waveasm.precolored.vreg " +
                          std::to_string(base(vgprBase, nextVGPR, vgprEnd)) +
                          ", 4 : !waveasm.vreg<4, 4>");
      std::string v = need(V1);
      std::string q = def("waveasm.insert " + v + " into " + t + "[" +
                          std::to_string(rng() % 4) + "] : " + ty(v) +
                          ", !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>");
      if (chance(40)) {
        std::string w = need(V1);
        q = def("waveasm.insert " + w + " into " + q + "[" +
                std::to_string(rng() % 4) + "] : " + ty(w) +
                ", !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>");
      }
      add(V4, q);
      if (chance(30))
        add(V4, t); // the tuple itself may be read again later
      break;
    }
    case 1: {
      // A buffer descriptor with its word 2 (the size) replaced.
      std::string t = def("waveasm.precolored.sreg " +
                          std::to_string(base(48, nextSGPR, 100)) +
                          ", 4 : !waveasm.sreg<4, 4>");
      std::string s = need(S1), a = need(V1), v = need(V1);
      std::string d =
          def("waveasm.insert " + s + " into " + t + "[2] : " + ty(s) +
              ", !waveasm.sreg<4, 4> -> !waveasm.sreg<4, 4>");
      line("waveasm.buffer_store_dword " + v + ", " + d + ", " + a + " : " +
           ty(v) + ", !waveasm.sreg<4, 4>, " + ty(a));
      if (chance(30))
        line("waveasm.buffer_store_dword " + v + ", " + t + ", " + a + " : " +
             ty(v) + ", !waveasm.sreg<4, 4>, " + ty(a));
      break;
    }
    default: {
      bool agpr = rng() % 2;
      Kind k = agpr ? A4 : V4;
      int index =
          agpr ? base(200, nextAGPR, 256) : base(vgprBase, nextVGPR, vgprEnd);
      std::string t = def(std::string(agpr ? "waveasm.precolored.areg "
                                           : "waveasm.precolored.vreg ") +
                          std::to_string(index) + ", 4 : " + kTypes[k]);
      std::string a = need(V2), b = need(V2);
      add(k, def("waveasm.v_mfma_f32_16x16x16_f16 " + a + ", " + b + ", " + t +
                 " : " + ty(a) + ", " + ty(b) + ", " + kTypes[k] + " -> " +
                 kTypes[k]));
      if (chance(30))
        add(k, t);
      break;
    }
    }
  }

  void block(int depth, int n) {
    for (int i = 0; i < n; ++i)
      statement(depth);
  }

  void loop(int depth) {
    int n = rng() % 5;
    std::vector<Kind> kinds;
    std::vector<std::string> inits;
    for (int i = 0; i < n; ++i) {
      Kind k = static_cast<Kind>(rng() % kNumKinds);
      std::string init;
      if (i > 0 && chance(15)) { // duplicated init
        int j = rng() % i;
        k = kinds[j];
        init = inits[j];
      } else {
        init = need(k);
      }
      kinds.push_back(k);
      inits.push_back(init);
    }
    std::string r = "%l" + std::to_string(counter++);
    std::string assigns, types;
    std::vector<std::string> args;
    for (int i = 0; i < n; ++i) {
      args.push_back(r + "a" + std::to_string(i));
      assigns += (i ? ", " : "") + args[i] + " = " + inits[i];
      if (ty(inits[i]) != kTypes[kinds[i]])
        assigns += " : " + ty(inits[i]);
      types += std::string(i ? ", " : "") + kTypes[kinds[i]];
    }
    std::string head =
        n == 0 ? ""
               : (n == 1 ? r + " = " : r + ":" + std::to_string(n) + " = ");
    line(head + "waveasm.loop (" + assigns + ") : (" + types + ") -> (" +
         types + ") {");
    ++indent;
    scopes.emplace_back();
    for (int i = 0; i < n; ++i)
      add(kinds[i], args[i]);
    block(depth + 1, 3 + rng() % 10);
    std::string s = need(S1);
    std::string cmp = def("waveasm.s_cmp_lt_u32 " + s + ", %c7 : " + ty(s) +
                          ", !waveasm.imm<7> -> !waveasm.scc");
    std::vector<std::string> yields;
    for (int i = 0; i < n; ++i) {
      std::string y;
      unsigned c = rng() % 100;
      if (c < 15)
        y = args[rng() % n]; // swap / rotation / pass-through
      else if (c < 25 && i > 0)
        y = yields[rng() % i]; // same value twice
      if (y.empty() || kindOf(y) != kinds[i])
        y = need(kinds[i]);
      yields.push_back(y);
    }
    std::string list, ytypes;
    for (int i = 0; i < n; ++i) {
      list += (i ? ", " : "") + yields[i];
      ytypes += (i ? ", " : "") + ty(yields[i]);
    }
    if (n == 0)
      line("waveasm.condition " + cmp + " : !waveasm.scc");
    else
      line("waveasm.condition " + cmp + " : !waveasm.scc iter_args(" + list +
           ") : " + ytypes);
    scopes.pop_back();
    --indent;
    line("}");
    for (int i = 0; i < n; ++i)
      add(kinds[i], n == 1 ? r : r + "#" + std::to_string(i));
  }

  void ifOp(int depth) {
    int n = rng() % 3;
    std::vector<Kind> kinds;
    for (int i = 0; i < n; ++i)
      kinds.push_back(static_cast<Kind>(rng() % kNumKinds));
    std::string s = need(S1);
    std::string cmp = def("waveasm.s_cmp_lt_u32 " + s + ", %c3 : " + ty(s) +
                          ", !waveasm.imm<3> -> !waveasm.scc");
    std::string r = "%i" + std::to_string(counter++);
    std::string types;
    for (int i = 0; i < n; ++i)
      types += std::string(i ? ", " : "") + kTypes[kinds[i]];
    if (n == 0)
      line("waveasm.if " + cmp + " {");
    else
      line((n == 1 ? r : r + ":" + std::to_string(n)) + " = waveasm.if " + cmp +
           " : !waveasm.scc -> " + types + " {");
    for (int side = 0; side < 2; ++side) {
      ++indent;
      scopes.emplace_back();
      block(depth + 1, 1 + rng() % 6);
      std::string list, ytypes;
      for (int i = 0; i < n; ++i) {
        std::string v = need(kinds[i]);
        list += (i ? ", " : "") + v;
        ytypes += (i ? ", " : "") + ty(v);
      }
      line(n == 0 ? "waveasm.yield" : "waveasm.yield " + list + " : " + ytypes);
      scopes.pop_back();
      --indent;
      line(side == 0 ? "} else {" : "}");
    }
    for (int i = 0; i < n; ++i)
      add(kinds[i], n == 1 ? r : r + "#" + std::to_string(i));
  }
};

} // namespace waveasm::test::allocation

#endif // WAVEASM_TESTS_UNIT_ALLOCATIONPROGRAMS_H
