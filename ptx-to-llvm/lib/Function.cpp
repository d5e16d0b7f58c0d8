//===- Function.cpp - kernel ABI, .func signatures, body translation ------===//
//
// Declares every PTX function and translates bodies statement by statement.
//
// Kernel ABI (docs/pipeline.md): `.entry` -> amdgpu_kernel returning void;
// each .param becomes one explicit kernel argument in order, scalars by value
// with their natural alignment (so the kernarg layout equals PTX's .param
// layout) and aggregates (`.param .align A .b8 p[N]`) as `ptr addrspace(4)
// byref([N x i8]) align A`. PTX pointers are integers (i64).
// `.func`: internal functions (external for .visible/.extern/.weak), scalar
// params by value, aggregate params as [N x i8] values, results as the return
// value (a struct for several). Inside a body every .param (own params,
// results, and the call-sequence `{ .param .b64 param0; ... }` temporaries) is
// a private alloca that ld.param/st.param access; `call` loads the argument
// slots and stores the results into the retval slots. Calls to the CUDA
// runtime functions vprintf/__assertfail/malloc/free go to __ptx_<name>, the
// graph call cudaGraphSetConditional to __ptx_graph_set_conditional.
// A .func that may execute `exit` (directly or through direct calls) gets a
// trailing `ptr addrspace(5)` exit-flag argument (Control.cpp explains).
//
// Bodies: PTX registers are allocas in the entry block, labels are basic
// blocks, `{ }` blocks are name scopes, and a guard `@%p` wraps its
// instruction in an if-then (a guarded `bra` becomes a conditional branch
// after simplification), which keeps control flow structured for the
// AMDGPU structurizer. Perf directives are kept as string attributes
// ("ptx.maxntid"="x,y,z", "ptx.reqntid", "ptx.minnctapersm", "ptx.maxnreg")
// for amdgpu-lower to turn into AMDGPU attributes.
//
//===----------------------------------------------------------------------===//
#include "Translator.h"

#include "llvm/IR/Attributes.h"
#include "llvm/IR/Constants.h"

using namespace llvm;

namespace ptx2llvm {

// `"ptx.loc"="line:col"` on every PTX function: the position of its
// .entry/.func directive. It survives module splitting and codegen, so
// amdgpu-lower can put a backend error ("local memory ... exceeds limit in
// function 'k'") at the PTX directive that caused it.
static void setSourcePosition(Function *f, ptx::SourceLoc l) {
  if (l.line) f->addFnAttr(support::attr::kLoc, std::to_string(l.line) + ":" + std::to_string(l.col));
}


static bool isRuntimeFunction(StringRef n) {
  return n == "vprintf" || n == "__assertfail" || n == "malloc" || n == "free" || n == "cudaGraphSetConditional";
}

// The device library's name for a CUDA device runtime function (ptx_devlib.h).
static std::string devlibName(StringRef n) {
  std::string suffix = n == "__assertfail"              ? std::string("assertfail")
                       : n == "cudaGraphSetConditional" ? std::string("graph_set_conditional")
                                                        : n.str();
  return std::string(support::global::kDevlibPrefix) + suffix;
}

Type *paramType(ModuleCtx &mc, const ptx::Variable &v) {
  if (!v.dims.empty() || v.vecWidth) {
    uint64_t n = v.sizeInBytes();
    if (v.vecWidth && v.dims.empty()) n = (uint64_t)v.vecWidth * ptx::typeBits(v.type) / 8;
    return ArrayType::get(Type::getInt8Ty(mc.ctx), n);
  }
  switch (v.type) {
  case ptx::Type::F32: return Type::getFloatTy(mc.ctx);
  case ptx::Type::F64: return Type::getDoubleTy(mc.ctx);
  case ptx::Type::Pred: return Type::getInt32Ty(mc.ctx);
  default: return IntegerType::get(mc.ctx, std::max(8u, ptx::typeBits(v.type)));
  }
}

FunctionType *prototypeType(ModuleCtx &mc, const std::vector<ptx::Variable> &results,
                            const std::vector<ptx::Variable> &params) {
  SmallVector<Type *, 8> ps;
  for (const auto &p : params) ps.push_back(paramType(mc, p));
  Type *ret = Type::getVoidTy(mc.ctx);
  if (results.size() == 1) ret = paramType(mc, results[0]);
  else if (results.size() > 1) {
    SmallVector<Type *, 4> rs;
    for (const auto &r : results) rs.push_back(paramType(mc, r));
    ret = StructType::get(mc.ctx, rs);
  }
  return FunctionType::get(ret, ps, false);
}

static std::string joinDims(const std::vector<uint32_t> &v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

// The callee name of a direct `call` (empty for an indirect one).
static std::string directCallee(const ptx::Instruction &in) {
  for (const auto &op : in.operands) {
    if (op.kind == ptx::Operand::Kind::List) continue;
    return op.kind == ptx::Operand::Kind::Sym ? op.name : std::string();
  }
  return {};
}

// .func bodies that may execute `exit`: those containing it, and (fixpoint)
// those calling such a function directly.
static void findExitingFunctions(ModuleCtx &mc) {
  llvm::StringMap<std::vector<std::string>> callees;
  for (const auto &pf : mc.pm.functions) {
    if (pf.isEntry || !pf.hasBody) continue;
    for (const auto &in : pf.instrs) {
      if (in.op == ptx::Opcode::Exit) mc.exitingFunctions.insert(pf.name);
      else if (in.op == ptx::Opcode::Call)
        if (std::string c = directCallee(in); !c.empty()) callees[pf.name].push_back(c);
    }
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto &[caller, cs] : callees) {
      if (mc.exitingFunctions.contains(caller)) continue;
      for (const auto &c : cs)
        if (mc.exitingFunctions.contains(c)) {
          mc.exitingFunctions.insert(caller);
          changed = true;
          break;
        }
    }
  }
}

void checkExitingFunctions(ModuleCtx &mc) {
  for (const auto &name : mc.exitingFunctions) {
    Function *f = mc.functions.lookup(name.getKey());
    if (!f) continue;
    for (User *u : f->users()) {
      auto *cb = dyn_cast<CallBase>(u);
      if (cb && cb->getCalledOperand() == f) continue;
      const ptx::Function *pf = mc.ptxFunctions.lookup(name.getKey());
      mc.unsupported(pf ? pf->loc : ptx::SourceLoc{}, "exit in an address-taken .func",
               "unsupported: 'exit' in .func '" + name.getKey().str() +
                   "' whose address is taken (indirect calls cannot propagate the exit)");
      break;
    }
  }
}

void declareFunctions(ModuleCtx &mc) {
  findExitingFunctions(mc);
  for (const auto &pf : mc.pm.functions) {
    mc.ptxFunctions[pf.name] = &pf;
    if (Function *existing = mc.m.getFunction(pf.name)) { // prototype then definition
      mc.functions[pf.name] = existing;
      continue;
    }
    if (pf.isEntry) {
      SmallVector<Type *, 8> ps;
      for (const auto &p : pf.params)
        ps.push_back(!p.dims.empty() ? (Type *)PointerType::get(mc.ctx, ConstAS) : paramType(mc, p));
      auto *fty = FunctionType::get(Type::getVoidTy(mc.ctx), ps, false);
      Function *f = Function::Create(fty, GlobalValue::ExternalLinkage, pf.name, &mc.m);
      f->setCallingConv(CallingConv::AMDGPU_KERNEL);
      for (unsigned i = 0; i < pf.params.size(); ++i) {
        const auto &p = pf.params[i];
        Argument *a = f->getArg(i);
        a->setName(p.name);
        if (!p.dims.empty()) {
          a->addAttr(Attribute::getWithByRefType(mc.ctx, paramType(mc, p)));
          a->addAttr(Attribute::getWithAlignment(mc.ctx, Align(p.align ? p.align : 1)));
          a->addAttr(Attribute::NoAlias);
          a->addAttr(Attribute::ReadOnly);
        } else if (p.align && p.align > ptx::typeBits(p.type) / 8) {
          mc.unsupported(p.loc, "over-aligned scalar kernel parameter", "unsupported kernel parameter '" + p.name + "': over-aligned scalar", pf.name);
        }
      }
      if (!pf.perf.maxntid.empty()) f->addFnAttr(support::attr::kMaxntid, joinDims(pf.perf.maxntid));
      if (!pf.perf.reqntid.empty()) f->addFnAttr(support::attr::kReqntid, joinDims(pf.perf.reqntid));
      if (pf.perf.minnctapersm) f->addFnAttr(support::attr::kMinnctapersm, std::to_string(*pf.perf.minnctapersm));
      if (pf.perf.maxnreg) f->addFnAttr(support::attr::kMaxnreg, std::to_string(*pf.perf.maxnreg));
      f->addFnAttr(support::attr::kKernel);
      setSourcePosition(f, pf.loc);
      mc.functions[pf.name] = f;
      continue;
    }
    FunctionType *fty = prototypeType(mc, pf.results, pf.params);
    bool exits = mc.exitingFunctions.contains(pf.name);
    if (exits) { // trailing exit flag (Control.cpp)
      SmallVector<Type *, 8> ps(fty->params());
      ps.push_back(PointerType::get(mc.ctx, PrivateAS));
      fty = FunctionType::get(fty->getReturnType(), ps, false);
    }
    std::string name = pf.name;
    GlobalValue::LinkageTypes lk = GlobalValue::InternalLinkage;
    if (!pf.hasBody && isRuntimeFunction(pf.name)) // ptx_devlib.h names: __ptx_vprintf, __ptx_assertfail, ...
      name = devlibName(pf.name);
    if (pf.linkage == ptx::Linkage::Visible || pf.linkage == ptx::Linkage::Extern || !pf.hasBody)
      lk = GlobalValue::ExternalLinkage;
    if (pf.linkage == ptx::Linkage::Weak) lk = GlobalValue::WeakAnyLinkage;
    Function *f = mc.m.getFunction(name);
    if (!f) f = Function::Create(fty, lk, name, &mc.m);
    f->addFnAttr(Attribute::NoUnwind);
    // A function that may exit returns to its callers to unwind the thread.
    if ((pf.perf.noreturn && !exits) || pf.name == "__assertfail") f->addFnAttr(Attribute::NoReturn);
    for (unsigned i = 0; i < pf.params.size() && i < f->arg_size(); ++i) f->getArg(i)->setName(pf.params[i].name);
    if (exits) f->getArg(f->arg_size() - 1)->setName("ptx.exit.flag");
    setSourcePosition(f, pf.loc);
    mc.functions[pf.name] = f;
  }
}

static bool dispatch(FnCtx &fc, const ptx::Instruction &in) {
  using O = ptx::Opcode;
  ptx::Type t = in.type(0);
  switch (in.op) {
  case O::Add: case O::Sub: case O::Mul: case O::Mad: case O::Fma: case O::Min: case O::Max:
  case O::Abs: case O::Neg: case O::Div: case O::Rem:
    if (isHalfType(t)) return translateHalf(fc, in);
    if (t == ptx::Type::F32 || t == ptx::Type::F64) return translateFloatArith(fc, in);
    return translateIntArith(fc, in);
  case O::Mul24: case O::Mad24: case O::Sad: case O::Popc: case O::Clz: case O::Bfind:
  case O::Brev: case O::Bfe: case O::Bfi: case O::Bmsk: case O::Szext: case O::Dp4a:
  case O::Dp2a: case O::Addc: case O::Subc: case O::Madc: case O::Fns:
    return translateIntArith(fc, in);
  case O::Rcp: case O::Sqrt: case O::Rsqrt: case O::Sin: case O::Cos: case O::Lg2: case O::Ex2:
  case O::Tanh: case O::Testp: case O::Copysign:
    if (isHalfType(t)) return translateHalf(fc, in);
    return translateFloatArith(fc, in);
  case O::Set: case O::Setp: case O::Selp: case O::Slct:
    return translateCompare(fc, in);
  case O::And: case O::Or: case O::Xor: case O::Not: case O::Cnot: case O::Lop3: case O::Shf:
  case O::Shl: case O::Shr: case O::Prmt:
    return translateLogic(fc, in);
  case O::Mov:
    return translateMove(fc, in);
  case O::Cvt:
    return translateConvert(fc, in);
  case O::Ld: case O::Ldu: case O::St: case O::Prefetch: case O::Prefetchu: case O::Isspacep:
  case O::Cvta:
    return translateMemory(fc, in);
  case O::Atom: case O::Red: case O::Membar: case O::Fence:
    return translateAtomics(fc, in);
  case O::Bra: case O::Brx: case O::Call: case O::Ret: case O::Exit: case O::Trap:
  case O::Nanosleep:
    return translateControl(fc, in);
  case O::Shfl: case O::Vote: case O::Match: case O::Redux: case O::Activemask: case O::Elect:
  case O::Bar: case O::Barrier:
    return translateWarp(fc, in);
  case O::Tex: case O::Tld4: case O::Txq: case O::Suq: case O::Suld: case O::Sust:
    return translateTexture(fc, in);
  case O::Cp: case O::Mbarrier:
    return translateAsync(fc, in);
  case O::Vadd: case O::Vsub: case O::Vabsdiff: case O::Vmin: case O::Vmax: case O::Vshl: case O::Vshr:
  case O::Vmad: case O::Vset: case O::Vadd2: case O::Vsub2: case O::Vavrg2: case O::Vabsdiff2: case O::Vmin2:
  case O::Vmax2: case O::Vset2: case O::Vadd4: case O::Vsub4: case O::Vavrg4: case O::Vabsdiff4: case O::Vmin4:
  case O::Vmax4: case O::Vset4:
    return translateVideo(fc, in);
  case O::Wmma: case O::Mma: case O::Ldmatrix: case O::Stmatrix: case O::Movmatrix:
    return translateTensor(fc, in);
  case O::Pmevent:
    // pmevent signals a performance-monitor event to an attached profiler;
    // it has no effect on the program's state, and there is no NVIDIA
    // profiler here to receive it.
    return true;
  case O::Griddepcontrol:
    // Programmatic dependent launch: .wait waits for the prerequisite grids,
    // which a stream-ordered launch has already completed; .launch_dependents
    // is a scheduling hint. Both have no effect here.
    return true;
  default:
    return fc.unsupported(in);
  }
}

// Storage for a .local/.param variable declared in a body: a private alloca
// in the entry block.
static Value *makeSlot(FnCtx &fc, Type *ty, uint32_t align, const std::string &name) {
  IRBuilder<> eb(fc.entry, fc.entry->begin());
  auto *a = eb.CreateAlloca(ty, PrivateAS, nullptr, name);
  a->setAlignment(Align(std::max<uint32_t>(align, 1)));
  return a;
}

static void declareLocal(FnCtx &fc, const ptx::Variable &v, unsigned index) {
  Scope &sc = fc.scopes.back();
  sc.decls[v.name] = &v;
  switch (v.space) {
  case ptx::Space::Local:
  case ptx::Space::Param: {
    Type *ty = v.space == ptx::Space::Param ? paramType(fc.mc, v) : variableType(fc.mc, v);
    uint32_t align = v.align ? v.align : std::max(1u, ptx::typeBits(v.type) / 8);
    sc.vars[v.name] = makeSlot(fc, ty, align, v.name);
    return;
  }
  case ptx::Space::Shared:
  case ptx::Space::Const:
  case ptx::Space::Global: {
    GlobalVariable *gv = makeVariable(fc.mc, v, true, fc.pf.name + "." + std::to_string(index));
    initializeVariable(fc.mc, v, gv);
    sc.vars[v.name] = gv;
    return;
  }
  default:
    fc.unsupportedAt(v.loc, "." + std::string(ptx::spaceName(v.space)) + " variable",
                     "unsupported variable '" + v.name + "' in state space ." +
                         std::string(ptx::spaceName(v.space)));
  }
}

void translateBody(ModuleCtx &mc, const ptx::Function &pf) {
  Function *f = mc.functions.lookup(pf.name);
  if (!f || !pf.hasBody) return;
  FnCtx fc(mc, pf);
  fc.f = f;
  fc.entry = BasicBlock::Create(mc.ctx, "entry", f);
  fc.b.SetInsertPoint(fc.entry);
  // Registers.
  fc.regs.resize(pf.regs.size(), nullptr);
  for (size_t i = 0; i < pf.regs.size(); ++i) {
    const auto &r = pf.regs[i];
    if (r.vecWidth) continue; // vector registers: reported at their use
    std::string n = r.name.size() > 1 && r.name[0] == '%' ? r.name.substr(1) : r.name;
    fc.regs[i] = fc.b.CreateAlloca(fc.storageType(r), PrivateAS, nullptr, n);
  }
  fc.carry = fc.b.CreateAlloca(fc.i1(), PrivateAS, nullptr, "cc.cf");
  fc.b.CreateStore(fc.b.getFalse(), fc.carry);
  // `exit` in a .func: the exit flag (Control.cpp). Kernels own it; exiting
  // .funcs get the caller's as their trailing argument.
  if (pf.isEntry && !mc.exitingFunctions.empty()) {
    fc.exitFlag = fc.b.CreateAlloca(fc.i1(), PrivateAS, nullptr, "ptx.exited");
    fc.b.CreateStore(fc.b.getFalse(), fc.exitFlag);
  } else if (!pf.isEntry && mc.exitingFunctions.contains(pf.name)) {
    fc.exitFlag = f->getArg(f->arg_size() - 1);
  }
  fc.scopes.emplace_back();
  // Parameters.
  for (unsigned i = 0; i < pf.params.size(); ++i) {
    const auto &p = pf.params[i];
    Argument *a = f->getArg(i);
    fc.scopes.back().decls[p.name] = &p;
    if (pf.isEntry && !p.dims.empty()) { fc.scopes.back().vars[p.name] = a; continue; }
    Value *slot = fc.b.CreateAlloca(a->getType(), PrivateAS, nullptr, p.name + ".addr");
    cast<AllocaInst>(slot)->setAlignment(Align(std::max<uint32_t>(p.align, std::max(1u, ptx::typeBits(p.type) / 8))));
    fc.b.CreateStore(a, slot);
    fc.scopes.back().vars[p.name] = slot;
  }
  for (const auto &r : pf.results) {
    Value *slot = fc.b.CreateAlloca(paramType(mc, r), PrivateAS, nullptr, r.name);
    fc.scopes.back().vars[r.name] = slot;
    fc.scopes.back().decls[r.name] = &r;
    fc.resultSlots.push_back(slot);
  }
  // Labels.
  for (const auto &l : pf.labels) fc.labels[l.name] = BasicBlock::Create(mc.ctx, l.name, f);
  BasicBlock *body = BasicBlock::Create(mc.ctx, "body", f, fc.labels.empty() ? nullptr : &*std::next(f->begin()));
  fc.b.CreateBr(body);
  fc.b.SetInsertPoint(body);

  auto ensureBlock = [&] {
    if (fc.b.GetInsertBlock()->getTerminator())
      fc.b.SetInsertPoint(BasicBlock::Create(mc.ctx, "dead", f));
  };
  // Every non-branch IR instruction made for a PTX instruction carries its source
  // position as `!ptx.loc !{i32 line, i32 col}` (a lightweight stand-in for
  // DILocations: no debug info in the code object, no codegen changes);
  // amdgpu-lower's diagnostics (-Wwarp-size) point at the PTX line with it.
  // (IRBuilder copies metadata kinds from a source instruction: a detached
  // carrier holds the current position.)
  unsigned locKind = mc.ctx.getMDKindID(support::md::kLoc);
  std::unique_ptr<Instruction, void (*)(Instruction *)> carrier(new UnreachableInst(mc.ctx),
                                                                [](Instruction *i) { i->deleteValue(); });
  // With `.loc` directives (nvcc -lineinfo / -G) the CUDA position too:
  // `!ptx.srcloc !{!"file.cu", i32 line, i32 col}` from the last `.loc`.
  unsigned srcKind = mc.ctx.getMDKindID(support::md::kSrcLoc);
  MDNode *srcMD = nullptr;
  for (const auto &st : pf.body) {
    if (st.kind == ptx::Statement::Kind::Loc && st.index < pf.locs.size()) {
      const ptx::LocDirective &ld = pf.locs[st.index];
      srcMD = nullptr;
      for (const auto &fd : mc.pm.files)
        if (fd.index == ld.file && ld.line)
          srcMD = MDNode::get(mc.ctx, {MDString::get(mc.ctx, fd.path),
                                       ConstantAsMetadata::get(fc.b.getInt32(ld.line)),
                                       ConstantAsMetadata::get(fc.b.getInt32(ld.col))});
    }
    if (st.kind == ptx::Statement::Kind::Instr) {
      const ptx::SourceLoc &loc = pf.instrs[st.index].loc;
      MDNode *md = nullptr;
      if (loc.line)
        md = MDNode::get(mc.ctx, {ConstantAsMetadata::get(fc.b.getInt32(loc.line)),
                                  ConstantAsMetadata::get(fc.b.getInt32(loc.col))});
      carrier->setMetadata(locKind, md);
      carrier->setMetadata(srcKind, srcMD);
      fc.b.CollectMetadataToCopy(carrier.get(), {locKind, srcKind});
    }
    switch (st.kind) {
    case ptx::Statement::Kind::Label: {
      BasicBlock *bb = fc.labels[pf.labels[st.index].name];
      if (!fc.b.GetInsertBlock()->getTerminator()) fc.b.CreateBr(bb);
      bb->moveAfter(fc.b.GetInsertBlock());
      fc.b.SetInsertPoint(bb);
      break;
    }
    case ptx::Statement::Kind::BlockBegin: fc.scopes.emplace_back(); break;
    case ptx::Statement::Kind::BlockEnd: if (fc.scopes.size() > 1) fc.scopes.pop_back(); break;
    case ptx::Statement::Kind::VarDecl: declareLocal(fc, pf.locals[st.index], st.index); break;
    case ptx::Statement::Kind::Instr: {
      ensureBlock();
      const auto &in = pf.instrs[st.index];
      if (in.guard) {
        const auto &g = *in.guard;
        Value *p = fc.b.CreateLoad(fc.i1(), fc.regs[g.reg], g.name.size() > 1 ? g.name.substr(1) : g.name);
        if (g.negated) p = fc.b.CreateNot(p);
        BasicBlock *thenBB = BasicBlock::Create(mc.ctx, "guard.then", f);
        BasicBlock *contBB = BasicBlock::Create(mc.ctx, "guard.cont", f);
        fc.b.CreateCondBr(p, thenBB, contBB);
        fc.b.SetInsertPoint(thenBB);
        dispatch(fc, in);
        if (!fc.b.GetInsertBlock()->getTerminator()) fc.b.CreateBr(contBB);
        contBB->moveAfter(fc.b.GetInsertBlock());
        fc.b.SetInsertPoint(contBB);
      } else {
        dispatch(fc, in);
      }
      break;
    }
    default: break; // RegDecl (registers are resolved), Pragma, Loc, TargetList
    }
  }
  carrier->setMetadata(locKind, nullptr);
  carrier->setMetadata(srcKind, nullptr);
  fc.b.CollectMetadataToCopy(carrier.get(), {locKind, srcKind});
  // Branches carry no position (nothing reports on them; keeps `br` lines plain).
  for (BasicBlock &bb : *f)
    if (Instruction *t = bb.getTerminator()) t->setMetadata(locKind, nullptr), t->setMetadata(srcKind, nullptr);
  // Falling off the end of a body returns.
  if (!fc.b.GetInsertBlock()->getTerminator()) {
    if (f->getReturnType()->isVoidTy()) fc.b.CreateRetVoid();
    else fc.b.CreateUnreachable();
  }
  // Unused label blocks with no terminator (labels never reached) end in unreachable.
  for (BasicBlock &bb : *f)
    if (!bb.getTerminator()) { IRBuilder<> tb(&bb); tb.CreateUnreachable(); }
}

} // namespace ptx2llvm
