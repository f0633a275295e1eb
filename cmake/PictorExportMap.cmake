# pictor_export_map(TARGET HOOK_LIST [EXTRA name...])
#
# An interposer exports exactly the functions its X-macro list names (`X(name, …)` lines of
# HOOK_LIST, a header in the calling directory) plus the EXTRA names, and nothing else: the linker
# version script is generated from the list at configure time, linked with -Bsymbolic-functions
# and -z defs, and the target relinks when the list changes.
function(pictor_export_map target hook_list)
  cmake_parse_arguments(ARG "" "" "EXTRA" ${ARGN})
  file(READ ${CMAKE_CURRENT_SOURCE_DIR}/${hook_list} text)
  string(REGEX MATCHALL "X\\(([A-Za-z0-9_]+)," entries "${text}")
  set(exports "")
  foreach(entry ${entries})
    string(REGEX REPLACE "X\\(([A-Za-z0-9_]+)," "\\1" name "${entry}")
    string(APPEND exports "    ${name};\n")
  endforeach()
  foreach(name ${ARG_EXTRA})
    string(APPEND exports "    ${name};\n")
  endforeach()
  set(map ${CMAKE_CURRENT_BINARY_DIR}/${target}_exports.map)
  file(WRITE ${map} "{\n  global:\n${exports}  local: *;\n};\n")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${hook_list})
  target_link_options(${target} PRIVATE -Wl,--version-script=${map} -Wl,-Bsymbolic-functions -Wl,-z,defs)
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${map})
endfunction()
