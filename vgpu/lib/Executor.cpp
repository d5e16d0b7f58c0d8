//===- Executor.cpp - kernel dispatch packets on isa-emu ------------------===//
//
// The shader engines of the virtual GPU: one isaemu::Device in
// process-memory mode whose memory is the process's BOs (Kfd::translate).
// A dispatch names its kernel only by the descriptor address
// (kernel_object); the code object around it is found the way it sits in
// GPU memory: ROCr's loader places the image (ELF header first) at a
// 256-byte aligned base in a code BO, so the executor scans back from the
// descriptor in 256-byte steps, within that BO, for an AMDGPU ELF header
// and adopts the image (isa-emu Resident.cpp). Adopted images are keyed by
// the BO's handle, so a freed-and-reused BO is adopted afresh. Code with no
// ELF before it (ROCr's blit kernels: amd_kernel_code_t + ISA) is adopted
// raw, decoded from its entry to the end of the BO. A dispatch that runs
// past the watchdog's instruction limit (VGPU_MAX_WAVE_INSTRUCTIONS) fails
// like any other execution fault: the queue error ends the process.
//
//===----------------------------------------------------------------------===//
#include "Executor.h"
#include "Kfd.h"
#include "Log.h"

#include "isa-emu/IsaEmu.h"

#include "llvm/Support/Error.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

namespace vgpu {

namespace {

constexpr uint64_t IsaAlign = 256; // AMD_ISA_ALIGN_BYTES of ROCr's loader

struct Shaders {
  std::unique_ptr<isaemu::Device> Dev;
  std::string Error;
  std::mutex Mu;
  std::map<uint64_t, std::pair<uint64_t, isaemu::Program *>> ByBase; ///< load base -> (BO handle, program)

  explicit Shaders(Kfd &K) {
    isaemu::DeviceOptions O;
    if (const char *T = getenv("VGPU_THREADS")) O.threads = unsigned(atoi(T));
    // isa-emu's watchdog (a real GPU has none for compute queues): VGPU_MAX_WAVE_INSTRUCTIONS, else
    // ptx2amd's PTX2AMD_MAX_WAVE_INSTRUCTIONS (read at the first dispatch, like the runtime's at its first call).
    const char *W = getenv("VGPU_MAX_WAVE_INSTRUCTIONS");
    if (!W || !*W) W = getenv("PTX2AMD_MAX_WAVE_INSTRUCTIONS");
    if (W && *W) O.maxWaveInstructions = strtoull(W, nullptr, 0);
    O.processMemory = [&K](uint64_t A, uint64_t N) { return K.translate(A, N); };
    auto D = isaemu::Device::create(O);
    if (!D) Error = llvm::toString(D.takeError());
    else Dev = std::move(*D);
  }

  llvm::Expected<isaemu::Program *> programFor(Kfd &K, uint64_t KernelObject) {
    std::lock_guard<std::mutex> L(Mu);
    BufferObject Bo;
    if (!K.boContaining(KernelObject, Bo))
      return llvm::createStringError("kernel object 0x%llx is not inside any buffer object",
                                     (unsigned long long)KernelObject);
    for (auto &[Base, HP] : ByBase)
      if (HP.first == Bo.handle && KernelObject >= Base) {
        auto Kn = HP.second->kernelNames();
        for (auto &N : Kn)
          if (auto KI = HP.second->kernel(N); KI && (*KI)->kdAddress == KernelObject) return HP.second;
          else if (!KI) llvm::consumeError(KI.takeError());
      }
    for (uint64_t A = KernelObject & ~(IsaAlign - 1); A >= Bo.va; A -= IsaAlign) {
      const uint8_t *H = K.translate(A, 20);
      if (H && !memcmp(H, "\x7f" "ELF", 4) && H[4] == 2 /*ELFCLASS64*/ && H[18] == 224 /*EM_AMDGPU*/) {
        auto P = Dev->adoptResidentCodeObject(A, K.target().name);
        if (!P) return P.takeError();
        VGPU_TRACE("adopted the code object at 0x%llx (BO %llu)", (unsigned long long)A,
                   (unsigned long long)Bo.handle);
        ByBase[A] = {Bo.handle, *P};
        return *P;
      }
      if (A < IsaAlign) break;
    }
    // No ELF image: raw code after its descriptor (ROCr 5.2's blit kernels and
    // trap handler are amd_kernel_code_t + precompiled ISA, GpuAgent::AssembleShader).
    auto P = Dev->adoptRawKernel(KernelObject, Bo.va + Bo.size, K.target().name);
    if (!P) return P.takeError();
    VGPU_TRACE("adopted raw kernel code at 0x%llx (BO %llu)", (unsigned long long)KernelObject,
               (unsigned long long)Bo.handle);
    ByBase[KernelObject] = {Bo.handle, *P};
    return *P;
  }
};

Shaders &shaders(Kfd &K) {
  static Shaders *S = new Shaders(K); // process lifetime, like Kfd (a dispatch may run during exit)
  return *S;
}

} // namespace

std::string executeDispatch(Kfd &K, const aql::KernelDispatchPacket &Pkt, uint64_t PacketAddress,
                            uint64_t QueueAddress, const std::function<void(const std::string &)> &Starting) {
  Shaders &S = shaders(K);
  if (!S.Dev) return "isa-emu: " + S.Error;
  unsigned Dims = Pkt.setup & 3;
  if (Dims < 1 || Dims > 3) return "dispatch packet setup.dimensions " + std::to_string(Dims) + " is not 1..3";
  auto P = S.programFor(K, Pkt.kernelObject);
  if (!P) return llvm::toString(P.takeError());
  isaemu::PacketDispatch D;
  D.packetAddress = PacketAddress;
  D.queueAddress = QueueAddress;
  D.kernelObject = Pkt.kernelObject;
  D.kernargAddress = Pkt.kernargAddress;
  D.gridWorkItems = {Pkt.gridSize[0], Dims > 1 ? Pkt.gridSize[1] : 1, Dims > 2 ? Pkt.gridSize[2] : 1};
  D.block = {Pkt.workgroupSize[0], Dims > 1 ? Pkt.workgroupSize[1] : 1u, Dims > 2 ? Pkt.workgroupSize[2] : 1u};
  D.groupSegmentBytes = Pkt.groupSegmentSize;
  D.privateSegmentBytes = Pkt.privateSegmentSize;
  VGPU_TRACE("dispatch kernel object 0x%llx grid %ux%ux%u block %ux%ux%u lds %u priv %u",
             (unsigned long long)Pkt.kernelObject, D.gridWorkItems.x, D.gridWorkItems.y, D.gridWorkItems.z,
             D.block.x, D.block.y, D.block.z, D.groupSegmentBytes, D.privateSegmentBytes);
  std::string Name;
  for (auto &N : (*P)->kernelNames())
    if (auto KI = (*P)->kernel(N); KI && (*KI)->kdAddress == Pkt.kernelObject) {
      Name = N;
      break;
    } else if (!KI) {
      llvm::consumeError(KI.takeError());
    }
  Starting(Name);
  if (llvm::Error E = S.Dev->launchPacket(**P, D)) return llvm::toString(std::move(E));
  return {};
}

} // namespace vgpu
