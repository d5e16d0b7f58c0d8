/*===- ptxjit.h - libptxjit: PTX -> AMDGPU code objects, stable C API ------===*
 *
 * Translates PTX text (as nvcc emits it) into AMDGPU code objects, offload
 * bundles, LLVM IR or assembly. All handles are opaque; every function
 * returns a status and never throws. A context owns an in-memory cache of
 * results keyed by a hash of the input text, the options and the toolchain
 * version; contexts, and compilations on one context from several threads,
 * are thread-safe (options and results are not shared-mutable: use one
 * options object per thread while setting it, results are immutable).
 *
 * Typical use:
 *   ptxjit_context ctx; ptxjit_context_create(&ctx);
 *   ptxjit_options o;   ptxjit_options_create(&o);
 *   ptxjit_options_add_arch(o, "gfx90a");
 *   ptxjit_result r;
 *   ptxjit_status s = ptxjit_compile(ctx, ptx, strlen(ptx), o, &r);
 *   ... ptxjit_result_data(r, &size); diagnostics via ptxjit_result_diagnostic ...
 *   ptxjit_result_destroy(r); ptxjit_options_destroy(o); ptxjit_context_destroy(ctx);
 *===----------------------------------------------------------------------===*/
#ifndef PTXJIT_H
#define PTXJIT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PTXJIT_API_VERSION 1u

typedef struct ptxjit_context_s *ptxjit_context;
typedef struct ptxjit_options_s *ptxjit_options;
typedef struct ptxjit_result_s *ptxjit_result;

typedef enum ptxjit_status {
  PTXJIT_SUCCESS = 0,
  PTXJIT_ERROR_INVALID_ARGUMENT = 1, /* bad handle, unknown arch, bad option value */
  PTXJIT_ERROR_COMPILATION = 2,      /* the input has errors: see the diagnostics */
  PTXJIT_ERROR_INTERNAL = 3,         /* toolchain failure: see the diagnostics */
} ptxjit_status;

typedef enum ptxjit_emit_kind {
  PTXJIT_EMIT_CODE_OBJECT = 0, /* ET_DYN code object (exactly one arch)        */
  PTXJIT_EMIT_BUNDLE = 1,      /* __CLANG_OFFLOAD_BUNDLE__ with one entry per arch */
  PTXJIT_EMIT_LLVM_IR = 2,     /* lowered + optimised LLVM IR text (one arch)  */
  PTXJIT_EMIT_ASSEMBLY = 3,    /* AMDGPU assembly text (one arch)              */
  PTXJIT_EMIT_OBJECT = 4,      /* ELF relocatable (one arch, single codegen part) */
} ptxjit_emit_kind;

typedef enum ptxjit_input_kind {
  PTXJIT_INPUT_PTX = 0,     /* PTX text                                        */
  PTXJIT_INPUT_LLVM_IR = 1, /* LLVM IR text in ptx-to-llvm's output contract   */
} ptxjit_input_kind;

typedef enum ptxjit_warp_policy {
  PTXJIT_WARP_POLICY_PACK = 0, /* wave64: two warps per wave (default)   */
  PTXJIT_WARP_POLICY_PAD = 1,  /* wave64: one warp per wave, 32 idle lanes */
} ptxjit_warp_policy;

typedef enum ptxjit_severity {
  PTXJIT_SEVERITY_NOTE = 0,
  PTXJIT_SEVERITY_WARNING = 1,
  PTXJIT_SEVERITY_ERROR = 2,
} ptxjit_severity;

/* What a diagnostic reports (support::ErrorKind, same order). */
typedef enum ptxjit_error_kind {
  PTXJIT_KIND_GENERIC = 0,            /* not classified                                   */
  PTXJIT_KIND_UNSUPPORTED = 1,        /* a construct ptx2amd does not implement           */
  PTXJIT_KIND_CONTRACT_VIOLATION = 2, /* an LLVM IR input outside ptx-to-llvm's contract  */
  PTXJIT_KIND_INVALID_INPUT = 3,      /* malformed PTX (syntax, semantics) or bad option  */
  PTXJIT_KIND_RESOURCE_LIMIT = 4,     /* registers, LDS, sizes exceeded                   */
  PTXJIT_KIND_DEVICE_FAULT = 5,       /* (not made by compilation)                        */
  PTXJIT_KIND_IO = 6,                 /* reading or writing a file failed                 */
  PTXJIT_KIND_INTERNAL = 7,           /* toolchain or LLVM failure                        */
} ptxjit_error_kind;

typedef struct ptxjit_diagnostic {
  ptxjit_severity severity;
  const char *file;    /* never NULL; "" when unknown      */
  uint32_t line;       /* 1-based; 0 when unknown           */
  uint32_t column;     /* 1-based; 0 when unknown           */
  const char *message; /* without the "file:line:col: error: " prefix */
} ptxjit_diagnostic;

/* Library identity. The version string is part of every cache key. */
uint32_t ptxjit_api_version(void);
const char *ptxjit_version_string(void);
/* Number of supported processors and the i-th name ("gfx90a", ...). */
size_t ptxjit_supported_arch_count(void);
const char *ptxjit_supported_arch(size_t i);

/* Contexts own the result cache. */
ptxjit_status ptxjit_context_create(ptxjit_context *out);
void ptxjit_context_destroy(ptxjit_context ctx);
void ptxjit_context_clear_cache(ptxjit_context ctx);
size_t ptxjit_context_cache_size(ptxjit_context ctx);
/* Enable (default) or disable the cache for later compilations. */
ptxjit_status ptxjit_context_set_cache_enabled(ptxjit_context ctx, int enabled);

/* Options. Defaults: no arch (required), -O3, pack, code object v5,
 * emit code object, PTX input, -Wwarp-size off, threads = all cores. */
ptxjit_status ptxjit_options_create(ptxjit_options *out);
void ptxjit_options_destroy(ptxjit_options opts);
ptxjit_status ptxjit_options_add_arch(ptxjit_options opts, const char *arch);
ptxjit_status ptxjit_options_set_opt_level(ptxjit_options opts, unsigned level);  /* 0..3 */
ptxjit_status ptxjit_options_set_warp_policy(ptxjit_options opts, ptxjit_warp_policy p);
ptxjit_status ptxjit_options_set_kernel_warp_policy(ptxjit_options opts, const char *kernel,
                                                    ptxjit_warp_policy p);
ptxjit_status ptxjit_options_set_code_object_version(ptxjit_options opts, unsigned v); /* 4,5,6 */
ptxjit_status ptxjit_options_set_emit(ptxjit_options opts, ptxjit_emit_kind kind);
ptxjit_status ptxjit_options_set_input_kind(ptxjit_options opts, ptxjit_input_kind kind);
ptxjit_status ptxjit_options_set_warn_warp_size(ptxjit_options opts, int enabled);
ptxjit_status ptxjit_options_set_threads(ptxjit_options opts, unsigned threads); /* 0 = all */
ptxjit_status ptxjit_options_set_source_name(ptxjit_options opts, const char *name);
/* Record per-stage wall times in the result (ptxjit_result_stage). */
ptxjit_status ptxjit_options_set_time_stages(ptxjit_options opts, int enabled);

/* Compile `size` bytes of `text`. *out receives a result whenever the
 * status is SUCCESS or COMPILATION/INTERNAL (holding the diagnostics);
 * it is NULL only on INVALID_ARGUMENT. */
ptxjit_status ptxjit_compile(ptxjit_context ctx, const char *text, size_t size,
                             ptxjit_options opts, ptxjit_result *out);
/* Compile and link `count` separately compiled PTX modules (nvcc -rdc / -dc):
 * each is translated, then they are linked into one image (.extern/.visible/
 * .weak/.common resolution; a duplicate strong definition or an undefined
 * .extern is a COMPILATION error naming the positions). names[i] (NULL: the
 * options' source name) labels module i's diagnostics. count == 1 is
 * ptxjit_compile. */
ptxjit_status ptxjit_compile_linked(ptxjit_context ctx, size_t count, const char *const *texts,
                                    const size_t *sizes, const char *const *names, ptxjit_options opts,
                                    ptxjit_result *out);

/* Output bytes (NULL/0 when compilation failed). Text outputs are not NUL-terminated. */
const void *ptxjit_result_data(ptxjit_result r, size_t *size);
size_t ptxjit_result_diagnostic_count(ptxjit_result r);
ptxjit_status ptxjit_result_diagnostic(ptxjit_result r, size_t i, ptxjit_diagnostic *out);
/* 1 if this result came from the context's cache. */
/* The kind of the i-th diagnostic (GENERIC for a bad index or an unclassified one). */
ptxjit_error_kind ptxjit_result_diagnostic_kind(ptxjit_result r, size_t i);
int ptxjit_result_from_cache(ptxjit_result r);
size_t ptxjit_result_stage_count(ptxjit_result r);
ptxjit_status ptxjit_result_stage(ptxjit_result r, size_t i, const char **name, double *seconds);
void ptxjit_result_destroy(ptxjit_result r);

#ifdef __cplusplus
}
#endif
#endif /* PTXJIT_H */
