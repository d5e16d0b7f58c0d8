//===- Tensor.cpp - wmma, mma.sync, ldmatrix / stmatrix / movmatrix --------===//
//
// Warp-collective matrix instructions, exact and wave-size agnostic: every
// lane holds the fragment elements of TensorLayouts.h; whatever a lane needs
// from another lane's registers it reads with the devlib's shfl.sync.idx
// (__ptx_shfl_sync_idx, full membermask), so the warp policy (wave32, wave64
// pack/pad) is handled where every other warp operation handles it.
//  - wmma.load / wmma.store: each lane reads / writes its own elements at
//    p + (row * stride + col) (row-major) or (col * stride + row) elements.
//  - wmma.mma / mma.sync: each lane gathers the A rows and B columns of its
//    D elements (one shuffle per distinct source register and source-lane
//    pattern), widens the factors exactly to double (integer products in
//    i32) and has the devlib add the products to C the way the H200's tensor
//    cores do (__ptx_tc_dot_f32/_f16, devlib tensor.c).
//    Integer forms wrap (or saturate with .satfinite).
//  - ldmatrix / stmatrix: lane 8j+r gives the row address of row r of matrix
//    j; each lane shuffles the row addresses it needs and loads / stores its
//    own 32-bit pair (or, with .trans, two 16-bit elements of two rows).
//  - movmatrix.trans: a transposing gather.
// Lane-dependent quantities (coordinates, source lanes) are computed from
// %laneid: as a sum of lane bits times constants when the table is linear in
// the lane bits (every ISA table is), else by a constant-table load.
//  - mma.m8n8k4.f64: a chain of double FMAs in k order.
// Unsupported shapes/types (m8n8k4 f16, wmma f64, sub-byte, sparse, fp8,
// block-scaled) are errors naming them.
//
//===----------------------------------------------------------------------===//
#include "TensorLayouts.h"
#include "Translator.h"

#include <array>
#include <map>
#include <optional>

using namespace llvm;
using ptx::Mod;
using ptx::Opcode;
namespace tl = ptx2llvm::tensor;

namespace ptx2llvm {
namespace {

using LaneTable = std::array<int, 32>;

struct Warp {
  FnCtx &fc;
  Value *lane = nullptr;
  explicit Warp(FnCtx &fc) : fc(fc) { lane = fc.call("__ptx_sreg_laneid", fc.i32(), {}); }

  // f(lane) for a table over the 32 lanes.
  Value *map(const LaneTable &tab) {
    auto &b = fc.b;
    int base = tab[0];
    int w[5];
    bool linear = true;
    for (int bit = 0; bit < 5; ++bit) w[bit] = tab[size_t(1) << bit] - base;
    for (int l = 0; l < 32 && linear; ++l) {
      int v = base;
      for (int bit = 0; bit < 5; ++bit) if (l >> bit & 1) v += w[bit];
      linear = v == tab[size_t(l)];
    }
    if (linear) {
      Value *v = b.getInt32(uint32_t(base));
      for (int bit = 0; bit < 5; ++bit) {
        if (!w[bit]) continue;
        Value *x = b.CreateAnd(b.CreateLShr(lane, bit), 1);
        v = b.CreateAdd(v, b.CreateMul(x, b.getInt32(uint32_t(w[bit]))));
      }
      return v;
    }
    std::vector<Constant *> elems;
    for (int x : tab) elems.push_back(b.getInt32(uint32_t(x)));
    auto *ty = ArrayType::get(fc.i32(), 32);
    auto *gv = new GlobalVariable(fc.mc.m, ty, true, GlobalValue::PrivateLinkage, ConstantArray::get(ty, elems),
                                  "ptx2amd.lanetable", nullptr, GlobalValue::NotThreadLocal, ConstAS);
    gv->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    Value *p = b.CreateInBoundsGEP(ty, gv, {b.getInt32(0), lane});
    return b.CreateLoad(fc.i32(), p);
  }

  Value *shfl(Value *v32, Value *src) {
    auto &b = fc.b;
    Value *r = fc.call("__ptx_shfl_sync_idx", fc.i64(), {b.getInt32(0xffffffffu), v32, src, b.getInt32(0x1f)}, true);
    return b.CreateTrunc(r, fc.i32());
  }
};

// A fragment: its layout and its registers (i32 bit patterns).
struct Frag {
  tl::Layout layout;
  std::vector<Value *> regs;
};

// Gathers elements of a fragment held by other lanes; shuffles are shared between needs that read the
// same register with the same source-lane pattern.
class Gatherer {
public:
  Gatherer(Warp &w, const Frag &f) : w_(w), f_(f) {
    for (int l = 0; l < 32; ++l)
      for (int i = 0; i < f.layout.elems; ++i)
        owners_[{f.layout.row(l, i), f.layout.col(l, i)}].push_back({i, l});
    for (auto &[rc, v] : owners_) std::sort(v.begin(), v.end());
  }

  // The element (need[l].first, need[l].second) for each lane l, as the low `bits` of an i32; nullptr
  // when no element index holds it uniformly over the lanes.
  Value *get(const std::array<std::pair<int, int>, 32> &need) {
    auto it0 = owners_.find(need[0]);
    if (it0 == owners_.end()) return nullptr;
    for (auto [i, l0] : it0->second) {
      LaneTable src{};
      bool ok = true;
      for (int l = 0; l < 32 && ok; ++l) {
        auto it = owners_.find(need[size_t(l)]);
        ok = false;
        if (it == owners_.end()) break;
        for (auto [j, lj] : it->second)
          if (j == i) { src[size_t(l)] = lj; ok = true; break; }
      }
      if (!ok) continue;
      int reg = i / f_.layout.perReg(), sub = i % f_.layout.perReg();
      auto key = std::make_pair(reg, src);
      Value *&v = cache_[key];
      if (!v) v = w_.shfl(f_.regs[size_t(reg)], w_.map(src));
      auto &b = w_.fc.b;
      Value *x = sub ? b.CreateLShr(v, uint64_t(sub * f_.layout.bits)) : v;
      if (f_.layout.bits < 32) x = b.CreateAnd(x, b.getInt32((1u << f_.layout.bits) - 1));
      return x;
    }
    return nullptr;
  }

private:
  Warp &w_;
  const Frag &f_;
  std::map<std::pair<int, int>, std::vector<std::pair<int, int>>> owners_; // (r,c) -> (i, lane)
  std::map<std::pair<int, LaneTable>, Value *> cache_;
};

std::optional<tl::Elem> elemOf(ptx::Type t) {
  switch (t) {
  case ptx::Type::F16: case ptx::Type::F16x2: return tl::Elem::F16;
  case ptx::Type::BF16: case ptx::Type::BF16x2: return tl::Elem::BF16;
  case ptx::Type::TF32: return tl::Elem::TF32;
  case ptx::Type::S8: return tl::Elem::S8;
  case ptx::Type::U8: return tl::Elem::U8;
  case ptx::Type::F32: return tl::Elem::F32;
  case ptx::Type::S32: return tl::Elem::S32;
  default: return std::nullopt;
  }
}

struct Shape { int m = 0, n = 0, k = 0; };
std::optional<Shape> shapeOf(const ptx::Instruction &in) {
  static const std::pair<Mod, Shape> kShapes[] = {
      {Mod::M16n16k16, {16, 16, 16}}, {Mod::M32n8k16, {32, 8, 16}}, {Mod::M8n32k16, {8, 32, 16}},
      {Mod::M16n16k8, {16, 16, 8}},   {Mod::M16n8k4, {16, 8, 4}},   {Mod::M16n8k8, {16, 8, 8}},
      {Mod::M16n8k16, {16, 8, 16}},   {Mod::M16n8k32, {16, 8, 32}}};
  for (auto &[mod, s] : kShapes)
    if (in.has(mod)) return s;
  return std::nullopt;
}

// Registers of a `{...}` operand (or of a single register operand).
std::vector<const ptx::Operand *> vecElems(const ptx::Operand &op) {
  std::vector<const ptx::Operand *> v;
  if (op.kind == ptx::Operand::Kind::Vec) for (const auto &e : op.elems) v.push_back(&e);
  else v.push_back(&op);
  return v;
}

bool readFrag(FnCtx &fc, const ptx::Instruction &in, const ptx::Operand &op, tl::Layout layout, Frag &out,
              const char *what) {
  auto elems = vecElems(op);
  if (int(elems.size()) != layout.regs())
    return fc.unsupported(in, std::string(what) + " fragment of " + std::to_string(elems.size()) + " registers (expected " +
                                  std::to_string(layout.regs()) + ")");
  out.layout = std::move(layout);
  for (auto *e : elems) out.regs.push_back(fc.read(*e, ptx::Type::B32));
  return true;
}

ptx::Space spaceOf(const ptx::Instruction &in) {
  if (in.space != ptx::Space::None && in.space != ptx::Space::Generic) return in.space;
  if (in.has(Mod::Global)) return ptx::Space::Global;
  if (in.has(Mod::Shared) || in.has(Mod::SharedCta)) return ptx::Space::Shared;
  return ptx::Space::Generic;
}

Value *byteAddr(FnCtx &fc, Value *base, Value *byteOff) {
  unsigned as = base->getType()->getPointerAddressSpace();
  bool narrow = as == SharedAS || as == PrivateAS;
  Value *off = narrow ? byteOff : fc.b.CreateSExt(byteOff, fc.i64());
  return fc.b.CreateGEP(fc.b.getInt8Ty(), base, off);
}

// Element (bits) of an input fragment as an exact double, or as an i32 for integer types.
Value *widen(FnCtx &fc, Value *x, tl::Elem e) {
  auto &b = fc.b;
  switch (e) {
  case tl::Elem::F16: return b.CreateFPExt(b.CreateBitCast(b.CreateTrunc(x, b.getInt16Ty()), b.getHalfTy()), b.getDoubleTy());
  case tl::Elem::BF16: return b.CreateFPExt(b.CreateBitCast(b.CreateTrunc(x, b.getInt16Ty()), b.getBFloatTy()), b.getDoubleTy());
  case tl::Elem::TF32: // the tensor core reads the upper 19 bits of a .tf32 operand
    return b.CreateFPExt(b.CreateBitCast(b.CreateAnd(x, b.getInt32(0xffffe000u)), b.getFloatTy()), b.getDoubleTy());
  case tl::Elem::S8: return b.CreateSExt(b.CreateTrunc(x, b.getInt8Ty()), fc.i32());
  case tl::Elem::U8: return b.CreateZExt(b.CreateTrunc(x, b.getInt8Ty()), fc.i32());
  default: return x;
  }
}

// D = A*B + C for the lane's D elements (the C layout). A/B: input fragments; C elements as i32 bits.
// kStep: the products of one hardware step (one fused addition on the H200).
bool multiply(FnCtx &fc, const ptx::Instruction &in, Warp &w, const Frag &A, const Frag &B, tl::Elem inA, tl::Elem inB,
              const tl::Layout &cl, const std::vector<Value *> &cElems, tl::Elem ct, tl::Elem dt, bool satfinite,
              int kStep, std::vector<Value *> &dElems) {
  auto &b = fc.b;
  int K = A.layout.cols;
  Gatherer ga(w, A), gb(w, B);
  bool isInt = inA == tl::Elem::S8 || inA == tl::Elem::U8;
  for (int i = 0; i < cl.elems; ++i) {
    std::array<std::pair<int, int>, 32> needA, needB;
    std::vector<Value *> prods, fa, fb;
    for (int k = 0; k < K; ++k) {
      for (int l = 0; l < 32; ++l) {
        needA[size_t(l)] = {cl.row(l, i), k};
        needB[size_t(l)] = {k, cl.col(l, i)};
      }
      Value *a = ga.get(needA), *bv = gb.get(needB);
      if (!a || !bv) return fc.unsupported(in, "fragment layout (internal: element not gatherable)");
      a = widen(fc, a, inA);
      bv = widen(fc, bv, inB);
      if (isInt) prods.push_back(b.CreateMul(a, bv));
      fa.push_back(a);
      fb.push_back(bv);
    }
    Value *c = cElems[size_t(i)];
    if (isInt) {
      if (satfinite) {
        Value *s = b.CreateSExt(c, fc.i64());
        for (Value *p : prods) s = b.CreateAdd(s, b.CreateSExt(p, fc.i64()));
        s = b.CreateSelect(b.CreateICmpSGT(s, b.getInt64(INT32_MAX)), b.getInt64(INT32_MAX), s);
        s = b.CreateSelect(b.CreateICmpSLT(s, b.getInt64(INT32_MIN)), b.getInt64(uint64_t(int64_t(INT32_MIN))), s);
        dElems.push_back(b.CreateTrunc(s, fc.i32()));
      } else {
        Value *s = c;
        for (Value *p : prods) s = b.CreateAdd(s, p);
        dElems.push_back(s);
      }
      continue;
    }
    // f32 or f16 accumulation; c of the other type is converted first (exactly, or RN to f16)
    bool f16acc = dt == tl::Elem::F16 && ct == tl::Elem::F16;
    if (!f16acc && ct == tl::Elem::F16) {
      Value *h = b.CreateBitCast(b.CreateTrunc(c, b.getInt16Ty()), b.getHalfTy());
      c = b.CreateBitCast(b.CreateFPExt(h, b.getFloatTy()), fc.i32());
    }
    for (int k0 = 0; k0 < K; k0 += kStep) {
      int n = std::min(kStep, K - k0);
      std::vector<Value *> args{c, b.getInt32(uint32_t(n))};
      for (auto *f : {&fa, &fb})
        for (int k = 0; k < 16; ++k)
          args.push_back(k < n ? (*f)[size_t(k0 + k)] : ConstantFP::get(b.getDoubleTy(), 0.0));
      c = fc.call(f16acc ? "__ptx_tc_dot_f16" : "__ptx_tc_dot_f32", fc.i32(), args);
    }
    if (!f16acc && dt == tl::Elem::F16) {
      Value *f = b.CreateBitCast(c, b.getFloatTy());
      c = b.CreateZExt(b.CreateBitCast(b.CreateFPTrunc(f, b.getHalfTy()), b.getInt16Ty()), fc.i32());
    }
    dElems.push_back(c);
  }
  return true;
}

// Unpack the registers of an accumulator operand into elements (i32 bits each).
bool accElems(FnCtx &fc, const ptx::Instruction &in, const ptx::Operand &op, const tl::Layout &cl, tl::Elem t,
              std::vector<Value *> &out, const char *what) {
  auto &b = fc.b;
  auto regs = vecElems(op);
  int perReg = t == tl::Elem::F16 ? 2 : 1;
  if (int(regs.size()) * perReg != cl.elems)
    return fc.unsupported(in, std::string(what) + " fragment of " + std::to_string(regs.size()) + " registers");
  for (auto *r : regs) {
    Value *v = fc.read(*r, ptx::Type::B32);
    if (perReg == 1) { out.push_back(v); continue; }
    out.push_back(b.CreateAnd(v, b.getInt32(0xffff)));
    out.push_back(b.CreateLShr(v, 16));
  }
  return true;
}

void writeAcc(FnCtx &fc, const ptx::Operand &op, tl::Elem t, const std::vector<Value *> &elems) {
  auto &b = fc.b;
  auto regs = vecElems(op);
  for (size_t r = 0; r < regs.size(); ++r) {
    ptx::Type wt = t == tl::Elem::F32 ? ptx::Type::F32 : ptx::Type::B32;
    Value *v;
    if (t == tl::Elem::F16) v = b.CreateOr(b.CreateAnd(elems[2 * r], b.getInt32(0xffff)), b.CreateShl(elems[2 * r + 1], 16));
    else v = elems[r];
    if (wt == ptx::Type::F32) v = b.CreateBitCast(v, b.getFloatTy());
    fc.write(*regs[r], v, wt);
  }
}

// ---- wmma ------------------------------------------------------------------

std::optional<bool> layoutMod(const ptx::Instruction &in, int which) {
  int seen = 0;
  for (const auto &m : in.mods) {
    if (m.isType() || (m.mod != Mod::Row && m.mod != Mod::Col)) continue;
    if (seen++ == which) return m.mod == Mod::Row;
  }
  return std::nullopt;
}

bool wmmaLoadStore(FnCtx &fc, const ptx::Instruction &in, bool load) {
  auto &b = fc.b;
  auto shape = shapeOf(in);
  auto rowMajor = layoutMod(in, 0);
  auto et = elemOf(in.type(0));
  if (!shape || !rowMajor || !et) return fc.unsupported(in, "wmma shape/layout/type");
  tl::Operand which = load ? (in.has(Mod::A) ? tl::Operand::A : in.has(Mod::B) ? tl::Operand::B : tl::Operand::C)
                           : tl::Operand::C;
  if (load && !in.has(Mod::A) && !in.has(Mod::B) && !in.has(Mod::C)) return fc.unsupported(in, "wmma.load matrix");
  tl::Elem e = *et;
  if (which == tl::Operand::C && e != tl::Elem::F16 && e != tl::Elem::F32 && e != tl::Elem::S32)
    return fc.unsupported(in, "wmma accumulator type");
  tl::Layout l = tl::wmmaLayout(which, shape->m, shape->n, shape->k, e, *rowMajor);
  if (!l.elems) return fc.unsupported(in, "wmma shape/type combination");
  const auto &ops = in.operands;
  if (ops.size() < 2) return fc.unsupported(in, "operands");
  const ptx::Operand &frag = load ? ops[0] : ops[1];
  const ptx::Operand &addr = load ? ops[1] : ops[0];
  auto regs = vecElems(frag);
  if (int(regs.size()) != l.regs())
    return fc.unsupported(in, "fragment of " + std::to_string(regs.size()) + " registers (expected " + std::to_string(l.regs()) + ")");
  Value *base = fc.address(addr, spaceOf(in), in.loc);
  Value *stride = ops.size() > 2 ? fc.read(ops[2], ptx::Type::U32) : b.getInt32(uint32_t(*rowMajor ? l.cols : l.rows));
  Warp w(fc);
  unsigned bytes = unsigned(l.bits / 8);
  Type *et2 = fc.intTy(unsigned(l.bits));
  std::vector<Value *> regVals(regs.size(), nullptr);
  if (!load)
    for (size_t r = 0; r < regs.size(); ++r) regVals[r] = fc.read(*regs[r], ptx::Type::B32);
  std::map<std::pair<int, int>, bool> stored;
  for (int i = 0; i < l.elems; ++i) {
    LaneTable rt{}, ct{};
    for (int lane = 0; lane < 32; ++lane) { rt[size_t(lane)] = l.row(lane, i); ct[size_t(lane)] = l.col(lane, i); }
    Value *r = w.map(rt), *c = w.map(ct);
    Value *eoff = *rowMajor ? b.CreateAdd(b.CreateMul(r, stride), c) : b.CreateAdd(b.CreateMul(c, stride), r);
    Value *p = byteAddr(fc, base, b.CreateMul(eoff, b.getInt32(bytes)));
    int reg = i / l.perReg(), sub = i % l.perReg();
    if (load) {
      Value *x = b.CreateZExt(b.CreateAlignedLoad(et2, p, Align(bytes)), fc.i32());
      if (sub) x = b.CreateShl(x, uint64_t(sub * l.bits));
      regVals[size_t(reg)] = regVals[size_t(reg)] ? b.CreateOr(regVals[size_t(reg)], x) : x;
    } else {
      // accumulators hold every element once; store each
      Value *x = regVals[size_t(reg)];
      if (sub) x = b.CreateLShr(x, uint64_t(sub * l.bits));
      b.CreateAlignedStore(b.CreateTrunc(x, et2), p, Align(bytes));
    }
  }
  if (load)
    for (size_t r = 0; r < regs.size(); ++r) {
      Value *v = regVals[r];
      if (e == tl::Elem::F32 || (e == tl::Elem::TF32 && false)) v = b.CreateBitCast(v, b.getFloatTy());
      fc.write(*regs[r], v, e == tl::Elem::F32 ? ptx::Type::F32 : ptx::Type::B32);
    }
  return true;
}

bool wmmaMma(FnCtx &fc, const ptx::Instruction &in) {
  auto shape = shapeOf(in);
  auto aRow = layoutMod(in, 0), bRow = layoutMod(in, 1);
  if (!shape || !aRow || !bRow) return fc.unsupported(in, "wmma.mma shape/layout");
  // types: .dtype.ctype (f16 inputs) or .dtype.atype.btype.ctype
  tl::Elem dt, ct, at, bt;
  if (in.types.size() == 2) {
    auto d = elemOf(in.type(0)), c = elemOf(in.type(1));
    if (!d || !c) return fc.unsupported(in, "wmma.mma types");
    dt = *d; ct = *c; at = bt = tl::Elem::F16;
  } else if (in.types.size() == 4) {
    auto d = elemOf(in.type(0)), a = elemOf(in.type(1)), bb = elemOf(in.type(2)), c = elemOf(in.type(3));
    if (!d || !a || !bb || !c) return fc.unsupported(in, "wmma.mma types");
    dt = *d; at = *a; bt = *bb; ct = *c;
  } else {
    return fc.unsupported(in, "wmma.mma types");
  }
  bool isInt = at == tl::Elem::S8 || at == tl::Elem::U8;
  if (isInt != (bt == tl::Elem::S8 || bt == tl::Elem::U8) || (!isInt && at != bt) ||
      (isInt && (dt != tl::Elem::S32 || ct != tl::Elem::S32)) ||
      (!isInt && ((dt != tl::Elem::F32 && dt != tl::Elem::F16) || (ct != tl::Elem::F32 && ct != tl::Elem::F16))) ||
      ((at == tl::Elem::BF16 || at == tl::Elem::TF32) && (dt != tl::Elem::F32 || ct != tl::Elem::F32)))
    return fc.unsupported(in, "wmma.mma type combination");
  const auto &ops = in.operands;
  if (ops.size() != 4) return fc.unsupported(in, "operands");
  tl::Layout la = tl::wmmaLayout(tl::Operand::A, shape->m, shape->n, shape->k, at, *aRow);
  tl::Layout lb = tl::wmmaLayout(tl::Operand::B, shape->m, shape->n, shape->k, bt, *bRow);
  tl::Layout lc = tl::wmmaLayout(tl::Operand::C, shape->m, shape->n, shape->k, ct == tl::Elem::F16 ? tl::Elem::F16 : tl::Elem::F32, true);
  tl::Layout ld = tl::wmmaLayout(tl::Operand::C, shape->m, shape->n, shape->k, dt == tl::Elem::F16 ? tl::Elem::F16 : tl::Elem::F32, true);
  if (!la.elems || !lb.elems || !lc.elems) return fc.unsupported(in, "wmma.mma shape/type combination");
  Frag A, B;
  if (!readFrag(fc, in, ops[1], la, A, "A") || !readFrag(fc, in, ops[2], lb, B, "B")) return false;
  std::vector<Value *> cEl, dEl;
  if (!accElems(fc, in, ops[3], lc, ct, cEl, "C")) return false;
  if (int(vecElems(ops[0]).size()) * (dt == tl::Elem::F16 ? 2 : 1) != ld.elems) return fc.unsupported(in, "D fragment");
  Warp w(fc);
  // ptxas runs wmma.m16n16k8.tf32 as two chained m16n8k4 steps (HMMA.1684 on the H200); every other wmma
  // k-step is one fused addition
  int kStep = at == tl::Elem::TF32 ? 4 : 16;
  if (!multiply(fc, in, w, A, B, at, bt, lc, cEl, ct, dt, in.has(Mod::Satfinite), kStep, dEl)) return false;
  writeAcc(fc, ops[0], dt, dEl);
  return true;
}

bool wmma(FnCtx &fc, const ptx::Instruction &in) {
  if (in.has(Mod::Load)) return wmmaLoadStore(fc, in, true);
  if (in.has(Mod::Store)) return wmmaLoadStore(fc, in, false);
  if (in.has(Mod::Mma)) return wmmaMma(fc, in);
  return fc.unsupported(in, "wmma operation");
}

// ---- mma.sync ----------------------------------------------------------------

// mma.m8n8k4.f64 (DMMA): A 8x4 (lane 4g+t holds A[g][t]), B 4x8 (B[t][g]), C/D 8x8 (row g, cols 2t, 2t+1).
// Each D element is the chain of IEEE double FMAs over k in order, starting from C.
bool mmaF64(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  for (size_t i = 0; i < 4; ++i)
    if (in.type(i) != ptx::Type::F64) return fc.unsupported(in, "mma.m8n8k4 types (only .f64)");
  const auto &ops = in.operands;
  if (ops.size() != 4) return fc.unsupported(in, "operands");
  auto d = vecElems(ops[0]), a = vecElems(ops[1]), bb = vecElems(ops[2]), c = vecElems(ops[3]);
  if (d.size() != 2 || a.size() != 1 || bb.size() != 1 || c.size() != 2) return fc.unsupported(in, "fragment registers");
  Warp w(fc);
  auto bits = [&](const ptx::Operand *op) { return fc.read(*op, ptx::Type::B64); };
  auto shfl64 = [&](Value *v, Value *src) {
    Value *lo = w.shfl(b.CreateTrunc(v, fc.i32()), src);
    Value *hi = w.shfl(b.CreateTrunc(b.CreateLShr(v, 32), fc.i32()), src);
    Value *x = b.CreateOr(b.CreateZExt(lo, fc.i64()), b.CreateShl(b.CreateZExt(hi, fc.i64()), 32));
    return b.CreateBitCast(x, b.getDoubleTy());
  };
  Value *av = bits(a[0]), *bv = bits(bb[0]);
  for (int i = 0; i < 2; ++i) {
    Value *acc = b.CreateBitCast(bits(c[size_t(i)]), b.getDoubleTy());
    for (int k = 0; k < 4; ++k) {
      LaneTable sa{}, sb{};
      for (int l = 0; l < 32; ++l) { sa[size_t(l)] = 4 * (l >> 2) + k; sb[size_t(l)] = 4 * (2 * (l & 3) + i) + k; }
      acc = fc.fpIntrinsic(Intrinsic::fma, {shfl64(av, w.map(sa)), shfl64(bv, w.map(sb)), acc});
    }
    fc.write(*d[size_t(i)], acc, ptx::Type::F64);
  }
  return true;
}

bool mma(FnCtx &fc, const ptx::Instruction &in) {
  auto shape = shapeOf(in);
  if (in.has(Mod::M8n8k4) && in.type(0) == ptx::Type::F64 && !in.has(Mod::Sp)) return mmaF64(fc, in);
  if (!shape || shape->m != 16 || shape->n != 8) return fc.unsupported(in, "mma shape");
  if (in.has(Mod::Sp) || hasModNamed(in, "sp::ordered_metadata")) return fc.unsupported(in, "sparse mma");
  auto aRow = layoutMod(in, 0), bRow = layoutMod(in, 1);
  if (aRow && (!*aRow || !bRow || *bRow)) return fc.unsupported(in, "mma layout (m16n8 forms are .row.col)");
  if (in.types.size() != 4) return fc.unsupported(in, "mma types");
  auto d = elemOf(in.type(0)), a = elemOf(in.type(1)), bb = elemOf(in.type(2)), c = elemOf(in.type(3));
  if (!d || !a || !bb || !c) return fc.unsupported(in, "mma types");
  bool isInt = *a == tl::Elem::S8 || *a == tl::Elem::U8;
  bool ok = isInt ? ((*bb == tl::Elem::S8 || *bb == tl::Elem::U8) && *d == tl::Elem::S32 && *c == tl::Elem::S32)
                  : (*a == *bb && (*a == tl::Elem::F16 ? ((*d == tl::Elem::F32 || *d == tl::Elem::F16) &&
                                                          (*c == tl::Elem::F32 || *c == tl::Elem::F16))
                                                       : (*d == tl::Elem::F32 && *c == tl::Elem::F32)));
  if (!ok) return fc.unsupported(in, "mma type combination");
  tl::Layout la = tl::mmaLayout(tl::Operand::A, shape->k, *a), lb = tl::mmaLayout(tl::Operand::B, shape->k, *bb);
  tl::Layout lc = tl::mmaLayout(tl::Operand::C, shape->k, *c);
  if (!la.elems || !lb.elems) return fc.unsupported(in, "mma shape/type combination");
  lc.bits = *c == tl::Elem::F16 ? 16 : 32;
  const auto &ops = in.operands;
  if (ops.size() != 4) return fc.unsupported(in, "operands");
  Frag A, B;
  if (!readFrag(fc, in, ops[1], la, A, "A") || !readFrag(fc, in, ops[2], lb, B, "B")) return false;
  std::vector<Value *> cEl, dEl;
  if (!accElems(fc, in, ops[3], lc, *c, cEl, "C")) return false;
  if (int(vecElems(ops[0]).size()) * (*d == tl::Elem::F16 ? 2 : 1) != 4) return fc.unsupported(in, "D fragment");
  Warp w(fc);
  if (!multiply(fc, in, w, A, B, *a, *bb, lc, cEl, *c, *d, in.has(Mod::Satfinite), 16, dEl)) return false;
  writeAcc(fc, ops[0], *d, dEl);
  return true;
}

// ---- ldmatrix / stmatrix / movmatrix -----------------------------------------

int matrixCount(const ptx::Instruction &in) {
  if (in.has(Mod::X1)) return 1;
  if (in.has(Mod::X2)) return 2;
  if (in.has(Mod::X4)) return 4;
  return 0;
}

bool ldstMatrix(FnCtx &fc, const ptx::Instruction &in, bool load) {
  auto &b = fc.b;
  if (!in.has(Mod::M8n8)) return fc.unsupported(in, "matrix shape (only .m8n8)");
  if (in.type(0) != ptx::Type::B16) return fc.unsupported(in, "matrix element type (only .b16)");
  int n = matrixCount(in);
  if (!n) return fc.unsupported(in, "matrix count");
  bool trans = in.has(Mod::Trans);
  const auto &ops = in.operands;
  if (ops.size() != 2) return fc.unsupported(in, "operands");
  const ptx::Operand &frag = load ? ops[0] : ops[1];
  auto regs = vecElems(frag);
  if (int(regs.size()) != n) return fc.unsupported(in, "fragment register count");
  Value *p = fc.address(load ? ops[1] : ops[0], spaceOf(in), in.loc);
  unsigned as = p->getType()->getPointerAddressSpace();
  bool narrow = as == SharedAS || as == PrivateAS;
  Type *ptrTy = p->getType();
  Value *addr = b.CreatePtrToInt(p, narrow ? fc.i32() : fc.i64());
  Warp w(fc);
  auto rowAddr = [&](const LaneTable &src) -> Value * {
    Value *s = w.map(src);
    if (narrow) return b.CreateIntToPtr(w.shfl(addr, s), ptrTy);
    Value *lo = w.shfl(b.CreateTrunc(addr, fc.i32()), s);
    Value *hi = w.shfl(b.CreateTrunc(b.CreateLShr(addr, 32), fc.i32()), s);
    Value *v = b.CreateOr(b.CreateZExt(lo, fc.i64()), b.CreateShl(b.CreateZExt(hi, fc.i64()), 32));
    return b.CreateIntToPtr(v, ptrTy);
  };
  auto offset = [&](Value *base, const LaneTable &bytesOff) { return byteAddr(fc, base, w.map(bytesOff)); };
  for (int j = 0; j < n; ++j) {
    Value *val = load ? nullptr : fc.read(*regs[size_t(j)], ptx::Type::B32);
    if (!trans) {
      LaneTable src{}, off{};
      for (int l = 0; l < 32; ++l) { src[size_t(l)] = 8 * j + (l >> 2); off[size_t(l)] = 4 * (l & 3); }
      Value *q = offset(rowAddr(src), off);
      if (load) fc.write(*regs[size_t(j)], b.CreateAlignedLoad(fc.i32(), q, Align(4)), ptx::Type::B32);
      else b.CreateAlignedStore(val, q, Align(4));
      continue;
    }
    // .trans: element h of this lane is row 2*(lane%4)+h, column lane/4 of matrix j
    Value *acc = nullptr;
    for (int h = 0; h < 2; ++h) {
      LaneTable src{}, off{};
      for (int l = 0; l < 32; ++l) { src[size_t(l)] = 8 * j + 2 * (l & 3) + h; off[size_t(l)] = 2 * (l >> 2); }
      Value *q = offset(rowAddr(src), off);
      if (load) {
        Value *x = b.CreateZExt(b.CreateAlignedLoad(b.getInt16Ty(), q, Align(2)), fc.i32());
        acc = h ? b.CreateOr(acc, b.CreateShl(x, 16)) : x;
      } else {
        b.CreateAlignedStore(b.CreateTrunc(h ? b.CreateLShr(val, 16) : val, b.getInt16Ty()), q, Align(2));
      }
    }
    if (load) fc.write(*regs[size_t(j)], acc, ptx::Type::B32);
  }
  return true;
}

bool movmatrix(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  if (!in.has(Mod::M8n8) || !in.has(Mod::Trans) || in.type(0) != ptx::Type::B16)
    return fc.unsupported(in, "movmatrix form (only .m8n8.trans.b16)");
  const auto &ops = in.operands;
  if (ops.size() != 2) return fc.unsupported(in, "operands");
  Value *src = fc.read(ops[1], ptx::Type::B32);
  Warp w(fc);
  // d element h of lane l = M[2(l%4)+h][l/4], held by lane 4*(2(l%4)+h) + (l/4)/2 in half (l/4)%2
  Value *sel = b.CreateAnd(b.CreateLShr(w.lane, 2), 1);
  Value *out = nullptr;
  for (int h = 0; h < 2; ++h) {
    LaneTable s{};
    for (int l = 0; l < 32; ++l) s[size_t(l)] = 4 * (2 * (l & 3) + h) + ((l >> 2) >> 1);
    Value *v = w.shfl(src, w.map(s));
    Value *x = b.CreateAnd(b.CreateLShr(v, b.CreateMul(sel, b.getInt32(16))), b.getInt32(0xffff));
    out = h ? b.CreateOr(out, b.CreateShl(x, 16)) : x;
  }
  fc.write(ops[0], out, ptx::Type::B32);
  return true;
}

} // namespace

bool translateTensor(FnCtx &fc, const ptx::Instruction &in) {
  switch (in.op) {
  case Opcode::Wmma: return wmma(fc, in);
  case Opcode::Mma: return mma(fc, in);
  case Opcode::Ldmatrix: return ldstMatrix(fc, in, true);
  case Opcode::Stmatrix: return ldstMatrix(fc, in, false);
  case Opcode::Movmatrix: return movmatrix(fc, in);
  default: return fc.unsupported(in);
  }
}

} // namespace ptx2llvm
