// texture_model_check: the filter weights of the device library's texture model
// (amdgpu-lower/devlib/texture_model.h) against every weight the H200 gave for
// tests/golden/probes/tex_weights_probe.cu. That probe samples one-hot textures (one texel 1.0, the
// others 0), so each result is one texel's weight, read off exactly in 1/256; its stdout lines are
// "group i coords(hex fp32)... | weight*256...". For each line this computes the taps and weights
// the model gives for the same coordinates (texture_model.h's functions, as texture.c calls them)
// and compares all of them:
//   w1d    1D, width 2: (256 - a, a)
//   w2d    2D 2x2: ptx_texm_weights2
//   w3d    3D 2x2x2: ptx_texm_weights3
//   wtri   mipmapped 2D 4x4 / 2x2, tex2DLod: ptx_texm_level_weights2 per level (LOD via
//          ptx_texm_fixed8 / ptx_texm_clamp_lod256, 3 levels, max clamp 2)
//   wtri1d the same for 1D 4 / 2
// Usage: texture_model_check <stdout>   ('-' reads stdin; the committed recording is zstd-compressed)
// Prints per-group counts and the first mismatches; "RESULT PASS" when every weight of every line
// equals the H200's and every group was seen, else "RESULT FAIL" (exit 1).
extern "C" {
#include "texture_model.h"
}

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

float fromHex(const std::string &h) {
  uint32_t u = (uint32_t)std::strtoul(h.c_str(), nullptr, 16);
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// The weight of texel base + 1 along one axis of a linear tap, relative to texel `base` (a tap
// whose weight rounded to 256 moved to the next texel reads as 256 here).
int rel(ptx_texm_tap t, int32_t base) { return (int)t.w + 256 * (t.i - base); }

struct Group {
  int lines = 0, bad = 0;
};

// The model's weights for one probe line, in the probe's texel order; empty if the taps leave the
// probed texels (then the probe's layout does not hold and the line counts as a mismatch).
std::vector<int> model(const std::string &g, const std::vector<float> &c) {
  const int norm = 1;
  if (g == "w1d") {
    int a = rel(ptx_texm_linear_tap(c[0], 2, norm), 0);
    return {256 - a, a};
  }
  if (g == "w2d") {
    int a = rel(ptx_texm_linear_tap(c[0], 2, norm), 0), b = rel(ptx_texm_linear_tap(c[1], 2, norm), 0);
    ptx_texm_w2 w = ptx_texm_weights2((uint32_t)a, (uint32_t)b);
    return {(int)w.w00, (int)w.w10, (int)w.w01, (int)w.w11};
  }
  if (g == "w3d") {
    int a = rel(ptx_texm_linear_tap(c[0], 2, norm), 0), b = rel(ptx_texm_linear_tap(c[1], 2, norm), 0),
        cz = rel(ptx_texm_linear_tap(c[2], 2, norm), 0);
    ptx_texm_w3 w = ptx_texm_weights3((uint32_t)a, (uint32_t)b, (uint32_t)cz);
    return {(int)w.z0.w00, (int)w.z0.w10, (int)w.z0.w01, (int)w.z0.w11,
            (int)w.z1.w00, (int)w.z1.w10, (int)w.z1.w01, (int)w.z1.w11};
  }
  if (g == "wtri" || g == "wtri1d") {
    bool two = g == "wtri";
    float lod = c[two ? 2 : 1];
    int32_t l256 = ptx_texm_clamp_lod256(ptx_texm_fixed8(lod), 0.0f, 0.0f, 2.0f, 3u);
    uint32_t f = (uint32_t)(l256 & 255);
    if ((l256 >> 8) != 0) return {}; // the probe's LODs are in [0, 1)
    // level 0 (extent 4): texels 1..2 of each axis; level 1 (extent 2): texels 0..1
    int a0 = rel(ptx_texm_linear_tap(c[0], 4, norm), 1), a1 = rel(ptx_texm_linear_tap(c[0], 2, norm), 0);
    int b0 = two ? rel(ptx_texm_linear_tap(c[1], 4, norm), 1) : 0;
    int b1 = two ? rel(ptx_texm_linear_tap(c[1], 2, norm), 0) : 0;
    ptx_texm_w2 lo = ptx_texm_level_weights2((uint32_t)a0, (uint32_t)b0, 256u - f);
    ptx_texm_w2 hi = ptx_texm_level_weights2((uint32_t)a1, (uint32_t)b1, f);
    if (!two) return {(int)lo.w00, (int)lo.w10, (int)hi.w00, (int)hi.w10};
    return {(int)lo.w00, (int)lo.w10, (int)lo.w01, (int)lo.w11,
            (int)hi.w00, (int)hi.w10, (int)hi.w01, (int)hi.w11};
  }
  return {};
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: texture_model_check <tex_weights_probe stdout | ->\n");
    return 2;
  }
  FILE *in = std::strcmp(argv[1], "-") == 0 ? stdin : std::fopen(argv[1], "r");
  if (!in) {
    std::fprintf(stderr, "cannot open %s\n", argv[1]);
    return 2;
  }
  const std::map<std::string, int> coords = {{"w1d", 1}, {"w2d", 2}, {"w3d", 3}, {"wtri", 3}, {"wtri1d", 2}};
  std::map<std::string, Group> groups;
  int shown = 0, malformed = 0;
  bool done = false;
  char buf[1024];
  while (std::fgets(buf, sizeof buf, in)) {
    std::string line(buf);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    if (line == "tex_weights_probe done") {
      done = true;
      continue;
    }
    std::istringstream ss(line);
    std::string g, idx;
    ss >> g >> idx;
    auto it = coords.find(g);
    if (it == coords.end()) {
      ++malformed;
      continue;
    }
    std::vector<float> c;
    std::string tok;
    for (int k = 0; k < it->second && ss >> tok; ++k) c.push_back(fromHex(tok));
    std::vector<int> hw;
    bool ok = ss >> tok && tok == "|" && (int)c.size() == it->second;
    while (ok && ss >> tok) {
      if (tok[0] == 'x') { hw.push_back(-1); continue; } // not a multiple of 1/256: never the model's
      hw.push_back(std::atoi(tok.c_str()));
    }
    Group &gr = groups[g];
    ++gr.lines;
    std::vector<int> mw = ok ? model(g, c) : std::vector<int>{};
    if (mw.empty() || mw != hw) {
      ++gr.bad;
      if (shown++ < 10) {
        std::printf("mismatch: %s\n  model:", line.c_str());
        for (int w : mw) std::printf(" %d", w);
        std::printf("\n");
      }
    }
  }
  if (in != stdin) std::fclose(in);
  bool pass = done && malformed == 0;
  for (auto &kv : coords) {
    Group &gr = groups[kv.first];
    std::printf("%-7s %5d lines, %d differ\n", kv.first.c_str(), gr.lines, gr.bad);
    if (gr.lines == 0 || gr.bad) pass = false;
  }
  if (!done) std::printf("the recording has no 'tex_weights_probe done' line\n");
  if (malformed) std::printf("%d lines of no known group\n", malformed);
  std::printf("RESULT %s\n", pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}
