# PTX2AMD_SANITIZE=ON (a separate build directory; recipe in docs/notes/session9-robust.md and
# scripts/test-sanitize.sh): every host target -- translator, emulators, vgpu, runtime,
# libcudart/libcuda, fat-binary reader, tools, unit tests, benchmarks -- is compiled with
# ASan + UBSan (UBSan not recoverable) and linked with both runtimes. Device code is untouched:
# add_compile_options reaches only CMake's own C/C++ compilations, not the devlib's clang
# custom commands (amdgcn bitcode) nor nvcc at test time.
#
# The tests (every add_test of the project, through the add_test wrapper below):
#  - TIMEOUT multiplied by PTX2AMD_TEST_TIMEOUT_SCALE (the instrumented translator and emulators
#    run 2-4x slower), and the scale exported to the test so the drivers scale their own timeouts;
#  - PTX2AMD_TEST_PRELOAD=<libasan> in the environment: the drivers (tests/shim/run_shim.py,
#    tests/driver/run_driver.py and run_static.py, tests/golden/probes/run_probe.py,
#    tests/vgpu/rocminfo_check.py, tests/robustness/run_mutants.sh) put it first in LD_PRELOAD of the
#    uninstrumented program under test (nvcc binaries, rocminfo) that loads our instrumented
#    libcudart / libcuda / libvgpu -- ASan's runtime must be the first library of the process or
#    the program's malloc is not ASan's -- and ptx2amd-exec, instrumented itself, does the same
#    for the program it runs;
#  - an LD_PRELOAD the test sets itself (the vgpu tests' libvgpu.so) gets that libasan in front,
#    and a VGPU_WAIT_DEADLINE_S of a minute or more it sets is scaled like its TIMEOUT.
# gtest_discover_tests tests are added at test time and scale their TIMEOUT where declared
# (${PTX2AMD_TEST_TIMEOUT_SCALE}, 1 in a normal build).
if(NOT PTX2AMD_SANITIZE)
  set(PTX2AMD_TEST_TIMEOUT_SCALE 1)
  return()
endif()

add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
add_link_options(-fsanitize=address,undefined)
# Seen by emu/isa-emu (Emu.h, IsaEmu.h): device addresses move out of ASan's shadow gap.
add_compile_definitions(PTX2AMD_SANITIZE=1)

execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libasan.so
                OUTPUT_VARIABLE PTX2AMD_LIBASAN OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT IS_ABSOLUTE "${PTX2AMD_LIBASAN}" OR NOT EXISTS "${PTX2AMD_LIBASAN}")
  message(FATAL_ERROR "PTX2AMD_SANITIZE: ${CMAKE_CXX_COMPILER} -print-file-name=libasan.so gave '${PTX2AMD_LIBASAN}'")
endif()
get_filename_component(PTX2AMD_LIBASAN "${PTX2AMD_LIBASAN}" REALPATH)
set(PTX2AMD_TEST_TIMEOUT_SCALE 4 CACHE STRING "PTX2AMD_SANITIZE: every test's timeout is multiplied by this")
message(STATUS "PTX2AMD_SANITIZE: ASan+UBSan on every host target; tests preload ${PTX2AMD_LIBASAN}, "
               "timeouts x${PTX2AMD_TEST_TIMEOUT_SCALE}")

# Runs at the end of the directory that added test NAME (set_tests_properties only reaches
# tests of the current directory), after that directory's own set_tests_properties.
function(ptx2amd_sanitize_test name)
  get_test_property(${name} TIMEOUT old)
  if(old)
    math(EXPR new "${old} * ${PTX2AMD_TEST_TIMEOUT_SCALE}")
    set_tests_properties(${name} PROPERTIES TIMEOUT ${new})
  endif()
  get_test_property(${name} ENVIRONMENT env)
  if(NOT env)
    set(env)
  endif()
  list(TRANSFORM env REPLACE "^LD_PRELOAD=" "LD_PRELOAD=${PTX2AMD_LIBASAN}:")
  # The virtual GPU's wait deadline (vgpu tests) is a hang guard too; a short one (under a
  # minute: vgpu.hang_deadline's 2 s) is what the test checks, and stays.
  set(scaled)
  foreach(e IN LISTS env)
    if(e MATCHES "^VGPU_WAIT_DEADLINE_S=([0-9]+)$" AND CMAKE_MATCH_1 GREATER_EQUAL 60)
      math(EXPR s "${CMAKE_MATCH_1} * ${PTX2AMD_TEST_TIMEOUT_SCALE}")
      set(e "VGPU_WAIT_DEADLINE_S=${s}")
    endif()
    list(APPEND scaled "${e}")
  endforeach()
  set(env ${scaled})
  list(PREPEND env "PTX2AMD_TEST_PRELOAD=${PTX2AMD_LIBASAN}" "PTX2AMD_TEST_TIMEOUT_SCALE=${PTX2AMD_TEST_TIMEOUT_SCALE}")
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "${env}")
endfunction()

# Each argument is forwarded bracket-quoted from its own ARGV<i>: re-expanding ${ARGV} would
# join an argument holding '[' with the ones after it up to a ']' (CMake list syntax), which
# garbled robustness.misuse_runtime's --expect-stderr "cudaMemcpy: source range [0x".
function(add_test)
  set(args "")
  math(EXPR last "${ARGC} - 1")
  foreach(i RANGE ${last})
    string(APPEND args " [==[${ARGV${i}}]==]")
  endforeach()
  cmake_language(EVAL CODE "_add_test(${args})")
  if(ARGV0 STREQUAL "NAME")
    set(name "${ARGV1}")
  else()
    set(name "${ARGV0}")
  endif()
  cmake_language(EVAL CODE "cmake_language(DEFER CALL ptx2amd_sanitize_test [==[${name}]==])")
endfunction()
