//===- cuda-driver/lib/Link.cpp - cuLink*: the driver's JIT linker ---------------===//
//
// cuLinkCreate / cuLinkAddData / cuLinkAddFile (the _v2 ABI that cuda.h maps them to; the
// pre-CUDA 11 exports stay stubs) / cuLinkComplete / cuLinkDestroy link
// separately compiled PTX (nvcc -rdc / -dc output, NVRTC with -rdc) into one image for
// cuModuleLoadData. Inputs: PTX text, fat binaries and host objects / executables holding
// them (their PTX modules, Image.cpp); cubins (SASS only) and NVVM IR / libraries are
// refused with CUDA's error codes. cuLinkComplete parses, translates and links the modules
// (ptxjit/Link.h) so that link errors (duplicate or undefined symbols) surface there, in the
// CU_JIT_ERROR_LOG_BUFFER given to cuLinkCreate, as with NVIDIA's linker; the image it
// returns is a ptx2amd linked image (Driver.h: the PTX modules, in order), owned by the link
// state, which every module load accepts and links again (the runtime's cache keeps that cheap).
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include "ptxjit/Link.h"
#include "support/Diagnostic.h"

#include <cstring>
#include <fstream>
#include <iterator>

namespace cudadrv {

struct DrvLinkState {
  std::vector<std::string> ptx, names;
  std::vector<uint8_t> image; // cuLinkComplete's output
  unsigned nopts = 0;
  std::vector<CUjit_option> opts;
  std::vector<void *> vals;
};

namespace {

CUresult addImage(DrvLinkState *L, CUjitInputType Type, const void *Data, size_t Size, const char *Name) {
  const std::string Label = Name && *Name ? Name : "input" + std::to_string(L->ptx.size());
  switch (Type) {
  case CU_JIT_INPUT_PTX: {
    const char *P = static_cast<const char *>(Data);
    size_t N = Size;
    if (const void *Nul = memchr(P, 0, Size)) N = size_t(static_cast<const char *>(Nul) - P);
    L->ptx.emplace_back(P, N);
    L->names.push_back(Label);
    return CUDA_SUCCESS;
  }
  case CU_JIT_INPUT_FATBINARY:
  case CU_JIT_INPUT_OBJECT: {
    std::vector<std::string> Mods;
    std::string Msg;
    if (CUresult R = imagePTX(Data, Mods, Msg)) {
      writeLog(L->nopts, L->opts.data(), L->vals.data(), Label + ": " + Msg);
      return failLoud(R, "cuLinkAddData: " + Label + ": " + Msg);
    }
    for (size_t I = 0; I < Mods.size(); ++I) {
      L->ptx.push_back(std::move(Mods[I]));
      L->names.push_back(Mods.size() == 1 ? Label : Label + ":ptx" + std::to_string(I));
    }
    return CUDA_SUCCESS;
  }
  case CU_JIT_INPUT_CUBIN:
    return failLoud(CUDA_ERROR_NO_BINARY_FOR_GPU,
                    "cuLinkAddData: " + Label + " is a cubin (SASS); ptx2amd links PTX: add the PTX instead");
  default:
    return failLoud(CUDA_ERROR_NOT_SUPPORTED, "cuLinkAddData: input type " + std::to_string(int(Type)) + " of " +
                                                  Label + " (only PTX, fat binaries and objects holding PTX)");
  }
}

DrvLinkState *liveLink(CUlinkState S) {
  auto *L = reinterpret_cast<DrvLinkState *>(S);
  return S && HandleTable::get().live<DrvLinkState>(L) ? L : nullptr;
}

} // namespace

std::vector<uint8_t> makeLinkedImage(const std::vector<std::string> &Ptx) {
  std::vector<uint8_t> Out(8);
  uint32_t Magic = LinkedImageMagic, Count = uint32_t(Ptx.size());
  memcpy(Out.data(), &Magic, 4);
  memcpy(Out.data() + 4, &Count, 4);
  for (const std::string &P : Ptx) {
    uint64_t N = P.size();
    size_t At = Out.size();
    Out.resize(At + 8 + N);
    memcpy(Out.data() + At, &N, 8);
    memcpy(Out.data() + At + 8, P.data(), N);
  }
  return Out;
}

} // namespace cudadrv

using namespace cudadrv;

extern "C" {

CUresult cuLinkCreate_v2(unsigned int NumOptions, CUjit_option *Options, void **Values, CUlinkState *StateOut) {
  if (!StateOut || (NumOptions && (!Options || !Values))) return CUDA_ERROR_INVALID_VALUE;
  auto *L = new DrvLinkState;
  L->nopts = NumOptions;
  L->opts.assign(Options, Options + NumOptions);
  L->vals.assign(Values, Values + NumOptions);
  HandleTable::get().add(L);
  *StateOut = reinterpret_cast<CUlinkState>(L);
  return CUDA_SUCCESS;
}

CUresult cuLinkAddData_v2(CUlinkState State, CUjitInputType Type, void *Data, size_t Size, const char *Name,
                          unsigned int, CUjit_option *, void **) {
  DrvLinkState *L = liveLink(State);
  if (!L) return CUDA_ERROR_INVALID_HANDLE;
  if (!Data || !Size) return CUDA_ERROR_INVALID_VALUE;
  return addImage(L, Type, Data, Size, Name);
}

CUresult cuLinkAddFile_v2(CUlinkState State, CUjitInputType Type, const char *Path, unsigned int, CUjit_option *,
                          void **) {
  DrvLinkState *L = liveLink(State);
  if (!L) return CUDA_ERROR_INVALID_HANDLE;
  if (!Path) return CUDA_ERROR_INVALID_VALUE;
  std::ifstream F(Path, std::ios::binary);
  if (!F) return failLoud(CUDA_ERROR_FILE_NOT_FOUND, std::string("cuLinkAddFile: cannot open '") + Path + "'");
  std::vector<char> Bytes((std::istreambuf_iterator<char>(F)), std::istreambuf_iterator<char>());
  Bytes.push_back(0); // PTX text is read up to its NUL
  return addImage(L, Type, Bytes.data(), Bytes.size(), Path);
}

CUresult cuLinkComplete(CUlinkState State, void **CubinOut, size_t *SizeOut) {
  DrvLinkState *L = liveLink(State);
  if (!L) return CUDA_ERROR_INVALID_HANDLE;
  if (!CubinOut || !SizeOut) return CUDA_ERROR_INVALID_VALUE;
  if (L->ptx.empty()) return failLoud(CUDA_ERROR_INVALID_VALUE, "cuLinkComplete: nothing was added");
  // Link now, so that link errors are reported here as NVIDIA's linker does.
  std::vector<ptxjit::PTXUnit> Units;
  for (size_t I = 0; I < L->ptx.size(); ++I) Units.push_back({L->ptx[I], L->names[I]});
  llvm::LLVMContext Ctx;
  std::vector<support::Diagnostic> Diags;
  auto M = ptxjit::translateUnits(Units, ptxjit::InputKind::PTX, Ctx, Diags);
  if (!M) {
    std::string Log;
    for (const support::Diagnostic &D : Diags) Log += support::render(D);
    if (Log.empty()) Log = llvm::toString(M.takeError());
    else llvm::consumeError(M.takeError());
    writeLog(L->nopts, L->opts.data(), L->vals.data(), Log);
    return failLoud(CUDA_ERROR_INVALID_SOURCE, "cuLinkComplete: linking failed:\n" + Log); // 300, as the H200 answers
  }
  L->image = makeLinkedImage(L->ptx);
  *CubinOut = L->image.data();
  *SizeOut = L->image.size();
  return CUDA_SUCCESS;
}

CUresult cuLinkDestroy(CUlinkState State) {
  DrvLinkState *L = liveLink(State);
  if (!L) return CUDA_ERROR_INVALID_HANDLE;
  HandleTable::get().remove(L);
  delete L;
  return CUDA_SUCCESS;
}

} // extern "C"
