//===- InstrTable.cpp - per-opcode modifier and operand rules -------------===//
//
// The instruction table the generic grammar is validated against: for every
// PTX ISA 9.0 opcode, which modifier spellings it accepts (in any order),
// how many type modifiers and operands it takes. Spellings are written as
// text so the table reads like the ISA manual; they are resolved against
// Modifiers.def once, at first use (a spelling missing from Modifiers.def is
// a bug caught by the InstrTable unit test via instrTableProblems()).
// Opcode families whose modifier grammar is large and still growing (cp.*,
// mma/wmma/wgmma/tcgen05, tex/surface, mbarrier, multimem, tensormap,
// clusterlaunchcontrol) accept every known spelling: for them only the
// spelling itself, duplicates and the operand/type bounds are checked.
//
//===----------------------------------------------------------------------===//
#include "Internal.h"

#include <array>
#include <mutex>

namespace ptx::detail {
namespace {

#define SPACES " global shared shared::cta shared::cluster local const param param::entry param::func "
#define SCOPES " cta cluster gpu sys "
#define RND " rn rz rm rp "
#define EVICT " L1::evict_normal L1::evict_unchanged L1::evict_first L1::evict_last L1::no_allocate " \
              " L2::evict_normal L2::evict_first L2::evict_last L2::evict_unchanged L2::cache_hint "
#define VEC " v2 v4 v8 "
#define CMP " eq ne lt le gt ge lo ls hi hs equ neu ltu leu gtu geu num nan "
#define ATOMOPS " and or xor add inc dec exch cas min max "

struct Spec {
  Opcode op;
  uint8_t minOps, maxOps, minTypes, maxTypes;
  const char *mods; // nullptr = any known spelling
};

constexpr Spec kSpecs[] = {
    // Integer and floating-point arithmetic
    {Opcode::Add, 3, 3, 1, 1, " sat cc ftz relu" RND},
    {Opcode::Sub, 3, 3, 1, 1, " sat cc ftz relu" RND},
    {Opcode::Mul, 3, 3, 1, 1, " hi lo wide ftz sat" RND},
    {Opcode::Mad, 4, 4, 1, 1, " hi lo wide sat cc ftz" RND},
    {Opcode::Mul24, 3, 3, 1, 1, " hi lo"},
    {Opcode::Mad24, 4, 4, 1, 1, " hi lo sat"},
    {Opcode::Sad, 4, 4, 1, 1, ""},
    {Opcode::Div, 3, 3, 1, 1, " approx full ftz" RND},
    {Opcode::Rem, 3, 3, 1, 1, ""},
    {Opcode::Abs, 2, 2, 1, 1, " ftz relu"},
    {Opcode::Neg, 2, 2, 1, 1, " ftz relu"},
    {Opcode::Min, 3, 4, 1, 1, " ftz NaN xorsign abs relu"},
    {Opcode::Max, 3, 4, 1, 1, " ftz NaN xorsign abs relu"},
    {Opcode::Popc, 2, 2, 1, 1, ""},
    {Opcode::Clz, 2, 2, 1, 1, ""},
    {Opcode::Bfind, 2, 2, 1, 1, " shiftamt"},
    {Opcode::Fns, 4, 4, 1, 1, ""},
    {Opcode::Brev, 2, 2, 1, 1, ""},
    {Opcode::Bfe, 4, 4, 1, 1, ""},
    {Opcode::Bfi, 5, 5, 1, 1, ""},
    {Opcode::Bmsk, 3, 3, 1, 1, " clamp wrap"},
    {Opcode::Szext, 3, 3, 1, 1, " clamp wrap"},
    {Opcode::Dp4a, 4, 4, 2, 2, ""},
    {Opcode::Dp2a, 4, 4, 2, 2, " lo hi"},
    {Opcode::Addc, 3, 3, 1, 1, " cc"},
    {Opcode::Subc, 3, 3, 1, 1, " cc"},
    {Opcode::Madc, 4, 4, 1, 1, " hi lo cc"},
    {Opcode::Fma, 4, 4, 1, 1, " ftz sat relu oob" RND},
    {Opcode::Rcp, 2, 2, 1, 1, " approx ftz" RND},
    {Opcode::Sqrt, 2, 2, 1, 1, " approx ftz" RND},
    {Opcode::Rsqrt, 2, 2, 1, 1, " approx ftz"},
    {Opcode::Sin, 2, 2, 1, 1, " approx ftz"},
    {Opcode::Cos, 2, 2, 1, 1, " approx ftz"},
    {Opcode::Lg2, 2, 2, 1, 1, " approx ftz"},
    {Opcode::Ex2, 2, 2, 1, 1, " approx ftz"},
    {Opcode::Tanh, 2, 2, 1, 1, " approx"},
    {Opcode::Testp, 2, 2, 1, 1, " finite infinite number notanumber normal subnormal"},
    {Opcode::Copysign, 3, 3, 1, 1, ""},
    // Comparison and selection
    {Opcode::Set, 3, 4, 2, 2, " and or xor ftz" CMP},
    {Opcode::Setp, 3, 4, 1, 1, " and or xor ftz" CMP},
    {Opcode::Selp, 4, 4, 1, 1, ""},
    {Opcode::Slct, 4, 4, 2, 2, " ftz"},
    // Logic and shift
    {Opcode::And, 3, 3, 1, 1, ""},
    {Opcode::Or, 3, 3, 1, 1, ""},
    {Opcode::Xor, 3, 3, 1, 1, ""},
    {Opcode::Not, 2, 2, 1, 1, ""},
    {Opcode::Cnot, 2, 2, 1, 1, ""},
    {Opcode::Lop3, 5, 6, 1, 1, " and or"},
    {Opcode::Shf, 4, 4, 1, 1, " l r clamp wrap"},
    {Opcode::Shl, 3, 3, 1, 1, ""},
    {Opcode::Shr, 3, 3, 1, 1, ""},
    // Data movement and conversion
    {Opcode::Mov, 2, 2, 1, 1, " v2 v4"},
    {Opcode::Shfl, 4, 5, 1, 1, " sync up down bfly idx"},
    {Opcode::Prmt, 4, 4, 1, 1, " f4e b4e rc8 ecl ecr rc16"},
    {Opcode::Ld, 2, 3, 1, 1, SPACES SCOPES VEC EVICT
         " weak volatile relaxed acquire mmio nc unified ca cg cs lu cv L2::64B L2::128B L2::256B"},
    {Opcode::Ldu, 2, 2, 1, 1, " global v2 v4"},
    {Opcode::St, 2, 4, 0, 1, SPACES SCOPES VEC EVICT
         " weak volatile relaxed release mmio wb cg cs wt async bulk mbarrier::complete_tx::bytes"},
    {Opcode::Prefetch, 1, 1, 0, 0, " global local param const L1 L2 L2::evict_last L2::evict_normal tensormap"},
    {Opcode::Prefetchu, 1, 1, 0, 0, " L1"},
    {Opcode::Isspacep, 2, 2, 0, 0, SPACES},
    {Opcode::Cvta, 2, 2, 1, 1, " to" SPACES},
    {Opcode::Cvt, 2, 4, 2, 3, " rna rs rni rzi rmi rpi ftz sat relu satfinite pack frnd2 e2m1 e3m2 e2m3"
                              " ue8m0 s2f6x2 scaled::n2::ue8m0 s4 u4 s2 u2 b1" RND},
    {Opcode::Cp, 0, 8, 0, 3, nullptr},
    {Opcode::Createpolicy, 2, 4, 1, 1, " fractional range cvt L2::evict_last L2::evict_normal L2::evict_first"
                                       " L2::evict_unchanged"},
    {Opcode::Discard, 2, 2, 0, 0, " global L2"},
    {Opcode::Applypriority, 2, 2, 0, 0, " global L2::evict_normal"},
    {Opcode::Mapa, 3, 3, 1, 1, " shared::cluster"},
    {Opcode::Getctarank, 2, 2, 1, 1, " shared::cluster"},
    {Opcode::Multimem, 2, 4, 0, 2, nullptr},
    {Opcode::Stmatrix, 2, 2, 1, 1, nullptr},
    {Opcode::Ldmatrix, 2, 2, 0, 1, nullptr},
    {Opcode::Movmatrix, 2, 2, 1, 1, nullptr},
    // Texture and surface
    {Opcode::Tex, 2, 6, 1, 2, nullptr},
    {Opcode::Tld4, 2, 6, 1, 2, nullptr},
    {Opcode::Txq, 2, 3, 0, 1, nullptr},
    {Opcode::Suld, 2, 2, 1, 1, nullptr},
    {Opcode::Sust, 2, 2, 1, 1, nullptr},
    {Opcode::Sured, 3, 3, 1, 1, nullptr},
    {Opcode::Suq, 2, 2, 1, 1, nullptr},
    {Opcode::Istypep, 2, 2, 1, 1, nullptr},
    // Control flow
    {Opcode::Bra, 1, 1, 0, 0, " uni"},
    {Opcode::Brx, 2, 2, 0, 0, " idx uni"},
    {Opcode::Call, 1, 4, 0, 0, " uni"},
    {Opcode::Ret, 0, 0, 0, 0, " uni"},
    {Opcode::Exit, 0, 0, 0, 0, ""},
    // Parallel synchronization and communication
    {Opcode::Bar, 0, 4, 0, 1, " sync arrive red warp cta aligned popc and or"},
    {Opcode::Barrier, 0, 4, 0, 1, " sync arrive red aligned cluster wait release relaxed acquire cta popc and or"},
    {Opcode::Membar, 0, 0, 0, 0, " cta gl sys proxy alias"},
    {Opcode::Fence, 0, 2, 0, 0, " sc acq_rel acquire release" SCOPES " proxy alias async async::generic"
                                " tensormap::generic op_restrict mbarrier_init sync_restrict::shared::cluster"
                                " sync_restrict::shared::cta global shared::cta shared::cluster"},
    {Opcode::Atom, 3, 5, 1, 1, SPACES SCOPES ATOMOPS VEC " relaxed acquire release acq_rel noftz L2::cache_hint"},
    {Opcode::Red, 2, 4, 1, 1, SPACES SCOPES ATOMOPS VEC " relaxed release noftz L2::cache_hint async"
                              " mbarrier::complete_tx::bytes"},
    {Opcode::Vote, 2, 3, 1, 1, " sync all any uni ballot"},
    {Opcode::Match, 3, 4, 1, 1, " sync any all"},
    {Opcode::Activemask, 1, 1, 1, 1, ""},
    {Opcode::Redux, 3, 3, 1, 1, " sync add min max and or xor abs NaN"},
    {Opcode::Griddepcontrol, 0, 0, 0, 0, " launch_dependents wait"},
    {Opcode::Elect, 2, 2, 0, 0, " sync"},
    {Opcode::Mbarrier, 1, 4, 0, 1, nullptr},
    {Opcode::Nanosleep, 1, 1, 1, 1, ""},
    {Opcode::Trap, 0, 0, 0, 0, ""},
    {Opcode::Brkpt, 0, 0, 0, 0, ""},
    {Opcode::Pmevent, 1, 1, 0, 0, " mask"},
    {Opcode::Setmaxnreg, 1, 1, 1, 1, " inc dec sync aligned"},
    {Opcode::Clusterlaunchcontrol, 1, 4, 0, 2, nullptr},
    // Matrix and tensor
    {Opcode::Wmma, 2, 6, 0, 4, nullptr},
    {Opcode::Mma, 4, 8, 0, 4, nullptr},
    {Opcode::Wgmma, 0, 10, 0, 3, nullptr},
    {Opcode::Tcgen05, 0, 10, 0, 2, nullptr},
    // Video
    {Opcode::Vadd, 3, 4, 3, 3, " sat add min max"},
    {Opcode::Vsub, 3, 4, 3, 3, " sat add min max"},
    {Opcode::Vabsdiff, 3, 4, 3, 3, " sat add min max"},
    {Opcode::Vmin, 3, 4, 3, 3, " sat add min max"},
    {Opcode::Vmax, 3, 4, 3, 3, " sat add min max"},
    {Opcode::Vshl, 3, 4, 3, 3, " sat add min max clamp wrap"},
    {Opcode::Vshr, 3, 4, 3, 3, " sat add min max clamp wrap"},
    {Opcode::Vmad, 4, 4, 3, 3, " sat shr7 shr15 po"},
    {Opcode::Vset, 3, 4, 2, 2, " add min max" CMP},
    {Opcode::Vadd2, 3, 4, 3, 3, " sat add"},
    {Opcode::Vsub2, 3, 4, 3, 3, " sat add"},
    {Opcode::Vavrg2, 3, 4, 3, 3, " sat add"},
    {Opcode::Vabsdiff2, 3, 4, 3, 3, " sat add"},
    {Opcode::Vmin2, 3, 4, 3, 3, " sat add"},
    {Opcode::Vmax2, 3, 4, 3, 3, " sat add"},
    {Opcode::Vset2, 3, 4, 2, 2, " add" CMP},
    {Opcode::Vadd4, 3, 4, 3, 3, " sat add"},
    {Opcode::Vsub4, 3, 4, 3, 3, " sat add"},
    {Opcode::Vavrg4, 3, 4, 3, 3, " sat add"},
    {Opcode::Vabsdiff4, 3, 4, 3, 3, " sat add"},
    {Opcode::Vmin4, 3, 4, 3, 3, " sat add"},
    {Opcode::Vmax4, 3, 4, 3, 3, " sat add"},
    {Opcode::Vset4, 3, 4, 2, 2, " add" CMP},
    // Miscellaneous
    {Opcode::Alloca, 2, 3, 1, 1, " local"},
    {Opcode::Stacksave, 1, 1, 1, 1, " local"},
    {Opcode::Stackrestore, 1, 1, 1, 1, " local"},
    {Opcode::Tensormap, 1, 4, 0, 2, nullptr},
};

struct Table {
  std::vector<InstrRule> rules;
  std::vector<std::string> problems;
};

const Table &table() {
  static const Table *t = [] {
    auto *tb = new Table;
    tb->rules.resize(numOpcodes());
    for (size_t i = 0; i < tb->rules.size(); ++i) {
      tb->rules[i].op = Opcode(i);
      tb->rules[i].anyMod = true;
      tb->rules[i].maxOps = 255;
      tb->rules[i].maxTypes = 255;
    }
    std::vector<bool> seen(numOpcodes());
    for (const auto &s : kSpecs) {
      auto &r = tb->rules[size_t(s.op)];
      seen[size_t(s.op)] = true;
      r.minOps = s.minOps;
      r.maxOps = s.maxOps;
      r.minTypes = s.minTypes;
      r.maxTypes = s.maxTypes;
      r.anyMod = s.mods == nullptr;
      if (!s.mods) continue;
      std::string_view v = s.mods;
      while (!v.empty()) {
        auto b = v.find_first_not_of(' ');
        if (b == std::string_view::npos) break;
        v.remove_prefix(b);
        auto e = v.find(' ');
        auto word = v.substr(0, e);
        v.remove_prefix(e == std::string_view::npos ? v.size() : e);
        if (auto m = modFromName(word)) {
          r.mods.set(size_t(*m));
        } else {
          tb->problems.push_back("instruction table: '" + std::string(opcodeName(s.op)) +
                                 "' lists unknown modifier '." + std::string(word) + "'");
        }
      }
    }
    for (size_t i = 1; i < seen.size(); ++i)
      if (!seen[i])
        tb->problems.push_back("instruction table: no rule for '" +
                               std::string(opcodeName(Opcode(i))) + "'");
    if (numMods() > kMaxMods) tb->problems.push_back("instruction table: too many modifiers");
    return tb;
  }();
  return *t;
}

} // namespace

const InstrRule &instrRule(Opcode op) {
  const auto &t = table();
  size_t i = size_t(op);
  return i < t.rules.size() ? t.rules[i] : t.rules[0];
}

std::vector<std::string> instrTableProblems() { return table().problems; }

} // namespace ptx::detail
