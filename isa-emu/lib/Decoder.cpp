//===- Decoder.cpp - AMDGPU machine code -> isa-emu instructions ---------===//
//
// Decodes every function of a code object's .text once, at load, with LLVM's
// AMDGPU MC disassembler (encodings come from LLVM's tables), and turns each
// MCInst into an Inst: the handler of its opcode's row in Opcodes.def and
// normalised operands. The MC opcode name (V_ADD_F32_e64_gfx11) is mapped to
// the row's semantic name (V_ADD_F32) by stripping encoding suffixes listed
// in a table, recording the variant (e64, dpp, saddr, rtn, ...) as flags.
// Operand roles come from the MCInstrDesc: defs, source modifiers
// (OPERAND_INPUT_MODS), sources (registers / target operand types), control
// immediates (OPERAND_IMMEDIATE / PCREL); tied operands are skipped (the
// handler reads its destination) and implicit VCC/EXEC operands of VOPC/VOP2
// e32 forms are made explicit. Unknown opcodes or registers are load errors.
//
//===----------------------------------------------------------------------===//
#include "Image.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/Support/Casting.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <set>

using namespace llvm;

namespace isaemu::detail {
const OpRow *missingRow(); // OpTable.cpp
namespace {

// AMDGPU::OPERAND_INPUT_MODS in llvm-22's SIDefines.h (checked at start-up
// against V_ADD_F32_e64_gfx11's operand 1).
constexpr uint8_t OperandInputMods = 45;

struct RegDesc {
  OK kind = OK::None;
  uint16_t reg = 0;
  uint8_t count = 0, hi = 0;
  bool null = false;
  int64_t imm = 0;
};

struct TargetMCs {
  Triple TT{"amdgcn-amd-amdhsa"};
  const Target *T = nullptr;
  std::unique_ptr<MCRegisterInfo> MRI;
  std::unique_ptr<MCAsmInfo> MAI;
  std::unique_ptr<MCInstrInfo> MII;
  std::unique_ptr<MCSubtargetInfo> STI;
  std::unique_ptr<MCContext> Ctx;
  std::unique_ptr<MCDisassembler> Dis;
  std::unique_ptr<MCInstPrinter> IP;
  std::vector<RegDesc> regs;
  StringMap<unsigned> opByName;
};

unsigned countParts(StringRef N, StringRef Prefix) {
  unsigned C = 0;
  size_t P = 0;
  while ((P = N.find(Prefix, P)) != StringRef::npos) { ++C; P += Prefix.size(); }
  return C;
}

RegDesc parseReg(StringRef N) {
  RegDesc R;
  auto num = [&](StringRef Pre, unsigned &Out) {
    if (!N.starts_with(Pre)) return false;
    StringRef Rest = N.drop_front(Pre.size());
    size_t E = Rest.find_first_not_of("0123456789");
    if (E == 0) return false;
    return !Rest.substr(0, E).getAsInteger(10, Out);
  };
  unsigned I = 0;
  bool hi = N.ends_with("_HI16"), lo = N.ends_with("_LO16");
  if (num("SGPR", I)) { R.kind = OK::S; R.reg = I; R.count = countParts(N, "SGPR"); R.hi = hi; return R; }
  if (num("VGPR", I)) { R.kind = OK::V; R.reg = I; R.count = countParts(N, "VGPR"); R.hi = hi; return R; }
  if (num("AGPR", I)) { R.kind = OK::A; R.reg = I; R.count = countParts(N, "AGPR"); R.hi = hi; return R; }
  if (num("TTMP", I)) { R.kind = OK::S; R.reg = STtmp0 + I; R.count = countParts(N, "TTMP"); return R; }
  if (lo || hi) N = N.drop_back(5);
  if (N == "VCC") return {OK::S, SVccLo, 2};
  if (N == "VCC_LO") return {OK::S, SVccLo, 1};
  if (N == "VCC_HI") return {OK::S, SVccHi, 1};
  if (N == "EXEC") return {OK::S, SExecLo, 2};
  if (N == "EXEC_LO") return {OK::S, SExecLo, 1};
  if (N == "EXEC_HI") return {OK::S, SExecHi, 1};
  if (N == "M0" || N.starts_with("M0_")) return {OK::S, SM0, 1};
  if (N.starts_with("FLAT_SCR")) {
    if (N.contains("_LO")) return {OK::S, SFlatScrLo, 1};
    if (N.contains("_HI")) return {OK::S, SFlatScrLo + 1, 1};
    return {OK::S, SFlatScrLo, 2};
  }
  if (N.starts_with("SGPR_NULL")) { R.kind = OK::S; R.reg = SNull; R.count = 1; R.null = true; return R; }
  if (N == "SCC" || N == "SRC_SCC") return {OK::Scc, 0, 1};
  if (N == "SRC_VCCZ") return {OK::Vccz, 0, 1};
  if (N == "SRC_EXECZ") return {OK::Execz, 0, 1};
  auto imm = [&](uint64_t Full) {
    RegDesc D{OK::Imm, 0, 1};
    D.imm = N.ends_with("_LO") ? int64_t(Full >> 32) : int64_t(Full);
    return D;
  };
  if (N.starts_with("SRC_SHARED_BASE")) return imm(SharedApertureBase);
  if (N.starts_with("SRC_SHARED_LIMIT")) return imm(SharedApertureBase + 0xffffffffull);
  if (N.starts_with("SRC_PRIVATE_BASE")) return imm(PrivateApertureBase);
  if (N.starts_with("SRC_PRIVATE_LIMIT")) return imm(PrivateApertureBase + 0xffffffffull);
  if (N.starts_with("SRC_POPS_EXITING_WAVE_ID")) return imm(0);
  return R; // unsupported (TBA/TMA/LDS_DIRECT/...)
}

// Encoding suffixes LLVM appends to MC opcode names, with the variant flag
// each one records (0 = encoding generation only).
struct Suffix {
  StringRef text;
  uint32_t flag;
};
const Suffix Suffixes[] = {
    {"_gfx6_gfx7", 0}, {"_gfx10", 0}, {"_gfx11", 0}, {"_gfx12", 0}, {"_gfx11plus", 0},
    {"_gfx90a", 0},    {"_gfx940", 0}, {"_gfx950", 0}, {"_gfx9", 0},   {"_vi", 0},
    {"_si", 0},        {"_ci", 0},     {"_e32", 0},   {"_e64", VE64}, {"_dpp8", VDpp8},
    {"_dpp", VDpp},    {"_sdwa", VSdwa}, {"_t16", VT16}, {"_fake16", 0}, {"_SADDR", VSaddr},
    {"_RTN", VRtn},    {"_OFFEN", VOffen}, {"_IDXEN", VIdxen}, {"_BOTHEN", VOffen | VIdxen},
    {"_OFFSET", 0},    {"_SVS", VSvs}, {"_ST", VSt},  {"_SGPR_IMM", VSgprOff | VImmOff},
    {"_SGPR", VSgprOff}, {"_IMM", VImmOff}, {"_nsa", 0},
    {"_VE", 0}}; // gfx940 scratch with vaddr only (the SVE bit): the plain form

std::string stripSuffixes(StringRef N, uint32_t &Flags) {
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (const Suffix &S : Suffixes)
      if (N.ends_with(S.text) && N.size() > S.text.size() + 2) {
        N = N.drop_back(S.text.size());
        Flags |= S.flag;
        Changed = true;
        break;
      }
  }
  // TableGen spells some true16 opcodes with their name twice, the second
  // time possibly under the older name (V_CVT_F16_F32V_CVT_F16_F32_t16_e32_gfx11,
  // V_SUB_NC_I16V_SUB_I16_fake16_e64_gfx11): the first name is the semantic
  // one. A second "V_" right after a digit never occurs inside one name.
  for (size_t P = 1; P + 2 < N.size(); ++P)
    if (N[P] == 'V' && N[P + 1] == '_' && isDigit(N[P - 1]) && N.starts_with("V_")) {
      N = N.take_front(P);
      break;
    }
  return N.str();
}

Expected<std::unique_ptr<TargetMCs>> createTargetMC(StringRef CPU, unsigned WaveSize) {
  LLVMInitializeAMDGPUTargetInfo();
  LLVMInitializeAMDGPUTargetMC();
  LLVMInitializeAMDGPUDisassembler();
  auto M = std::make_unique<TargetMCs>();
  std::string Err;
  M->T = TargetRegistry::lookupTarget(M->TT, Err);
  if (!M->T) return createStringError("isa-emu: no AMDGPU target in LLVM: " + Err);
  M->MRI.reset(M->T->createMCRegInfo(M->TT));
  MCTargetOptions MCOpts;
  M->MAI.reset(M->T->createMCAsmInfo(*M->MRI, M->TT, MCOpts));
  M->MII.reset(M->T->createMCInstrInfo());
  std::string Feat = WaveSize == 32 ? "+wavefrontsize32" : "+wavefrontsize64";
  M->STI.reset(M->T->createMCSubtargetInfo(M->TT, CPU, Feat));
  if (!M->MRI || !M->MAI || !M->MII || !M->STI || !M->STI->isCPUStringValid(CPU))
    return createStringError("isa-emu: LLVM does not know target '" + CPU.str() + "'");
  M->Ctx = std::make_unique<MCContext>(M->TT, M->MAI.get(), M->MRI.get(), M->STI.get());
  M->Dis.reset(M->T->createMCDisassembler(*M->STI, *M->Ctx));
  M->IP.reset(M->T->createMCInstPrinter(M->TT, 0, *M->MAI, *M->MII, *M->MRI));
  if (!M->Dis || !M->IP) return createStringError("isa-emu: no AMDGPU disassembler/printer in LLVM");
  M->regs.resize(M->MRI->getNumRegs());
  for (unsigned R = 1; R < M->MRI->getNumRegs(); ++R) M->regs[R] = parseReg(M->MRI->getName(R));
  for (unsigned O = 0; O < M->MII->getNumOpcodes(); ++O) M->opByName[M->MII->getName(O)] = O;
  // Operand-type sanity check (the one target enum value this file relies on).
  auto It = M->opByName.find("V_ADD_F32_e64_gfx11");
  if (It == M->opByName.end() ||
      M->MII->get(It->second).operands()[1].OperandType != OperandInputMods)
    return createStringError("isa-emu: unexpected LLVM AMDGPU operand types (OPERAND_INPUT_MODS)");
  return M;
}

struct DecodeCtx {
  TargetMCs &M;
  ProgramImage &P;
  std::string where; // "kernel K, offset 0x.."
  std::set<std::string> *missing = nullptr;
};

Error opError(DecodeCtx &C, const Twine &Msg) {
  return createStringError("isa-emu: " + C.P.target + ": " + Msg + " (" + C.where + ")");
}

Expected<Opnd> convReg(DecodeCtx &C, MCRegister R, bool Dest) {
  const RegDesc &D = C.M.regs[R.id()];
  Opnd O;
  if (D.kind == OK::None)
    return opError(C, "unsupported register " + Twine(C.M.MRI->getName(R)));
  if (D.null && !Dest) { O.kind = OK::Imm; O.imm = 0; O.count = 1; return O; }
  O.kind = D.kind;
  O.reg = D.reg;
  O.count = D.count;
  O.hi = D.hi;
  O.imm = D.imm;
  return O;
}

// Operand roles of one (component) instruction from its MCInstrDesc.
Error decodeOperands(DecodeCtx &C, const MCInstrDesc &D, ArrayRef<MCOperand> Ops, Inst &I) {
  unsigned NDefs = D.getNumDefs();
  uint8_t Mods = 0;
  for (unsigned i = 0; i < Ops.size(); ++i) {
    MCOperand MO = Ops[i];
    if (MO.isExpr()) { // a forced literal, lit(0x0): a constant under a specifier
      const MCExpr *E = MO.getExpr();
      if (const auto *S = llvm::dyn_cast<llvm::MCSpecifierExpr>(E)) E = S->getSubExpr();
      int64_t V;
      if (E->evaluateAsAbsolute(V)) MO = MCOperand::createImm(V);
    }
    int Type = i < D.getNumOperands() ? D.operands()[i].OperandType : -1;
    bool Tied = i < D.getNumOperands() && D.getOperandConstraint(i, MCOI::TIED_TO) != -1;
    if (i < NDefs) {
      if (!MO.isReg()) return opError(C, "non-register destination");
      auto O = convReg(C, MO.getReg(), true);
      if (!O) return O.takeError();
      if (I.nd >= 2) return opError(C, "more than two destinations");
      I.d[I.nd++] = *O;
      continue;
    }
    if (Tied) continue;
    if (Type == OperandInputMods && MO.isImm()) { Mods = uint8_t(MO.getImm()); continue; }
    if (MO.isReg()) {
      auto O = convReg(C, MO.getReg(), false);
      if (!O) return O.takeError();
      O->mods = Mods;
      Mods = 0;
      if (I.ns >= 4) return opError(C, "more than four sources");
      I.s[I.ns++] = *O;
      continue;
    }
    if (!MO.isImm()) return opError(C, "expression operand");
    if (Type == MCOI::OPERAND_IMMEDIATE || Type == MCOI::OPERAND_PCREL || Type == MCOI::OPERAND_UNKNOWN ||
        Type < 0) {
      if (I.nc >= 8) return opError(C, "more than eight control operands");
      I.c[I.nc++] = MO.getImm();
    } else {
      Opnd O;
      O.kind = OK::Imm;
      O.imm = MO.getImm();
      O.count = 1;
      O.mods = Mods;
      Mods = 0;
      if (I.ns >= 4) return opError(C, "more than four sources");
      I.s[I.ns++] = O;
    }
  }
  return Error::success();
}

bool isVALUFamily(Family F) {
  return F == Family::VOP1 || F == Family::VOP2 || F == Family::VOP3 || F == Family::VOPC ||
         F == Family::VOP3P;
}

// Implicit VCC (carry / condition / compare result) and EXEC (v_cmpx e32 /
// gfx11 v_cmpx e64) become explicit operands of VALU instructions.
void addImplicitOperands(DecodeCtx &C, const MCInstrDesc &D, Inst &I) {
  if (!isVALUFamily(I.row->family)) return;
  bool DefVcc = false, UseVcc = false, DefExec = false;
  for (MCPhysReg R : D.implicit_defs()) {
    const RegDesc &RD = C.M.regs[R];
    if (RD.kind == OK::S && RD.reg == SVccLo) DefVcc = true;
    if (RD.kind == OK::S && RD.reg == SExecLo) DefExec = true;
  }
  for (MCPhysReg R : D.implicit_uses()) {
    const RegDesc &RD = C.M.regs[R];
    if (RD.kind == OK::S && RD.reg == SVccLo) UseVcc = true;
  }
  Opnd Vcc{OK::S, uint8_t(C.P.waveSize / 32), 0, 0, SVccLo, 0};
  Opnd Exec{OK::S, uint8_t(C.P.waveSize / 32), 0, 0, SExecLo, 0};
  if (DefVcc && I.nd < 2) I.d[I.nd++] = Vcc;
  if (UseVcc && I.ns < 4) I.s[I.ns++] = Vcc;
  if (DefExec && I.nd == 0) I.d[I.nd++] = Exec;
}

Expected<const OpRow *> rowFor(DecodeCtx &C, StringRef MCName, uint32_t &Flags) {
  std::string Base = stripSuffixes(MCName, Flags);
  const OpRow *R = findRow(Base);
  if (!R) {
    if (C.missing) {
      C.missing->insert(Base);
      return missingRow();
    }
    return opError(C, "no handler for " + Base + " (" + MCName.str() + ")");
  }
  return R;
}

// SDWA (gfx9 VOP1/VOP2/VOPC): sdwaExec selects sub-dword sources into temporary
// rows 256/257, runs the helper (destination: temporary row 258; a carry or
// compare mask is written directly) and merges the result into the
// destination per dst_sel/dst_unused.
Error makeSdwa(DecodeCtx &C, Inst &I) {
  Family F = I.row->family;
  bool Cmp = F == Family::VOPC;
  unsigned N = F == Family::VOP1 ? 3 : F == Family::VOP2 ? 4 : Cmp ? 2 : 0;
  // VOP2 carry forms (v_add_co_u32_sdwa ...) also write a lane mask (VCC) in d[1].
  bool CarryOut = F == Family::VOP2 && I.nd == 2 && I.d[1].kind == OK::S;
  if (!N || I.nc < N || (I.nd != 1 && !CarryOut) || (!Cmp && I.d[0].kind != OK::V))
    return opError(C, "SDWA form of " + Twine(I.row->name) + " is not supported");
  Inst Base = I;
  Base.nc = uint8_t(I.nc - N);
  Base.flags &= ~VSdwa;
  if (!Cmp) Base.d[0].reg = 258; // VOPC writes its mask directly
  for (unsigned k = 0; k < (F == Family::VOP1 ? 1u : 2u) && k < I.ns; ++k) {
    Base.s[k].kind = OK::V;
    Base.s[k].reg = uint16_t(256 + k);
    Base.s[k].hi = 0;
    Base.s[k].mods &= ~ModSext;
  }
  int64_t Fd[4] = {6, 0, 6, 6};
  for (unsigned k = 0; k < N; ++k) Fd[Cmp ? k + 2 : k] = I.c[I.nc - N + k];
  for (unsigned k = 0; k < 8; ++k) I.c[k] = k < 4 ? Fd[k] : 0;
  if (N == 3) I.c[3] = 6;
  I.nc = 4;
  I.aux = uint32_t(C.P.helpers.size());
  C.P.helpers.push_back(Base);
  I.fn = sdwaExec;
  return Error::success();
}

// DPP/DPP8: the instruction runs its row's handler (a helper copy whose src0
// is a temporary VGPR row) after dppExec has gathered the permuted src0.
Error makeDpp(DecodeCtx &C, Inst &I) {
  bool D8 = I.flags & VDpp8;
  unsigned N = D8 ? 2 : (C.P.gfx9 ? 4 : 5);
  if (I.nc < N || I.ns < 1 || I.s[0].kind != OK::V) return opError(C, "unexpected DPP operands");
  Inst Base = I;
  Base.nc = uint8_t(I.nc - N);
  Base.s[0].reg = 256;
  Base.s[0].hi = 0;
  Base.flags &= ~(VDpp | VDpp8);
  int64_t F[5];
  for (unsigned k = 0; k < N; ++k) F[k] = I.c[I.nc - N + k];
  for (unsigned k = 0; k < 8; ++k) I.c[k] = k < N ? F[k] : 0;
  I.nc = uint8_t(N);
  I.aux = uint32_t(C.P.helpers.size());
  C.P.helpers.push_back(Base);
  I.fn = dppExec;
  return Error::success();
}

// VOPD: V_DUAL_<X>_X_<Y> decodes into two component instructions run by the
// VOPD handler (Y reads its sources before X's result is committed).
Error decodeVOPD(DecodeCtx &C, StringRef Base, const MCInst &MI, Inst &I) {
  StringRef Rest = Base.drop_front(strlen("V_DUAL_"));
  size_t Split = Rest.find("_X_");
  if (Split == StringRef::npos) return opError(C, "malformed VOPD opcode " + Base);
  StringRef Names[2] = {Rest.substr(0, Split), Rest.substr(Split + 3)};
  unsigned Pos = 2;
  unsigned Idx[2];
  for (int h = 0; h < 2; ++h) {
    std::string Comp = ("V_" + Names[h]).str();
    unsigned Opc = 0;
    bool Found = false;
    for (const char *Suf : {"_gfx11", "_gfx12", "_e32_gfx11", "_e32_gfx12", "_gfx9", "_e32_gfx9", "_vi", "_e32_vi", ""}) {
      auto It = C.M.opByName.find(Comp + Suf);
      if (It != C.M.opByName.end()) { Opc = It->second; Found = true; break; }
    }
    if (!Found) return opError(C, "VOPD component " + Comp + " unknown to LLVM");
    const MCInstrDesc &CD = C.M.MII->get(Opc);
    SmallVector<MCOperand, 6> Ops;
    Ops.push_back(MI.getOperand(h));
    for (unsigned k = 1; k < CD.getNumOperands(); ++k) {
      if (Pos >= MI.getNumOperands()) return opError(C, "VOPD operand count mismatch in " + Base);
      Ops.push_back(MI.getOperand(Pos++));
    }
    Inst H;
    uint32_t Flags = 0;
    auto R = rowFor(C, C.M.MII->getName(Opc), Flags);
    if (!R) return R.takeError();
    H.row = *R;
    H.fn = (*R)->fn;
    H.flags = Flags;
    H.addr = I.addr;
    H.size = I.size;
    H.mcOpcode = Opc;
    if (auto E = decodeOperands(C, CD, Ops, H)) return E;
    addImplicitOperands(C, CD, H);
    Idx[h] = unsigned(C.P.helpers.size());
    C.P.helpers.push_back(H);
  }
  if (Idx[1] != Idx[0] + 1) return opError(C, "internal: VOPD halves not adjacent");
  I.aux = Idx[0];
  return Error::success();
}

} // namespace

Error decodeProgram(ProgramImage &P, ArrayRef<uint8_t> Text, uint64_t TextAddr,
                    const std::vector<std::pair<std::string, std::pair<uint64_t, uint64_t>>> &Funcs,
                    std::set<std::string> *Missing, bool StopAtUndecodable) {
  auto MOr = createTargetMC(P.target, P.waveSize);
  if (!MOr) return MOr.takeError();
  TargetMCs &M = **MOr;
  DecodeCtx C{M, P, "", Missing};
  const OpRow *VopdRow = findRow("V_DUAL");
  // StopAtUndecodable (code of unknown extent): an instruction that cannot be decoded ends the
  // function instead of failing the load.
#define STOP_OR_FAIL(ERR)                                                                          \
  {                                                                                                \
    Error Err_ = (ERR);                                                                            \
    if (!StopAtUndecodable) return Err_;                                                           \
    consumeError(std::move(Err_));                                                                 \
    break;                                                                                         \
  }
  for (auto &[Name, Range] : Funcs) {
    uint32_t FuncIdx = uint32_t(P.funcNames.size());
    P.funcNames.push_back(Name);
    for (uint64_t A = Range.first; A < Range.second;) {
      C.where = "function " + Name + ", offset 0x" + utohexstr(A - Range.first);
      if (A < TextAddr || A >= TextAddr + Text.size())
        return opError(C, "function outside .text");
      MCInst MI;
      uint64_t Size = 0;
      auto St = M.Dis->getInstruction(MI, Size, Text.slice(A - TextAddr), A, nulls());
      if (St != MCDisassembler::Success || Size == 0) {
        if (StopAtUndecodable) break;
        return opError(C, "cannot decode instruction");
      }
      Inst I;
      I.addr = P.base + A;
      I.size = uint8_t(Size);
      I.mcOpcode = MI.getOpcode();
      StringRef MCName = M.MII->getName(MI.getOpcode());
      uint32_t Flags = 0;
      std::string Base = stripSuffixes(MCName, Flags);
      I.flags = Flags;
      if (StringRef(Base).starts_with("V_DUAL_")) {
        I.row = VopdRow;
        I.fn = VopdRow->fn;
        if (auto E = decodeVOPD(C, Base, MI, I)) STOP_OR_FAIL(std::move(E));
      } else {
        auto R = rowFor(C, MCName, I.flags);
        if (!R) STOP_OR_FAIL(R.takeError());
        I.row = *R;
        I.fn = (*R)->fn;
        const MCInstrDesc &D = M.MII->get(MI.getOpcode());
        SmallVector<MCOperand, 12> Ops(MI.begin(), MI.end());
        if (auto E = decodeOperands(C, D, Ops, I)) STOP_OR_FAIL(std::move(E));
        addImplicitOperands(C, D, I);
        if (I.flags & (VDpp | VDpp8))
          if (auto E = makeDpp(C, I)) STOP_OR_FAIL(std::move(E));
        if (I.flags & VSdwa)
          if (auto E = makeSdwa(C, I)) STOP_OR_FAIL(std::move(E));
      }
      std::string S;
      raw_string_ostream OS(S);
      M.IP->printInst(&MI, A, "", *M.STI, OS);
      StringRef T = StringRef(S).trim();
      P.byAddr[I.addr] = uint32_t(P.code.size());
      P.code.push_back(I);
      P.text.push_back(T.str());
      P.func.push_back(FuncIdx);
      A += Size;
    }
  }
#undef STOP_OR_FAIL
  // Resolve branch targets (SOPP simm16: PC + 4 + 4 * simm16) and DPP bases.
  for (size_t i = 0; i < P.code.size(); ++i) {
    Inst &I = P.code[i];
    if ((I.row->family == Family::SOPP && I.nc > 0 && StringRef(I.row->name).starts_with("S_CBRANCH")) ||
        StringRef(I.row->name) == "S_BRANCH") {
      int16_t Off = int16_t(uint16_t(I.c[0]));
      uint64_t T = I.addr + 4 + int64_t(Off) * 4;
      auto It = P.byAddr.find(T);
      if (It == P.byAddr.end()) {
        C.where = "function " + P.funcNames[P.func[i]] + ", " + P.text[i];
        return opError(C, "branch target 0x" + utohexstr(T - P.base) + " is not an instruction");
      }
      I.target = It->second;
    }
  }
  return Error::success();
}

} // namespace isaemu::detail
