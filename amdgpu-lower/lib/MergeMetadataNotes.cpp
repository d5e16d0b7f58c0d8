//===- MergeMetadataNotes.cpp - One NT_AMDGPU_METADATA note per code object --===//
//
// Per-kernel parallel codegen links several objects, each with its own
// NT_AMDGPU_METADATA note (MessagePack map: amdhsa.version, amdhsa.target,
// amdhsa.kernels, ...). lld concatenates the notes, but loaders (ROCr,
// COMGR) read a single metadata note. This pass rewrites the linked ET_DYN
// in place: the metadata documents are merged (kernel arrays appended,
// equal scalars kept, conflicting scalars an error) into one note, written
// where the notes were; since each dropped note repeated version/target, the
// merged note is smaller and the remainder becomes one padding note (owner
// "ptx2amd", type 0) so the PT_NOTE segment and section sizes stay valid.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"

#include <cstring>

namespace amdgpulower {

namespace {

template <class T> T readAt(const std::vector<char> &b, size_t off) {
  T v;
  std::memcpy(&v, b.data() + off, sizeof(T));
  return v;
}

size_t align4(size_t n) { return (n + 3) & ~size_t(3); }

void appendNote(std::string &out, llvm::StringRef name, uint32_t type, llvm::StringRef desc,
                size_t descPad = 0) {
  uint32_t namesz = uint32_t(name.size() + 1), descsz = uint32_t(desc.size() + descPad);
  out.append(reinterpret_cast<const char *>(&namesz), 4);
  out.append(reinterpret_cast<const char *>(&descsz), 4);
  out.append(reinterpret_cast<const char *>(&type), 4);
  out.append(name.data(), name.size());
  out.append(align4(namesz) - name.size(), '\0');
  out.append(desc.data(), desc.size());
  out.append(align4(descsz) - desc.size(), '\0');
}

} // namespace

llvm::Error mergeMetadataNotes(std::vector<char> &elf) {
  using namespace llvm::ELF;
  if (elf.size() < sizeof(Elf64_Ehdr)) return support::internalError(support::noLocf("code object too small"));
  auto eh = readAt<Elf64_Ehdr>(elf, 0);
  if (eh.e_shoff == 0 || eh.e_shentsize != sizeof(Elf64_Shdr) ||
      eh.e_shoff + size_t(eh.e_shnum) * sizeof(Elf64_Shdr) > elf.size())
    return support::internalError(support::noLocf("code object has no usable section table"));
  for (unsigned s = 0; s < eh.e_shnum; ++s) {
    auto sh = readAt<Elf64_Shdr>(elf, eh.e_shoff + s * sizeof(Elf64_Shdr));
    if (sh.sh_type != SHT_NOTE || sh.sh_offset + sh.sh_size > elf.size()) continue;
    std::vector<llvm::StringRef> metadata;
    std::string others;
    for (size_t p = sh.sh_offset, end = sh.sh_offset + sh.sh_size; p + 12 <= end;) {
      uint32_t namesz = readAt<uint32_t>(elf, p), descsz = readAt<uint32_t>(elf, p + 4),
               type = readAt<uint32_t>(elf, p + 8);
      size_t nameAt = p + 12, descAt = nameAt + align4(namesz), next = descAt + align4(descsz);
      if (next > end) return support::internalError(support::noLocf("malformed note in code object"));
      llvm::StringRef name(elf.data() + nameAt, namesz ? namesz - 1 : 0);
      if (name == "AMDGPU" && type == NT_AMDGPU_METADATA)
        metadata.emplace_back(elf.data() + descAt, descsz);
      else if (!(name == "ptx2amd" && type == 0))
        others.append(elf.data() + p, next - p);
      p = next;
    }
    if (metadata.size() < 2) continue;
    llvm::msgpack::Document doc;
    // amdhsa.kernels arrays are concatenated; every other array (e.g.
    // amdhsa.version) and scalar must agree element by element.
    auto merger = [](llvm::msgpack::DocNode *dest, llvm::msgpack::DocNode src,
                     llvm::msgpack::DocNode key) -> int {
      if (dest->isArray() && src.isArray())
        return key.isString() && key.getString() == "amdhsa.kernels" ? int(dest->getArray().size()) : 0;
      if (dest->isMap() && src.isMap()) return 0;
      return *dest == src ? 0 : -1;
    };
    for (llvm::StringRef blob : metadata)
      if (!doc.readFromBlob(blob, /*Multi=*/false, merger))
        return support::internalError(support::noLocf("cannot merge the per-part AMDGPU metadata notes "
                                       "(conflicting values)"));
    std::string merged;
    doc.writeToBlob(merged);
    std::string content = others;
    appendNote(content, "AMDGPU", NT_AMDGPU_METADATA, merged);
    if (content.size() + 20 > sh.sh_size) // room for the padding note header + name
      return support::internalError(support::noLocf("merged AMDGPU metadata does not fit the note section"));
    size_t padDesc = sh.sh_size - content.size() - 20;
    appendNote(content, "ptx2amd", 0, "", padDesc);
    if (content.size() != sh.sh_size)
      return support::internalError(support::noLocf("internal error: note section size mismatch"));
    std::memcpy(elf.data() + sh.sh_offset, content.data(), content.size());
  }
  return llvm::Error::success();
}

} // namespace amdgpulower
