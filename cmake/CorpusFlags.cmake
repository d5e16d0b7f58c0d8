# ptx2amd_corpus_nvcc_flags(SRC OUT): the extra nvcc flags a corpus program asks for in its
# `// nvcc-flags: ...` lines (all such lines, space-joined, stripped), for the test suites
# that compile tests/corpus/*.cu at test time (corpus, targets).
function(ptx2amd_corpus_nvcc_flags src out)
  file(STRINGS "${src}" flag_lines REGEX "^// nvcc-flags: ")
  set(flags "")
  foreach(line ${flag_lines})
    string(REGEX REPLACE "^// nvcc-flags: *" "" line_flags "${line}")
    string(APPEND flags " ${line_flags}")
  endforeach()
  string(STRIP "${flags}" flags)
  set(${out} "${flags}" PARENT_SCOPE)
endfunction()
