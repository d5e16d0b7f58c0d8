//===- Streams.cpp - streams, events, host callbacks -------------------------===//
//
// Handles are the core's objects (runtime::Stream *, runtime::Event *),
// checked against the context's live set before use, so a destroyed handle
// is cudaErrorInvalidResourceHandle rather than a crash. Stream 0 is the
// legacy default stream (the per-thread one for the _ptsz entry points and
// cudaStreamPerThread).
//
//===----------------------------------------------------------------------===//
#include "Shim.h"

using namespace cudartshim;

namespace {

runtime::Event *event(runtime::Context &C, cudaEvent_t E) {
  auto *Ev = reinterpret_cast<runtime::Event *>(E);
  return Ev && C.isLive(Ev) ? Ev : nullptr;
}

cudaError_t create(cudaStream_t *S, unsigned Flags, int Priority) {
  if (!S || (Flags & ~unsigned(cudaStreamNonBlocking))) return recordError(cudaErrorInvalidValue);
  SHIM_CONTEXT(C);
  auto R = C->createStream(Flags & cudaStreamNonBlocking, Priority);
  if (!R) return fromError(R.takeError(), "cudaStreamCreate");
  *S = reinterpret_cast<cudaStream_t>(*R);
  return cudaSuccess;
}

#define SHIM_STREAM(St, S, PT)                                                                                       \
  SHIM_CONTEXT(C);                                                                                                 \
  cudaError_t StErr_ = cudaSuccess;                                                                                \
  runtime::Stream *St = stream(*C, S, PT, &StErr_);                                                                \
  if (!St) return recordError(StErr_)

cudaError_t sync(cudaStream_t S, bool PT) {
  SHIM_STREAM(St, S, PT);
  return fromError(St->synchronize(), "cudaStreamSynchronize");
}
cudaError_t query(cudaStream_t S, bool PT) {
  SHIM_STREAM(St, S, PT);
  return fromError(St->query(), "cudaStreamQuery");
}
cudaError_t waitEvent(cudaStream_t S, cudaEvent_t E, bool PT) {
  SHIM_STREAM(St, S, PT);
  runtime::Event *Ev = event(*C, E);
  if (!Ev) return recordError(cudaErrorInvalidResourceHandle);
  return fromError(St->waitEvent(*Ev), "cudaStreamWaitEvent");
}
cudaError_t hostFunc(cudaStream_t S, cudaHostFn_t Fn, void *User, bool PT) {
  if (!Fn) return recordError(cudaErrorInvalidValue);
  SHIM_STREAM(St, S, PT);
  return fromError(St->hostFunc(Fn, User), "cudaLaunchHostFunc");
}
cudaError_t callback(cudaStream_t S, cudaStreamCallback_t Fn, void *User, unsigned Flags, bool PT) {
  if (!Fn || Flags != 0) return recordError(cudaErrorInvalidValue);
  SHIM_STREAM(St, S, PT);
  return fromError(St->hostFunc([Fn, S, User] { Fn(S, cudaSuccess, User); }), "cudaStreamAddCallback");
}
cudaError_t record(cudaEvent_t E, cudaStream_t S, bool PT) {
  SHIM_STREAM(St, S, PT);
  runtime::Event *Ev = event(*C, E);
  if (!Ev) return recordError(cudaErrorInvalidResourceHandle);
  return fromError(Ev->record(*St), "cudaEventRecord");
}

} // namespace

extern "C" {

cudaError_t cudaStreamCreate(cudaStream_t *S) { return create(S, 0, 0); }
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *S, unsigned F) { return create(S, F, 0); }
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *S, unsigned F, int P) { return create(S, F, P); }
cudaError_t cudaStreamDestroy(cudaStream_t S) {
  SHIM_CONTEXT(C);
  if (!S || S == cudaStreamLegacy || S == cudaStreamPerThread) return recordError(cudaErrorInvalidResourceHandle);
  return fromError(C->destroyStream(reinterpret_cast<runtime::Stream *>(S)), "cudaStreamDestroy");
}
cudaError_t cudaStreamSynchronize(cudaStream_t S) { return sync(S, false); }
cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t S) { return sync(S, true); }
cudaError_t cudaStreamQuery(cudaStream_t S) { return query(S, false); }
cudaError_t cudaStreamQuery_ptsz(cudaStream_t S) { return query(S, true); }
cudaError_t cudaStreamWaitEvent(cudaStream_t S, cudaEvent_t E, unsigned) { return waitEvent(S, E, false); }
cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t S, cudaEvent_t E, unsigned) { return waitEvent(S, E, true); }
cudaError_t cudaLaunchHostFunc(cudaStream_t S, cudaHostFn_t Fn, void *U) { return hostFunc(S, Fn, U, false); }
cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t S, cudaHostFn_t Fn, void *U) { return hostFunc(S, Fn, U, true); }
cudaError_t cudaStreamAddCallback(cudaStream_t S, cudaStreamCallback_t Fn, void *U, unsigned F) {
  return callback(S, Fn, U, F, false);
}
cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t S, cudaStreamCallback_t Fn, void *U, unsigned F) {
  return callback(S, Fn, U, F, true);
}
cudaError_t cudaStreamGetFlags(cudaStream_t S, unsigned *F) {
  if (!F) return recordError(cudaErrorInvalidValue);
  SHIM_STREAM(St, S, false);
  *F = St->kind() == runtime::StreamKind::NonBlocking ? cudaStreamNonBlocking : cudaStreamDefault;
  return cudaSuccess;
}
cudaError_t cudaStreamGetPriority(cudaStream_t S, int *P) {
  if (!P) return recordError(cudaErrorInvalidValue);
  SHIM_STREAM(St, S, false);
  *P = St->priority();
  return cudaSuccess;
}
cudaError_t cudaDeviceGetStreamPriorityRange(int *Least, int *Greatest) {
  if (Least) *Least = 0;
  if (Greatest) *Greatest = 0; // one priority: streams are served in submission order
  return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *E, unsigned F) {
  if (!E || (F & ~unsigned(cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess)))
    return recordError(cudaErrorInvalidValue);
  if (F & cudaEventInterprocess) return recordError(cudaErrorNotSupported);
  SHIM_CONTEXT(C);
  auto R = C->createEvent(!(F & cudaEventDisableTiming), F & cudaEventBlockingSync);
  if (!R) return fromError(R.takeError(), "cudaEventCreate");
  *E = reinterpret_cast<cudaEvent_t>(*R);
  return cudaSuccess;
}
cudaError_t cudaEventCreate(cudaEvent_t *E) { return cudaEventCreateWithFlags(E, 0); }
cudaError_t cudaEventDestroy(cudaEvent_t E) {
  SHIM_CONTEXT(C);
  return fromError(C->destroyEvent(reinterpret_cast<runtime::Event *>(E)), "cudaEventDestroy");
}
cudaError_t cudaEventRecord(cudaEvent_t E, cudaStream_t S) { return record(E, S, false); }
cudaError_t cudaEventRecord_ptsz(cudaEvent_t E, cudaStream_t S) { return record(E, S, true); }
cudaError_t cudaEventRecordWithFlags(cudaEvent_t E, cudaStream_t S, unsigned) { return record(E, S, false); }
cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t E, cudaStream_t S, unsigned) { return record(E, S, true); }
cudaError_t cudaEventQuery(cudaEvent_t E) {
  SHIM_CONTEXT(C);
  runtime::Event *Ev = event(*C, E);
  if (!Ev) return recordError(cudaErrorInvalidResourceHandle);
  return fromError(Ev->query(), "cudaEventQuery");
}
cudaError_t cudaEventSynchronize(cudaEvent_t E) {
  SHIM_CONTEXT(C);
  runtime::Event *Ev = event(*C, E);
  if (!Ev) return recordError(cudaErrorInvalidResourceHandle);
  if (cudaError_t R = fromError(Ev->synchronize(), "cudaEventSynchronize")) return R;
  return recordError(toCuda(C->stickyCode()));
}
cudaError_t cudaEventElapsedTime(float *Ms, cudaEvent_t A, cudaEvent_t B) {
  if (!Ms) return recordError(cudaErrorInvalidValue);
  SHIM_CONTEXT(C);
  runtime::Event *EA = event(*C, A), *EB = event(*C, B);
  if (!EA || !EB) return recordError(cudaErrorInvalidResourceHandle);
  auto R = runtime::Event::elapsed(*EA, *EB);
  if (!R) return fromError(R.takeError(), "cudaEventElapsedTime");
  *Ms = *R;
  return cudaSuccess;
}

} // extern "C"
