//===- Globals.cpp - PTX variables -> LLVM globals with initializers ------===//
//
// Module-scope .global/.const/.shared variables (and function-scope .shared
// and .const ones, which PTX allows inside bodies) become LLVM globals in the
// AMDGPU address space of their state space: global 1, shared 3, const 4.
// Arrays are flattened to one LLVM array of the element type (the byte layout
// is the same as PTX's row-major layout). Initializers may be nested lists,
// numbers, and addresses of variables or functions (`sym`, `sym+off`,
// `generic(sym)`), which become ptrtoint constant expressions. `.extern
// .shared` unsized arrays are dynamic shared memory: an external
// `[0 x i8]` addrspace(3) global. Declarations happen before initializers so
// that initializers can refer to any variable or function of the module.
// No variable is an LLVM `constant`: the host may rewrite `.const` data.
//
//===----------------------------------------------------------------------===//
#include "Translator.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/IR/Constants.h"

using namespace llvm;

namespace ptx2llvm {

static Type *elementType(LLVMContext &c, ptx::Type t) {
  switch (t) {
  case ptx::Type::F32: return Type::getFloatTy(c);
  case ptx::Type::F64: return Type::getDoubleTy(c);
  case ptx::Type::Pred: return Type::getInt8Ty(c);
  default: return IntegerType::get(c, std::max(8u, ptx::typeBits(t)));
  }
}

static uint64_t elementCount(const ptx::Variable &v) {
  uint64_t n = v.vecWidth ? v.vecWidth : 1;
  for (uint64_t d : v.dims) n *= d;
  return n;
}

llvm::Type *variableType(ModuleCtx &mc, const ptx::Variable &v) {
  Type *elt = elementType(mc.ctx, v.type);
  bool unsized = false;
  for (uint64_t d : v.dims) if (d == 0) unsized = true;
  if (unsized) return ArrayType::get(elt, 0);
  if (v.dims.empty() && !v.vecWidth) return elt;
  return ArrayType::get(elt, elementCount(v));
}

static GlobalValue::LinkageTypes linkageOf(const ptx::Variable &v) {
  switch (v.linkage) {
  case ptx::Linkage::Visible: case ptx::Linkage::Extern: return GlobalValue::ExternalLinkage;
  case ptx::Linkage::Weak: return GlobalValue::WeakAnyLinkage;
  case ptx::Linkage::Common: return GlobalValue::CommonLinkage;
  default: return GlobalValue::InternalLinkage;
  }
}

GlobalVariable *makeVariable(ModuleCtx &mc, const ptx::Variable &v, bool functionScope,
                             const std::string &fnName) {
  unsigned as = spaceAS(v.space);
  Type *ty = variableType(mc, v);
  std::string name = functionScope ? fnName + "." + v.name : v.name;
  auto linkage = functionScope ? GlobalValue::InternalLinkage : linkageOf(v);
  bool isDecl = v.linkage == ptx::Linkage::Extern;
  if (v.space == ptx::Space::Shared && isDecl) {
    // `.extern .shared` (dynamic shared memory): external [0 x i8].
    ty = ArrayType::get(Type::getInt8Ty(mc.ctx), 0);
  }
  // `.const` is read-only for kernels but the host may write it between
  // launches (cuModuleGetGlobal / cudaMemcpyToSymbol), so it is never an LLVM
  // `constant` (whose initializer would be folded into every load). Loads
  // from addrspace(4) stay invariant within a kernel; an internal variable
  // that nothing stores to is still folded by GlobalOpt, which is why the
  // runtime shim gives host-registered variables external linkage.
  auto *gv = new GlobalVariable(mc.m, ty, /*constant*/ false, linkage,
                                nullptr, name, nullptr, GlobalValue::NotThreadLocal, as);
  uint32_t align = v.align ? v.align : std::max(1u, ptx::typeBits(v.type) / 8);
  // Internal .shared arrays whose size is a multiple of 16 bytes get 16-byte
  // alignment (as clang gives HIP __shared__ arrays): tiles can then use
  // 128-bit LDS accesses, and the LDS layout (sorted by alignment) gains no
  // padding. Raising the alignment of an internal variable is invisible to PTX.
  if (v.space == ptx::Space::Shared && !isDecl && linkage == GlobalValue::InternalLinkage &&
      ty->isSized()) {
    uint64_t bytes = mc.m.getDataLayout().getTypeAllocSize(ty);
    if (bytes >= 16 && bytes % 16 == 0) align = std::max(align, 16u);
  }
  gv->setAlignment(Align(align));
  if (v.space == ptx::Space::Shared) {
    // LDS cannot be statically initialised on AMDGPU; PTX shared memory is
    // uninitialised too (initializers on .shared are not allowed).
    if (!isDecl) gv->setInitializer(UndefValue::get(ty));
  } else if (!isDecl && linkage != GlobalValue::CommonLinkage) {
    gv->setInitializer(Constant::getNullValue(ty));
  } else if (linkage == GlobalValue::CommonLinkage) {
    gv->setInitializer(Constant::getNullValue(ty));
  }
  return gv;
}

void declareGlobals(ModuleCtx &mc) {
  for (const auto &v : mc.pm.globals) {
    if (v.type == ptx::Type::TexRef || v.type == ptx::Type::SamplerRef ||
        v.type == ptx::Type::SurfRef || v.space == ptx::Space::Tex) {
      mc.unsupported(v.loc, "texture/surface/sampler reference", "unsupported variable '" + v.name + "': texture/surface/sampler references");
      continue;
    }
    if (v.space != ptx::Space::Global && v.space != ptx::Space::Const &&
        v.space != ptx::Space::Shared) {
      mc.unsupported(v.loc, "." + std::string(ptx::spaceName(v.space)) + " variable",
                     "unsupported variable '" + v.name + "' in state space ." +
                         std::string(ptx::spaceName(v.space)));
      continue;
    }
    mc.globals[v.name] = makeVariable(mc, v, false, {});
  }
}

namespace {
struct InitBuilder {
  ModuleCtx &mc;
  Type *elt;
  std::vector<Constant *> out;
  bool ok = true;

  Constant *symbolAddr(const ptx::InitExpr &e, bool generic) {
    Constant *base = nullptr;
    auto g = mc.globals.find(e.name);
    if (g != mc.globals.end()) base = g->second;
    else if (Function *f = mc.m.getFunction(e.name)) base = f;
    if (!base) {
      mc.error(e.loc, "unknown symbol '" + e.name + "' in initializer");
      ok = false;
      return Constant::getNullValue(elt);
    }
    unsigned as = base->getType()->getPointerAddressSpace();
    if (generic && as != FlatAS) base = ConstantExpr::getAddrSpaceCast(base, PointerType::get(mc.ctx, FlatAS));
    if (e.offset)
      base = ConstantExpr::getGetElementPtr(Type::getInt8Ty(mc.ctx), base,
                                            ConstantInt::get(Type::getInt64Ty(mc.ctx), e.offset));
    unsigned bits = elt->getPrimitiveSizeInBits();
    if (!elt->isIntegerTy() || bits < 32) {
      mc.error(e.loc, "address of '" + e.name + "' in an initializer of a narrow or float element");
      ok = false;
      return Constant::getNullValue(elt);
    }
    unsigned pbits = (as == SharedAS || as == PrivateAS) && !generic ? 32 : 64;
    Constant *iv = ConstantExpr::getPtrToInt(base, IntegerType::get(mc.ctx, pbits));
    if (pbits == bits) return iv;
    if (pbits > bits) return ConstantExpr::getTrunc(iv, elt);
    // zext is not a constant expression any more: emit as a 64-bit integer only.
    mc.error(e.loc, "32-bit address of '" + e.name + "' in a 64-bit initializer element");
    ok = false;
    return Constant::getNullValue(elt);
  }

  void add(const ptx::InitExpr &e) {
    switch (e.kind) {
    case ptx::InitExpr::Kind::List:
      for (const auto &x : e.elems) add(x);
      return;
    case ptx::InitExpr::Kind::Int:
      if (elt->isFloatingPointTy()) out.push_back(ConstantFP::get(elt, (double)e.value));
      else out.push_back(ConstantInt::get(elt, (uint64_t)e.value, true));
      return;
    case ptx::InitExpr::Kind::Float: {
      APFloat v = e.fbits == 64 ? APFloat(APFloat::IEEEdouble(), APInt(64, (uint64_t)e.value))
                                : APFloat(APFloat::IEEEsingle(), APInt(32, (uint64_t)e.value));
      if (elt->isFloatingPointTy()) {
        bool lost;
        v.convert(elt->getFltSemantics(), APFloat::rmNearestTiesToEven, &lost);
        out.push_back(ConstantFP::get(mc.ctx, v));
      } else {
        out.push_back(ConstantInt::get(elt, v.bitcastToAPInt().zextOrTrunc(elt->getPrimitiveSizeInBits())));
      }
      return;
    }
    case ptx::InitExpr::Kind::Sym: out.push_back(symbolAddr(e, false)); return;
    case ptx::InitExpr::Kind::GenericSym: out.push_back(symbolAddr(e, true)); return;
    }
  }
};
} // namespace

// The array constant for elements `init` followed by zeros. Plain numbers
// become one packed ConstantDataArray (n x element bytes of memory, however
// long the zero tail); a per-element ConstantArray costs ~12 bytes per
// element more and is only needed when an element is an address expression.
static Constant *arrayInitializer(ArrayType *aty, const std::vector<Constant *> &init) {
  Type *elt = aty->getElementType();
  uint64_t n = aty->getNumElements();
  bool packed = ConstantDataSequential::isElementTypeCompatible(elt);
  for (Constant *c : init) packed &= isa<ConstantInt>(c) || isa<ConstantFP>(c);
  if (!packed) {
    std::vector<Constant *> all(init);
    all.resize(n, Constant::getNullValue(elt));
    return ConstantArray::get(aty, all);
  }
  uint64_t eb = elt->getPrimitiveSizeInBits() / 8;
  std::string raw(n * eb, '\0');
  for (size_t i = 0; i < init.size(); ++i) {
    APInt bits = isa<ConstantInt>(init[i]) ? cast<ConstantInt>(init[i])->getValue()
                                           : cast<ConstantFP>(init[i])->getValueAPF().bitcastToAPInt();
    for (uint64_t k = 0; k < eb; ++k) raw[i * eb + k] = char(bits.extractBitsAsZExtValue(8, unsigned(k * 8)));
  }
  return ConstantDataArray::getRaw(raw, n, elt);
}

void initializeVariable(ModuleCtx &mc, const ptx::Variable &v, GlobalVariable *gv) {
  if (!v.init || v.space == ptx::Space::Shared) return;
  Type *ty = gv->getValueType();
  Type *elt = ty->isArrayTy() ? ty->getArrayElementType() : ty;
  InitBuilder ib{mc, elt, {}};
  ib.add(*v.init);
  if (!ib.ok) return;
  if (!ty->isArrayTy()) {
    if (!ib.out.empty()) gv->setInitializer(ib.out[0]);
    return;
  }
  uint64_t n = ty->getArrayNumElements();
  if (n == 0) { // `x[] = {...}`: size from the initializer
    auto *aty = ArrayType::get(elt, ib.out.size());
    auto *ngv = new GlobalVariable(mc.m, aty, gv->isConstant(), gv->getLinkage(), nullptr, "",
                                   nullptr, GlobalValue::NotThreadLocal, gv->getAddressSpace());
    ngv->takeName(gv);
    ngv->setAlignment(gv->getAlign());
    gv->replaceAllUsesWith(ngv);
    gv->eraseFromParent();
    mc.globals[v.name] = ngv;
    gv = ngv;
    n = ib.out.size();
  }
  if (ib.out.size() > n) {
    mc.error(v.loc, "initializer of '" + v.name + "' has more elements than the variable");
    return;
  }
  gv->setInitializer(arrayInitializer(cast<ArrayType>(gv->getValueType()), ib.out));
}

void defineGlobalInitializers(ModuleCtx &mc) {
  for (const auto &v : mc.pm.globals) {
    auto it = mc.globals.find(v.name);
    if (it == mc.globals.end()) continue;
    initializeVariable(mc, v, it->second);
  }
}

} // namespace ptx2llvm
