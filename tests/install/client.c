/* A minimal C client of the installed libptxjit: translates the PTX file
 * argv[1] for gfx1100 and checks that the result is an AMDGPU ELF code
 * object. Built against the install tree by install_test.sh (CMake package
 * and pkg-config). */
#include <ptxjit.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  FILE *f = fopen(argv[1], "rb");
  if (!f) return 2;
  static char text[1 << 20];
  size_t n = fread(text, 1, sizeof text, f);
  fclose(f);
  ptxjit_context ctx;
  ptxjit_options o;
  if (ptxjit_context_create(&ctx) != PTXJIT_SUCCESS || ptxjit_options_create(&o) != PTXJIT_SUCCESS) return 1;
  if (ptxjit_options_add_arch(o, "gfx1100") != PTXJIT_SUCCESS) return 1;
  ptxjit_result r = NULL;
  ptxjit_status s = ptxjit_compile(ctx, text, n, o, &r);
  size_t size = 0;
  const unsigned char *data = r ? (const unsigned char *)ptxjit_result_data(r, &size) : NULL;
  int ok = s == PTXJIT_SUCCESS && data && size > 64 && memcmp(data, "\177ELF", 4) == 0 &&
           data[18] == 224 /* e_machine EM_AMDGPU */;
  printf("client: %s, status %d, %zu bytes, %s\n", ptxjit_version_string(), (int)s, size, ok ? "OK" : "BAD");
  ptxjit_result_destroy(r);
  ptxjit_options_destroy(o);
  ptxjit_context_destroy(ctx);
  return ok ? 0 : 1;
}
