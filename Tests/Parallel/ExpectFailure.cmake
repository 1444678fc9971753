# cmake -DRUN=<command;args> -DMESSAGE=<text> -P ExpectFailure.cmake: the command must exit
# non-zero (every rank returns 1), within the time limit (no rank left hanging in a
# collective), and print "nsdyn: error: ...<text>..." exactly once (rank 0 alone).
execute_process(COMMAND ${RUN} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err TIMEOUT 100)
message("exit: ${_rc}\n${_out}${_err}")
if(_rc MATCHES "timeout|Process terminated")
  message(FATAL_ERROR "the run hung: ${_rc}")
endif()
if(_rc EQUAL 0)
  message(FATAL_ERROR "the run succeeded; a failure was expected")
endif()
string(REPLACE ";" "," _all "${_out}${_err}")  # a list separator inside a message would split it
string(REGEX MATCHALL "nsdyn: error: [^\n]*" _lines "${_all}")
list(LENGTH _lines _n)
if(NOT _n EQUAL 1)
  message(FATAL_ERROR "expected one \"nsdyn: error:\" line (rank 0), found ${_n}")
endif()
string(FIND "${_lines}" "${MESSAGE}" _at)
if(_at LESS 0)
  message(FATAL_ERROR "the error does not say \"${MESSAGE}\": ${_lines}")
endif()
