// proc_replay.cpp: replays static cudart's cuGetProcAddress requests recorded on the H200
// (data/cudart_proc_requests_h200.txt: "proc SYMBOL VERSION FLAGS -> EXPORT") against
// ptx2amd's libcuda.so.1 and checks that each resolves to the same export (by dladdr).
// Prints the mismatches and a summary; exit status 1 when any request differs.
#include <cuda.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  std::ifstream In(argv[1]);
  if (!In) { printf("cannot open %s\n", argv[1]); return 2; }
  std::string Line;
  int Total = 0, Bad = 0;
  while (std::getline(In, Line)) {
    std::istringstream S(Line);
    std::string Tag, Sym, Arrow, Want;
    int Version = 0;
    unsigned long long Flags = 0;
    if (!(S >> Tag >> Sym >> Version >> Flags >> Arrow >> Want) || Tag != "proc" || Arrow != "->") continue;
    ++Total;
    void *P = nullptr;
    CUdriverProcAddressQueryResult Q;
    CUresult R = cuGetProcAddress(Sym.c_str(), &P, Version, Flags, &Q);
    Dl_info I{};
    const char *Got = (R == CUDA_SUCCESS && P && dladdr(P, &I) && I.dli_sname) ? I.dli_sname : "(none)";
    if (Want != Got) {
      ++Bad;
      printf("%s %d %llu: H200 %s, ptx2amd %s (result %d)\n", Sym.c_str(), Version, Flags, Want.c_str(), Got, int(R));
    }
  }
  printf("%d requests, %d differ\n", Total, Bad);
  return Total == 0 || Bad != 0;
}
