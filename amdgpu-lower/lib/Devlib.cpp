//===- Devlib.cpp - Link the device library variant for each warp policy ---===//
//
// The device library (devlib/*.c, ptx_devlib.h) is compiled at build time
// into three bitcode variants (wave32, wave64-pack, wave64-pad) embedded in
// this library. Linking: the variant's functions lose their target-cpu /
// target-features and inferred "amdgpu-no-*" attributes (they take the
// kernel's target; the attributor re-infers), its module flags are dropped
// (the code object version is ours), and only what is referenced is linked.
// Linked devlib functions become internal and always_inline, so the
// optimiser inlines and drops them (except the tensor-core and texture models,
// which stay calls: see below). A wave64 module with both pack and pad kernels links pack for
// everything and, for pad kernels, clones every function reachable from
// them (suffix `.ptx2amd.pad`) and binds those clones to a renamed copy of
// the pad variant; an indirect call on the pad side compares the callee
// pointer with every address-taken function of its type and calls that
// function's pad clone (the pointer values themselves stay the pack
// functions', so pointers stored in memory are shared by both sides). The
// library's `__ptx2amd_code_object_version` constant gets the module's code
// object version. A `__ptx_*` call the library does not define is an error
// (interface mismatch), never a silent undefined symbol.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <cstddef>

namespace amdgpulower::embedded {
extern const unsigned char devlib_w32[], devlib_w64pack[], devlib_w64pad[];
extern const std::size_t devlib_w32_size, devlib_w64pack_size, devlib_w64pad_size;
} // namespace amdgpulower::embedded

namespace amdgpulower {

static constexpr const char *kPadSuffix = support::global::kPadSuffix;

bool isDevlibName(llvm::StringRef name) {
  return name.starts_with(support::global::kDevlibPrefix) || name.starts_with(support::global::kInternalPrefix);
}

namespace {

llvm::Expected<std::unique_ptr<llvm::Module>> loadVariant(WarpPolicy p, unsigned waveSize,
                                                          llvm::Module &dst) {
  using namespace embedded;
  const unsigned char *data = devlib_w32;
  size_t size = devlib_w32_size;
  const char *name = "ptx_devlib_w32.bc";
  if (waveSize == 64) {
    data = p == WarpPolicy::Pad ? devlib_w64pad : devlib_w64pack;
    size = p == WarpPolicy::Pad ? devlib_w64pad_size : devlib_w64pack_size;
    name = p == WarpPolicy::Pad ? "ptx_devlib_w64pad.bc" : "ptx_devlib_w64pack.bc";
  }
  llvm::MemoryBufferRef buf(llvm::StringRef(reinterpret_cast<const char *>(data), size), name);
  auto lib = llvm::parseBitcodeFile(buf, dst.getContext());
  if (!lib) return lib.takeError();
  llvm::Module &l = **lib;
  for (llvm::Function &f : l) {
    f.removeFnAttr("target-cpu");
    f.removeFnAttr("target-features");
    llvm::SmallVector<llvm::StringRef, 16> drop;
    for (const llvm::Attribute &a : f.getAttributes().getFnAttrs())
      if (a.isStringAttribute() && a.getKindAsString().starts_with("amdgpu-no-"))
        drop.push_back(a.getKindAsString());
    for (llvm::StringRef k : drop) f.removeFnAttr(k);
  }
  // LDS state (software barriers) is zero-initialised in C; LDS cannot be:
  // it is initialised at kernel entry instead (__ptx2amd_barrier_init).
  for (llvm::GlobalVariable &g : l.globals())
    if (g.getAddressSpace() == llvm::AMDGPUAS::LOCAL_ADDRESS && g.hasInitializer())
      g.setInitializer(llvm::PoisonValue::get(g.getValueType()));
  if (llvm::NamedMDNode *flags = l.getModuleFlagsMetadata()) l.eraseNamedMetadata(flags);
  if (llvm::NamedMDNode *ident = l.getNamedMetadata("llvm.ident")) l.eraseNamedMetadata(ident);
  l.setDataLayout(dst.getDataLayout());
  l.setTargetTriple(dst.getTargetTriple());
  return std::move(*lib);
}

llvm::Error linkInto(llvm::Module &m, std::unique_ptr<llvm::Module> lib) {
  if (llvm::Linker::linkModules(m, std::move(lib), llvm::Linker::LinkOnlyNeeded))
    return support::internalError(support::noLocf("linking the ptx2amd device library failed"));
  return llvm::Error::success();
}

// An indirect call made by pad-side code: `call %fp(args)` becomes
//   if (%fp == @f1) call @f1.ptx2amd.pad(args) else if (%fp == @f2) ... else call %fp(args)
// over the address-taken functions of the call's type that have pad clones.
void dispatchIndirectCallToPadClones(llvm::CallInst *ci,
                                     const llvm::DenseMap<llvm::Function *, llvm::Function *> &clones) {
  llvm::SmallVector<std::pair<llvm::Function *, llvm::Function *>, 8> cands;
  for (auto &[orig, clone] : clones)
    if (orig->hasAddressTaken() && orig->getFunctionType() == ci->getFunctionType())
      cands.push_back({orig, clone});
  if (cands.empty()) return;
  // Deterministic order (DenseMap iteration is not).
  llvm::sort(cands, [](auto &a, auto &b) { return a.first->getName() < b.first->getName(); });
  llvm::LLVMContext &ctx = ci->getContext();
  llvm::Function *fn = ci->getFunction();
  llvm::BasicBlock *head = ci->getParent();
  llvm::BasicBlock *tail = head->splitBasicBlock(ci->getIterator(), "icall.pad.end");
  head->getTerminator()->eraseFromParent();
  llvm::Value *fp = ci->getCalledOperand();
  llvm::SmallVector<llvm::Value *, 8> args(ci->args());
  llvm::PHINode *phi = nullptr;
  if (!ci->getType()->isVoidTy()) {
    phi = llvm::PHINode::Create(ci->getType(), unsigned(cands.size()) + 1, "icall.pad.result");
    phi->insertBefore(tail->begin());
  }
  llvm::IRBuilder<> b(ctx);
  llvm::BasicBlock *cur = head;
  for (auto &[orig, clone] : cands) {
    auto *call = llvm::BasicBlock::Create(ctx, "icall.pad", fn, tail);
    auto *next = llvm::BasicBlock::Create(ctx, "icall.pad.next", fn, tail);
    b.SetInsertPoint(cur);
    b.CreateCondBr(b.CreateICmpEQ(fp, orig), call, next);
    b.SetInsertPoint(call);
    llvm::CallInst *direct = b.CreateCall(clone, args);
    direct->setCallingConv(ci->getCallingConv());
    direct->setAttributes(ci->getAttributes());
    direct->setDebugLoc(ci->getDebugLoc());
    b.CreateBr(tail);
    if (phi) phi->addIncoming(direct, call);
    cur = next;
  }
  // Any other pointer (none is reachable from PTX today) keeps the original call.
  b.SetInsertPoint(cur);
  llvm::BranchInst *br = b.CreateBr(tail);
  ci->moveBefore(br->getIterator());
  if (phi) {
    ci->replaceAllUsesWith(phi);
    phi->addIncoming(ci, cur);
  }
}

// Clone everything reachable from pad kernels and bind it to suffixed devlib names.
void isolatePadKernels(llvm::Module &m, const PolicyMap &policies) {
  llvm::DenseMap<llvm::Function *, llvm::Function *> clones;
  llvm::SmallVector<llvm::Function *, 16> padSide;
  for (auto &[k, p] : policies) {
    if (p != WarpPolicy::Pad) continue;
    auto *kernel = const_cast<llvm::Function *>(k);
    padSide.push_back(kernel);
    for (llvm::Function *f : reachableFunctions(kernel)) {
      if (f == kernel || f->isDeclaration() || clones.count(f) ||
          f->getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL)
        continue;
      llvm::ValueToValueMapTy vmap;
      llvm::Function *c = llvm::CloneFunction(f, vmap);
      c->setName(f->getName() + kPadSuffix);
      c->setLinkage(llvm::GlobalValue::InternalLinkage);
      clones[f] = c;
      padSide.push_back(c);
    }
  }
  llvm::SmallVector<llvm::CallInst *, 8> indirect;
  for (llvm::Function *f : padSide)
    for (llvm::BasicBlock &bb : *f)
      for (llvm::Instruction &i : bb) {
        auto *cb = llvm::dyn_cast<llvm::CallBase>(&i);
        if (!cb) continue;
        llvm::Function *callee = cb->getCalledFunction();
        if (!callee) {
          if (auto *ci = llvm::dyn_cast<llvm::CallInst>(cb); ci && !ci->isInlineAsm())
            indirect.push_back(ci);
          continue;
        }
        if (auto it = clones.find(callee); it != clones.end()) {
          cb->setCalledFunction(it->second);
        } else if (callee->isDeclaration() && isDevlibName(callee->getName())) {
          llvm::Function *decl = m.getFunction((callee->getName() + kPadSuffix).str());
          if (!decl) {
            decl = llvm::Function::Create(callee->getFunctionType(), llvm::GlobalValue::ExternalLinkage,
                                          callee->getName() + kPadSuffix, m);
            decl->setAttributes(callee->getAttributes());
          }
          cb->setCalledFunction(decl);
        }
      }
  for (llvm::CallInst *ci : indirect) dispatchIndirectCallToPadClones(ci, clones);
}

} // namespace

llvm::Error linkDeviceLibrary(llvm::Module &m, const PolicyMap &policies, const TargetInfo &t) {
  bool anyPack = false, anyPad = false;
  for (auto &[k, p] : policies) {
    anyPack |= p == WarpPolicy::Pack;
    anyPad |= p == WarpPolicy::Pad;
  }
  if (t.waveSize == 32) {
    auto lib = loadVariant(WarpPolicy::Native, 32, m);
    if (!lib) return lib.takeError();
    if (auto e = linkInto(m, std::move(*lib))) return e;
  } else if (anyPack && anyPad) {
    isolatePadKernels(m, policies);
    auto pack = loadVariant(WarpPolicy::Pack, 64, m);
    if (!pack) return pack.takeError();
    if (auto e = linkInto(m, std::move(*pack))) return e;
    auto pad = loadVariant(WarpPolicy::Pad, 64, m);
    if (!pad) return pad.takeError();
    for (llvm::Function &f : **pad)
      if (!f.isIntrinsic()) f.setName(f.getName() + kPadSuffix);
    // Launcher-visible globals are shared: keep the definition linked first.
    for (llvm::GlobalVariable &g : (*pad)->globals())
      if (!g.hasLocalLinkage() && m.getNamedGlobal(g.getName()) && !g.isDeclaration()) {
        g.setInitializer(nullptr);
        g.setLinkage(llvm::GlobalValue::ExternalLinkage);
      }
    if (auto e = linkInto(m, std::move(*pad))) return e;
  } else {
    auto lib = loadVariant(anyPad ? WarpPolicy::Pad : WarpPolicy::Pack, 64, m);
    if (!lib) return lib.takeError();
    if (auto e = linkInto(m, std::move(*lib))) return e;
  }

  // The library's code-object-version constant (wave.h): hidden-argument
  // reads under v5/v6, dispatch-packet reads under v4.
  if (llvm::GlobalVariable *g = m.getNamedGlobal("__ptx2amd_code_object_version");
      g && g->isDeclaration()) {
    unsigned cov = 5;
    if (auto *md = llvm::mdconst::extract_or_null<llvm::ConstantInt>(
            m.getModuleFlag("amdhsa_code_object_version")))
      cov = unsigned(md->getZExtValue() / 100);
    // Replace the loads now (the per-kernel module split would otherwise
    // externalise an internal constant and keep the tests at run time).
    llvm::Constant *value = llvm::ConstantInt::get(g->getValueType(), cov);
    llvm::SmallVector<llvm::User *, 8> users(g->users());
    for (llvm::User *u : users)
      if (auto *ld = llvm::dyn_cast<llvm::LoadInst>(u); ld && ld->getType() == value->getType()) {
        ld->replaceAllUsesWith(value);
        ld->eraseFromParent();
      }
    if (g->use_empty()) g->eraseFromParent();
    else return llvm::createStringError("__ptx2amd_code_object_version used other than by loads");
  }
  for (llvm::Function &f : m) {
    if (!isDevlibName(f.getName())) continue;
    if (f.isDeclaration()) {
      if (!f.use_empty() && !f.isIntrinsic())
        return support::contractViolation(support::noLocf("the ptx2amd device library does not define '%s' "
                                       "(ptx_devlib.h interface mismatch)",
                                       f.getName().str().c_str()));
      continue;
    }
    if (f.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL) continue;
    f.setLinkage(llvm::GlobalValue::InternalLinkage);
    // Device-library functions are small and their arguments are mostly
    // constants (barrier ids, shuffle masks): always inline them, so calls
    // cost nothing, dead paths (software barriers for bar.sync 0) vanish and
    // their LDS is only allocated in kernels that really use it.
    // Exceptions: the tensor-core accumulation model (__ptx_tc_*, tensor.c) is
    // large, called once per mma element and k-step, and stays a call; so do the
    // texture samplers (__ptx_tex*, texture.c: the whole filter footprint, called
    // once per tex instruction and destination component; inlined, a module with
    // 8 tex instructions took 3-4 s of codegen per target, the targets sample of
    // tex_layered_cube ~384 s under load).
    if (f.getName().starts_with("__ptx_tc_") || f.getName().starts_with("__ptx_tex")) {
      f.addFnAttr(llvm::Attribute::NoInline);
      continue;
    }
    f.removeFnAttr(llvm::Attribute::NoInline);
    f.removeFnAttr(llvm::Attribute::OptimizeNone);
    f.addFnAttr(llvm::Attribute::AlwaysInline);
  }
  return llvm::Error::success();
}

} // namespace amdgpulower
