#===- RelativeRPath.cmake - Keep only the relative RPATH entries ---------===#
# cmake -DFILES="a;b;..." -P RelativeRPath.cmake: removes every absolute
# entry from each ELF file's RPATH/RUNPATH ($ORIGIN-relative ones stay), so
# that an installed tree (scripts/bundle) names no path of the build machine.
cmake_minimum_required(VERSION 3.25)
foreach(file IN LISTS FILES)
  execute_process(COMMAND readelf -d "${file}" OUTPUT_VARIABLE dynamic
    RESULT_VARIABLE failed ERROR_QUIET)
  if(failed OR NOT dynamic MATCHES "\\((RPATH|RUNPATH)\\)[^[]*\\[([^]]*)\\]")
    continue()
  endif()
  string(REPLACE ":" ";" entries "${CMAKE_MATCH_2}")
  set(kept "")
  foreach(entry IN LISTS entries)
    if(entry MATCHES "^\\$ORIGIN")
      list(APPEND kept "${entry}")
    endif()
  endforeach()
  list(JOIN kept ":" kept)
  if(NOT kept STREQUAL CMAKE_MATCH_2)
    file(RPATH_SET FILE "${file}" NEW_RPATH "${kept}")
  endif()
endforeach()
