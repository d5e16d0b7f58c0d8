//===- Texture.cpp - tex, suld.b, sust.b through texture object handles -----===//
//
// Texture and surface objects are 64-bit handles: the generic address of a
// ptx_tex_desc (amdgpu-lower/devlib/ptx_texture.h) that the runtime shim
// fills. tex.{1d,2d,3d}.v4.{f32,s32,u32}.{f32,s32} becomes one devlib
// __ptx_tex call per destination component (the devlib ABI returns scalars);
// the sampling (address modes, point / 9-bit-weight linear filtering, read
// modes) is in devlib texture.c. suld.b / sust.b compute the element address
// with __ptx_surf_addr (bounds per .trap/.clamp/.zero; address 0 means the
// .zero case: loads read 0, stores are dropped) and access it directly.
// Texture references (.texref symbols), array/cube geometries, tld4, txq,
// explicit LOD/gradient, sured/suq and formatted suld.p are explicit errors.
//
//===----------------------------------------------------------------------===//
#include "Translator.h"

using namespace llvm;
using ptx::Mod;
using ptx::Opcode;

namespace ptx2llvm {

static unsigned geometryDims(const ptx::Instruction &in) {
  if (in.has(Mod::S1d)) return 1;
  if (in.has(Mod::S2d)) return 2;
  if (in.has(Mod::S3d)) return 3;
  return 0;
}

// [handle, {coords}] -> handle operand and coordinate elements.
static bool splitAddr(const ptx::Operand &a, const ptx::Operand *&h, const ptx::Operand *&c) {
  if (a.kind != ptx::Operand::Kind::Addr || a.elems.size() != 2) return false;
  if (a.elems[0].kind != ptx::Operand::Kind::Reg) return false;
  if (a.elems[1].kind != ptx::Operand::Kind::Vec) return false;
  h = &a.elems[0];
  c = &a.elems[1];
  return true;
}

static bool tex(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  const auto &ops = in.operands;
  unsigned dims = geometryDims(in);
  if (!dims || in.has(Mod::Level) || in.has(Mod::Grad) || in.has(Mod::Base))
    return fc.unsupported(in, "only 1d/2d/3d geometries without explicit LOD or gradients");
  ptx::Type dt = in.type(0), ct = in.type(1);
  bool floatRes = dt == ptx::Type::F32;
  if (!(floatRes || dt == ptx::Type::S32 || dt == ptx::Type::U32) ||
      !(ct == ptx::Type::F32 || ct == ptx::Type::S32))
    return fc.unsupported(in, "result type f32/s32/u32 and coordinate type f32/s32");
  if (ops.size() != 2 || ops[0].kind != ptx::Operand::Kind::Vec || ops[0].elems.size() != 4)
    return fc.unsupported(in, "a .v4 destination and [handle, {coords}] (texture references are not supported)");
  const ptx::Operand *h = nullptr, *c = nullptr;
  if (!splitAddr(ops[1], h, c) || c->elems.size() < dims)
    return fc.unsupported(in, "a 64-bit texture object handle register and coordinates");
  Value *hv = fc.read(*h, ptx::Type::B64);
  Value *co[3] = {b.getInt32(0), b.getInt32(0), b.getInt32(0)};
  for (unsigned k = 0; k < dims; ++k) co[k] = fc.coerce(fc.read(c->elems[k], ct), fc.i32());
  for (unsigned i = 0; i < 4; ++i) {
    if (ops[0].elems[i].kind == ptx::Operand::Kind::Sink) continue;
    Value *r = fc.call("__ptx_tex", fc.i32(),
                       {hv, b.getInt32(dims), co[0], co[1], co[2], b.getInt32(ct == ptx::Type::F32),
                        b.getInt32(floatRes), b.getInt32(i)});
    fc.write(ops[0].elems[i], fc.coerce(r, fc.llvmType(dt)), dt);
  }
  return true;
}

static bool surf(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  bool load = in.op == Opcode::Suld;
  const auto &ops = in.operands;
  unsigned dims = geometryDims(in);
  if (!dims || !in.has(Mod::B)) return fc.unsupported(in, "only suld.b/sust.b with 1d/2d/3d geometry");
  ptx::Type t = in.type(0);
  unsigned bits = ptx::typeBits(t);
  if (bits != 8 && bits != 16 && bits != 32 && bits != 64) return fc.unsupported(in, "element type");
  unsigned mode = in.has(Mod::Clamp) ? 1 : in.has(Mod::Zero) ? 2 : 0;
  if (ops.size() != 2) return fc.unsupported(in, "operands");
  const ptx::Operand &addr = load ? ops[1] : ops[0];
  const ptx::Operand &val = load ? ops[0] : ops[1];
  const ptx::Operand *h = nullptr, *c = nullptr;
  if (!splitAddr(addr, h, c) || c->elems.size() < dims)
    return fc.unsupported(in, "a 64-bit surface object handle register and coordinates");
  std::vector<const ptx::Operand *> vals;
  if (val.kind == ptx::Operand::Kind::Vec) for (const auto &e : val.elems) vals.push_back(&e);
  else vals.push_back(&val);
  unsigned n = vals.size(), eb = bits / 8;
  if (n != 1 && n != 2 && n != 4) return fc.unsupported(in, "vector width");
  Value *co[3] = {b.getInt32(0), b.getInt32(0), b.getInt32(0)};
  for (unsigned k = 0; k < dims; ++k) co[k] = fc.read(c->elems[k], ptx::Type::S32);
  Value *a = fc.call("__ptx_surf_addr", fc.i64(),
                     {fc.read(*h, ptx::Type::B64), b.getInt32(dims), co[0], co[1], co[2],
                      b.getInt32(n * eb), b.getInt32(mode)});
  Type *it = fc.intTy(bits);
  BasicBlock *pre = b.GetInsertBlock();
  BasicBlock *acc = BasicBlock::Create(fc.mc.ctx, "surf.access", fc.f);
  BasicBlock *done = BasicBlock::Create(fc.mc.ctx, "surf.done", fc.f);
  b.CreateCondBr(b.CreateICmpNE(a, b.getInt64(0)), acc, done);
  b.SetInsertPoint(acc);
  Value *p = b.CreateIntToPtr(a, PointerType::get(fc.mc.ctx, FlatAS));
  std::vector<Value *> loaded;
  for (unsigned i = 0; i < n; ++i) {
    Value *ep = b.CreateGEP(b.getInt8Ty(), p, b.getInt64((uint64_t)i * eb));
    if (load) loaded.push_back(b.CreateAlignedLoad(it, ep, Align(eb), true));
    else if (vals[i]->kind != ptx::Operand::Kind::Sink)
      b.CreateAlignedStore(fc.coerce(fc.read(*vals[i], t), it), ep, Align(eb), true);
  }
  BasicBlock *accEnd = b.GetInsertBlock();
  b.CreateBr(done);
  b.SetInsertPoint(done);
  if (load)
    for (unsigned i = 0; i < n; ++i) {
      PHINode *phi = b.CreatePHI(it, 2);
      phi->addIncoming(loaded[i], accEnd);
      phi->addIncoming(ConstantInt::get(it, 0), pre);
      fc.write(*vals[i], phi, t);
    }
  return true;
}

bool translateTexture(FnCtx &fc, const ptx::Instruction &in) {
  switch (in.op) {
  case Opcode::Tex: return tex(fc, in);
  case Opcode::Suld: case Opcode::Sust: return surf(fc, in);
  default: return fc.unsupported(in);
  }
}

} // namespace ptx2llvm
