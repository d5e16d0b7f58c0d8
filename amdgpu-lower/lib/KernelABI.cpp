//===- KernelABI.cpp - Kernel attributes, pad wrappers, barrier-state init --===//
//
// Applies the launch ABI of docs/pipeline.md to every kernel:
//  * pad kernels get a trailing explicit kernarg `__ptx2amd_block_dim`
//    (<4 x i32>: CUDA block x, y, z, 0; 16 bytes, 16-aligned so the hidden
//    arguments start right after it) and an entry guard that retires the
//    idle hardware lanes (lane 32..63 of each wave64, and the tail beyond
//    the CUDA block size) before the PTX body runs;
//  * kernels that can reach a software barrier (named barrier, thread count,
//    bar.arrive, bar.red) call __ptx2amd_barrier_init first (LDS is not
//    zeroed at launch);
//  * .maxntid / .reqntid (ptx-to-llvm attributes "ptx.maxntid"/"ptx.reqntid",
//    "x,y,z") -> "amdgpu-flat-work-group-size" and !reqd_work_group_size,
//    in hardware work-items (64 per warp under pad); .minnctapersm
//    ("ptx.minnctapersm") -> "amdgpu-waves-per-eu" (minimum) when the block
//    size is bounded;
//  * "uniform-work-group-size"="true" (CUDA grids are whole blocks),
//    "ptx2amd.wave-size" and "ptx2amd.warp-policy" for launchers;
//  * "amdgpu-no-{completion-action,default-queue,hostcall-ptr,
//    multigrid-sync-arg}": translated CUDA never uses OpenCL device enqueue,
//    ockl hostcalls or multi-grid sync (printf and malloc are the device
//    library's own FIFO and heap). LLVM infers these only when it sees the
//    whole call graph; with an indirect call it keeps the hidden arguments,
//    and ROCclr 5.2.3 takes a kernel whose metadata lists
//    hidden_completion_action for an OpenCL enqueue kernel and runs its
//    device-enqueue scheduler after it (devkernel.cpp setDynamicParallelFlag,
//    rocvirtual.cpp runScheduler: a null scheduler state, a crash seen under
//    vgpu), and starts a hostcall listener thread for hidden_hostcall_buffer;
//  * the module flag amdhsa_code_object_version (4, 5 or 6; generic
//    targets require 6).
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/MDBuilder.h"

namespace amdgpulower {

namespace {

// "x,y,z" (1..3 values) -> dims padded with 1; empty when absent.
llvm::Expected<std::vector<uint64_t>> parseDims(const llvm::Function &f, const char *attr) {
  std::vector<uint64_t> dims;
  if (!f.hasFnAttribute(attr)) return dims;
  llvm::SmallVector<llvm::StringRef, 3> parts;
  f.getFnAttribute(attr).getValueAsString().split(parts, ',');
  for (llvm::StringRef p : parts) {
    uint64_t v = 0;
    if (p.trim().getAsInteger(10, v) || v == 0)
      return support::contractViolation(support::noLocf("kernel '%s': malformed attribute %s=\"%s\"",
                                     f.getName().str().c_str(), attr,
                                     f.getFnAttribute(attr).getValueAsString().str().c_str()));
    dims.push_back(v);
  }
  if (dims.empty() || dims.size() > 3)
    return support::contractViolation(support::noLocf("kernel '%s': attribute %s needs 1..3 values",
                                   f.getName().str().c_str(), attr));
  dims.resize(3, 1);
  return dims;
}

bool isSoftwareBarrierCall(const llvm::CallBase &cb) {
  const llvm::Function *f = cb.getCalledFunction();
  if (!f) return false;
  llvm::StringRef n = f->getName();
  if (n == "__ptx_bar_arrive" || n.starts_with("__ptx_bar_red_")) return true;
  if (n != "__ptx_bar_sync") return false;
  for (unsigned i = 0; i < 2 && i < cb.arg_size(); ++i) {
    auto *c = llvm::dyn_cast<llvm::ConstantInt>(cb.getArgOperand(i));
    if (!c || !c->isZero()) return true;
  }
  return false;
}

bool reachesSoftwareBarrier(llvm::Function *kernel) {
  for (llvm::Function *f : reachableFunctions(kernel))
    for (llvm::BasicBlock &bb : *f)
      for (llvm::Instruction &i : bb)
        if (auto *cb = llvm::dyn_cast<llvm::CallBase>(&i))
          if (isSoftwareBarrierCall(*cb)) return true;
  return false;
}

// First insertion point after the entry block's static allocas.
llvm::BasicBlock::iterator afterAllocas(llvm::Function &f) {
  llvm::BasicBlock &entry = f.getEntryBlock();
  auto it = entry.begin();
  while (it != entry.end() && llvm::isa<llvm::AllocaInst>(*it)) ++it;
  return it;
}

// Replaces pad kernel `f` by a wrapper with the trailing block-dim kernarg
// and the idle-lane guard; returns the new kernel.
llvm::Function *makePadKernel(llvm::Function *f) {
  llvm::Module &m = *f->getParent();
  llvm::LLVMContext &ctx = m.getContext();
  auto *dimTy = llvm::FixedVectorType::get(llvm::Type::getInt32Ty(ctx), 4);
  llvm::SmallVector<llvm::Type *, 8> params(f->getFunctionType()->params());
  params.push_back(dimTy);
  auto *fty = llvm::FunctionType::get(f->getReturnType(), params, false);
  llvm::Function *nf = llvm::Function::Create(fty, f->getLinkage(), f->getAddressSpace(), "", &m);
  nf->copyAttributesFrom(f);
  nf->setCallingConv(f->getCallingConv());
  nf->setSubprogram(f->getSubprogram());
  nf->takeName(f);
  nf->splice(nf->begin(), f);
  for (unsigned i = 0; i < f->arg_size(); ++i) {
    llvm::Argument *oldArg = f->getArg(i), *newArg = nf->getArg(i);
    newArg->takeName(oldArg);
    oldArg->replaceAllUsesWith(newArg);
  }
  llvm::Argument *bdim = nf->getArg(f->arg_size());
  bdim->setName(support::global::kBlockDim);
  // Copy metadata (e.g. !reqd_work_group_size set later anyway).
  llvm::SmallVector<std::pair<unsigned, llvm::MDNode *>, 4> mds;
  f->getAllMetadata(mds);
  for (auto &[k, md] : mds) nf->setMetadata(k, md);
  f->replaceAllUsesWith(nf);
  f->eraseFromParent();

  // Guard block: hardware x = 64 * wave + lane; CUDA linear id 32 * wave + lane.
  llvm::BasicBlock *body = &nf->getEntryBlock();
  llvm::BasicBlock *guard = llvm::BasicBlock::Create(ctx, "ptx2amd.pad.guard", nf, body);
  llvm::BasicBlock *idle = llvm::BasicBlock::Create(ctx, "ptx2amd.pad.idle", nf, body);
  // Static allocas stay in the (new) entry block.
  for (auto it = body->begin(); it != body->end();) {
    llvm::Instruction &i = *it++;
    if (llvm::isa<llvm::AllocaInst>(i)) i.moveBefore(*guard, guard->end());
  }
  llvm::IRBuilder<> b(guard);
  llvm::Value *x = b.CreateIntrinsic(b.getInt32Ty(), llvm::Intrinsic::amdgcn_workitem_id_x, {});
  llvm::Value *lane = b.CreateAnd(x, 63);
  llvm::Value *lin = b.CreateAdd(b.CreateShl(b.CreateLShr(x, 6), 5), lane);
  llvm::Value *bx = b.CreateExtractElement(bdim, uint64_t(0));
  llvm::Value *by = b.CreateExtractElement(bdim, uint64_t(1));
  llvm::Value *bz = b.CreateExtractElement(bdim, uint64_t(2));
  llvm::Value *total = b.CreateMul(b.CreateMul(bx, by), bz);
  llvm::Value *live = b.CreateAnd(b.CreateICmpULT(lane, b.getInt32(32)), b.CreateICmpULT(lin, total));
  b.CreateCondBr(live, body, idle);
  llvm::IRBuilder<>(idle).CreateRetVoid();
  return nf;
}

unsigned ceilDiv(uint64_t a, uint64_t b) { return unsigned((a + b - 1) / b); }

} // namespace

llvm::Error applyKernelABI(llvm::Module &m, PolicyMap &policies, const TargetInfo &t,
                           const LowerOptions &opts, std::vector<Diagnostic> &diags) {
  llvm::LLVMContext &ctx = m.getContext();
  PolicyMap updated;
  llvm::SmallVector<llvm::Function *, 16> kernels;
  for (auto &[k, p] : policies) kernels.push_back(const_cast<llvm::Function *>(k));

  for (llvm::Function *f : kernels) {
    WarpPolicy policy = policies[f];
    if (!f->getReturnType()->isVoidTy())
      return support::contractViolation(support::noLocf("kernel '%s' does not return void", f->getName().str().c_str()));
    auto maxntid = parseDims(*f, kAttrMaxntid);
    if (!maxntid) return maxntid.takeError();
    auto reqntid = parseDims(*f, kAttrReqntid);
    if (!reqntid) return reqntid.takeError();
    std::optional<uint64_t> minBlocks;
    if (f->hasFnAttribute(kAttrMinnctapersm)) {
      uint64_t v = 0;
      if (f->getFnAttribute(kAttrMinnctapersm).getValueAsString().getAsInteger(10, v))
        return support::contractViolation(support::noLocf("kernel '%s': malformed ptx.minnctapersm",
                                       f->getName().str().c_str()));
      minBlocks = v;
    }
    uint64_t cudaMax = support::kMaxBlockThreads;
    if (!reqntid->empty()) cudaMax = (*reqntid)[0] * (*reqntid)[1] * (*reqntid)[2];
    else if (!maxntid->empty()) cudaMax = (*maxntid)[0] * (*maxntid)[1] * (*maxntid)[2];
    if (cudaMax > support::kMaxBlockThreads)
      return support::resourceLimit(support::noLocf("kernel '%s': %llu threads per block exceed %u",
                                     f->getName().str().c_str(), (unsigned long long)cudaMax,
                                     support::kMaxBlockThreads));

    bool swBarrier = reachesSoftwareBarrier(f);
    if (policy == WarpPolicy::Pad) {
      uint64_t hw = support::workItemsFor(cudaMax, WarpPolicy::Pad);
      if (hw > support::kMaxWorkGroupSize && (!reqntid->empty() || !maxntid->empty()))
        return support::resourceLimit(support::noLocf(
            "kernel '%s': %llu threads per block need %llu work-items under --warp-policy=pad "
            "(maximum %u, i.e. %u CUDA threads); use pack for this kernel",
            f->getName().str().c_str(), (unsigned long long)cudaMax, (unsigned long long)hw,
            support::kMaxWorkGroupSize, support::kPadMaxBlockThreads));
      f = makePadKernel(f);
    }
    if (swBarrier) {
      llvm::FunctionCallee init =
          m.getOrInsertFunction(support::global::kBarrierInit, llvm::Type::getVoidTy(ctx));
      llvm::IRBuilder<> b(&f->getEntryBlock(), afterAllocas(*f));
      auto *call = b.CreateCall(init);
      call->addFnAttr(llvm::Attribute::Convergent);
      if (auto *callee = llvm::dyn_cast<llvm::Function>(init.getCallee()))
        callee->addFnAttr(llvm::Attribute::Convergent);
    }

    // Work-group size bounds in hardware work-items.
    auto hwItems = [&](uint64_t cudaThreads) { return support::workItemsFor(cudaThreads, policy); };
    uint64_t hwMax = std::min<uint64_t>(hwItems(cudaMax), support::kMaxWorkGroupSize);
    if (!reqntid->empty()) {
      uint64_t hw = hwItems(cudaMax);
      f->addFnAttr("amdgpu-flat-work-group-size", std::to_string(hw) + "," + std::to_string(hw));
      llvm::MDBuilder mdb(ctx);
      uint64_t d[3] = {(*reqntid)[0], (*reqntid)[1], (*reqntid)[2]};
      if (policy == WarpPolicy::Pad) d[0] = hw, d[1] = d[2] = 1;
      auto *i32 = llvm::Type::getInt32Ty(ctx);
      f->setMetadata("reqd_work_group_size",
                     llvm::MDNode::get(ctx, {mdb.createConstant(llvm::ConstantInt::get(i32, d[0])),
                                             mdb.createConstant(llvm::ConstantInt::get(i32, d[1])),
                                             mdb.createConstant(llvm::ConstantInt::get(i32, d[2]))}));
    } else {
      f->addFnAttr("amdgpu-flat-work-group-size", "1," + std::to_string(hwMax));
    }
    if (minBlocks && *minBlocks > 0 && (!reqntid->empty() || !maxntid->empty())) {
      unsigned wavesPerBlock = policy == WarpPolicy::Pad ? ceilDiv(cudaMax, 32) : ceilDiv(cudaMax, t.waveSize);
      unsigned wavesPerEU = ceilDiv(*minBlocks * wavesPerBlock, 4); // 4 SIMDs per CU
      wavesPerEU = std::clamp(wavesPerEU, 1u, 8u);
      f->addFnAttr("amdgpu-waves-per-eu", std::to_string(wavesPerEU));
    } else if (minBlocks && *minBlocks > 0) {
      diags.push_back({Severity::Note, m.getSourceFileName(), 0, 0,
                       "kernel '" + f->getName().str() +
                           "': .minnctapersm ignored without .maxntid/.reqntid (block size unbounded)"});
    }
    f->addFnAttr("uniform-work-group-size", "true");
    for (const char *a : {"amdgpu-no-completion-action", "amdgpu-no-default-queue", "amdgpu-no-hostcall-ptr",
                          "amdgpu-no-multigrid-sync-arg"})
      f->addFnAttr(a);
    f->addFnAttr(kAttrWaveSize, std::to_string(t.waveSize));
    f->addFnAttr(kAttrWarpPolicy, warpPolicyName(policy));
    updated[f] = policy;
  }
  policies = std::move(updated);

  // LDS cannot be initialised on AMD hardware (and PTX .shared has no
  // initialisers): zero/undef initialisers become poison, others are errors.
  for (llvm::GlobalVariable &g : m.globals()) {
    if (g.getAddressSpace() != llvm::AMDGPUAS::LOCAL_ADDRESS || !g.hasInitializer()) continue;
    llvm::Constant *init = g.getInitializer();
    if (llvm::isa<llvm::UndefValue>(init) && !llvm::isa<llvm::PoisonValue>(init)) continue;
    if (llvm::isa<llvm::PoisonValue>(init)) continue;
    if (!init->isNullValue())
      return support::unsupported("amdgpu-lower", "initialised .shared variable", support::noLocf("shared variable '%s' has an initializer; LDS cannot be initialised",
                                     g.getName().str().c_str()));
    g.setInitializer(llvm::PoisonValue::get(g.getValueType()));
  }

  unsigned cov = t.generic ? 6 : opts.codeObjectVersion;
  if (cov < 4 || cov > 6)
    return support::invalidInput(support::noLocf("unsupported code object version %u (4, 5 or 6)", cov));
  if (auto *old = m.getModuleFlag("amdhsa_code_object_version")) {
    (void)old;
    // Replace: the translator may have set one; the option wins.
    llvm::NamedMDNode *flags = m.getModuleFlagsMetadata();
    llvm::SmallVector<llvm::MDNode *, 8> keep;
    for (llvm::MDNode *n : flags->operands()) {
      auto *key = llvm::dyn_cast<llvm::MDString>(n->getOperand(1));
      if (!key || key->getString() != "amdhsa_code_object_version") keep.push_back(n);
    }
    flags->clearOperands();
    for (llvm::MDNode *n : keep) flags->addOperand(n);
  }
  m.addModuleFlag(llvm::Module::Error, "amdhsa_code_object_version", cov * 100);
  return llvm::Error::success();
}

} // namespace amdgpulower
