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
#include "Translator.h"

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

bool isGfx10Plus(const Function &F) {
  StringRef CPU = F.getFnAttribute("target-cpu").getValueAsString();
  if (CPU.empty() && F.getParent())
    for (const Function &G : *F.getParent())
      if (G.hasFnAttribute("target-cpu")) {
        CPU = G.getFnAttribute("target-cpu").getValueAsString();
        break;
      }
  return ::support::gfxMajorOf(CPU) >= 10;
}

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
  switch (Opc) {
  case Instruction::FNeg: case Instruction::ICmp: case Instruction::FCmp: case Instruction::Select:
  case Instruction::Freeze:
    return translateArith(I);
  case Instruction::GetElementPtr: case Instruction::Load: case Instruction::Store: case Instruction::AtomicRMW:
  case Instruction::AtomicCmpXchg: case Instruction::Fence: case Instruction::Alloca:
    return translateMemory(I);
  case Instruction::ExtractElement: case Instruction::InsertElement: case Instruction::ShuffleVector:
  case Instruction::ExtractValue: case Instruction::InsertValue:
    return translateAggregate(I);
  case Instruction::Br: case Instruction::Switch: case Instruction::Ret: case Instruction::Unreachable:
    return translateControl(I);
  case Instruction::Call:
    return translateCall(cast<CallBase>(I));
  default:
    if (I.isBinaryOp() || I.isCast()) return translateArith(I);
    break;
  }
  return fail("unsupported instruction '" + std::string(I.getOpcodeName()) + "'");
}

// Binary operators, casts (incl. vector bitcasts that repack), fneg, compares, select, freeze.
Error FnTranslator::translateArith(Instruction &I) {
  unsigned Opc = I.getOpcode();
  auto Dst = [&]() { return Base[&I]; };
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
  default:
    break;
  }
  return fail("unsupported instruction '" + std::string(I.getOpcodeName()) + "'");
}

// Address arithmetic, loads, stores, atomics, fences and private allocations.
Error FnTranslator::translateMemory(Instruction &I) {
  unsigned Opc = I.getOpcode();
  auto Dst = [&]() { return Base[&I]; };
  switch (Opc) {
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
  default:
    break;
  }
  return fail("unsupported instruction '" + std::string(I.getOpcodeName()) + "'");
}

// Element access and shuffles of vectors, and of structs / arrays held in slots.
Error FnTranslator::translateAggregate(Instruction &I) {
  unsigned Opc = I.getOpcode();
  auto Dst = [&]() { return Base[&I]; };
  switch (Opc) {
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
  default:
    break;
  }
  return fail("unsupported instruction '" + std::string(I.getOpcodeName()) + "'");
}

// Branches (with their phi copies on the edges), switch, return, unreachable.
Error FnTranslator::translateControl(Instruction &I) {
  unsigned Opc = I.getOpcode();
  switch (Opc) {
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

Error translateModule(ModuleImage &Img, Arena &A) {
  ModuleTranslator MT(Img, A);
  return MT.run();
}

} // namespace emu::detail
