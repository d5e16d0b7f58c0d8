# cmake -DLIST=<file listing sources, one per line> -DROOT=<source root> -DOUT=<header> -P HashSources.cmake
# Writes `#define PTX2AMD_LOWERING_BUILD_ID "<hash>"`: SHA-256 over the paths
# (relative to ROOT) and contents of every source that decides a
# translation's bytes (grammar, parser, ptx-to-llvm, amdgpu-lower with its
# device library and its CMakeLists, ptxjit). The header is rewritten only
# when the id changes, so unrelated edits rebuild nothing.
file(STRINGS "${LIST}" files)
set(acc "")
foreach(f ${files})
  if(EXISTS "${f}")
    file(SHA256 "${f}" h)
    file(RELATIVE_PATH rel "${ROOT}" "${f}")
    string(APPEND acc "${rel} ${h}\n")
  endif()
endforeach()
string(SHA256 id "${acc}")
string(SUBSTRING "${id}" 0 24 id)
set(content "#pragma once\n#define PTX2AMD_LOWERING_BUILD_ID \"${id}\"\n")
set(old "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL content)
  file(WRITE "${OUT}" "${content}")
endif()
