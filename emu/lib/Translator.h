//===- Translator.h - the LLVM IR -> emulator program translator -*- C++ -*-===//
//
// The two translators of Translate.cpp, shared by the files that implement
// them: ModuleTranslator (types to slot kinds, constants, global layout) and
// FnTranslator (one function's instructions to pre-decoded emulator
// instructions). translate() dispatches by instruction family
// (Translate.cpp); intrinsics are decoded in TranslateIntrinsic.cpp from the
// rows of Intrinsics.def. Private to emu/lib.
//
//===----------------------------------------------------------------------===//
#pragma once

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

#include <initializer_list>

namespace emu::detail {
using namespace llvm; // emu/lib's convention (every .cpp has it); this header is private to emu/lib

/// True for RDNA targets (gfx10xx, gfx11xx, gfx12xx) by "target-cpu".
/// A function without the attribute takes the module's (first one found).
bool isGfx10Plus(const Function &F);


struct Leaf {
  VK kind;
  uint64_t offset;
  uint8_t bits = 0; // integer width when it is not the kind's (odd widths, OddInts.cpp); else 0
  unsigned width() const { return bits ? bits : vkBits(kind); }
};

/// Integer widths other than 1/8/16/32/64 (and <= 64): kept in the container
/// kind's slot, zero-extended (OddInts.cpp).
inline unsigned oddBits(Type *T) {
  auto *IT = dyn_cast<IntegerType>(T->getScalarType());
  if (!IT) return 0;
  unsigned N = IT->getBitWidth();
  return (N == 1 || N == 8 || N == 16 || N == 32 || N >= 64) ? 0 : N;
}

inline std::string str(const Value &V) {
  std::string S;
  raw_string_ostream OS(S);
  V.print(OS);
  return S;
}

inline Error err(const Function *F, const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(),
                           "emu: " + (F ? "function '" + F->getName().str() + "': " : std::string()) + Msg.str());
}

inline Expected<AS> asClass(unsigned A) {
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
  // translate() by instruction family (Translate.cpp)
  Error translateArith(Instruction &I);     // binary ops, casts, fneg, compares, select, freeze
  Error translateMemory(Instruction &I);    // GEP, load, store, atomics, fence, alloca
  Error translateAggregate(Instruction &I); // vector and aggregate element access, shuffles
  Error translateControl(Instruction &I);   // br, switch, ret, unreachable
  // translateIntrinsic's decoders (TranslateIntrinsic.cpp; rows in Intrinsics.def)
  Error emitState(CallBase &CB, SOp S, unsigned NOps = 0);
  Error emitStatePerLeaf(CallBase &CB, SOp S, unsigned NOps, std::initializer_list<unsigned> LeafOps);
  Error moveArg0(CallBase &CB);
  Error translateInvariantStart(CallBase &CB, Intrinsic::ID ID);
  Error translateMemTransfer(CallBase &CB, Intrinsic::ID ID);
  Error translateSaturatingCast(CallBase &CB, Intrinsic::ID ID);
  Error translateReduction(CallBase &CB, Intrinsic::ID ID);
  Error translateSendMsgRtn(CallBase &CB, Intrinsic::ID ID);
  Error translateGetReg(CallBase &CB, Intrinsic::ID ID);
  Error translateBallot(CallBase &CB, Intrinsic::ID ID);
  Error translateCmpBallot(CallBase &CB, Intrinsic::ID ID);
  Error translateCrossLane(CallBase &CB, Intrinsic::ID ID);
  Error translatePermlane16(CallBase &CB, Intrinsic::ID ID);
  Error translateDsSwizzle(CallBase &CB, Intrinsic::ID ID);
  Error translateDsPermute(CallBase &CB, Intrinsic::ID ID);
  Error translateConstrained(CallBase &CB, Intrinsic::ID ID);
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

} // namespace emu::detail
