//===- ParserTest.cpp - unit tests of the PTX front end -------------------===//
//
// Checks the IR built for hand-written PTX covering the constructs nvcc and
// inline asm produce (register ranges, scoped blocks, vectors, every address
// form, pairs, special registers, float bit literals, initializers with
// generic() and function addresses, debug sections, .loc attributes,
// call prototypes), the name tables, the instruction table's consistency,
// the printer round trip, and real nvcc output committed under data/.
//
//===----------------------------------------------------------------------===//
#include "Internal.h"
#include "ptx/Parser.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace ptx;

namespace {

std::string readFile(const std::filesystem::path &p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

ParseResult parseOk(const std::string &src) {
  ParseResult r = parse(src, "t.ptx");
  EXPECT_TRUE(r.ok()) << r.diags.render("t.ptx", src);
  return r;
}

const char *kHeader = ".version 9.0\n.target sm_90\n.address_size 64\n";

TEST(Names, TablesRoundTrip) {
  for (int i = 1;; ++i) {
    auto t = Type(i);
    auto n = typeName(t);
    if (n.empty()) break;
    ASSERT_EQ(typeFromName(n), t) << n;
  }
  EXPECT_EQ(typeBits(Type::F16x2), 32u);
  EXPECT_EQ(typeBits(Type::Pred), 1u);
  for (size_t i = 1; i < detail::numOpcodes(); ++i) {
    auto n = opcodeName(Opcode(i));
    ASSERT_FALSE(n.empty());
    ASSERT_EQ(opcodeFromName(n), Opcode(i)) << n;
  }
  for (size_t i = 1; i < detail::numMods(); ++i) {
    auto n = modName(Mod(i));
    ASSERT_FALSE(n.empty());
    ASSERT_EQ(modFromName(n), Mod(i)) << "duplicate modifier spelling " << n;
    ASSERT_FALSE(typeFromName(n).has_value()) << "modifier spelling is also a type: " << n;
  }
  EXPECT_EQ(modFromName("L2::cache_hint"), Mod::L2CacheHint);
  EXPECT_EQ(modFromName("shared::cluster"), Mod::SharedCluster);
  EXPECT_FALSE(modFromName("bogus").has_value());
  EXPECT_EQ(spaceName(Space::SharedCluster), "shared::cluster");
}

TEST(InstrTable, ConsistentWithDefFiles) {
  auto problems = detail::instrTableProblems();
  for (const auto &p : problems) ADD_FAILURE() << p;
}

TEST(Module, HeaderAndSmVersion) {
  auto r = parseOk(".version 8.7\n.target sm_90a, debug\n.address_size 64\n");
  EXPECT_EQ(r.module->versionMajor, 8u);
  EXPECT_EQ(r.module->versionMinor, 7u);
  ASSERT_EQ(r.module->target.size(), 2u);
  EXPECT_EQ(r.module->target[1], "debug");
  EXPECT_EQ(r.module->smVersion(), 90u);
}

TEST(Module, GlobalsAndInitializers) {
  std::string src = std::string(kHeader) +
                    ".func (.param .b32 r) f(.param .b32 a);\n"
                    ".global .align 4 .u32 counter;\n"
                    ".global .attribute(.managed) .align 8 .f64 mv = 0d3FF0000000000000;\n"
                    ".global .align 8 .u64 tbl[2] = {f, f};\n"
                    ".global .align 8 .u64 gp = generic(counter)+4;\n"
                    ".const .align 4 .b8 c[2][3] = {{1, 2, 3}, {4, 5, -6}};\n"
                    ".extern .shared .align 16 .b8 dyn[];\n"
                    ".global .v4 .f32 vv;\n";
  auto r = parseOk(src);
  const auto &g = r.module->globals;
  ASSERT_EQ(g.size(), 7u);
  EXPECT_EQ(g[0].space, Space::Global);
  EXPECT_EQ(g[0].sizeInBytes(), 4u);
  EXPECT_TRUE(g[1].managed);
  ASSERT_TRUE(g[1].init);
  EXPECT_EQ(g[1].init->kind, InitExpr::Kind::Float);
  EXPECT_EQ(uint64_t(g[1].init->value), 0x3FF0000000000000ull);
  ASSERT_TRUE(g[2].init);
  ASSERT_EQ(g[2].init->elems.size(), 2u);
  EXPECT_EQ(g[2].init->elems[1].kind, InitExpr::Kind::Sym);
  EXPECT_EQ(g[2].init->elems[1].name, "f");
  EXPECT_EQ(g[3].init->kind, InitExpr::Kind::GenericSym);
  EXPECT_EQ(g[3].init->name, "counter");
  EXPECT_EQ(g[3].init->offset, 4);
  EXPECT_EQ(g[4].dims, (std::vector<uint64_t>{2, 3}));
  EXPECT_EQ(g[4].sizeInBytes(), 6u);
  EXPECT_EQ(g[4].init->elems[1].elems[2].value, -6);
  EXPECT_EQ(g[5].linkage, Linkage::Extern);
  EXPECT_EQ(g[5].dims, (std::vector<uint64_t>{0}));
  EXPECT_EQ(g[5].sizeInBytes(), 0u);
  EXPECT_EQ(g[5].align, 16u);
  EXPECT_EQ(g[6].vecWidth, 4);
  EXPECT_EQ(g[6].sizeInBytes(), 16u);
}

TEST(Function, ParamsPerfAndRegisters) {
  std::string src = std::string(kHeader) +
                    ".visible .entry k(\n"
                    "  .param .u64 .ptr .global .align 16 k_p0,\n"
                    "  .param .align 8 .b8 k_p1[56],\n"
                    "  .param .u32 k_p2)\n"
                    ".maxntid 256, 1, 1\n.minnctapersm 2\n.reqnctapercluster 2\n.maxnreg 64\n"
                    "{\n"
                    "  .reg .pred %p<3>;\n  .reg .b32 %r<10>;\n  .reg .b64 %rd<4>;\n  .reg .f32 %f1;\n"
                    "  .shared .align 4 .b8 tile[128];\n"
                    "  ld.param.u64 %rd1, [k_p0];\n"
                    "  ld.param.f64 %rd2, [k_p1+24];\n"
                    "  mov.u32 %r1, %tid.x;\n"
                    "  mov.u32 %r2, %envreg3;\n"
                    "  setp.lt.s32 %p1|%p2, %r1, 5;\n"
                    "  @!%p1 bra $L__BB0_2;\n"
                    "  ld.global.nc.v4.f32 {%f1, _, %f1, %f1}, [%rd1+-16];\n"
                    "  st.shared.u32 [tile+8], %r1;\n"
                    "  mov.b32 %f1, 0f3F800000;\n"
                    "  ld.shared.u32 %r3, [1024];\n"
                    "$L__BB0_2:\n"
                    "  ret;\n"
                    "}\n";
  auto r = parseOk(src);
  ASSERT_EQ(r.module->functions.size(), 1u);
  const Function &f = r.module->functions[0];
  EXPECT_TRUE(f.isEntry);
  EXPECT_EQ(f.linkage, Linkage::Visible);
  ASSERT_EQ(f.params.size(), 3u);
  EXPECT_TRUE(f.params[0].ptr);
  EXPECT_EQ(f.params[0].ptrSpace, Space::Global);
  EXPECT_EQ(f.params[0].ptrAlign, 16u);
  EXPECT_EQ(f.params[1].align, 8u);
  EXPECT_EQ(f.params[1].sizeInBytes(), 56u);
  EXPECT_EQ(f.perf.maxntid, (std::vector<uint32_t>{256, 1, 1}));
  EXPECT_EQ(f.perf.minnctapersm, 2u);
  EXPECT_EQ(f.perf.reqnctapercluster, (std::vector<uint32_t>{2}));
  EXPECT_EQ(f.perf.maxnreg, 64u);
  ASSERT_EQ(f.locals.size(), 1u);
  EXPECT_EQ(f.locals[0].space, Space::Shared);
  ASSERT_EQ(f.instrs.size(), 11u);

  const Instruction &ld = f.instrs[1];
  EXPECT_EQ(ld.op, Opcode::Ld);
  EXPECT_EQ(ld.space, Space::Param);
  ASSERT_EQ(ld.operands[1].kind, Operand::Kind::Addr);
  EXPECT_EQ(ld.operands[1].elems[0].kind, Operand::Kind::Sym);
  EXPECT_EQ(ld.operands[1].offset, 24);

  const Instruction &mv = f.instrs[2];
  EXPECT_EQ(mv.operands[1].kind, Operand::Kind::SReg);
  EXPECT_EQ(mv.operands[1].sreg, SReg::Tid);
  EXPECT_EQ(mv.operands[1].sregIndex, 0);
  EXPECT_EQ(f.instrs[3].operands[1].sreg, SReg::Envreg);
  EXPECT_EQ(f.instrs[3].operands[1].sregIndex, 3);

  const Instruction &sp = f.instrs[4];
  EXPECT_EQ(sp.types, (std::vector<Type>{Type::S32}));
  EXPECT_TRUE(sp.has(Mod::Lt));
  ASSERT_EQ(sp.operands[0].kind, Operand::Kind::Pair);
  EXPECT_EQ(f.regs[sp.operands[0].elems[1].reg].name, "%p2");
  EXPECT_EQ(sp.operands[2].kind, Operand::Kind::Imm);
  EXPECT_EQ(sp.operands[2].imm, 5);

  const Instruction &br = f.instrs[5];
  ASSERT_TRUE(br.guard);
  EXPECT_TRUE(br.guard->negated);
  EXPECT_EQ(f.regs[br.guard->reg].type, Type::Pred);
  EXPECT_EQ(br.operands[0].kind, Operand::Kind::Sym);

  const Instruction &v = f.instrs[6];
  EXPECT_EQ(v.vecWidth, 4);
  EXPECT_EQ(v.space, Space::Global);
  EXPECT_TRUE(v.has(Mod::Nc));
  ASSERT_EQ(v.operands[0].kind, Operand::Kind::Vec);
  EXPECT_EQ(v.operands[0].elems[1].kind, Operand::Kind::Sink);
  EXPECT_EQ(v.operands[1].offset, -16);
  EXPECT_EQ(f.regs[v.operands[1].elems[0].reg].name, "%rd1");

  EXPECT_EQ(f.instrs[7].operands[0].offset, 8);
  EXPECT_EQ(f.instrs[8].operands[1].kind, Operand::Kind::FImm);
  EXPECT_EQ(f.instrs[8].operands[1].fbits, 32);
  EXPECT_EQ(uint64_t(f.instrs[8].operands[1].imm), 0x3F800000u);
  EXPECT_TRUE(f.instrs[9].operands[1].elems.empty());
  EXPECT_EQ(f.instrs[9].operands[1].offset, 1024);
}

TEST(Function, ScopedBlocksGetDistinctRegisters) {
  std::string src = std::string(kHeader) +
                    ".visible .entry k()\n{\n  .reg .b32 %r<3>;\n"
                    "  { .reg .b32 %temp; mov.u32 %temp, %laneid; mov.u32 %r1, %temp; }\n"
                    "  { .reg .b32 %temp; .reg .pred p; mov.u32 %temp, 1; setp.ne.s32 p, %temp, 0;\n"
                    "    @p mov.u32 %r2, %temp; }\n"
                    "  ret;\n}\n";
  auto r = parseOk(src);
  const Function &f = r.module->functions[0];
  RegId a = f.instrs[0].operands[0].reg, b = f.instrs[2].operands[0].reg;
  EXPECT_NE(a, b);
  EXPECT_EQ(f.regs[a].name, "%temp");
  EXPECT_EQ(f.regs[b].name, "%temp");
  EXPECT_EQ(f.regs[f.instrs[4].guard->reg].type, Type::Pred);
  int begins = 0, ends = 0;
  for (auto &s : f.body) {
    begins += s.kind == Statement::Kind::BlockBegin;
    ends += s.kind == Statement::Kind::BlockEnd;
  }
  EXPECT_EQ(begins, 2);
  EXPECT_EQ(ends, 2);
}

TEST(Instruction, ModifiersInAnyOrder) {
  std::string src = std::string(kHeader) +
                    ".visible .entry k()\n{\n  .reg .b32 %r<4>;\n  .reg .pred %p<2>;\n"
                    "  vote.ballot.sync.b32 %r1, %p1, -1;\n"
                    "  vote.sync.ballot.b32 %r2, %p1, -1;\n"
                    "  ld.global.relaxed.gpu.u32 %r3, [%r1];\n"
                    "  ld.relaxed.gpu.global.u32 %r3, [%r1];\n"
                    "  ret;\n}\n";
  auto r = parseOk(src);
  const Function &f = r.module->functions[0];
  EXPECT_TRUE(f.instrs[0].has(Mod::Ballot) && f.instrs[0].has(Mod::Sync));
  EXPECT_TRUE(f.instrs[1].has(Mod::Ballot) && f.instrs[1].has(Mod::Sync));
  EXPECT_EQ(f.instrs[0].mods[0].mod, Mod::Ballot); // source order kept
  EXPECT_EQ(f.instrs[1].mods[0].mod, Mod::Sync);
  EXPECT_EQ(f.instrs[2].space, Space::Global);
  EXPECT_EQ(f.instrs[3].space, Space::Global);
}

TEST(Function, CallsPrototypesAndTargets) {
  std::string src = std::string(kHeader) +
                    ".func (.param .b32 r) f(.param .b32 a)\n{\n  .reg .b32 %r<2>;\n"
                    "  ld.param.b32 %r1, [a];\n  st.param.b32 [r+0], %r1;\n  ret;\n}\n"
                    ".visible .entry k(.param .u64 k_p)\n{\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<3>;\n"
                    "  mov.u64 %rd1, f;\n"
                    "  { // callseq 0, 0\n  .param .b32 param0;\n  st.param.b32 [param0+0], %r1;\n"
                    "  .param .b32 retval0;\n"
                    "  prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
                    "  call (retval0), %rd1, (param0), prototype_0;\n"
                    "  call.uni (retval0), f, (param0);\n"
                    "  ld.param.b32 %r2, [retval0+0];\n  }\n"
                    "  ts: .branchtargets L1, L2;\n"
                    "  brx.idx %r2, ts;\n"
                    "L1:\n  ret;\nL2:\n  ret;\n}\n";
  auto r = parseOk(src);
  const Function &k = r.module->functions[1];
  ASSERT_EQ(k.targetLists.size(), 2u);
  EXPECT_EQ(k.targetLists[0].kind, TargetList::Kind::CallPrototype);
  EXPECT_EQ(k.targetLists[0].name, "prototype_0");
  EXPECT_EQ(k.targetLists[0].results.size(), 1u);
  EXPECT_EQ(k.targetLists[0].params.size(), 1u);
  EXPECT_EQ(k.targetLists[1].kind, TargetList::Kind::BranchTargets);
  EXPECT_EQ(k.targetLists[1].targets, (std::vector<std::string>{"L1", "L2"}));
  const Instruction &call = k.instrs[2];
  EXPECT_EQ(call.op, Opcode::Call);
  ASSERT_EQ(call.operands.size(), 4u);
  EXPECT_EQ(call.operands[0].kind, Operand::Kind::List);
  EXPECT_EQ(call.operands[1].kind, Operand::Kind::Reg);
  EXPECT_EQ(call.operands[3].kind, Operand::Kind::Sym);
  EXPECT_TRUE(k.instrs[3].has(Mod::Uni));
}

TEST(Module, DebugSectionsFilesAndLoc) {
  std::string src = std::string(".version 9.0\n.target sm_90, debug\n.address_size 64\n") +
                    ".visible .func f()\n{\n"
                    "  .loc 1 9 0\n$L__func_begin0:\n"
                    "  .loc 2 440 9, function_name $L__info_string0, inlined_at 1 18 5\n"
                    "  ret;\n$L__func_end0:\n}\n"
                    ".file 1 \"/tmp/a.cu\"\n.file 2 \"/x/b.h\", 1700000000, 1234\n"
                    ".section .debug_str\n{\n$L__info_string0:\n.b8 95,90,0\n}\n"
                    ".section .debug_info\n{\n.b32 1699\n.b32 .debug_abbrev\n.b64 $L__func_begin0\n"
                    ".b32 $L__func_end0-$L__func_begin0\n.b64 f+8\n}\n";
  auto r = parseOk(src);
  const Module &m = *r.module;
  ASSERT_EQ(m.files.size(), 2u);
  EXPECT_EQ(m.files[0].path, "/tmp/a.cu");
  EXPECT_EQ(m.files[1].timestamp, 1700000000u);
  ASSERT_EQ(m.functions[0].locs.size(), 2u);
  EXPECT_EQ(m.functions[0].locs[1].line, 440u);
  EXPECT_EQ(m.functions[0].locs[1].extra, ", function_name $L__info_string0, inlined_at 1 18 5");
  ASSERT_EQ(m.sections.size(), 2u);
  EXPECT_EQ(m.sections[0].lines[0].raw, "$L__info_string0:");
  EXPECT_EQ(m.sections[0].lines[1].values.size(), 3u);
  const auto &di = m.sections[1].lines;
  EXPECT_EQ(di[0].type, Type::B32);
  EXPECT_EQ(di[0].values[0].value, 1699);
  EXPECT_EQ(di[1].values[0].name, ".debug_abbrev");
  EXPECT_EQ(di[3].values[0].name, "$L__func_end0-$L__func_begin0");
  EXPECT_EQ(di[4].values[0].name, "f");
  EXPECT_EQ(di[4].values[0].offset, 8);
}

TEST(Printer, RoundTripsHandWrittenModule) {
  std::string src = std::string(kHeader) +
                    ".global .align 8 .u64 gp = generic(gv)+4;\n.global .u32 gv;\n"
                    ".visible .entry k(.param .u64 k_p)\n.reqntid 32\n{\n  .reg .b32 %r<4>;\n"
                    "  .reg .pred %p<2>;\n  mov.u32 %r1, -7;\n  setp.ne.s32 %p1|%p0, %r1, 0;\n"
                    "  @%p1 add.s32 %r2, %r1, 0x10;\n  .pragma \"nounroll\";\n  ret;\n}\n";
  auto r = parseOk(src);
  std::string printed = print(*r.module);
  auto r2 = parse(printed, "printed.ptx");
  ASSERT_TRUE(r2.ok()) << r2.diags.render("printed.ptx", printed) << printed;
  std::string why;
  EXPECT_TRUE(structurallyEqual(*r.module, *r2.module, &why)) << why << "\n" << printed;
  // And the comparison does notice a change.
  r2.module->functions[0].instrs[0].operands[1].imm = 7;
  EXPECT_FALSE(structurallyEqual(*r.module, *r2.module, &why));
  EXPECT_NE(why.find("imm"), std::string::npos) << why;
}

// sm_90 packed integer min/max and the 2-bit cvt.pack forms: parsed, printed and re-parsed to
// the same module; the packed types are rejected outside min/max, .relu on .u16x2.
TEST(Printer, RoundTripsPackedIntegerForms) {
  std::string src = std::string(kHeader) +
                    ".visible .entry k()\n{\n  .reg .b32 %r<8>;\n"
                    "  min.u16x2 %r1, %r2, %r3;\n  max.relu.s16x2 %r4, %r2, %r3;\n"
                    "  cvt.pack.sat.u2.s32.b32 %r5, %r1, %r2, %r3;\n  cvt.pack.sat.s2.s32.b32 %r6, %r1, %r2, %r5;\n"
                    "  ret;\n}\n";
  auto r = parseOk(src);
  ASSERT_EQ(r.module->functions[0].instrs[0].type(0), Type::U16x2);
  ASSERT_EQ(r.module->functions[0].instrs[1].type(0), Type::S16x2);
  std::string printed = print(*r.module);
  EXPECT_NE(printed.find("max.relu.s16x2"), std::string::npos) << printed;
  EXPECT_NE(printed.find("cvt.pack.sat.s2.s32.b32"), std::string::npos) << printed;
  auto r2 = parse(printed, "printed.ptx");
  ASSERT_TRUE(r2.ok()) << r2.diags.render("printed.ptx", printed) << printed;
  std::string why;
  EXPECT_TRUE(structurallyEqual(*r.module, *r2.module, &why)) << why << "\n" << printed;
  // add.{u16x2,s16x2} exist on sm_90 (nvcc 13 emits them for __vadd2), without .sat.
  parseOk(std::string(kHeader) + ".visible .entry k()\n{\n  .reg .b32 %r<4>;\n  add.u16x2 %r1, %r2, %r3;\n  ret;\n}\n");
  for (const char *bad : {"add.sat.u16x2 %r1, %r2, %r3;", "min.relu.u16x2 %r1, %r2, %r3;"}) {
    std::string b = std::string(kHeader) + ".visible .entry k()\n{\n  .reg .b32 %r<4>;\n  " + bad + "\n  ret;\n}\n";
    EXPECT_FALSE(parse(b, "bad.ptx").ok()) << bad;
  }
}

TEST(Diagnostics, RenderHasLineAndCaret) {
  std::string src = "line one\n\tbad here\n";
  DiagnosticList d;
  d.error({2, 6}, "something wrong");
  EXPECT_EQ(d.render("f.ptx", src), "f.ptx:2:6: error: something wrong\n\tbad here\n\t    ^\n");
}

// Diagnostics carry a kind (support::ErrorKind): unimplemented PTX constructs
// are Unsupported, everything else the front end rejects is InvalidInput.
TEST(Diagnostics, KindsSayWhatHappened) {
  std::string src = std::string(kHeader) + ".global .attribute(.bogus) .u32 x;\n"
                    ".visible .entry k()\n{\n\t.reg .b32 \t%r<2>;\n\tmov.u32 \t%r1, %r9;\n\tret;\n}\n";
  auto r = parse(src, "k.ptx");
  ASSERT_EQ(r.diags.all().size(), 2u) << r.diags.render("k.ptx", src);
  EXPECT_EQ(r.diags.all()[0].kind, support::ErrorKind::Unsupported);
  EXPECT_EQ(r.diags.all()[1].kind, support::ErrorKind::InvalidInput);
  // The caret of the tab-indented line keeps its tabs.
  EXPECT_NE(r.diags.render("k.ptx", src).find("\tmov.u32 \t%r1, %r9;\n\t        \t     ^\n"), std::string::npos)
      << r.diags.render("k.ptx", src);
}

// Real nvcc output committed under data/ (generated from snippets/*.cu with
// nvcc 13.0): every file parses without errors and round-trips.
TEST(RealPtx, CommittedNvccOutputParsesAndRoundTrips) {
  int n = 0;
  for (const auto &e : std::filesystem::directory_iterator(PTX_TEST_DATA_DIR)) {
    if (e.path().extension() != ".ptx") continue;
    ++n;
    std::string text = readFile(e.path());
    auto r = parse(text, e.path().string());
    ASSERT_TRUE(r.ok()) << r.diags.render(e.path().string(), text);
    std::string printed = print(*r.module);
    auto r2 = parse(printed, "printed");
    ASSERT_TRUE(r2.ok()) << e.path() << "\n" << r2.diags.render("printed", printed);
    std::string why;
    EXPECT_TRUE(structurallyEqual(*r.module, *r2.module, &why)) << e.path() << ": " << why;
  }
  EXPECT_GE(n, 5);
}

TEST(RealPtx, ConstructsSeenInNvccOutput) {
  auto path = std::filesystem::path(PTX_TEST_DATA_DIR) / "misc_kernel_sm90.ptx";
  std::string text = readFile(path);
  auto r = parse(text, path.string());
  ASSERT_TRUE(r.ok());
  const Module &m = *r.module;
  bool managed = false, fnInit = false, generic = false;
  for (const auto &g : m.globals) {
    managed |= g.managed;
    if (g.init && g.init->kind == InitExpr::Kind::List && !g.init->elems.empty() &&
        g.init->elems[0].kind == InitExpr::Kind::Sym)
      fnInit = true;
    generic |= g.init && g.init->kind == InitExpr::Kind::GenericSym;
  }
  EXPECT_TRUE(managed);
  EXPECT_TRUE(fnInit);
  EXPECT_TRUE(generic);
  bool proto = false, blocks = false, pair = false;
  for (const auto &f : m.functions) {
    for (const auto &t : f.targetLists) proto |= t.kind == TargetList::Kind::CallPrototype;
    for (const auto &s : f.body) blocks |= s.kind == Statement::Kind::BlockBegin;
    for (const auto &i : f.instrs)
      for (const auto &o : i.operands) pair |= o.kind == Operand::Kind::Pair;
  }
  EXPECT_TRUE(proto);
  EXPECT_TRUE(blocks);
  EXPECT_TRUE(pair);
}

} // namespace
