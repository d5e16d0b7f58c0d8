// record.cu -- runs every generated golden form on a real NVIDIA GPU and writes the outputs.
//
// Usage: record GEN_DIR OUT_DIR
//   GEN_DIR holds plan.txt and the <family>.ptx modules written by scripts/golden/gen.py;
//   OUT_DIR receives <family>.bin (every form's outputs in plan order, output j of a form as a
//   block of rows*size_j bytes after the blocks of outputs < j) and record.log.
// Driver API only: each module is JIT-compiled from its PTX by cuModuleLoadDataEx, so exactly the
// PTX that ptx2amd translates is what ran.  Inputs are regenerated with golden_inputs.h and their
// FNV-1a hash is checked against the plan (i.e. against gen.py's Python generator) before a launch.
// Every kernel runs twice, over output buffers poisoned with 0x00 and 0xFF; differing results (an
// unwritten row or a non-deterministic instruction) fail the run.
#include <cuda.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../../tests/golden/golden_inputs.h"

#define CK(x)                                                                       \
  do {                                                                              \
    CUresult r_ = (x);                                                              \
    if (r_ != CUDA_SUCCESS) {                                                       \
      const char *s_ = nullptr;                                                     \
      cuGetErrorString(r_, &s_);                                                    \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #x, s_);  \
      std::exit(2);                                                                 \
    }                                                                               \
  } while (0)

static std::string readFile(const std::string &p) {
  std::ifstream f(p, std::ios::binary);
  if (!f) {
    std::fprintf(stderr, "cannot read %s\n", p.c_str());
    std::exit(2);
  }
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

int main(int argc, char **argv) {
  // --check-plan GEN_DIR: only regenerate every form's inputs and compare their hash with the
  // plan (needs no GPU; run locally before spending device time).
  const bool checkOnly = argc == 3 && std::string(argv[1]) == "--check-plan";
  if (argc != 3) {
    std::fprintf(stderr, "usage: record GEN_DIR OUT_DIR | record --check-plan GEN_DIR\n");
    return 2;
  }
  const std::string gen = checkOnly ? argv[2] : argv[1], outDir = argv[2];
  if (checkOnly) {
    std::istringstream plan(readFile(gen + "/plan.txt"));
    std::string line;
    size_t ok = 0;
    while (std::getline(plan, line)) {
      std::istringstream ls(line);
      std::string tag, entry, kindS, seedS, hashS;
      size_t rows;
      int nin, nout;
      ls >> tag;
      if (tag != "K") continue;
      golden::Recipe rec;
      ls >> entry >> rows >> kindS >> seedS >> rec.nrand >> nin;
      golden::parseRecipeKind(kindS, rec.kind);
      rec.seed = std::stoull(seedS, nullptr, 16);
      for (int i = 0; i < nin; ++i) {
        std::string c;
        ls >> c;
        rec.classes.push_back(golden::findClass(c));
      }
      ls >> nout;
      for (int j = 0; j < nout; ++j) { size_t s; ls >> s; }
      ls >> hashS;
      auto cols = golden::generateInputs(rec);
      if (golden::rowCount(rec) != rows || golden::inputsHash(rec, cols) != std::stoull(hashS, nullptr, 16)) {
        std::fprintf(stderr, "MISMATCH %s\n", entry.c_str());
        return 1;
      }
      ++ok;
    }
    std::printf("plan ok: %zu forms, inputs match gen.py\n", ok);
    return 0;
  }
  CK(cuInit(0));
  CUdevice dev;
  CK(cuDeviceGet(&dev, 0));
  char devName[256];
  CK(cuDeviceGetName(devName, sizeof devName, dev));
  int drv = 0;
  CK(cuDriverGetVersion(&drv));
  CUcontext ctx;
  CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
  FILE *log = std::fopen((outDir + "/record.log").c_str(), "w");
  std::fprintf(log, "device %s driver %d\n", devName, drv);
  std::printf("device %s driver %d\n", devName, drv);

  std::istringstream plan(readFile(gen + "/plan.txt"));
  std::string line;
  CUmodule mod = nullptr;
  FILE *bin = nullptr;
  std::string family;
  size_t nForms = 0, nBytes = 0;
  auto t0 = std::chrono::steady_clock::now();
  while (std::getline(plan, line)) {
    if (line.empty()) continue;
    std::istringstream ls(line);
    std::string tag;
    ls >> tag;
    if (tag == "F") {
      std::string ptxFile;
      int count;
      ls >> family >> ptxFile >> count;
      if (mod) CK(cuModuleUnload(mod));
      if (bin) std::fclose(bin);
      std::string ptx = readFile(gen + "/" + ptxFile);
      char errLog[16384] = {0};
      CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
      void *vals[] = {errLog, (void *)(uintptr_t)sizeof errLog};
      auto tl = std::chrono::steady_clock::now();
      CUresult r = cuModuleLoadDataEx(&mod, ptx.c_str(), 2, opts, vals);
      if (r != CUDA_SUCCESS) {
        std::fprintf(stderr, "JIT of %s failed (%d):\n%s\n", ptxFile.c_str(), (int)r, errLog);
        return 2;
      }
      double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - tl).count();
      std::fprintf(log, "module %s: %d forms, JIT %.0f ms\n", family.c_str(), count, ms);
      std::printf("module %s: %d forms, JIT %.0f ms\n", family.c_str(), count, ms);
      std::fflush(stdout);
      bin = std::fopen((outDir + "/" + family + ".bin").c_str(), "wb");
      continue;
    }
    if (tag != "K") {
      std::fprintf(stderr, "bad plan line: %s\n", line.c_str());
      return 2;
    }
    std::string entry, kindS, seedS, hashS;
    size_t rows;
    int nin, nout;
    golden::Recipe rec;
    ls >> entry >> rows >> kindS >> seedS >> rec.nrand >> nin;
    if (!golden::parseRecipeKind(kindS, rec.kind)) {
      std::fprintf(stderr, "bad recipe %s\n", kindS.c_str());
      return 2;
    }
    rec.seed = std::stoull(seedS, nullptr, 16);
    for (int i = 0; i < nin; ++i) {
      std::string c;
      ls >> c;
      const golden::ClassInfo *ci = golden::findClass(c);
      if (!ci) {
        std::fprintf(stderr, "unknown class %s\n", c.c_str());
        return 2;
      }
      rec.classes.push_back(ci);
    }
    ls >> nout;
    std::vector<size_t> osz(nout);
    size_t rowBytes = 0;
    for (auto &s : osz) {
      ls >> s;
      rowBytes += s;
    }
    ls >> hashS;
    if (golden::rowCount(rec) != rows) {
      std::fprintf(stderr, "%s: row count mismatch %zu vs %zu\n", entry.c_str(), golden::rowCount(rec), rows);
      return 2;
    }
    auto cols = golden::generateInputs(rec);
    uint64_t h = golden::inputsHash(rec, cols);
    if (h != std::stoull(hashS, nullptr, 16)) {
      std::fprintf(stderr, "%s: input hash %016llx != plan %s (C++/Python generators diverge)\n",
                   entry.c_str(), (unsigned long long)h, hashS.c_str());
      return 2;
    }
    CUdeviceptr din[3] = {0, 0, 0}, dout;
    for (int i = 0; i < nin; ++i) {
      auto b = golden::packColumn(*rec.classes[i], cols[i]);
      CK(cuMemAlloc(&din[i], b.size()));
      CK(cuMemcpyHtoD(din[i], b.data(), b.size()));
    }
    for (int i = nin; i < 3; ++i) din[i] = din[0];
    const size_t outBytes = rows * rowBytes;
    CK(cuMemAlloc(&dout, outBytes));
    CUfunction fn;
    CK(cuModuleGetFunction(&fn, mod, entry.c_str()));
    unsigned n32 = (unsigned)rows;
    void *args[] = {&din[0], &din[1], &din[2], &dout, &n32};
    std::vector<uint8_t> res[2];
    for (int pass = 0; pass < 2; ++pass) {
      CK(cuMemsetD8(dout, pass ? 0xFF : 0x00, outBytes));
      CK(cuLaunchKernel(fn, (unsigned)((rows + 255) / 256), 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));
      CK(cuCtxSynchronize());
      res[pass].resize(outBytes);
      CK(cuMemcpyDtoH(res[pass].data(), dout, outBytes));
    }
    if (res[0] != res[1]) {
      size_t k = 0;
      while (res[0][k] == res[1][k]) ++k;
      std::fprintf(stderr, "%s/%s: outputs differ between the two poisoned runs at byte %zu\n",
                   family.c_str(), entry.c_str(), k);
      std::fprintf(log, "NONDETERMINISTIC %s/%s byte %zu\n", family.c_str(), entry.c_str(), k);
      return 3;
    }
    if (std::fwrite(res[0].data(), 1, outBytes, bin) != outBytes) {
      std::fprintf(stderr, "write failed\n");
      return 2;
    }
    for (int i = 0; i < nin; ++i) CK(cuMemFree(din[i]));
    CK(cuMemFree(dout));
    ++nForms;
    nBytes += outBytes;
  }
  if (mod) CK(cuModuleUnload(mod));
  if (bin) std::fclose(bin);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::fprintf(log, "recorded %zu forms, %zu bytes, %.1f s\n", nForms, nBytes, s);
  std::printf("recorded %zu forms, %zu bytes, %.1f s\n", nForms, nBytes, s);
  std::fclose(log);
  CK(cuDevicePrimaryCtxRelease(dev));
  return 0;
}
