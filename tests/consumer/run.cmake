# Installs relo into a scratch prefix, then builds and runs tests/consumer against it with
# find_package(relo), and again with add_subdirectory(relo). Run with cmake -P.
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "failed (${result}): ${ARGV}\n${out}\n${err}")
  endif()
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} -S ${RELO_SOURCE_DIR} -B ${WORK_DIR}/relo-build -DCMAKE_CXX_COMPILER=${CXX}
    -DCMAKE_INSTALL_PREFIX=${prefix} -DRELO_BUILD_TESTS=OFF -DRELO_BUILD_EXAMPLES=OFF)
run(${CMAKE_COMMAND} --install ${WORK_DIR}/relo-build)

foreach(mode package subdirectory)
  run(${CMAKE_COMMAND} -S ${RELO_SOURCE_DIR}/tests/consumer -B ${WORK_DIR}/${mode} -DCMAKE_CXX_COMPILER=${CXX}
      -DRELO_CONSUME=${mode} -DRELO_SOURCE_DIR=${RELO_SOURCE_DIR} -DCMAKE_PREFIX_PATH=${prefix})
  run(${CMAKE_COMMAND} --build ${WORK_DIR}/${mode})
  run(${WORK_DIR}/${mode}/consumer)
  message(STATUS "consumer via ${mode}: ok")
endforeach()
