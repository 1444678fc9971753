# `nsdyn solve FILE` on a bad GMP file: exit status 3 (bad input), a message naming FILE:LINE.
execute_process(COMMAND ${CMD} solve --kind gmp ${FILE} RESULT_VARIABLE rc ERROR_VARIABLE err
                OUTPUT_VARIABLE out)
if(NOT rc EQUAL 3)
  message(FATAL_ERROR "expected exit status 3, got ${rc}: ${err}")
endif()
if(NOT err MATCHES "GMPtruncated.dat:4: W.blocks: expected a size that fits")
  message(FATAL_ERROR "expected FILE:LINE in the message, got: ${err}")
endif()
