//===- PtxJitTest.cpp - libptxjit C API: outputs, cache, threads, diagnostics ===//
//
// Drives libptxjit through its C API with modules in ptx-to-llvm's output
// contract (tests/ptxjit/Inputs/*.ll), so the lowering/codegen back half is
// tested independently of the PTX front end: every supported target and
// policy yields a loadable code object (ELF header checked), code object
// versions, offload bundle layout, cache hits/misses, concurrent compiles on
// one context, structured diagnostics, -Wwarp-size, pad ABI, mixed policies
// and the C++ lowered-module entry.
//
//===----------------------------------------------------------------------===//
#include "ptxjit.h"
#include "ptxjit/Lowering.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#ifndef PTXJIT_TEST_INPUTS
#error "PTXJIT_TEST_INPUTS must be defined"
#endif

namespace {

std::string readInput(const char *name) {
  std::ifstream f(std::string(PTXJIT_TEST_INPUTS) + "/" + name, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

struct Compiled {
  ptxjit_status status;
  std::vector<unsigned char> bytes;
  std::vector<std::pair<ptxjit_severity, std::string>> diags;
  bool fromCache = false;
};

struct Opts {
  std::vector<std::string> archs;
  ptxjit_emit_kind emit = PTXJIT_EMIT_CODE_OBJECT;
  ptxjit_warp_policy policy = PTXJIT_WARP_POLICY_PACK;
  std::vector<std::pair<std::string, ptxjit_warp_policy>> kernelPolicy;
  unsigned cov = 5, opt = 2, threads = 1;
  bool warn = false;
};

Compiled compile(ptxjit_context ctx, const std::string &text, const Opts &o) {
  ptxjit_options opts;
  EXPECT_EQ(ptxjit_options_create(&opts), PTXJIT_SUCCESS);
  ptxjit_options_set_input_kind(opts, PTXJIT_INPUT_LLVM_IR);
  for (auto &a : o.archs) EXPECT_EQ(ptxjit_options_add_arch(opts, a.c_str()), PTXJIT_SUCCESS) << a;
  ptxjit_options_set_emit(opts, o.emit);
  ptxjit_options_set_warp_policy(opts, o.policy);
  for (auto &[k, p] : o.kernelPolicy) ptxjit_options_set_kernel_warp_policy(opts, k.c_str(), p);
  EXPECT_EQ(ptxjit_options_set_code_object_version(opts, o.cov), PTXJIT_SUCCESS);
  ptxjit_options_set_opt_level(opts, o.opt);
  ptxjit_options_set_threads(opts, o.threads);
  ptxjit_options_set_warn_warp_size(opts, o.warn);
  ptxjit_options_set_source_name(opts, "input.ll");
  ptxjit_result r = nullptr;
  Compiled c;
  c.status = ptxjit_compile(ctx, text.data(), text.size(), opts, &r);
  if (r) {
    size_t n = 0;
    auto *d = static_cast<const unsigned char *>(ptxjit_result_data(r, &n));
    if (d) c.bytes.assign(d, d + n);
    for (size_t i = 0; i < ptxjit_result_diagnostic_count(r); ++i) {
      ptxjit_diagnostic diag;
      EXPECT_EQ(ptxjit_result_diagnostic(r, i, &diag), PTXJIT_SUCCESS);
      c.diags.push_back({diag.severity, diag.message});
    }
    c.fromCache = ptxjit_result_from_cache(r);
    ptxjit_result_destroy(r);
  }
  ptxjit_options_destroy(opts);
  return c;
}

std::string diagText(const Compiled &c) {
  std::string s;
  for (auto &[sev, m] : c.diags) s += std::to_string(sev) + ": " + m + "\n";
  return s;
}

uint16_t u16(const std::vector<unsigned char> &b, size_t at) { return uint16_t(b[at] | b[at + 1] << 8); }
uint64_t u64(const std::vector<unsigned char> &b, size_t at) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = v << 8 | b[at + i];
  return v;
}

// ELF64 header of a loadable AMDGPU HSA code object.
void expectCodeObject(const std::vector<unsigned char> &b, unsigned abiVersion, const std::string &what) {
  ASSERT_GT(b.size(), 64u) << what;
  EXPECT_EQ(0, std::memcmp(b.data(), "\x7f" "ELF", 4)) << what;
  EXPECT_EQ(b[4], 2) << what;              // ELFCLASS64
  EXPECT_EQ(b[7], 64) << what;             // ELFOSABI_AMDGPU_HSA
  EXPECT_EQ(b[8], abiVersion) << what;     // 2 = v4, 3 = v5, 4 = v6
  EXPECT_EQ(u16(b, 16), 3) << what;        // ET_DYN
  EXPECT_EQ(u16(b, 18), 224) << what;      // EM_AMDGPU
}

class PtxJit : public ::testing::Test {
protected:
  void SetUp() override { ASSERT_EQ(ptxjit_context_create(&ctx), PTXJIT_SUCCESS); }
  void TearDown() override { ptxjit_context_destroy(ctx); }
  ptxjit_context ctx = nullptr;
};

TEST_F(PtxJit, EveryTargetAndPolicyGivesACodeObject) {
  std::string text = readInput("all_devlib.ll");
  ASSERT_FALSE(text.empty());
  ASSERT_EQ(ptxjit_supported_arch_count(), 17u);
  for (size_t i = 0; i < ptxjit_supported_arch_count(); ++i) {
    std::string arch = ptxjit_supported_arch(i);
    bool generic = arch.find("generic") != std::string::npos;
    for (auto policy : {PTXJIT_WARP_POLICY_PACK, PTXJIT_WARP_POLICY_PAD}) {
      Opts o;
      o.archs = {arch};
      o.policy = policy;
      o.opt = 1;
      Compiled c = compile(ctx, text, o);
      ASSERT_EQ(c.status, PTXJIT_SUCCESS) << arch << "\n" << diagText(c);
      expectCodeObject(c.bytes, generic ? 4 : 3, arch);
    }
  }
}

TEST_F(PtxJit, CodeObjectVersionOption) {
  std::string text = readInput("warp_ops.ll");
  for (unsigned v : {4u, 5u, 6u}) {
    Opts o;
    o.archs = {"gfx90a"};
    o.cov = v;
    Compiled c = compile(ctx, text, o);
    ASSERT_EQ(c.status, PTXJIT_SUCCESS) << diagText(c);
    expectCodeObject(c.bytes, v - 2, "v" + std::to_string(v));
  }
}

TEST_F(PtxJit, OffloadBundleLayout) {
  Opts o;
  o.archs = {"gfx90a", "gfx1100", "gfx942"};
  o.emit = PTXJIT_EMIT_BUNDLE;
  Compiled c = compile(ctx, readInput("warp_ops.ll"), o);
  ASSERT_EQ(c.status, PTXJIT_SUCCESS) << diagText(c);
  const auto &b = c.bytes;
  ASSERT_GT(b.size(), 32u);
  EXPECT_EQ(0, std::memcmp(b.data(), "__CLANG_OFFLOAD_BUNDLE__", 24));
  ASSERT_EQ(u64(b, 24), 4u); // host + 3 archs
  size_t p = 32;
  std::vector<std::string> ids;
  for (int i = 0; i < 4; ++i) {
    uint64_t off = u64(b, p), size = u64(b, p + 8), len = u64(b, p + 16);
    ids.emplace_back(reinterpret_cast<const char *>(b.data() + p + 24), len);
    p += 24 + len;
    if (i == 0) {
      EXPECT_EQ(size, 0u);
      continue;
    }
    EXPECT_EQ(off % 4096, 0u);
    ASSERT_LE(off + size, b.size());
    std::vector<unsigned char> co(b.begin() + off, b.begin() + off + size);
    expectCodeObject(co, 3, ids.back());
  }
  EXPECT_EQ(ids[0], "host-x86_64-unknown-linux-gnu");
  EXPECT_EQ(ids[1], "hipv4-amdgcn-amd-amdhsa--gfx90a");
  EXPECT_EQ(ids[2], "hipv4-amdgcn-amd-amdhsa--gfx1100");
  EXPECT_EQ(ids[3], "hipv4-amdgcn-amd-amdhsa--gfx942");
}

TEST_F(PtxJit, CacheHitsOnlyForIdenticalInputAndOptions) {
  std::string text = readInput("warp_ops.ll");
  Opts o;
  o.archs = {"gfx1100"};
  Compiled a = compile(ctx, text, o);
  ASSERT_EQ(a.status, PTXJIT_SUCCESS);
  EXPECT_FALSE(a.fromCache);
  EXPECT_EQ(ptxjit_context_cache_size(ctx), 1u);
  Compiled b = compile(ctx, text, o);
  EXPECT_TRUE(b.fromCache);
  EXPECT_EQ(a.bytes, b.bytes);
  o.opt = 3;
  Compiled c = compile(ctx, text, o);
  EXPECT_FALSE(c.fromCache);
  Compiled d = compile(ctx, text + "\n; changed\n", o);
  EXPECT_FALSE(d.fromCache);
  EXPECT_EQ(ptxjit_context_cache_size(ctx), 3u);
  ptxjit_context_clear_cache(ctx);
  EXPECT_EQ(ptxjit_context_cache_size(ctx), 0u);
  ASSERT_EQ(ptxjit_context_set_cache_enabled(ctx, 0), PTXJIT_SUCCESS);
  Compiled e = compile(ctx, text, o);
  Compiled f = compile(ctx, text, o);
  EXPECT_FALSE(f.fromCache);
  EXPECT_EQ(e.bytes, f.bytes); // deterministic output
}

TEST_F(PtxJit, ConcurrentCompilesOnOneContext) {
  std::string text = readInput("warp_ops.ll");
  const char *archs[] = {"gfx90a", "gfx1100", "gfx90a", "gfx1100", "gfx942", "gfx942"};
  std::vector<Compiled> out(6);
  std::vector<std::thread> ts;
  for (int i = 0; i < 6; ++i)
    ts.emplace_back([&, i] {
      Opts o;
      o.archs = {archs[i]};
      out[i] = compile(ctx, text, o);
    });
  for (auto &t : ts) t.join();
  for (auto &c : out) ASSERT_EQ(c.status, PTXJIT_SUCCESS) << diagText(c);
  EXPECT_EQ(out[0].bytes, out[2].bytes);
  EXPECT_EQ(out[1].bytes, out[3].bytes);
  EXPECT_EQ(out[4].bytes, out[5].bytes);
  EXPECT_NE(out[0].bytes, out[1].bytes);
}

TEST_F(PtxJit, InvalidArgumentsAndStructuredErrors) {
  ptxjit_options o;
  ASSERT_EQ(ptxjit_options_create(&o), PTXJIT_SUCCESS);
  EXPECT_EQ(ptxjit_options_add_arch(o, "sm_90"), PTXJIT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(ptxjit_options_set_opt_level(o, 4), PTXJIT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(ptxjit_options_set_code_object_version(o, 3), PTXJIT_ERROR_INVALID_ARGUMENT);
  ptxjit_result r = reinterpret_cast<ptxjit_result>(1);
  EXPECT_EQ(ptxjit_compile(ctx, "", 0, o, &r), PTXJIT_ERROR_INVALID_ARGUMENT); // no arch
  EXPECT_EQ(r, nullptr);
  ptxjit_options_destroy(o);

  Opts opts;
  opts.archs = {"gfx1100"};
  Compiled c = compile(ctx, "target triple = \"amdgcn-amd-amdhsa\"\ndefine void @f( {\n", opts);
  EXPECT_EQ(c.status, PTXJIT_ERROR_COMPILATION);
  EXPECT_TRUE(c.bytes.empty());
  ASSERT_FALSE(c.diags.empty());
  EXPECT_EQ(c.diags[0].first, PTXJIT_SEVERITY_ERROR);

  // Unknown device-library function: an interface mismatch, reported by name.
  Compiled u = compile(ctx,
                       "target triple = \"amdgcn-amd-amdhsa\"\n"
                       "declare i32 @__ptx_sreg_no_such_register()\n"
                       "define amdgpu_kernel void @k(i64 %o) {\n"
                       "  %v = call i32 @__ptx_sreg_no_such_register()\n"
                       "  %p = inttoptr i64 %o to ptr addrspace(1)\n"
                       "  store i32 %v, ptr addrspace(1) %p\n  ret void\n}\n",
                       opts);
  EXPECT_EQ(u.status, PTXJIT_ERROR_COMPILATION);
  EXPECT_NE(diagText(u).find("__ptx_sreg_no_such_register"), std::string::npos) << diagText(u);

  // --warp-policy naming a kernel that does not exist.
  Opts bad;
  bad.archs = {"gfx90a"};
  bad.kernelPolicy = {{"no_such_kernel", PTXJIT_WARP_POLICY_PAD}};
  Compiled k = compile(ctx, readInput("warp_ops.ll"), bad);
  EXPECT_EQ(k.status, PTXJIT_ERROR_COMPILATION);
  EXPECT_NE(diagText(k).find("no_such_kernel"), std::string::npos) << diagText(k);
}

// A construct ptx-to-llvm refuses (distributed shared memory) is a
// COMPILATION failure whose diagnostic has kind UNSUPPORTED.
TEST_F(PtxJit, UnsupportedConstructsHaveTheirKind) {
  const std::string ptx = ".version 9.0\n.target sm_90\n.address_size 64\n"
                          ".visible .entry k(.param .u64 p)\n{\n  .reg .b32 %r<2>;\n  .reg .b64 %rd<2>;\n"
                          "  ld.param.u64 %rd1, [p];\n  ld.shared::cluster.u32 %r1, [%rd1];\n"
                          "  st.global.u32 [%rd1], %r1;\n  ret;\n}\n";
  ptxjit_options o;
  ASSERT_EQ(ptxjit_options_create(&o), PTXJIT_SUCCESS);
  ASSERT_EQ(ptxjit_options_add_arch(o, "gfx1100"), PTXJIT_SUCCESS);
  ptxjit_result r = nullptr;
  EXPECT_EQ(ptxjit_compile(ctx, ptx.data(), ptx.size(), o, &r), PTXJIT_ERROR_COMPILATION);
  ASSERT_NE(r, nullptr);
  ASSERT_EQ(ptxjit_result_diagnostic_count(r), 1u);
  ptxjit_diagnostic d;
  ASSERT_EQ(ptxjit_result_diagnostic(r, 0, &d), PTXJIT_SUCCESS);
  EXPECT_EQ(d.line, 9u);
  EXPECT_EQ(ptxjit_result_diagnostic_kind(r, 0), PTXJIT_KIND_UNSUPPORTED);
  ptxjit_result_destroy(r);
  ptxjit_options_destroy(o);
}

// PTX input: front-end errors arrive as structured diagnostics with the
// PTX source position (the C API's file/line/column fields).
TEST_F(PtxJit, PtxFrontEndDiagnosticsHaveLocations) {
  const std::string ptx = ".version 8.0\n.target sm_80\n.address_size 64\n"
                          ".visible .entry k(.param .u64 p)\n{\n  .reg .b32 %r<2>;\n"
                          "  bogus.opcode.u32 %r1, %r0;\n  ret;\n}\n";
  ptxjit_options o;
  ASSERT_EQ(ptxjit_options_create(&o), PTXJIT_SUCCESS);
  ASSERT_EQ(ptxjit_options_add_arch(o, "gfx1100"), PTXJIT_SUCCESS);
  ptxjit_options_set_source_name(o, "bad.ptx");
  ptxjit_result r = nullptr;
  EXPECT_EQ(ptxjit_compile(ctx, ptx.data(), ptx.size(), o, &r), PTXJIT_ERROR_COMPILATION);
  ASSERT_NE(r, nullptr);
  ASSERT_GE(ptxjit_result_diagnostic_count(r), 1u);
  ptxjit_diagnostic d;
  ASSERT_EQ(ptxjit_result_diagnostic(r, 0, &d), PTXJIT_SUCCESS);
  EXPECT_EQ(d.severity, PTXJIT_SEVERITY_ERROR);
  EXPECT_STREQ(d.file, "bad.ptx");
  EXPECT_EQ(d.line, 7u);
  EXPECT_GT(d.column, 0u);
  EXPECT_EQ(ptxjit_result_diagnostic_kind(r, 0), PTXJIT_KIND_INVALID_INPUT);
  EXPECT_EQ(ptxjit_result_diagnostic_kind(r, 1000), PTXJIT_KIND_GENERIC); // bad index
  size_t n = 1;
  EXPECT_EQ(ptxjit_result_data(r, &n), nullptr);
  EXPECT_EQ(n, 0u);
  ptxjit_result_destroy(r);
  ptxjit_options_destroy(o);
}

TEST_F(PtxJit, WarpSizeWarningForSpinLoopsUnderPack) {
  std::string text = readInput("spin_wait.ll");
  Opts o;
  o.archs = {"gfx90a"};
  o.warn = true;
  Compiled c = compile(ctx, text, o);
  ASSERT_EQ(c.status, PTXJIT_SUCCESS) << diagText(c);
  int warnings = 0;
  for (auto &[sev, m] : c.diags)
    if (sev == PTXJIT_SEVERITY_WARNING) {
      ++warnings;
      EXPECT_NE(m.find("'spin'"), std::string::npos) << m;
      EXPECT_NE(m.find("--warp-policy=spin=pad"), std::string::npos) << m;
    }
  EXPECT_EQ(warnings, 1) << diagText(c);
  // The cure silences it; so does a wave32 target; and it is off by default.
  o.kernelPolicy = {{"spin", PTXJIT_WARP_POLICY_PAD}};
  EXPECT_TRUE(compile(ctx, text, o).diags.empty());
  o.kernelPolicy.clear();
  o.archs = {"gfx1100"};
  EXPECT_TRUE(compile(ctx, text, o).diags.empty());
  o.archs = {"gfx90a"};
  o.warn = false;
  EXPECT_TRUE(compile(ctx, text, o).diags.empty());
}

std::string emitIR(ptxjit_context ctx, const std::string &text, Opts o) {
  o.emit = PTXJIT_EMIT_LLVM_IR;
  Compiled c = compile(ctx, text, o);
  EXPECT_EQ(c.status, PTXJIT_SUCCESS) << diagText(c);
  return std::string(c.bytes.begin(), c.bytes.end());
}

TEST_F(PtxJit, PolicyAttributesAndPadABI) {
  std::string text = readInput("warp_ops.ll");
  Opts o;
  o.archs = {"gfx90a"};
  std::string pack = emitIR(ctx, text, o);
  EXPECT_NE(pack.find("\"ptx2amd.warp-policy\"=\"pack\""), std::string::npos);
  EXPECT_NE(pack.find("\"ptx2amd.wave-size\"=\"64\""), std::string::npos);
  EXPECT_NE(pack.find("\"amdgpu-flat-work-group-size\"=\"1,256\""), std::string::npos);
  EXPECT_EQ(pack.find("__ptx2amd_block_dim"), std::string::npos);
  o.policy = PTXJIT_WARP_POLICY_PAD;
  std::string pad = emitIR(ctx, text, o);
  EXPECT_NE(pad.find("\"ptx2amd.warp-policy\"=\"pad\""), std::string::npos);
  EXPECT_NE(pad.find("<4 x i32> %__ptx2amd_block_dim"), std::string::npos);
  EXPECT_NE(pad.find("\"amdgpu-flat-work-group-size\"=\"1,512\""), std::string::npos);
  // .minnctapersm 2 with 256 threads: 2 blocks * 8 waves / 4 SIMDs.
  EXPECT_NE(pad.find("\"amdgpu-waves-per-eu\"=\"4"), std::string::npos);
  EXPECT_NE(pack.find("\"amdgpu-waves-per-eu\"=\"2"), std::string::npos);
  o.archs = {"gfx1100"}; // wave32 ignores the policy
  std::string w32 = emitIR(ctx, text, o);
  EXPECT_NE(w32.find("\"ptx2amd.warp-policy\"=\"native\""), std::string::npos);
  EXPECT_NE(w32.find("\"ptx2amd.wave-size\"=\"32\""), std::string::npos);
  EXPECT_EQ(w32.find("__ptx2amd_block_dim"), std::string::npos);
}

TEST_F(PtxJit, MixedPoliciesInOneModule) {
  std::string text = readInput("spin_wait.ll");
  Opts o;
  o.archs = {"gfx942"};
  o.opt = 0;
  o.kernelPolicy = {{"spin", PTXJIT_WARP_POLICY_PAD}};
  std::string ir = emitIR(ctx, text, o);
  // Each kernel got its own variant of %tid.x (devlib functions are inlined):
  // pad reads the CUDA block dims 16 bytes below the hidden arguments and
  // recomputes the id from the padded geometry; pack uses the hardware id.
  auto body = [&](const std::string &name) {
    size_t at = ir.find("define amdgpu_kernel void @" + name + "(");
    EXPECT_NE(at, std::string::npos) << name;
    return at == std::string::npos ? std::string() : ir.substr(at, ir.find("\n}\n", at) - at);
  };
  std::string spin = body("spin"), plain = body("plain");
  EXPECT_NE(spin.find("<4 x i32> %__ptx2amd_block_dim"), std::string::npos) << spin;
  EXPECT_NE(spin.find("i64 -16"), std::string::npos) << spin;
  EXPECT_EQ(plain.find("__ptx2amd_block_dim"), std::string::npos) << plain;
  EXPECT_EQ(plain.find("i64 -16"), std::string::npos) << plain;
  EXPECT_NE(plain.find("@llvm.amdgcn.workitem.id.x()"), std::string::npos) << plain;
  o.opt = 2;
  o.emit = PTXJIT_EMIT_CODE_OBJECT;
  Compiled c = compile(ctx, text, o);
  ASSERT_EQ(c.status, PTXJIT_SUCCESS) << diagText(c);
  expectCodeObject(c.bytes, 3, "mixed");
}

TEST(PtxJitCxx, LoweredModuleHasNoDevlibDeclarations) {
  llvm::LLVMContext ctx;
  std::vector<amdgpulower::Diagnostic> diags;
  amdgpulower::LowerOptions lo;
  lo.arch = "gfx90a";
  lo.optLevel = 2;
  auto m = ptxjit::lowerPTX(readInput("all_devlib.ll"), "all_devlib.ll", ctx, lo, diags,
                            ptxjit::InputKind::LLVMIR);
  ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError());
  for (llvm::Function &f : **m) {
    if (f.isDeclaration()) EXPECT_TRUE(f.isIntrinsic()) << f.getName().str();
  }
  llvm::Function *k = (*m)->getFunction("all_devlib");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->getFnAttribute("ptx2amd.warp-policy").getValueAsString(), "pack");
}

} // namespace
