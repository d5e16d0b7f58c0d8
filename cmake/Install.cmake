# Install rules: the tools, libptxjit (shared + static, with ptxjit.h), the
# runtime library (cudart-shim's libcudart.so.13), the device library
# (bitcode variants and headers), an exported CMake package
# (find_package(ptx2amd) -> ptx2amd::ptxjit, ptx2amd::ptxjit_static) and
# ptxjit.pc for pkg-config. tests/install checks all of it in a temporary prefix.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
# Installed binaries keep the path of Debian's libLLVM / antlr runtime.
set(CMAKE_INSTALL_RPATH_USE_LINK_PATH ON)

install(TARGETS ptx2amd ptx2amd-fatbin ptx2amd-run ptx2amd-opt RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS ptxjit_shared EXPORT ptx2amdTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PTXJIT_STATIC_ARCHIVE} DESTINATION ${CMAKE_INSTALL_LIBDIR} RENAME libptxjit.a)
install(FILES ${PROJECT_SOURCE_DIR}/ptxjit/include/ptxjit.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# libcudart.so.13 links libcuda.so.1 (the runtime core lives there): both in lib/ptx2amd.
install(TARGETS cudart_shim cuda_driver LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/ptx2amd)
install(DIRECTORY ${CMAKE_BINARY_DIR}/amdgpu-lower/devlib/ DESTINATION ${CMAKE_INSTALL_DATADIR}/ptx2amd/devlib
        FILES_MATCHING PATTERN "ptx_devlib_*.bc")
install(FILES ${PROJECT_SOURCE_DIR}/amdgpu-lower/devlib/ptx_devlib.h ${PROJECT_SOURCE_DIR}/amdgpu-lower/devlib/ptx_texture.h
        DESTINATION ${CMAKE_INSTALL_DATADIR}/ptx2amd/devlib)

# Link line of the static archive: the stages' external dependencies.
get_filename_component(_llvm_libdir "${LLVM_LIBRARY_DIR}" ABSOLUTE)
set(PTXJIT_STATIC_DEPS "-L${_llvm_libdir} -llldELF -llldCommon -lLLVM -lantlr4-runtime -lz -lzstd -lstdc++ -lm -lpthread")

set(_cfgdir ${CMAKE_INSTALL_LIBDIR}/cmake/ptx2amd)
install(EXPORT ptx2amdTargets NAMESPACE ptx2amd:: DESTINATION ${_cfgdir})
file(WRITE ${CMAKE_BINARY_DIR}/ptx2amdConfig.cmake.in [=[
# ptx2amd's CMake package: ptx2amd::ptxjit (libptxjit.so, C API in ptxjit.h)
# and ptx2amd::ptxjit_static (libptxjit.a with its LLVM / lld / antlr deps).
@PACKAGE_INIT@
include("${CMAKE_CURRENT_LIST_DIR}/ptx2amdTargets.cmake")
if(NOT TARGET ptx2amd::ptxjit_static)
  add_library(ptx2amd::ptxjit_static STATIC IMPORTED)
  set_target_properties(ptx2amd::ptxjit_static PROPERTIES
    IMPORTED_LOCATION "${PACKAGE_PREFIX_DIR}/@CMAKE_INSTALL_LIBDIR@/libptxjit.a"
    INTERFACE_INCLUDE_DIRECTORIES "${PACKAGE_PREFIX_DIR}/@CMAKE_INSTALL_INCLUDEDIR@"
    INTERFACE_LINK_LIBRARIES "@_llvm_libdir@/liblldELF.a;@_llvm_libdir@/liblldCommon.a;@_llvm_libdir@/libLLVM.so;antlr4-runtime;z;zstd;stdc++;m;pthread")
endif()
set(ptx2amd_DEVLIB_DIR "${PACKAGE_PREFIX_DIR}/@CMAKE_INSTALL_DATADIR@/ptx2amd/devlib")
check_required_components(ptx2amd)
]=])
configure_package_config_file(${CMAKE_BINARY_DIR}/ptx2amdConfig.cmake.in ${CMAKE_BINARY_DIR}/ptx2amdConfig.cmake
                              INSTALL_DESTINATION ${_cfgdir})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/ptx2amdConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/ptx2amdConfig.cmake ${CMAKE_BINARY_DIR}/ptx2amdConfigVersion.cmake
        DESTINATION ${_cfgdir})

file(WRITE ${CMAKE_BINARY_DIR}/ptxjit.pc.in [=[
prefix=@CMAKE_INSTALL_PREFIX@
libdir=${prefix}/@CMAKE_INSTALL_LIBDIR@
includedir=${prefix}/@CMAKE_INSTALL_INCLUDEDIR@

Name: ptxjit
Description: PTX -> AMDGPU code objects (ptx2amd's libptxjit C API)
Version: @PROJECT_VERSION@
Cflags: -I${includedir}
Libs: -L${libdir} -lptxjit
Libs.private: @PTXJIT_STATIC_DEPS@
]=])
# The prefix is the one given at install time (cmake --install --prefix).
install(CODE "
  set(CMAKE_INSTALL_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  set(CMAKE_INSTALL_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")
  set(CMAKE_INSTALL_INCLUDEDIR \"${CMAKE_INSTALL_INCLUDEDIR}\")
  set(PROJECT_VERSION \"${PROJECT_VERSION}\")
  set(PTXJIT_STATIC_DEPS \"${PTXJIT_STATIC_DEPS}\")
  configure_file(\"${CMAKE_BINARY_DIR}/ptxjit.pc.in\" \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig/ptxjit.pc\" @ONLY)
  message(STATUS \"Installing: \${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig/ptxjit.pc\")
")
