//===- CacheEntryFuzz.cpp - libFuzzer target: runtime/cache entry decoding -===//
//
// The on-disk cache (runtime/cache, issue 13) reads entry files that any
// process of the user - or a full disk, or a crash mid-write - may have left
// in any state. cacheentry::decode()/verify() must answer "valid, here is the
// payload" or a reason, for any bytes: the payload view must lie inside the
// file and match the declared size. Built only when runtime/cache exists.
//
//===----------------------------------------------------------------------===//
#include "CacheEntry.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *D, size_t N) {
  using namespace runtime::cacheentry;
  llvm::ArrayRef<uint8_t> File(D, N), Payload;
  std::string Why = decode("0123456789abcdef.hsaco", File, Payload);
  if (Why.empty() && (Payload.data() < D || Payload.data() + Payload.size() > D + N)) __builtin_trap();
  size_t Cut = N < kHeaderSize ? N : kHeaderSize;
  std::string Why2 = verify("0123456789abcdef.hsaco", File.take_front(Cut), File.drop_front(Cut));
  if (Why.empty() != Why2.empty()) __builtin_trap(); // the two entry points agree
  // A valid entry re-encodes to the same bytes.
  if (Why.empty() && encode("0123456789abcdef.hsaco", Payload) != std::vector<uint8_t>(D, D + N)) __builtin_trap();
  return 0;
}
