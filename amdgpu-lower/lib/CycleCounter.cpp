//===- CycleCounter.cpp - a monotonic 64-bit %clock64 on gfx11 ------------===//
//
// The device library reads %clock/%clock_hi/%clock64 with llvm.readcyclecounter,
// which LLVM selects to s_memtime (gfx9, gfx10: 64 bits), to the SHADER_CYCLES_HI/LO
// pair (gfx12: 64 bits) -- and on gfx11 to `s_getreg_b32 SHADER_CYCLES`, a 20-bit
// counter that wraps about every 10^6 cycles, so clock64() differences go negative.
// CUDA's clock64 is monotonic and 64-bit (timeouts and elapsed-time code rely on it),
// so on gfx11 targets the calls are replaced by the 64-bit REALTIME counter
// (`s_sendmsg_rtn_b64 MSG_RTN_GET_REALTIME` = llvm.amdgcn.s.sendmsg.rtn.i64(131);
// llvm.amdgcn.s.memrealtime does not select there). It ticks at the constant
// 100 MHz of %globaltimer rather than the shader clock: monotonic, coarser.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"
#include "support/Contract.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"

namespace amdgpulower {

static bool isGfx11(std::string_view arch) { return support::gfxMajorOf(arch) == 11; }

void useMonotonicCycleCounter(llvm::Module &m, std::string_view arch) {
  if (!isGfx11(arch)) return;
  llvm::Function *rcc = m.getFunction("llvm.readcyclecounter");
  if (!rcc) return;
  llvm::SmallVector<llvm::CallInst *, 8> calls;
  for (llvm::User *u : rcc->users())
    if (auto *ci = llvm::dyn_cast<llvm::CallInst>(u)) calls.push_back(ci);
  for (llvm::CallInst *ci : calls) {
    llvm::IRBuilder<> b(ci);
    constexpr unsigned kMsgRtnGetRealtime = 0x83;
    llvm::Value *t = b.CreateIntrinsic(llvm::Intrinsic::amdgcn_s_sendmsg_rtn, {b.getInt64Ty()},
                                       {b.getInt32(kMsgRtnGetRealtime)});
    ci->replaceAllUsesWith(t);
    ci->eraseFromParent();
  }
}

} // namespace amdgpulower
