//===- cuda-driver/lib/Image.cpp - the PTX inside a module image ---------------===//
//
// cuModuleLoadData & co. receive a bare pointer: the image's size is only what its headers
// claim, and headers are untrusted. So every image is first copied out of process memory
// with process_vm_readv (which reports unreadable memory instead of faulting), at most as
// many bytes as the header claims and as are readable, and only that copy is parsed (by
// fatbin/'s ptxfatbin readers, which bound every read by the buffer). Kinds: PTX text; a
// fat binary wrapper (__fatBinC_Wrapper_t) or container; an ELF: an NVIDIA cubin
// (EM_CUDA) -> CUDA_ERROR_NO_BINARY_FOR_GPU naming its sm_XX, any other ELF -> the PTX of
// its .nv_fatbin section. A version-2 wrapper (-rdc) or an ELF of relocatable objects gives
// several PTX modules, which the module load links.
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include "fatbin/Fatbin.h"

#include <sys/uio.h>
#include <unistd.h>

#include <cstring>
#include <set>

namespace cudadrv {
namespace {

constexpr uint64_t MaxImageBytes = 1ull << 31;
constexpr uint32_t PtxArch = 90; // the device reports compute capability 9.0
constexpr uint16_t EmCuda = 190;

// Bytes [P, P+N) that are readable, stopping at the first unreadable byte.
std::vector<uint8_t> readBounded(const void *P, uint64_t N) {
  std::vector<uint8_t> Out;
  N = std::min(N, MaxImageBytes);
  const uint64_t Chunk = 1 << 16;
  for (uint64_t Off = 0; Off < N;) {
    uint64_t Want = std::min(Chunk, N - Off);
    size_t Old = Out.size();
    Out.resize(Old + Want);
    struct iovec L = {Out.data() + Old, Want}, R = {(char *)P + Off, Want};
    ssize_t Got = process_vm_readv(getpid(), &L, 1, &R, 1, 0);
    if (Got <= 0) { Out.resize(Old); break; }
    Out.resize(Old + size_t(Got));
    Off += uint64_t(Got);
    if (uint64_t(Got) < Want) break;
  }
  return Out;
}

template <class T> bool readValue(const void *P, T &V) {
  std::vector<uint8_t> B = readBounded(P, sizeof(T));
  if (B.size() != sizeof(T)) return false;
  memcpy(&V, B.data(), sizeof(T));
  return true;
}

std::string rebuildHint(const std::set<uint32_t> &Archs) {
  std::string Which, Gencode;
  for (uint32_t A : Archs) {
    Which += (Which.empty() ? "sm_" : ", sm_") + std::to_string(A);
    if (Gencode.empty())
      Gencode = "-gencode arch=compute_" + std::to_string(A) + ",code=compute_" + std::to_string(A);
  }
  if (Which.empty()) Which = "an unknown sm";
  return "the image holds only SASS (cubin) for " + Which +
         " and no PTX; ptx2amd translates PTX: rebuild with " + Gencode +
         " (or -arch=sm_XX, which embeds compute_XX PTX too)";
}

CUresult fromContainers(llvm::ArrayRef<uint8_t> Bytes, std::vector<std::string> &PTX, std::string &Msg) {
  auto Cs = ptxfatbin::parseContainers(Bytes);
  if (!Cs) {
    Msg = "malformed fat binary: " + llvm::toString(Cs.takeError());
    return CUDA_ERROR_INVALID_IMAGE;
  }
  std::set<uint32_t> Sass;
  for (const ptxfatbin::Container &C : *Cs) {
    int I = ptxfatbin::selectPTX(C, PtxArch);
    if (I < 0) {
      for (const ptxfatbin::Entry &E : C.entries)
        if (E.isELF()) Sass.insert(E.arch);
      continue;
    }
    auto Text = ptxfatbin::payload(C.entries[size_t(I)]);
    if (!Text) {
      Msg = "fat binary entry: " + llvm::toString(Text.takeError());
      return CUDA_ERROR_INVALID_IMAGE;
    }
    PTX = {std::move(*Text)};
    return CUDA_SUCCESS;
  }
  if (!Sass.empty()) {
    Msg = rebuildHint(Sass);
    return CUDA_ERROR_NO_BINARY_FOR_GPU;
  }
  Msg = "fat binary without PTX or cubin entries";
  return CUDA_ERROR_INVALID_IMAGE;
}

CUresult fromElf(const void *Image, std::vector<std::string> &PTX, std::string &Msg) {
  uint8_t Hdr[64];
  std::vector<uint8_t> H = readBounded(Image, sizeof Hdr);
  if (H.size() < sizeof Hdr || H[4] != 2 /*ELFCLASS64*/) {
    Msg = "truncated or 32-bit ELF image";
    return CUDA_ERROR_INVALID_IMAGE;
  }
  memcpy(Hdr, H.data(), sizeof Hdr);
  uint16_t Machine, ShEntSize, ShNum;
  uint32_t Flags;
  uint64_t ShOff;
  memcpy(&Machine, Hdr + 18, 2);
  memcpy(&Flags, Hdr + 48, 4);
  memcpy(&ShOff, Hdr + 40, 8);
  memcpy(&ShEntSize, Hdr + 58, 2);
  memcpy(&ShNum, Hdr + 60, 2);
  if (Machine == EmCuda) {
    // CUDA ELF ABI 8 (CUDA 12.8+) keeps the SM in e_flags bits 8-15, older ABIs in bits 0-7.
    uint32_t Sm = Hdr[8] >= 8 ? (Flags >> 8) & 0xff : Flags & 0xff;
    Msg = rebuildHint({Sm});
    return CUDA_ERROR_NO_BINARY_FOR_GPU;
  }
  uint64_t Size = ShOff + uint64_t(ShEntSize) * ShNum;
  std::vector<uint8_t> Bytes = readBounded(Image, Size);
  if (Bytes.size() < Size) {
    Msg = "ELF image shorter than its section headers claim";
    return CUDA_ERROR_INVALID_IMAGE;
  }
  auto Mods = ptxfatbin::ptxFromFile(Bytes, PtxArch);
  if (!Mods) {
    Msg = "ELF image: " + llvm::toString(Mods.takeError());
    return CUDA_ERROR_INVALID_IMAGE;
  }
  if (Mods->empty()) {
    Msg = "ELF image without a .nv_fatbin holding PTX";
    return CUDA_ERROR_INVALID_IMAGE;
  }
  // Several modules: relocatable (-rdc) objects are linked into one image; independent
  // modules cannot be one CUmodule.
  if (Mods->size() > 1)
    for (const ptxfatbin::PTXModule &M : *Mods)
      if (!M.relocatable()) {
        Msg = "ELF image with " + std::to_string(Mods->size()) +
              " PTX modules, not all relocatable (-rdc): they cannot form one module";
        return CUDA_ERROR_NOT_SUPPORTED;
      }
  PTX.clear();
  for (ptxfatbin::PTXModule &M : *Mods) PTX.push_back(std::move(M.text));
  return CUDA_SUCCESS;
}

// cuLinkComplete's image (Driver.h); every size is checked against the readable bytes.
CUresult fromLinkedImage(const void *Image, std::vector<std::string> &PTX, std::string &Msg) {
  uint32_t Count = 0;
  const char *P = static_cast<const char *>(Image);
  if (!readValue(P + 4, Count) || Count == 0) {
    Msg = "truncated linked image";
    return CUDA_ERROR_INVALID_IMAGE;
  }
  PTX.clear();
  uint64_t Off = 8;
  for (uint32_t I = 0; I < Count; ++I) {
    uint64_t N = 0;
    if (!readValue(P + Off, N) || N > MaxImageBytes) {
      Msg = "truncated linked image";
      return CUDA_ERROR_INVALID_IMAGE;
    }
    std::vector<uint8_t> B = readBounded(P + Off + 8, N);
    if (B.size() != N) {
      Msg = "truncated linked image";
      return CUDA_ERROR_INVALID_IMAGE;
    }
    PTX.emplace_back(reinterpret_cast<const char *>(B.data()), B.size());
    Off += 8 + N;
  }
  return CUDA_SUCCESS;
}

CUresult fromContainerAt(const void *P, std::vector<std::string> &PTX, std::string &Msg) {
  uint8_t Hdr[16];
  std::vector<uint8_t> H = readBounded(P, sizeof Hdr);
  if (H.size() < sizeof Hdr) {
    Msg = "truncated fat binary header";
    return CUDA_ERROR_INVALID_IMAGE;
  }
  memcpy(Hdr, H.data(), sizeof Hdr);
  uint16_t HeaderSize;
  uint64_t FatSize;
  memcpy(&HeaderSize, Hdr + 6, 2);
  memcpy(&FatSize, Hdr + 8, 8);
  std::vector<uint8_t> Bytes = readBounded(P, uint64_t(HeaderSize) + FatSize);
  return fromContainers(Bytes, PTX, Msg);
}

} // namespace

CUresult imagePTX(const void *Image, std::vector<std::string> &PTX, std::string &Msg) {
  if (!Image) return CUDA_ERROR_INVALID_VALUE;
  uint32_t Magic = 0;
  if (!readValue(Image, Magic)) {
    Msg = "unreadable image pointer";
    return CUDA_ERROR_INVALID_VALUE;
  }
  if (Magic == 0x464c457fu) return fromElf(Image, PTX, Msg); // "\x7fELF"
  if (Magic == LinkedImageMagic) return fromLinkedImage(Image, PTX, Msg);
  if (Magic == ptxfatbin::ContainerMagic) return fromContainerAt(Image, PTX, Msg);
  if (Magic == ptxfatbin::WrapperMagic) {
    struct { uint32_t magic, version; uint64_t data, filename; } W;
    if (!readValue(Image, W) || !W.data) {
      Msg = "truncated fat binary wrapper";
      return CUDA_ERROR_INVALID_IMAGE;
    }
    if (W.version == 2) {
      // -rdc (nvcc's link.stub): the wrapper lists every object's prelinked fatbin; their
      // relocatable PTX modules are linked into one image. ptxFromWrapper bounds every read.
      auto Mods = ptxfatbin::ptxFromWrapper(Image, PtxArch);
      if (!Mods) {
        Msg = "fat binary wrapper (version 2): " + llvm::toString(Mods.takeError());
        return CUDA_ERROR_INVALID_IMAGE;
      }
      if (Mods->empty()) {
        Msg = "-rdc fat binary without PTX (compile with -gencode arch=compute_XX,code=compute_XX)";
        return CUDA_ERROR_NO_BINARY_FOR_GPU;
      }
      PTX.clear();
      for (ptxfatbin::PTXModule &M : *Mods) PTX.push_back(std::move(M.text));
      return CUDA_SUCCESS;
    }
    return fromContainerAt(reinterpret_cast<const void *>(W.data), PTX, Msg);
  }
  // PTX text: up to its NUL, every byte readable.
  std::string Text;
  const char *C = static_cast<const char *>(Image);
  for (uint64_t Off = 0; Off < MaxImageBytes; Off += 4096) {
    std::vector<uint8_t> B = readBounded(C + Off, 4096);
    const void *Nul = memchr(B.data(), 0, B.size());
    size_t N = Nul ? size_t(static_cast<const uint8_t *>(Nul) - B.data()) : B.size();
    Text.append(reinterpret_cast<const char *>(B.data()), N);
    if (Nul) break;
    if (B.size() < 4096) {
      Msg = "PTX text without a terminating NUL before unreadable memory";
      return CUDA_ERROR_INVALID_IMAGE;
    }
  }
  if (Text.find(".version") == std::string::npos || Text.find(".target") == std::string::npos) {
    Msg = "image is neither PTX text, a fat binary nor an ELF";
    return CUDA_ERROR_INVALID_IMAGE;
  }
  PTX = {std::move(Text)};
  return CUDA_SUCCESS;
}

} // namespace cudadrv
