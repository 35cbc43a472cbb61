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
