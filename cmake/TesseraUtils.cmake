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

# tessera_add_plugin(NAME SOURCES... [LIBS ...] [VERSION v]
#                    [OUTPUT_DIRECTORY dir]): the plugin NAME as the loadable
# module `lib/tessera/plugins/tessera-plugin-NAME.so` (target
# `tessera-plugin-NAME`), where the host's discovery looks next to `bin/` and
# `lib/` in the build tree and in an install alike. Symbols are hidden except
# the entry point, so plugins never clash with each other or the host; the
# RPATH `$ORIGIN/../..` finds libTesseraCore.so and libTesseraBackend.so in
# `lib/`. The sources see TESSERA_PLUGIN_NAME (NAME) and
# TESSERA_PLUGIN_VERSION (VERSION, default: Tessera's).
# OUTPUT_DIRECTORY is for test fixtures that must stay out of the search path;
# the others are listed in the global property TESSERA_PLUGINS.
set(TESSERA_CMAKE_DIR "${CMAKE_CURRENT_LIST_DIR}")

function(tessera_add_plugin name)
  cmake_parse_arguments(ARG "" "VERSION;OUTPUT_DIRECTORY" "SOURCES;LIBS"
    ${ARGN})
  set(target tessera-plugin-${name})
  if(NOT ARG_VERSION)
    set(ARG_VERSION "${PROJECT_VERSION}")
  endif()
  if(NOT ARG_OUTPUT_DIRECTORY)
    set(ARG_OUTPUT_DIRECTORY "${TESSERA_BINARY_DIR}/lib/tessera/plugins")
    # Nothing links a plugin, so tools that load them depend on this list.
    set_property(GLOBAL APPEND PROPERTY TESSERA_PLUGINS ${target})
  endif()
  add_library(${target} MODULE ${ARG_SOURCES})
  set_target_properties(${target} PROPERTIES
    PREFIX ""
    OUTPUT_NAME ${target}
    LIBRARY_OUTPUT_DIRECTORY "${ARG_OUTPUT_DIRECTORY}"
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    BUILD_RPATH "$ORIGIN/../.."
    INSTALL_RPATH "$ORIGIN/../..")
  target_compile_definitions(${target} PRIVATE
    TESSERA_PLUGIN_NAME="${name}" TESSERA_PLUGIN_VERSION="${ARG_VERSION}")
  target_link_libraries(${target} PRIVATE TesseraBackend ${ARG_LIBS})
  # A symbol the plugin lacks is a link error here, not a load failure on a
  # user's machine. Not in sanitizer and fuzzing builds, whose runtime is
  # linked into the executable that loads the plugin.
  if(NOT TESSERA_SANITIZE AND NOT TESSERA_FUZZ)
    target_link_options(${target} PRIVATE LINKER:--no-undefined)
  endif()
  # The plugin ABI is one symbol; everything else stays inside the plugin
  # (hidden visibility does not reach the standard library's templates,
  # which libstdc++ declares with default visibility, nor static libraries
  # such as lld's in amdgpu), so that plugins never bind to each other's
  # or the host's copies of them.
  set(exports "${TESSERA_CMAKE_DIR}/PluginExports.map")
  target_link_options(${target} PRIVATE "LINKER:--version-script=${exports}")
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${exports}")
  tessera_add_lit_dependency(${target})
endfunction()
