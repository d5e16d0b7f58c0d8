//===- core/CodeObjectImage.cpp - symbols, descriptors, read-only bytes -----===//
#include "CodeObjectImage.h"

#include "runtime/Error.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELFObjectFile.h"

#include <algorithm>
#include <cstring>

namespace runtime {

using namespace llvm;
using namespace llvm::object;

Expected<CodeObjectImage> CodeObjectImage::parse(ArrayRef<uint8_t> Elf) {
  CodeObjectImage I;
  I.Bytes.assign(Elf.begin(), Elf.end());
  auto Bad = [](const Twine &Why) { return makeError(Errc::InvalidKernelImage, "code object: " + Why); };
  auto ObjOr = ELF64LEObjectFile::create(
      MemoryBufferRef(StringRef(reinterpret_cast<const char *>(I.Bytes.data()), I.Bytes.size()), "code object"));
  if (!ObjOr) return Bad(toString(ObjOr.takeError()));
  const ELF64LEFile &F = ObjOr->getELFFile();
  if (F.getHeader().e_machine != ELF::EM_AMDGPU || F.getHeader().e_type != ELF::ET_DYN)
    return Bad("not an AMDGPU ET_DYN object");
  auto Phdrs = F.program_headers();
  if (!Phdrs) return Bad(toString(Phdrs.takeError()));
  for (auto &Ph : *Phdrs) {
    if (Ph.p_type != ELF::PT_LOAD) continue;
    if (Ph.p_offset + Ph.p_filesz > I.Bytes.size()) return Bad("a segment lies outside the file");
    I.Segments.push_back({Ph.p_vaddr, Ph.p_offset, Ph.p_filesz, (Ph.p_flags & ELF::PF_W) != 0});
  }
  auto Add = [&](const ELFSymbolRef &S) {
    Expected<StringRef> N = S.getName();
    Expected<uint64_t> V = S.getValue();
    if (N && V && !N->empty()) {
      I.Symbols.emplace(N->str(), *V);
      if (S.getELFType() == ELF::STT_OBJECT && S.getSize() > 0) I.Objects.emplace(*V, std::pair(N->str(), S.getSize()));
    }
    if (!N) consumeError(N.takeError());
    if (!V) consumeError(V.takeError());
  };
  for (const ELFSymbolRef &S : ObjOr->symbols()) Add(S);
  for (const ELFSymbolRef &S : ObjOr->getDynamicSymbolIterators()) Add(S);
  return I;
}

std::optional<uint64_t> CodeObjectImage::symbol(StringRef Name) const {
  auto It = Symbols.find(Name.str());
  if (It == Symbols.end()) return std::nullopt;
  return It->second;
}

std::optional<uint32_t> CodeObjectImage::privateSegmentFixedSize(StringRef Kernel) const {
  std::optional<uint64_t> KD = symbol((Kernel + ".kd").str());
  if (!KD) return std::nullopt;
  const uint8_t *P = at(*KD + 4, 4, true); // kernel_descriptor_t: group (0), private (4) segment sizes
  if (!P) return std::nullopt;
  uint32_t V;
  std::memcpy(&V, P, 4);
  return V;
}

void CodeObjectImage::setLoadBase(StringRef Symbol, uint64_t DeviceAddr) {
  if (std::optional<uint64_t> V = symbol(Symbol)) {
    Base = DeviceAddr - *V;
    Based = true;
  }
}

std::optional<std::pair<std::string, uint64_t>> CodeObjectImage::objectAt(uint64_t DeviceAddr) const {
  if (!Based || DeviceAddr < Base) return std::nullopt;
  uint64_t V = DeviceAddr - Base;
  auto It = Objects.upper_bound(V);
  if (It == Objects.begin()) return std::nullopt;
  --It;
  if (V - It->first >= It->second.second) return std::nullopt;
  return std::pair(It->second.first, It->first + It->second.second - V);
}

const uint8_t *CodeObjectImage::at(uint64_t VAddr, uint64_t N, bool ReadOnly) const {
  for (const Segment &S : Segments)
    if (VAddr >= S.vaddr && VAddr - S.vaddr + N <= S.fileBytes && !(ReadOnly && S.writable))
      return Bytes.data() + S.fileOffset + (VAddr - S.vaddr);
  return nullptr;
}

bool CodeObjectImage::readConstantString(uint64_t DeviceAddr, std::string &S, uint64_t MaxBytes) const {
  S.clear();
  if (!Based || DeviceAddr < Base) return false;
  uint64_t V = DeviceAddr - Base;
  bool ReadOnly = true;
  if (auto Obj = objectAt(DeviceAddr); Obj && llvm::StringRef(Obj->first).starts_with("$str")) {
    ReadOnly = false;
    MaxBytes = std::min(MaxBytes, Obj->second);
  }
  for (uint64_t I = 0; I < MaxBytes; ++I) {
    const uint8_t *C = at(V + I, 1, ReadOnly);
    if (!C) return false;
    if (!*C) return true;
    S.push_back(char(*C));
  }
  return !ReadOnly; // a literal without its NUL within the object: what it holds
}

} // namespace runtime
