/*===- support/DevlibNames.h - device-library globals, named once ----------===*
 *
 * The device library (amdgpu-lower/devlib/, C compiled to amdgcn bitcode)
 * defines these globals; amdgpu-lower, emu and the runtime find them by name.
 * Both sides spell them through these macros, so each name is written here
 * only: the C sources declare `PTX2AMD_ENVREG` etc., support/Contract.h makes
 * the C++ string constants with PTX2AMD_NAME_STRING. Plain C preprocessor
 * only (the devlib is built -ffreestanding without the C++ headers).
 *
 *===----------------------------------------------------------------------===*/
#ifndef SUPPORT_DEVLIBNAMES_H
#define SUPPORT_DEVLIBNAMES_H

#define PTX2AMD_ENVREG __ptx2amd_envreg               /* %envreg0..31: u32[32] */
#define PTX2AMD_PRINTF_BUFFER __ptx2amd_printf_buffer /* vprintf FIFO pointer */
#define PTX2AMD_HEAP __ptx2amd_heap                   /* device malloc heap pointer */
#define PTX2AMD_BARRIER_INIT __ptx2amd_barrier_init   /* software barrier state init */

#define PTX2AMD_NAME_STRING_(x) #x
#define PTX2AMD_NAME_STRING(x) PTX2AMD_NAME_STRING_(x) /* expands the macro first */

#endif
