//===- OffloadBundle.cpp - __CLANG_OFFLOAD_BUNDLE__ writer ------------------===//
//
// Writes clang's uncompressed offload bundle (formats.md §5.5): the 24-byte
// magic, u64 entry count, then per entry {u64 offset, u64 size, u64 id
// length, id bytes}, then the payloads. Like clang's HIP driver we put an
// empty `host-x86_64-unknown-linux-gnu` entry first and align code objects
// to 4096 bytes (HIP hands only the first 4096 bytes to COMGR for the
// lookup, so the table must fit there; a non-empty host payload -- the
// ptx2amd-fatbin manifest -- comes after the table). Entry ids are
// `hipv4-amdgcn-amd-amdhsa--<arch>` (hipv4 = code object v4 and later).
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include <cstring>

namespace amdgpulower {

std::string bundleEntryId(std::string_view arch) {
  return "hipv4-amdgcn-amd-amdhsa--" + std::string(arch);
}

namespace {
void putU64(std::vector<char> &out, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i) out[at + i] = char((v >> (8 * i)) & 0xff);
}
} // namespace

std::vector<char> writeOffloadBundle(llvm::ArrayRef<BundleEntry> entries) {
  return writeOffloadBundle(entries, {});
}

std::vector<char> writeOffloadBundle(llvm::ArrayRef<BundleEntry> entries, std::vector<char> hostPayload) {
  static constexpr char kMagic[] = "__CLANG_OFFLOAD_BUNDLE__";
  static constexpr uint64_t kAlign = 4096;
  std::vector<BundleEntry> all;
  all.push_back({"host-x86_64-unknown-linux-gnu", std::move(hostPayload)});
  all.insert(all.end(), entries.begin(), entries.end());

  size_t header = 24 + 8;
  for (auto &e : all) header += 24 + e.id.size();
  std::vector<uint64_t> offsets;
  uint64_t at = (header + kAlign - 1) / kAlign * kAlign;
  for (auto &e : all) {
    offsets.push_back(at);
    at += e.payload.size();
    if (!e.payload.empty()) at = (at + kAlign - 1) / kAlign * kAlign;
  }
  std::vector<char> out(at, 0);
  std::memcpy(out.data(), kMagic, 24);
  putU64(out, 24, all.size());
  size_t p = 32;
  for (size_t i = 0; i < all.size(); ++i) {
    putU64(out, p, offsets[i]);
    putU64(out, p + 8, all[i].payload.size());
    putU64(out, p + 16, all[i].id.size());
    std::memcpy(out.data() + p + 24, all[i].id.data(), all[i].id.size());
    p += 24 + all[i].id.size();
    if (!all[i].payload.empty())
      std::memcpy(out.data() + offsets[i], all[i].payload.data(), all[i].payload.size());
  }
  return out;
}

} // namespace amdgpulower
