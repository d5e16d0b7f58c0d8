//===- CodeObject.cpp - load an AMDGPU code object into device memory ----===//
//
// Parses the ET_DYN code object with llvm::object: PT_LOAD segments are
// copied into device memory at one base, R_AMDGPU_ABS64 / RELATIVE64
// dynamic relocations are applied there, every STT_FUNC is decoded
// (Decoder.cpp), and each kernel's 64-byte descriptor (<name>.kd) and
// msgpack metadata (NT_AMDGPU_METADATA: .args, .wavefront_size, segment
// sizes) are read and cross-checked (kernarg / group / private sizes and
// the wave size must agree between the two).
//
//===----------------------------------------------------------------------===//
#include "Image.h"
#include "Loader.h"

#include "support/Contract.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace llvm::object;

namespace isaemu::detail {
namespace {

Error err(const Twine &M) { return createStringError("isa-emu: code object: " + M); }

template <typename T> T rd(const uint8_t *P) {
  T V;
  memcpy(&V, P, sizeof(T));
  return V;
}

} // namespace

KernelDescriptor parseKD(const uint8_t *P) {
  KernelDescriptor K;
  K.groupSegmentFixedSize = rd<uint32_t>(P + 0);
  K.privateSegmentFixedSize = rd<uint32_t>(P + 4);
  K.kernargSize = rd<uint32_t>(P + 8);
  K.kernelCodeEntryByteOffset = rd<int64_t>(P + 16);
  K.computePgmRsrc3 = rd<uint32_t>(P + 44);
  K.computePgmRsrc1 = rd<uint32_t>(P + 48);
  K.computePgmRsrc2 = rd<uint32_t>(P + 52);
  K.kernelCodeProperties = rd<uint16_t>(P + 56);
  K.kernargPreload = rd<uint16_t>(P + 58);
  return K;
}

namespace {
std::string str(msgpack::DocNode N) { return N.isString() ? N.getString().str() : std::string(); }
uint64_t num(msgpack::DocNode N) {
  if (N.getKind() == msgpack::Type::UInt) return N.getUInt();
  if (N.getKind() == msgpack::Type::Int) return uint64_t(N.getInt());
  if (N.getKind() == msgpack::Type::Boolean) return N.getBool();
  return 0;
}

} // namespace

void setTargetTraits(ProgramImage &P, StringRef Target) {
  P.target = Target.str();
  const unsigned Major = ::support::gfxMajorOf(std::string_view(Target.data(), Target.size()));
  P.gfx9 = Major == 9;
  P.gfx11 = Major == 11;
  P.architectedFlatScratch = Target.starts_with("gfx94") || Target.starts_with("gfx95") ||
                             Target.starts_with("gfx11") || Target.starts_with("gfx12");
  P.packedTid = Target == "gfx90a" || Target.starts_with("gfx94") || Target.starts_with("gfx95") ||
                Target.starts_with("gfx11") || Target.starts_with("gfx12");
}

Expected<std::unique_ptr<ProgramImage>> loadProgram(ArrayRef<char> Bytes, const DeviceMemory &Mem) {
  auto Buf = MemoryBuffer::getMemBuffer(StringRef(Bytes.data(), Bytes.size()), "code object", false);
  auto ObjOr = ELF64LEObjectFile::create(Buf->getMemBufferRef());
  if (!ObjOr) return ObjOr.takeError();
  ELF64LEObjectFile &Obj = *ObjOr;
  const ELF64LEFile &F = Obj.getELFFile();
  if (F.getHeader().e_machine != ELF::EM_AMDGPU) return err("not an AMDGPU ELF");
  if (F.getHeader().e_type != ELF::ET_DYN) return err("not a loadable (ET_DYN) code object");

  auto P = std::make_unique<ProgramImage>();
  // ---- metadata note
  msgpack::Document Doc;
  bool HaveMeta = false;
  auto Sections = F.sections();
  if (!Sections) return Sections.takeError();
  for (auto &Sec : *Sections) {
    if (Sec.sh_type != ELF::SHT_NOTE) continue;
    Error E = Error::success();
    for (auto Note : F.notes(Sec, E))
      if (Note.getName() == "AMDGPU" && Note.getType() == ELF::NT_AMDGPU_METADATA) {
        ArrayRef<uint8_t> D = Note.getDesc(Sec.sh_addralign);
        if (!Doc.readFromBlob(StringRef(reinterpret_cast<const char *>(D.data()), D.size()), false))
          return err("malformed msgpack metadata");
        HaveMeta = true;
      }
    if (E) return std::move(E);
  }
  if (!HaveMeta) return err("no NT_AMDGPU_METADATA note (code object v3+ required)");
  auto Root = Doc.getRoot().getMap(true);
  std::string Target = str(Root["amdhsa.target"]);
  size_t Dash = Target.rfind("--");
  if (Dash == std::string::npos) return err("bad amdhsa.target '" + Target + "'");
  Target = Target.substr(Dash + 2);
  Target = Target.substr(0, Target.find(':'));
  setTargetTraits(*P, Target);

  // ---- image
  auto Phdrs = F.program_headers();
  if (!Phdrs) return Phdrs.takeError();
  uint64_t Size = 0;
  for (auto &Ph : *Phdrs)
    if (Ph.p_type == ELF::PT_LOAD) Size = std::max<uint64_t>(Size, Ph.p_vaddr + Ph.p_memsz);
  if (Size == 0) return err("no PT_LOAD segment");
  auto Base = Mem.alloc(Size);
  if (!Base) return Base.takeError();
  P->base = *Base;
  P->imageSize = Size;
  uint8_t *Host = Mem.host(P->base, Size);
  memset(Host, 0, Size);
  for (auto &Ph : *Phdrs)
    if (Ph.p_type == ELF::PT_LOAD) {
      if (Ph.p_offset + Ph.p_filesz > Bytes.size()) return err("segment outside the file");
      memcpy(Host + Ph.p_vaddr, Bytes.data() + Ph.p_offset, Ph.p_filesz);
    }

  // ---- symbols
  std::vector<std::pair<std::string, std::pair<uint64_t, uint64_t>>> Funcs, Unsized;
  std::map<std::string, uint64_t> KDs;
  auto addSym = [&](const ELFSymbolRef &S) -> Error {
    auto N = S.getName();
    if (!N) return N.takeError();
    auto V = S.getValue();
    if (!V) return V.takeError();
    uint8_t Ty = S.getELFType();
    if (N->empty()) return Error::success();
    P->symbols[N->str()] = P->base + *V;
    if (Ty == ELF::STT_FUNC && S.getSize() == 0) { // hand-written code without .size
      for (auto &Fn : Unsized)
        if (Fn.first == *N && Fn.second.first == *V) return Error::success();
      Unsized.push_back({N->str(), {*V, *V}});
    }
    if (Ty == ELF::STT_FUNC && S.getSize() > 0) {
      // the same symbol may come from .symtab and .dynsym; distinct local functions may share a
      // name (a device-library function kept out of line in several code-generation partitions)
      for (auto &Fn : Funcs)
        if (Fn.first == *N && Fn.second.first == *V) return Error::success();
      Funcs.push_back({N->str(), {*V, *V + S.getSize()}});
    }
    if (Ty == ELF::STT_OBJECT && N->ends_with(".kd")) KDs[N->str()] = *V;
    return Error::success();
  };
  for (const ELFSymbolRef &S : Obj.symbols())
    if (auto E = addSym(S)) return E;
  for (const ELFSymbolRef &S : Obj.getDynamicSymbolIterators())
    if (auto E = addSym(S)) return E;
  std::sort(Funcs.begin(), Funcs.end(), [](auto &A, auto &B) { return A.second.first < B.second.first; });

  // ---- dynamic relocations
  for (auto &Sec : *Sections) {
    if (Sec.sh_type != ELF::SHT_RELA) continue;
    auto Relas = F.relas(Sec);
    if (!Relas) return Relas.takeError();
    auto SymTab = F.getSection(Sec.sh_link);
    if (!SymTab) return SymTab.takeError();
    for (auto &R : *Relas) {
      uint32_t Type = R.getType(false);
      uint64_t SymVal = 0;
      if (uint32_t SI = R.getSymbol(false)) {
        auto Sym = F.getRelocationSymbol(R, *SymTab);
        if (!Sym) return Sym.takeError();
        if (!*Sym) return err("relocation without symbol");
        if ((*Sym)->st_shndx == ELF::SHN_UNDEF) {
          auto Nm = (*Sym)->getName(*F.getStringTableForSymtab(**SymTab));
          return err("undefined symbol " + (Nm ? *Nm : StringRef("?")) + " (index " + Twine(SI) + ")");
        }
        SymVal = (*Sym)->st_value;
      }
      if (R.r_offset + 8 > Size) return err("relocation outside the image");
      uint64_t V;
      switch (Type) {
      case ELF::R_AMDGPU_ABS64: V = P->base + SymVal + R.r_addend; break;
      case ELF::R_AMDGPU_RELATIVE64: V = P->base + R.r_addend; break;
      case ELF::R_AMDGPU_NONE: continue;
      default: return err("unsupported dynamic relocation type " + Twine(Type));
      }
      memcpy(Host + R.r_offset, &V, 8);
    }
  }

  // ---- kernels
  auto Kernels = Root["amdhsa.kernels"];
  if (!Kernels.isArray()) return err("metadata has no amdhsa.kernels");
  unsigned Wave = 0;
  for (auto &KN : Kernels.getArray()) {
    auto KM = KN.getMap();
    KernelImage K;
    KernelInfo &I = K.info;
    I.name = str(KM[".name"]);
    I.target = Target;
    std::string Sym = str(KM[".symbol"]);
    I.waveSize = unsigned(num(KM[".wavefront_size"]));
    I.kernargSegmentSize = uint32_t(num(KM[".kernarg_segment_size"]));
    I.kernargSegmentAlign = uint32_t(num(KM[".kernarg_segment_align"]));
    I.groupSegmentFixedSize = uint32_t(num(KM[".group_segment_fixed_size"]));
    I.privateSegmentFixedSize = uint32_t(num(KM[".private_segment_fixed_size"]));
    I.usesDynamicStack = num(KM[".uses_dynamic_stack"]);
    I.sgprCount = uint32_t(num(KM[".sgpr_count"]));
    I.vgprCount = uint32_t(num(KM[".vgpr_count"]));
    I.agprCount = uint32_t(num(KM[".agpr_count"]));
    if (KM.find(".args") != KM.end())
      for (auto &AN : KM[".args"].getArray()) {
        auto AM = AN.getMap();
        KernelArg A;
        A.name = str(AM[".name"]);
        A.valueKind = str(AM[".value_kind"]);
        A.offset = uint32_t(num(AM[".offset"]));
        A.size = uint32_t(num(AM[".size"]));
        (StringRef(A.valueKind).starts_with("hidden_") ? I.hiddenArgs : I.explicitArgs).push_back(A);
      }
    auto KD = KDs.find(Sym);
    if (KD == KDs.end()) return err("kernel " + I.name + ": no descriptor symbol " + Sym);
    if (KD->second + 64 > Size) return err("kernel " + I.name + ": descriptor outside the image");
    I.kd = parseKD(Host + KD->second);
    I.kdAddress = P->base + KD->second;
    I.entryAddress = I.kdAddress + I.kd.kernelCodeEntryByteOffset;
    // Cross-checks of the descriptor against the metadata.
    bool W32 = I.kd.kernelCodeProperties & (1u << 10);
    if ((W32 ? 32u : 64u) != I.waveSize)
      return err("kernel " + I.name + ": descriptor WAVEFRONT_SIZE32=" + Twine(W32) +
                 " but metadata .wavefront_size=" + Twine(I.waveSize));
    if (I.kd.kernargSize != I.kernargSegmentSize)
      return err("kernel " + I.name + ": descriptor kernarg_size " + Twine(I.kd.kernargSize) +
                 " != metadata .kernarg_segment_size " + Twine(I.kernargSegmentSize));
    if (I.kd.groupSegmentFixedSize != I.groupSegmentFixedSize ||
        I.kd.privateSegmentFixedSize != I.privateSegmentFixedSize)
      return err("kernel " + I.name + ": descriptor segment sizes differ from the metadata");
    if (Wave && Wave != I.waveSize) return err("kernels of mixed wave sizes");
    Wave = I.waveSize;
    P->kernels[I.name] = std::move(K);
  }
  P->waveSize = Wave ? Wave : 64;

  // ---- code
  auto TextSec = [&]() -> const ELF64LE::Shdr * {
    for (auto &Sec : *Sections) {
      auto N = F.getSectionName(Sec);
      if (N && *N == ".text") return &Sec;
    }
    return nullptr;
  }();
  if (!TextSec) return err("no .text section");
  ArrayRef<uint8_t> Text(Host + TextSec->sh_addr, TextSec->sh_size);
  if (auto E = decodeProgram(*P, Text, TextSec->sh_addr, Funcs, Mem.missing)) return std::move(E);
  // A function symbol without a size (assembly without .size) extends to the next function or
  // the end of .text; decoding stops at the first word the disassembler rejects, and opcodes
  // without a handler there fault when executed (the range may hold padding or data).
  std::vector<std::pair<std::string, std::pair<uint64_t, uint64_t>>> Extra;
  for (auto &[N, R] : Unsized) {
    uint64_t Start = R.first, End = TextSec->sh_addr + TextSec->sh_size;
    if (Start < TextSec->sh_addr || Start >= End || P->byAddr.count(P->base + Start)) continue;
    bool Inside = false;
    for (auto &Fn : Funcs) {
      if (Start >= Fn.second.first && Start < Fn.second.second) Inside = true;
      if (Fn.second.first > Start) End = std::min(End, Fn.second.first);
    }
    for (auto &Fn : Unsized)
      if (Fn.second.first > Start) End = std::min(End, Fn.second.first);
    if (!Inside) Extra.push_back({N, {Start, End}});
  }
  if (!Extra.empty()) {
    std::set<std::string> FaultWhenRun;
    if (auto E = decodeProgram(*P, Text, TextSec->sh_addr, Extra, Mem.missing ? Mem.missing : &FaultWhenRun, true))
      return std::move(E);
  }
  for (auto &[N, K] : P->kernels) {
    auto It = P->byAddr.find(K.info.entryAddress);
    if (It == P->byAddr.end())
      return err("kernel " + N + ": kernel_code_entry_byte_offset does not point at decoded code");
    K.entryIndex = It->second;
    unsigned Cnt = 0;
    for (size_t i = It->second; i < P->code.size() && P->func[i] == P->func[It->second]; ++i) ++Cnt;
    K.info.instructions = Cnt;
  }
  return std::move(P);
}

} // namespace isaemu::detail
