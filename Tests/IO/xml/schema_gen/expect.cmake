# cmake -DPROGRAM=nsdyn_schema_gen -DARGS="check;a;b" -DRC=1 -DREGEX=... [-DCOPY="from;to;..."]
#       [-DTHEN="check;a;b"] -P expect.cmake
# Copies each pair of COPY, runs PROGRAM ARGS, fails unless its exit status is RC and its
# output (stdout and stderr) matches REGEX; then, with THEN, PROGRAM THEN must exit 0.
if(COPY)
  list(LENGTH COPY _n)
  math(EXPR _last "${_n} - 1")
  foreach(_i RANGE 0 ${_last} 2)
    math(EXPR _j "${_i} + 1")
    list(GET COPY ${_i} _from)
    list(GET COPY ${_j} _to)
    configure_file(${_from} ${_to} COPYONLY)
  endforeach()
endif()
execute_process(COMMAND ${PROGRAM} ${ARGS} OUTPUT_VARIABLE out ERROR_VARIABLE err
                RESULT_VARIABLE rc)
string(REPLACE ";" " " args "${ARGS}")
if(NOT rc EQUAL RC)
  message(FATAL_ERROR "${PROGRAM} ${args}: exit status ${rc}, expected ${RC}\n${out}${err}")
endif()
if(NOT "${out}${err}" MATCHES "${REGEX}")
  message(FATAL_ERROR "${PROGRAM} ${args}: output does not match '${REGEX}':\n${out}${err}")
endif()
if(THEN)
  execute_process(COMMAND ${PROGRAM} ${THEN} OUTPUT_VARIABLE out ERROR_VARIABLE err
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " then "${THEN}")
    message(FATAL_ERROR "${PROGRAM} ${then}: exit status ${rc}\n${out}${err}")
  endif()
endif()
