// golden_emu_compare -- runs every golden form through ptx2amd + amdgpu-emu and compares the
// results with the outputs recorded on an NVIDIA H200 (CTest golden.emu.*).
//
// For each form of DATA_DIR/manifest.json, the form's kernel is cut out of PTX_DIR/<family>.ptx
// (written by `scripts/golden/gen.py --out PTX_DIR`), translated and lowered for --arch with
// ptxjit::lowerPTX, loaded on an emu::Device and launched over the regenerated inputs (256
// threads per block, as on the H200).  Exact forms must match bit for bit (rows the ISA leaves
// unspecified excepted); approximate forms must agree with the H200 within a tolerance derived
// from the PTX ISA's stated error bound (NaN <-> NaN, infinities exactly).  Each form ends as
// PASS, FAIL (a mismatch, a launch error, or a translation error other than "unsupported"), or
// UNSUPPORTED (the translator reports the construct as unsupported).  The exit status is non-zero
// on any FAIL, or when fewer than --min-pass forms pass (so a translator that stops supporting
// forms is noticed).  --report writes one line per form.  Each form runs in a forked child with
// its own emu::Device, so a crash in the translator or the emulator is reported as that form's
// FAIL instead of ending the sweep; a crash is retried once, and a form whose retry completes is
// judged by the retry and listed as FLAKY.
//
// With --expected-failures FILE --tag TAG, forms listed there for TAG (or "all") may fail
// (XFAIL); the run fails on any other failure or unsupported form.  A listed form that now passes
// is reported as XPASS (remove it from the list), a listed name that is no form of the manifest
// as STALE; with --strict 1 (as CTest runs it) either fails the run too.
// --update-expected 1 rewrites TAG's entries from a run.
//
// Usage: golden_emu_compare DATA_DIR PTX_DIR [--arch gfx1100] [--policy pack|pad]
//            [--family NAME] [--form SUBSTRING] [--row-stride K] [--min-pass N] [--report FILE]
//            [--show-rows N (print the first N differing rows of each form)]
//            [--expected-failures FILE --tag TAG [--update-expected 1] [--strict 1]]
#include "GoldenRef.h"
#include "GoldenTables.h"

#include "emu/Emu.h"
#include "isa-emu/IsaEmu.h"
#include "ptxjit/Lowering.h"
#include "support/Contract.h"
#include "support/Error.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Signals.h"

#include <chrono>
#include <sys/wait.h>
#include <unistd.h>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <csignal>
#include <map>
#include <set>
#include <string>

namespace {

struct Options {
  std::string dataDir, ptxDir, arch = "gfx1100", policy = "pack", family, form, report;
  std::string expectedFile, tag = "all";
  std::string device = "emu"; // emu (lowered IR) or isa (the code object, on isa-emu)
  size_t sample = 0;          // run a fixed pseudo-random subset of this many forms (0 = all)
  uint64_t seed = 1;
  bool updateExpected = false, strict = false;
  size_t rowStride = 1, minPass = 0, showRows = 0;
};

/// Splits a family module into "header" + one text per entry.
bool sliceModule(const std::string &text, std::string &header, std::map<std::string, std::string> &kernels) {
  const std::string key = ".visible .entry ";
  size_t first = text.find(key);
  if (first == std::string::npos) return false;
  header = text.substr(0, first);
  size_t pos = first;
  while (pos != std::string::npos) {
    size_t nameEnd = text.find('(', pos);
    std::string name = text.substr(pos + key.size(), nameEnd - pos - key.size());
    size_t end = text.find("\n}\n", pos);
    if (end == std::string::npos) return false;
    kernels[name] = text.substr(pos, end + 3 - pos);
    pos = text.find(key, end);
  }
  return true;
}

double asDouble(uint64_t bits, const std::string &ty) {
  if (ty == "f64") {
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  if (ty == "f32") {
    float f;
    uint32_t u = (uint32_t)bits;
    std::memcpy(&f, &u, 4);
    return f;
  }
  uint32_t h = (uint32_t)bits & 0xffff;
  if (ty == "bf16" || ty == "bf16x2") {
    uint32_t u = h << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
  // IEEE half.
  unsigned s = h >> 15, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  double v;
  if (e == 0) v = std::ldexp((double)m, -24);
  else if (e == 31) v = m ? NAN : INFINITY;
  else v = std::ldexp((double)(m | 0x400), (int)e - 25);
  return s ? -v : v;
}

/// Tolerance of an approximate form: |emu - nv| <= max(absTol, relTol * |nv|), inside the
/// documented input domain (rows outside it are only checked for NaN/inf agreement).
struct Approx {
  double relTol = 0, absTol = 0;
  bool (*domain)(double, double) = nullptr;  // in0, in1
};

Approx approxFor(const golden::Form &f, const std::string &op, const std::string &ty) {
  Approx a;
  double ulp = ty == "f32" ? std::ldexp(1.0, -23) : ty == "f64" ? std::ldexp(1.0, -52)
             : ty.rfind("bf16", 0) == 0 ? std::ldexp(1.0, -7) : std::ldexp(1.0, -10);
  double b = f.ulpBound ? *f.ulpBound : 2;
  if (op == "sin" || op == "cos") {
    a.absTol = 2 * std::ldexp(1.0, -20.5);  // ISA: 2^-20.5 absolute in [-pi, pi], on each side
    a.domain = [](double x, double) { return std::fabs(x) <= M_PI; };
  } else if (op == "lg2") {
    a.absTol = 2 * std::ldexp(1.0, -22);
    a.relTol = 2 * std::ldexp(1.0, -22);
  } else if (op == "tanh") {
    a.relTol = ty == "f32" ? 2 * std::ldexp(1.0, -10.987) : (ty.rfind("bf16", 0) == 0 ? std::ldexp(1.0, -6) : std::ldexp(1.0, -9));
    a.absTol = a.relTol * std::ldexp(1.0, -14);
  } else if (op == "ex2" && ty != "f32") {
    a.relTol = ty.rfind("bf16", 0) == 0 ? std::ldexp(1.0, -6) : std::ldexp(1.0, -8.9);
  } else if ((op == "rcp" || op == "rsqrt") && ty == "f64") {
    a.relTol = std::ldexp(1.0, -19);  // the ISA gives no number; about 2^-20 each side
  } else {
    a.relTol = (2 * b + 1) * ulp;  // two implementations each within b ulp of the truth
    // div.approx/div.full.f32: checked with this tolerance for every divisor, also outside the
    // ISA's [2^-126, 2^126] (the translator reproduces the H200's scaling and its zero/NaN results
    // for |b| > 2^126 there).
  }
  return a;
}

bool approxEqual(uint64_t e, uint64_t n, double x0, double x1, const Approx &a, const std::string &ty) {
  double de = asDouble(e, ty), dn = asDouble(n, ty);
  if (std::isnan(dn) || std::isnan(de)) return std::isnan(dn) && std::isnan(de);
  if (std::isinf(dn) || std::isinf(de)) return de == dn;
  if (dn == 0 && de == 0) return std::signbit(dn) == std::signbit(de);  // signed zeros must match
  if (a.domain && !a.domain(x0, x1)) return true;
  double diff = std::fabs(de - dn);
  double minNormal = ty == "f64" ? 2.2250738585072014e-308 : ty == "f32" ? 1.1754943508222875e-38
                   : ty.rfind("bf16", 0) == 0 ? 1.1754943508222875e-38 : 6.103515625e-05;
  // Denormal results: an implementation may flush them; allow the min-normal gap.
  return diff <= a.absTol || diff <= a.relTol * std::fabs(dn) || diff <= minNormal;
}

struct Outcome {
  enum Status { Pass, Fail, Unsupported } status = Fail;
  std::string detail;  // one line
  std::string why; // Unsupported: the translator's message (no position)
  size_t rows = 0;
  bool crashed = false; // the isolated child died of a signal (set where waitpid's status is read)
};

/// Fixed-seed sampling of forms: a form runs when its FNV-1a hash with the seed falls in the
/// first sample/total of the hash range (about --sample forms in all, the same ones every run).
bool sampled(const Options &o, const std::string &key, size_t total) {
  uint64_t h = 1469598103934665603ull ^ o.seed;
  for (unsigned char c : key) h = (h ^ c) * 1099511628211ull;
  h ^= h >> 29;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 32;
  return total == 0 || (h % total) < o.sample;
}

/// Compares a form's outputs (\p out, the family data's layout at offset 0) with the H200's.
Outcome compareForm(const Options &o, const golden::Form &f, const std::vector<std::vector<uint64_t>> &cols,
                    const std::vector<uint8_t> &out, const uint8_t *famData) {
  Outcome res;
  // Compare.  The emu output buffer has the family data's layout at offset 0.
  golden::Form local = f;
  local.offset = 0;
  auto toks = golden::ref::split(f.name);
  const std::string &op = toks[0], &ty = toks.back();
  Approx ap;
  if (!f.exact) ap = approxFor(f, op, ty);
  size_t bad = 0, checked = 0;
  std::string firstBad;
  uint64_t in[3] = {0, 0, 0};
  for (size_t r = 0; r < f.rows; r += o.rowStride) {
    for (size_t i = 0; i < cols.size(); ++i) in[i] = cols[i][r];
    if (golden::skipRow(f.name, in)) continue;
    ++checked;
    for (unsigned j = 0; j < f.outputs.size(); ++j) {
      uint64_t e = local.output(out.data(), j, r), n = f.output(famData, j, r);
      bool ok = e == n;
      if (!ok && !f.exact) {
        if (ty == "f16x2" || ty == "bf16x2")
          ok = approxEqual(e & 0xffff, n & 0xffff, asDouble(in[0] & 0xffff, ty), asDouble(in[1] & 0xffff, ty), ap, ty) &&
               approxEqual(e >> 16, n >> 16, asDouble(in[0] >> 16, ty), asDouble(in[1] >> 16, ty), ap, ty);
        else
          ok = approxEqual(e, n, asDouble(in[0], ty), asDouble(in[1], ty), ap, ty);
      }
      if (!ok) {
        if (bad < o.showRows) {
          std::fprintf(stderr, "  %s row %zu out%u: emu %#llx, H200 %#llx (in %#llx %#llx %#llx)\n", f.name.c_str(), r, j,
                       (unsigned long long)e, (unsigned long long)n, (unsigned long long)in[0],
                       (unsigned long long)in[1], (unsigned long long)in[2]);
        }
        if (bad == 0) {
          char b[256];
          std::snprintf(b, sizeof b, "row %zu out%u: emu %#llx, H200 %#llx (in %#llx %#llx %#llx)", r, j,
                        (unsigned long long)e, (unsigned long long)n, (unsigned long long)in[0],
                        (unsigned long long)in[1], (unsigned long long)in[2]);
          firstBad = b;
        }
        ++bad;
      }
    }
  }
  res.rows = checked;
  if (bad) {
    res.detail = std::to_string(bad) + " of " + std::to_string(checked) + " rows differ; first: " + firstBad;
    return res;
  }
  res.status = Outcome::Pass;
  res.detail = std::to_string(checked) + " rows";
  return res;
}

/// --device isa: the form's PTX translated to the code object ptx2amd ships
/// (ptxjit::translate + amdgpulower::compileModule), run on isa-emu.
Outcome runFormIsa(const Options &o, const golden::Form &f, const std::string &ptx, const uint8_t *famData,
                   const amdgpulower::LowerOptions &lopts) {
  Outcome res;
  auto oneLine = [](const std::string &m) { return m.substr(0, m.find('\n')); };
  llvm::LLVMContext ctx;
  std::vector<amdgpulower::Diagnostic> diags;
  auto mod = ptxjit::translate(ptx, f.entry + ".ptx", ptxjit::InputKind::PTX, ctx, diags);
  llvm::Expected<std::vector<char>> co = mod ? amdgpulower::compileModule(std::move(*mod), lopts,
                                                                          amdgpulower::OutputKind::CodeObject, diags)
                                             : llvm::Expected<std::vector<char>>(mod.takeError());
  if (!co) {
    // Decided by the error's kind (support/Error.h), as on emu; the detail is the first error diagnostic.
    llvm::Error e = co.takeError();
    const bool unsupported = support::errorKind(e) == support::ErrorKind::Unsupported;
    std::string first = oneLine(llvm::toString(std::move(e)));
    for (const auto &d : diags)
      if (d.severity == support::Severity::Error) {
        first = oneLine(support::render(d));
        break;
      }
    if (unsupported) {
      res.status = Outcome::Unsupported;
      res.detail = first;
    } else {
      res.detail = "translation: " + first;
    }
    return res;
  }
  isaemu::DeviceOptions dopts;
  dopts.threads = 1;
  dopts.arenaBytes = 1ull << 30;
  auto dev = isaemu::Device::create(dopts);
  if (!dev) {
    res.detail = "device: " + oneLine(llvm::toString(dev.takeError()));
    return res;
  }
  auto prog = (*dev)->loadCodeObject(*co);
  if (!prog) {
    res.detail = "load: " + oneLine(llvm::toString(prog.takeError()));
    return res;
  }
  auto ki = (*prog)->kernel(f.entry);
  if (!ki) {
    res.detail = "load: " + oneLine(llvm::toString(ki.takeError()));
    return res;
  }
  auto cols = golden::generateInputs(f.recipe);
  uint64_t din[3] = {0, 0, 0}, dout = 0;
  std::string err;
  auto check = [&](llvm::Error e) {
    if (e) {
      if (err.empty()) err = oneLine(llvm::toString(std::move(e)));
      else llvm::consumeError(std::move(e));
    }
  };
  for (size_t i = 0; i < cols.size() && err.empty(); ++i) {
    auto b = golden::packColumn(*f.recipe.classes[i], cols[i]);
    auto a = (*dev)->malloc(b.size());
    if (!a) { check(a.takeError()); break; }
    din[i] = *a;
    check((*dev)->copyToDevice(din[i], b.data(), b.size()));
  }
  for (size_t i = cols.size(); i < 3; ++i) din[i] = din[0];
  const size_t outBytes = f.rows * f.rowBytes();
  std::vector<uint8_t> out(outBytes);
  if (err.empty()) {
    auto a = (*dev)->malloc(outBytes);
    if (!a) check(a.takeError());
    else dout = *a;
  }
  if (err.empty()) check((*dev)->memset(dout, 0xA5, outBytes));
  if (err.empty()) {
    uint32_t n = (uint32_t)f.rows;
    uint32_t blockDim[4] = {256, 1, 1, 0}; // pad: trailing __ptx2amd_block_dim explicit argument
    void *args[] = {&din[0], &din[1], &din[2], &dout, &n, blockDim};
    isaemu::LaunchConfig cfg;
    cfg.grid.x = (uint32_t)((f.rows + 255) / 256);
    cfg.block.x = 256;
    if ((*ki)->explicitArgs.size() == 6) cfg.block.x = 64 * (256 / 32);
    check((*dev)->launch(**prog, f.entry, cfg, args));
  }
  if (err.empty()) check((*dev)->copyFromDevice(out.data(), dout, outBytes));
  if (!err.empty()) {
    res.detail = "launch: " + err;
    return res;
  }
  return compareForm(o, f, cols, out, famData);
}

/// Translates, runs and compares one form (in the child process).
Outcome runForm(const Options &o, const golden::Form &f, const std::string &ptx, const uint8_t *famData) {
  Outcome res;
  auto oneLine = [](const std::string &m) { return m.substr(0, m.find('\n')); };
  amdgpulower::LowerOptions lopts;
  lopts.arch = o.arch;
  lopts.defaultPolicy = support::parseWarpPolicyName(o.policy).value_or(support::WarpPolicy::Pack);
  lopts.threads = 1;
  if (o.device == "isa") return runFormIsa(o, f, ptx, famData, lopts);
  auto ctx = std::make_unique<llvm::LLVMContext>();
  std::vector<amdgpulower::Diagnostic> diags;
  auto mod = ptxjit::lowerPTX(ptx, f.entry + ".ptx", *ctx, lopts, diags);
  if (!mod) {
    // Decided by the error's kind (support/Error.h); the detail is the first error diagnostic.
    llvm::Error e = mod.takeError();
    const bool unsupported = support::errorKind(e) == support::ErrorKind::Unsupported;
    std::string first = oneLine(llvm::toString(std::move(e)));
    for (const auto &d : diags)
      if (d.severity == support::Severity::Error) {
        first = oneLine(support::render(d));
        res.why = oneLine(d.message);
        break;
      }
    if (res.why.empty()) res.why = first;
    if (unsupported) {
      res.status = Outcome::Unsupported;
      res.detail = first;
    } else {
      res.detail = "translation: " + first;
    }
    return res;
  }
  emu::DeviceOptions dopts;
  dopts.threads = 1;
  dopts.arenaBytes = 1ull << 30;
  dopts.maxWaveInstructions = 200000000;
  auto dev = emu::Device::create(dopts);
  if (!dev) {
    res.detail = "device: " + oneLine(llvm::toString(dev.takeError()));
    return res;
  }
  auto loaded = (*dev)->loadModule(std::move(*mod), std::move(ctx));
  if (!loaded) {
    std::string m = oneLine(llvm::toString(loaded.takeError()));
    // The emulator names constructs it does not implement as "unsupported" too; those are
    // emulator gaps, not translator results, and count as failures.
    res.detail = "load: " + m;
    return res;
  }
  auto cols = golden::generateInputs(f.recipe);
  uint64_t din[3] = {0, 0, 0}, dout = 0;
  std::string err;
  auto check = [&](llvm::Error e) {
    if (e) {
      if (err.empty()) err = oneLine(llvm::toString(std::move(e)));
      else llvm::consumeError(std::move(e));
    }
  };
  for (size_t i = 0; i < cols.size() && err.empty(); ++i) {
    auto b = golden::packColumn(*f.recipe.classes[i], cols[i]);
    auto a = (*dev)->malloc(b.size());
    if (!a) {
      check(a.takeError());
      break;
    }
    din[i] = *a;
    check((*dev)->copyToDevice(din[i], b.data(), b.size()));
  }
  for (size_t i = cols.size(); i < 3; ++i) din[i] = din[0];
  const size_t outBytes = f.rows * f.rowBytes();
  std::vector<uint8_t> out(outBytes);
  if (err.empty()) {
    auto a = (*dev)->malloc(outBytes);
    if (!a) check(a.takeError());
    else dout = *a;
  }
  if (err.empty()) check((*dev)->memset(dout, 0xA5, outBytes));
  if (err.empty()) {
    uint32_t n = (uint32_t)f.rows;
    void *args[] = {&din[0], &din[1], &din[2], &dout, &n};
    emu::LaunchConfig cfg;
    cfg.grid.x = (uint32_t)((f.rows + 255) / 256);
    cfg.block.x = 256;
    check((*dev)->launch(**loaded, f.entry, cfg, args));
  }
  if (err.empty()) check((*dev)->copyFromDevice(out.data(), dout, outBytes));
  if (!err.empty()) {
    res.detail = "launch: " + err;
    return res;
  }
  return compareForm(o, f, cols, out, famData);
}

/// Runs runForm in a forked child; a crash or hang becomes a Fail.
Outcome runIsolated(const Options &o, const golden::Form &f, const std::string &ptx, const uint8_t *famData) {
  int fds[2];
  if (pipe(fds) != 0) return runForm(o, f, ptx, famData);
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    alarm(300);
    Outcome r = runForm(o, f, ptx, famData);
    // status rows detail '\n' why  (detail and why are single lines)
    std::string msg = std::to_string((int)r.status) + " " + std::to_string(r.rows) + " " + r.detail + "\n" + r.why;
    ssize_t w = write(fds[1], msg.data(), msg.size());
    (void)w;
    close(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  std::string msg;
  char buf[4096];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) msg.append(buf, (size_t)n);
  close(fds[0]);
  int st = 0;
  waitpid(pid, &st, 0);
  Outcome r;
  if (pid < 0) {
    r.detail = "fork failed";
    return r;
  }
  if (WIFSIGNALED(st) || msg.empty()) {
    r.crashed = WIFSIGNALED(st);
    r.detail = WIFSIGNALED(st) ? "crashed with signal " + std::to_string(WTERMSIG(st)) +
                                     (WTERMSIG(st) == SIGALRM ? " (timeout 300 s)" : "")
                               : "child produced no result";
    return r;
  }
  size_t a = msg.find(' '), b = msg.find(' ', a + 1);
  r.status = (Outcome::Status)std::stoi(msg.substr(0, a));
  r.rows = std::stoul(msg.substr(a + 1, b - a - 1));
  size_t nl = msg.find('\n', b + 1);
  r.detail = msg.substr(b + 1, nl == std::string::npos ? std::string::npos : nl - b - 1);
  if (nl != std::string::npos) r.why = msg.substr(nl + 1);
  return r;
}

}  // namespace

int main(int argc, char **argv) {
  llvm::sys::PrintStackTraceOnErrorSignal(argv[0]);  // a crashing child prints its stack
  Options o;
  if (argc < 3) {
    std::fprintf(stderr, "usage: golden_emu_compare DATA_DIR PTX_DIR [--arch A] [--policy pack|pad] "
                         "[--family F] [--form S] [--row-stride K] [--min-pass N] [--report FILE]\n");
    return 2;
  }
  o.dataDir = argv[1];
  o.ptxDir = argv[2];
  for (int i = 3; i + 1 < argc; i += 2) {
    std::string k = argv[i], v = argv[i + 1];
    if (k == "--arch") o.arch = v;
    else if (k == "--policy") o.policy = v;
    else if (k == "--family") o.family = v;
    else if (k == "--form") o.form = v;
    else if (k == "--row-stride") o.rowStride = std::max<size_t>(1, std::stoul(v));
    else if (k == "--min-pass") o.minPass = std::stoul(v);
    else if (k == "--report") o.report = v;
    else if (k == "--expected-failures") o.expectedFile = v;
    else if (k == "--tag") o.tag = v;
    else if (k == "--update-expected") o.updateExpected = v == "1";
    else if (k == "--strict") o.strict = v == "1";
    else if (k == "--show-rows") o.showRows = std::stoul(v);
    else if (k == "--device") o.device = v;
    else if (k == "--sample") o.sample = std::stoul(v);
    else if (k == "--seed") o.seed = std::stoull(v);
    else {
      std::fprintf(stderr, "unknown option %s\n", k.c_str());
      return 2;
    }
  }
  auto man = golden::loadManifest(o.dataDir);
  if (!man) {
    std::fprintf(stderr, "error: %s\n", llvm::toString(man.takeError()).c_str());
    return 1;
  }
  // Expected failures: lines "TAG family/form" (TAG = wave32, wave64, ... or all); '#' comments.
  std::map<std::string, std::string> expected;  // "family/form" -> tag it was listed under
  std::vector<std::string> keptLines;            // lines of other tags (kept on --update-expected)
  if (!o.expectedFile.empty()) {
    if (auto eb = llvm::MemoryBuffer::getFile(o.expectedFile)) {
      llvm::StringRef text = (*eb)->getBuffer();
      while (!text.empty()) {
        auto [line, rest] = text.split('\n');
        text = rest;
        llvm::StringRef l = line.trim();
        if (l.empty() || l.starts_with("#")) {
          keptLines.push_back(line.str());
          continue;
        }
        auto [t, name] = l.split(' ');
        if (t == o.tag || t == "all") expected[name.trim().str()] = t.str();
        else keptLines.push_back(line.str());
      }
    } else if (!o.updateExpected) {
      std::fprintf(stderr, "error: cannot read %s\n", o.expectedFile.c_str());
      return 1;
    }
  }
  size_t xfail = 0, xpass = 0, unexpected = 0, stale = 0;
  std::set<std::string> seenForms;
  std::vector<std::string> nowFailing;
  FILE *rep = o.report.empty() ? nullptr : std::fopen(o.report.c_str(), "w");
  size_t pass = 0, fail = 0, unsupported = 0, rowsChecked = 0, flaky = 0;
  std::map<std::string, size_t> unsupportedWhy;
  auto t0 = std::chrono::steady_clock::now();
  for (const auto &fam : man->families) {
    if (!o.family.empty() && fam.name != o.family) continue;
    auto buf = llvm::MemoryBuffer::getFile(o.ptxDir + "/" + fam.ptxFile);
    if (!buf) {
      std::fprintf(stderr, "FAIL cannot read %s/%s\n", o.ptxDir.c_str(), fam.ptxFile.c_str());
      return 1;
    }
    std::string header;
    std::map<std::string, std::string> kernels;
    if (!sliceModule((*buf)->getBuffer().str(), header, kernels)) {
      std::fprintf(stderr, "FAIL cannot slice %s\n", fam.ptxFile.c_str());
      return 1;
    }
    auto data = golden::loadFamilyData(o.dataDir, fam);
    if (!data) {
      std::fprintf(stderr, "FAIL %s\n", llvm::toString(data.takeError()).c_str());
      return 1;
    }
    size_t fpass = 0, ffail = 0, funs = 0;
    for (const auto &f : fam.forms) {
      if (!o.form.empty() && f.name.find(o.form) == std::string::npos) continue;
      if (o.sample && !sampled(o, fam.name + "/" + f.name, man->numForms)) continue;
      auto kit = kernels.find(f.entry);
      Outcome r;
      if (kit == kernels.end()) r.detail = "entry " + f.entry + " not in " + fam.ptxFile;
      else r = runIsolated(o, f, header + kit->second, data->data());
      if (r.status == Outcome::Fail && r.crashed) {
        // The emulator is being written concurrently and crashes intermittently; a crash is
        // retried once and reported as FLAKY (with the crash message) if the retry completes.
        std::string crash = r.detail;
        r = runIsolated(o, f, header + kit->second, data->data());
        if (!r.crashed) {
          ++flaky;
          std::fprintf(stderr, "FLAKY %s/%s: first run %s, retry: %s\n", fam.name.c_str(), f.name.c_str(),
                       crash.c_str(), r.detail.c_str());
        }
      }
      const char *st = r.status == Outcome::Pass ? "PASS" : r.status == Outcome::Fail ? "FAIL" : "UNSUPPORTED";
      if (rep) std::fprintf(rep, "%s %s/%s %s\n", st, fam.name.c_str(), f.name.c_str(), r.detail.c_str());
      const std::string key = fam.name + "/" + f.name;
      const bool listed = expected.count(key) != 0;
      seenForms.insert(key);
      if (r.status == Outcome::Pass) {
        ++pass, ++fpass;
        rowsChecked += r.rows;
        if (listed) {
          ++xpass;
          std::fprintf(stderr, "XPASS %s: passes now; remove it from %s\n", key.c_str(), o.expectedFile.c_str());
        }
      } else if (r.status == Outcome::Unsupported) {
        ++unsupported, ++funs;
        nowFailing.push_back(key);
        unsupportedWhy[r.why]++;
        if (listed) ++xfail;
        else ++unexpected, std::fprintf(stderr, "UNSUPPORTED %s: %s\n", key.c_str(), r.detail.c_str());
      } else {
        ++fail, ++ffail;
        nowFailing.push_back(key);
        if (listed) ++xfail;
        else ++unexpected;
        std::fprintf(stderr, "%s %s: %s\n", listed ? "XFAIL" : "FAIL", key.c_str(), r.detail.c_str());
      }
    }
    std::printf("family %-8s pass %4zu fail %4zu unsupported %4zu\n", fam.name.c_str(), fpass, ffail, funs);
    std::fflush(stdout);
  }
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!unsupportedWhy.empty()) {
    std::printf("unsupported constructs reported by the translator:\n");
    for (auto &[why, n] : unsupportedWhy) std::printf("  %4zu x %s\n", n, why.c_str());
  }
  std::printf("arch %s policy %s: %zu pass, %zu fail, %zu unsupported, %zu rows compared, %.1f s\n", o.arch.c_str(),
              o.policy.c_str(), pass, fail, unsupported, rowsChecked, s);
  if (flaky) std::printf("FLAKY: %zu forms crashed once and completed on retry (see FLAKY lines)\n", flaky);
  if (rep) std::fclose(rep);
  if (o.updateExpected && !o.expectedFile.empty()) {
    // Rewrites this tag's entries from the results of this run (a full run: no --family/--form).
    FILE *ef = std::fopen(o.expectedFile.c_str(), "w");
    for (auto &l : keptLines)
      if (!l.empty()) std::fprintf(ef, "%s\n", l.c_str());
    for (auto &k : nowFailing) std::fprintf(ef, "%s %s\n", o.tag.c_str(), k.c_str());
    std::fclose(ef);
    std::printf("wrote %zu expected failures for %s to %s\n", nowFailing.size(), o.tag.c_str(),
                o.expectedFile.c_str());
    return 0;
  }
  // A listed name that is no form of the manifest (a typo, a renamed form) would excuse nothing
  // and hide nothing; on a full run it is reported, and fatal under --strict.
  if (!o.expectedFile.empty() && o.family.empty() && o.form.empty())
    for (auto &[key, tag] : expected)
      if (!seenForms.count(key)) {
        ++stale;
        std::fprintf(stderr, "STALE %s %s: not a form of the manifest\n", tag.c_str(), key.c_str());
      }
  if (!o.expectedFile.empty())
    std::printf("expected failures (%s): %zu still failing, %zu now pass (XPASS), %zu unexpected failures, "
                "%zu stale entries\n",
                o.tag.c_str(), xfail, xpass, unexpected, stale);
  if (pass < o.minPass) {
    std::fprintf(stderr, "FAIL only %zu forms pass, expected at least %zu\n", pass, o.minPass);
    return 1;
  }
  if (!o.expectedFile.empty()) return (unexpected || (o.strict && (xpass || stale))) ? 1 : 0;
  return (fail || unsupported) ? 1 : 0;
}
