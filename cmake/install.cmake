# What `cmake --install` puts under the prefix, and the Debian package CPack makes of it
# (`cpack -G DEB` in the build folder). relo is header-only: nothing depends on the architecture, so the
# CMake package and the pkg-config file go under share/.
install(TARGETS relo EXPORT relo-targets)
install(DIRECTORY include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# The CMake package: find_package(relo [0.x] CONFIG REQUIRED) gives relo::relo.
set(RELO_CMAKE_DIR ${CMAKE_INSTALL_DATADIR}/cmake/relo)
install(EXPORT relo-targets NAMESPACE relo:: DESTINATION ${RELO_CMAKE_DIR})
configure_package_config_file(cmake/relo-config.cmake.in ${PROJECT_BINARY_DIR}/relo-config.cmake
  INSTALL_DESTINATION ${RELO_CMAKE_DIR})
# What a version promises (docs/stability.md): before 1.0 a minor version may change the interface, so a
# 0.x asked for is found only in the same minor version (0.1 accepts 0.1.y); from 1.0, in the same major
# version, at least the version asked for.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(relo_compatibility SameMinorVersion)
else()
  set(relo_compatibility SameMajorVersion)
endif()
write_basic_package_version_file(${PROJECT_BINARY_DIR}/relo-config-version.cmake
  COMPATIBILITY ${relo_compatibility} ARCH_INDEPENDENT)
install(FILES ${PROJECT_BINARY_DIR}/relo-config.cmake ${PROJECT_BINARY_DIR}/relo-config-version.cmake
  DESTINATION ${RELO_CMAKE_DIR})

# pkg-config: `pkg-config --cflags relo`. The prefix is found from the file's own place, so an installed
# tree moved elsewhere (or a package extracted into another root) still points at its own headers.
set(RELO_PKGCONFIG_DIR ${CMAKE_INSTALL_DATADIR}/pkgconfig)
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}" OR IS_ABSOLUTE "${RELO_PKGCONFIG_DIR}")
  set(RELO_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(RELO_PC_INCLUDEDIR "${CMAKE_INSTALL_FULL_INCLUDEDIR}")
else()
  file(RELATIVE_PATH relo_pc_up /${RELO_PKGCONFIG_DIR} /)
  string(REGEX REPLACE "/$" "" relo_pc_up "${relo_pc_up}")
  set(RELO_PC_PREFIX "\${pcfiledir}/${relo_pc_up}")
  set(RELO_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
configure_file(cmake/relo.pc.in ${PROJECT_BINARY_DIR}/relo.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/relo.pc DESTINATION ${RELO_PKGCONFIG_DIR})

# The debugger printers (docs/debugging.md): GDB loads them from the program itself (the headers put them
# in .debug_gdb_scripts); the files are for `source` / `command script import` by hand.
install(FILES debugging/relo_gdb.py DESTINATION ${CMAKE_INSTALL_DATADIR}/relo/gdb)
install(FILES debugging/relo_lldb.py DESTINATION ${CMAKE_INSTALL_DATADIR}/relo/lldb)
install(FILES LICENSE README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The Debian package: librelo-dev, architecture all, installed under /usr.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME librelo-dev)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION} (header-only C++17/20)")
set(CPACK_PACKAGE_VENDOR "relo")
set(CPACK_PACKAGE_CONTACT "relo maintainers")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE all)
set(CPACK_DEBIAN_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "gdb, pkg-config, cmake")
set(CPACK_OUTPUT_FILE_PREFIX ${PROJECT_BINARY_DIR}/packages)
include(CPack)
