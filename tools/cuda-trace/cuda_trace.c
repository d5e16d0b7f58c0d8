/* cuda_trace.c: a recording libcuda.so.1 that sits between a CUDA program and NVIDIA's driver.
 *
 * Why: nvcc's default static cudart talks to libcuda.so.1 through cuGetProcAddress and the
 * undocumented tables of cuGetExportTable. To implement those tables we first observe them on real
 * hardware. Every exported driver symbol here forwards to the real driver (dlopen'ed by absolute
 * path, CUDA_TRACE_REAL) and logs one line: name, arguments, pointed-to bytes after the call, and
 * the result. Pointers handed out by cuGetProcAddress are replaced by logging trampolines, and for
 * cuGetExportTable the returned table is copied with every slot that points into the real driver's
 * code wrapped by a trampoline labelled GUID[slot]. Slot signatures are unknown, so slot calls log
 * the raw 64-bit values of the first TRACE_SLOT_ARGS integer argument registers and 32 bytes behind
 * each of them (before and after the call) when they are readable addresses.
 *
 * All trampolines take 12 integer arguments and return a 16-byte integer pair (rax:rdx), which on
 * x86-64 SysV forwards any call with at most 12 integer/pointer arguments (the extra stack slots
 * read are the caller's frame). Floating-point arguments are not forwarded: the driver API has none.
 *
 * Environment: CUDA_TRACE_REAL (path of the real libcuda.so.1), CUDA_TRACE_LOG (log file; default
 * stderr), CUDA_TRACE_NOWRAP=1 (log export tables but hand out the real ones unwrapped),
 * CUDA_TRACE_INPLACE=1 (patch the slots inside the driver's own tables instead of handing out
 * copies, so table addresses stay the driver's), CUDA_TRACE_KEEP=hex8[,hex8...] (tables whose GUID
 * starts so are handed out untouched), CUDA_TRACE_REFUSE=hex8[,...] (cuGetExportTable fails for
 * those GUIDs with CUDA_TRACE_REFUSE_CODE, default 1 = CUDA_ERROR_INVALID_VALUE, without asking the
 * driver).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

typedef struct { uint64_t lo, hi; } r128;
#define TRACE_ARGS uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, \
    uint64_t, uint64_t, uint64_t, uint64_t, uint64_t
typedef r128 (*fn12)(TRACE_ARGS);
struct export_info { const char *name; const char *kinds; };

static r128 trace_export(int idx, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,
                         uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8, uint64_t a9,
                         uint64_t a10, uint64_t a11);
static r128 trace_pool(int idx, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,
                       uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8, uint64_t a9,
                       uint64_t a10, uint64_t a11);
#include "cuda_trace_gen.h"

#define TRACE_SLOT_ARGS 8
#define TRACE_MAX_SLOTS 128

struct pool_entry { char label[96]; const char *kinds; void *real; };
static struct pool_entry pool[TRACE_POOL];
static int pool_used;
static void *real_lib;
static void *real_exports[TRACE_NEXPORTS];
static uintptr_t code_lo[8], code_hi[8];
static int ncode;
static FILE *log_file;
static int nowrap, inplace;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static unsigned long seq;
static __thread int depth;

static int find_code(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  struct link_map *lm = data;
  if (info->dlpi_addr != lm->l_addr) return 0;
  for (int i = 0; i < info->dlpi_phnum && ncode < 8; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
      code_lo[ncode] = info->dlpi_addr + ph->p_vaddr;
      code_hi[ncode] = code_lo[ncode] + ph->p_memsz;
      ++ncode;
    }
  }
  return 1;
}

static void init(void) {
  const char *path = getenv("CUDA_TRACE_LOG");
  log_file = path ? fopen(path, "w") : NULL;
  if (!log_file) log_file = stderr;
  setvbuf(log_file, NULL, _IOLBF, 0);
  nowrap = getenv("CUDA_TRACE_NOWRAP") != NULL;
  inplace = getenv("CUDA_TRACE_INPLACE") != NULL;
  const char *real = getenv("CUDA_TRACE_REAL");
  if (!real) real = "/usr/lib/x86_64-linux-gnu/libcuda.so.1";
  real_lib = dlopen(real, RTLD_NOW | RTLD_LOCAL);
  if (!real_lib) {
    fprintf(log_file, "!! cannot dlopen %s: %s\n", real, dlerror());
    return;
  }
  struct link_map *lm = NULL;
  if (dlinfo(real_lib, RTLD_DI_LINKMAP, &lm) == 0 && lm) dl_iterate_phdr(find_code, lm);
  for (int i = 0; i < TRACE_NEXPORTS; ++i) real_exports[i] = dlsym(real_lib, trace_exports[i].name);
  fprintf(log_file, "## real driver %s, %d code ranges", real, ncode);
  for (int i = 0; i < ncode; ++i)
    fprintf(log_file, " [%#lx,%#lx)", (unsigned long)code_lo[i], (unsigned long)code_hi[i]);
  fprintf(log_file, "\n");
}

static int in_code(uint64_t v) {
  for (int i = 0; i < ncode; ++i)
    if (v >= code_lo[i] && v < code_hi[i]) return 1;
  return 0;
}

/* Reads n bytes at addr without faulting (process_vm_readv on ourselves reports EFAULT). */
static int safe_read(uint64_t addr, void *dst, size_t n) {
  if (addr < 0x10000) return 0;
  struct iovec local = {dst, n}, remote = {(void *)(uintptr_t)addr, n};
  return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == (ssize_t)n;
}

struct buf { char s[8192]; size_t n; };
static void put(struct buf *b, const char *fmt, ...) {
  if (b->n >= sizeof b->s - 1) return;
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(b->s + b->n, sizeof b->s - b->n, fmt, ap);
  va_end(ap);
  if (k > 0) b->n += (size_t)k < sizeof b->s - b->n ? (size_t)k : sizeof b->s - b->n - 1;
}
static void put_hex(struct buf *b, const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; ++i) put(b, "%02x", p[i]);
}
static void put_str(struct buf *b, uint64_t a) {
  char s[97] = {0};
  size_t n = 0;
  while (n < 96 && safe_read(a + n, &s[n], 1) && s[n]) ++n;
  s[n] = 0;
  put(b, "\"%s\"", s);
}

static void emit(struct buf *b) {
  pthread_mutex_lock(&lock);
  fwrite(b->s, 1, b->n, log_file);
  fputc('\n', log_file);
  pthread_mutex_unlock(&lock);
}

static unsigned long next_seq(void) { return __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED); }
static long tid(void) { return syscall(SYS_gettid); }

/* One call of a function with known parameter kinds (or raw slot arguments when kinds is NULL). */
static r128 logged_call(const char *label, const char *kinds, void *real, uint64_t *a) {
  unsigned long id = next_seq();
  int nargs = kinds && kinds[0] != '?' ? (int)strlen(kinds) : TRACE_SLOT_ARGS;
  unsigned char pre[TRACE_NARGS][32];
  int pre_ok[TRACE_NARGS] = {0};
  if (!kinds)
    for (int i = 0; i < nargs; ++i) pre_ok[i] = safe_read(a[i], pre[i], 32);
  if (!kinds) {
    /* Slots may call back into the driver: log entry too, so nesting is visible. */
    struct buf b = {.n = 0};
    put(&b, "> %lu t%ld d%d %s(", id, tid() % 100000, depth, label);
    for (int i = 0; i < nargs; ++i) {
      put(&b, "%s%#lx", i ? ", " : "", (unsigned long)a[i]);
      if (pre_ok[i]) { put(&b, "{"); put_hex(&b, pre[i], 32); put(&b, "}"); }
    }
    put(&b, ")");
    emit(&b);
  }
  ++depth;
  r128 r = {0, 0};
  if (real) r = ((fn12)real)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11]);
  --depth;
  struct buf b = {.n = 0};
  put(&b, "%s %lu t%ld d%d %s(", kinds ? "=" : "<", id, tid() % 100000, depth, label);
  for (int i = 0; i < nargs; ++i) {
    char k = kinds && kinds[0] != '?' ? kinds[i] : 'p';
    put(&b, "%s", i ? ", " : "");
    if (k == 's' && a[i]) { put_str(&b, a[i]); continue; }
    put(&b, "%#lx", (unsigned long)a[i]);
    unsigned char post[32];
    if (k == 'p' && safe_read(a[i], post, kinds ? 16 : 32)) {
      if (!kinds && pre_ok[i] && memcmp(pre[i], post, 32) == 0) continue;
      put(&b, "{");
      put_hex(&b, post, kinds ? 16 : 32);
      put(&b, "}");
    }
  }
  put(&b, ") = %#lx", (unsigned long)r.lo);
  if (!real) put(&b, " (no real function)");
  emit(&b);
  return r;
}

static int pool_add(const char *label, const char *kinds, void *real) {
  pthread_mutex_lock(&lock);
  for (int i = 0; i < pool_used; ++i)
    if (pool[i].real == real && strcmp(pool[i].label, label) == 0) {
      pthread_mutex_unlock(&lock);
      return i;
    }
  int i = pool_used < TRACE_POOL ? pool_used++ : -1;
  if (i >= 0) {
    snprintf(pool[i].label, sizeof pool[i].label, "%s", label);
    pool[i].kinds = kinds;
    pool[i].real = real;
  }
  pthread_mutex_unlock(&lock);
  return i;
}

static int export_index(const char *name) {
  for (int i = 0; i < TRACE_NEXPORTS; ++i)
    if (strcmp(trace_exports[i].name, name) == 0) return i;
  return -1;
}

/* Replaces a function pointer the real driver handed out by one that logs. */
static void *wrap_pointer(void *p, const char *label) {
  if (!p) return p;
  for (int i = 0; i < TRACE_NEXPORTS; ++i)
    if (real_exports[i] == p) return dlsym(RTLD_DEFAULT, trace_exports[i].name) ?: p;
  int k = pool_add(label, NULL, p);
  return k >= 0 ? (void *)trace_pool_fns[k] : p;
}

/* Export tables, cached per GUID so repeated requests see the same copy. */
struct table { unsigned char guid[16]; uint64_t *copy; int n; };
static struct table tables[64];
static int ntables;

static void guid_text(const unsigned char *g, char *out) {
  for (int i = 0; i < 16; ++i) sprintf(out + 2 * i, "%02x", g[i]);
}

/* Whether the GUID's first 4 bytes (8 hex digits) appear in the comma-separated env list. */
static int listed(const char *env, const char *guid_hex) {
  const char *l = getenv(env);
  if (!l) return 0;
  for (const char *p = l; *p;) {
    if (strncmp(p, guid_hex, 8) == 0) return 1;
    p = strchr(p, ',');
    if (!p) break;
    ++p;
  }
  return 0;
}

static uint64_t *wrap_table(const unsigned char *guid, const uint64_t *t) {
  char g[33];
  guid_text(guid, g);
  uint64_t q[TRACE_MAX_SLOTS];
  int n = 0, last_code = -1, misses = 0;
  for (; n < TRACE_MAX_SLOTS; ++n) {
    if (!safe_read((uint64_t)(uintptr_t)(t + n), &q[n], 8)) break;
    if (in_code(q[n])) { last_code = n; misses = 0; }
    else if (++misses > 2) break;
  }
  int count = last_code + 1;
  /* A first entry that is a small multiple of 8 is read as the table's size in bytes. */
  if (count > 0 && q[0] < 0x1000 && q[0] % 8 == 0 && q[0] / 8 >= (uint64_t)count)
    count = (int)(q[0] / 8);
  struct buf b = {.n = 0};
  put(&b, "## table %s at %p: %d entries:", g, (const void *)t, count);
  for (int i = 0; i < count && i < n; ++i)
    put(&b, " [%d]%s%#lx", i, in_code(q[i]) ? "code:" : "data:", (unsigned long)q[i]);
  emit(&b);
  if (nowrap || count <= 0 || listed("CUDA_TRACE_KEEP", g)) return (uint64_t *)t;
  uint64_t *copy = (uint64_t *)t;
  if (inplace) {
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t lo = (uintptr_t)t & ~(uintptr_t)(page - 1);
    uintptr_t hi = ((uintptr_t)(t + count) + page - 1) & ~(uintptr_t)(page - 1);
    if (mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE) != 0) {
      fprintf(log_file, "!! mprotect of table %s failed; handing it out unwrapped\n", g);
      return (uint64_t *)t;
    }
  } else {
    copy = calloc((size_t)count + 4, 8);
  }
  if (!copy) return (uint64_t *)t;
  for (int i = 0; i < count; ++i) {
    copy[i] = q[i];
    if (i < n && in_code(q[i])) {
      char label[64];
      snprintf(label, sizeof label, "ET_%.8s[%d]", g, i);
      int k = pool_add(label, NULL, (void *)(uintptr_t)q[i]);
      if (k >= 0) copy[i] = (uint64_t)(uintptr_t)trace_pool_fns[k];
    }
  }
  return copy;
}

static r128 get_export_table(void *real, uint64_t *a) {
  unsigned char guid[16];
  char g[33];
  if (safe_read(a[1], guid, 16)) {
    guid_text(guid, g);
    if (listed("CUDA_TRACE_REFUSE", g)) {
      const char *code = getenv("CUDA_TRACE_REFUSE_CODE");
      r128 r = {code ? strtoull(code, NULL, 0) : 1, 0};
      struct buf b = {.n = 0};
      put(&b, "## refused table %s with %lu", g, (unsigned long)r.lo);
      emit(&b);
      return r;
    }
  }
  r128 r = logged_call("cuGetExportTable", "pp", real, a);
  const uint64_t **pp = (const uint64_t **)(uintptr_t)a[0];
  if (r.lo != 0 || !pp || !*pp || !safe_read(a[1], guid, 16)) return r;
  pthread_mutex_lock(&lock);
  for (int i = 0; i < ntables; ++i)
    if (memcmp(tables[i].guid, guid, 16) == 0) {
      *pp = tables[i].copy;
      pthread_mutex_unlock(&lock);
      return r;
    }
  pthread_mutex_unlock(&lock);
  uint64_t *copy = wrap_table(guid, *pp);
  pthread_mutex_lock(&lock);
  if (ntables < 64) {
    memcpy(tables[ntables].guid, guid, 16);
    tables[ntables].copy = copy;
    ++ntables;
  }
  pthread_mutex_unlock(&lock);
  *pp = copy;
  return r;
}

static r128 get_proc_address(int idx, void *real, uint64_t *a) {
  r128 r = logged_call(trace_exports[idx].name, trace_exports[idx].kinds, real, a);
  void **pfn = (void **)(uintptr_t)a[1];
  if (r.lo != 0 || !pfn || !*pfn) return r;
  char sym[80] = {0};
  for (size_t n = 0; n < sizeof sym - 1 && safe_read(a[0] + n, &sym[n], 1) && sym[n]; ++n) {}
  char label[128];
  snprintf(label, sizeof label, "%s@%d", sym, (int)a[2]);
  int known = export_index(sym);
  void *w = wrap_pointer(*pfn, label);
  if (w == *pfn && known >= 0) w = *pfn;
  /* Name the versioned export the driver chose, or the pool trampoline label. */
  struct buf b = {.n = 0};
  Dl_info di;
  const char *chosen = "?";
  for (int i = 0; i < TRACE_NEXPORTS; ++i)
    if (real_exports[i] == *pfn) { chosen = trace_exports[i].name; break; }
  if (chosen[0] == '?' && dladdr(*pfn, &di) && di.dli_sname) chosen = di.dli_sname;
  put(&b, "## proc %s -> %s", label, chosen);
  emit(&b);
  *pfn = w;
  return r;
}

static r128 trace_export(int idx, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,
                         uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8, uint64_t a9,
                         uint64_t a10, uint64_t a11) {
  pthread_once(&once, init);
  uint64_t a[TRACE_NARGS] = {a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11};
  void *real = real_exports[idx];
  const char *name = trace_exports[idx].name;
  if (strcmp(name, "cuGetExportTable") == 0) return get_export_table(real, a);
  if (strncmp(name, "cuGetProcAddress", 16) == 0) return get_proc_address(idx, real, a);
  return logged_call(name, trace_exports[idx].kinds, real, a);
}

static r128 trace_pool(int idx, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,
                       uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8, uint64_t a9,
                       uint64_t a10, uint64_t a11) {
  pthread_once(&once, init);
  uint64_t a[TRACE_NARGS] = {a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11};
  return logged_call(pool[idx].label, pool[idx].kinds, pool[idx].real, a);
}
