# relo as a package, the ways users get it (run with cmake -P; the test `package` in tests/CMakeLists.txt):
#   1. installed into a prefix: find_package(relo 0.1 CONFIG REQUIRED), and which versions it accepts;
#   2. add_subdirectory of the source tree;
#   3. FetchContent of a release archive (the files a release ships, from a local path);
#   4. pkg-config --cflags relo, for a plain compiler command;
#   5. the Debian package (cpack -G DEB), extracted with dpkg-deb into a scratch root: its files and fields,
#      and the consumer built against that root with CMake and with pkg-config.
# Each consumer program is built and run. Arguments: RELO_SOURCE_DIR, WORK_DIR, CXX.
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "failed (${result}): ${ARGV}\n${out}\n${err}")
  endif()
  set(run_output "${out}${err}" PARENT_SCOPE)
endfunction()

# A consumer project, built with CMake and run: consume(NAME MODE [cmake arguments...]).
function(consume name mode)
  run(${CMAKE_COMMAND} -S ${RELO_SOURCE_DIR}/tests/package -B ${WORK_DIR}/${name} -DCMAKE_CXX_COMPILER=${CXX}
      -DRELO_CONSUME=${mode} ${ARGN})
  run(${CMAKE_COMMAND} --build ${WORK_DIR}/${name})
  run(${WORK_DIR}/${name}/consumer)
  message(STATUS "consumer (${name}): ok")
endfunction()

# The consumer built by a plain compiler command with pkg-config's flags: pkg_config_consumer(NAME PC_DIR).
function(pkg_config_consumer name pc_dir)
  set(ENV{PKG_CONFIG_PATH} ${pc_dir})
  run(pkg-config --cflags relo)
  string(STRIP "${run_output}" cflags)
  separate_arguments(cflags UNIX_COMMAND "${cflags}")
  run(${CXX} -std=c++17 ${cflags} ${RELO_SOURCE_DIR}/tests/package/main.cpp -o ${WORK_DIR}/${name})
  run(${WORK_DIR}/${name})
  run(pkg-config --modversion relo)
  string(STRIP "${run_output}" version)
  if(NOT version STREQUAL relo_version)
    message(FATAL_ERROR "pkg-config says relo ${version}, the project ${relo_version}")
  endif()
  message(STATUS "consumer (${name}, pkg-config ${cflags}): ok")
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
file(STRINGS ${RELO_SOURCE_DIR}/CMakeLists.txt project_line REGEX "^project\\(relo VERSION")
string(REGEX MATCH "VERSION ([0-9]+)\\.([0-9]+)\\.([0-9]+)" _ "${project_line}")
set(major ${CMAKE_MATCH_1})
set(minor ${CMAKE_MATCH_2})
set(relo_version ${major}.${minor}.${CMAKE_MATCH_3})
math(EXPR next_minor "${minor} + 1")
math(EXPR next_major "${major} + 1")

# 1. Installed into a prefix, configured as on a machine without GoogleTest (the README's recipe, with no
#    option): the tests turn themselves off and say so.
set(prefix ${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} -S ${RELO_SOURCE_DIR} -B ${WORK_DIR}/relo-build -DCMAKE_CXX_COMPILER=${CXX}
    -DCMAKE_INSTALL_PREFIX=${prefix} -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DRELO_BUILD_EXAMPLES=OFF)
if(NOT run_output MATCHES "GoogleTest not found, so the tests are not built")
  message(FATAL_ERROR "configured without GoogleTest, relo did not say its tests are off:\n${run_output}")
endif()
run(${CMAKE_COMMAND} --install ${WORK_DIR}/relo-build)
consume(package package -DCMAKE_PREFIX_PATH=${prefix})
# The version file (docs/stability.md): at 0.x only the same minor version is accepted; from 1.0 the same
# major version at least as new as asked; a newer minor or major never.
if(major EQUAL 0 AND NOT minor EQUAL 0)
  set(older_minor no)
else()
  set(older_minor yes)
endif()
foreach(ask ${relo_version}:yes ${major}.${minor}:yes ${major}.0:${older_minor} ${major}.${next_minor}:no ${next_major}.0:no)
  string(REPLACE ":" ";" ask "${ask}")
  list(GET ask 0 version)
  list(GET ask 1 wanted)
  run(${CMAKE_COMMAND} -S ${RELO_SOURCE_DIR}/tests/package -B ${WORK_DIR}/version-${version}
      -DRELO_CONSUME=version -DRELO_ASK=${version} -DCMAKE_PREFIX_PATH=${prefix})
  if(NOT run_output MATCHES "relo ${version} found: ${wanted}")
    message(FATAL_ERROR "find_package(relo ${version}) against relo ${relo_version}: expected found = ${wanted}\n${run_output}")
  endif()
endforeach()
message(STATUS "find_package(relo VERSION): the versions docs/stability.md promises accepted, the others refused")
# The installed printers are the ones the headers embed.
file(READ ${prefix}/share/relo/gdb/relo_gdb.py installed_printers)
file(READ ${RELO_SOURCE_DIR}/debugging/relo_gdb.py source_printers)
if(NOT installed_printers STREQUAL source_printers)
  message(FATAL_ERROR "the installed relo_gdb.py is not debugging/relo_gdb.py")
endif()

# 2. add_subdirectory of the source tree.
consume(subdirectory subdirectory -DRELO_SOURCE_DIR=${RELO_SOURCE_DIR})

# 3. FetchContent of a release archive: the files a release needs, from a local path.
set(archive ${WORK_DIR}/relo-${relo_version}.tar.gz)
execute_process(COMMAND ${CMAKE_COMMAND} -E tar czf ${archive} CMakeLists.txt cmake include debugging LICENSE README.md
                WORKING_DIRECTORY ${RELO_SOURCE_DIR} RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "could not make ${archive}")
endif()
consume(fetchcontent fetchcontent -DRELO_ARCHIVE=${archive})

# 4. pkg-config from the installed prefix.
pkg_config_consumer(pkg-config ${prefix}/share/pkgconfig)

# 5. The Debian package.
run(${CMAKE_COMMAND} -E chdir ${WORK_DIR}/relo-build cpack -G DEB)
file(GLOB deb ${WORK_DIR}/relo-build/packages/*.deb)
list(LENGTH deb debs)
if(NOT debs EQUAL 1)
  message(FATAL_ERROR "cpack made ${debs} .deb files: ${deb}")
endif()
foreach(field Package:librelo-dev Version:${relo_version} Architecture:all)
  string(REPLACE ":" ";" field "${field}")
  list(GET field 0 name)
  list(GET field 1 wanted)
  run(dpkg-deb -f ${deb} ${name})
  string(STRIP "${run_output}" got)
  if(NOT got STREQUAL wanted)
    message(FATAL_ERROR "the .deb's ${name} is '${got}', not '${wanted}'")
  endif()
endforeach()
set(root ${WORK_DIR}/deb-root)
run(dpkg-deb -x ${deb} ${root})
foreach(file include/relo/relo.hpp include/relo/vector.hpp include/relo/detail/gdb_printers.hpp
             share/cmake/relo/relo-config.cmake share/cmake/relo/relo-config-version.cmake
             share/cmake/relo/relo-targets.cmake share/pkgconfig/relo.pc share/relo/gdb/relo_gdb.py
             share/relo/lldb/relo_lldb.py share/doc/relo/LICENSE)
  if(NOT EXISTS ${root}/usr/${file})
    message(FATAL_ERROR "the .deb has no /usr/${file}")
  endif()
endforeach()
consume(deb-cmake package -DCMAKE_PREFIX_PATH=${root}/usr)
pkg_config_consumer(deb-pkg-config ${root}/usr/share/pkgconfig)
message(STATUS "the Debian package ${deb}: ok")
