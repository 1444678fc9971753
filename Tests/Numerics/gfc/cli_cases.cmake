# `nsdyn solve` on gfc files: --solution (r, u, then v), a singular M, a truncated file.
# 1. --solution holds 2 dim nc + n numbers: GFC3D_TwoRods1.dat, 3 contacts, n = 54 (72 lines).
execute_process(COMMAND ${CMD} solve ${DATA}/GFC3D_TwoRods1.dat --solution ${DIR}/tworods.sol
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "TwoRods1: expected exit 0, got ${rc}: ${out} ${err}")
endif()
file(STRINGS ${DIR}/tworods.sol lines)
list(LENGTH lines count)
if(NOT count EQUAL 72)
  message(FATAL_ERROR "TwoRods1 --solution: expected 72 numbers (r, u, v), got ${count}")
endif()

# 2. M singular (its last diagonal entry 0): exit 3, the file and the reason named.
file(WRITE ${DIR}/singular.dat "3\n1\n0\n3\n3\n3\t3\n1 0 0\n0 1 0\n0 0 0\n0\n3\n3\n3\t3\n1 0 0\n0 1 0\n0 0 1\n-1 0 0\n0 0 0\n0.3\n")
execute_process(COMMAND ${CMD} solve --kind gfc3d ${DIR}/singular.dat
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 3)
  message(FATAL_ERROR "singular M: expected exit 3, got ${rc}: ${out} ${err}")
endif()
if(NOT err MATCHES "singular.dat: nsgs_wr needs M invertible: GFC: M \\(3 x 3\\)")
  message(FATAL_ERROR "singular M: expected the file and M named, got: ${err}")
endif()

# 3. A truncated gfc file: exit 3 naming the file.
file(WRITE ${DIR}/truncated.dat "3\n1\n0\n3\n3\n3\t3\n1 0 0\n0 1 0\n")
execute_process(COMMAND ${CMD} solve --kind gfc3d ${DIR}/truncated.dat
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 3)
  message(FATAL_ERROR "truncated: expected exit 3, got ${rc}: ${out} ${err}")
endif()
if(NOT err MATCHES "truncated.dat")
  message(FATAL_ERROR "truncated: expected the file named, got: ${err}")
endif()
