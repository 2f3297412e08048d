# tests/printers_probe.cmake — which headers put relo's GDB printers into a program: a translation unit
# that includes a container carries them (.debug_gdb_scripts, with relo_gdb.py's text), one that includes
# only relo's traits (relocation.hpp, growth.hpp, commit_policy.hpp) carries nothing.
#   cmake -DCXX=<compiler> -DINCLUDE=<include dir> -DWORK=<dir> -P printers_probe.cmake
file(MAKE_DIRECTORY ${WORK})
function(probe name source expect_printers)
  file(WRITE ${WORK}/${name}.cpp "${source}\nint relo_probe_${name}() { return 0; }\n")
  execute_process(COMMAND ${CXX} -std=c++17 -c -I${INCLUDE} ${WORK}/${name}.cpp -o ${WORK}/${name}.o
                  RESULT_VARIABLE failed ERROR_VARIABLE errors)
  if(failed)
    message(FATAL_ERROR "${name}: does not compile:\n${errors}")
  endif()
  file(STRINGS ${WORK}/${name}.o hits REGEX "relo_gdb\\.py")
  if(expect_printers AND NOT hits)
    message(FATAL_ERROR "${name}: the object carries no GDB printers")
  elseif(NOT expect_printers AND hits)
    message(FATAL_ERROR "${name}: the object carries the GDB printers, though it includes no container")
  endif()
endfunction()
probe(traits "#include <relo/relocation.hpp>\n#include <relo/growth.hpp>\n#include <relo/commit_policy.hpp>" FALSE)
probe(container "#include <relo/vector.hpp>\nrelo::vector<int> relo_probe_vector;" TRUE)
probe(resource "#include <relo/monotonic_resource.hpp>\nrelo::monotonic_resource* relo_probe_monotonic;" TRUE)
message(STATUS "printers: in the containers' and resources' objects only")
