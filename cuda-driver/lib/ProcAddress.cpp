//===- cuda-driver/lib/ProcAddress.cpp - cuGetProcAddress, cuGetExportTable ------===//
//
// cuGetProcAddress(symbol, version, flags) answers with the export NVIDIA's driver chooses
// for the same request (ProcTable.inc, generated from the H200's answers; see
// gen_proc_table.py): the newest export introduced at or before `version`, the _ptsz/_ptds
// export under CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM. The pointer is our own export
// of that name (an implemented entry point or its NOT_SUPPORTED stub).
// (cuGetExportTable is in ExportTables.cpp.)
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include <dlfcn.h>

#include <cstring>

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
