/*===- runtime.c - nanosleep, trap and the CUDA device runtime calls --------===*
 *
 * Implements __ptx_nanosleep, __ptx_trap, __ptx_vprintf, __ptx_assertfail,
 * __ptx_malloc, __ptx_free and __ptx_graph_set_conditional. The host side is reached through three device
 * globals the launcher fills (by symbol name; zero = not provided):
 *   __ptx2amd_printf_buffer  -> { u64 capacity; u64 used; u8 data[capacity] }
 *     vprintf appends one record per call: { u32 record bytes (8-aligned),
 *     u32 format bytes incl. NUL, format (padded to 8), argument buffer }.
 *     Bit 31 of the format-bytes word marks the record of a failed assertion
 *     (support::printfrec::kAssertFlag in support/Contract.h), so the host
 *     tells a device assert from a plain trap by type, not by text.
 *     The argument buffer is copied with the size implied by the format
 *     (CUDA's packing: each argument at its natural 4/8-byte alignment).
 *     Returns the number of arguments, or -1 when no buffer is installed
 *     or it is full (PTX: negative on error).
 *   __ptx2amd_heap -> { u64 base; u64 size; u64 used }: malloc is a bump
 *     allocator (16-byte aligned, returns 0 when exhausted or absent);
 *     free releases nothing (documented limitation: memory is reclaimed
 *     when the launcher resets `used`).
 * assertfail emits CUDA's assertion message through vprintf, then traps.
 * graph_set_conditional stores the value to the condition word whose address
 * is the handle (a conditional graph node reads it once the kernel is done).
 *===----------------------------------------------------------------------===*/
#include "wave.h"
#include "support/DevlibNames.h"

struct printf_buffer { uint64_t capacity; uint64_t used; uint8_t data[]; };
struct device_heap { uint64_t base; uint64_t size; uint64_t used; };

GLOBAL struct printf_buffer *PTX2AMD_PRINTF_BUFFER __attribute__((visibility("protected")));
GLOBAL struct device_heap *PTX2AMD_HEAP __attribute__((visibility("protected")));

void __ptx_nanosleep(uint32_t ns) {
  if (ns > 1000000u) ns = 1000000u;
  uint64_t start = __builtin_readsteadycounter(); /* 100 MHz: 10 ns per tick */
  while ((__builtin_readsteadycounter() - start) * 10u < ns)
    __builtin_amdgcn_s_sleep(1);
}

void __ptx_trap(void) { __builtin_trap(); }

/* Size of the argument buffer described by a printf format, and the number
 * of arguments. */
static uint64_t format_arg_bytes(const uint8_t *f, uint32_t *nargs) {
  uint64_t off = 0;
  uint32_t n = 0;
  for (; *f; ++f) {
    if (*f != '%') continue;
    ++f;
    if (*f == '%') continue;
    while (*f == '-' || *f == '+' || *f == ' ' || *f == '#' || *f == '0') ++f;
    for (int part = 0; part < 2; ++part) {   /* width, then .precision */
      if (part == 1) { if (*f != '.') break; ++f; }
      if (*f == '*') { off = (off + 3u) & ~3ull; off += 4; ++n; ++f; }
      while (*f >= '0' && *f <= '9') ++f;
    }
    uint32_t size = 4;
    while (*f == 'h' || *f == 'l' || *f == 'L' || *f == 'z' || *f == 'j' || *f == 't' || *f == 'q') {
      if (*f != 'h') size = 8;
      ++f;
    }
    switch (*f) {
    case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A':
    case 's': case 'p':
      size = 8; break;
    case 0:
      *nargs = n;
      return off;
    default: break;
    }
    off = (off + size - 1u) & ~(uint64_t)(size - 1u);
    off += size;
    ++n;
  }
  *nargs = n;
  return off;
}

static uint32_t cstrlen(const uint8_t *s) {
  uint32_t n = 0;
  while (s[n]) ++n;
  return n;
}

#define PRINTF_RECORD_ASSERT 0x80000000u /* support::printfrec::kAssertFlag */

static uint32_t emit_record(uint64_t fmt, uint64_t args, uint32_t flags) {
  GLOBAL struct printf_buffer *buf = PTX2AMD_PRINTF_BUFFER;
  if (!buf || !fmt) return (uint32_t)-1;
  const uint8_t *f = (const uint8_t *)fmt;
  uint32_t nargs = 0;
  uint64_t abytes = args ? format_arg_bytes(f, &nargs) : 0;
  uint32_t flen = cstrlen(f) + 1u;
  uint64_t fpad = (flen + 7u) & ~7u;
  uint64_t rec = 8u + fpad + ((abytes + 7u) & ~7ull);
  uint64_t at = __scoped_atomic_fetch_add(&buf->used, rec, __ATOMIC_RELAXED, __MEMORY_SCOPE_SYSTEM);
  if (at + rec > buf->capacity) return (uint32_t)-1;
  GLOBAL uint8_t *p = buf->data + at;
  *(GLOBAL uint32_t *)p = (uint32_t)rec;
  *(GLOBAL uint32_t *)(p + 4) = flen | flags;
  for (uint32_t i = 0; i < flen; ++i) p[8 + i] = f[i];
  const uint8_t *a = (const uint8_t *)args;
  for (uint64_t i = 0; i < abytes; ++i) p[8 + fpad + i] = a[i];
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "");
  return nargs;
}

uint32_t __ptx_vprintf(uint64_t fmt, uint64_t args) { return emit_record(fmt, args, 0); }

void __ptx_assertfail(uint64_t message, uint64_t file, uint32_t line,
                      uint64_t function, uint64_t charSize) {
  (void)charSize;
  static const char fmt[] =
      "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n";
  struct { uint64_t file; uint32_t line; uint32_t pad0; uint64_t func;
           uint32_t b[3]; uint32_t t[3]; uint64_t msg; } a;
  a.file = file; a.line = line; a.pad0 = 0; a.func = function;
  a.b[0] = __ptx_sreg_ctaid_x(); a.b[1] = __ptx_sreg_ctaid_y(); a.b[2] = __ptx_sreg_ctaid_z();
  a.t[0] = __ptx_sreg_tid_x(); a.t[1] = __ptx_sreg_tid_y(); a.t[2] = __ptx_sreg_tid_z();
  a.msg = message;
  emit_record((uint64_t)(const char *)fmt, (uint64_t)&a, PRINTF_RECORD_ASSERT);
  __builtin_trap();
}

uint64_t __ptx_malloc(uint64_t size) {
  GLOBAL struct device_heap *h = PTX2AMD_HEAP;
  if (!h) return 0;
  uint64_t sz = (size + 15u) & ~15ull;
  uint64_t at = __scoped_atomic_fetch_add(&h->used, sz, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
  if (at + sz > h->size) return 0;
  return h->base + at;
}

void __ptx_free(uint64_t ptr) { (void)ptr; }

void __ptx_graph_set_conditional(uint64_t handle, uint32_t value) {
  if (handle) *(volatile uint32_t *)handle = value;
}
