//===- CApi.cpp - libptxjit's C API: options, contexts, cache, results ------===//
//
// Implements ptxjit.h over the C++ stages. Compilation: translate once
// (ptxjit::translate), then per arch a fresh LLVMContext holding a bitcode
// copy goes through amdgpulower (lowerModule for LLVM IR output,
// compileModule for assembly / objects / code objects); several archs make
// an offload bundle. The cache maps a 128-bit xxh3 of (toolchain version,
// serialised options, input text) to the immutable output and diagnostics;
// a mutex guards it and results share the cached payload by shared_ptr.
// No exception escapes: every entry point catches and reports INTERNAL.
//
//===----------------------------------------------------------------------===//
#include "ptxjit.h"

#include "ptxjit/Link.h"
#include "ptxjit/Lowering.h"
#include "ptx2amd/Version.h"
#include "support/Error.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

using amdgpulower::Diagnostic;
using amdgpulower::Severity;
using amdgpulower::StageTime;

struct ptxjit_options_s {
  std::vector<std::string> archs;
  unsigned optLevel = 3;
  ptxjit_warp_policy policy = PTXJIT_WARP_POLICY_PACK;
  std::map<std::string, ptxjit_warp_policy> kernelPolicy;
  unsigned cov = 5;
  ptxjit_emit_kind emit = PTXJIT_EMIT_CODE_OBJECT;
  ptxjit_input_kind input = PTXJIT_INPUT_PTX;
  bool warnWarpSize = false;
  unsigned threads = 0;
  std::string sourceName = "<input>";
  bool timeStages = false;

  // Everything that changes the output (not threads / timing / source name
  // beyond diagnostics: the name is part of diagnostics, so it is included).
  std::string cacheKeyText() const {
    std::string s;
    for (auto &a : archs) s += "arch=" + a + ";";
    s += "O" + std::to_string(optLevel) + ";policy=" + std::to_string(policy) + ";";
    for (auto &[k, p] : kernelPolicy) s += "kp=" + k + "=" + std::to_string(p) + ";";
    s += "cov=" + std::to_string(cov) + ";emit=" + std::to_string(emit) + ";in=" +
         std::to_string(input) + ";w=" + std::to_string(warnWarpSize) + ";src=" + sourceName + ";";
    return s;
  }
};

namespace {
struct Payload {
  bool ok = false;
  ptxjit_status status = PTXJIT_SUCCESS;
  std::vector<char> bytes;
  std::vector<Diagnostic> diags;
};
struct Key {
  uint64_t lo, hi;
  bool operator==(const Key &) const = default;
};
struct KeyHash {
  size_t operator()(const Key &k) const { return k.lo ^ (k.hi * 0x9e3779b97f4a7c15ull); }
};
} // namespace

struct ptxjit_context_s {
  std::mutex mu;
  bool cacheEnabled = true;
  std::unordered_map<Key, std::shared_ptr<const Payload>, KeyHash> cache;
};

struct ptxjit_result_s {
  std::shared_ptr<const Payload> payload;
  bool fromCache = false;
  std::vector<StageTime> stages;
};

namespace {

const std::string &toolchainVersion() {
  static const std::string v = std::string("ptx2amd ") + PTX2AMD_VERSION + " (LLVM " LLVM_VERSION_STRING
                               ", libptxjit API " + std::to_string(PTXJIT_API_VERSION) + ")";
  return v;
}

amdgpulower::WarpPolicy toPolicy(ptxjit_warp_policy p) {
  return p == PTXJIT_WARP_POLICY_PAD ? amdgpulower::WarpPolicy::Pad : amdgpulower::WarpPolicy::Pack;
}

// The one mapping of error kinds to C API statuses: problems of the input
// (or of the options) are COMPILATION; toolchain failures are INTERNAL.
ptxjit_status statusFor(support::ErrorKind k) {
  switch (k) {
  case support::ErrorKind::Generic:
  case support::ErrorKind::Unsupported:
  case support::ErrorKind::ContractViolation: // an LLVM IR input that breaks ptx-to-llvm's contract
  case support::ErrorKind::InvalidInput:
  case support::ErrorKind::ResourceLimit: return PTXJIT_ERROR_COMPILATION;
  case support::ErrorKind::DeviceFault:
  case support::ErrorKind::IO:
  case support::ErrorKind::Internal: return PTXJIT_ERROR_INTERNAL;
  }
  return PTXJIT_ERROR_INTERNAL;
}

// The status of a failed compilation: the most severe of its errors' kinds.
ptxjit_status statusOf(const std::vector<Diagnostic> &diags) {
  ptxjit_status st = PTXJIT_ERROR_COMPILATION;
  for (const Diagnostic &d : diags)
    if (d.severity == Severity::Error && statusFor(d.kind) == PTXJIT_ERROR_INTERNAL) st = PTXJIT_ERROR_INTERNAL;
  return st;
}

void addError(Payload &p, llvm::Error e) {
  p.ok = false;
  support::appendDiagnostics(std::move(e), p.diags);
  p.status = statusOf(p.diags);
}

bool hasErrors(const std::vector<Diagnostic> &d) { return support::hasErrors(d); }

// Moves an llvm::Error into diagnostics unless the stage already reported
// its errors as diagnostics (ptxjit::translate: the Error then holds the same
// errors typed).
void absorb(llvm::Error e, std::vector<Diagnostic> &diags, size_t before) {
  bool have = false;
  for (size_t i = before; i < diags.size(); ++i) have |= diags[i].severity == Severity::Error;
  if (have) llvm::consumeError(std::move(e));
  else support::appendDiagnostics(std::move(e), diags);
}

void compileUncached(llvm::ArrayRef<ptxjit::PTXUnit> units, const ptxjit_options_s &o, Payload &out,
                     std::vector<StageTime> *times) {
  using Clock = std::chrono::steady_clock;
  // On the heap: compileModule frees the translated module's context with the
  // module right after its split (Lower.h), before the parts' codegen.
  auto ctx = std::make_unique<llvm::LLVMContext>();
  auto kind = o.input == PTXJIT_INPUT_LLVM_IR ? ptxjit::InputKind::LLVMIR : ptxjit::InputKind::PTX;
  size_t before = out.diags.size();
  auto mod = ptxjit::translateUnits(units, kind, *ctx, out.diags, times);
  if (!mod) {
    absorb(mod.takeError(), out.diags, before);
    out.status = statusOf(out.diags);
    return;
  }
  // One bitcode image; each arch gets its own context (the stages consume modules).
  llvm::SmallString<0> bc;
  if (o.archs.size() > 1) {
    llvm::raw_svector_ostream os(bc);
    llvm::WriteBitcodeToFile(**mod, os);
    mod->reset(); // the archs read the bitcode
    ctx.reset();
  }
  std::vector<amdgpulower::BundleEntry> entries;
  for (size_t ai = 0; ai < o.archs.size(); ++ai) {
    const std::string &arch = o.archs[ai];
    amdgpulower::LowerOptions lo;
    lo.arch = arch;
    lo.optLevel = o.optLevel;
    lo.defaultPolicy = toPolicy(o.policy);
    for (auto &[k, p] : o.kernelPolicy) lo.kernelPolicy[k] = toPolicy(p);
    lo.codeObjectVersion = o.cov;
    lo.warnWarpSize = o.warnWarpSize;
    // One PTX unit: ptx2llvm's translate() verified the module (a link of
    // several, or LLVM IR input, is verified by amdgpu-lower's check-input).
    lo.verifyInput = !(units.size() == 1 && kind == ptxjit::InputKind::PTX);
    // A relocatable object or an assembly file is one codegen part (parts are
    // only linked into code objects; concatenated per-part assembly would
    // repeat the metadata block).
    lo.threads = o.emit == PTXJIT_EMIT_OBJECT || o.emit == PTXJIT_EMIT_ASSEMBLY ? 1 : o.threads;

    // actx is declared before m, so m is destroyed first.
    std::unique_ptr<llvm::LLVMContext> actx;
    std::unique_ptr<llvm::Module> m;
    if (o.archs.size() == 1) {
      actx = std::move(ctx);
      m = std::move(*mod);
    } else {
      actx = std::make_unique<llvm::LLVMContext>();
      auto pm = llvm::parseBitcodeFile(llvm::MemoryBufferRef(bc.str(), "ptx2amd"), *actx);
      if (!pm) {
        addError(out, support::internalError(support::noLoc(llvm::toString(pm.takeError()))));
        return;
      }
      m = std::move(*pm);
    }
    std::vector<Diagnostic> adiags;
    size_t b0 = 0;
    std::vector<StageTime> atimes;
    if (o.emit == PTXJIT_EMIT_LLVM_IR) {
      if (auto e = amdgpulower::lowerModule(*m, lo, adiags, &atimes)) {
        absorb(std::move(e), adiags, b0);
      } else {
        std::string s;
        llvm::raw_string_ostream os(s);
        m->print(os, nullptr);
        out.bytes.assign(s.begin(), s.end());
      }
    } else {
      auto kindOut = o.emit == PTXJIT_EMIT_ASSEMBLY ? amdgpulower::OutputKind::Assembly
                     : o.emit == PTXJIT_EMIT_OBJECT  ? amdgpulower::OutputKind::Object
                                                     : amdgpulower::OutputKind::CodeObject;
      auto bytes = amdgpulower::compileModule(std::move(m), lo, kindOut, adiags, &atimes, std::move(actx));
      if (!bytes) absorb(bytes.takeError(), adiags, b0);
      else if (o.emit == PTXJIT_EMIT_BUNDLE)
        entries.push_back({amdgpulower::bundleEntryId(arch), std::move(*bytes)});
      else
        out.bytes = std::move(*bytes);
    }
    if (times)
      for (auto &t : atimes) times->push_back({(o.archs.size() > 1 ? arch + ": " : "") + t.stage, t.seconds});
    for (auto &d : adiags) {
      bool dup = false;
      for (auto &x : out.diags) dup |= x.message == d.message && x.line == d.line && x.file == d.file;
      if (!dup) out.diags.push_back(d);
    }
    if (hasErrors(adiags)) {
      out.status = statusOf(adiags);
      out.bytes.clear();
      return;
    }
  }
  if (o.emit == PTXJIT_EMIT_BUNDLE) {
    auto t = Clock::now();
    out.bytes = amdgpulower::writeOffloadBundle(entries);
    if (times) times->push_back({"bundle", std::chrono::duration<double>(Clock::now() - t).count()});
  }
  out.ok = true;
  out.status = PTXJIT_SUCCESS;
}

template <class F> ptxjit_status guarded(F &&f) {
  try {
    return f();
  } catch (...) {
    return PTXJIT_ERROR_INTERNAL;
  }
}

} // namespace

extern "C" {

uint32_t ptxjit_api_version(void) { return PTXJIT_API_VERSION; }
const char *ptxjit_version_string(void) { return toolchainVersion().c_str(); }
size_t ptxjit_supported_arch_count(void) { return amdgpulower::supportedTargets().size(); }
const char *ptxjit_supported_arch(size_t i) {
  auto t = amdgpulower::supportedTargets();
  return i < t.size() ? t[i].name.data() : nullptr; // names are NUL-terminated literals
}

ptxjit_status ptxjit_context_create(ptxjit_context *out) {
  if (!out) return PTXJIT_ERROR_INVALID_ARGUMENT;
  return guarded([&] {
    *out = new ptxjit_context_s;
    return PTXJIT_SUCCESS;
  });
}
void ptxjit_context_destroy(ptxjit_context ctx) { delete ctx; }
void ptxjit_context_clear_cache(ptxjit_context ctx) {
  if (!ctx) return;
  std::lock_guard<std::mutex> l(ctx->mu);
  ctx->cache.clear();
}
size_t ptxjit_context_cache_size(ptxjit_context ctx) {
  if (!ctx) return 0;
  std::lock_guard<std::mutex> l(ctx->mu);
  return ctx->cache.size();
}
ptxjit_status ptxjit_context_set_cache_enabled(ptxjit_context ctx, int enabled) {
  if (!ctx) return PTXJIT_ERROR_INVALID_ARGUMENT;
  std::lock_guard<std::mutex> l(ctx->mu);
  ctx->cacheEnabled = enabled != 0;
  return PTXJIT_SUCCESS;
}

ptxjit_status ptxjit_options_create(ptxjit_options *out) {
  if (!out) return PTXJIT_ERROR_INVALID_ARGUMENT;
  return guarded([&] {
    *out = new ptxjit_options_s;
    return PTXJIT_SUCCESS;
  });
}
void ptxjit_options_destroy(ptxjit_options o) { delete o; }

ptxjit_status ptxjit_options_add_arch(ptxjit_options o, const char *arch) {
  if (!o || !arch || !amdgpulower::findTarget(arch)) return PTXJIT_ERROR_INVALID_ARGUMENT;
  return guarded([&] {
    for (auto &a : o->archs)
      if (a == arch) return PTXJIT_SUCCESS;
    o->archs.emplace_back(arch);
    return PTXJIT_SUCCESS;
  });
}
ptxjit_status ptxjit_options_set_opt_level(ptxjit_options o, unsigned level) {
  if (!o || level > 3) return PTXJIT_ERROR_INVALID_ARGUMENT;
  o->optLevel = level;
  return PTXJIT_SUCCESS;
}
ptxjit_status ptxjit_options_set_warp_policy(ptxjit_options o, ptxjit_warp_policy p) {
  if (!o || (p != PTXJIT_WARP_POLICY_PACK && p != PTXJIT_WARP_POLICY_PAD)) return PTXJIT_ERROR_INVALID_ARGUMENT;
  o->policy = p;
  return PTXJIT_SUCCESS;
}
ptxjit_status ptxjit_options_set_kernel_warp_policy(ptxjit_options o, const char *kernel,
                                                   ptxjit_warp_policy p) {
  if (!o || !kernel || !*kernel || (p != PTXJIT_WARP_POLICY_PACK && p != PTXJIT_WARP_POLICY_PAD))
    return PTXJIT_ERROR_INVALID_ARGUMENT;
  return guarded([&] {
    o->kernelPolicy[kernel] = p;
    return PTXJIT_SUCCESS;
  });
}
ptxjit_status ptxjit_options_set_code_object_version(ptxjit_options o, unsigned v) {
  if (!o || v < 4 || v > 6) return PTXJIT_ERROR_INVALID_ARGUMENT;
  o->cov = v;
  return PTXJIT_SUCCESS;
}
ptxjit_status ptxjit_options_set_emit(ptxjit_options o, ptxjit_emit_kind k) {
  if (!o || k < PTXJIT_EMIT_CODE_OBJECT || k > PTXJIT_EMIT_OBJECT) return PTXJIT_ERROR_INVALID_ARGUMENT;
  o->emit = k;
  return PTXJIT_SUCCESS;
}
ptxjit_status ptxjit_options_set_input_kind(ptxjit_options o, ptxjit_input_kind k) {
  if (!o || (k != PTXJIT_INPUT_PTX && k != PTXJIT_INPUT_LLVM_IR)) return PTXJIT_ERROR_INVALID_ARGUMENT;
  o->input = k;
  return PTXJIT_SUCCESS;
}
ptxjit_status ptxjit_options_set_warn_warp_size(ptxjit_options o, int enabled) {
  if (!o) return PTXJIT_ERROR_INVALID_ARGUMENT;
  o->warnWarpSize = enabled != 0;
  return PTXJIT_SUCCESS;
}
ptxjit_status ptxjit_options_set_threads(ptxjit_options o, unsigned threads) {
  if (!o) return PTXJIT_ERROR_INVALID_ARGUMENT;
  o->threads = threads;
  return PTXJIT_SUCCESS;
}
ptxjit_status ptxjit_options_set_source_name(ptxjit_options o, const char *name) {
  if (!o || !name) return PTXJIT_ERROR_INVALID_ARGUMENT;
  return guarded([&] {
    o->sourceName = name;
    return PTXJIT_SUCCESS;
  });
}
ptxjit_status ptxjit_options_set_time_stages(ptxjit_options o, int enabled) {
  if (!o) return PTXJIT_ERROR_INVALID_ARGUMENT;
  o->timeStages = enabled != 0;
  return PTXJIT_SUCCESS;
}

ptxjit_status ptxjit_compile(ptxjit_context ctx, const char *text, size_t size, ptxjit_options o,
                             ptxjit_result *out) {
  if (!out) return PTXJIT_ERROR_INVALID_ARGUMENT;
  *out = nullptr;
  if (!o || (!text && size)) return PTXJIT_ERROR_INVALID_ARGUMENT;
  const char *name = o->sourceName.c_str();
  return ptxjit_compile_linked(ctx, 1, &text, &size, &name, o, out);
}

ptxjit_status ptxjit_compile_linked(ptxjit_context ctx, size_t count, const char *const *texts, const size_t *sizes,
                                    const char *const *names, ptxjit_options o, ptxjit_result *out) {
  if (!out) return PTXJIT_ERROR_INVALID_ARGUMENT;
  *out = nullptr;
  if (!ctx || !o || !count || !texts || !sizes) return PTXJIT_ERROR_INVALID_ARGUMENT;
  for (size_t i = 0; i < count; ++i)
    if (!texts[i] && sizes[i]) return PTXJIT_ERROR_INVALID_ARGUMENT;
  if (o->archs.empty()) return PTXJIT_ERROR_INVALID_ARGUMENT;
  if (o->emit != PTXJIT_EMIT_BUNDLE && o->archs.size() != 1) return PTXJIT_ERROR_INVALID_ARGUMENT;
  return guarded([&] {
    std::vector<ptxjit::PTXUnit> units;
    std::string keyText = toolchainVersion() + "\n" + o->cacheKeyText() + "\n";
    for (size_t i = 0; i < count; ++i) {
      std::string_view name = names && names[i] ? std::string_view(names[i]) : std::string_view(o->sourceName);
      units.push_back({std::string_view(texts[i] ? texts[i] : "", sizes[i]), name});
      if (count > 1) keyText += "unit " + std::string(name) + " " + std::to_string(sizes[i]) + "\n";
      keyText.append(texts[i] ? texts[i] : "", sizes[i]);
    }
    llvm::XXH128_hash_t h = llvm::xxh3_128bits(
        llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(keyText.data()), keyText.size()));
    Key key{h.low64, h.high64};
    auto result = std::make_unique<ptxjit_result_s>();
    bool useCache;
    {
      std::lock_guard<std::mutex> l(ctx->mu);
      useCache = ctx->cacheEnabled;
      if (useCache) {
        auto it = ctx->cache.find(key);
        if (it != ctx->cache.end()) {
          result->payload = it->second;
          result->fromCache = true;
        }
      }
    }
    if (!result->payload) {
      auto p = std::make_shared<Payload>();
      compileUncached(units, *o, *p, o->timeStages ? &result->stages : nullptr);
      if (p->ok) p->status = PTXJIT_SUCCESS;
      else if (p->status == PTXJIT_SUCCESS) p->status = PTXJIT_ERROR_COMPILATION;
      result->payload = p;
      if (useCache && p->ok) {
        std::lock_guard<std::mutex> l(ctx->mu);
        ctx->cache.emplace(key, p);
      }
    }
    ptxjit_status st = result->payload->status;
    *out = result.release();
    return st;
  });
}

const void *ptxjit_result_data(ptxjit_result r, size_t *size) {
  if (size) *size = r && r->payload->ok ? r->payload->bytes.size() : 0;
  if (!r || !r->payload->ok) return nullptr;
  return r->payload->bytes.data();
}
size_t ptxjit_result_diagnostic_count(ptxjit_result r) { return r ? r->payload->diags.size() : 0; }
ptxjit_status ptxjit_result_diagnostic(ptxjit_result r, size_t i, ptxjit_diagnostic *out) {
  if (!r || !out || i >= r->payload->diags.size()) return PTXJIT_ERROR_INVALID_ARGUMENT;
  const Diagnostic &d = r->payload->diags[i];
  out->severity = d.severity == Severity::Error     ? PTXJIT_SEVERITY_ERROR
                  : d.severity == Severity::Warning ? PTXJIT_SEVERITY_WARNING
                                                    : PTXJIT_SEVERITY_NOTE;
  out->file = d.file.c_str();
  out->line = d.line;
  out->column = d.col;
  out->message = d.message.c_str();
  return PTXJIT_SUCCESS;
}
ptxjit_error_kind ptxjit_result_diagnostic_kind(ptxjit_result r, size_t i) {
  if (!r || i >= r->payload->diags.size()) return PTXJIT_KIND_GENERIC;
  return static_cast<ptxjit_error_kind>(r->payload->diags[i].kind);
}
static_assert(PTXJIT_KIND_UNSUPPORTED == int(support::ErrorKind::Unsupported) &&
                  PTXJIT_KIND_CONTRACT_VIOLATION == int(support::ErrorKind::ContractViolation) &&
                  PTXJIT_KIND_INVALID_INPUT == int(support::ErrorKind::InvalidInput) &&
                  PTXJIT_KIND_RESOURCE_LIMIT == int(support::ErrorKind::ResourceLimit) &&
                  PTXJIT_KIND_DEVICE_FAULT == int(support::ErrorKind::DeviceFault) &&
                  PTXJIT_KIND_IO == int(support::ErrorKind::IO) && PTXJIT_KIND_INTERNAL == int(support::ErrorKind::Internal),
              "ptxjit_error_kind mirrors support::ErrorKind");
int ptxjit_result_from_cache(ptxjit_result r) { return r && r->fromCache; }
size_t ptxjit_result_stage_count(ptxjit_result r) { return r ? r->stages.size() : 0; }
ptxjit_status ptxjit_result_stage(ptxjit_result r, size_t i, const char **name, double *seconds) {
  if (!r || i >= r->stages.size()) return PTXJIT_ERROR_INVALID_ARGUMENT;
  if (name) *name = r->stages[i].stage.c_str();
  if (seconds) *seconds = r->stages[i].seconds;
  return PTXJIT_SUCCESS;
}
void ptxjit_result_destroy(ptxjit_result r) { delete r; }

} // extern "C"
