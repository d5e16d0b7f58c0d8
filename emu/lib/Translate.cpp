//===- Translate.cpp - LLVM IR -> emulator program ---------------------------===//
//
// Translates a loaded llvm::Module once into the emulator's internal form:
// lays out LDS variables, places global variables (with their initialisers,
// including relocations to other globals and functions) in device memory,
// gives every function a code address, and translates every defined
// function into pre-decoded instructions over register slots. Phi nodes
// become copies on CFG edges; divergent branches carry the program counter of
// their immediate post-dominator (the reconvergence point). Anything the
// emulator cannot execute -- an unknown intrinsic, an external function, an
// unsupported type or instruction -- is reported here, at load time, naming
// the function and the instruction.
//
//===----------------------------------------------------------------------===//
#include "LaneOps.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/FloatingPointMode.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/AMDGPUAddrSpace.h"
#include "llvm/Support/raw_ostream.h"
#include "support/Contract.h"

#include <map>
#include <queue>
#include <unordered_map>

using namespace llvm;

namespace emu::detail {

unsigned kernelWaveSize(const Function &F) {
  Attribute A = F.getFnAttribute(::support::attr::kWaveSize);
  if (A.isStringAttribute()) {
    unsigned V = 0;
    if (!A.getValueAsString().getAsInteger(10, V) && (V == 32 || V == 64)) return V;
  }
  StringRef Feat = F.getFnAttribute("target-features").getValueAsString();
  if (Feat.contains("+wavefrontsize64")) return 64;
  if (Feat.contains("+wavefrontsize32")) return 32;
  // The one wave-size rule (support/Contract.h); 64 when the CPU is not a gfx name.
  if (unsigned W = ::support::waveSizeOf(F.getFnAttribute("target-cpu").getValueAsString())) return W;
  return 64;
}

/// True for RDNA targets (gfx10xx, gfx11xx, gfx12xx) by "target-cpu".
/// A function without the attribute takes the module's (first one found).
static bool isGfx10Plus(const Function &F) {
  StringRef CPU = F.getFnAttribute("target-cpu").getValueAsString();
  if (CPU.empty() && F.getParent())
    for (const Function &G : *F.getParent())
      if (G.hasFnAttribute("target-cpu")) {
        CPU = G.getFnAttribute("target-cpu").getValueAsString();
        break;
      }
  return ::support::gfxMajorOf(CPU) >= 10;
}

namespace {

struct Leaf {
  VK kind;
  uint64_t offset;
  uint8_t bits = 0; // integer width when it is not the kind's (odd widths, OddInts.cpp); else 0
  unsigned width() const { return bits ? bits : vkBits(kind); }
};

/// Integer widths other than 1/8/16/32/64 (and <= 64): kept in the container
/// kind's slot, zero-extended (OddInts.cpp).
unsigned oddBits(Type *T) {
  auto *IT = dyn_cast<IntegerType>(T->getScalarType());
  if (!IT) return 0;
  unsigned N = IT->getBitWidth();
  return (N == 1 || N == 8 || N == 16 || N == 32 || N >= 64) ? 0 : N;
}

std::string str(const Value &V) {
  std::string S;
  raw_string_ostream OS(S);
  V.print(OS);
  return S;
}

Error err(const Function *F, const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(),
                           "emu: " + (F ? "function '" + F->getName().str() + "': " : std::string()) + Msg.str());
}

Expected<AS> asClass(unsigned A) {
  switch (A) {
  case 0: return AS::Flat;
  case 1: case 4: return AS::Global;
  case 3: return AS::LDS;
  case 5: return AS::Private;
  }
  return createStringError(inconvertibleErrorCode(), "unsupported address space " + std::to_string(A));
}

class ModuleTranslator {
public:
  ModuleTranslator(ModuleImage &I, Arena &A) : Img(I), Ar(A), DL(I.M->getDataLayout()) {}
  Error run();

  ModuleImage &Img;
  Arena &Ar;
  const DataLayout &DL;

  Expected<VK> kindOf(Type *T) {
    if (auto *IT = dyn_cast<IntegerType>(T)) {
      switch (IT->getBitWidth()) {
      case 1: return VK::I1;
      case 8: return VK::I8;
      case 16: return VK::I16;
      case 32: return VK::I32;
      case 64: return VK::I64;
      }
      unsigned N = IT->getBitWidth(); // odd widths: the container (OddInts.cpp)
      if (N < 64) return N < 8 ? VK::I8 : N < 16 ? VK::I16 : N < 32 ? VK::I32 : VK::I64;
    } else if (T->isHalfTy()) return VK::F16;
    else if (T->isBFloatTy()) return VK::BF16;
    else if (T->isFloatTy()) return VK::F32;
    else if (T->isDoubleTy()) return VK::F64;
    else if (auto *PT = dyn_cast<PointerType>(T)) {
      unsigned A = PT->getAddressSpace();
      if (A == 0 || A == 1 || A == 3 || A == 4 || A == 5)
        return DL.getPointerSizeInBits(A) == 32 ? VK::I32 : VK::I64;
    }
    std::string S;
    raw_string_ostream OS(S);
    T->print(OS);
    return createStringError(inconvertibleErrorCode(), "unsupported type '" + S + "'");
  }
  Error leaves(Type *T, uint64_t Off, std::vector<Leaf> &Out) {
    if (auto *ST = dyn_cast<StructType>(T)) {
      const StructLayout *SL = DL.getStructLayout(ST);
      for (unsigned i = 0; i < ST->getNumElements(); ++i)
        if (Error E = leaves(ST->getElementType(i), Off + SL->getElementOffset(i), Out)) return E;
      return Error::success();
    }
    if (auto *AT = dyn_cast<ArrayType>(T)) {
      uint64_t Sz = DL.getTypeAllocSize(AT->getElementType());
      for (uint64_t i = 0; i < AT->getNumElements(); ++i)
        if (Error E = leaves(AT->getElementType(), Off + i * Sz, Out)) return E;
      return Error::success();
    }
    if (auto *VT = dyn_cast<FixedVectorType>(T)) {
      auto K = kindOf(VT->getElementType());
      if (!K) return K.takeError();
      uint8_t B = uint8_t(oddBits(VT));
      for (unsigned i = 0; i < VT->getNumElements(); ++i) Out.push_back({*K, Off + i * vkBytes(*K), B});
      return Error::success();
    }
    if (T->isIntegerTy(128)) { // two slots: low, high 64 bits (WideOps.cpp)
      Out.push_back({VK::I64, Off});
      Out.push_back({VK::I64, Off + 8});
      return Error::success();
    }
    auto K = kindOf(T);
    if (!K) return K.takeError();
    Out.push_back({*K, Off, uint8_t(oddBits(T))});
    return Error::success();
  }
  Expected<unsigned> leafCount(Type *T) {
    std::vector<Leaf> L;
    if (Error E = leaves(T, 0, L)) return E;
    return unsigned(L.size());
  }

  Expected<uint64_t> constScalar(const Constant *C) {
    if (auto *CI = dyn_cast<ConstantInt>(C)) {
      if (CI->getBitWidth() > 64) return createStringError(inconvertibleErrorCode(), "integer constant wider than 64 bits");
      return CI->getZExtValue();
    }
    if (auto *CF = dyn_cast<ConstantFP>(C)) return CF->getValueAPF().bitcastToAPInt().getZExtValue();
    if (isa<ConstantPointerNull>(C) || isa<UndefValue>(C) || isa<ConstantAggregateZero>(C)) return 0;
    if (auto *GV = dyn_cast<GlobalVariable>(C)) {
      if (GV->getAddressSpace() == AMDGPUAS::LOCAL_ADDRESS) {
        auto It = Img.ldsOffset.find(GV);
        if (It != Img.ldsOffset.end()) return It->second;
      } else {
        auto It = Img.globalAddr.find(GV);
        if (It != Img.globalAddr.end()) return It->second;
      }
      return createStringError(inconvertibleErrorCode(), "global '" + GV->getName().str() + "' has no storage");
    }
    if (auto *F = dyn_cast<Function>(C)) {
      auto It = Img.byFunc.find(F);
      if (It == Img.byFunc.end())
        return createStringError(inconvertibleErrorCode(), "address of undefined function '" + F->getName().str() + "'");
      return It->second->address;
    }
    if (auto *GA = dyn_cast<GlobalAlias>(C)) return constScalar(GA->getAliasee());
    if (auto *DE = dyn_cast<DSOLocalEquivalent>(C)) return constScalar(DE->getGlobalValue());
    if (auto *CE = dyn_cast<ConstantExpr>(C)) {
      unsigned Bits = 64;
      if (auto K = kindOf(CE->getType())) Bits = vkBits(*K);
      else consumeError(K.takeError());
      uint64_t M = widthMask(Bits);
      switch (CE->getOpcode()) {
      case Instruction::GetElementPtr: {
        auto *G = cast<GEPOperator>(CE);
        auto B = constScalar(cast<Constant>(G->getPointerOperand()));
        if (!B) return B.takeError();
        APInt Off(DL.getIndexSizeInBits(G->getPointerAddressSpace()), 0);
        if (!G->accumulateConstantOffset(DL, Off))
          return createStringError(inconvertibleErrorCode(), "non-constant GEP constant expression");
        return (*B + uint64_t(Off.getSExtValue())) & M;
      }
      case Instruction::PtrToInt: case Instruction::IntToPtr: case Instruction::BitCast: case Instruction::Trunc:
      case Instruction::ZExt: {
        auto V = constScalar(CE->getOperand(0));
        if (!V) return V.takeError();
        return *V & M;
      }
      case Instruction::SExt: {
        auto V = constScalar(CE->getOperand(0));
        if (!V) return V.takeError();
        return uint64_t(sextFrom(*V, CE->getOperand(0)->getType()->getIntegerBitWidth())) & M;
      }
      case Instruction::AddrSpaceCast: {
        auto V = constScalar(CE->getOperand(0));
        if (!V) return V.takeError();
        unsigned From = CE->getOperand(0)->getType()->getPointerAddressSpace();
        unsigned To = CE->getType()->getPointerAddressSpace();
        if ((From == 3 || From == 5) && To == 0)
          return isa<ConstantPointerNull>(CE->getOperand(0)) || uint32_t(*V) == 0xffffffffu
                     ? 0 : ((From == 3 ? SharedApertureBase : PrivateApertureBase) | uint32_t(*V));
        if (From == 0 && (To == 3 || To == 5)) return *V == 0 ? 0xffffffffull : uint32_t(*V);
        return *V & M;
      }
      case Instruction::Add: case Instruction::Sub: case Instruction::Xor: case Instruction::Mul:
      case Instruction::And: case Instruction::Or: case Instruction::Shl: {
        auto A = constScalar(CE->getOperand(0));
        if (!A) return A.takeError();
        auto B = constScalar(CE->getOperand(1));
        if (!B) return B.takeError();
        uint64_t R = 0;
        switch (CE->getOpcode()) {
        case Instruction::Add: R = *A + *B; break;
        case Instruction::Sub: R = *A - *B; break;
        case Instruction::Xor: R = *A ^ *B; break;
        case Instruction::Mul: R = *A * *B; break;
        case Instruction::And: R = *A & *B; break;
        case Instruction::Or: R = *A | *B; break;
        default: R = *A << (*B & 63); break;
        }
        return R & M;
      }
      default: break;
      }
    }
    return createStringError(inconvertibleErrorCode(), "unsupported constant '" + str(*C) + "'");
  }
  Error constLeaves(const Constant *C, std::vector<uint64_t> &Out) {
    Type *T = C->getType();
    if (T->isStructTy() || T->isArrayTy() || T->isVectorTy()) {
      unsigned N = T->isStructTy() ? T->getStructNumElements()
                   : T->isArrayTy() ? unsigned(T->getArrayNumElements())
                                    : cast<FixedVectorType>(T)->getNumElements();
      for (unsigned i = 0; i < N; ++i) {
        const Constant *E = C->getAggregateElement(i);
        if (!E) return createStringError(inconvertibleErrorCode(), "unsupported aggregate constant '" + str(*C) + "'");
        if (Error Er = constLeaves(E, Out)) return Er;
      }
      return Error::success();
    }
    if (T->isIntegerTy(128)) {
      if (auto *CI = dyn_cast<ConstantInt>(C)) {
        const APInt &A = CI->getValue();
        Out.push_back(A.extractBitsAsZExtValue(64, 0));
        Out.push_back(A.extractBitsAsZExtValue(64, 64));
        return Error::success();
      }
      if (isa<UndefValue>(C) || isa<ConstantAggregateZero>(C)) {
        Out.push_back(0);
        Out.push_back(0);
        return Error::success();
      }
      return createStringError(inconvertibleErrorCode(), "unsupported i128 constant '" + str(*C) + "'");
    }
    auto V = constScalar(C);
    if (!V) return V.takeError();
    Out.push_back(*V);
    return Error::success();
  }
  Error writeInit(const Constant *C, uint8_t *Dst) {
    Type *T = C->getType();
    uint64_t Size = DL.getTypeStoreSize(T);
    if (isa<ConstantAggregateZero>(C) || isa<UndefValue>(C) || isa<ConstantPointerNull>(C)) {
      std::memset(Dst, 0, Size);
      return Error::success();
    }
    if (auto *CDS = dyn_cast<ConstantDataSequential>(C)) {
      if (CDS->getElementType()->isIntegerTy(1)) return createStringError(inconvertibleErrorCode(), "i1 array initialiser");
      StringRef Raw = CDS->getRawDataValues();
      std::memcpy(Dst, Raw.data(), Raw.size());
      return Error::success();
    }
    if (auto *ST = dyn_cast<StructType>(T)) {
      const StructLayout *SL = DL.getStructLayout(ST);
      for (unsigned i = 0; i < ST->getNumElements(); ++i)
        if (Error E = writeInit(C->getAggregateElement(i), Dst + SL->getElementOffset(i))) return E;
      return Error::success();
    }
    if (T->isArrayTy() || T->isVectorTy()) {
      Type *ET = T->isArrayTy() ? T->getArrayElementType() : cast<FixedVectorType>(T)->getElementType();
      unsigned N = T->isArrayTy() ? unsigned(T->getArrayNumElements()) : cast<FixedVectorType>(T)->getNumElements();
      uint64_t Sz = T->isArrayTy() ? DL.getTypeAllocSize(ET) : DL.getTypeStoreSize(ET);
      for (unsigned i = 0; i < N; ++i)
        if (Error E = writeInit(C->getAggregateElement(i), Dst + i * Sz)) return E;
      return Error::success();
    }
    if (T->isIntegerTy(128)) {
      std::vector<uint64_t> W;
      if (Error E = constLeaves(C, W)) return E;
      std::memcpy(Dst, W.data(), 16);
      return Error::success();
    }
    auto V = constScalar(C);
    if (!V) return V.takeError();
    std::memcpy(Dst, &*V, std::min<uint64_t>(Size, 8));
    return Error::success();
  }
};

// ---- function translation --------------------------------------------------------------------
class FnTranslator {
public:
  FnTranslator(ModuleTranslator &MT, Function &F, FuncCode &FC) : MT(MT), F(F), FC(FC), DL(MT.DL) {}
  Error run();

private:
  ModuleTranslator &MT;
  Function &F;
  FuncCode &FC;
  const DataLayout &DL;
  DenseMap<const Value *, int32_t> Base;
  DenseMap<const Constant *, std::vector<uint64_t>> ConstLeaves;
  std::unordered_map<uint64_t, int32_t> ConstIdx; // not DenseMap: ~0 is its empty key
  DenseMap<const BasicBlock *, uint32_t> BlockPc;
  std::vector<std::pair<uint32_t, const BasicBlock *>> RpcFixups; // inst -> ipdom (null = exit)
  int32_t Next = 0;
  uint64_t FrameCur = 0;
  std::unique_ptr<PostDominatorTree> PDT;
  const Instruction *Cur = nullptr;

  Error fail(const Twine &Msg) {
    return err(&F, Msg + (Cur ? " in: " + str(*Cur) : std::string()));
  }
  int32_t slots(unsigned N) {
    int32_t B = Next;
    Next += int32_t(N);
    return B;
  }
  int32_t constSlot(uint64_t V) {
    auto It = ConstIdx.find(V);
    if (It != ConstIdx.end()) return It->second;
    int32_t Idx = ~int32_t(FC.constPool.size());
    FC.constPool.push_back(V);
    ConstIdx[V] = Idx;
    return Idx;
  }
  Expected<int32_t> op(const Value *V, unsigned Leaf = 0) {
    if (auto *C = dyn_cast<Constant>(V)) {
      auto It = ConstLeaves.find(C);
      if (It == ConstLeaves.end()) {
        std::vector<uint64_t> L;
        if (Error E = MT.constLeaves(C, L)) return E;
        It = ConstLeaves.insert({C, std::move(L)}).first;
      }
      if (Leaf >= It->second.size()) return fail("constant leaf out of range");
      return constSlot(It->second[Leaf]);
    }
    auto It = Base.find(V);
    if (It == Base.end()) {
      if (isa<MetadataAsValue>(V)) return fail("metadata operand where a value was expected");
      return fail("operand without a register: " + str(*V));
    }
    return It->second + int32_t(Leaf);
  }
  Inst &emit(Handler H) {
    FC.code.emplace_back();
    Inst &I = FC.code.back();
    I.fn = H;
    I.src = Cur;
    return I;
  }
  Expected<unsigned> count(Type *T) { return MT.leafCount(T); }
  Expected<std::vector<Leaf>> leavesOf(Type *T) {
    std::vector<Leaf> L;
    if (Error E = MT.leaves(T, 0, L)) return E;
    return L;
  }
  Error moveLeaves(int32_t Dst, const Value *Src, unsigned N, unsigned SrcOff = 0) {
    for (unsigned i = 0; i < N; ++i) {
      auto S = op(Src, SrcOff + i);
      if (!S) return S.takeError();
      Inst &I = emit(ops::move());
      I.dst = Dst + int32_t(i);
      I.a = *S;
    }
    return Error::success();
  }
  /// The value's leaves in consecutive registers (constants materialised).
  Expected<int32_t> regVec(const Value *V, unsigned N) {
    if (!isa<Constant>(V)) return op(V);
    int32_t B = slots(N);
    if (Error E = moveLeaves(B, V, N)) return E;
    return B;
  }
  uint32_t makeEdge(const BasicBlock *From, const BasicBlock *To, Error &E);
  Error assignSlots();
  Error translate(Instruction &I);
  Error translateWide(Instruction &I);
  Error translateOdd(Instruction &I);
  Error translateCall(CallBase &CB);
  Error translateIntrinsic(CallBase &CB, Intrinsic::ID ID);
  Error elementwise(CallBase &CB, LOp Op, unsigned NOps);
  /// Element bytes if a load/store of T is one whole-vector access (a
  /// vector or i128 of 2, 4, 8 or 16 bytes whose leaves are contiguous
  /// elements of equal size), else 0.
  unsigned wholeVector(Type *T, const std::vector<Leaf> &Lv) {
    if (Lv.size() < 2 || !(T->isVectorTy() || T->isIntegerTy(128))) return 0;
    unsigned EB = vkBytes(Lv[0].kind);
    if (Lv[0].kind == VK::I1) return 0;
    for (unsigned i = 0; i < Lv.size(); ++i)
      if (Lv[i].kind == VK::I1 || vkBytes(Lv[i].kind) != EB || Lv[i].offset != uint64_t(i) * EB) return 0;
    unsigned S = EB * unsigned(Lv.size());
    if (S != 2 && S != 4 && S != 8 && S != 16) return 0;
    if (DL.getTypeStoreSize(T) != S) return 0;
    return EB;
  }
  Expected<AS> ptrClass(const Value *P) {
    auto A = asClass(P->getType()->getPointerAddressSpace());
    if (!A) return fail(toString(A.takeError()));
    return *A;
  }
};

uint32_t FnTranslator::makeEdge(const BasicBlock *From, const BasicBlock *To, Error &E) {
  Edge Ed;
  Ed.target = To;
  Ed.copyBegin = uint32_t(FC.copies.size());
  DenseSet<int32_t> Dsts;
  std::vector<Copy> Cs;
  for (const PHINode &P : To->phis()) {
    auto N = count(P.getType());
    if (!N) { E = N.takeError(); break; }
    const Value *In = P.getIncomingValueForBlock(From);
    for (unsigned i = 0; i < *N; ++i) {
      auto S = op(In, i);
      if (!S) { E = S.takeError(); break; }
      Cs.push_back({Base[&P] + int32_t(i), *S});
      Dsts.insert(Base[&P] + int32_t(i));
    }
  }
  for (auto &C : Cs) {
    if (C.dst == C.src) continue;
    if (Dsts.count(C.src)) Ed.needsTemp = true;
    FC.copies.push_back(C);
  }
  Ed.copyEnd = uint32_t(FC.copies.size());
  FC.edges.push_back(Ed);
  return uint32_t(FC.edges.size() - 1);
}

/// Gives every SSA value its register slots. Values whose live ranges
/// (hull of the positions where they are live, from a block-level liveness
/// analysis; phi inputs are used at the end of their predecessor, where
/// the edge copies run) do not overlap share slots. This is sound for SIMT
/// execution because every write is masked by EXEC: each lane sees exactly
/// the reads and writes of its own scalar path. Parameters keep slots
/// 0..numParamSlots-1 (callers and the launcher write them there).
/// EMU_NO_SLOT_REUSE=1 gives every value its own slots (for debugging).
Error FnTranslator::assignSlots() {
  std::vector<const Value *> Vals;
  std::vector<unsigned> NS;
  DenseMap<const Value *, unsigned> VIdx;
  auto track = [&](const Value *V) -> Error {
    auto N = count(V->getType());
    if (!N) return fail(toString(N.takeError()));
    VIdx[V] = unsigned(Vals.size());
    Vals.push_back(V);
    NS.push_back(*N);
    return Error::success();
  };
  for (Argument &A : F.args())
    if (Error E = track(&A)) return err(&F, "parameter " + std::to_string(A.getArgNo()) + ": " + toString(std::move(E)));
  unsigned NumArgs = unsigned(Vals.size());
  DenseMap<const Instruction *, unsigned> Pos;
  DenseMap<const BasicBlock *, std::pair<unsigned, unsigned>> Range;
  unsigned P = 1;
  for (BasicBlock &BB : F) {
    unsigned S = P;
    for (Instruction &I : BB) {
      Pos[&I] = P++;
      if (I.getType()->isVoidTy() || I.getType()->isTokenTy() || I.getType()->isMetadataTy()) continue;
      Cur = &I;
      if (Error E = track(&I)) return E;
    }
    Range[&BB] = {S, P - 1};
  }
  Cur = nullptr;
  FC.numParamSlots = 0;
  for (unsigned i = 0; i < NumArgs; ++i) FC.numParamSlots += NS[i];
  if (!F.getReturnType()->isVoidTy()) {
    auto N = count(F.getReturnType());
    if (!N) return err(&F, "return type: " + toString(N.takeError()));
    FC.retSlots = *N;
  }
  const size_t NV = Vals.size();
  for (size_t v = 0; v < NV; ++v) FC.numValueSlots += NS[v];
  static const bool NoReuse = [] { const char *E = getenv("EMU_NO_SLOT_REUSE"); return E && E[0] == '1'; }();
  if (NoReuse) {
    for (size_t v = 0; v < NV; ++v) Base[Vals[v]] = slots(NS[v]);
    return Error::success();
  }
  // block-level liveness
  std::vector<const BasicBlock *> Blocks;
  DenseMap<const BasicBlock *, unsigned> BIdx;
  for (BasicBlock &BB : F) { BIdx[&BB] = unsigned(Blocks.size()); Blocks.push_back(&BB); }
  const size_t NB = Blocks.size();
  std::vector<BitVector> UseB(NB, BitVector(NV)), Def(NB, BitVector(NV)), PhiDef(NB, BitVector(NV)),
      In(NB, BitVector(NV)), Out(NB, BitVector(NV));
  auto idxOf = [&](const Value *V) -> int {
    auto It = VIdx.find(V);
    return It == VIdx.end() ? -1 : int(It->second);
  };
  for (size_t b = 0; b < NB; ++b)
    for (const Instruction &I : *Blocks[b]) {
      if (isa<PHINode>(I)) {
        int d = idxOf(&I);
        if (d >= 0) { PhiDef[b].set(d); Def[b].set(d); }
        continue;
      }
      for (const llvm::Use &U : I.operands()) {
        int v = idxOf(U.get());
        if (v >= 0 && !Def[b].test(v)) UseB[b].set(v);
      }
      int d = idxOf(&I);
      if (d >= 0) Def[b].set(d);
    }
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t bi = NB; bi-- > 0;) {
      const BasicBlock *B = Blocks[bi];
      BitVector O(NV);
      for (const BasicBlock *S : successors(B)) {
        unsigned si = BIdx[S];
        BitVector T = In[si];
        T.reset(PhiDef[si]);
        O |= T;
        for (const PHINode &Ph : S->phis()) {
          int v = idxOf(Ph.getIncomingValueForBlock(B));
          if (v >= 0) O.set(v);
        }
      }
      BitVector I2 = O;
      I2.reset(Def[bi]);
      I2 |= UseB[bi];
      I2 |= PhiDef[bi];
      if (O != Out[bi] || I2 != In[bi]) {
        Out[bi] = std::move(O);
        In[bi] = std::move(I2);
        Changed = true;
      }
    }
  }
  // live intervals (hulls)
  std::vector<unsigned> Lo(NV, ~0u), Hi(NV, 0);
  auto touch = [&](int v, unsigned p) {
    if (v < 0) return;
    Lo[v] = std::min(Lo[v], p);
    Hi[v] = std::max(Hi[v], p);
  };
  for (unsigned v = 0; v < NumArgs; ++v) touch(int(v), 0);
  for (size_t b = 0; b < NB; ++b) {
    auto [S, E] = Range[Blocks[b]];
    for (const Instruction &I : *Blocks[b]) {
      touch(idxOf(&I), Pos[&I]);
      if (auto *Ph = dyn_cast<PHINode>(&I)) {
        for (unsigned k = 0; k < Ph->getNumIncomingValues(); ++k)
          touch(idxOf(Ph->getIncomingValue(k)), Range[Ph->getIncomingBlock(k)].second);
        continue;
      }
      for (const llvm::Use &U : I.operands()) touch(idxOf(U.get()), Pos[&I]);
    }
    for (int v = In[b].find_first(); v >= 0; v = In[b].find_next(v)) touch(v, S);
    for (int v = Out[b].find_first(); v >= 0; v = Out[b].find_next(v)) touch(v, E);
  }
  // linear scan; a slot is reused only after the previous value's end
  // (strictly before the new value's start)
  std::vector<unsigned> Order(NV);
  for (unsigned v = 0; v < NV; ++v) Order[v] = v;
  std::stable_sort(Order.begin() + NumArgs, Order.end(), [&](unsigned a, unsigned b) { return Lo[a] < Lo[b]; });
  using Act = std::pair<unsigned, unsigned>; // (hi, value)
  std::priority_queue<Act, std::vector<Act>, std::greater<Act>> Active;
  std::map<unsigned, std::vector<int32_t>> Free;
  for (unsigned k = 0; k < NV; ++k) {
    unsigned v = Order[k];
    while (!Active.empty() && Active.top().first < Lo[v] && k >= NumArgs) {
      unsigned d = Active.top().second;
      Active.pop();
      Free[NS[d]].push_back(Base[Vals[d]]);
    }
    auto &FL = Free[NS[v]];
    int32_t B;
    if (k >= NumArgs && !FL.empty()) { B = FL.back(); FL.pop_back(); }
    else B = slots(NS[v]);
    Base[Vals[v]] = B;
    Active.push({Hi[v], v});
  }
  return Error::success();
}

Error FnTranslator::run() {
  FC.F = &F;
  FC.name = F.getName().str();
  // Flushing denormal modes (the MODE register's FP_DENORM fields the
  // backend sets from these attributes) are not modelled: the emulator's
  // arithmetic keeps denormals, so such a function is refused rather than
  // run with IEEE results. "ieee" and "dynamic" (the default mode) are fine.
  for (auto [Sem, Attr] : {std::pair{&APFloat::IEEEsingle(), "denormal-fp-math-f32"},
                           std::pair{&APFloat::IEEEdouble(), "denormal-fp-math"}}) {
    DenormalMode DM = F.getDenormalMode(*Sem);
    auto Flush = [](DenormalMode::DenormalModeKind K) {
      return K == DenormalMode::PreserveSign || K == DenormalMode::PositiveZero;
    };
    if (Flush(DM.Input) || Flush(DM.Output)) {
      std::string V;
      raw_string_ostream OS(V);
      DM.print(OS);
      return err(&F, Twine("denormal flushing (\"") + Attr + "\"=\"" + OS.str() +
                         "\") is not modelled: the emulator computes with IEEE denormals");
    }
  }
  PDT = std::make_unique<PostDominatorTree>(F);
  if (Error E = assignSlots()) return E;
  Cur = nullptr;
  for (BasicBlock &BB : F) {
    BlockPc[&BB] = uint32_t(FC.code.size());
    for (Instruction &I : BB) {
      if (isa<PHINode>(I)) continue;
      Cur = &I;
      if (Error E = translate(I)) return E;
    }
  }
  Cur = nullptr;
  FC.exitPc = uint32_t(FC.code.size());
  for (Edge &E : FC.edges) E.targetPc = BlockPc[E.target];
  for (auto &[Idx, BB] : RpcFixups) FC.code[Idx].imm = BB ? BlockPc[BB] : FC.exitPc;
  FC.numSlots = unsigned(Next);
  FC.frameBytes = uint32_t((FrameCur + 15) & ~15ull);
  // broadcast the constant pool to 64 lanes
  std::vector<uint64_t> Pool(FC.constPool.size() * 64);
  for (size_t i = 0; i < FC.constPool.size(); ++i) std::fill_n(&Pool[i * 64], 64, FC.constPool[i]);
  FC.constPool.swap(Pool);
  return Error::success();
}

/// True if V is a scalar i128 (vectors of i128 are rejected by kindOf).
static bool isWide(const Value *V) { return V->getType()->isIntegerTy(128); }

/// Instructions producing or reading an i128. Loads, stores, selects,
/// freeze, aggregates, returns, calls and same-size bitcasts work per
/// 64-bit half and take the generic paths; arithmetic, comparisons and
/// integer extension/truncation are handled here; anything else is a
/// load-time error.
/// Odd-width integers (OddInts.cpp): values are canonical (zero-extended) in
/// their container slot; every result is re-masked, signed operations
/// sign-extend from the true width. Widths come from Leaf::width().
Error FnTranslator::translateOdd(Instruction &I) {
  unsigned Opc = I.getOpcode();
  auto Dst = [&]() { return Base[&I]; };
  auto LT = leavesOf(I.getType()->isVoidTy() ? I.getOperand(0)->getType() : I.getType());
  if (!LT) return fail(toString(LT.takeError()));
  if (I.isBinaryOp() || Opc == Instruction::ICmp) {
    auto L = leavesOf(I.getOperand(0)->getType());
    if (!L) return fail(toString(L.takeError()));
    Handler H = I.isBinaryOp() ? ops::binOdd(Opc) : ops::icmpOdd(cast<CmpInst>(I).getPredicate());
    if (!H) return fail("unsupported operation on an odd-width integer");
    for (unsigned i = 0; i < L->size(); ++i) {
      auto A = op(I.getOperand(0), i), B = op(I.getOperand(1), i);
      if (!A) return A.takeError();
      if (!B) return B.takeError();
      Inst &X = emit(H);
      X.dst = Dst() + int32_t(i); X.a = *A; X.b = *B; X.aux = (*L)[i].width();
    }
    return Error::success();
  }
  if (I.isCast()) {
    auto LS = leavesOf(I.getOperand(0)->getType());
    if (!LS) return fail(toString(LS.takeError()));
    for (unsigned i = 0; i < LT->size(); ++i) {
      auto A = op(I.getOperand(0), i);
      if (!A) return A.takeError();
      unsigned FB = (*LS)[i].width(), TB = (*LT)[i].width();
      VK FK = (*LS)[i].kind, TK = (*LT)[i].kind;
      switch (Opc) {
      case Instruction::Trunc: case Instruction::ZExt: case Instruction::PtrToInt: case Instruction::IntToPtr: {
        Inst &X = emit(ops::zextOrTruncOdd());
        X.dst = Dst() + int32_t(i); X.a = *A; X.aux = FB; X.aux2 = TB;
        break;
      }
      case Instruction::SExt: {
        Inst &X = emit(ops::sextOdd());
        X.dst = Dst() + int32_t(i); X.a = *A; X.aux = FB; X.aux2 = TB;
        break;
      }
      case Instruction::UIToFP: case Instruction::SIToFP: { // from iN: widen to i64 first
        int32_t T = slots(1);
        Inst &W = emit(Opc == Instruction::SIToFP ? ops::sextOdd() : ops::zextOrTruncOdd());
        W.dst = T; W.a = *A; W.aux = FB; W.aux2 = 64;
        Handler H = ops::cast(Opc, VK::I64, TK);
        if (!H) return fail("unsupported cast");
        Inst &X = emit(H);
        X.dst = Dst() + int32_t(i); X.a = T;
        break;
      }
      case Instruction::FPToUI: case Instruction::FPToSI: { // to iN: via i64, then masked
        int32_t T = slots(1);
        Handler H = ops::cast(Opc, FK, VK::I64);
        if (!H) return fail("unsupported cast");
        Inst &X = emit(H);
        X.dst = T; X.a = *A;
        Inst &M = emit(ops::zextOrTruncOdd());
        M.dst = Dst() + int32_t(i); M.a = T; M.aux = 64; M.aux2 = TB;
        break;
      }
      default:
        return fail("unsupported cast of an odd-width integer");
      }
    }
    return Error::success();
  }
  if (Opc == Instruction::Load || Opc == Instruction::Store) {
    // A scalar iN occupies its store size (ceil(N/8) bytes, little-endian); it is
    // accessed byte by byte. Vectors of odd elements are bit-packed in memory.
    bool IsLoad = Opc == Instruction::Load;
    Type *VT = IsLoad ? I.getType() : cast<StoreInst>(I).getValueOperand()->getType();
    if (VT->isVectorTy()) return fail("load/store of a vector of odd-width integers is not supported");
    if (IsLoad ? cast<LoadInst>(I).isAtomic() || cast<LoadInst>(I).isVolatile()
               : cast<StoreInst>(I).isAtomic() || cast<StoreInst>(I).isVolatile())
      return fail("atomic or volatile access of an odd-width integer is not supported");
    const Value *Ptr = IsLoad ? cast<LoadInst>(I).getPointerOperand() : cast<StoreInst>(I).getPointerOperand();
    auto C = ptrClass(Ptr);
    if (!C) return C.takeError();
    auto P = op(Ptr);
    if (!P) return P.takeError();
    unsigned N = oddBits(VT), Bytes = (N + 7) / 8;
    Handler Shl = ops::binInt(Instruction::Shl, VK::I64), Or = ops::binInt(Instruction::Or, VK::I64),
            Shr = ops::binInt(Instruction::LShr, VK::I64);
    if (IsLoad) {
      int32_t Acc = -1;
      for (unsigned k = 0; k < Bytes; ++k) {
        int32_t B = slots(1);
        Inst &L = emit(ops::load(*C, 1));
        L.dst = B; L.a = *P; L.imm = int64_t(k);
        if (k) {
          int32_t S = slots(1);
          Inst &X = emit(Shl);
          X.dst = S; X.a = B; X.b = constSlot(8 * k);
          int32_t R = slots(1);
          Inst &Y = emit(Or);
          Y.dst = R; Y.a = Acc; Y.b = S;
          Acc = R;
        } else {
          Acc = B;
        }
      }
      Inst &M = emit(ops::zextOrTruncOdd());
      M.dst = Dst(); M.a = Acc; M.aux = 64; M.aux2 = N;
      return Error::success();
    }
    auto V = op(cast<StoreInst>(I).getValueOperand());
    if (!V) return V.takeError();
    for (unsigned k = 0; k < Bytes; ++k) {
      int32_t B = *V;
      if (k) {
        B = slots(1);
        Inst &X = emit(Shr);
        X.dst = B; X.a = *V; X.b = constSlot(8 * k);
      }
      Inst &S = emit(ops::store(*C, 1));
      S.a = *P; S.b = B; S.imm = int64_t(k);
    }
    return Error::success();
  }
  if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
    // Correct on canonical (zero-extended) operands with the container's op.
    Intrinsic::ID ID = II->getIntrinsicID();
    if (ID == Intrinsic::ctpop || ID == Intrinsic::umin || ID == Intrinsic::umax)
      return translateIntrinsic(*II, ID);
    return fail("intrinsic on an odd-width integer type is not supported");
  }
  return fail("unsupported instruction on an odd-width integer");
}

Error FnTranslator::translateWide(Instruction &I) {
  unsigned Opc = I.getOpcode();
  int32_t D = isWide(&I) ? Base[&I] : 0;
  if (I.isBinaryOp()) {
    Handler H = ops::binWide(Opc);
    if (!H) return fail("unsupported i128 operation");
    auto A = regVec(I.getOperand(0), 2);
    if (!A) return A.takeError();
    auto B = regVec(I.getOperand(1), 2);
    if (!B) return B.takeError();
    Inst &X = emit(H);
    X.dst = D; X.a = *A; X.b = *B;
    return Error::success();
  }
  if (Opc == Instruction::ICmp && !I.getType()->isVectorTy()) {
    Handler H = ops::icmpWide(cast<ICmpInst>(I).getPredicate());
    if (!H) return fail("unsupported i128 comparison");
    auto A = regVec(I.getOperand(0), 2);
    if (!A) return A.takeError();
    auto B = regVec(I.getOperand(1), 2);
    if (!B) return B.takeError();
    Inst &X = emit(H);
    X.dst = Base[&I]; X.a = *A; X.b = *B;
    return Error::success();
  }
  if ((Opc == Instruction::ZExt || Opc == Instruction::SExt) && isWide(&I) &&
      I.getOperand(0)->getType()->isIntegerTy() && !isWide(I.getOperand(0))) {
    auto K = MT.kindOf(I.getOperand(0)->getType());
    if (!K) return fail(toString(K.takeError()));
    Handler Lo = *K == VK::I64 ? ops::move() : ops::cast(Opc, *K, VK::I64);
    if (!Lo) return fail("unsupported i128 extension");
    auto A = op(I.getOperand(0));
    if (!A) return A.takeError();
    Inst &X = emit(Lo);
    X.dst = D; X.a = *A;
    if (Opc == Instruction::ZExt) {
      Inst &Y = emit(ops::move());
      Y.dst = D + 1; Y.a = constSlot(0);
    } else {
      Inst &Y = emit(ops::binInt(Instruction::AShr, VK::I64));
      Y.dst = D + 1; Y.a = D; Y.b = constSlot(63);
    }
    return Error::success();
  }
  if (Opc == Instruction::Trunc && isWide(I.getOperand(0)) && I.getType()->isIntegerTy() && !isWide(&I)) {
    auto K = MT.kindOf(I.getType());
    if (!K) return fail(toString(K.takeError()));
    Handler H = *K == VK::I64 ? ops::move() : ops::cast(Opc, VK::I64, *K);
    if (!H) return fail("unsupported i128 truncation");
    auto A = op(I.getOperand(0), 0);
    if (!A) return A.takeError();
    Inst &X = emit(H);
    X.dst = Base[&I]; X.a = *A;
    return Error::success();
  }
  return fail("unsupported i128 operation");
}

Error FnTranslator::translate(Instruction &I) {
  unsigned Opc = I.getOpcode();
  auto Dst = [&]() { return Base[&I]; };
  // i128 values: see translateWide for what takes the generic paths
  if (Opc != Instruction::Load && Opc != Instruction::Store && Opc != Instruction::Select &&
      Opc != Instruction::Freeze && Opc != Instruction::ExtractValue && Opc != Instruction::InsertValue &&
      Opc != Instruction::Ret && Opc != Instruction::BitCast &&
      !(isa<CallBase>(I) && !isa<IntrinsicInst>(I))) {
    bool Wide = isWide(&I);
    for (const Value *O : I.operands()) Wide |= isWide(O);
    if (Wide) return translateWide(I);
  }
  if (I.isBinaryOp() || Opc == Instruction::ICmp || Opc == Instruction::Load || Opc == Instruction::Store ||
      (I.isCast() && Opc != Instruction::BitCast) || isa<IntrinsicInst>(I)) {
    bool Odd = oddBits(I.getType()) != 0;
    for (const Value *O : I.operands()) Odd |= oddBits(O->getType()) != 0;
    if (Odd) return translateOdd(I);
  }
  if (I.isBinaryOp()) {
    auto L = leavesOf(I.getType());
    if (!L) return fail(toString(L.takeError()));
    for (unsigned i = 0; i < L->size(); ++i) {
      VK K = (*L)[i].kind;
      bool FP = K == VK::F16 || K == VK::BF16 || K == VK::F32 || K == VK::F64;
      Handler H = FP ? ops::binFP(Opc, K) : ops::binInt(Opc, K);
      if (!H) return fail("unsupported operation/type combination");
      auto A = op(I.getOperand(0), i), B = op(I.getOperand(1), i);
      if (!A) return A.takeError();
      if (!B) return B.takeError();
      Inst &X = emit(H);
      X.dst = Dst() + int32_t(i); X.a = *A; X.b = *B;
    }
    return Error::success();
  }
  if (I.isCast()) {
    auto LD = leavesOf(I.getType());
    if (!LD) return fail(toString(LD.takeError()));
    auto LS = leavesOf(I.getOperand(0)->getType());
    if (!LS) return fail(toString(LS.takeError()));
    if (Opc == Instruction::BitCast && (LD->size() != LS->size() || (*LD)[0].width() != (*LS)[0].width())) {
      // element sizes in bits (vectors of i1 and of odd widths are bit-packed)
      unsigned SB = (*LS)[0].width(), DB = (*LD)[0].width();
      if (SB * LS->size() != DB * LD->size()) return fail("bitcast between different sizes");
      if (SB * LS->size() > 4096) return fail("bitcast of a vector larger than 512 bytes");
      auto S = regVec(I.getOperand(0), unsigned(LS->size()));
      if (!S) return S.takeError();
      Inst &X = emit(ops::repack());
      X.dst = Dst(); X.a = *S; X.aux = unsigned(LS->size()); X.aux2 = unsigned(LD->size());
      X.vk = uint8_t(SB); X.vk2 = uint8_t(DB);
      return Error::success();
    }
    for (unsigned i = 0; i < LD->size(); ++i) {
      Handler H;
      if (Opc == Instruction::AddrSpaceCast)
        H = ops::asCast(I.getOperand(0)->getType()->getScalarType()->getPointerAddressSpace(),
                        I.getType()->getScalarType()->getPointerAddressSpace());
      else
        H = ops::cast(Opc, (*LS)[i].kind, (*LD)[i].kind);
      if (!H) return fail("unsupported cast");
      auto A = op(I.getOperand(0), i);
      if (!A) return A.takeError();
      Inst &X = emit(H);
      X.dst = Dst() + int32_t(i); X.a = *A;
    }
    return Error::success();
  }
  switch (Opc) {
  case Instruction::FNeg: {
    auto L = leavesOf(I.getType());
    if (!L) return fail(toString(L.takeError()));
    for (unsigned i = 0; i < L->size(); ++i) {
      auto A = op(I.getOperand(0), i);
      if (!A) return A.takeError();
      Inst &X = emit(ops::fneg((*L)[i].kind));
      X.dst = Dst() + int32_t(i); X.a = *A;
    }
    return Error::success();
  }
  case Instruction::ICmp:
  case Instruction::FCmp: {
    auto L = leavesOf(I.getOperand(0)->getType());
    if (!L) return fail(toString(L.takeError()));
    unsigned P = cast<CmpInst>(I).getPredicate();
    for (unsigned i = 0; i < L->size(); ++i) {
      Handler H = Opc == Instruction::ICmp ? ops::icmp(P, (*L)[i].kind) : ops::fcmp(P, (*L)[i].kind);
      if (!H) return fail("unsupported comparison");
      auto A = op(I.getOperand(0), i), B = op(I.getOperand(1), i);
      if (!A) return A.takeError();
      if (!B) return B.takeError();
      Inst &X = emit(H);
      X.dst = Dst() + int32_t(i); X.a = *A; X.b = *B;
    }
    return Error::success();
  }
  case Instruction::Select: {
    auto N = count(I.getType());
    if (!N) return fail(toString(N.takeError()));
    bool VecCond = I.getOperand(0)->getType()->isVectorTy();
    for (unsigned i = 0; i < *N; ++i) {
      auto C = op(I.getOperand(0), VecCond ? i : 0), A = op(I.getOperand(1), i), B = op(I.getOperand(2), i);
      if (!C) return C.takeError();
      if (!A) return A.takeError();
      if (!B) return B.takeError();
      Inst &X = emit(ops::select());
      X.dst = Dst() + int32_t(i); X.a = *C; X.b = *A; X.c = *B;
    }
    return Error::success();
  }
  case Instruction::Freeze: {
    auto N = count(I.getType());
    if (!N) return fail(toString(N.takeError()));
    return moveLeaves(Dst(), I.getOperand(0), *N);
  }
  case Instruction::GetElementPtr: {
    auto &G = cast<GetElementPtrInst>(I);
    if (G.getType()->isVectorTy()) return fail("vector GEP is not supported");
    unsigned AS_ = G.getPointerAddressSpace();
    bool P32 = DL.getPointerSizeInBits(AS_) == 32;
    auto Cur_ = op(G.getPointerOperand());
    if (!Cur_) return Cur_.takeError();
    int32_t CurS = *Cur_;
    int64_t ConstOff = 0;
    std::vector<std::pair<const Value *, uint64_t>> Vars;
    gep_type_iterator GTI = gep_type_begin(G);
    for (auto It = G.idx_begin(); It != G.idx_end(); ++It, ++GTI) {
      if (StructType *ST = GTI.getStructTypeOrNull()) {
        ConstOff += int64_t(DL.getStructLayout(ST)->getElementOffset(cast<ConstantInt>(*It)->getZExtValue()));
        continue;
      }
      uint64_t Scale = GTI.getSequentialElementStride(DL);
      if (auto *CI = dyn_cast<ConstantInt>(*It)) {
        ConstOff += CI->getSExtValue() * int64_t(Scale);
        continue;
      }
      Vars.push_back({It->get(), Scale});
    }
    for (size_t k = 0; k < Vars.size(); ++k) {
      auto Ix = op(Vars[k].first);
      if (!Ix) return Ix.takeError();
      unsigned Bits = Vars[k].first->getType()->getIntegerBitWidth();
      Handler H = ops::gepAdd(Bits, P32);
      if (!H) return fail("unsupported GEP index width");
      bool Last = k + 1 == Vars.size() && ConstOff == 0;
      int32_t D = Last ? Dst() : slots(1);
      Inst &X = emit(H);
      X.dst = D; X.a = CurS; X.b = *Ix; X.imm = int64_t(Vars[k].second); X.vk = P32;
      CurS = D;
    }
    if (Vars.empty() || ConstOff != 0) {
      Inst &X = emit(ops::addImm(P32));
      X.dst = Dst(); X.a = CurS; X.imm = ConstOff;
    }
    return Error::success();
  }
  case Instruction::Load: {
    auto &L = cast<LoadInst>(I);
    auto C = ptrClass(L.getPointerOperand());
    if (!C) return C.takeError();
    auto Lv = leavesOf(L.getType());
    if (!Lv) return fail(toString(Lv.takeError()));
    if (L.getType()->isVectorTy() && L.getType()->getScalarType()->isIntegerTy(1))
      return fail("load of a vector of i1 is not supported");
    auto P = op(L.getPointerOperand());
    if (!P) return P.takeError();
    if (unsigned EB = *C == AS::Global || *C == AS::Flat ? wholeVector(L.getType(), *Lv) : 0) {
      Inst &X = emit(ops::wholeAccess(*C, EB * unsigned(Lv->size()), false));
      X.dst = Dst(); X.a = *P; X.aux = unsigned(Lv->size()); X.vk = uint8_t(EB);
      return Error::success();
    }
    for (unsigned i = 0; i < Lv->size(); ++i) {
      Inst &X = emit(ops::load(*C, vkBytes((*Lv)[i].kind)));
      X.dst = Dst() + int32_t(i); X.a = *P; X.imm = int64_t((*Lv)[i].offset);
    }
    return Error::success();
  }
  case Instruction::Store: {
    auto &S = cast<StoreInst>(I);
    auto C = ptrClass(S.getPointerOperand());
    if (!C) return C.takeError();
    auto Lv = leavesOf(S.getValueOperand()->getType());
    if (!Lv) return fail(toString(Lv.takeError()));
    if (S.getValueOperand()->getType()->isVectorTy() && S.getValueOperand()->getType()->getScalarType()->isIntegerTy(1))
      return fail("store of a vector of i1 is not supported");
    auto P = op(S.getPointerOperand());
    if (!P) return P.takeError();
    if (unsigned EB = *C == AS::Global || *C == AS::Flat ? wholeVector(S.getValueOperand()->getType(), *Lv) : 0) {
      auto V = regVec(S.getValueOperand(), unsigned(Lv->size()));
      if (!V) return V.takeError();
      Inst &X = emit(ops::wholeAccess(*C, EB * unsigned(Lv->size()), true));
      X.a = *P; X.b = *V; X.aux = unsigned(Lv->size()); X.vk = uint8_t(EB);
      return Error::success();
    }
    for (unsigned i = 0; i < Lv->size(); ++i) {
      auto V = op(S.getValueOperand(), i);
      if (!V) return V.takeError();
      Inst &X = emit(ops::store(*C, vkBytes((*Lv)[i].kind)));
      X.a = *P; X.b = *V; X.imm = int64_t((*Lv)[i].offset);
    }
    // A seq_cst store must not pass a later seq_cst load of another location
    // (host stores may: x86-TSO reorders store -> load); release/monotonic
    // stores need nothing more than program order.
    if (S.isAtomic() && S.getOrdering() == AtomicOrdering::SequentiallyConsistent && *C != AS::LDS &&
        *C != AS::Private)
      emit(ops::fence());
    return Error::success();
  }
  case Instruction::AtomicRMW: {
    auto &A = cast<AtomicRMWInst>(I);
    auto C = ptrClass(A.getPointerOperand());
    if (!C) return C.takeError();
    if (auto *VT = dyn_cast<FixedVectorType>(A.getValOperand()->getType())) {
      auto EK = MT.kindOf(VT->getElementType());
      if (!EK) return fail(toString(EK.takeError()));
      unsigned N = VT->getNumElements();
      Handler H = ops::atomicRMWVec(A.getOperation(), *EK, N, *C);
      if (!H) return fail("unsupported vector atomicrmw (operation, element type or size)");
      auto P = op(A.getPointerOperand());
      if (!P) return P.takeError();
      auto V = regVec(A.getValOperand(), N);
      if (!V) return V.takeError();
      Inst &X = emit(H);
      X.dst = Dst(); X.a = *P; X.b = *V; X.aux = N; X.kind = uint16_t(A.getOperation()); X.vk = uint8_t(*EK);
      return Error::success();
    }
    auto K = MT.kindOf(A.getValOperand()->getType());
    if (!K) return fail(toString(K.takeError()));
    Handler H = ops::atomicRMW(A.getOperation(), *K, *C);
    if (!H) return fail("unsupported atomicrmw");
    auto P = op(A.getPointerOperand()), V = op(A.getValOperand());
    if (!P) return P.takeError();
    if (!V) return V.takeError();
    Inst &X = emit(H);
    X.dst = Dst(); X.a = *P; X.b = *V; X.kind = uint16_t(A.getOperation()); X.vk = uint8_t(*K);
    return Error::success();
  }
  case Instruction::AtomicCmpXchg: {
    auto &A = cast<AtomicCmpXchgInst>(I);
    auto C = ptrClass(A.getPointerOperand());
    if (!C) return C.takeError();
    auto K = MT.kindOf(A.getCompareOperand()->getType());
    if (!K) return fail(toString(K.takeError()));
    Handler H = ops::cmpxchg(*K, *C);
    if (!H) return fail("unsupported cmpxchg");
    auto P = op(A.getPointerOperand()), Cm = op(A.getCompareOperand()), Nw = op(A.getNewValOperand());
    if (!P) return P.takeError();
    if (!Cm) return Cm.takeError();
    if (!Nw) return Nw.takeError();
    Inst &X = emit(H);
    X.dst = Dst(); X.a = *P; X.b = *Cm; X.c = *Nw;
    return Error::success();
  }
  case Instruction::Fence:
    emit(ops::fence());
    return Error::success();
  case Instruction::Alloca: {
    auto &A = cast<AllocaInst>(I);
    if (A.getAddressSpace() != AMDGPUAS::PRIVATE_ADDRESS) return fail("alloca outside the private address space");
    uint64_t ESize = DL.getTypeAllocSize(A.getAllocatedType());
    uint64_t Align = A.getAlign().value();
    FC.frameAlign = std::max<uint32_t>(FC.frameAlign, uint32_t(std::min<uint64_t>(Align, 256)));
    auto *CN = dyn_cast<ConstantInt>(A.getArraySize());
    if (A.isStaticAlloca() && CN) {
      FrameCur = (FrameCur + Align - 1) & ~(Align - 1);
      Inst &X = emit(ops::allocaStatic());
      X.dst = Dst(); X.imm = int64_t(FrameCur);
      FrameCur += ESize * CN->getZExtValue();
      return Error::success();
    }
    auto N = op(A.getArraySize());
    if (!N) return N.takeError();
    auto K = MT.kindOf(A.getArraySize()->getType());
    if (!K) return fail(toString(K.takeError()));
    Inst &X = emit(ops::allocaDynamic());
    X.dst = Dst(); X.a = *N; X.imm = int64_t(ESize); X.aux = uint32_t(Align); X.vk = uint8_t(*K);
    return Error::success();
  }
  case Instruction::ExtractElement: {
    auto &E = cast<ExtractElementInst>(I);
    auto *VT = dyn_cast<FixedVectorType>(E.getVectorOperandType());
    if (!VT) return fail("scalable vectors are not supported");
    if (auto *CI = dyn_cast<ConstantInt>(E.getIndexOperand())) {
      uint64_t K = CI->getZExtValue();
      if (K >= VT->getNumElements()) {
        Inst &X = emit(ops::move());
        X.dst = Dst(); X.a = constSlot(0);
        return Error::success();
      }
      return moveLeaves(Dst(), E.getVectorOperand(), 1, unsigned(K));
    }
    auto V = regVec(E.getVectorOperand(), VT->getNumElements());
    if (!V) return V.takeError();
    auto Ix = op(E.getIndexOperand());
    if (!Ix) return Ix.takeError();
    Inst &X = emit(ops::extractDyn());
    X.dst = Dst(); X.a = *V; X.b = *Ix; X.aux = VT->getNumElements();
    return Error::success();
  }
  case Instruction::InsertElement: {
    auto &E = cast<InsertElementInst>(I);
    auto *VT = dyn_cast<FixedVectorType>(E.getType());
    if (!VT) return fail("scalable vectors are not supported");
    unsigned N = VT->getNumElements();
    if (auto *CI = dyn_cast<ConstantInt>(E.getOperand(2))) {
      uint64_t K = CI->getZExtValue();
      for (unsigned i = 0; i < N; ++i) {
        auto S = i == K ? op(E.getOperand(1)) : op(E.getOperand(0), i);
        if (!S) return S.takeError();
        Inst &X = emit(ops::move());
        X.dst = Dst() + int32_t(i); X.a = *S;
      }
      return Error::success();
    }
    if (Error Er = moveLeaves(Dst(), E.getOperand(0), N)) return Er;
    auto Ix = op(E.getOperand(2)), V = op(E.getOperand(1));
    if (!Ix) return Ix.takeError();
    if (!V) return V.takeError();
    Inst &X = emit(ops::insertDyn());
    X.dst = Dst(); X.b = *Ix; X.c = *V; X.aux = N;
    return Error::success();
  }
  case Instruction::ShuffleVector: {
    auto &S = cast<ShuffleVectorInst>(I);
    auto *VT = dyn_cast<FixedVectorType>(S.getOperand(0)->getType());
    if (!VT) return fail("scalable vectors are not supported");
    int N1 = int(VT->getNumElements());
    ArrayRef<int> Mask = S.getShuffleMask();
    for (unsigned i = 0; i < Mask.size(); ++i) {
      int m = Mask[i];
      Expected<int32_t> Src = m < 0 ? Expected<int32_t>(constSlot(0))
                              : m < N1 ? op(S.getOperand(0), unsigned(m)) : op(S.getOperand(1), unsigned(m - N1));
      if (!Src) return Src.takeError();
      Inst &X = emit(ops::move());
      X.dst = Dst() + int32_t(i); X.a = *Src;
    }
    return Error::success();
  }
  case Instruction::ExtractValue:
  case Instruction::InsertValue: {
    bool Ext = Opc == Instruction::ExtractValue;
    Type *AggT = I.getOperand(0)->getType();
    ArrayRef<unsigned> Idx = Ext ? cast<ExtractValueInst>(I).getIndices() : cast<InsertValueInst>(I).getIndices();
    unsigned Start = 0;
    Type *T = AggT;
    for (unsigned k : Idx) {
      if (auto *ST = dyn_cast<StructType>(T)) {
        for (unsigned f = 0; f < k; ++f) {
          auto N = count(ST->getElementType(f));
          if (!N) return fail(toString(N.takeError()));
          Start += *N;
        }
        T = ST->getElementType(k);
      } else {
        Type *ET = T->getArrayElementType();
        auto N = count(ET);
        if (!N) return fail(toString(N.takeError()));
        Start += k * *N;
        T = ET;
      }
    }
    auto Sub = count(T);
    if (!Sub) return fail(toString(Sub.takeError()));
    if (Ext) return moveLeaves(Dst(), I.getOperand(0), *Sub, Start);
    auto All = count(AggT);
    if (!All) return fail(toString(All.takeError()));
    for (unsigned i = 0; i < *All; ++i) {
      auto S = (i >= Start && i < Start + *Sub) ? op(I.getOperand(1), i - Start) : op(I.getOperand(0), i);
      if (!S) return S.takeError();
      Inst &X = emit(ops::move());
      X.dst = Dst() + int32_t(i); X.a = *S;
    }
    return Error::success();
  }
  case Instruction::Br: {
    auto &B = cast<BranchInst>(I);
    Error E = Error::success();
    if (B.isUnconditional()) {
      uint32_t Ed = makeEdge(B.getParent(), B.getSuccessor(0), E);
      if (E) return E;
      Inst &X = emit(ops::br());
      X.aux = Ed;
      return Error::success();
    }
    uint32_t T = makeEdge(B.getParent(), B.getSuccessor(0), E);
    if (E) return E;
    uint32_t Fe = makeEdge(B.getParent(), B.getSuccessor(1), E);
    if (E) return E;
    auto C = op(B.getCondition());
    if (!C) return C.takeError();
    Inst &X = emit(ops::condBr());
    X.a = *C; X.aux = T; X.aux2 = Fe;
    auto *N = PDT->getNode(B.getParent());
    const BasicBlock *IP = N && N->getIDom() ? N->getIDom()->getBlock() : nullptr;
    RpcFixups.push_back({uint32_t(FC.code.size() - 1), IP});
    return Error::success();
  }
  case Instruction::Switch: {
    auto &S = cast<SwitchInst>(I);
    auto K = MT.kindOf(S.getCondition()->getType());
    if (!K) return fail(toString(K.takeError()));
    Error E = Error::success();
    uint32_t Def = makeEdge(S.getParent(), S.getDefaultDest(), E);
    if (E) return E;
    uint32_t ValBase = uint32_t(FC.switchVals.size());
    uint32_t FirstEdge = uint32_t(FC.edges.size());
    unsigned NC = 0;
    for (auto &Case : S.cases()) {
      makeEdge(S.getParent(), Case.getCaseSuccessor(), E);
      if (E) return E;
      FC.switchVals.push_back(Case.getCaseValue()->getZExtValue());
      ++NC;
    }
    auto C = op(S.getCondition());
    if (!C) return C.takeError();
    Inst &X = emit(ops::switchOp());
    X.a = *C; X.aux = ValBase; X.aux2 = NC; X.b = int32_t(Def); X.c = int32_t(FirstEdge); X.vk = uint8_t(*K);
    auto *N = PDT->getNode(S.getParent());
    const BasicBlock *IP = N && N->getIDom() ? N->getIDom()->getBlock() : nullptr;
    RpcFixups.push_back({uint32_t(FC.code.size() - 1), IP});
    return Error::success();
  }
  case Instruction::Ret: {
    auto &R = cast<ReturnInst>(I);
    CallInfo RI;
    if (Value *V = R.getReturnValue())
      for (unsigned i = 0; i < FC.retSlots; ++i) {
        auto S = op(V, i);
        if (!S) return S.takeError();
        RI.args.push_back(*S);
      }
    FC.calls.push_back(std::move(RI));
    Inst &X = emit(ops::ret());
    X.aux = R.getReturnValue() ? FC.retSlots : 0;
    X.aux2 = uint32_t(FC.calls.size() - 1);
    return Error::success();
  }
  case Instruction::Unreachable:
    emit(ops::unreachable());
    return Error::success();
  case Instruction::Call:
    return translateCall(cast<CallBase>(I));
  default:
    break;
  }
  return fail("unsupported instruction '" + std::string(I.getOpcodeName()) + "'");
}

Error FnTranslator::translateCall(CallBase &CB) {
  if (CB.isInlineAsm()) return fail("inline assembly is not supported");
  Function *Callee = CB.getCalledFunction();
  if (Callee && Callee->isIntrinsic()) return translateIntrinsic(CB, Callee->getIntrinsicID());
  if (Callee && Callee->getName().starts_with("llvm."))
    return fail("unknown intrinsic '" + Callee->getName().str() + "'");
  auto flatArgs = [&](CallInfo &CI, unsigned From) -> Error {
    for (unsigned a = From; a < CB.arg_size(); ++a) {
      auto N = count(CB.getArgOperand(a)->getType());
      if (!N) return fail(toString(N.takeError()));
      for (unsigned i = 0; i < *N; ++i) {
        auto S = op(CB.getArgOperand(a), i);
        if (!S) return S.takeError();
        CI.args.push_back(*S);
      }
    }
    return Error::success();
  };
  int32_t D = CB.getType()->isVoidTy() ? -1 : Base[&CB];
  if (Callee && Callee->isDeclaration()) {
    StringRef N = Callee->getName();
    if (N == "printf" || N == "vprintf") {
      PrintfInfo PI;
      PI.vprintf = N == "vprintf";
      for (unsigned a = 0; a < CB.arg_size(); ++a) {
        auto K = MT.kindOf(CB.getArgOperand(a)->getType());
        if (!K) return fail("printf argument: " + toString(K.takeError()));
        auto S = op(CB.getArgOperand(a));
        if (!S) return S.takeError();
        PI.args.push_back(*S);
        PI.kinds.push_back(*K);
      }
      if (PI.args.empty() || (PI.vprintf && PI.args.size() != 2)) return fail("malformed printf call");
      FC.printfs.push_back(std::move(PI));
      Inst &X = emit(ops::printfOp());
      X.dst = D; X.aux = uint32_t(FC.printfs.size() - 1);
      return Error::success();
    }
    if (N == "__assertfail" || N == "__assert_fail") {
      CallInfo CI;
      if (Error E = flatArgs(CI, 0)) return E;
      FC.calls.push_back(std::move(CI));
      Inst &X = emit(ops::special(N == "__assertfail" ? SOp::AssertFail : SOp::AssertFailC));
      X.aux = uint32_t(FC.calls.size() - 1);
      return Error::success();
    }
    if (N == "abort") {
      emit(ops::special(SOp::Abort));
      return Error::success();
    }
    return fail("call to undefined function '" + N.str() + "'");
  }
  if (CB.getFunctionType()->isVarArg()) return fail("calls of variadic functions are not supported");
  CallInfo CI;
  CI.fty = CB.getFunctionType();
  if (Error E = flatArgs(CI, 0)) return E;
  if (!CB.getType()->isVoidTy()) {
    auto N = count(CB.getType());
    if (!N) return fail(toString(N.takeError()));
    CI.retSlots = *N;
  }
  if (Callee) {
    auto It = MT.Img.byFunc.find(Callee);
    if (It == MT.Img.byFunc.end()) return fail("call to untranslated function");
    CI.callee = It->second;
    FC.calls.push_back(std::move(CI));
    Inst &X = emit(ops::call());
    X.dst = D; X.aux = uint32_t(FC.calls.size() - 1);
    return Error::success();
  }
  auto P = op(CB.getCalledOperand());
  if (!P) return P.takeError();
  FC.calls.push_back(std::move(CI));
  Inst &X = emit(ops::callIndirect());
  X.dst = D; X.a = *P; X.aux = uint32_t(FC.calls.size() - 1);
  return Error::success();
}

Error FnTranslator::elementwise(CallBase &CB, LOp Op, unsigned NOps) {
  Type *RT = CB.getType();
  Type *OT = CB.getArgOperand(0)->getType();
  unsigned N = 1;
  if (auto *VT = dyn_cast<FixedVectorType>(RT)) N = VT->getNumElements();
  else if (auto *ST = dyn_cast<StructType>(RT)) {
    if (isa<FixedVectorType>(ST->getElementType(0))) return fail("vector intrinsic with struct result");
  }
  auto K = MT.kindOf(OT->getScalarType());
  if (!K) return fail(toString(K.takeError()));
  Handler H = ops::laneOp(Op, *K);
  if (!H) return fail("intrinsic '" + CB.getCalledFunction()->getName().str() + "' is not implemented for this type");
  for (unsigned i = 0; i < N; ++i) {
    int32_t Ops_[3] = {0, 0, 0};
    for (unsigned o = 0; o < NOps; ++o) {
      Value *V = CB.getArgOperand(o);
      auto S = op(V, V->getType()->isVectorTy() ? i : 0);
      if (!S) return S.takeError();
      Ops_[o] = *S;
    }
    Inst &X = emit(H);
    X.dst = Base[&CB] + int32_t(i); X.a = Ops_[0]; X.b = Ops_[1]; X.c = Ops_[2];
  }
  return Error::success();
}

Error FnTranslator::translateIntrinsic(CallBase &CB, Intrinsic::ID ID) {
  std::string Name = CB.getCalledFunction()->getName().str();
  auto special = [&](SOp S, unsigned NOps = 0) -> Error {
    int32_t Ops_[3] = {0, 0, 0};
    for (unsigned o = 0; o < NOps; ++o) {
      auto V = op(CB.getArgOperand(o));
      if (!V) return V.takeError();
      Ops_[o] = *V;
    }
    Inst &X = emit(ops::special(S));
    X.dst = CB.getType()->isVoidTy() ? -1 : Base[&CB];
    X.a = Ops_[0]; X.b = Ops_[1]; X.c = Ops_[2];
    return Error::success();
  };
  /// Cross-lane op applied to every leaf of a possibly multi-slot value.
  auto perLeaf = [&](SOp S, unsigned NOps, std::initializer_list<unsigned> LeafOps) -> Error {
    auto N = count(CB.getType());
    if (!N) return fail(toString(N.takeError()));
    for (unsigned i = 0; i < *N; ++i) {
      int32_t Ops_[3] = {0, 0, 0};
      for (unsigned o = 0; o < NOps; ++o) {
        bool Leafy = std::find(LeafOps.begin(), LeafOps.end(), o) != LeafOps.end();
        auto V = op(CB.getArgOperand(o), Leafy ? i : 0);
        if (!V) return V.takeError();
        Ops_[o] = *V;
      }
      Inst &X = emit(ops::special(S));
      X.dst = Base[&CB] + int32_t(i); X.a = Ops_[0]; X.b = Ops_[1]; X.c = Ops_[2];
    }
    return Error::success();
  };
  auto moveArg0 = [&]() -> Error {
    auto N = count(CB.getType());
    if (!N) return fail(toString(N.takeError()));
    return moveLeaves(Base[&CB], CB.getArgOperand(0), *N);
  };
  switch (ID) {
  // no-ops
  case Intrinsic::lifetime_start: case Intrinsic::lifetime_end: case Intrinsic::assume: case Intrinsic::dbg_declare: case Intrinsic::dbg_value: case Intrinsic::dbg_label:
  case Intrinsic::experimental_noalias_scope_decl: case Intrinsic::sideeffect: case Intrinsic::donothing: case Intrinsic::invariant_end: case Intrinsic::pseudoprobe:
  case Intrinsic::var_annotation: case Intrinsic::codeview_annotation:
  case Intrinsic::amdgcn_s_waitcnt: case Intrinsic::amdgcn_sched_barrier: case Intrinsic::amdgcn_sched_group_barrier: case Intrinsic::amdgcn_iglp_opt:
  case Intrinsic::amdgcn_s_setprio: case Intrinsic::amdgcn_wave_barrier:
    return Error::success();
  case Intrinsic::invariant_start: {
    Inst &X = emit(ops::move());
    X.dst = Base[&CB]; X.a = constSlot(0);
    return Error::success();
  }
  case Intrinsic::expect: case Intrinsic::expect_with_probability: case Intrinsic::ptr_annotation: case Intrinsic::launder_invariant_group:
  case Intrinsic::strip_invariant_group: case Intrinsic::ssa_copy: case Intrinsic::arithmetic_fence: case Intrinsic::annotation:
    return moveArg0();
  case Intrinsic::memcpy: case Intrinsic::memcpy_inline: case Intrinsic::memmove: case Intrinsic::memset: case Intrinsic::memset_inline: {
    auto D = ptrClass(CB.getArgOperand(0));
    if (!D) return D.takeError();
    Handler H;
    if (ID == Intrinsic::memset || ID == Intrinsic::memset_inline) H = ops::memsetOp(*D);
    else {
      auto S = ptrClass(CB.getArgOperand(1));
      if (!S) return S.takeError();
      H = ops::memcpyOp(*D, *S, ID == Intrinsic::memmove);
    }
    auto A = op(CB.getArgOperand(0)), B = op(CB.getArgOperand(1)), L = op(CB.getArgOperand(2));
    if (!A) return A.takeError();
    if (!B) return B.takeError();
    if (!L) return L.takeError();
    Inst &X = emit(H);
    X.a = *A; X.b = *B; X.c = *L;
    return Error::success();
  }
  case Intrinsic::stacksave: return special(SOp::StackSave);
  case Intrinsic::stackrestore: return special(SOp::StackRestore, 1);
  case Intrinsic::trap: case Intrinsic::debugtrap: case Intrinsic::ubsantrap: return special(SOp::Trap);
  case Intrinsic::readcyclecounter: return special(SOp::MemTime);
  case Intrinsic::readsteadycounter: return special(SOp::MemRealTime);
  // ---- generic element-wise math
  case Intrinsic::fabs: return elementwise(CB, LOp::Fabs, 1);
  case Intrinsic::sqrt: return elementwise(CB, LOp::Sqrt, 1);
  case Intrinsic::floor: return elementwise(CB, LOp::Floor, 1);
  case Intrinsic::ceil: return elementwise(CB, LOp::Ceil, 1);
  case Intrinsic::trunc: return elementwise(CB, LOp::Trunc, 1);
  case Intrinsic::rint: case Intrinsic::nearbyint: return elementwise(CB, LOp::Rint, 1);
  case Intrinsic::round: return elementwise(CB, LOp::Round, 1);
  case Intrinsic::roundeven: return elementwise(CB, LOp::RoundEven, 1);
  case Intrinsic::exp: return elementwise(CB, LOp::Exp, 1);
  case Intrinsic::exp2: return elementwise(CB, LOp::Exp2, 1);
  case Intrinsic::exp10: return elementwise(CB, LOp::Exp10, 1);
  case Intrinsic::log: return elementwise(CB, LOp::Log, 1);
  case Intrinsic::log2: return elementwise(CB, LOp::Log2, 1);
  case Intrinsic::log10: return elementwise(CB, LOp::Log10, 1);
  case Intrinsic::sin: return elementwise(CB, LOp::Sin, 1);
  case Intrinsic::cos: return elementwise(CB, LOp::Cos, 1);
  case Intrinsic::tan: return elementwise(CB, LOp::Tan, 1);
  case Intrinsic::canonicalize: return elementwise(CB, LOp::Canonicalize, 1);
  case Intrinsic::copysign: return elementwise(CB, LOp::Copysign, 2);
  case Intrinsic::minnum: return elementwise(CB, LOp::Minnum, 2);
  case Intrinsic::maxnum: return elementwise(CB, LOp::Maxnum, 2);
  case Intrinsic::minimum: return elementwise(CB, LOp::Minimum, 2);
  case Intrinsic::maximum: return elementwise(CB, LOp::Maximum, 2);
  case Intrinsic::minimumnum: return elementwise(CB, LOp::MinimumNum, 2);
  case Intrinsic::maximumnum: return elementwise(CB, LOp::MaximumNum, 2);
  case Intrinsic::pow: return elementwise(CB, LOp::Pow, 2);
  case Intrinsic::ldexp: return elementwise(CB, LOp::Ldexp, 2);
  case Intrinsic::powi: return elementwise(CB, LOp::Powi, 2);
  case Intrinsic::is_fpclass: return elementwise(CB, LOp::IsFPClass, 2);
  case Intrinsic::fma: return elementwise(CB, LOp::Fma, 3);
  case Intrinsic::fmuladd: return elementwise(CB, LOp::FMulAdd, 3);
  case Intrinsic::frexp: return elementwise(CB, LOp::Frexp, 1);
  case Intrinsic::ctpop: return elementwise(CB, LOp::Ctpop, 1);
  case Intrinsic::ctlz: return elementwise(CB, LOp::Ctlz, 1);
  case Intrinsic::cttz: return elementwise(CB, LOp::Cttz, 1);
  case Intrinsic::bitreverse: return elementwise(CB, LOp::Bitreverse, 1);
  case Intrinsic::bswap: return elementwise(CB, LOp::Bswap, 1);
  case Intrinsic::abs: return elementwise(CB, LOp::Abs, 1);
  case Intrinsic::smin: return elementwise(CB, LOp::Smin, 2);
  case Intrinsic::smax: return elementwise(CB, LOp::Smax, 2);
  case Intrinsic::umin: return elementwise(CB, LOp::Umin, 2);
  case Intrinsic::umax: return elementwise(CB, LOp::Umax, 2);
  case Intrinsic::sadd_sat: return elementwise(CB, LOp::SaddSat, 2);
  case Intrinsic::uadd_sat: return elementwise(CB, LOp::UaddSat, 2);
  case Intrinsic::ssub_sat: return elementwise(CB, LOp::SsubSat, 2);
  case Intrinsic::usub_sat: return elementwise(CB, LOp::UsubSat, 2);
  case Intrinsic::fshl: return elementwise(CB, LOp::Fshl, 3);
  case Intrinsic::fshr: return elementwise(CB, LOp::Fshr, 3);
  case Intrinsic::sadd_with_overflow: return elementwise(CB, LOp::SaddO, 2);
  case Intrinsic::uadd_with_overflow: return elementwise(CB, LOp::UaddO, 2);
  case Intrinsic::ssub_with_overflow: return elementwise(CB, LOp::SsubO, 2);
  case Intrinsic::usub_with_overflow: return elementwise(CB, LOp::UsubO, 2);
  case Intrinsic::smul_with_overflow: return elementwise(CB, LOp::SmulO, 2);
  case Intrinsic::umul_with_overflow: return elementwise(CB, LOp::UmulO, 2);
  case Intrinsic::fptosi_sat: case Intrinsic::fptoui_sat: {
    auto LD = leavesOf(CB.getType());
    auto LS = leavesOf(CB.getArgOperand(0)->getType());
    if (!LD) return fail(toString(LD.takeError()));
    if (!LS) return fail(toString(LS.takeError()));
    for (unsigned i = 0; i < LD->size(); ++i) {
      Handler H = ops::cast(ID == Intrinsic::fptosi_sat ? Instruction::FPToSI : Instruction::FPToUI, (*LS)[i].kind, (*LD)[i].kind);
      if (!H) return fail("unsupported saturating conversion");
      auto A = op(CB.getArgOperand(0), i);
      if (!A) return A.takeError();
      Inst &X = emit(H);
      X.dst = Base[&CB] + int32_t(i); X.a = *A;
    }
    return Error::success();
  }
  // ---- vector reductions: a left-to-right chain of scalar ops
  case Intrinsic::vector_reduce_add: case Intrinsic::vector_reduce_mul: case Intrinsic::vector_reduce_and:
  case Intrinsic::vector_reduce_or: case Intrinsic::vector_reduce_xor: case Intrinsic::vector_reduce_smin:
  case Intrinsic::vector_reduce_smax: case Intrinsic::vector_reduce_umin: case Intrinsic::vector_reduce_umax:
  case Intrinsic::vector_reduce_fadd: case Intrinsic::vector_reduce_fmul: case Intrinsic::vector_reduce_fmin:
  case Intrinsic::vector_reduce_fmax: case Intrinsic::vector_reduce_fminimum: case Intrinsic::vector_reduce_fmaximum: {
    bool HasStart = ID == Intrinsic::vector_reduce_fadd || ID == Intrinsic::vector_reduce_fmul;
    Value *Vec = CB.getArgOperand(HasStart ? 1 : 0);
    auto *VT = dyn_cast<FixedVectorType>(Vec->getType());
    if (!VT) return fail("scalable vectors are not supported");
    auto K = MT.kindOf(VT->getElementType());
    if (!K) return fail(toString(K.takeError()));
    Handler H = nullptr;
    switch (ID) {
    case Intrinsic::vector_reduce_add: H = ops::binInt(Instruction::Add, *K); break;
    case Intrinsic::vector_reduce_mul: H = ops::binInt(Instruction::Mul, *K); break;
    case Intrinsic::vector_reduce_and: H = ops::binInt(Instruction::And, *K); break;
    case Intrinsic::vector_reduce_or: H = ops::binInt(Instruction::Or, *K); break;
    case Intrinsic::vector_reduce_xor: H = ops::binInt(Instruction::Xor, *K); break;
    case Intrinsic::vector_reduce_smin: H = ops::laneOp(LOp::Smin, *K); break;
    case Intrinsic::vector_reduce_smax: H = ops::laneOp(LOp::Smax, *K); break;
    case Intrinsic::vector_reduce_umin: H = ops::laneOp(LOp::Umin, *K); break;
    case Intrinsic::vector_reduce_umax: H = ops::laneOp(LOp::Umax, *K); break;
    case Intrinsic::vector_reduce_fadd: H = ops::binFP(Instruction::FAdd, *K); break;
    case Intrinsic::vector_reduce_fmul: H = ops::binFP(Instruction::FMul, *K); break;
    case Intrinsic::vector_reduce_fmin: H = ops::laneOp(LOp::Minnum, *K); break;
    case Intrinsic::vector_reduce_fmax: H = ops::laneOp(LOp::Maxnum, *K); break;
    case Intrinsic::vector_reduce_fminimum: H = ops::laneOp(LOp::Minimum, *K); break;
    case Intrinsic::vector_reduce_fmaximum: H = ops::laneOp(LOp::Maximum, *K); break;
    default: break;
    }
    if (!H) return fail("unsupported reduction '" + Name + "'");
    unsigned N = VT->getNumElements();
    auto Acc = HasStart ? op(CB.getArgOperand(0)) : op(Vec, 0);
    if (!Acc) return Acc.takeError();
    int32_t Cur_ = *Acc;
    for (unsigned i = HasStart ? 0 : 1; i < N; ++i) {
      auto E = op(Vec, i);
      if (!E) return E.takeError();
      int32_t D = i + 1 == N ? Base[&CB] : slots(1);
      Inst &X = emit(H);
      X.dst = D; X.a = Cur_; X.b = *E;
      Cur_ = D;
    }
    if (Cur_ != Base[&CB]) {
      Inst &X = emit(ops::move());
      X.dst = Base[&CB]; X.a = Cur_;
    }
    return Error::success();
  }
  // ---- AMDGPU element-wise
  case Intrinsic::amdgcn_rcp: return elementwise(CB, LOp::Rcp, 1);
  case Intrinsic::amdgcn_rsq: return elementwise(CB, LOp::Rsq, 1);
  case Intrinsic::amdgcn_rsq_clamp: return elementwise(CB, LOp::RsqClamp, 1);
  case Intrinsic::amdgcn_sqrt: return elementwise(CB, LOp::AmdSqrt, 1);
  case Intrinsic::amdgcn_sin: return elementwise(CB, LOp::AmdSin, 1);
  case Intrinsic::amdgcn_cos: return elementwise(CB, LOp::AmdCos, 1);
  case Intrinsic::amdgcn_exp2: return elementwise(CB, LOp::AmdExp2, 1);
  case Intrinsic::amdgcn_log: return elementwise(CB, LOp::AmdLog, 1);
  case Intrinsic::amdgcn_frexp_mant: return elementwise(CB, LOp::FrexpMant, 1);
  case Intrinsic::amdgcn_frexp_exp: return elementwise(CB, LOp::FrexpExp, 1);
  case Intrinsic::amdgcn_fract: return elementwise(CB, LOp::Fract, 1);
  case Intrinsic::amdgcn_class: return elementwise(CB, LOp::AmdClass, 2);
  case Intrinsic::amdgcn_fmed3: return elementwise(CB, LOp::FMed3, 3);
  case Intrinsic::amdgcn_ubfe: return elementwise(CB, LOp::Ubfe, 3);
  case Intrinsic::amdgcn_sbfe: return elementwise(CB, LOp::Sbfe, 3);
  case Intrinsic::amdgcn_mul_u24: return elementwise(CB, LOp::MulU24, 2);
  case Intrinsic::amdgcn_mul_i24: return elementwise(CB, LOp::MulI24, 2);
  case Intrinsic::amdgcn_mulhi_u24: return elementwise(CB, LOp::MulHiU24, 2);
  case Intrinsic::amdgcn_mulhi_i24: return elementwise(CB, LOp::MulHiI24, 2);
  case Intrinsic::amdgcn_perm: return elementwise(CB, LOp::Perm, 3);
  case Intrinsic::amdgcn_sffbh: return elementwise(CB, LOp::SffbH, 1);
  // ---- AMDGPU state and cross-lane
  case Intrinsic::amdgcn_workitem_id_x: return special(SOp::WorkitemIdX);
  case Intrinsic::amdgcn_workitem_id_y: return special(SOp::WorkitemIdY);
  case Intrinsic::amdgcn_workitem_id_z: return special(SOp::WorkitemIdZ);
  case Intrinsic::amdgcn_workgroup_id_x: return special(SOp::WorkgroupIdX);
  case Intrinsic::amdgcn_workgroup_id_y: return special(SOp::WorkgroupIdY);
  case Intrinsic::amdgcn_workgroup_id_z: return special(SOp::WorkgroupIdZ);
  case Intrinsic::amdgcn_implicitarg_ptr: return special(SOp::ImplicitArgPtr);
  case Intrinsic::amdgcn_kernarg_segment_ptr: return special(SOp::KernargPtr);
  case Intrinsic::amdgcn_dispatch_ptr: return special(SOp::DispatchPtr);
  case Intrinsic::amdgcn_dispatch_id: return special(SOp::DispatchId);
  case Intrinsic::amdgcn_groupstaticsize: return special(SOp::GroupStaticSize);
  case Intrinsic::amdgcn_wavefrontsize: return special(SOp::WaveSize);
  case Intrinsic::amdgcn_s_barrier: return special(SOp::Barrier);
  case Intrinsic::amdgcn_s_sleep: return special(SOp::Sleep);
  case Intrinsic::amdgcn_s_memtime: return special(SOp::MemTime);
  case Intrinsic::amdgcn_s_memrealtime: return special(SOp::MemRealTime);
  case Intrinsic::amdgcn_s_sendmsg_rtn: {
    // gfx11+: only MSG_RTN_GET_REALTIME (0x83, amdgpu-lower's %clock64 on gfx11) is modelled.
    auto *Msg = dyn_cast<ConstantInt>(CB.getArgOperand(0));
    if (!Msg || Msg->getZExtValue() != 0x83 || !CB.getType()->isIntegerTy(64))
      return fail("s.sendmsg.rtn other than the 64-bit GET_REALTIME is not modelled");
    return special(SOp::MemRealTime);
  }
  case Intrinsic::amdgcn_s_getreg: {
    // Hardware registers the device library reads (%smid): HW_ID (gfx9, id 4) and HW_ID1
    // (gfx10+, id 23), modelled in Exec.cpp; any other register is a load error.
    auto *Imm = dyn_cast<ConstantInt>(CB.getArgOperand(0));
    if (!Imm) return fail("s.getreg with a non-constant register");
    unsigned Id = unsigned(Imm->getZExtValue()) & 63;
    if (Id != 4 && Id != 23) return fail("s.getreg of hardware register " + Twine(Id) + " is not modelled");
    if (Error E = special(SOp::GetReg)) return E;
    FC.code.back().aux = unsigned(Imm->getZExtValue());
    return Error::success();
  }
  case Intrinsic::amdgcn_is_shared: return special(SOp::IsShared, 1);
  case Intrinsic::amdgcn_is_private: return special(SOp::IsPrivate, 1);
  case Intrinsic::amdgcn_endpgm: return special(SOp::EndPgm);
  case Intrinsic::amdgcn_ballot: {
    auto K = MT.kindOf(CB.getType());
    if (!K) return fail(toString(K.takeError()));
    if (Error E = special(SOp::Ballot, 1)) return E;
    FC.code.back().vk = uint8_t(*K);
    return Error::success();
  }
  case Intrinsic::amdgcn_icmp: case Intrinsic::amdgcn_fcmp: {
    auto K = MT.kindOf(CB.getType());
    if (!K) return fail(toString(K.takeError()));
    auto K2 = MT.kindOf(CB.getArgOperand(0)->getType());
    if (!K2) return fail(toString(K2.takeError()));
    auto *P = dyn_cast<ConstantInt>(CB.getArgOperand(2));
    if (!P) return fail("non-constant predicate");
    if (Error E = special(ID == Intrinsic::amdgcn_icmp ? SOp::ICmpBallot : SOp::FCmpBallot, 2)) return E;
    Inst &X = FC.code.back();
    X.vk = uint8_t(*K); X.vk2 = uint8_t(*K2); X.kind = uint16_t(P->getZExtValue());
    return Error::success();
  }
  case Intrinsic::amdgcn_readlane: return perLeaf(SOp::ReadLane, 2, {0});
  case Intrinsic::amdgcn_readfirstlane: return perLeaf(SOp::ReadFirstLane, 1, {0});
  case Intrinsic::amdgcn_writelane: return perLeaf(SOp::WriteLane, 3, {0, 2});
  case Intrinsic::amdgcn_permlane64: return perLeaf(SOp::Permlane64, 1, {0});
  case Intrinsic::amdgcn_permlane16: case Intrinsic::amdgcn_permlanex16: {
    // (old, src0, src1, src2, fi, bound_ctrl); 32-bit values only
    auto N = count(CB.getType());
    if (!N) return fail(toString(N.takeError()));
    if (*N != 1 || DL.getTypeSizeInBits(CB.getType()) != 32) return fail("permlane16 of a non-32-bit value");
    auto *FI = dyn_cast<ConstantInt>(CB.getArgOperand(4));
    if (!FI) return fail("non-constant fetch-inactive operand");
    if (Error E = special(SOp::Permlane16, 0)) return E;
    Inst &X = FC.code.back();
    auto V = op(CB.getArgOperand(1)), S1 = op(CB.getArgOperand(2)), S2 = op(CB.getArgOperand(3));
    if (!V) return V.takeError();
    if (!S1) return S1.takeError();
    if (!S2) return S2.takeError();
    X.a = *V; X.b = *S1; X.c = *S2;
    X.kind = ID == Intrinsic::amdgcn_permlanex16;
    X.aux = unsigned(FI->getZExtValue());
    return Error::success();
  }
  case Intrinsic::amdgcn_ds_swizzle: {
    auto *Off = dyn_cast<ConstantInt>(CB.getArgOperand(1));
    if (!Off) return fail("non-constant ds.swizzle offset");
    uint64_t O = Off->getZExtValue();
    if (O > 0xffff || ((O & 0x8000) && (O & 0x7f00)))
      return fail("ds.swizzle offset 0x" + utohexstr(O) + " (FFT/rotate or reserved encodings are not supported)");
    if (Error E = special(SOp::DsSwizzle, 1)) return E;
    FC.code.back().kind = uint16_t(O);
    return Error::success();
  }
  case Intrinsic::amdgcn_mbcnt_lo: return special(SOp::MbcntLo, 2);
  case Intrinsic::amdgcn_mbcnt_hi: return special(SOp::MbcntHi, 2);
  case Intrinsic::amdgcn_ds_bpermute:
  case Intrinsic::amdgcn_ds_permute: {
    // gfx10+ runs a wave64 ds_(b)permute as two 32-lane halves: aux = 1
    // makes the op select lanes within the half (in wave64 only).
    if (Error E = special(ID == Intrinsic::amdgcn_ds_bpermute ? SOp::DsBpermute : SOp::DsPermute, 2)) return E;
    FC.code.back().aux = isGfx10Plus(F) ? 1 : 0;
    return Error::success();
  }
  default:
    break;
  }
  if (auto *CFP = dyn_cast<ConstrainedFPIntrinsic>(&CB)) {
    auto RM = CFP->getRoundingMode();
    unsigned Mode = 0;
    if (RM) {
      switch (*RM) {
      case RoundingMode::NearestTiesToEven: case RoundingMode::Dynamic: Mode = 0; break;
      case RoundingMode::TowardZero: Mode = 1; break;
      case RoundingMode::TowardPositive: Mode = 2; break;
      case RoundingMode::TowardNegative: Mode = 3; break;
      default: return fail("unsupported rounding mode in '" + Name + "'");
      }
    }
    auto LD = leavesOf(CB.getType());
    if (!LD) return fail(toString(LD.takeError()));
    auto LS = leavesOf(CB.getArgOperand(0)->getType());
    if (!LS) return fail(toString(LS.takeError()));
    unsigned NOps = CFP->getNonMetadataArgCount();
    for (unsigned i = 0; i < LD->size(); ++i) {
      Handler H = nullptr;
      VK K = (*LS)[i].kind;
      switch (ID) {
      case Intrinsic::experimental_constrained_fadd: H = ops::constrainedBin(Instruction::FAdd, K); break;
      case Intrinsic::experimental_constrained_fsub: H = ops::constrainedBin(Instruction::FSub, K); break;
      case Intrinsic::experimental_constrained_fmul: H = ops::constrainedBin(Instruction::FMul, K); break;
      case Intrinsic::experimental_constrained_fdiv: H = ops::constrainedBin(Instruction::FDiv, K); break;
      case Intrinsic::experimental_constrained_frem: H = ops::constrainedBin(Instruction::FRem, K); break;
      case Intrinsic::experimental_constrained_fma: case Intrinsic::experimental_constrained_fmuladd: H = ops::constrainedFma(K); break;
      case Intrinsic::experimental_constrained_sqrt: H = ops::constrainedUnary(LOp::Sqrt, K); break;
      case Intrinsic::experimental_constrained_rint: case Intrinsic::experimental_constrained_nearbyint: H = ops::constrainedUnary(LOp::Rint, K); break;
      case Intrinsic::experimental_constrained_floor: H = ops::laneOp(LOp::Floor, K); break;
      case Intrinsic::experimental_constrained_ceil: H = ops::laneOp(LOp::Ceil, K); break;
      case Intrinsic::experimental_constrained_trunc: H = ops::laneOp(LOp::Trunc, K); break;
      case Intrinsic::experimental_constrained_round: H = ops::laneOp(LOp::Round, K); break;
      case Intrinsic::experimental_constrained_roundeven: H = ops::laneOp(LOp::RoundEven, K); break;
      case Intrinsic::experimental_constrained_maxnum: H = ops::laneOp(LOp::Maxnum, K); break;
      case Intrinsic::experimental_constrained_minnum: H = ops::laneOp(LOp::Minnum, K); break;
      case Intrinsic::experimental_constrained_maximum: H = ops::laneOp(LOp::Maximum, K); break;
      case Intrinsic::experimental_constrained_minimum: H = ops::laneOp(LOp::Minimum, K); break;
      case Intrinsic::experimental_constrained_ldexp: H = ops::laneOp(LOp::Ldexp, K); break;
      case Intrinsic::experimental_constrained_fptrunc: H = ops::constrainedCast(Instruction::FPTrunc, K, (*LD)[i].kind); break;
      case Intrinsic::experimental_constrained_fpext: H = ops::cast(Instruction::FPExt, K, (*LD)[i].kind); break;
      case Intrinsic::experimental_constrained_sitofp: H = ops::constrainedCast(Instruction::SIToFP, K, (*LD)[i].kind); break;
      case Intrinsic::experimental_constrained_uitofp: H = ops::constrainedCast(Instruction::UIToFP, K, (*LD)[i].kind); break;
      case Intrinsic::experimental_constrained_fptosi: H = ops::cast(Instruction::FPToSI, K, (*LD)[i].kind); break;
      case Intrinsic::experimental_constrained_fptoui: H = ops::cast(Instruction::FPToUI, K, (*LD)[i].kind); break;
      case Intrinsic::experimental_constrained_fcmp: case Intrinsic::experimental_constrained_fcmps:
        H = ops::fcmp(cast<ConstrainedFPCmpIntrinsic>(CB).getPredicate(), K);
        break;
      default: break;
      }
      if (!H) return fail("unsupported constrained intrinsic '" + Name + "'");
      int32_t Ops_[3] = {0, 0, 0};
      for (unsigned o = 0; o < NOps && o < 3; ++o) {
        Value *V = CB.getArgOperand(o);
        auto S = op(V, V->getType()->isVectorTy() ? i : 0);
        if (!S) return S.takeError();
        Ops_[o] = *S;
      }
      Inst &X = emit(H);
      X.dst = Base[&CB] + int32_t(i); X.a = Ops_[0]; X.b = Ops_[1]; X.c = Ops_[2]; X.kind = uint16_t(Mode);
    }
    return Error::success();
  }
  return fail("unknown intrinsic '" + Name + "'");
}

Error ModuleTranslator::run() {
  llvm::Module &M = *Img.M;
  if (!StringRef(M.getTargetTriple().str()).starts_with("amdgcn"))
    return err(nullptr, "module triple '" + M.getTargetTriple().str() + "' is not amdgcn-amd-amdhsa");
  // LDS layout
  uint32_t Cur = 0;
  std::vector<GlobalVariable *> Dyn;
  for (GlobalVariable &GV : M.globals()) {
    if (GV.getAddressSpace() != AMDGPUAS::LOCAL_ADDRESS) continue;
    uint64_t Sz = DL.getTypeAllocSize(GV.getValueType());
    uint32_t Al = uint32_t(GV.getAlign().valueOrOne().value());
    Al = std::max(Al, uint32_t(DL.getABITypeAlign(GV.getValueType()).value()));
    if (GV.isDeclaration() || Sz == 0) {
      Dyn.push_back(&GV);
      Img.dynLdsAlign = std::max(Img.dynLdsAlign, Al);
      continue;
    }
    Cur = (Cur + Al - 1) & ~(Al - 1);
    Img.ldsOffset[&GV] = Cur;
    Cur += uint32_t(Sz);
  }
  Img.staticLds = Cur;
  uint32_t DynOff = (Cur + Img.dynLdsAlign - 1) & ~(Img.dynLdsAlign - 1);
  for (GlobalVariable *GV : Dyn) Img.ldsOffset[GV] = DynOff;
  // other globals in device memory
  for (GlobalVariable &GV : M.globals()) {
    if (GV.getAddressSpace() == AMDGPUAS::LOCAL_ADDRESS) continue;
    unsigned A = GV.getAddressSpace();
    if (A != 0 && A != 1 && A != 4)
      return err(nullptr, "global '" + GV.getName().str() + "' in unsupported address space " + std::to_string(A));
    if (GV.isDeclaration()) {
      if (GV.use_empty()) continue;
      return err(nullptr, "external global '" + GV.getName().str() + "' is not defined in the module");
    }
    uint64_t Sz = std::max<uint64_t>(1, DL.getTypeAllocSize(GV.getValueType()));
    uint64_t Al = std::max<uint64_t>(16, GV.getAlign().valueOrOne().value());
    auto Addr = Ar.alloc(Sz, Al);
    if (!Addr) return Addr.takeError();
    Img.allocations.push_back(*Addr);
    Img.globalAddr[&GV] = *Addr;
  }
  // function addresses
  uint64_t FA = CodeBase;
  for (Function &F : M) {
    if (F.isDeclaration()) continue;
    auto FC = std::make_unique<FuncCode>();
    FC->address = FA;
    FA += 16;
    Img.byFunc[&F] = FC.get();
    Img.byAddress[FC->address] = FC.get();
    Img.funcs.push_back(std::move(FC));
  }
  for (GlobalVariable &GV : M.globals()) {
    if (GV.getAddressSpace() == AMDGPUAS::LOCAL_ADDRESS || GV.isDeclaration()) continue;
    if (!GV.hasInitializer()) continue;
    if (Error E = writeInit(GV.getInitializer(), Ar.host(Img.globalAddr[&GV])))
      return err(nullptr, "initialiser of '" + GV.getName().str() + "': " + toString(std::move(E)));
  }
  for (Function &F : M) {
    if (F.isDeclaration()) continue;
    FnTranslator T(*this, F, *Img.byFunc[&F]);
    if (Error E = T.run()) return E;
  }
  return Error::success();
}

} // namespace

Error translateModule(ModuleImage &Img, Arena &A) {
  ModuleTranslator MT(Img, A);
  return MT.run();
}

} // namespace emu::detail
