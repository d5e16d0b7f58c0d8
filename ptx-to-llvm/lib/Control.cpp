//===- Control.cpp - bra, brx.idx, call, ret, exit, trap, nanosleep --------===//
//
// bra -> br to the label's block; brx.idx -> switch over the .branchtargets
// list (an out-of-range index is undefined in PTX: unreachable); ret -> return
// of the .func's result slots (a struct for several results); exit in a kernel
// -> ret void. exit in a .func must end the thread, and AMDGPU has no way to
// retire single lanes from inside a function (s_endpgm ends the whole wave),
// so the exit unwinds: a .func that may exit takes a trailing `ptr
// addrspace(5)` flag (the kernel's private `ptx.exited`); exit stores 1 and
// returns, and after every call of such a function the caller tests the flag
// and returns as well, up to the kernel's `ret void`. The thread then behaves
// exactly like a kernel-level exit (no further instructions, barriers or
// stores). Only direct calls can propagate it: taking the address of an
// exiting .func is an error. call: `call{.uni} (r0, ...), f, (a0, ...) {, proto}` loads the
// argument .param slots (or reads register/immediate arguments) as the
// callee's parameter types, calls directly, or indirectly through a register
// with the type of the named .callprototype, and stores the results into the
// retval slots. Calls to vprintf/__assertfail/malloc/free reach the device
// runtime as __ptx_<name>, cudaGraphSetConditional as __ptx_graph_set_conditional. A call of a CUDA device runtime entry point that
// the module only declares (dynamic parallelism: the __cudaCDP2* functions
// nvcc -rdc emits for a device-side <<<>>> launch, cudaGetParameterBuffer /
// cudaLaunchDevice and their V2 forms, device-side stream/event/sync calls)
// is an explicit unsupported error naming the entry point and the feature.
// trap/nanosleep are devlib calls.
//
//===----------------------------------------------------------------------===//
#include "Translator.h"

using namespace llvm;
using ptx::Opcode;

namespace ptx2llvm {

static const ptx::TargetList *findTargetList(FnCtx &fc, const std::string &name) {
  for (const auto &tl : fc.pf.targetLists)
    if (tl.name == name) return &tl;
  return nullptr;
}

static Value *loadSlot(FnCtx &fc, Value *slot, Type *ty) {
  return fc.b.CreateAlignedLoad(ty, slot, Align(1));
}

static void emitReturn(FnCtx &fc);

// What a call of an undefined CUDA device runtime entry point would do, or "" for other
// names: the __cudaCDP2* functions nvcc emits for device-side launches and runtime calls
// (defined by libcudadevrt, linked into -rdc programs) and the legacy entry point names.
// libcudadevrt's own module calls the driver's cnp* / __cuda_syscall_* services: those are
// reported at link time only if a call survives (ptxjit/lib/Link.cpp).
static std::string deviceRuntimeCall(StringRef n) {
  bool cdp2 = n.starts_with("__cudaCDP2");
  if (cdp2) n = n.drop_front(strlen("__cudaCDP2"));
  else if (n.starts_with("cuda")) n = n.drop_front(strlen("cuda"));
  else return "";
  if (n == "LaunchDevice" || n == "LaunchDeviceV2") return "a device-side kernel launch";
  if (n == "GetParameterBuffer" || n == "GetParameterBufferV2") return "a device-side kernel launch (parameter buffer)";
  return cdp2 ? "a device-side CUDA runtime call" : "";
}

static bool callInstr(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  const auto &ops = in.operands;
  // Locate the callee: the first operand that is not a parenthesised list.
  size_t ci = 0;
  while (ci < ops.size() && ops[ci].kind == ptx::Operand::Kind::List) ++ci;
  if (ci >= ops.size()) return fc.unsupported(in, "no callee");
  std::vector<const ptx::Operand *> rets, args;
  for (size_t i = 0; i < ci; ++i)
    for (const auto &e : ops[i].elems) rets.push_back(&e);
  size_t next = ci + 1;
  if (next < ops.size() && ops[next].kind == ptx::Operand::Kind::List) {
    for (const auto &e : ops[next].elems) args.push_back(&e);
    ++next;
  } else {
    // Arguments might also be given as plain operands after the callee.
    while (next < ops.size() && !(ops[next].kind == ptx::Operand::Kind::Sym && findTargetList(fc, ops[next].name)))
      args.push_back(&ops[next++]);
  }
  const ptx::Operand &callee = ops[ci];
  FunctionType *fty = nullptr;
  Value *target = nullptr;
  const std::vector<ptx::Variable> *resDecl = nullptr, *parDecl = nullptr;
  if (callee.kind == ptx::Operand::Kind::Sym && fc.mc.ptxFunctions.count(callee.name)) {
    const ptx::Function *pf = fc.mc.ptxFunctions.lookup(callee.name);
    Function *f = fc.mc.functions.lookup(callee.name);
    if (!f) return fc.unsupported(in, "callee '" + callee.name + "' was not declared");
    if (pf->isEntry) return fc.unsupported(in, "call of a kernel");
    if (!pf->hasBody)
      if (std::string what = deviceRuntimeCall(callee.name); !what.empty())
        return fc.unsupportedAt(in.loc, "dynamic parallelism",
                                "unsupported CUDA feature: dynamic parallelism: call of '" + callee.name + "', " + what +
                                    " (CUDA device runtime, libcudadevrt); device-side launches and runtime calls "
                                    "are not supported");
    fty = f->getFunctionType();
    target = f;
    resDecl = &pf->results;
    parDecl = &pf->params;
  } else if (callee.kind == ptx::Operand::Kind::Reg) {
    if (next >= ops.size() || ops[next].kind != ptx::Operand::Kind::Sym)
      return fc.unsupported(in, "indirect call without a prototype");
    const ptx::TargetList *tl = findTargetList(fc, ops[next].name);
    if (!tl) return fc.unsupported(in, "unknown prototype '" + ops[next].name + "'");
    if (tl->kind == ptx::TargetList::Kind::CallTargets)
      return fc.unsupported(in, "indirect call through .calltargets");
    fty = prototypeType(fc.mc, tl->results, tl->params);
    resDecl = &tl->results;
    parDecl = &tl->params;
    Value *addr = fc.read(callee, ptx::Type::U64);
    target = b.CreateIntToPtr(addr, PointerType::get(fc.mc.ctx, FlatAS));
  } else {
    return fc.unsupported(in, "callee '" + callee.name + "' is not a function");
  }
  bool exits = callee.kind == ptx::Operand::Kind::Sym && fc.mc.exitingFunctions.contains(callee.name);
  if (exits && !fc.exitFlag) return fc.unsupported(in, "internal: no exit flag for a call of an exiting function");
  if (args.size() + exits != fty->getNumParams()) return fc.unsupported(in, "argument count does not match the callee");
  if (rets.size() > resDecl->size()) return fc.unsupported(in, "result count does not match the callee");
  SmallVector<Value *, 8> av;
  for (size_t i = 0; i < args.size(); ++i) {
    Type *pt = fty->getParamType(i);
    const ptx::Operand &a = *args[i];
    if (a.kind == ptx::Operand::Kind::Sym) {
      Value *slot = fc.lookupVar(a.name);
      if (!slot) return fc.unsupported(in, "unknown argument '" + a.name + "'");
      av.push_back(loadSlot(fc, slot, pt));
    } else {
      ptx::Type t = (*parDecl)[i].type;
      if (pt->isArrayTy()) return fc.unsupported(in, "aggregate argument in a register");
      av.push_back(fc.coerce(fc.read(a, t), pt));
    }
  }
  if (exits) av.push_back(fc.exitFlag);
  CallInst *call = b.CreateCall(fty, target, av);
  for (size_t i = 0; i < rets.size(); ++i) {
    Value *rv = fty->getReturnType()->isStructTy() ? b.CreateExtractValue(call, i) : (Value *)call;
    const ptx::Operand &r = *rets[i];
    if (r.kind == ptx::Operand::Kind::Sym) {
      Value *slot = fc.lookupVar(r.name);
      if (!slot) return fc.unsupported(in, "unknown result '" + r.name + "'");
      b.CreateAlignedStore(rv, slot, Align(1));
    } else if (r.kind == ptx::Operand::Kind::Reg) {
      fc.write(r, rv, (*resDecl)[i].type);
    } else {
      return fc.unsupported(in, "result operand");
    }
  }
  if (exits) { // the callee executed exit: leave this function too
    BasicBlock *out = BasicBlock::Create(fc.mc.ctx, "ptx.exit", fc.f);
    BasicBlock *cont = BasicBlock::Create(fc.mc.ctx, "ptx.exit.cont", fc.f);
    b.CreateCondBr(b.CreateLoad(fc.i1(), fc.exitFlag), out, cont);
    b.SetInsertPoint(out);
    emitReturn(fc);
    b.SetInsertPoint(cont);
  }
  if (Function *f = dyn_cast<Function>(target); f && f->doesNotReturn()) b.CreateUnreachable();
  return true;
}

static void emitReturn(FnCtx &fc) {
  auto &b = fc.b;
  Type *rt = fc.f->getReturnType();
  if (rt->isVoidTy()) { b.CreateRetVoid(); return; }
  if (fc.resultSlots.size() == 1) { b.CreateRet(loadSlot(fc, fc.resultSlots[0], rt)); return; }
  Value *agg = PoisonValue::get(rt);
  for (unsigned i = 0; i < fc.resultSlots.size(); ++i)
    agg = b.CreateInsertValue(agg, loadSlot(fc, fc.resultSlots[i], rt->getStructElementType(i)), i);
  b.CreateRet(agg);
}

bool translateControl(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  const auto &ops = in.operands;
  switch (in.op) {
  case Opcode::Bra: {
    if (ops.size() != 1 || ops[0].kind != ptx::Operand::Kind::Sym) return fc.unsupported(in, "target");
    auto it = fc.labels.find(ops[0].name);
    if (it == fc.labels.end()) return fc.unsupported(in, "unknown label '" + ops[0].name + "'");
    b.CreateBr(it->second);
    return true;
  }
  case Opcode::Brx: {
    if (ops.size() != 2 || ops[1].kind != ptx::Operand::Kind::Sym) return fc.unsupported(in, "operands");
    const ptx::TargetList *tl = findTargetList(fc, ops[1].name);
    if (!tl || tl->kind != ptx::TargetList::Kind::BranchTargets)
      return fc.unsupported(in, "unknown .branchtargets '" + ops[1].name + "'");
    Value *idx = fc.read(ops[0], ptx::Type::U32);
    BasicBlock *bad = BasicBlock::Create(fc.mc.ctx, "brx.out_of_range", fc.f);
    IRBuilder<>(bad).CreateUnreachable();
    SwitchInst *sw = b.CreateSwitch(idx, bad, tl->targets.size());
    for (size_t i = 0; i < tl->targets.size(); ++i) {
      auto it = fc.labels.find(tl->targets[i]);
      if (it == fc.labels.end()) return fc.unsupported(in, "unknown label '" + tl->targets[i] + "'");
      sw->addCase(b.getInt32(i), it->second);
    }
    return true;
  }
  case Opcode::Call:
    return callInstr(fc, in);
  case Opcode::Ret:
    emitReturn(fc);
    return true;
  case Opcode::Exit:
    if (!fc.pf.isEntry) { // set the flag and return; every caller returns in turn
      b.CreateStore(b.getTrue(), fc.exitFlag);
      emitReturn(fc);
      return true;
    }
    b.CreateRetVoid();
    return true;
  case Opcode::Trap: {
    Function *f = fc.mc.devlib("__ptx_trap", b.getVoidTy(), {}, false, true);
    b.CreateCall(f);
    b.CreateUnreachable();
    return true;
  }
  case Opcode::Nanosleep:
    fc.call("__ptx_nanosleep", b.getVoidTy(), {fc.read(ops[0], ptx::Type::U32)});
    return true;
  default:
    return fc.unsupported(in);
  }
}

} // namespace ptx2llvm
