//===- ProcessAllocator.h - allocator setup for front-end executables -----===//
//
// The front end allocates many small objects (one ANTLR context or terminal
// node per rule/token, IR strings and vectors) and touches ~50x the input
// size in fresh memory on a large module; with glibc malloc, allocation and
// first-touch page faults were about half of its CPU time. Executables that
// parse large PTX (ptx2amd, bench_frontend) link the `ptxalloc` target, which
// links mimalloc (overriding malloc/new process-wide) when it is available,
// and call configureProcessAllocator() before the first large allocation. Libraries never
// do this themselves: the allocator is the executable's choice (the fuzz
// target, for one, runs under ASan's allocator).
//
//===----------------------------------------------------------------------===//
#pragma once

namespace ptx {

// What the process does after parsing, which decides the page size.
enum class AllocatorUse {
  // Parse (and print / check) only: transparent huge pages (2 MiB), which
  // cut the page-fault count ~500x.
  FrontEnd,
  // Parse, then translate and compile with LLVM: ordinary pages. The parse
  // tree and the PTX AST are freed before LLVM's peak; with huge pages
  // mimalloc keeps those pages resident, so peak RSS grew by the whole
  // parse (CUB bench module, ptx2amd -O3 -j1: 176 MB with huge pages,
  // 137 MB without, docs/notes/session6-perf.md) for ~0.05 s of system time.
  Translation,
};

// Tunes the process allocator: with mimalloc, the page size above (an
// explicit MIMALLOC_LARGE_OS_PAGES in the environment wins). Without
// mimalloc it does nothing. Call before any large allocation.
void configureProcessAllocator(AllocatorUse use);

// The allocator the executable uses ("mimalloc" or "system"), for reports.
const char *processAllocatorName();

} // namespace ptx
