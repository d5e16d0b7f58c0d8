//===- SupportTest.cpp - support/: renderer, typed errors, contract ---------===//
//
// The renderer's exact output (caret under the column on tab-indented lines,
// missing lines, unknown positions), the error kinds and their survival
// through ErrorList, the stage timer, the warp-policy spec parser and the
// wave-size rule of the target table.
//
//===----------------------------------------------------------------------===//
#include "support/Contract.h"
#include "support/Diagnostic.h"
#include "support/Error.h"
#include "support/ExitStatus.h"
#include "support/StageTimer.h"

#include <gtest/gtest.h>

using namespace support;

TEST(Render, LocationSeverityMessage) {
  EXPECT_EQ(render({Severity::Error, "f.ptx", 3, 7, "bad thing"}), "f.ptx:3:7: error: bad thing\n");
  EXPECT_EQ(render({Severity::Warning, "f.ptx", 0, 0, "w"}), "f.ptx: warning: w\n");
  EXPECT_EQ(render({Severity::Note, "", 0, 0, "n"}), "note: n\n");
}

TEST(Render, CaretOnPlainLine) {
  std::string src = "a\n  add.s32 %r1;\n";
  EXPECT_EQ(render({Severity::Error, "f", 2, 3, "m"}, src), "f:2:3: error: m\n  add.s32 %r1;\n  ^\n");
}

TEST(Render, CaretKeepsTabsSoItAlignsOnTabIndentedLines) {
  // Column 5 is 'd' of "\tadd.s32": tab (col 1), 'a' 2, 'd' 3... use a two-tab line.
  std::string src = ".entry k()\n\t\tmov.u32 \t%r1, %r2;\n";
  // col 12 is the '%' after "\t\tmov.u32 \t" (2 tabs + 7 chars + space + tab = 11 bytes).
  EXPECT_EQ(render({Severity::Error, "k.ptx", 2, 12, "m"}, src),
            "k.ptx:2:12: error: m\n\t\tmov.u32 \t%r1, %r2;\n\t\t        \t^\n");
}

TEST(Render, MissingLineAndCRLF) {
  EXPECT_EQ(render({Severity::Error, "f", 9, 1, "m"}, "one\n"), "f:9:1: error: m\n");
  // End of file after the last newline: an empty excerpt line and a caret.
  EXPECT_EQ(render({Severity::Error, "f", 2, 1, "eof"}, "one\n"), "f:2:1: error: eof\n\n^\n");
  EXPECT_EQ(render({Severity::Error, "f", 1, 2, "m"}, "ab\r\n"), "f:1:2: error: m\nab\n ^\n");
  // Column past the end: caret right after the text.
  EXPECT_EQ(render({Severity::Error, "f", 1, 9, "m"}, "ab"), "f:1:9: error: m\nab\n  ^\n");
}

TEST(Errors, KindsAndPayloads) {
  llvm::Error e = unsupported("ptx-to-llvm", "tcgen05.mma", at("k.ptx", 4, 2, "unsupported instruction 'tcgen05.mma'"));
  EXPECT_TRUE(e.isA<UnsupportedError>());
  EXPECT_TRUE(e.isA<DiagError>());
  EXPECT_EQ(errorKind(e), ErrorKind::Unsupported);
  bool seen = false;
  llvm::handleAllErrors(std::move(e), [&](const UnsupportedError &u) {
    seen = true;
    EXPECT_EQ(u.stage(), "ptx-to-llvm");
    EXPECT_EQ(u.construct(), "tcgen05.mma");
    EXPECT_EQ(u.diagnostic().line, 4u);
  });
  EXPECT_TRUE(seen);

  llvm::Error f = deviceFault(FaultKind::Assert, noLoc("device assertion failed"));
  EXPECT_EQ(errorKind(f), ErrorKind::DeviceFault);
  llvm::handleAllErrors(std::move(f), [&](const DeviceFaultError &d) { EXPECT_EQ(d.fault(), FaultKind::Assert); });

  llvm::Error io = ioError("/no/such", std::make_error_code(std::errc::no_such_file_or_directory), "cannot open");
  EXPECT_EQ(errorKind(io), ErrorKind::IO);
  EXPECT_EQ(llvm::errorToErrorCode(std::move(io)), std::errc::no_such_file_or_directory);

  llvm::Error bad = invalidInput(noLoc("bad wrapper magic"), "wrapper magic", 16);
  llvm::handleAllErrors(std::move(bad), [&](const InvalidInputError &i) {
    EXPECT_EQ(i.field(), "wrapper magic");
    EXPECT_EQ(i.offset(), 16u);
  });
  llvm::Error plain = llvm::createStringError("plain");
  EXPECT_EQ(errorKind(plain), ErrorKind::Generic);
  EXPECT_FALSE(hasKind(plain, ErrorKind::Unsupported));
  llvm::consumeError(std::move(plain));
}

TEST(Errors, ListKeepsEveryTypedErrorInOrder) {
  std::vector<llvm::Error> v;
  v.push_back(contractViolation(at("m.ll", 0, 0, "missing attribute")));
  v.push_back(unsupported("emu", "i256", at("m.ll", 2, 1, "unsupported type 'i256'")));
  v.push_back(llvm::createStringError("foreign"));
  llvm::Error all = joinAll(std::move(v));
  EXPECT_EQ(errorKind(all), ErrorKind::ContractViolation);
  EXPECT_TRUE(hasKind(all, ErrorKind::Unsupported));
  EXPECT_FALSE(hasKind(all, ErrorKind::DeviceFault));
  std::vector<Diagnostic> d = takeDiagnostics(std::move(all), "dflt");
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].kind, ErrorKind::ContractViolation);
  EXPECT_EQ(d[1].kind, ErrorKind::Unsupported);
  EXPECT_EQ(d[1].line, 2u);
  EXPECT_EQ(d[2].kind, ErrorKind::Generic);
  EXPECT_EQ(d[2].file, "dflt");
  EXPECT_EQ(d[2].message, "foreign");
  EXPECT_TRUE(takeDiagnostics(joinAll({})).empty());
}

TEST(Errors, DiagnosticsBecomeTypedErrorsAndBack) {
  std::vector<Diagnostic> diags = {
      {Severity::Warning, "p.ptx", 1, 1, "only a warning", ErrorKind::Generic},
      {Severity::Error, "p.ptx", 2, 3, "bad operand", ErrorKind::InvalidInput},
      {Severity::Error, "p.ptx", 4, 5, "no such thing", ErrorKind::Unsupported},
  };
  llvm::Error e = errorOf(diags);
  EXPECT_EQ(errorKind(e), ErrorKind::InvalidInput);
  EXPECT_TRUE(hasKind(e, ErrorKind::Unsupported));
  // Copied without consuming: the Error still holds both, in order.
  std::vector<Diagnostic> copy;
  copyDiagnostics(e, copy);
  ASSERT_EQ(copy.size(), 2u);
  EXPECT_EQ(copy[1].line, 4u);
  EXPECT_EQ(renderLines(e, 1, "  "), "  p.ptx:2:3: error: bad operand\n  ... 1 more errors");
  EXPECT_EQ(renderLines(e), "p.ptx:2:3: error: bad operand\np.ptx:4:5: error: no such thing");
  std::vector<Diagnostic> back = takeDiagnostics(std::move(e));
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].kind, ErrorKind::InvalidInput);
  EXPECT_EQ(back[1].kind, ErrorKind::Unsupported);
  EXPECT_FALSE(errorOf(std::span<const Diagnostic>(diags).first(1))); // warnings only: success
}

// An unsupported construct keeps its stage and construct through every
// form: typed error -> diagnostics -> typed error (an UnsupportedError again).
TEST(Errors, UnsupportedStageAndConstructSurviveFlattening) {
  llvm::Error e = unsupported("ptx-to-llvm", "tex.grad", at("t.ptx", 7, 3, "unsupported instruction 'tex.grad'"));
  std::vector<Diagnostic> copy;
  copyDiagnostics(e, copy);
  ASSERT_EQ(copy.size(), 1u);
  EXPECT_EQ(copy[0].stage, "ptx-to-llvm");
  EXPECT_EQ(copy[0].construct, "tex.grad");
  std::vector<Diagnostic> d = takeDiagnostics(std::move(e));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].kind, ErrorKind::Unsupported);
  EXPECT_EQ(d[0].stage, "ptx-to-llvm");
  EXPECT_EQ(d[0].construct, "tex.grad");
  llvm::Error back = errorOf(d);
  bool seen = false;
  llvm::handleAllErrors(std::move(back), [&](const UnsupportedError &u) {
    seen = true;
    EXPECT_EQ(u.stage(), "ptx-to-llvm");
    EXPECT_EQ(u.construct(), "tex.grad");
    EXPECT_EQ(u.diagnostic().line, 7u);
  });
  EXPECT_TRUE(seen);
}

// The exit status a tool reports for each kind (support/ExitStatus.h).
TEST(ExitStatus, ByKindAndWorstWins) {
  EXPECT_EQ(exitStatusFor(ErrorKind::Unsupported), ExitStatus::Unsupported);
  EXPECT_EQ(exitStatusFor(ErrorKind::InvalidInput), ExitStatus::Input);
  EXPECT_EQ(exitStatusFor(ErrorKind::ResourceLimit), ExitStatus::Input);
  EXPECT_EQ(exitStatusFor(ErrorKind::Internal), ExitStatus::Internal);
  EXPECT_EQ(exitStatusFor(ErrorKind::IO), ExitStatus::Internal);
  std::vector<Diagnostic> onlyUnsupported = {{Severity::Warning, "", 0, 0, "w", ErrorKind::Internal},
                                             {Severity::Error, "", 0, 0, "u", ErrorKind::Unsupported}};
  EXPECT_EQ(exitStatusOf(onlyUnsupported), ExitStatus::Unsupported); // warnings do not count
  onlyUnsupported.push_back({Severity::Error, "", 0, 0, "bad", ErrorKind::InvalidInput});
  EXPECT_EQ(exitStatusOf(onlyUnsupported), ExitStatus::Input);
  EXPECT_EQ(exitStatusOf({}), ExitStatus::Internal); // a failure nobody explained
  EXPECT_EQ(exitCode(ExitStatus::Usage), 2);
  EXPECT_NE(exitStatusHelp().find("3  the input uses constructs"), std::string::npos);
}

TEST(Errors, MessageIsTheRenderedDiagnostic) {
  EXPECT_EQ(llvm::toString(resourceLimit(at("k.ptx", 1, 2, "too many registers"))),
            "k.ptx:1:2: error: too many registers");
  EXPECT_EQ(llvm::toString(resourceLimit(noLoc("too many registers"))), "too many registers");
}

TEST(StageTimer, RecordsOnceWhenGivenAList) {
  std::vector<StageTime> t;
  {
    StageTimer a(&t, "parse");
    StageTimer b(nullptr, "ignored");
  }
  StageTimer c(&t, "translate");
  c.stop();
  c.stop();
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].stage, "parse");
  EXPECT_EQ(t[1].stage, "translate");
  EXPECT_GE(t[0].seconds, 0.0);
}

TEST(Contract, WarpPolicySpecGrammar) {
  WarpPolicySpec s;
  ASSERT_FALSE(llvm::errorToBool(parseWarpPolicySpec("pad,_Z4scanPi=pack,k2=pad", s)));
  EXPECT_EQ(s.module, WarpPolicy::Pad);
  ASSERT_EQ(s.kernels.size(), 2u);
  EXPECT_EQ(s.kernels[0].first, "_Z4scanPi");
  EXPECT_EQ(s.kernels[0].second, WarpPolicy::Pack);
  EXPECT_EQ(s.kernels[1].second, WarpPolicy::Pad);
  WarpPolicySpec t;
  ASSERT_FALSE(llvm::errorToBool(parseWarpPolicySpec("pack", t)));
  EXPECT_EQ(t.module, WarpPolicy::Pack);
  EXPECT_TRUE(t.kernels.empty());
  for (const char *bad : {"", "native", "pa", "=pad", "k=", "pad,", ",pad", "k=wide"}) {
    WarpPolicySpec u;
    llvm::Error e = parseWarpPolicySpec(bad, u, "PTX2AMD_WARP_POLICY");
    EXPECT_EQ(errorKind(e), ErrorKind::InvalidInput) << bad;
    std::string msg = llvm::toString(std::move(e));
    EXPECT_EQ(msg.rfind("PTX2AMD_WARP_POLICY: ", 0), 0u) << msg;
  }
  EXPECT_EQ(warpPolicyName(WarpPolicy::Native), "native");
}

TEST(Contract, TargetsAndWaveSizes) {
  EXPECT_EQ(supportedTargets().size(), 17u);
  for (const TargetInfo &t : supportedTargets()) {
    bool gfx9 = t.name.substr(0, 4) == "gfx9";
    EXPECT_EQ(t.waveSize, gfx9 ? 64u : 32u) << t.name;
    EXPECT_EQ(t.generic, t.name.find("generic") != std::string_view::npos) << t.name;
    EXPECT_EQ(findTarget(t.name), &t);
  }
  ASSERT_NE(findTarget(kDefaultTarget), nullptr);
  EXPECT_EQ(findTarget(kDefaultTarget)->waveSize, 32u);
  EXPECT_EQ(findTarget("gfx1010"), nullptr);
  EXPECT_EQ(waveSizeOf("gfx1010"), 32u);
  EXPECT_EQ(waveSizeOf("gfx803"), 64u);
  EXPECT_EQ(waveSizeOf("gfx"), 0u);
  EXPECT_EQ(waveSizeOf("sm_90"), 0u);
  // The generation behind the rule (emu's gfx10+ instruction forms use it too).
  EXPECT_EQ(gfxMajorOf("gfx90a"), 9u);
  EXPECT_EQ(gfxMajorOf("gfx9-4-generic"), 9u);
  EXPECT_EQ(gfxMajorOf("gfx1100"), 11u);
  EXPECT_EQ(gfxMajorOf("gfx11-generic"), 11u);
  EXPECT_EQ(gfxMajorOf("gfx1201"), 12u);
  EXPECT_EQ(gfxMajorOf("gfx803"), 8u);
  EXPECT_EQ(gfxMajorOf("gfxabc"), 0u);
  EXPECT_EQ(kPadMaxBlockThreads, 512u);
  EXPECT_EQ(workItemsFor(33, WarpPolicy::Pad), 128u);
  EXPECT_EQ(workItemsFor(33, WarpPolicy::Pack), 33u);
}
