//===- ConcurrencyDriver.cpp - 4 processes x 64 threads on one cache dir -----===//
//
// `cache-concurrency DIR` starts 4 copies of itself (`--child DIR I`) and
// waits for them; each child runs 64 threads that, for a fixed pseudo-random
// sequence, look up one of 48 keys and publish it on a miss. Every payload
// is a pure function of its key (sizes 1..96 KB, 2.4 MB in all) and the
// bound is 1 MB, so entries are evicted and re-published all the time while
// other threads and processes read them. A child fails (exit 1) on any hit
// whose bytes are not exactly the key's payload (a torn or mixed read) and
// on a corrupt-entry report (none may happen without outside damage). The
// parent also fails if a child crashed, and checks that afterwards every
// entry left in the directory is whole and the total is within the bound
// (after one last eviction), and that no temporary file was left behind.
// Prints "cache-concurrency: OK" and the counts on success.
//
//===----------------------------------------------------------------------===//
#include "runtime/Cache.h"

#include "llvm/Support/FileSystem.h"

#include <atomic>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <random>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char **environ;
using namespace runtime;

namespace {
constexpr int kProcs = 4, kThreads = 64, kKeys = 48, kOpsPerThread = 150;
constexpr uint64_t kBound = 1 << 20;

CacheKey key(int I) { return makeCacheKey("concurrency ptx " + std::to_string(I), "gfx90a", "fp"); }

std::vector<uint8_t> payload(int I) {
  size_t N = 1024 + size_t(I) * 2048;
  std::vector<uint8_t> V(N);
  uint32_t X = 2654435761u * uint32_t(I + 1);
  for (auto &B : V) X = X * 1664525u + 1013904223u, B = uint8_t(X >> 24);
  return V;
}

int child(const std::string &Dir, int Index) {
  auto C = CodeObjectCache::open(Dir, kBound);
  if (!C || !(*C)->enabled()) {
    fprintf(stderr, "child %d: cache not usable\n", Index);
    return 1;
  }
  std::vector<std::vector<uint8_t>> Payloads;
  for (int I = 0; I < kKeys; ++I) Payloads.push_back(payload(I));
  std::atomic<int> Bad{0};
  std::vector<std::thread> Ts;
  for (int T = 0; T < kThreads; ++T)
    Ts.emplace_back([&, T] {
      std::mt19937 G(uint32_t(Index * 1000 + T));
      for (int Op = 0; Op < kOpsPerThread; ++Op) {
        int K = int(G() % kKeys);
        CacheKey Key = key(K);
        if (auto Got = (*C)->lookup(Key, "hsaco")) {
          if (*Got != Payloads[size_t(K)]) Bad.fetch_add(1);
        } else if (llvm::Error E = (*C)->publish(Key, "hsaco", Payloads[size_t(K)])) {
          fprintf(stderr, "publish: %s\n", llvm::toString(std::move(E)).c_str());
          Bad.fetch_add(1);
        }
      }
    });
  for (auto &T : Ts) T.join();
  auto S = (*C)->stats();
  printf("child %d: %llu hits, %llu misses, %llu published, %llu evicted, %llu corrupt, %d bad reads\n", Index,
         (unsigned long long)S.Hits, (unsigned long long)S.Misses, (unsigned long long)S.Published,
         (unsigned long long)S.Evicted, (unsigned long long)S.Corrupt, Bad.load());
  return Bad.load() == 0 && S.Corrupt == 0 && S.Hits > 0 && (*C)->enabled() ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  if (argc == 4 && std::strcmp(argv[1], "--child") == 0) return child(argv[2], std::atoi(argv[3]));
  if (argc != 2) {
    fprintf(stderr, "usage: cache-concurrency DIR\n");
    return 2;
  }
  std::string Dir = argv[1];
  llvm::sys::fs::remove_directories(Dir);
  std::vector<pid_t> Pids;
  for (int I = 0; I < kProcs; ++I) {
    std::string Idx = std::to_string(I);
    char *Args[] = {argv[0], const_cast<char *>("--child"), argv[1], Idx.data(), nullptr};
    pid_t P;
    if (posix_spawn(&P, argv[0], nullptr, nullptr, Args, environ) != 0) {
      perror("posix_spawn");
      return 1;
    }
    Pids.push_back(P);
  }
  bool Ok = true;
  for (pid_t P : Pids) {
    int St = 0;
    if (waitpid(P, &St, 0) != P || !WIFEXITED(St) || WEXITSTATUS(St) != 0) {
      fprintf(stderr, "child %d failed (status %d)\n", int(P), St);
      Ok = false;
    }
  }
  // Whole entries only, within the bound, no temporary files left.
  auto C = CodeObjectCache::open(Dir, kBound);
  if (!C || !(*C)->enabled()) return 1;
  uint64_t Total = (*C)->evict();
  int Entries = 0;
  for (int I = 0; I < kKeys; ++I)
    if (auto Got = (*C)->lookup(key(I), "hsaco")) {
      ++Entries;
      if (*Got != payload(I)) Ok = false, fprintf(stderr, "entry %d has wrong bytes\n", I);
    }
  if ((*C)->stats().Corrupt) Ok = false, fprintf(stderr, "corrupt entries left in the directory\n");
  if (Total > kBound) Ok = false, fprintf(stderr, "total %llu exceeds the bound\n", (unsigned long long)Total);
  int Tmp = 0;
  if (DIR *D = opendir((Dir + "/v1/tmp").c_str())) {
    while (dirent *E = readdir(D)) Tmp += std::strstr(E->d_name, ".tmp") != nullptr;
    closedir(D);
  }
  if (Tmp) Ok = false, fprintf(stderr, "%d temporary files left\n", Tmp);
  printf("after: %d entries, %llu bytes (bound %llu)\n", Entries, (unsigned long long)Total,
         (unsigned long long)kBound);
  if (!Ok) return 1;
  llvm::sys::fs::remove_directories(Dir);
  printf("cache-concurrency: OK\n");
  return 0;
}
