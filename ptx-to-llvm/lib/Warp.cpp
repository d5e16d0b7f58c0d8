//===- Warp.cpp - warp-level and CTA-level synchronisation -----------------===//
//
// shfl.sync, vote.sync, match.sync, redux.sync, activemask, elect.sync,
// bar.warp.sync and bar/barrier (sync/arrive/red) are calls into the device
// library (amdgpu-lower/devlib/ptx_devlib.h), because their meaning depends on
// the wave size and warp policy; this file only marshals operands (membermask
// included — it is real information) and unpacks value|pred<<32 results.
// The non-.sync legacy shfl/vote use __ptx_activemask() as membermask.
//
//===----------------------------------------------------------------------===//
#include "Translator.h"

using namespace llvm;
using ptx::Mod;
using ptx::Opcode;

namespace ptx2llvm {

// Split "d|p" destinations: a Vec operand, or `count` leading operands.
static std::vector<const ptx::Operand *> dests(const ptx::Instruction &in, size_t nsrc) {
  std::vector<const ptx::Operand *> d;
  const auto &ops = in.operands;
  if (!ops.empty() && isPairOp(ops[0])) {
    for (const auto &e : ops[0].elems) d.push_back(&e);
    return d;
  }
  for (size_t i = 0; i + nsrc < ops.size(); ++i) d.push_back(&ops[i]);
  return d;
}

static void writePair(FnCtx &fc, const std::vector<const ptx::Operand *> &d, Value *packed, ptx::Type vt) {
  auto &b = fc.b;
  Value *v = b.CreateTrunc(packed, b.getInt32Ty());
  if (!d.empty()) fc.write(*d[0], v, vt);
  if (d.size() > 1) fc.writePred(*d[1], b.CreateTrunc(b.CreateLShr(packed, 32), b.getInt1Ty()));
}

static Value *predArg(FnCtx &fc, const ptx::Operand &op) {
  return fc.b.CreateZExt(fc.readPred(op), fc.b.getInt32Ty());
}

static bool barrier(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  const auto &ops = in.operands;
  if (in.has(Mod::Cluster)) return fc.unsupported(in, "cluster barriers");
  Type *i32 = b.getInt32Ty();
  if (in.has(Mod::Warp)) { // bar.warp.sync membermask
    fc.call("__ptx_bar_warp_sync", b.getVoidTy(), {fc.read(ops[0], ptx::Type::B32)}, true);
    return true;
  }
  if (in.has(Mod::Red)) {
    // bar.red.popc.u32 d, a{, b}, {!}c ; bar.red.{and,or}.pred p, a{, b}, {!}c
    if (ops.size() < 3) return fc.unsupported(in, "operands");
    Value *id = fc.read(ops[1], ptx::Type::U32);
    Value *cnt = ops.size() == 4 ? fc.read(ops[2], ptx::Type::U32) : b.getInt32(0);
    Value *p = predArg(fc, ops.back());
    const char *fn = in.has(Mod::Popc) ? "__ptx_bar_red_popc" : in.has(Mod::And) ? "__ptx_bar_red_and"
                     : in.has(Mod::Or) ? "__ptx_bar_red_or" : nullptr;
    if (!fn) return fc.unsupported(in, "reduction operation");
    Value *r = fc.call(fn, i32, {id, cnt, p}, true);
    if (in.has(Mod::Popc)) fc.write(ops[0], r, ptx::Type::U32);
    else fc.writePred(ops[0], b.CreateTrunc(r, b.getInt1Ty()));
    return true;
  }
  if (ops.empty()) return fc.unsupported(in, "operands");
  Value *id = fc.read(ops[0], ptx::Type::U32);
  Value *cnt = ops.size() > 1 ? fc.read(ops[1], ptx::Type::U32) : b.getInt32(0);
  if (in.has(Mod::Arrive)) fc.call("__ptx_bar_arrive", b.getVoidTy(), {id, cnt}, true);
  else fc.call("__ptx_bar_sync", b.getVoidTy(), {id, cnt}, true); // .sync, or bare `barrier` / `bar`
  return true;
}

bool translateWarp(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  const auto &ops = in.operands;
  Type *i32 = b.getInt32Ty(), *i64 = b.getInt64Ty();
  bool sync = in.has(Mod::Sync);
  auto mask = [&](size_t i) -> Value * {
    return sync ? fc.read(ops[i], ptx::Type::B32) : fc.call("__ptx_activemask", i32, {}, true);
  };
  switch (in.op) {
  case Opcode::Shfl: {
    size_t nsrc = sync ? 4 : 3;
    auto d = dests(in, nsrc);
    if (d.empty() || d.size() > 2) return fc.unsupported(in, "destinations");
    size_t s = isPairOp(ops[0]) ? 1 : d.size();
    if (ops.size() != s + nsrc) return fc.unsupported(in, "operands");
    const char *fn = in.has(Mod::Up) ? "__ptx_shfl_sync_up" : in.has(Mod::Down) ? "__ptx_shfl_sync_down"
                     : in.has(Mod::Bfly) ? "__ptx_shfl_sync_bfly" : in.has(Mod::Idx) ? "__ptx_shfl_sync_idx" : nullptr;
    if (!fn) return fc.unsupported(in, "shuffle mode");
    Value *a = fc.read(ops[s], ptx::Type::B32), *bb = fc.read(ops[s + 1], ptx::Type::B32),
          *c = fc.read(ops[s + 2], ptx::Type::B32);
    Value *m = mask(s + 3);
    writePair(fc, d, fc.call(fn, i64, {m, a, bb, c}, true), ptx::Type::B32);
    return true;
  }
  case Opcode::Vote: {
    size_t nsrc = sync ? 2 : 1;
    if (ops.size() != 1 + nsrc) return fc.unsupported(in, "operands");
    Value *p = predArg(fc, ops[1]);
    Value *m = mask(2);
    if (in.has(Mod::Ballot)) {
      fc.write(ops[0], fc.call("__ptx_vote_sync_ballot", i32, {m, p}, true), ptx::Type::B32);
      return true;
    }
    const char *fn = in.has(Mod::All) ? "__ptx_vote_sync_all" : in.has(Mod::Any) ? "__ptx_vote_sync_any"
                     : in.has(Mod::Uni) ? "__ptx_vote_sync_uni" : nullptr;
    if (!fn) return fc.unsupported(in, "vote mode");
    fc.writePred(ops[0], b.CreateTrunc(fc.call(fn, i32, {m, p}, true), b.getInt1Ty()));
    return true;
  }
  case Opcode::Match: {
    ptx::Type t = in.type(0);
    bool wide = ptx::typeBits(t) == 64;
    auto d = dests(in, 2);
    size_t s = isPairOp(ops[0]) ? 1 : d.size();
    if (ops.size() != s + 2 || d.empty()) return fc.unsupported(in, "operands");
    Value *a = fc.read(ops[s], wide ? ptx::Type::B64 : ptx::Type::B32);
    Value *m = fc.read(ops[s + 1], ptx::Type::B32);
    if (in.has(Mod::Any)) {
      fc.write(*d[0], fc.call(wide ? "__ptx_match_any_sync_b64" : "__ptx_match_any_sync_b32", i32, {m, a}, true), ptx::Type::B32);
      return true;
    }
    if (in.has(Mod::All)) {
      writePair(fc, d, fc.call(wide ? "__ptx_match_all_sync_b64" : "__ptx_match_all_sync_b32", i64, {m, a}, true), ptx::Type::B32);
      return true;
    }
    return fc.unsupported(in, "match mode");
  }
  case Opcode::Redux: {
    ptx::Type t = in.type(0);
    if (isFloat(t) || ptx::typeBits(t) != 32) return fc.unsupported(in, "redux type");
    if (ops.size() != 3) return fc.unsupported(in, "operands");
    bool s = isSigned(t);
    const char *fn = in.has(Mod::AddOp) ? "__ptx_redux_sync_add"
                     : in.has(Mod::MinOp) ? (s ? "__ptx_redux_sync_min" : "__ptx_redux_sync_umin")
                     : in.has(Mod::MaxOp) ? (s ? "__ptx_redux_sync_max" : "__ptx_redux_sync_umax")
                     : in.has(Mod::And) ? "__ptx_redux_sync_and" : in.has(Mod::Or) ? "__ptx_redux_sync_or"
                     : in.has(Mod::XorOp) ? "__ptx_redux_sync_xor" : nullptr;
    if (!fn) return fc.unsupported(in, "redux operation");
    Value *a = fc.read(ops[1], ptx::Type::B32), *m = fc.read(ops[2], ptx::Type::B32);
    fc.write(ops[0], fc.call(fn, i32, {m, a}, true), t);
    return true;
  }
  case Opcode::Activemask:
    fc.write(ops[0], fc.call("__ptx_activemask", i32, {}, true), ptx::Type::B32);
    return true;
  case Opcode::Elect: {
    auto d = dests(in, 1);
    size_t s = isPairOp(ops[0]) ? 1 : d.size();
    if (ops.size() != s + 1) return fc.unsupported(in, "operands");
    writePair(fc, d, fc.call("__ptx_elect_sync", i64, {fc.read(ops[s], ptx::Type::B32)}, true), ptx::Type::B32);
    return true;
  }
  case Opcode::Bar: case Opcode::Barrier:
    return barrier(fc, in);
  default:
    return fc.unsupported(in);
  }
}

} // namespace ptx2llvm
