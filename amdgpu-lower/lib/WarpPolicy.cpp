//===- WarpPolicy.cpp - Choose each kernel's warp policy ---------------------===//
//
// wave32 targets run one CUDA warp per wave ("native"), whatever the options
// say. wave64 targets use the module default (--warp-policy=pack|pad, pack
// unless told) overridden per kernel (--warp-policy=KERNEL=pad). Naming a
// kernel the module does not define is an error, so typos do not silently
// fall back to the default.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"

namespace amdgpulower {

namespace {

bool refersTo(const llvm::Value *v, const llvm::GlobalVariable *g, unsigned depth = 0) {
  if (v == g) return true;
  auto *ce = llvm::dyn_cast<llvm::ConstantExpr>(v);
  if (!ce || depth > 8) return false;
  for (const llvm::Value *op : ce->operands())
    if (refersTo(op, g, depth + 1)) return true;
  return false;
}

// Does the kernel (or a function it calls) use the reserved shared memory?
bool usesReservedSmem(llvm::Function &k) {
  const llvm::GlobalVariable *g = k.getParent()->getNamedGlobal("__ptx_reserved_smem");
  if (!g) return false;
  for (llvm::Function *f : reachableFunctions(&k))
    for (const llvm::Instruction &i : llvm::instructions(*f))
      for (const llvm::Value *op : i.operands())
        if (refersTo(op, g)) return true;
  return false;
}

} // namespace

llvm::Expected<PolicyMap> resolveWarpPolicies(llvm::Module &m, const TargetInfo &t,
                                              const LowerOptions &opts) {
  PolicyMap map;
  for (const auto &[name, p] : opts.kernelPolicy) {
    llvm::Function *f = m.getFunction(name);
    if (!f || f->getCallingConv() != llvm::CallingConv::AMDGPU_KERNEL)
      return support::invalidInput(support::noLocf("--warp-policy names '%s', which is not a kernel of this module",
                                     name.c_str()));
    if (p == WarpPolicy::Native)
      return support::invalidInput(support::noLocf("--warp-policy for '%s': policy must be pack or pad",
                                     name.c_str()));
  }
  if (opts.defaultPolicy == WarpPolicy::Native)
    return support::invalidInput(support::noLocf("--warp-policy: module policy must be pack or pad"));
  for (llvm::Function &f : m) {
    if (f.isDeclaration() || f.getCallingConv() != llvm::CallingConv::AMDGPU_KERNEL) continue;
    if (t.waveSize == 32) {
      map[&f] = WarpPolicy::Native;
      continue;
    }
    auto it = opts.kernelPolicy.find(f.getName().str());
    if (it != opts.kernelPolicy.end()) map[&f] = it->second;
    else if (opts.defaultPolicy == WarpPolicy::Pack && usesReservedSmem(f)) map[&f] = WarpPolicy::Pad;
    else map[&f] = opts.defaultPolicy;
  }
  return map;
}

} // namespace amdgpulower

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

namespace amdgpulower {

FunctionSet reachableFunctions(llvm::Function *root) {
  FunctionSet seen;
  llvm::SmallVector<llvm::Function *, 16> work{root};
  bool addedAddressTaken = false;
  while (!work.empty()) {
    llvm::Function *f = work.pop_back_val();
    if (!seen.insert(f) || f->isDeclaration()) continue;
    for (llvm::Instruction &i : llvm::instructions(*f)) {
      auto *cb = llvm::dyn_cast<llvm::CallBase>(&i);
      if (!cb) continue;
      if (llvm::Function *callee = cb->getCalledFunction()) {
        work.push_back(callee);
      } else if (!cb->isInlineAsm() && !addedAddressTaken) {
        addedAddressTaken = true;
        for (llvm::Function &g : *f->getParent())
          if (!g.isDeclaration() && g.hasAddressTaken()) work.push_back(&g);
      }
    }
  }
  return seen;
}

} // namespace amdgpulower
