# The intelligent client's torch rule: only files under an ic/torch/ folder (src/ic/torch,
# tests/ic/torch, bench/ic/torch) include libtorch headers (<torch/...>, <ATen/...>, <c10/...>).
# Run as a test: cmake -DROOT=<source tree> -DWORK=<scratch dir> -P torch_confinement.cmake.
# It first checks itself on a scratch tree (one leak, one allowed include), so it cannot pass by
# matching nothing; then the source tree, which must have torch includes under ic/torch and none
# elsewhere.
cmake_minimum_required(VERSION 3.25)

# Sets `leaks` to the files outside ic/torch/ that include torch and `allowed` to the number of
# files under ic/torch/ that do, below `root`'s src, tests and bench.
function(torch_includes root leaks allowed)
  file(GLOB_RECURSE files LIST_DIRECTORIES false
       ${root}/src/*.h ${root}/src/*.cpp ${root}/tests/*.h ${root}/tests/*.cpp ${root}/bench/*.h ${root}/bench/*.cpp)
  set(found "")
  set(inside 0)
  foreach(f IN LISTS files)
    file(STRINGS ${f} lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"](torch|ATen|c10)/")
    if(NOT lines)
      continue()
    endif()
    if(f MATCHES "/ic/torch/")
      math(EXPR inside "${inside} + 1")
    else()
      list(APPEND found ${f})
    endif()
  endforeach()
  set(${leaks} "${found}" PARENT_SCOPE)
  set(${allowed} ${inside} PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK})
file(WRITE ${WORK}/src/ic/torch/net.h "#pragma once\n#include <torch/torch.h>\n")
file(WRITE ${WORK}/src/ic/leak.cpp "#include \"ic/leak.h\"\n  #  include <ATen/ATen.h>\n")
file(WRITE ${WORK}/src/ic/clean.cpp "// a comment naming <torch/torch.h> is no include\n")
torch_includes(${WORK} leaks allowed)
if(NOT leaks STREQUAL "${WORK}/src/ic/leak.cpp" OR NOT allowed EQUAL 1)
  message(FATAL_ERROR "torch_confinement.cmake does not work: on its scratch tree it found leaks '${leaks}' "
                      "and ${allowed} allowed file(s) (expected src/ic/leak.cpp and 1)")
endif()

torch_includes(${ROOT} leaks allowed)
if(leaks)
  string(REPLACE ";" "\n  " leaks "${leaks}")
  message(FATAL_ERROR "libtorch is included outside an ic/torch/ folder (docs/intelligent-client.md, "
                      "\"Where libtorch is\"):\n  ${leaks}")
endif()
if(allowed EQUAL 0)
  message(FATAL_ERROR "no file under ic/torch/ includes libtorch: the check's pattern matches nothing")
endif()
message(STATUS "libtorch included by ${allowed} file(s), all under ic/torch/")
