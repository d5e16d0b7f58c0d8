//===- OutlineDivision64.cpp - 64-bit integer division as one subroutine --===//
//
// AMDGPU has no integer divide instruction; instruction selection expands
// every `udiv/sdiv/urem/srem i64` with a non-constant divisor inline into
// about 120 machine instructions (reciprocal estimate, two Newton steps in
// 64-bit arithmetic, corrections). nvcc emits `div.u64`/`rem.u64` for
// size_t index arithmetic, usually behind its own 32-bit fast path, so the
// 64-bit form is the cold side of a branch, yet each one costs the full
// expansion in instruction selection, scheduling and register allocation:
// the CUB histogram kernels have 64 of them each, a quarter of the machine
// instructions of the 1.4 MB CUB benchmark module. ptxas calls one shared
// subroutine for 64-bit division; this step does the same right before
// instruction selection (after the optimiser, so the module emu executes and
// `--emit=llvm` prints keep the plain instruction): each such operation
// becomes a call of one internal `noinline` function per opcode whose body is
// that same instruction, so the expansion is selected once per codegen part.
// The result is bit-identical by construction (same instruction, same
// operands). Divisions by a constant stay inline: the backend turns them into
// a multiply-high sequence, cheaper than a call. Vector divisions stay inline
// (none come from PTX).
//
// The subroutine reads no hidden kernel input, so it carries the
// `amdgpu-no-*` attributes; without them the backend would assume a callee
// needs the dispatch/queue pointers and work-item ids and set all of them up
// in every calling kernel.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "support/Contract.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace amdgpulower {
namespace {

// Hidden inputs a function needs none of (AMDGPUAttributor's vocabulary).
constexpr const char *kNoHiddenInputs[] = {
    "amdgpu-no-workitem-id-x",  "amdgpu-no-workitem-id-y",   "amdgpu-no-workitem-id-z",
    "amdgpu-no-workgroup-id-x", "amdgpu-no-workgroup-id-y",  "amdgpu-no-workgroup-id-z",
    "amdgpu-no-cluster-id-x",   "amdgpu-no-cluster-id-y",    "amdgpu-no-cluster-id-z",
    "amdgpu-no-dispatch-ptr",   "amdgpu-no-queue-ptr",       "amdgpu-no-dispatch-id",
    "amdgpu-no-implicitarg-ptr", "amdgpu-no-hostcall-ptr",   "amdgpu-no-heap-ptr",
    "amdgpu-no-multigrid-sync-arg", "amdgpu-no-default-queue", "amdgpu-no-completion-action",
    "amdgpu-no-lds-kernel-id",  "amdgpu-no-flat-scratch-init", "amdgpu-no-agpr"};

bool outlined(const BinaryOperator &b) {
  switch (b.getOpcode()) {
  case Instruction::UDiv:
  case Instruction::SDiv:
  case Instruction::URem:
  case Instruction::SRem: break;
  default: return false;
  }
  return b.getType()->isIntegerTy(64) && !isa<Constant>(b.getOperand(1));
}

std::string subroutineName(Instruction::BinaryOps op) {
  return std::string(::support::global::kInternalPrefix) + Instruction::getOpcodeName(op) + "_i64";
}

bool isSubroutine(const Function &f) {
  for (auto op : {Instruction::UDiv, Instruction::SDiv, Instruction::URem, Instruction::SRem})
    if (f.getName() == subroutineName(op)) return true;
  return false;
}

// The subroutine of opcode `op` (created on first use, with the target
// attributes of the function that first needs it).
Function *subroutine(Module &m, Instruction::BinaryOps op, const Function &user) {
  std::string name = subroutineName(op);
  if (Function *f = m.getFunction(name)) return f;
  LLVMContext &c = m.getContext();
  Type *i64 = Type::getInt64Ty(c);
  auto *f = Function::Create(FunctionType::get(i64, {i64, i64}, false), GlobalValue::InternalLinkage, name, m);
  f->setCallingConv(CallingConv::C);
  f->addFnAttr(Attribute::NoInline);
  f->addFnAttr(Attribute::NoUnwind);
  f->addFnAttr(Attribute::WillReturn);
  f->addFnAttr(Attribute::NoSync);
  f->addFnAttr(Attribute::NoFree);
  f->addFnAttr(Attribute::NoRecurse);
  f->setMemoryEffects(MemoryEffects::none());
  for (const char *a : kNoHiddenInputs) f->addFnAttr(a);
  for (const char *a : {"target-cpu", "target-features"})
    if (Attribute t = user.getFnAttribute(a); t.isStringAttribute()) f->addFnAttr(t);
  IRBuilder<> b(BasicBlock::Create(c, "entry", f));
  b.CreateRet(b.CreateBinOp(op, f->getArg(0), f->getArg(1)));
  return f;
}

} // namespace

void outlineDivision64(Module &m) {
  SmallVector<BinaryOperator *, 16> work;
  for (Function &f : m) {
    if (f.isDeclaration() || isSubroutine(f)) continue; // a second run leaves the bodies alone
    for (Instruction &i : instructions(f))
      if (auto *b = dyn_cast<BinaryOperator>(&i); b && outlined(*b)) work.push_back(b);
  }
  for (BinaryOperator *d : work) {
    Function *f = subroutine(m, d->getOpcode(), *d->getFunction());
    CallInst *call = CallInst::Create(f, {d->getOperand(0), d->getOperand(1)}, "", d->getIterator());
    call->setCallingConv(f->getCallingConv());
    call->setTailCall(false);
    call->takeName(d);
    d->replaceAllUsesWith(call);
    d->eraseFromParent();
  }
}

} // namespace amdgpulower
