// drv_truncated.cpp: untrusted images. Every prefix of each image file given (a fat binary, a
// compressed fat binary, a cubin, PTX) is placed right before an inaccessible guard page and passed
// to cuModuleLoadData and cuModuleLoadFatBinary: the library must return an error for every
// truncated image (never crash, never read past the guard, never succeed on a proper prefix of a
// binary image) and load the whole image as it does from a file (a whole cubin: NO_BINARY_FOR_GPU). Self-checking: prints one line per
// image and PASS / FAIL. (NVIDIA's driver is not the model here: on the H200 a 100-byte prefix of a
// fat binary made cuModuleLoadData hang, tests/driver/data/driver_probe_h200.txt.)
// usage: drv_truncated IMAGE...
#include "drv_common.h"
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv) {
  init_primary();
  long Page = sysconf(_SC_PAGESIZE);
  bool Ok = true;
  for (int A = 1; A < argc; ++A) {
    std::vector<char> Img = read_file(argv[A]);
    size_t Full = Img.size() - 1; // read_file appends a NUL
    bool Text = Full > 0 && Img[0] == '/';
    // An NVIDIA cubin (ELF, e_machine 190) never loads: CUDA_ERROR_NO_BINARY_FOR_GPU when whole.
    bool Cubin = Full > 20 && memcmp(Img.data(), "\x7f" "ELF", 4) == 0 && (unsigned char)Img[18] == 190;
    size_t Span = (Full + 1 + Page - 1) / Page * Page;
    char *Map = static_cast<char *>(mmap(nullptr, Span + Page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    if (Map == MAP_FAILED) return 2;
    mprotect(Map + Span, Page, PROT_NONE);
    int Errors = 0, Successes = 0, Bad = 0;
    size_t Step = Full / 97 + 1;
    for (size_t L = 0; L <= Full; L += (L + Step > Full && L != Full) ? Full - L : Step) {
      // PTX gets its NUL (a C string); binary images end exactly at the guard page.
      size_t Bytes = Text ? L + 1 : L;
      char *P = Map + Span - Bytes;
      memcpy(P, Img.data(), L);
      if (Text) P[L] = 0;
      CUmodule M;
      CUresult R1 = cuModuleLoadData(&M, P);
      if (R1 == CUDA_SUCCESS) cuModuleUnload(M);
      CUresult R2 = cuModuleLoadFatBinary(&M, P);
      if (R2 == CUDA_SUCCESS) cuModuleUnload(M);
      bool Whole = L == Full;
      for (CUresult R : {R1, R2}) {
        if (R == CUDA_SUCCESS) ++Successes; else ++Errors;
        // A proper prefix of a binary image must fail; the whole image must load (a cubin:
        // fail with NO_BINARY_FOR_GPU); PTX prefixes may happen to be valid PTX.
        if (Cubin) Bad += R == CUDA_SUCCESS || (Whole && R != CUDA_ERROR_NO_BINARY_FOR_GPU);
        else if ((R == CUDA_SUCCESS) != Whole && !(Text && R == CUDA_SUCCESS)) ++Bad;
      }
      if (L == Full) break;
    }
    const char *Base = strrchr(argv[A], '/');
    printf("%s: %d loads failed, %d succeeded, %d unexpected\n", Base ? Base + 1 : argv[A], Errors, Successes, Bad);
    Ok &= Bad == 0;
    munmap(Map, Span + Page);
  }
  printf("%s\n", Ok ? "PASS" : "FAIL");
  return !Ok;
}
