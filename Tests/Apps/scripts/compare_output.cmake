# cmake -DPROGRAM=... -DARGS="a;b" -DEXPECTED=file -P compare_output.cmake
# Fails when PROGRAM ARGS prints anything but the content of EXPECTED (a generated doc
# page that must be current): regenerate it with the same command.
execute_process(COMMAND ${PROGRAM} ${ARGS} OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} ${ARGS}: exit status ${rc}")
endif()
file(READ ${EXPECTED} expected)
if(NOT out STREQUAL expected)
  string(REPLACE ";" " " args "${ARGS}")
  message(FATAL_ERROR "${EXPECTED} is not current: regenerate it with\n  ${PROGRAM} ${args} > ${EXPECTED}")
endif()
message(STATUS "${EXPECTED} is current")
