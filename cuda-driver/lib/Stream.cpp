//===- cuda-driver/lib/Stream.cpp - cuStream*, cuEvent*, host functions -----------===//
//
// CUstream and CUevent handles are the core's Stream / Event objects of the current
// context, registered in the HandleTable. Special stream handles (null, CU_STREAM_LEGACY,
// CU_STREAM_PER_THREAD) resolve in resolveStream (State.cpp); the _ptsz exports treat a
// null stream as the per-thread default stream.
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include "runtime/Event.h"

using namespace cudadrv;

namespace {

CUresult createStream(CUstream *Out, unsigned Flags, int Priority) {
  if (!Out || (Flags & ~unsigned(CU_STREAM_NON_BLOCKING))) return CUDA_ERROR_INVALID_VALUE;
  DrvContext *C;
  if (CUresult R = currentContext(&C)) return R;
  auto S = C->core->createStream(Flags & CU_STREAM_NON_BLOCKING, Priority);
  if (!S) return fail(S.takeError(), "cuStreamCreate");
  HandleTable::get().add(*S);
  *Out = reinterpret_cast<CUstream>(*S);
  return CUDA_SUCCESS;
}

runtime::Event *liveEvent(CUevent E) {
  auto *P = reinterpret_cast<runtime::Event *>(E);
  return P && cudadrv::liveEvent(P) ? P : nullptr;
}

CUresult streamOp(CUstream H, bool PerThread, const char *Api,
                  const std::function<llvm::Error(runtime::Stream &)> &Op) {
  runtime::Stream *S;
  if (CUresult R = resolveStream(H, PerThread, &S)) return R;
  return fail(Op(*S), Api);
}

CUresult waitEvent(CUstream H, CUevent E, bool PerThread) {
  runtime::Event *Ev = liveEvent(E);
  if (!Ev) return CUDA_ERROR_INVALID_HANDLE;
  return streamOp(H, PerThread, "cuStreamWaitEvent", [Ev](runtime::Stream &S) { return S.waitEvent(*Ev); });
}

CUresult record(CUevent E, CUstream H, bool PerThread) {
  runtime::Event *Ev = liveEvent(E);
  if (!Ev) return CUDA_ERROR_INVALID_HANDLE;
  return streamOp(H, PerThread, "cuEventRecord", [Ev](runtime::Stream &S) { return Ev->record(S); });
}

CUresult hostFunc(CUstream H, CUhostFn Fn, void *Data, bool PerThread) {
  if (!Fn) return CUDA_ERROR_INVALID_VALUE;
  return streamOp(H, PerThread, "cuLaunchHostFunc",
                  [Fn, Data](runtime::Stream &S) { return S.hostFunc(Fn, Data); });
}

CUresult addCallback(CUstream H, CUstreamCallback Cb, void *Data, unsigned Flags, bool PerThread) {
  if (!Cb || Flags != 0) return CUDA_ERROR_INVALID_VALUE;
  return streamOp(H, PerThread, "cuStreamAddCallback", [H, Cb, Data](runtime::Stream &S) {
    return S.hostFunc([H, Cb, Data] { Cb(H, CUDA_SUCCESS, Data); });
  });
}

} // namespace

CUresult cuStreamCreate(CUstream *S, unsigned int Flags) { return createStream(S, Flags, 0); }
CUresult cuStreamCreateWithPriority(CUstream *S, unsigned int Flags, int Priority) {
  return createStream(S, Flags, Priority);
}

CUresult cuStreamDestroy(CUstream H) {
  auto *S = reinterpret_cast<runtime::Stream *>(H);
  if (!liveStream(S)) return CUDA_ERROR_INVALID_HANDLE;
  HandleTable::get().remove(S);
  return fail(S->context().destroyStream(S), "cuStreamDestroy");
}

CUresult cuStreamSynchronize(CUstream H) {
  return streamOp(H, false, "cuStreamSynchronize", [](runtime::Stream &S) { return S.synchronize(); });
}
extern "C" CUresult cuStreamSynchronize_ptsz(CUstream H) {
  return streamOp(H, true, "cuStreamSynchronize", [](runtime::Stream &S) { return S.synchronize(); });
}
CUresult cuStreamQuery(CUstream H) {
  return streamOp(H, false, "cuStreamQuery", [](runtime::Stream &S) { return S.query(); });
}
extern "C" CUresult cuStreamQuery_ptsz(CUstream H) {
  return streamOp(H, true, "cuStreamQuery", [](runtime::Stream &S) { return S.query(); });
}
CUresult cuStreamWaitEvent(CUstream H, CUevent E, unsigned int) { return waitEvent(H, E, false); }
extern "C" CUresult cuStreamWaitEvent_ptsz(CUstream H, CUevent E, unsigned) { return waitEvent(H, E, true); }
CUresult cuLaunchHostFunc(CUstream H, CUhostFn Fn, void *Data) { return hostFunc(H, Fn, Data, false); }
extern "C" CUresult cuLaunchHostFunc_ptsz(CUstream H, CUhostFn Fn, void *Data) { return hostFunc(H, Fn, Data, true); }
CUresult cuStreamAddCallback(CUstream H, CUstreamCallback Cb, void *Data, unsigned int Flags) {
  return addCallback(H, Cb, Data, Flags, false);
}
extern "C" CUresult cuStreamAddCallback_ptsz(CUstream H, CUstreamCallback Cb, void *Data, unsigned Flags) {
  return addCallback(H, Cb, Data, Flags, true);
}

static CUresult streamInfo(CUstream H, bool PerThread, runtime::Stream **S) { return resolveStream(H, PerThread, S); }
CUresult cuStreamGetFlags(CUstream H, unsigned int *Flags) {
  if (!Flags) return CUDA_ERROR_INVALID_VALUE;
  runtime::Stream *S;
  if (CUresult R = streamInfo(H, false, &S)) return R;
  *Flags = S->kind() == runtime::StreamKind::NonBlocking ? CU_STREAM_NON_BLOCKING : CU_STREAM_DEFAULT;
  return CUDA_SUCCESS;
}
CUresult cuStreamGetPriority(CUstream H, int *Priority) {
  if (!Priority) return CUDA_ERROR_INVALID_VALUE;
  runtime::Stream *S;
  if (CUresult R = streamInfo(H, false, &S)) return R;
  *Priority = S->priority();
  return CUDA_SUCCESS;
}
CUresult cuStreamGetCtx(CUstream H, CUcontext *Ctx) {
  if (!Ctx) return CUDA_ERROR_INVALID_VALUE;
  runtime::Stream *S;
  if (CUresult R = streamInfo(H, false, &S)) return R;
  DrvContext *C = contextOf(&S->context());
  if (!C && currentContext(&C)) return CUDA_ERROR_INVALID_CONTEXT;
  *Ctx = reinterpret_cast<CUcontext>(C);
  return CUDA_SUCCESS;
}
// cuStreamIsCapturing: Graphs.cpp.

// ---- events ---------------------------------------------------------------------------
CUresult cuEventCreate(CUevent *E, unsigned int Flags) {
  if (!E) return CUDA_ERROR_INVALID_VALUE;
  if (Flags & CU_EVENT_INTERPROCESS) return unsupported("cuEventCreate (CU_EVENT_INTERPROCESS)");
  DrvContext *C;
  if (CUresult R = currentContext(&C)) return R;
  auto Ev = C->core->createEvent(!(Flags & CU_EVENT_DISABLE_TIMING), Flags & CU_EVENT_BLOCKING_SYNC);
  if (!Ev) return fail(Ev.takeError(), "cuEventCreate");
  HandleTable::get().add(*Ev);
  *E = reinterpret_cast<CUevent>(*Ev);
  return CUDA_SUCCESS;
}
CUresult cuEventDestroy(CUevent E) {
  runtime::Event *Ev = liveEvent(E);
  if (!Ev) return CUDA_ERROR_INVALID_HANDLE;
  DrvContext *C;
  if (CUresult R = currentContext(&C)) return R;
  HandleTable::get().remove(Ev);
  return fail(C->core->destroyEvent(Ev), "cuEventDestroy");
}
CUresult cuEventRecord(CUevent E, CUstream H) { return record(E, H, false); }
extern "C" CUresult cuEventRecord_ptsz(CUevent E, CUstream H) { return record(E, H, true); }
CUresult cuEventRecordWithFlags(CUevent E, CUstream H, unsigned int) { return record(E, H, false); }
extern "C" CUresult cuEventRecordWithFlags_ptsz(CUevent E, CUstream H, unsigned) { return record(E, H, true); }
CUresult cuEventQuery(CUevent E) {
  runtime::Event *Ev = liveEvent(E);
  if (!Ev) return CUDA_ERROR_INVALID_HANDLE;
  return fail(Ev->query(), "cuEventQuery");
}
CUresult cuEventSynchronize(CUevent E) {
  runtime::Event *Ev = liveEvent(E);
  if (!Ev) return CUDA_ERROR_INVALID_HANDLE;
  return fail(Ev->synchronize(), "cuEventSynchronize");
}
static CUresult elapsed(float *Ms, CUevent A, CUevent B) {
  if (!Ms) return CUDA_ERROR_INVALID_VALUE;
  runtime::Event *Ea = liveEvent(A), *Eb = liveEvent(B);
  if (!Ea || !Eb) return CUDA_ERROR_INVALID_HANDLE;
  auto T = runtime::Event::elapsed(*Ea, *Eb);
  if (!T) return fail(T.takeError(), "cuEventElapsedTime");
  *Ms = *T;
  return CUDA_SUCCESS;
}
CUresult cuEventElapsedTime(float *Ms, CUevent A, CUevent B) { return elapsed(Ms, A, B); }
extern "C" CUresult drvEventElapsedTime_v1(float *Ms, CUevent A, CUevent B) __asm__("cuEventElapsedTime");
extern "C" CUresult drvEventElapsedTime_v1(float *Ms, CUevent A, CUevent B) { return elapsed(Ms, A, B); }
