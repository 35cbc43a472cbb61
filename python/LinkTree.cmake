#===- python/LinkTree.cmake - Links a package's files into the build -----===#
# cmake -DSOURCE=dir -DDEST=dir -P LinkTree.cmake: every entry of SOURCE
# gets a symbolic link of the same name in DEST; built files already in
# DEST (the extension) are left alone, and links to entries SOURCE lost
# are removed.
file(MAKE_DIRECTORY "${DEST}")
file(GLOB entries RELATIVE "${SOURCE}" "${SOURCE}/*")
foreach(entry IN LISTS entries)
  if(entry STREQUAL "__pycache__")
    continue()
  endif()
  if(NOT IS_SYMLINK "${DEST}/${entry}" AND NOT EXISTS "${DEST}/${entry}")
    file(CREATE_LINK "${SOURCE}/${entry}" "${DEST}/${entry}" SYMBOLIC)
  endif()
endforeach()
file(GLOB links RELATIVE "${DEST}" "${DEST}/*")
foreach(entry IN LISTS links)
  if(IS_SYMLINK "${DEST}/${entry}" AND NOT EXISTS "${SOURCE}/${entry}")
    file(REMOVE "${DEST}/${entry}")
  endif()
endforeach()
