//===- WarpSizeCheck.cpp - -Wwarp-size: spin-waits under wave64 pack --------===//
//
// Under the pack policy two CUDA warps share one wave64 and execute in
// lockstep: a warp that spin-waits for a flag written by the other warp of
// its wave never lets that warp run, so the kernel hangs (CUDA's
// independent warp scheduling makes the same code correct on NVIDIA).
// What we check, in every function reachable from a pack kernel: a natural
// loop whose exit condition depends on a load inside the loop that is
// volatile or atomic (ld.volatile / ld.relaxed / ld.acquire, atom/atomicrmw,
// cmpxchg), or a loop that calls nanosleep (__ptx_nanosleep) — the PTX
// shapes of spin-waiting (CUB's decoupled look-back, hand-written locks,
// grid-sync loops). Each such loop gets a warning naming the kernel and the
// cure (--warp-policy=KERNEL=pad). Wait loops that only depend on other
// blocks are harmless under pack but share the shape; the warning says so.
// Also flagged: bar.arrive (__ptx_bar_arrive) — producer/consumer named
// barriers, where a producer and a consumer warp sharing a wave64 in
// different branches depend on the order the wave runs those branches.
// Warnings point at file:line:col of the spin load (or bar.arrive): from a
// DILocation when the input has debug info, else from the `!ptx.loc`
// metadata ptx-to-llvm attaches to every instruction; with PTX `.loc`
// directives (nvcc -lineinfo) a note gives the CUDA file:line:col as well.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"

#include <set>

namespace amdgpulower {

namespace {

bool isSpinLoad(const llvm::Instruction &i) {
  if (auto *ld = llvm::dyn_cast<llvm::LoadInst>(&i))
    return ld->isVolatile() || ld->isAtomic();
  return llvm::isa<llvm::AtomicRMWInst>(i) || llvm::isa<llvm::AtomicCmpXchgInst>(i);
}

bool callsNanosleep(const llvm::Instruction &i) {
  auto *cb = llvm::dyn_cast<llvm::CallBase>(&i);
  auto *f = cb ? cb->getCalledFunction() : nullptr;
  return f && f->getName() == "__ptx_nanosleep";
}

// Does `v` depend (through instructions of loop `l`) on a spin load in `l`?
bool dependsOnSpinLoad(llvm::Value *v, const llvm::Loop &l) {
  llvm::SmallVector<llvm::Value *, 16> work{v};
  llvm::SmallPtrSet<llvm::Value *, 32> seen;
  while (!work.empty()) {
    auto *i = llvm::dyn_cast<llvm::Instruction>(work.pop_back_val());
    if (!i || !l.contains(i) || !seen.insert(i).second) continue;
    if (isSpinLoad(*i)) return true;
    for (llvm::Value *op : i->operands()) work.push_back(op);
  }
  return false;
}

bool isSpinLoop(const llvm::Loop &l) {
  for (llvm::BasicBlock *bb : l.blocks())
    for (llvm::Instruction &i : *bb)
      if (callsNanosleep(i)) return true;
  llvm::SmallVector<llvm::BasicBlock *, 4> exiting;
  l.getExitingBlocks(exiting);
  for (llvm::BasicBlock *bb : exiting)
    if (auto *br = llvm::dyn_cast<llvm::BranchInst>(bb->getTerminator()))
      if (br->isConditional() && dependsOnSpinLoad(br->getCondition(), l)) return true;
  return false;
}

// The CUDA position from the translator's `!ptx.srcloc !{!"file", i32 line,
// i32 col}` (PTX `.loc`, nvcc -lineinfo): a note after the warning.
bool sourceNote(const llvm::Instruction &i, Diagnostic &note) {
  auto *md = i.getMetadata(support::md::kSrcLoc);
  if (!md || md->getNumOperands() != 3) return false;
  auto *file = llvm::dyn_cast<llvm::MDString>(md->getOperand(0));
  auto *line = llvm::mdconst::dyn_extract<llvm::ConstantInt>(md->getOperand(1));
  auto *col = llvm::mdconst::dyn_extract<llvm::ConstantInt>(md->getOperand(2));
  if (!file || !line || !col) return false;
  note.severity = Severity::Note;
  note.file = file->getString().str();
  note.line = unsigned(line->getZExtValue());
  note.col = unsigned(col->getZExtValue());
  return true;
}

// Source position of `i`: its DILocation, else the translator's
// `!ptx.loc !{i32 line, i32 col}` (a position in the module's source file).
bool locateInstr(const llvm::Instruction &i, Diagnostic &d) {
  if (const llvm::DebugLoc &dl = i.getDebugLoc()) {
    d.line = dl.getLine();
    d.col = dl.getCol();
    if (auto *scope = llvm::dyn_cast_or_null<llvm::DIScope>(dl.getScope()))
      d.file = scope->getFilename().str();
    return true;
  }
  auto *md = i.getMetadata(support::md::kLoc);
  if (!md || md->getNumOperands() != 2) return false;
  auto *line = llvm::mdconst::dyn_extract<llvm::ConstantInt>(md->getOperand(0));
  auto *col = llvm::mdconst::dyn_extract<llvm::ConstantInt>(md->getOperand(1));
  if (!line || !col) return false;
  d.line = unsigned(line->getZExtValue());
  d.col = unsigned(col->getZExtValue());
  return true;
}

// The loop's spin load, else its nanosleep call, else its first located
// instruction; `where` is that instruction.
void locate(const llvm::Loop &l, Diagnostic &d, const llvm::Instruction *&where) {
  for (int pass = 0; pass < 3; ++pass)
    for (llvm::BasicBlock *bb : l.blocks())
      for (llvm::Instruction &i : *bb)
        if ((pass == 2 || (pass == 0 ? isSpinLoad(i) : callsNanosleep(i))) && locateInstr(i, d)) {
          where = &i;
          return;
        }
}

} // namespace

void checkWarpSizeHazards(llvm::Module &m, const PolicyMap &policies,
                          std::vector<Diagnostic> &diags) {
  std::set<std::pair<const llvm::Function *, const llvm::Function *>> reported;
  for (const auto &[kernel, policy] : policies) {
    if (policy != WarpPolicy::Pack) continue;
    bool arriveReported = false;
    for (llvm::Function *f : reachableFunctions(const_cast<llvm::Function *>(kernel))) {
      if (f->isDeclaration()) {
        if (f->getName() == "__ptx_bar_arrive" && !arriveReported) {
          arriveReported = true;
          Diagnostic d;
          d.severity = Severity::Warning;
          d.file = m.getSourceFileName();
          const llvm::Instruction *where = nullptr;
          for (llvm::User *u : f->users())
            if (auto *cb = llvm::dyn_cast<llvm::CallBase>(u))
              if (locateInstr(*cb, d)) {
                where = cb;
                break;
              }
          d.message = "kernel '" + kernel->getName().str() +
                      "' uses bar.arrive (producer/consumer barrier); under --warp-policy=pack a "
                      "producer and a consumer warp sharing one wave64 can deadlock; consider "
                      "--warp-policy=" + kernel->getName().str() + "=pad [-Wwarp-size]";
          diags.push_back(std::move(d));
          Diagnostic note;
          if (where && sourceNote(*where, note)) {
            note.message = "bar.arrive in the CUDA source here";
            diags.push_back(std::move(note));
          }
        }
        continue;
      }
      llvm::DominatorTree dt(*f);
      llvm::LoopInfo li(dt);
      for (llvm::Loop *top : li)
        for (llvm::Loop *l : llvm::depth_first(top)) {
          if (!isSpinLoop(*l) || !reported.insert({kernel, f}).second) continue;
          Diagnostic d;
          d.severity = Severity::Warning;
          d.file = m.getSourceFileName();
          const llvm::Instruction *where = nullptr;
          locate(*l, d, where);
          d.message = "kernel '" + kernel->getName().str() + "'" +
                      (f != kernel ? " (via '" + f->getName().str() + "')" : std::string()) +
                      " spin-waits on memory in a loop; under --warp-policy=pack two warps share "
                      "one wave64 and cannot make independent progress, so waiting for another "
                      "warp of the same block can hang (waits on other blocks are safe); consider "
                      "--warp-policy=" + kernel->getName().str() + "=pad [-Wwarp-size]";
          diags.push_back(std::move(d));
          Diagnostic note;
          if (where && sourceNote(*where, note)) {
            note.message = "spin-wait loop in the CUDA source here";
            diags.push_back(std::move(note));
          }
        }
    }
  }
}

void dropSourcePositions(llvm::Module &m) {
  unsigned kind = m.getContext().getMDKindID(support::md::kLoc);
  unsigned src = m.getContext().getMDKindID(support::md::kSrcLoc);
  for (llvm::Function &f : m)
    for (llvm::BasicBlock &bb : f)
      for (llvm::Instruction &i : bb) i.setMetadata(kind, nullptr), i.setMetadata(src, nullptr);
}

} // namespace amdgpulower
