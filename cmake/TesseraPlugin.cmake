#===- TesseraPlugin.cmake - tessera_add_plugin(), in and out of the tree -===#
#
# Included by Tessera's own build and by the installed package
# (find_package(Tessera)), so a vendor's plugin builds exactly like the
# plugins in the tree: links Tessera::Backend, exports one symbol, and lands
# where the host's discovery looks.
#
# tessera_add_plugin(NAME SOURCES... [LIBS ...] [VERSION v]
#                    [OUTPUT_DIRECTORY dir])
# makes the loadable module `tessera-plugin-NAME.so` (target
# `tessera-plugin-NAME`) in OUTPUT_DIRECTORY, default
# `${CMAKE_BINARY_DIR}/lib/tessera/plugins` (the build's plugin folder, which
# `tessera --plugin DIR` or TESSERA_PLUGIN_PATH can name), and installs it to
# `lib/tessera/plugins/` of the install prefix, where the host looks next to
# its own `bin/` and `lib/`. Symbols are hidden except the entry point, so
# plugins never clash with each other or the host; the RPATH `$ORIGIN/../..`
# finds libTesseraCore.so and libTesseraBackend.so in an install's `lib/`.
# The sources see TESSERA_PLUGIN_NAME (NAME) and TESSERA_PLUGIN_VERSION
# (VERSION, default: the project's version). A given OUTPUT_DIRECTORY is for
# test fixtures that must stay out of the search path: they are not
# installed; the others are listed in the global property TESSERA_PLUGINS.
#===----------------------------------------------------------------------===#
include_guard(GLOBAL)
set(TESSERA_PLUGIN_EXPORTS_MAP "${CMAKE_CURRENT_LIST_DIR}/PluginExports.map")

function(tessera_add_plugin name)
  cmake_parse_arguments(ARG "" "VERSION;OUTPUT_DIRECTORY" "SOURCES;LIBS"
    ${ARGN})
  set(target tessera-plugin-${name})
  if(NOT ARG_VERSION)
    set(ARG_VERSION "${PROJECT_VERSION}")
  endif()
  set(install_plugin OFF)
  if(NOT ARG_OUTPUT_DIRECTORY)
    set(ARG_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/lib/tessera/plugins")
    set(install_plugin ON)
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
  target_link_libraries(${target} PRIVATE Tessera::Backend ${ARG_LIBS})
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
  target_link_options(${target} PRIVATE
    "LINKER:--version-script=${TESSERA_PLUGIN_EXPORTS_MAP}")
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS
    "${TESSERA_PLUGIN_EXPORTS_MAP}")
  if(install_plugin)
    install(TARGETS ${target} LIBRARY DESTINATION lib/tessera/plugins)
  endif()
  # Tessera's own lit suite needs its plugins built.
  if(COMMAND tessera_add_lit_dependency)
    tessera_add_lit_dependency(${target})
  endif()
endfunction()
