# `nsdyn solve --kind rfc3d FILE` on a rolling file with mu_r < 0: exit status 3 (bad input)
# and a message naming FILE:LINE, the field and the value.
execute_process(COMMAND ${CMD} solve --kind rfc3d ${FILE} RESULT_VARIABLE rc ERROR_VARIABLE err
                OUTPUT_VARIABLE out)
if(NOT rc EQUAL 3)
  message(FATAL_ERROR "expected exit status 3, got ${rc}: ${err}")
endif()
if(NOT err MATCHES "bad_mur.dat:10: mu_r\\[0\\]: expected a real >= 0, found '-0.25'")
  message(FATAL_ERROR "expected FILE:LINE, field and value in the message, got: ${err}")
endif()
