//===- Resident.cpp - adopt a code object another loader placed in memory -===//
//
// Process-memory mode (vgpu/): ROCr's loader copies a code object's PT_LOAD
// segments into device memory at one base (ExecutableImpl::LoadSegmentsV2:
// base = allocation - vaddr of the first segment) and applies the dynamic
// relocations itself; what the GPU then has is the memory image only, no
// section headers. This reads that image as the hardware's view plus the
// loadable dynamic tables: the ELF and program headers (inside the first
// PT_LOAD, as lld lays out code objects), PT_DYNAMIC's DT_SYMTAB/DT_STRTAB
// and DT_HASH or DT_GNU_HASH (the symbol count), the `<kernel>.kd`
// descriptors and the STT_FUNC symbols. The whole executable segment is
// decoded, split at the dynamic function symbols, so local (non-exported)
// device functions are decoded too, as "<local+0xOFF>". Opcodes without a
// handler do not fail the adoption; executing one is a fault naming it.
//
//===----------------------------------------------------------------------===//
#include "Image.h"
#include "Loader.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"

using namespace llvm;

namespace isaemu::detail {

namespace {

Error err(const Twine &M) { return createStringError("isa-emu: resident code object: " + M); }

struct Image {
  uint64_t Base;
  const DeviceMemory &Mem;
  template <typename T> Expected<T> read(uint64_t Vaddr) const {
    const uint8_t *H = Mem.host(Base + Vaddr, sizeof(T));
    if (!H) return err("vaddr 0x" + utohexstr(Vaddr) + " (+" + Twine(sizeof(T)) + ") is not in memory");
    T V;
    memcpy(&V, H, sizeof(T));
    return V;
  }
};

/// Number of dynamic symbols from DT_GNU_HASH (highest bucket's chain end + 1).
Expected<uint64_t> gnuHashSymbolCount(const Image &I, uint64_t Hash) {
  auto NBuckets = I.read<uint32_t>(Hash), SymOffset = I.read<uint32_t>(Hash + 4),
       BloomSize = I.read<uint32_t>(Hash + 8);
  if (!NBuckets) return NBuckets.takeError();
  if (!SymOffset) return SymOffset.takeError();
  if (!BloomSize) return BloomSize.takeError();
  uint64_t Buckets = Hash + 16 + uint64_t(*BloomSize) * 8, Chains = Buckets + uint64_t(*NBuckets) * 4;
  uint32_t Max = 0;
  for (uint32_t b = 0; b < *NBuckets; ++b) {
    auto V = I.read<uint32_t>(Buckets + b * 4ull);
    if (!V) return V.takeError();
    Max = std::max(Max, *V);
  }
  if (Max < *SymOffset) return uint64_t(*SymOffset);
  for (uint64_t i = Max;; ++i) {
    auto C = I.read<uint32_t>(Chains + (i - *SymOffset) * 4);
    if (!C) return C.takeError();
    if (*C & 1) return i + 1;
    if (i - Max > (1u << 20)) return err("DT_GNU_HASH chain does not end");
  }
}

} // namespace

Expected<std::unique_ptr<ProgramImage>> adoptResidentProgram(uint64_t Base, StringRef Target,
                                                             const DeviceMemory &Mem) {
  Image I{Base, Mem};
  auto Eh = I.read<ELF::Elf64_Ehdr>(0);
  if (!Eh) return Eh.takeError();
  if (memcmp(Eh->e_ident, ELF::ElfMagic, 4) != 0 || Eh->e_ident[ELF::EI_CLASS] != ELF::ELFCLASS64)
    return err("no ELF64 header at the load base 0x" + utohexstr(Base));
  if (Eh->e_machine != ELF::EM_AMDGPU || Eh->e_type != ELF::ET_DYN)
    return err("not an AMDGPU ET_DYN code object");
  auto P = std::make_unique<ProgramImage>();
  setTargetTraits(*P, Target);
  P->base = Base;

  // ---- program headers: image size, the executable segment, the dynamic table.
  uint64_t Size = 0, TextVaddr = 0, TextSize = 0, Dynamic = 0;
  for (unsigned i = 0; i < Eh->e_phnum; ++i) {
    auto Ph = I.read<ELF::Elf64_Phdr>(Eh->e_phoff + uint64_t(i) * Eh->e_phentsize);
    if (!Ph) return Ph.takeError();
    if (Ph->p_type == ELF::PT_LOAD) {
      Size = std::max<uint64_t>(Size, Ph->p_vaddr + Ph->p_memsz);
      if (Ph->p_flags & ELF::PF_X) {
        if (TextSize) return err("more than one executable segment");
        TextVaddr = Ph->p_vaddr;
        TextSize = Ph->p_filesz;
      }
    } else if (Ph->p_type == ELF::PT_DYNAMIC) {
      Dynamic = Ph->p_vaddr;
    }
  }
  if (!TextSize) return err("no executable PT_LOAD segment");
  if (!Dynamic) return err("no PT_DYNAMIC segment (the symbol table is not loadable)");
  P->imageSize = Size;

  // ---- dynamic table
  uint64_t SymTab = 0, StrTab = 0, Hash = 0, GnuHash = 0, SymEnt = sizeof(ELF::Elf64_Sym);
  for (uint64_t D = Dynamic;; D += sizeof(ELF::Elf64_Dyn)) {
    auto E = I.read<ELF::Elf64_Dyn>(D);
    if (!E) return E.takeError();
    if (E->d_tag == ELF::DT_NULL) break;
    switch (E->d_tag) {
    case ELF::DT_SYMTAB: SymTab = E->d_un.d_ptr; break;
    case ELF::DT_STRTAB: StrTab = E->d_un.d_ptr; break;
    case ELF::DT_HASH: Hash = E->d_un.d_ptr; break;
    case ELF::DT_GNU_HASH: GnuHash = E->d_un.d_ptr; break;
    case ELF::DT_SYMENT: SymEnt = E->d_un.d_val; break;
    default: break;
    }
    if (D - Dynamic > (1u << 16)) return err("PT_DYNAMIC has no DT_NULL");
  }
  if (!SymTab || !StrTab || (!Hash && !GnuHash)) return err("PT_DYNAMIC lacks DT_SYMTAB/DT_STRTAB/DT_HASH");
  uint64_t NSyms = 0;
  if (Hash) {
    auto N = I.read<uint32_t>(Hash + 4);
    if (!N) return N.takeError();
    NSyms = *N;
  } else {
    auto N = gnuHashSymbolCount(I, GnuHash);
    if (!N) return N.takeError();
    NSyms = *N;
  }

  std::vector<std::pair<std::string, uint64_t>> Starts; // function name, vaddr
  std::map<std::string, uint64_t> KDs;
  for (uint64_t s = 1; s < NSyms; ++s) {
    auto Sym = I.read<ELF::Elf64_Sym>(SymTab + s * SymEnt);
    if (!Sym) return Sym.takeError();
    const uint8_t *NameP = Mem.host(Base + StrTab + Sym->st_name, 1);
    if (!NameP) return err("symbol name outside memory");
    std::string Name(reinterpret_cast<const char *>(NameP));
    if (Name.empty() || Sym->st_shndx == ELF::SHN_UNDEF) continue;
    P->symbols[Name] = Base + Sym->st_value;
    if (Sym->getType() == ELF::STT_FUNC && Sym->st_value >= TextVaddr && Sym->st_value < TextVaddr + TextSize)
      Starts.push_back({Name, Sym->st_value});
    if (Sym->getType() == ELF::STT_OBJECT && StringRef(Name).ends_with(".kd")) KDs[Name] = Sym->st_value;
  }
  std::sort(Starts.begin(), Starts.end(), [](auto &A, auto &B) { return A.second < B.second; });
  std::vector<std::pair<std::string, std::pair<uint64_t, uint64_t>>> Funcs;
  uint64_t At = TextVaddr;
  for (size_t f = 0; f <= Starts.size(); ++f) {
    uint64_t Next = f < Starts.size() ? Starts[f].second : TextVaddr + TextSize;
    if (Next > At) Funcs.push_back({"<local+0x" + utohexstr(At - TextVaddr) + ">", {At, Next}});
    if (f == Starts.size()) break;
    uint64_t End = f + 1 < Starts.size() ? Starts[f + 1].second : TextVaddr + TextSize;
    if (End > Starts[f].second) Funcs.push_back({Starts[f].first, {Starts[f].second, End}});
    At = End;
  }
  const uint8_t *Text = Mem.host(Base + TextVaddr, TextSize);
  if (!Text) return err("executable segment not in memory");
  // A runtime's own code objects hold kernels this emulator cannot run (ROCclr's
  // image blits: IMAGE_* opcodes); their instructions fault if executed, naming
  // the opcode, instead of refusing the whole image.
  std::set<std::string> LocalMissing;
  if (auto E = decodeProgram(*P, ArrayRef<uint8_t>(Text, TextSize), TextVaddr, Funcs,
                             Mem.missing ? Mem.missing : &LocalMissing))
    return std::move(E);

  // ---- kernels
  for (auto &[Sym, Vaddr] : KDs) {
    const uint8_t *KdP = Mem.host(Base + Vaddr, 64);
    if (!KdP) return err("descriptor " + Sym + " not in memory");
    KernelImage K;
    KernelInfo &KI = K.info;
    KI.name = Sym.substr(0, Sym.size() - 3);
    KI.target = Target.str();
    KI.kd = parseKD(KdP);
    KI.kdAddress = Base + Vaddr;
    KI.entryAddress = KI.kdAddress + KI.kd.kernelCodeEntryByteOffset;
    bool W32 = KI.kd.kernelCodeProperties & (1u << 10);
    KI.waveSize = P->gfx9 ? 64 : (W32 ? 32 : 64);
    KI.kernargSegmentSize = KI.kd.kernargSize;
    KI.groupSegmentFixedSize = KI.kd.groupSegmentFixedSize;
    KI.privateSegmentFixedSize = KI.kd.privateSegmentFixedSize;
    KI.usesDynamicStack = KI.kd.kernelCodeProperties & (1u << 11);
    auto It = P->byAddr.find(KI.entryAddress);
    if (It == P->byAddr.end()) return err("kernel " + KI.name + ": entry does not point at decoded code");
    K.entryIndex = It->second;
    P->waveSize = KI.waveSize;
    P->kernels[KI.name] = std::move(K);
  }
  if (P->kernels.empty()) return err("no kernel descriptors (<name>.kd) in the dynamic symbol table");
  return std::move(P);
}

Expected<std::unique_ptr<ProgramImage>> adoptRawKernel(uint64_t KernelObject, uint64_t CodeEnd, StringRef Target,
                                                       const DeviceMemory &Mem) {
  const uint8_t *KdP = Mem.host(KernelObject, 64);
  if (!KdP) return err("kernel object 0x" + utohexstr(KernelObject) + " not in memory");
  auto P = std::make_unique<ProgramImage>();
  setTargetTraits(*P, Target);
  P->base = KernelObject;
  KernelImage K;
  KernelInfo &KI = K.info;
  KI.name = "<kernel object 0x" + utohexstr(KernelObject) + ">";
  KI.target = Target.str();
  KI.kd = parseKD(KdP);
  // Only the fields the command processor reads are common to the 64-byte
  // descriptor and amd_kernel_code_t: entry offset (16), RSRC3 (44, ACCUM_OFFSET
  // in amd_kernel_code_t's max_scratch_backing_memory_byte_size high half),
  // RSRC1 (48), RSRC2 (52), the low kernel_code_properties bits (56). Segment
  // sizes come from the packet.
  KI.kd.groupSegmentFixedSize = KI.kd.privateSegmentFixedSize = KI.kd.kernargSize = 0;
  KI.kdAddress = KernelObject;
  KI.entryAddress = KernelObject + KI.kd.kernelCodeEntryByteOffset;
  bool W32 = KI.kd.kernelCodeProperties & (1u << 10);
  KI.waveSize = P->gfx9 ? 64 : (W32 ? 32 : 64);
  P->waveSize = KI.waveSize;
  if (KI.entryAddress < KernelObject || KI.entryAddress >= CodeEnd) return err("kernel entry outside its memory");
  uint64_t Size = CodeEnd - KernelObject;
  P->imageSize = Size;
  const uint8_t *Code = Mem.host(KernelObject, Size);
  if (!Code) return err("code not in memory");
  std::vector<std::pair<std::string, std::pair<uint64_t, uint64_t>>> Funcs = {
      {KI.name, {KI.entryAddress - KernelObject, Size}}};
  std::set<std::string> Missing; // opcodes past the real end of the code: fault only if executed
  if (auto E = decodeProgram(*P, ArrayRef<uint8_t>(Code, Size), 0, Funcs, &Missing, true)) return std::move(E);
  auto It = P->byAddr.find(KI.entryAddress);
  if (It == P->byAddr.end()) return err("kernel entry does not decode");
  K.entryIndex = It->second;
  P->kernels[KI.name] = std::move(K);
  return std::move(P);
}

} // namespace isaemu::detail
