//===- Texture.cpp - tex, suld.b, sust.b through texture object handles -----===//
//
// Texture and surface objects are 64-bit handles: the generic address of a
// ptx_tex_desc (amdgpu-lower/devlib/ptx_texture.h) that the runtime shim
// fills. tex.{1d,2d,3d}.v4.{f32,s32,u32}.{f32,s32} becomes one devlib
// __ptx_tex call per destination component (the devlib ABI returns scalars),
// tex.{a1d,a2d} __ptx_tex_layered, tex.{cube,acube} __ptx_tex_cube, .level /
// .grad of 1d/2d/3d __ptx_tex_lod / __ptx_tex_grad, of arrays
// __ptx_tex_layered_{lod,grad}, of cubes __ptx_tex_cube_{lod,grad};
// the sampling (address modes, point / 9-bit-weight linear filtering, read
// modes) is in devlib texture.c. suld.b / sust.b compute the element address
// with __ptx_surf_addr (bounds per .trap/.clamp/.zero; address 0 means the
// .zero case: loads read 0, stores are dropped) and access it directly.
// txq / suq read the descriptor fields directly (query()); tld4.2d gathers
// the bilinear footprint with four point fetches (tld4()). Texture
// references (.texref symbols), tex.base, offsets / depth compare, tld4 on a2d/cube or
// with depth compare / residency predicate (the parser rejects `{..}|p`),
// sured, suq.memory_layout, independent-mode samplers and formatted suld.p
// are explicit errors.
//
//===----------------------------------------------------------------------===//
#include "Translator.h"
// The descriptor layout, one definition shared with the device library and the runtime shim.
#include "../../amdgpu-lower/devlib/ptx_texture.h"

#include "llvm/IR/Intrinsics.h"

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
  bool layered = in.has(Mod::A1d) || in.has(Mod::A2d), cube = in.has(Mod::Cube) || in.has(Mod::Acube);
  if (in.has(Mod::A1d)) dims = 1;
  if (in.has(Mod::A2d)) dims = 2;
  if (!dims && !cube) return fc.unsupported(in, "only 1d/2d/3d, a1d/a2d and cube/acube geometries");
  if (in.has(Mod::Base)) return fc.unsupported(in, "tex.base (mipmap base level)");
  // Explicit LOD / gradients (mipmapped or not): __ptx_tex_lod / __ptx_tex_grad on 1d/2d/3d,
  // __ptx_tex_layered_{lod,grad} on a1d/a2d, __ptx_tex_cube_{lod,grad} on cube/acube.
  size_t want = in.has(Mod::Level) ? 3 : in.has(Mod::Grad) ? 4 : 2;
  ptx::Type dt = in.type(0), ct = in.type(1);
  bool floatRes = dt == ptx::Type::F32;
  if (!(floatRes || dt == ptx::Type::S32 || dt == ptx::Type::U32) ||
      !(ct == ptx::Type::F32 || ct == ptx::Type::S32) || (cube && ct != ptx::Type::F32))
    return fc.unsupported(in, "result type f32/s32/u32 and coordinate type f32/s32 (f32 for cubes)");
  if (ops.size() != want || ops[0].kind != ptx::Operand::Kind::Vec || ops[0].elems.size() != 4)
    return fc.unsupported(in, "a .v4 destination and [handle, {coords}] (texture references, offsets and depth "
                              "compare are not supported)");
  const ptx::Operand *h = nullptr, *c = nullptr;
  unsigned first = layered || in.has(Mod::Acube) ? 1 : 0, ncoord = cube ? 3 : dims;
  if (!splitAddr(ops[1], h, c) || c->elems.size() < first + ncoord)
    return fc.unsupported(in, "a 64-bit texture object handle register and coordinates");
  Value *hv = fc.read(*h, ptx::Type::B64);
  Value *layer = first ? fc.read(c->elems[0], ptx::Type::S32) : b.getInt32(0);
  Value *co[3] = {b.getInt32(0), b.getInt32(0), b.getInt32(0)};
  for (unsigned k = 0; k < ncoord; ++k) co[k] = fc.coerce(fc.read(c->elems[first + k], ct), fc.i32());
  // tex.grad: dPdx, dPdy (a scalar for 1d, a vector otherwise), float bits, unused 0.
  Value *grad[2][3] = {{b.getInt32(0), b.getInt32(0), b.getInt32(0)}, {b.getInt32(0), b.getInt32(0), b.getInt32(0)}};
  unsigned gradDims = cube ? 3 : dims;
  if (in.has(Mod::Grad))
    for (unsigned g = 0; g < 2; ++g) {
      const ptx::Operand &o = ops[2 + g];
      if (o.kind == ptx::Operand::Kind::Vec) {
        for (unsigned k = 0; k < gradDims && k < o.elems.size(); ++k)
          grad[g][k] = fc.coerce(fc.read(o.elems[k], ptx::Type::F32), fc.i32());
      } else {
        grad[g][0] = fc.coerce(fc.read(o, ptx::Type::F32), fc.i32());
      }
    }
  for (unsigned i = 0; i < 4; ++i) {
    if (ops[0].elems[i].kind == ptx::Operand::Kind::Sink) continue;
    Value *r;
    Value *lod = in.has(Mod::Level) ? fc.coerce(fc.read(ops[2], ptx::Type::F32), fc.i32()) : nullptr;
    if (cube && lod)
      r = fc.call("__ptx_tex_cube_lod", fc.i32(),
                  {hv, layer, co[0], co[1], co[2], lod, b.getInt32(floatRes), b.getInt32(i)});
    else if (cube && in.has(Mod::Grad))
      r = fc.call("__ptx_tex_cube_grad", fc.i32(),
                  {hv, layer, co[0], co[1], co[2], grad[0][0], grad[0][1], grad[0][2], grad[1][0], grad[1][1],
                   grad[1][2], b.getInt32(floatRes), b.getInt32(i)});
    else if (cube)
      r = fc.call("__ptx_tex_cube", fc.i32(), {hv, layer, co[0], co[1], co[2], b.getInt32(floatRes), b.getInt32(i)});
    else if (layered && lod)
      r = fc.call("__ptx_tex_layered_lod", fc.i32(),
                  {hv, b.getInt32(dims), layer, co[0], co[1], lod, b.getInt32(ct == ptx::Type::F32),
                   b.getInt32(floatRes), b.getInt32(i)});
    else if (layered && in.has(Mod::Grad))
      r = fc.call("__ptx_tex_layered_grad", fc.i32(),
                  {hv, b.getInt32(dims), layer, co[0], co[1], grad[0][0], grad[0][1], grad[1][0], grad[1][1],
                   b.getInt32(ct == ptx::Type::F32), b.getInt32(floatRes), b.getInt32(i)});
    else if (layered)
      r = fc.call("__ptx_tex_layered", fc.i32(),
                  {hv, b.getInt32(dims), layer, co[0], co[1], b.getInt32(ct == ptx::Type::F32), b.getInt32(floatRes),
                   b.getInt32(i)});
    else if (lod)
      r = fc.call("__ptx_tex_lod", fc.i32(),
                  {hv, b.getInt32(dims), co[0], co[1], co[2], lod, b.getInt32(ct == ptx::Type::F32),
                   b.getInt32(floatRes), b.getInt32(i)});
    else if (in.has(Mod::Grad))
      r = fc.call("__ptx_tex_grad", fc.i32(),
                  {hv, b.getInt32(dims), co[0], co[1], co[2], grad[0][0], grad[0][1], grad[0][2], grad[1][0],
                   grad[1][1], grad[1][2], b.getInt32(ct == ptx::Type::F32), b.getInt32(floatRes), b.getInt32(i)});
    else
      r = fc.call("__ptx_tex", fc.i32(),
                  {hv, b.getInt32(dims), co[0], co[1], co[2], b.getInt32(ct == ptx::Type::F32), b.getInt32(floatRes),
                   b.getInt32(i)});
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

//===-- descriptor fields (txq / suq / tld4) -------------------------------===//

// ptx_tex_desc field offsets, from its one definition (amdgpu-lower/devlib/ptx_texture.h).
enum DescField : unsigned {
  DMagic = offsetof(ptx_tex_desc, magic), DFlags = offsetof(ptx_tex_desc, flags),
  DWidth = offsetof(ptx_tex_desc, width), DHeight = offsetof(ptx_tex_desc, height),
  DDepth = offsetof(ptx_tex_desc, depth), DLayers = offsetof(ptx_tex_desc, layers),
  DChannels = offsetof(ptx_tex_desc, channels), DBits = offsetof(ptx_tex_desc, bits),
  DKind = offsetof(ptx_tex_desc, kind), DFilter = offsetof(ptx_tex_desc, filter),
  DAddress = offsetof(ptx_tex_desc, address), DReadMode = offsetof(ptx_tex_desc, read_mode),
  DGeometry = offsetof(ptx_tex_desc, geometry)
};
constexpr uint32_t kDescMagic = PTX_TEX_DESC_MAGIC;

// The descriptor of handle `h` as a flat pointer; a null handle or a wrong
// magic traps (as devlib texture.c does), never reads garbage.
static Value *descPointer(FnCtx &fc, Value *h) {
  auto &b = fc.b;
  Value *p = b.CreateIntToPtr(h, PointerType::get(fc.mc.ctx, FlatAS));
  BasicBlock *bad = BasicBlock::Create(fc.mc.ctx, "tex.bad_handle", fc.f);
  BasicBlock *chk = BasicBlock::Create(fc.mc.ctx, "tex.check_magic", fc.f);
  BasicBlock *ok = BasicBlock::Create(fc.mc.ctx, "tex.desc", fc.f);
  b.CreateCondBr(b.CreateICmpEQ(h, b.getInt64(0)), bad, chk);
  b.SetInsertPoint(bad);
  b.CreateCall(fc.mc.devlib("__ptx_trap", b.getVoidTy(), {}, false, true));
  b.CreateUnreachable();
  b.SetInsertPoint(chk);
  Value *magic = b.CreateAlignedLoad(fc.i32(), p, Align(16), "tex.magic");
  b.CreateCondBr(b.CreateICmpNE(magic, b.getInt32(kDescMagic)), bad, ok);
  b.SetInsertPoint(ok);
  return p;
}

// Field at byte offset `off` (1- or 4-byte unsigned) as i32.
static Value *descField(FnCtx &fc, Value *p, unsigned off, unsigned bytes) {
  auto &b = fc.b;
  Value *a = b.CreateGEP(b.getInt8Ty(), p, b.getInt64(off));
  if (bytes == 1) return b.CreateZExt(b.CreateAlignedLoad(b.getInt8Ty(), a, Align(1)), fc.i32());
  return b.CreateAlignedLoad(fc.i32(), a, Align(4));
}

// The handle register inside `[h]` / `[h, ...]`.
static const ptx::Operand *handleOf(const ptx::Operand &a) {
  if (a.kind != ptx::Operand::Kind::Addr || a.elems.empty() || a.elems[0].kind != ptx::Operand::Kind::Reg)
    return nullptr;
  return &a.elems[0];
}

// .channel_data_type / .channel_order: PTX returns "the source language's
// channel data type / order enumeration". CUDA C++ has no device-side query
// (and no such enumeration: cudaChannelFormatDesc holds bit counts and a
// kind); the source language whose queries PTX's txq serves is OpenCL, so
// the values are OpenCL's cl_channel_type (CL_SNORM_INT8 0x10D0 ...
// CL_FLOAT 0x10DE) and cl_channel_order (CL_R 0x10B0, CL_RG 0x10B2, CL_RGB
// 0x10B4, CL_RGBA 0x10B5), derived from the descriptor's kind, bits, read
// mode (normalized 8/16-bit integers are the *NORM_INT types) and channels.
static Value *channelDataType(FnCtx &fc, Value *p) {
  auto &b = fc.b;
  Value *kind = descField(fc, p, DKind, 1), *bits = descField(fc, p, DBits, 1);
  Value *norm = b.CreateAnd(b.CreateICmpEQ(descField(fc, p, DReadMode, 1), b.getInt32(PTX_TEX_READ_NORMALIZED)),
                            b.CreateICmpULT(bits, b.getInt32(32)));
  auto bySize = [&](uint32_t v8, uint32_t v16, uint32_t v32) {
    return b.CreateSelect(b.CreateICmpEQ(bits, b.getInt32(8)), b.getInt32(v8),
                          b.CreateSelect(b.CreateICmpEQ(bits, b.getInt32(16)), b.getInt32(v16), b.getInt32(v32)));
  };
  Value *sgn = b.CreateSelect(norm, bySize(0x10D0, 0x10D1, 0x10D1), bySize(0x10D7, 0x10D8, 0x10D9));
  Value *uns = b.CreateSelect(norm, bySize(0x10D2, 0x10D3, 0x10D3), bySize(0x10DA, 0x10DB, 0x10DC));
  Value *flt = b.CreateSelect(b.CreateICmpEQ(bits, b.getInt32(16)), b.getInt32(0x10DD), b.getInt32(0x10DE));
  return b.CreateSelect(b.CreateICmpEQ(kind, b.getInt32(PTX_TEX_KIND_SIGNED)), sgn,
                        b.CreateSelect(b.CreateICmpEQ(kind, b.getInt32(PTX_TEX_KIND_UNSIGNED)), uns, flt));
}

static Value *channelOrder(FnCtx &fc, Value *p) {
  auto &b = fc.b;
  Value *n = descField(fc, p, DChannels, 1);
  return b.CreateSelect(b.CreateICmpEQ(n, b.getInt32(1)), b.getInt32(0x10B0),
                        b.CreateSelect(b.CreateICmpEQ(n, b.getInt32(2)), b.getInt32(0x10B2),
                                       b.CreateSelect(b.CreateICmpEQ(n, b.getInt32(3)), b.getInt32(0x10B4),
                                                      b.getInt32(0x10B5))));
}

// txq.{tquery,squery}.b32 d, [h]; txq.level.{width,height,depth}.b32 d, [h], lod;
// suq.{width,height,depth,channel_data_type,channel_order,array_size}.b32 d, [h].
static bool query(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  const auto &ops = in.operands;
  bool level = in.has(Mod::Level), surface = in.op == Opcode::Suq;
  if (ops.size() != (level ? 3u : 2u) || ops[0].kind != ptx::Operand::Kind::Reg)
    return fc.unsupported(in, "operands");
  const ptx::Operand *h = handleOf(ops[1]);
  if (!h) return fc.unsupported(in, "a 64-bit texture/surface object handle register (texture references are not supported)");
  Mod q = Mod::Width;
  bool found = false;
  static const Mod kQueries[] = {Mod::Width, Mod::Height, Mod::Depth, Mod::ChannelDataType, Mod::ChannelOrder,
                                 Mod::NormalizedCoords, Mod::FilterMode, Mod::AddrMode0, Mod::AddrMode1,
                                 Mod::AddrMode2, Mod::ArraySize, Mod::NumMipmapLevels, Mod::NumSamples,
                                 Mod::ForceUnnormalizedCoords, Mod::MemoryLayout};
  for (Mod m : kQueries)
    if (in.has(m)) { q = m; found = true; break; }
  if (!found) return fc.unsupported(in, "query");
  if (q == Mod::ForceUnnormalizedCoords)
    return fc.unsupported(in, "independent-mode samplers (.samplerref) do not exist with texture objects");
  if (q == Mod::MemoryLayout) return fc.unsupported(in, "surface memory layout query");
  bool dimQuery = q == Mod::Width || q == Mod::Height || q == Mod::Depth;
  if (level && !dimQuery) return fc.unsupported(in, "txq.level queries width/height/depth only");
  if (surface && !(dimQuery || q == Mod::ChannelDataType || q == Mod::ChannelOrder || q == Mod::ArraySize))
    return fc.unsupported(in, "query");
  Value *p = descPointer(fc, fc.read(*h, ptx::Type::B64));
  Value *r = nullptr;
  switch (q) {
  case Mod::Width: r = descField(fc, p, DWidth, 4); break;
  case Mod::Height: r = descField(fc, p, DHeight, 4); break;
  case Mod::Depth:
    // The descriptor keeps depth 1 for 1D/2D resources (a sampling limit), but
    // the H200 answers txq.depth with 0 for them (tests/targets/h200_probe_txq_tld4.out);
    // suq.depth keeps the descriptor's value (not measured).
    r = descField(fc, p, DDepth, 4);
    if (!surface)
      r = b.CreateSelect(b.CreateICmpEQ(descField(fc, p, DGeometry, 1), b.getInt32(PTX_TEX_GEOM_3D)), r, b.getInt32(0));
    break;
  case Mod::ChannelDataType: r = channelDataType(fc, p); break;
  case Mod::ChannelOrder: r = channelOrder(fc, p); break;
  case Mod::NormalizedCoords: r = b.CreateAnd(descField(fc, p, DFlags, 4), PTX_TEX_FLAG_NORMALIZED_COORDS); break;
  case Mod::FilterMode: r = descField(fc, p, DFilter, 1); break; // point 0 = nearest, linear 1
  case Mod::AddrMode0: case Mod::AddrMode1: case Mod::AddrMode2: {
    // Descriptor: wrap 0, clamp 1, mirror 2, border 3 (cudaTextureAddressMode).
    // PTX: enum { wrap, mirror, clamp_ogl, clamp_to_edge, clamp_to_border }.
    unsigned k = q == Mod::AddrMode0 ? 0 : q == Mod::AddrMode1 ? 1 : 2;
    Value *m = descField(fc, p, DAddress + k, 1);
    r = b.CreateSelect(b.CreateICmpEQ(m, b.getInt32(PTX_TEX_ADDR_CLAMP)), b.getInt32(3),
                       b.CreateSelect(b.CreateICmpEQ(m, b.getInt32(PTX_TEX_ADDR_MIRROR)), b.getInt32(1),
                                      b.CreateSelect(b.CreateICmpEQ(m, b.getInt32(PTX_TEX_ADDR_BORDER)), b.getInt32(4),
                                                     b.getInt32(0))));
    break;
  }
  case Mod::ArraySize: { // "for a texture array, number of textures in array, 0 otherwise"
    Value *g = descField(fc, p, DGeometry, 1);
    Value *isArray = b.CreateOr(b.CreateICmpEQ(g, b.getInt32(PTX_TEX_GEOM_1D_ARRAY)),
                                 b.CreateICmpEQ(g, b.getInt32(PTX_TEX_GEOM_2D_ARRAY)));
    r = b.CreateSelect(isArray, descField(fc, p, DLayers, 4), b.getInt32(0));
    break;
  }
  // Texture objects here are never mipmapped or multi-sampled: PTX defines 0.
  case Mod::NumMipmapLevels: case Mod::NumSamples: r = b.getInt32(0); break;
  default: return fc.unsupported(in, "query");
  }
  if (level) {
    // Texture objects here are never mipmapped: level 0 is the resource itself
    // and every other level does not exist, which the H200 answers with 0
    // (txq.level.width of level 1 of a 4-wide texture: 0;
    // tests/targets/h200_probe_txq_tld4.out).
    Value *lod = fc.read(ops[2], ptx::Type::U32);
    r = b.CreateSelect(b.CreateICmpEQ(lod, b.getInt32(0)), r, b.getInt32(0));
  }
  fc.write(ops[0], r, ptx::Type::B32);
  return true;
}

// tld4.{r,g,b,a}.2d.v4.{f32,s32,u32}.f32 d, [h, {x, y}]: the four texels of
// the bilinear footprint, component .comp of each, in PTX's order
// (counter-clockwise from lower left): (i0, j1), (i1, j1), (i1, j0), (i0, j0)
// with i0 = floor(x' - 0.5), j0 = floor(y' - 0.5), i1 = i0 + 1, j1 = j0 + 1,
// where x', y' are the coordinates in texels exactly as linear filtering
// computes them (normalized coordinates: wrap / mirror on the normalized
// value, then scaled by the extent). Each texel goes through the descriptor's
// address mode (devlib __ptx_tex with integer coordinates = point fetch
// of that texel: clamp, border colour, wrap), so it is the texel linear
// filtering would weight. An offset operand {dx, dy} shifts i0, j0.
static bool tld4(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  const auto &ops = in.operands;
  if (!in.has(Mod::S2d)) return fc.unsupported(in, "only the 2d geometry (no a2d/cube/acube)");
  unsigned comp = in.has(Mod::R) ? 0 : in.has(Mod::G) ? 1 : in.has(Mod::B) ? 2 : in.has(Mod::A) ? 3 : 4;
  if (comp > 3) return fc.unsupported(in, "component");
  ptx::Type dt = in.type(0), ct = in.type(1);
  if (!(dt == ptx::Type::F32 || dt == ptx::Type::S32 || dt == ptx::Type::U32) || ct != ptx::Type::F32)
    return fc.unsupported(in, "result type f32/s32/u32 and coordinate type f32");
  bool offset = ops.size() == 3 && ops[2].kind == ptx::Operand::Kind::Vec && ops[2].elems.size() == 2;
  if ((ops.size() != 2 && !offset) || ops[0].kind != ptx::Operand::Kind::Vec || ops[0].elems.size() != 4)
    return fc.unsupported(in, "a .v4 destination, [handle, {x, y}] and an optional {dx, dy} offset (no depth "
                              "compare or explicit sampler)");
  const ptx::Operand *h = nullptr, *c = nullptr;
  if (!splitAddr(ops[1], h, c) || c->elems.size() < 2)
    return fc.unsupported(in, "a 64-bit texture object handle register and coordinates");
  Value *hv = fc.read(*h, ptx::Type::B64);
  Value *p = descPointer(fc, hv);
  Value *normalized =
      b.CreateICmpNE(b.CreateAnd(descField(fc, p, DFlags, 4), PTX_TEX_FLAG_NORMALIZED_COORDS), b.getInt32(0));
  Type *f32 = b.getFloatTy();
  Value *i0[2];
  for (unsigned k = 0; k < 2; ++k) {
    Value *x = fc.read(c->elems[k], ptx::Type::F32);
    Value *mode = descField(fc, p, DAddress + k, 1);
    Value *fl = b.CreateUnaryIntrinsic(Intrinsic::floor, x);
    Value *fr = b.CreateFSub(x, fl);
    // mirror: odd periods run backwards
    Value *odd = b.CreateICmpNE(b.CreateAnd(b.CreateFPToSI(fl, b.getInt64Ty()), 1), b.getInt64(0));
    Value *mir = b.CreateSelect(odd, b.CreateFSub(ConstantFP::get(f32, 1.0), fr), fr);
    Value *xn = b.CreateSelect(b.CreateICmpEQ(mode, b.getInt32(PTX_TEX_ADDR_WRAP)), fr,
                               b.CreateSelect(b.CreateICmpEQ(mode, b.getInt32(PTX_TEX_ADDR_MIRROR)), mir, x));
    Value *ext = b.CreateUIToFP(descField(fc, p, k ? DHeight : DWidth, 4), f32);
    Value *xt = b.CreateSelect(normalized, b.CreateFMul(xn, ext), x);
    Value *xb = b.CreateFSub(xt, ConstantFP::get(f32, 0.5));
    i0[k] = b.CreateFPToSI(b.CreateUnaryIntrinsic(Intrinsic::floor, xb), fc.i32());
    // The .v2.s32 offset (-8..7) moves the footprint by whole texels.
    if (offset) i0[k] = b.CreateAdd(i0[k], fc.read(ops[2].elems[k], ptx::Type::S32));
  }
  Value *i1 = b.CreateAdd(i0[0], b.getInt32(1)), *j1 = b.CreateAdd(i0[1], b.getInt32(1));
  Value *texels[4][2] = {{i0[0], j1}, {i1, j1}, {i1, i0[1]}, {i0[0], i0[1]}};
  for (unsigned t = 0; t < 4; ++t) {
    if (ops[0].elems[t].kind == ptx::Operand::Kind::Sink) continue;
    Value *r = fc.call("__ptx_tex", fc.i32(),
                       {hv, b.getInt32(2), texels[t][0], texels[t][1], b.getInt32(0), b.getInt32(0),
                        b.getInt32(dt == ptx::Type::F32), b.getInt32(comp)});
    fc.write(ops[0].elems[t], fc.coerce(r, fc.llvmType(dt)), dt);
  }
  return true;
}

bool translateTexture(FnCtx &fc, const ptx::Instruction &in) {
  switch (in.op) {
  case Opcode::Tex: return tex(fc, in);
  case Opcode::Tld4: return tld4(fc, in);
  case Opcode::Txq: case Opcode::Suq: return query(fc, in);
  case Opcode::Suld: case Opcode::Sust: return surf(fc, in);
  default: return fc.unsupported(in);
  }
}

} // namespace ptx2llvm
