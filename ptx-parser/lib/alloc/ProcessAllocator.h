//===- ProcessAllocator.h - allocator setup for front-end executables -----===//
//
// The front end allocates many small objects (one ANTLR context or terminal
// node per rule/token, IR strings and vectors) and touches ~50x the input
// size in fresh memory on a large module; with glibc malloc, allocation and
// first-touch page faults were about half of its CPU time. Executables that
// parse large PTX (ptx2amd, bench_frontend) link the `ptxalloc` target, which
// links mimalloc (overriding malloc/new process-wide) when it is available,
// and call configureProcessAllocator() first thing in main. Libraries never
// do this themselves: the allocator is the executable's choice (the fuzz
// target, for one, runs under ASan's allocator).
//
//===----------------------------------------------------------------------===//
#pragma once

namespace ptx {

// Tunes the process allocator for large parses: with mimalloc, asks for
// transparent huge pages (2 MiB), which cuts the page-fault count ~500x.
// Without mimalloc it does nothing. Call before any large allocation.
void configureProcessAllocator();

// The allocator the executable uses ("mimalloc" or "system"), for reports.
const char *processAllocatorName();

} // namespace ptx
