//===- cuda-driver/lib/ProcAddress.cpp - cuGetProcAddress, cuGetExportTable ------===//
//
// cuGetProcAddress(symbol, version, flags) answers with the export NVIDIA's driver chooses
// for the same request (ProcTable.inc, generated from the H200's answers; see
// gen_proc_table.py): the newest export introduced at or before `version`, the _ptsz/_ptds
// export under CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM. The pointer is our own export
// of that name (an implemented entry point or its NOT_SUPPORTED stub).
//
// cuGetExportTable: the undocumented tables static cudart needs are not implemented yet
// (cuda-driver/README.md has the plan); every GUID is answered CUDA_ERROR_INVALID_VALUE, as
// NVIDIA's driver answers an unknown GUID, and logged once. Static cudart then reports
// cudaErrorInvalidValue from its first call (observed on the H200 with the same answer).
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include <dlfcn.h>

#include <cstring>
#include <set>

using namespace cudadrv;

namespace {

struct ProcEntry {
  const char *base;
  int flagClass; // 0 default, 1 legacy stream, 2 per-thread default stream
  int version;
  const char *exportName;
};
constexpr ProcEntry Table[] = {
#include "ProcTable.inc"
};

void *self() {
  static void *H = [] {
    Dl_info I;
    if (!dladdr(reinterpret_cast<void *>(&self), &I) || !I.dli_fname) return (void *)nullptr;
    return dlopen(I.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  }();
  return H;
}

CUresult lookup(const char *Symbol, void **Pfn, int Version, cuuint64_t Flags,
                CUdriverProcAddressQueryResult *Status) {
  if (!Symbol || !Pfn) return CUDA_ERROR_INVALID_VALUE;
  auto SetStatus = [&](CUdriverProcAddressQueryResult S) { if (Status) *Status = S; };
  *Pfn = nullptr;
  if (!*Symbol) { SetStatus(CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND); return CUDA_SUCCESS; } // as on the H200
  int Class = (Flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) ? 2 : (Flags & CU_GET_PROC_ADDRESS_LEGACY_STREAM) ? 1 : 0;
  const ProcEntry *Best = nullptr;
  bool Known = false;
  for (const ProcEntry &E : Table) {
    if (E.flagClass != Class || strcmp(E.base, Symbol) != 0) continue;
    Known = true;
    if (E.version <= Version && (!Best || E.version >= Best->version)) Best = &E;
  }
  if (!Known) { SetStatus(CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND); return CUDA_ERROR_NOT_FOUND; }
  if (!Best) { SetStatus(CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT); return CUDA_ERROR_NOT_FOUND; }
  void *P = self() ? dlsym(self(), Best->exportName) : nullptr;
  if (!P) { SetStatus(CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND); return CUDA_ERROR_NOT_FOUND; }
  *Pfn = P;
  SetStatus(CU_GET_PROC_ADDRESS_SUCCESS);
  return CUDA_SUCCESS;
}

} // namespace

CUresult cuGetProcAddress(const char *Symbol, void **Pfn, int Version, cuuint64_t Flags,
                          CUdriverProcAddressQueryResult *Status) {
  return lookup(Symbol, Pfn, Version, Flags, Status);
}
extern "C" CUresult drvGetProcAddress_v1(const char *Symbol, void **Pfn, int Version, cuuint64_t Flags)
    __asm__("cuGetProcAddress");
extern "C" CUresult drvGetProcAddress_v1(const char *Symbol, void **Pfn, int Version, cuuint64_t Flags) {
  return lookup(Symbol, Pfn, Version, Flags, nullptr);
}
extern "C" CUresult cuGetProcAddress_v2_ptsz(const char *Symbol, void **Pfn, int Version, cuuint64_t Flags,
                                             CUdriverProcAddressQueryResult *Status) {
  return lookup(Symbol, Pfn, Version, Flags, Status);
}

CUresult cuGetExportTable(const void **Table, const CUuuid *Id) {
  if (!Table || !Id) return CUDA_ERROR_INVALID_VALUE;
  *Table = nullptr;
  static std::mutex Mu;
  static std::set<std::string> Seen;
  char G[33];
  for (int I = 0; I < 16; ++I) snprintf(G + 2 * I, 3, "%02x", (unsigned char)Id->bytes[I]);
  std::lock_guard<std::mutex> L(Mu);
  if (Seen.insert(G).second)
    fprintf(stderr, "ptx2amd-driver: cuGetExportTable %s not implemented (static cudart needs it: rebuild "
                    "with nvcc -cudart shared to use ptx2amd's libcudart.so.13)\n", G);
  return CUDA_ERROR_INVALID_VALUE;
}
