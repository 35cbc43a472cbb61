#===- TesseraUtils.cmake - Helpers shared by Tessera's CMake files -------===#

# tessera_add_unittest(NAME SOURCES... LIBS ...): one GoogleTest binary
# registered with CTest.
function(tessera_add_unittest name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main)
  set_target_properties(${name} PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY "${TESSERA_BINARY_DIR}/unittests")
  add_test(NAME ${name} COMMAND ${name})
  set_property(GLOBAL APPEND PROPERTY TESSERA_UNITTESTS ${name})
endfunction()

# tessera_add_lit_dependency(TARGET...): tools the lit suite needs built.
function(tessera_add_lit_dependency)
  set_property(GLOBAL APPEND PROPERTY TESSERA_LIT_DEPENDS ${ARGN})
endfunction()

# tessera_export_library(TARGET NAME): the library TARGET is also
# Tessera::NAME, in this build (an alias) and in the installed package, where
# its headers are under include/.
function(tessera_export_library target name)
  add_library(Tessera::${name} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  target_include_directories(${target} PUBLIC $<INSTALL_INTERFACE:include>)
endfunction()

# tessera_add_plugin() is in TesseraPlugin.cmake, which the installed SDK
# ships too, so that plugins in the tree and out of it build the same way.
include("${CMAKE_CURRENT_LIST_DIR}/TesseraPlugin.cmake")
