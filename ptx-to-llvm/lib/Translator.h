//===- Translator.h - shared state of the PTX -> LLVM translation -*- C++ -*-===//
//
// Internal interface between the translation driver (Translate.cpp,
// Function.cpp, Globals.cpp) and the per-family instruction translators
// (IntArith.cpp, FloatArith.cpp, ...). A ModuleCtx holds module-wide state
// (symbol table of globals/functions, devlib declarations, the error list);
// a FnCtx holds one function's state: every PTX register is an alloca in the
// entry block (mem2reg in amdgpu-lower turns them into SSA values), labels are
// basic blocks, the carry flag of add.cc/addc is an i1 alloca, and nested
// `{ }` scopes map .param/.local names to their storage.
//
// Family translators have the signature `bool translateX(FnCtx&, const
// ptx::Instruction&)`: they return false after reporting an error through
// FnCtx::unsupported/error (the driver then continues with the next
// instruction, so all errors of a module are collected).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ptx/IR.h"
#include "ptx2llvm/Translate.h"
#include "support/Contract.h"
#include "support/Error.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/AMDGPUAddrSpace.h"

#include <map>
#include <string>
#include <vector>

namespace ptx2llvm {

// AMDGPU address spaces (docs/pipeline.md), LLVM's own numbering.
enum AS : unsigned {
  FlatAS = llvm::AMDGPUAS::FLAT_ADDRESS,
  GlobalAS = llvm::AMDGPUAS::GLOBAL_ADDRESS,
  SharedAS = llvm::AMDGPUAS::LOCAL_ADDRESS,
  ConstAS = llvm::AMDGPUAS::CONSTANT_ADDRESS,
  PrivateAS = llvm::AMDGPUAS::PRIVATE_ADDRESS
};

struct ModuleCtx {
  const ptx::Module &pm;
  llvm::LLVMContext &ctx;
  llvm::Module &m;
  std::string file;
  // Every problem of the module, in order; translate() turns them into one
  // llvm::Error (an ErrorList of support:: typed errors).
  struct Problem {
    support::Diagnostic diag; // file:line:col, message (with "(in function 'f')")
    std::string construct;    // non-empty: an unsupported construct (UnsupportedError)
    std::string function;     // enclosing function, if any
  };
  std::vector<Problem> errors;
  llvm::StringMap<llvm::GlobalVariable *> globals;   // module-scope PTX variables
  llvm::StringMap<llvm::Function *> functions;       // PTX .func/.entry
  llvm::StringMap<const ptx::Function *> ptxFunctions;
  // .func names that may execute `exit` (directly or through direct calls):
  // they take a trailing `ptr addrspace(5)` exit flag (Control.cpp).
  llvm::StringSet<> exitingFunctions;

  ModuleCtx(const ptx::Module &pm, llvm::LLVMContext &ctx, llvm::Module &m, std::string file)
      : pm(pm), ctx(ctx), m(m), file(std::move(file)) {}

  // Malformed or inconsistent input (support::InvalidInputError).
  void error(ptx::SourceLoc loc, const std::string &msg, const std::string &fn = {});
  // A construct ptx-to-llvm does not implement (support::UnsupportedError).
  void unsupported(ptx::SourceLoc loc, const std::string &construct, const std::string &msg,
                   const std::string &fn = {});
  // Declare (once) a device-library function `name` of the given type.
  llvm::Function *devlib(llvm::StringRef name, llvm::Type *ret, llvm::ArrayRef<llvm::Type *> params,
                         bool convergent = false, bool noreturn = false);
};

// One PTX scope level (a `{ }` block or the function body).
struct Scope {
  std::map<std::string, llvm::Value *> vars; // name -> pointer to storage
  std::map<std::string, const ptx::Variable *> decls;
};

struct FnCtx {
  ModuleCtx &mc;
  const ptx::Function &pf;
  llvm::Function *f = nullptr;
  llvm::IRBuilder<> b;
  llvm::BasicBlock *entry = nullptr;
  std::vector<llvm::AllocaInst *> regs; // by RegId
  llvm::AllocaInst *carry = nullptr;    // CC.CF
  std::map<std::string, llvm::BasicBlock *> labels;
  std::vector<Scope> scopes;
  llvm::AllocaInst *retSlot = nullptr;  // .func results, as one byte buffer per result
  std::vector<llvm::Value *> resultSlots;
  llvm::Value *exitFlag = nullptr;      // i1 in addrspace(5): the thread executed `exit` in a .func
  bool hadError = false;

  FnCtx(ModuleCtx &mc, const ptx::Function &pf) : mc(mc), pf(pf), b(mc.ctx) {}

  // Diagnostics.
  bool unsupported(const ptx::Instruction &in, const std::string &why = {});
  bool unsupportedAt(ptx::SourceLoc loc, const std::string &construct, const std::string &msg);
  bool error(ptx::SourceLoc loc, const std::string &msg);

  // Types.
  llvm::Type *llvmType(ptx::Type t);           // f32->float, f16->half, bf16->bfloat, ints->iN, pred->i1
  llvm::IntegerType *intTy(unsigned bits) { return llvm::IntegerType::get(mc.ctx, bits); }
  llvm::Type *storageType(const ptx::Register &r);

  // Convert between same-size or differently sized scalars by bit pattern
  // (bitcast / trunc / zext or sext when `sext`).
  llvm::Value *coerce(llvm::Value *v, llvm::Type *to, bool sext = false);

  // Operands. read() gives the operand as PTX type `t` (register of another
  // size is truncated / extended per PTX operand-size rules).
  llvm::Value *read(const ptx::Operand &op, ptx::Type t);
  llvm::Value *readPred(const ptx::Operand &op); // i1, honours `!%p`
  void write(const ptx::Operand &op, llvm::Value *v, ptx::Type t);
  void writePred(const ptx::Operand &op, llvm::Value *i1);
  llvm::Value *regSlot(const ptx::Operand &op);

  // Address of a [addr] operand as a pointer in the given state space.
  llvm::Value *address(const ptx::Operand &op, ptx::Space space, ptx::SourceLoc loc);
  // Value of a symbol used as an operand (mov %rd, sym): its address as an
  // integer of `bits` in the symbol's own state space.
  llvm::Value *symbolValue(const std::string &name, int64_t off, unsigned bits, ptx::SourceLoc loc);
  llvm::Value *lookupVar(const std::string &name, const ptx::Variable **decl = nullptr);

  // Devlib helpers.
  llvm::Value *call(llvm::StringRef name, llvm::Type *ret, llvm::ArrayRef<llvm::Value *> args,
                    bool convergent = false);
  llvm::Type *i1() { return b.getInt1Ty(); }
  llvm::Type *i32() { return b.getInt32Ty(); }
  llvm::Type *i64() { return b.getInt64Ty(); }

  // FP helpers shared by the FP families.
  llvm::Value *flushDenorm(llvm::Value *v);      // .ftz: denormal -> signed zero
  llvm::Value *saturate01(llvm::Value *v);       // .sat: clamp [0,1], NaN -> +0
  llvm::Value *canonicalNaN(llvm::Value *v);     // NaN -> NVIDIA's canonical NaN
  // The same for an f32 value whose NaN test instruction selection must not fold away (sqrt):
  // the test is on the result's bits (an integer compare), not an fcmp.
  llvm::Value *canonicalNaNByBits(llvm::Value *v);
  // Round-mode of an instruction: Rn default, or Rz/Rm/Rp (/Rna).
  llvm::RoundingMode rounding(const ptx::Instruction &in, bool integerRounding = false);
  // Directed rounding (.rz/.rm/.rp) of the exact value hi + lo (hi, lo of
  // one FP type, |lo| below half an ulp of hi) to `target` (same type or
  // narrower), exactly, without changing the hardware mode. finiteInputs:
  // the operation's inputs were finite (an infinite hi is then an overflow).
  // dirOverride (i32 -1/0/+1, optional): the side of the true value when the
  // error term itself underflowed (a product below the subnormal range).
  llvm::Value *roundDirected(llvm::Value *hi, llvm::Value *lo, llvm::Type *target,
                             llvm::RoundingMode rm, llvm::Value *finiteInputs,
                             llvm::Value *dirOverride = nullptr);
  // Directed rounding by the hardware: a constrained FP intrinsic
  // (llvm.experimental.constrained.<op>) with the static rounding `rm` and
  // exceptions ignored. amdgpu-lower turns it into one mode-switch island at
  // instruction selection (DirectedRounding.cpp); emu executes it with the
  // host's rounding mode. Only for operations the hardware rounds once in
  // the MODE register's direction: isModeRoundable().
  llvm::Value *modeRounded(llvm::Intrinsic::ID op, llvm::ArrayRef<llvm::Value *> args, llvm::Type *result,
                           llvm::RoundingMode rm);
  // An FP intrinsic call (one place to change if FP calls need attributes).
  llvm::Value *fpIntrinsic(llvm::Intrinsic::ID id, llvm::ArrayRef<llvm::Value *> args);
};

// `d|p` destinations (Pair; also accepted as a 2-element Vec).
inline bool isPairOp(const ptx::Operand &o) {
  return o.kind == ptx::Operand::Kind::Pair || o.kind == ptx::Operand::Kind::Vec;
}

// Directed-rounding helpers (FloatArith.cpp): neighbour of x, directed
// rounding of a true value lying on side `dir` (-1/0/+1) of its nearest q,
// and of an f64 nearest value to f32.
llvm::Value *nextAfter(FnCtx &fc, llvm::Value *x, bool up);
llvm::Value *stepDirected(FnCtx &fc, llvm::Value *q, llvm::Value *dir, llvm::RoundingMode rm);

// .ftz tininess after rounding (FloatArith.cpp): flush a result that is
// exactly the smallest normal when the unbounded-exponent rounding of the
// wide value `wide()` is below it.
llvm::Value *ftzTininess(FnCtx &fc, llvm::Value *r, llvm::RoundingMode rm,
                         llvm::function_ref<llvm::Value *()> wide);

// After all bodies: `exit` in a .func needs every call of it to be direct
// (the caller propagates the exit); an address-taken one is an error.
void checkExitingFunctions(ModuleCtx &mc);

// Modifier test by spelling (for modifiers the front end may add later).
bool hasModNamed(const ptx::Instruction &in, std::string_view name);

// Family entry points (each in its own file).
bool translateIntArith(FnCtx &, const ptx::Instruction &);
bool translateFloatArith(FnCtx &, const ptx::Instruction &);
bool translateHalf(FnCtx &, const ptx::Instruction &);
bool translateConvert(FnCtx &, const ptx::Instruction &);
bool translateCompare(FnCtx &, const ptx::Instruction &);
bool translateLogic(FnCtx &, const ptx::Instruction &);
bool translateMove(FnCtx &, const ptx::Instruction &);
bool translateMemory(FnCtx &, const ptx::Instruction &);
bool translateAtomics(FnCtx &, const ptx::Instruction &);
bool translateControl(FnCtx &, const ptx::Instruction &);
bool translateWarp(FnCtx &, const ptx::Instruction &);
bool translateAsync(FnCtx &, const ptx::Instruction &);
bool translateTexture(FnCtx &, const ptx::Instruction &);
bool translateVideo(FnCtx &, const ptx::Instruction &);
bool translateTensor(FnCtx &, const ptx::Instruction &);
llvm::Value *readSpecialReg(FnCtx &, const ptx::Operand &op);

// Classification used by the dispatcher.
bool isHalfType(ptx::Type t);
std::string instrSpelling(const ptx::Instruction &in); // "add.rn.f32"

// Globals.cpp
void declareGlobals(ModuleCtx &mc);
void defineGlobalInitializers(ModuleCtx &mc);
llvm::GlobalVariable *makeVariable(ModuleCtx &mc, const ptx::Variable &v, bool functionScope,
                                   const std::string &fnName);
llvm::Type *variableType(ModuleCtx &mc, const ptx::Variable &v);
unsigned spaceAS(ptx::Space s);
void initializeVariable(ModuleCtx &mc, const ptx::Variable &v, llvm::GlobalVariable *gv);

// Function.cpp
void declareFunctions(ModuleCtx &mc);
void translateBody(ModuleCtx &mc, const ptx::Function &pf);
llvm::FunctionType *prototypeType(ModuleCtx &mc, const std::vector<ptx::Variable> &results,
                                  const std::vector<ptx::Variable> &params);
llvm::Type *paramType(ModuleCtx &mc, const ptx::Variable &v);

} // namespace ptx2llvm
