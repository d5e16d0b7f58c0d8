//===- Dispatch.cpp - what the HIP runtime and the hardware set up --------===//
//
// The kernarg segment (explicit arguments + hidden arguments by .value_kind,
// as HIP fills them), the hsa_kernel_dispatch_packet_t, and each wave's
// initial state exactly as AMDGPUUsage "Initial Kernel Execution State"
// specifies from the descriptor: user SGPRs in order (private segment
// buffer, dispatch ptr, queue ptr, kernarg segment ptr, dispatch id, flat
// scratch init, private segment size), then the system SGPRs enabled in
// COMPUTE_PGM_RSRC2 (workgroup IDs X/Y/Z, workgroup info, private segment
// wave byte offset) from USER_SGPR_COUNT on; work-item IDs in v0 (packed
// 10:10:10 where the target packs them) or v0/v1/v2; EXEC for the partial
// last wave; MODE from the descriptor's float round/denorm/dx10/ieee bits.
// A grid need not be a multiple of the workgroup size (HSA AQL): the last
// workgroup of such a dimension is partial -- the packet's grid_size and the
// hidden_remainder_* arguments say so, it has only the waves its work-items
// need, and its work-item IDs are laid out over its own (smaller) extent,
// x fastest, as the hardware's partial-workgroup thread counts do.
//
//===----------------------------------------------------------------------===//
#include "Dispatch.h"

using namespace llvm;

namespace isaemu::detail {

namespace {
template <typename T> void put(uint8_t *P, uint64_t Off, T V) { memcpy(P + Off, &V, sizeof(T)); }

// Frees what a layout allocated unless the layout is handed out.
struct AllocationsGuard {
  const DispatchMemory &M;
  DispatchLayout &L;
  bool keep = false;
  ~AllocationsGuard() {
    if (!keep)
      for (uint64_t A : L.allocations) M.release(A);
  }
};

unsigned gridDims(const LaunchConfig &C) {
  if (C.grid.z > 1 || C.block.z > 1) return 3;
  if (C.grid.y > 1 || C.block.y > 1) return 2;
  return 1;
}
} // namespace

Error checkGridItems(const LaunchConfig &C) {
  if (C.gridWorkItems.x == 0 && C.gridWorkItems.y == 0 && C.gridWorkItems.z == 0) return Error::success();
  const uint32_t G[3] = {C.gridWorkItems.x, C.gridWorkItems.y, C.gridWorkItems.z};
  const uint32_t N[3] = {C.grid.x, C.grid.y, C.grid.z}, B[3] = {C.block.x, C.block.y, C.block.z};
  for (int d = 0; d < 3; ++d)
    if (G[d] == 0 || uint64_t(G[d]) > uint64_t(N[d]) * B[d] || uint64_t(G[d]) <= uint64_t(N[d] - 1) * B[d])
      return ::support::resourceLimit(::support::Resource::BlockThreads,
                                    ::support::noLoc("isa-emu: grid of " + std::to_string(G[d]) +
                                                     " work-items in dimension " + std::to_string(d) +
                                                     " does not fit " + std::to_string(N[d]) +
                                                     " work-groups of " + std::to_string(B[d])));
  return Error::success();
}

Expected<DispatchLayout> buildDispatch(LaunchState &LS, const DispatchMemory &M, void **Args,
                                       unsigned Slots) {
  const KernelInfo &K = LS.kernel->info;
  const LaunchConfig &C = LS.cfg;
  DispatchLayout L;
  AllocationsGuard Guard{M, L};
  unsigned W = K.waveSize;
  L.wavesPerGroup = unsigned((C.block.count() + W - 1) / W);
  L.ldsBytes = K.groupSegmentFixedSize + C.dynamicLdsBytes;
  if (L.ldsBytes > 65536)
    return ::support::resourceLimit(::support::Resource::SharedMemory,
                                  ::support::noLoc("isa-emu: LDS of " + std::to_string(L.ldsBytes) + " bytes exceeds 64 KiB"));
  L.privPerLane = K.privateSegmentFixedSize + (K.usesDynamicStack ? C.dynamicPrivateBytes : 0);
  L.privPerLane = (L.privPerLane + 3) & ~3u;

  // Kernarg segment.
  uint64_t KSize = std::max<uint64_t>(K.kernargSegmentSize, 256);
  auto KA = M.alloc(KSize);
  if (!KA) return KA.takeError();
  L.allocations.push_back(*KA);
  uint8_t *KH = M.host(*KA, KSize);
  memset(KH, 0, KSize);
  for (size_t a = 0; a < K.explicitArgs.size(); ++a) {
    const KernelArg &A = K.explicitArgs[a];
    if (A.offset + A.size > KSize) return createStringError("isa-emu: argument outside the kernarg segment");
    memcpy(KH + A.offset, Args[a], A.size);
  }
  // Queue (amd_queue_t is not modelled: zeroes) and dispatch packet.
  auto QA = M.alloc(256);
  if (!QA) return QA.takeError();
  L.allocations.push_back(*QA);
  memset(M.host(*QA, 256), 0, 256);
  auto DA = M.alloc(64);
  if (!DA) return DA.takeError();
  L.allocations.push_back(*DA);
  uint8_t *D = M.host(*DA, 64);
  memset(D, 0, 64);
  put<uint16_t>(D, 0, uint16_t(2 /*KERNEL_DISPATCH*/ | 1 << 8 /*barrier*/ | 2 << 9 | 2 << 11));
  put<uint16_t>(D, 2, uint16_t(gridDims(C)));
  put<uint16_t>(D, 4, uint16_t(C.block.x));
  put<uint16_t>(D, 6, uint16_t(C.block.y));
  put<uint16_t>(D, 8, uint16_t(C.block.z));
  const Dim3 GI = gridItems(C);
  put<uint32_t>(D, 12, GI.x);
  put<uint32_t>(D, 16, GI.y);
  put<uint32_t>(D, 20, GI.z);
  put<uint32_t>(D, 24, L.privPerLane);
  put<uint32_t>(D, 28, L.ldsBytes);
  put<uint64_t>(D, 32, K.kdAddress);
  put<uint64_t>(D, 40, *KA);
  for (const KernelArg &A : K.hiddenArgs) {
    StringRef V = A.valueKind;
    uint8_t *P = KH + A.offset;
    if (A.offset + A.size > KSize) return createStringError("isa-emu: hidden argument outside the kernarg segment");
    auto set = [&](uint64_t X) { memcpy(P, &X, std::min<uint32_t>(A.size, 8)); };
    if (V == "hidden_block_count_x") set(C.grid.x);
    else if (V == "hidden_block_count_y") set(C.grid.y);
    else if (V == "hidden_block_count_z") set(C.grid.z);
    else if (V == "hidden_group_size_x") set(C.block.x);
    else if (V == "hidden_group_size_y") set(C.block.y);
    else if (V == "hidden_group_size_z") set(C.block.z);
    else if (V == "hidden_remainder_x") set(GI.x % C.block.x); // the partial workgroup's size, or 0
    else if (V == "hidden_remainder_y") set(GI.y % C.block.y);
    else if (V == "hidden_remainder_z") set(GI.z % C.block.z);
    else if (V.starts_with("hidden_global_offset_")) set(0);
    else if (V == "hidden_grid_dims") set(gridDims(C));
    else if (V == "hidden_dynamic_lds_size") set(C.dynamicLdsBytes);
    else if (V == "hidden_private_base") set(PrivateApertureBase >> 32);
    else if (V == "hidden_shared_base") set(SharedApertureBase >> 32);
    else if (V == "hidden_queue_ptr") set(*QA);
    else if (V == "hidden_printf_buffer" || V == "hidden_hostcall_buffer" || V == "hidden_heap_v1" ||
             V == "hidden_default_queue" || V == "hidden_completion_action" ||
             V == "hidden_multigrid_sync_arg" || V == "hidden_none")
      set(0); // services this emulator does not provide (the kernel must not use them)
    else return createStringError("isa-emu: kernel " + K.name + ": unknown hidden argument kind " + V);
  }
  // Scratch backing: one region per host-thread slot, waves * lanes * privPerLane.
  L.scratchPerSlot = uint64_t(L.wavesPerGroup) * W * L.privPerLane;
  if (L.scratchPerSlot) {
    auto SA = M.alloc(L.scratchPerSlot * Slots);
    if (!SA) return SA.takeError();
    L.scratchBase = *SA;
    L.allocations.push_back(*SA);
  }
  LS.kernargPtr = *KA;
  LS.queuePtr = *QA;
  LS.dispatchPtr = *DA;
  Guard.keep = true;
  return L;
}

Expected<DispatchLayout> layoutPacketDispatch(LaunchState &LS, const DispatchMemory &M, const PacketDispatch &D,
                                              unsigned Slots) {
  const KernelInfo &K = LS.kernel->info;
  DispatchLayout L;
  unsigned W = K.waveSize;
  L.wavesPerGroup = unsigned((LS.cfg.block.count() + W - 1) / W);
  // The packet's sizes already include dynamic LDS and the dynamic stack.
  L.ldsBytes = std::max(D.groupSegmentBytes, K.kd.groupSegmentFixedSize);
  if (L.ldsBytes > 65536) return createStringError("isa-emu: LDS of " + Twine(L.ldsBytes) + " bytes exceeds 64 KiB");
  L.privPerLane = (std::max(D.privateSegmentBytes, K.kd.privateSegmentFixedSize) + 3) & ~3u;
  L.scratchPerSlot = uint64_t(L.wavesPerGroup) * W * L.privPerLane;
  if (L.scratchPerSlot) {
    auto SA = M.alloc(L.scratchPerSlot * Slots);
    if (!SA) return SA.takeError();
    L.scratchBase = *SA;
    L.allocations.push_back(*SA);
  }
  LS.kernargPtr = D.kernargAddress;
  LS.queuePtr = D.queueAddress;
  LS.dispatchPtr = D.packetAddress;
  return L;
}

void initWorkgroup(LaunchState &LS, const DispatchLayout &L, Workgroup &WG, const uint32_t Id[3],
                   unsigned Slot, unsigned ScratchSlot) {
  const KernelImage &KI = *LS.kernel;
  const KernelInfo &K = KI.info;
  const ProgramImage &P = *LS.prog;
  const LaunchConfig &C = LS.cfg;
  unsigned W = K.waveSize;
  WG.id[0] = Id[0];
  WG.id[1] = Id[1];
  WG.id[2] = Id[2];
  WG.slot = Slot;
  WG.lds.assign(L.ldsBytes, 0);
  WG.privPerLane = L.privPerLane;
  // A partial workgroup has only the waves its work-items need (barriers count those).
  const Dim3 E = groupExtent(C, Id);
  const uint64_t Threads = E.count();
  WG.waves.resize(unsigned((Threads + W - 1) / W));
  uint32_t R1 = K.kd.computePgmRsrc1, R2 = K.kd.computePgmRsrc2;
  uint16_t Props = K.kd.kernelCodeProperties;
  uint32_t Mode = ((R1 >> 12) & 3) | ((R1 >> 14) & 3) << 2 | ((R1 >> 16) & 3) << 4 | ((R1 >> 18) & 3) << 6 |
                  ((R1 >> 21) & 1) << 8 | ((R1 >> 23) & 1) << 9;
  for (unsigned w = 0; w < WG.waves.size(); ++w) {
    Wave &V = WG.waves[w];
    V.W = W;
    V.nv = 259; // 256 architectural rows + temporaries (DPP/SDWA sources, VOPD/SDWA results)
    if (V.V.size() != size_t(V.nv) * W) V.V.assign(size_t(V.nv) * W, 0);
    if (P.gfx9 && V.A.size() != size_t(256) * W) V.A.assign(size_t(256) * W, 0);
    memset(V.S, 0, sizeof(V.S));
    V.scc = false;
    V.mode = Mode;
    V.trapsts = 0;
    V.pc = KI.entryIndex;
    V.state = WaveState::Running;
    V.id = w;
    V.wg = &WG;
    V.ls = &LS;
    V.prog = &P;
    V.laneInstrs = V.waveInstrs = 0;
    V.fault.clear();
    V.privBytes = L.privPerLane;
    uint64_t WaveOffset = (uint64_t(ScratchSlot) * L.wavesPerGroup + w) * W * L.privPerLane;
    V.privBase = L.scratchBase + WaveOffset;
    V.flatScr = L.privPerLane ? V.privBase : 0; // gfx10+: FLAT_SCRATCH set by the dispatcher
    if (P.gfx9 && P.architectedFlatScratch) { // gfx94x: the dispatcher sets the s[102:103] pair
      V.S[SFlatScrLo] = uint32_t(V.flatScr);
      V.S[SFlatScrLo + 1] = uint32_t(V.flatScr >> 32);
    }
    uint64_t Lanes = std::min<uint64_t>(W, Threads - uint64_t(w) * W);
    V.setExec(Lanes >= 64 ? ~0ull : ((1ull << Lanes) - 1));
    // User SGPRs.
    unsigned S = 0;
    auto push32 = [&](uint32_t X) { if (S < 106) V.S[S++] = X; };
    auto push64 = [&](uint64_t X) { push32(uint32_t(X)); push32(uint32_t(X >> 32)); };
    if (Props & (1u << 0)) { // private segment buffer V#: base, swizzled, add-tid, stride 0
      // dword1: base[47:32], SWIZZLE_ENABLE; dword3: ELEMENT_SIZE 4 bytes,
      // INDEX_STRIDE = wave size, ADD_TID_ENABLE (ops/MUBUF.cpp addresses it).
      push32(uint32_t(L.scratchBase));
      push32((uint32_t(L.scratchBase >> 32) & 0xffff) | 1u << 31);
      push32(0xffffffffu);
      push32(1u << 19 | (W == 64 ? 3u : 2u) << 21 | 1u << 23);
    }
    if (Props & (1u << 1)) push64(LS.dispatchPtr);
    if (Props & (1u << 2)) push64(LS.queuePtr);
    if (Props & (1u << 3)) push64(LS.kernargPtr);
    if (Props & (1u << 4)) push64(0); // dispatch id
    if (Props & (1u << 5)) push64(L.scratchBase); // flat scratch init: the queue's scratch base
    if (Props & (1u << 6)) push32(L.privPerLane);
    unsigned UserCount = (R2 >> 1) & 31;
    S = UserCount; // kernarg preload SGPRs (if any) are already counted in USER_SGPR_COUNT
    if (R2 & (1u << 7)) push32(Id[0]);
    if (R2 & (1u << 8)) push32(Id[1]);
    if (R2 & (1u << 9)) push32(Id[2]);
    if (R2 & (1u << 10)) push32(0); // workgroup info
    if ((R2 & (1u << 0)) && !P.architectedFlatScratch) push32(uint32_t(WaveOffset));
    // Work-item IDs.
    unsigned IdDims = (R2 >> 11) & 3;
    for (unsigned l = 0; l < W; ++l) {
      uint64_t T = uint64_t(w) * W + l;
      uint32_t X = uint32_t(T % E.x), Y = uint32_t((T / E.x) % E.y), Z = uint32_t(T / (uint64_t(E.x) * E.y));
      if (T >= Threads) X = Y = Z = 0;
      if (P.packedTid) {
        V.V[l] = X | (IdDims >= 1 ? Y << 10 : 0) | (IdDims >= 2 ? Z << 20 : 0);
      } else {
        V.V[l] = X;
        if (IdDims >= 1) V.V[W + l] = Y;
        if (IdDims >= 2) V.V[2 * W + l] = Z;
      }
    }
  }
}

} // namespace isaemu::detail
