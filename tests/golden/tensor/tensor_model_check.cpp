// tensor_model_check: the tensor-core accumulation model of the device library
// (amdgpu-lower/devlib/tensor_model.h, parameters kTcModelF32/kTcModelF16) against a dump written by
// tests/corpus/tensor_numerics.cu (inputs, C and the D bits of every mma/wmma probe trial).
//   tensor_model_check check <dump>        every D of the dump must equal the model's (exit 1 if not)
//   tensor_model_check fit <dump>          mismatches of every parameter set, per configuration
//   tensor_model_check layouts <a> <b>     compare the wmma fragment-layout records of two dumps
// A dump is raw binary; '-' reads stdin (the committed H200 dump is zstd-compressed:
// `zstd -dc tests/golden/tensor/h200.bin.zst | tensor_model_check check -`).
extern "C" {
#include "tensor_model.h"
}

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

enum In { IN_F16, IN_BF16, IN_TF32 };
struct Cfg { const char *name; In in; bool f16acc; };
// tensor_numerics.cu's configuration table, by index
const Cfg kCfg[] = {
    {"mma.m16n8k16.f32.f16", IN_F16, false},    {"mma.m16n8k8.f32.f16", IN_F16, false},
    {"mma.m16n8k16.f16.f16", IN_F16, true},     {"mma.m16n8k8.f16.f16", IN_F16, true},
    {"mma.m16n8k16.f32.bf16", IN_BF16, false},  {"mma.m16n8k8.f32.bf16", IN_BF16, false},
    {"mma.m16n8k8.f32.tf32", IN_TF32, false},   {"mma.m16n8k4.f32.tf32", IN_TF32, false},
    {"wmma.m16n16k16.f32.f16", IN_F16, false},  {"wmma.m16n16k16.f16.f16", IN_F16, true},
    {"wmma.m16n16k16.f32.bf16", IN_BF16, false}, {"wmma.m16n16k8.f32.tf32", IN_TF32, false},
    {"wmma.m32n8k16.f32.f16", IN_F16, false},   {"wmma.m8n32k16.f32.f16", IN_F16, false},
};

struct Record {
  uint32_t ci = 0, M = 0, N = 0, K = 0, trials = 0;
  std::vector<uint32_t> a, b, c, d;
};
struct LayoutRec { uint32_t part, ne, shape; std::vector<int32_t> map; };
// mma.m8n8k4.f64 trials: A 8x4, B 4x8, C/D 8x8 per trial, row-major doubles
struct F64Rec { uint32_t trials = 0; std::vector<double> a, b, c, d; };

bool readAll(const char *path, std::vector<uint32_t> &w) {
  FILE *f = std::strcmp(path, "-") == 0 ? stdin : std::fopen(path, "rb");
  if (!f) { std::fprintf(stderr, "cannot open %s\n", path); return false; }
  uint32_t buf[4096];
  size_t n;
  while ((n = std::fread(buf, 4, 4096, f)) > 0) w.insert(w.end(), buf, buf + n);
  if (f != stdin) std::fclose(f);
  return true;
}

bool parse(const std::vector<uint32_t> &w, std::vector<Record> &recs, std::vector<LayoutRec> &lays, std::vector<F64Rec> &f64s) {
  size_t p = 0;
  auto take = [&](size_t n, std::vector<uint32_t> &out) {
    if (p + n > w.size()) return false;
    out.assign(w.begin() + long(p), w.begin() + long(p + n));
    p += n;
    return true;
  };
  while (p < w.size()) {
    if (w[p] == 0x4d4d4150u && p + 6 <= w.size()) {
      Record r;
      r.ci = w[p + 1]; r.M = w[p + 2]; r.N = w[p + 3]; r.K = w[p + 4]; r.trials = w[p + 5];
      p += 6;
      if (r.ci >= sizeof kCfg / sizeof kCfg[0]) return false;
      size_t na = size_t(r.trials) * r.M * r.K, nb = size_t(r.trials) * r.K * r.N, nc = size_t(r.trials) * r.M * r.N;
      if (!take(na, r.a) || !take(nb, r.b) || !take(nc, r.c) || !take(nc, r.d)) return false;
      recs.push_back(std::move(r));
    } else if (w[p] == 0x46363444u && p + 2 <= w.size()) {
      F64Rec r;
      r.trials = w[p + 1];
      p += 2;
      auto takeD = [&](size_t n, std::vector<double> &out) {
        if (p + 2 * n > w.size()) return false;
        out.resize(n);
        std::memcpy(out.data(), w.data() + p, n * 8);
        p += 2 * n;
        return true;
      };
      if (!takeD(size_t(r.trials) * 32, r.a) || !takeD(size_t(r.trials) * 32, r.b) || !takeD(size_t(r.trials) * 64, r.c) ||
          !takeD(size_t(r.trials) * 64, r.d))
        return false;
      f64s.push_back(std::move(r));
    } else if (w[p] == 0x4c41594fu && p + 4 <= w.size()) {
      LayoutRec l;
      l.part = w[p + 1]; l.ne = w[p + 2]; l.shape = w[p + 3];
      p += 4;
      std::vector<uint32_t> m;
      if (!take(size_t(32) * l.ne, m)) return false;
      l.map.assign(m.begin(), m.end());
      lays.push_back(std::move(l));
    } else {
      return false;
    }
  }
  return true;
}

double inVal(uint32_t bits, In in, int tf32Mode) {
  if (in == IN_TF32) {
    uint32_t u = bits;
    if (tf32Mode == 1) { // round to nearest even at 10 mantissa bits (not for inf/nan)
      if (((u >> 23) & 0xff) != 0xff) { uint32_t lsb = (u >> 13) & 1; u += 0xfffu + lsb; }
    }
    u &= 0xffffe000u;
    float f; std::memcpy(&f, &u, 4);
    return f;
  }
  if (in == IN_BF16) { uint32_t u = bits << 16; float f; std::memcpy(&f, &u, 4); return f; }
  tc_val v = tc_from_bits(bits & 0xffff, 11, 5);
  if (v.kind == 3) return NAN;
  if (v.kind == 2) return v.neg ? -INFINITY : INFINITY;
  double x = std::ldexp(double(v.mant), v.exp);
  return v.neg ? -x : x;
}

// mismatches of one record under a model
long mismatches(const Record &r, const tc_model &m, int tf32Mode, bool print) {
  const Cfg &cf = kCfg[r.ci];
  long bad = 0;
  for (uint32_t t = 0; t < r.trials; ++t)
    for (uint32_t i = 0; i < r.M; ++i)
      for (uint32_t n = 0; n < r.N; ++n) {
        double fa[64], fb[64];
        for (uint32_t k = 0; k < r.K; ++k) {
          fa[k] = inVal(r.a[(size_t(t) * r.M + i) * r.K + k], cf.in, tf32Mode);
          fb[k] = inVal(r.b[(size_t(t) * r.K + k) * r.N + n], cf.in, tf32Mode);
        }
        size_t j = (size_t(t) * r.M + i) * r.N + n;
        uint32_t want = r.d[j], got;
        if (cf.f16acc) got = tc_dot(&m, r.c[j] & 0xffff, fa, fb, int(r.K), 11, 5, 0x7fffu);
        else got = tc_dot(&m, r.c[j], fa, fb, int(r.K), 24, 8, 0x7fffffffu);
        if (got != want) {
          if (print && bad < 4)
            std::printf("  %s trial %u D[%u][%u]: model %08x, H200 %08x (scheme %u)\n", cf.name, t, i, n, got, want, t % 8);
          ++bad;
        }
      }
  return bad;
}

// f64: 0 = FMA chain in k order from C (the translator's), 1 = C + products rounded once (binary128)
long f64Mismatches(const F64Rec &r, int model, bool print) {
  long bad = 0;
  for (uint32_t t = 0; t < r.trials; ++t)
    for (int i = 0; i < 8; ++i)
      for (int n = 0; n < 8; ++n) {
        double acc = r.c[t * 64 + uint32_t(i * 8 + n)];
        if (model == 0) {
          for (int k = 0; k < 4; ++k) acc = std::fma(r.a[t * 32 + uint32_t(i * 4 + k)], r.b[t * 32 + uint32_t(k * 8 + n)], acc);
        } else {
          __float128 s = acc;
          for (int k = 0; k < 4; ++k) s += (__float128)r.a[t * 32 + uint32_t(i * 4 + k)] * r.b[t * 32 + uint32_t(k * 8 + n)];
          acc = double(s);
        }
        double want = r.d[t * 64 + uint32_t(i * 8 + n)];
        if (std::memcmp(&acc, &want, 8) != 0) {
          if (print && bad < 4) std::printf("  f64 trial %u D[%d][%d]: model %.17g, H200 %.17g\n", t, i, n, acc, want);
          ++bad;
        }
      }
  return bad;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 3) { std::fprintf(stderr, "usage: %s check|fit <dump> | layouts <a> <b>\n", argv[0]); return 2; }
  std::string mode = argv[1];
  std::vector<uint32_t> w;
  std::vector<Record> recs;
  std::vector<LayoutRec> lays;
  std::vector<F64Rec> f64s;
  if (!readAll(argv[2], w) || !parse(w, recs, lays, f64s)) { std::fprintf(stderr, "bad dump %s\n", argv[2]); return 2; }
  if (mode == "check") {
    long total = 0;
    for (const auto &r : recs) {
      const Cfg &cf = kCfg[r.ci];
      tc_model m = cf.f16acc ? kTcModelF16 : kTcModelF32;
      if (r.ci == 11) m.group = 4; // wmma.m16n16k8.tf32: two chained k4 steps (as ptx-to-llvm issues it)
      long bad = mismatches(r, m, 0, true);
      std::printf("%-26s %6u results, %ld differ from the model\n", cf.name, r.trials * r.M * r.N, bad);
      total += bad;
    }
    for (const auto &r : f64s) {
      long bad = f64Mismatches(r, 0, true);
      std::printf("%-26s %6u results, %ld differ from the model\n", "mma.m8n8k4.f64", r.trials * 64, bad);
      total += bad;
    }
    std::printf("RESULT %s\n", total || recs.empty() ? "FAIL" : "PASS");
    return total || recs.empty() ? 1 : 0;
  }
  if (mode == "fit") {
    for (const auto &r : recs) {
      const Cfg &cf = kCfg[r.ci];
      long best = -1;
      std::string bestDesc;
      for (int group : {1, 2, 4, 8, 16})
        for (int width = 20; width <= 32; ++width)
          for (int round = 0; round < 2; ++round)
            for (int tf = 0; tf < (cf.in == IN_TF32 ? 2 : 1); ++tf) {
              tc_model m{group, width, round};
              long bad = mismatches(r, m, tf, false);
              if (best < 0 || bad < best) {
                best = bad;
                char d[128];
                std::snprintf(d, sizeof d, "group %d width %d round %s tf32 %s", group, width, round ? "rn" : "rz",
                              tf ? "rn" : "trunc");
                bestDesc = d;
              }
            }
      std::printf("%-26s best: %s: %ld of %u differ\n", cf.name, bestDesc.c_str(), best, r.trials * r.M * r.N);
    }
    for (const auto &r : f64s)
      std::printf("%-26s fma chain: %ld, single rounding: %ld of %u differ\n", "mma.m8n8k4.f64", f64Mismatches(r, 0, false),
                  f64Mismatches(r, 1, false), r.trials * 64);
    return 0;
  }
  if (mode == "layouts" && argc > 3) {
    std::vector<uint32_t> w2;
    std::vector<Record> r2;
    std::vector<LayoutRec> l2;
    std::vector<F64Rec> f2;
    if (!readAll(argv[3], w2) || !parse(w2, r2, l2, f2)) { std::fprintf(stderr, "bad dump %s\n", argv[3]); return 2; }
    int diff = 0;
    for (size_t i = 0; i < lays.size() && i < l2.size(); ++i) {
      const auto &x = lays[i], &y = l2[i];
      bool same = x.ne == y.ne && x.map == y.map;
      if (!same) {
        ++diff;
        std::printf("layout shape %u part %u differs (elems %u vs %u)\n", x.shape, x.part, x.ne, y.ne);
        for (uint32_t l = 0; l < 32 && l < 4; ++l) {
          std::printf("  lane %2u a:", l);
          for (uint32_t e = 0; e < x.ne; ++e) std::printf(" %3d", x.map[l * x.ne + e]);
          std::printf("\n          b:");
          for (uint32_t e = 0; e < y.ne; ++e) std::printf(" %3d", y.map[l * y.ne + e]);
          std::printf("\n");
        }
      }
    }
    std::printf("%zu layout records, %d differ\n", lays.size(), diff);
    return diff ? 1 : 0;
  }
  std::fprintf(stderr, "unknown mode %s\n", mode.c_str());
  return 2;
}
