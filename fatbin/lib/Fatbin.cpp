//===- Fatbin.cpp - fatbin containers, entries, wrappers, host ELF sections -===//
//
// Walks fatbin containers (16-byte header, entries back to back, each with a
// variable-length header whose fields are documented in formats.md 1.3-1.5),
// decompresses payloads (flag 0x8000: zstd frame, ZSTD_decompress; flag
// 0x2000: LZ4 raw block, LZ4_decompress_safe), selects the PTX entry that fits
// the emulated architecture, follows __fatBinC_Wrapper_t (v1: `data`; v2:
// the NULL-terminated list of prelinked containers) and finds the
// `.nv_fatbin` / `__nv_relfatbin` sections of a host ELF with LLVM's object
// library. All reads are bounds-checked against the caller's size, or in
// process memory against the readable extent of the mapping; decompressed
// sizes are capped before allocation (Limits.h).
//
//===----------------------------------------------------------------------===//
#include "fatbin/Fatbin.h"
#include "fatbin/FormatError.h"
#include "fatbin/Limits.h"
#include "fatbin/ProcessMemory.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBufferRef.h"

#include <lz4.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>

namespace ptxfatbin {

char FormatError::ID = 0;

namespace {
std::string rendered(const std::string &Field, uint64_t Offset, const std::string &Message) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << "fatbin: " << Message << " (field " << Field << " at offset 0x";
  OS.write_hex(Offset);
  OS << ")";
  return S;
}
} // namespace

// The diagnostic's message is the rendered sentence, so support::render and
// takeDiagnostics show what log() shows.
FormatError::FormatError(std::string F, uint64_t O, std::string M)
    : ErrorInfo(support::noLoc(rendered(F, O, M)), F, O), Field(std::move(F)), Offset(O), Message(std::move(M)) {}

void FormatError::log(llvm::raw_ostream &OS) const { OS << rendered(Field, Offset, Message); }

namespace {

template <typename T> T rd(const uint8_t *P) {
  T V;
  std::memcpy(&V, P, sizeof(T));
  return V;
}

std::string hex(uint64_t V) {
  char B[32];
  snprintf(B, sizeof B, "0x%llx", (unsigned long long)V);
  return B;
}

// Reads a {offset,len} string at entry-relative Off, bounded by the header.
std::string readString(const uint8_t *E, uint32_t HdrSize, uint32_t Off, uint32_t Len) {
  if (Off == 0 || uint64_t(Off) + Len > HdrSize) return {};
  return std::string(reinterpret_cast<const char *>(E + Off), Len);
}

// Container at byte Base of its input (Base only appears in messages).
llvm::Expected<Container> parseContainerAt(const uint8_t *Data, uint64_t Avail, uint64_t Base) {
  if (Avail < 16)
    return formatError("container.header", Base,
                       "container truncated: " + llvm::Twine(Avail) + " bytes, the header needs 16");
  uint32_t Magic = rd<uint32_t>(Data);
  if (Magic != ContainerMagic)
    return formatError("container.magic", Base, "bad container magic " + hex(Magic) + " (expected 0xba55ed50)");
  uint16_t HdrSize = rd<uint16_t>(Data + 6);
  uint64_t FatSize = rd<uint64_t>(Data + 8);
  if (HdrSize < 16 || HdrSize > Avail)
    return formatError("container.header_size", Base + 6,
                       "container header size " + llvm::Twine(HdrSize) + " is below 16 or exceeds the " +
                           llvm::Twine(Avail) + " bytes available");
  if (FatSize > Avail - HdrSize)
    return formatError("container.fat_size", Base + 8,
                       "container fat size " + llvm::Twine(FatSize) + " exceeds the " + llvm::Twine(Avail - HdrSize) +
                           " bytes available after its header");
  Container C;
  C.size = HdrSize + FatSize;
  uint64_t Off = HdrSize;
  while (Off < C.size) {
    uint64_t At = Base + Off; // of this entry, in the input
    if (C.size - Off < 0x40)
      return formatError("entry.header", At,
                         "entry truncated: " + llvm::Twine(C.size - Off) + " bytes left in the container, header needs 64");
    const uint8_t *E = Data + Off;
    Entry En;
    En.offsetInContainer = Off;
    En.kind = rd<uint16_t>(E);
    uint32_t EHdr = rd<uint32_t>(E + 4);
    uint64_t PSize = rd<uint64_t>(E + 8);
    uint32_t CSize = rd<uint32_t>(E + 0x10);
    uint32_t OptOff = rd<uint32_t>(E + 0x14);
    En.minor = rd<uint16_t>(E + 0x18);
    En.major = rd<uint16_t>(E + 0x1a);
    En.arch = rd<uint32_t>(E + 0x1c);
    uint32_t NameOff = rd<uint32_t>(E + 0x20), NameLen = rd<uint32_t>(E + 0x24);
    En.flags = rd<uint64_t>(E + 0x28);
    En.uncompressedSize = rd<uint64_t>(E + 0x38);
    if (EHdr < 0x40 || EHdr > C.size - Off)
      return formatError("entry.header_size", At + 4,
                         "entry header size " + hex(EHdr) + " is below 0x40 or exceeds the " + hex(C.size - Off) +
                             " bytes left in the container");
    if (PSize > C.size - Off - EHdr)
      return formatError("entry.payload_size", At + 8,
                         "entry payload size " + hex(PSize) + " exceeds the " + hex(C.size - Off - EHdr) +
                             " bytes left in the container");
    En.name = readString(E, EHdr, NameOff, NameLen);
    if (OptOff && uint64_t(OptOff) + 8 <= EHdr)
      En.options = readString(E, EHdr, rd<uint32_t>(E + OptOff), rd<uint32_t>(E + OptOff + 4));
    uint64_t Stored = PSize;
    if (En.compressed()) {
      if (CSize == 0 || CSize > PSize)
        return formatError("entry.compressed_size", At + 0x10,
                           "compressed size " + llvm::Twine(CSize) + " invalid for payload size " + llvm::Twine(PSize));
      Stored = CSize;
    }
    En.stored = llvm::ArrayRef<uint8_t>(E + EHdr, Stored);
    C.entries.push_back(std::move(En));
    Off += EHdr + PSize;
  }
  return C;
}

} // namespace

llvm::Expected<Container> parseContainer(const uint8_t *Data, uint64_t Avail) {
  return parseContainerAt(Data, Avail, 0);
}

llvm::Expected<std::vector<Container>> parseContainers(llvm::ArrayRef<uint8_t> Bytes) {
  std::vector<Container> Out;
  uint64_t Off = 0;
  while (Off + 16 <= Bytes.size()) {
    if (rd<uint32_t>(Bytes.data() + Off) != ContainerMagic) {
      // Sections are padded to 8; trailing zero padding ends the list.
      bool AllZero = true;
      for (uint64_t I = Off; I < Bytes.size() && AllZero; ++I) AllZero &= Bytes[I] == 0;
      if (AllZero) break;
      return formatError("container.magic", Off, "no container magic at offset " + hex(Off));
    }
    auto C = parseContainerAt(Bytes.data() + Off, Bytes.size() - Off, Off);
    if (!C) return C.takeError();
    Off += (C->size + 7) & ~uint64_t(7);
    Out.push_back(std::move(*C));
  }
  if (Out.empty()) return formatError("container", 0, "no fatbin container found");
  return Out;
}

uint64_t maxDecompressedSize(const Entry &E) {
  uint64_t Ratio = (E.flags & FlagCompressedZstd) ? MaxZstdRatio : MaxLZ4Ratio;
  uint64_t N = E.stored.size();
  uint64_t ByRatio = N > (MaxPayloadBytes - RatioSlack) / Ratio ? MaxPayloadBytes : N * Ratio + RatioSlack;
  return std::min(ByRatio, MaxPayloadBytes);
}

llvm::Expected<std::string> payload(const Entry &E) {
  std::string Out;
  uint64_t At = E.offsetInContainer;
  if (E.compressed()) {
    uint64_t Cap = maxDecompressedSize(E);
    if (E.uncompressedSize == 0 || E.uncompressedSize > Cap)
      return formatError("entry.uncompressed_size", At + 0x38,
                         "uncompressed size " + llvm::Twine(E.uncompressedSize) + " of a " +
                             llvm::Twine(E.stored.size()) + "-byte compressed payload is 0 or above the limit of " +
                             llvm::Twine(Cap) + " bytes (min(1 GiB, compressed size x ratio bound))");
  }
  if (E.flags & FlagCompressedZstd) {
    unsigned long long Declared = ZSTD_getFrameContentSize(E.stored.data(), E.stored.size());
    if (Declared == ZSTD_CONTENTSIZE_ERROR)
      return formatError("entry.payload", At, "zstd payload of entry at offset " + hex(At) + " is not a zstd frame");
    if (Declared != ZSTD_CONTENTSIZE_UNKNOWN && Declared != E.uncompressedSize)
      return formatError("entry.uncompressed_size", At + 0x38,
                         "uncompressed size " + llvm::Twine(E.uncompressedSize) + " differs from the zstd frame's " +
                             llvm::Twine(Declared));
    Out.resize(E.uncompressedSize);
    size_t R = ZSTD_decompress(Out.data(), Out.size(), E.stored.data(), E.stored.size());
    if (ZSTD_isError(R))
      return formatError("entry.payload", At,
                         "zstd payload of entry at offset " + hex(At) + ": " + ZSTD_getErrorName(R));
    Out.resize(R);
  } else if (E.flags & FlagCompressedLZ4) {
    if (E.stored.size() > uint64_t(INT32_MAX) || E.uncompressedSize > uint64_t(INT32_MAX))
      return formatError("entry.compressed_size", At + 0x10, "LZ4 payload too large");
    Out.resize(E.uncompressedSize);
    int R = LZ4_decompress_safe(reinterpret_cast<const char *>(E.stored.data()), Out.data(), int(E.stored.size()),
                                int(Out.size()));
    if (R < 0) return formatError("entry.payload", At, "LZ4 payload of entry at offset " + hex(At) + " is corrupt");
    Out.resize(size_t(R));
  } else {
    Out.assign(reinterpret_cast<const char *>(E.stored.data()), E.stored.size());
  }
  if (E.isPTX())
    while (!Out.empty() && Out.back() == '\0') Out.pop_back();
  return Out;
}

int selectPTX(const Container &C, uint32_t MaxArch) {
  int Best = -1, Lowest = -1;
  for (size_t I = 0; I < C.entries.size(); ++I) {
    const Entry &E = C.entries[I];
    if (!E.isPTX()) continue;
    if (E.arch <= MaxArch && (Best < 0 || E.arch > C.entries[Best].arch)) Best = int(I);
    if (Lowest < 0 || E.arch < C.entries[Lowest].arch) Lowest = int(I);
  }
  return Best >= 0 ? Best : Lowest;
}

namespace {

llvm::Error appendBestPTX(const Container &C, uint32_t MaxArch, std::vector<PTXModule> &Out) {
  int I = selectPTX(C, MaxArch);
  if (I < 0) return llvm::Error::success();
  auto Text = payload(C.entries[I]);
  if (!Text) return Text.takeError();
  PTXModule M;
  M.arch = C.entries[I].arch;
  M.text = std::move(*Text);
  M.options = C.entries[I].options;
  Out.push_back(std::move(M));
  return llvm::Error::success();
}

std::string ptr(const void *P) {
  char B[32];
  snprintf(B, sizeof B, "%p", P);
  return B;
}

} // namespace

llvm::Expected<Container> containerInMemory(const void *P) {
  const auto *B = static_cast<const uint8_t *>(P);
  if (!B) return formatError("container", 0, "NULL container pointer");
  uint64_t Ext = readableExtent(B, MaxContainerBytes);
  if (Ext < 16)
    return formatError("container.header", 0,
                       "container at " + ptr(P) + ": only " + llvm::Twine(Ext) +
                           " bytes are readable, the header needs 16");
  if (rd<uint32_t>(B) != ContainerMagic)
    return formatError("container.magic", 0, "bad container magic " + hex(rd<uint32_t>(B)) + " at " + ptr(P));
  uint64_t HdrSize = rd<uint16_t>(B + 6), FatSize = rd<uint64_t>(B + 8);
  if (HdrSize > Ext || FatSize > Ext - HdrSize)
    return formatError("container.fat_size", 8,
                       "container at " + ptr(P) + " declares " + llvm::Twine(HdrSize) + " + " + llvm::Twine(FatSize) +
                           " bytes, but only " + llvm::Twine(Ext) + " bytes are readable there");
  return parseContainer(B, HdrSize + FatSize);
}

llvm::Expected<std::vector<PTXModule>> ptxFromWrapper(const void *Wrapper, uint32_t MaxArch) {
  const auto *W = static_cast<const uint8_t *>(Wrapper);
  if (!W) return formatError("wrapper", 0, "NULL fat binary wrapper");
  uint64_t Ext = readableExtent(W, 24);
  if (Ext < 8)
    return formatError("wrapper.magic", 0, "fat binary wrapper at " + ptr(W) + " is not readable memory");
  uint32_t Magic = rd<uint32_t>(W), Version = rd<uint32_t>(W + 4);
  std::vector<PTXModule> Out;
  if (Magic == ContainerMagic) { // a bare container (cuModuleLoadFatBinary style)
    auto C = containerInMemory(W);
    if (!C) return C.takeError();
    if (auto E = appendBestPTX(*C, MaxArch, Out)) return std::move(E);
    return Out;
  }
  if (Magic != WrapperMagic)
    return formatError("wrapper.magic", 0, "bad wrapper magic " + hex(Magic) + " (expected 0x466243b1)");
  if (Ext < 24)
    return formatError("wrapper.data", 8, "fat binary wrapper at " + ptr(W) + " is truncated: " + llvm::Twine(Ext) +
                                              " readable bytes, it needs 24");
  const void *Data = rd<const void *>(W + 8);
  const void *Aux = rd<const void *>(W + 16);
  if (Version == 1) {
    auto C = containerInMemory(Data);
    if (!C) return C.takeError();
    if (auto E = appendBestPTX(*C, MaxArch, Out)) return std::move(E);
    return Out;
  }
  if (Version != 2) return formatError("wrapper.version", 4, "unsupported wrapper version " + llvm::Twine(Version));
  // v2: the device-link container holds linked cubins only; the PTX lives in
  // the prelinked containers (a NULL-terminated array of container pointers).
  if (!Aux) return Out;
  const auto *L = static_cast<const uint8_t *>(Aux);
  uint64_t LExt = readableExtent(L, MaxPrelinkedContainers * 8);
  for (uint64_t I = 0;; ++I) {
    if ((I + 1) * 8 > LExt)
      return formatError("wrapper.prelinked", 16,
                         "prelinked container list at " + ptr(L) + " has no NULL terminator within its " +
                             llvm::Twine(LExt) + " readable bytes (limit " + llvm::Twine(MaxPrelinkedContainers) +
                             " entries)");
    const void *P = rd<const void *>(L + I * 8);
    if (!P) break;
    auto C = containerInMemory(P);
    if (!C) return C.takeError();
    if (auto E = appendBestPTX(*C, MaxArch, Out)) return std::move(E);
  }
  return Out;
}

llvm::Expected<std::vector<PTXModule>> ptxFromFile(llvm::ArrayRef<uint8_t> Bytes, uint32_t MaxArch) {
  std::vector<PTXModule> Out;
  auto FromContainers = [&](llvm::ArrayRef<uint8_t> Sec) -> llvm::Error {
    auto Cs = parseContainers(Sec);
    if (!Cs) return Cs.takeError();
    for (const Container &C : *Cs)
      if (auto E = appendBestPTX(C, MaxArch, Out)) return E;
    return llvm::Error::success();
  };
  if (Bytes.size() >= 4 && rd<uint32_t>(Bytes.data()) == ContainerMagic) {
    if (auto E = FromContainers(Bytes)) return std::move(E);
    return Out;
  }
  if (Bytes.size() < 4 || std::memcmp(Bytes.data(), "\x7f" "ELF", 4) != 0)
    return formatError("magic", 0, "input is neither an ELF file nor a fatbin container");
  llvm::MemoryBufferRef Ref(llvm::StringRef(reinterpret_cast<const char *>(Bytes.data()), Bytes.size()), "input");
  auto Obj = llvm::object::ObjectFile::createObjectFile(Ref);
  if (!Obj) return Obj.takeError();
  bool Found = false;
  for (const llvm::object::SectionRef &S : (*Obj)->sections()) {
    auto Name = S.getName();
    if (!Name) return Name.takeError();
    if (*Name != ".nv_fatbin" && *Name != "__nv_relfatbin") continue;
    auto Contents = S.getContents();
    if (!Contents) return Contents.takeError();
    Found = true;
    if (auto E = FromContainers(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Contents->data()),
                                                        Contents->size())))
      return std::move(E);
  }
  if (!Found) return formatError("section", 0, "ELF input has no .nv_fatbin or __nv_relfatbin section");
  return Out;
}

} // namespace ptxfatbin
