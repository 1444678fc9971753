# race_nsdyn_cli.cmake: ctest race_nsdyn_cli (see CMakeLists.txt). -DEXE, -DWORK.
# Budget mode writes an "iterations" row with its sweep count and settings; tolerance mode a
# "tolerance" row, the overlap recovery on unless --recovery off (the library's default); a bad
# --mode is a usage error (exit 2); --threads, --recovery-tolerance, --speculative, --solver.
set(csv ${WORK}/race_nsdyn_cli.csv)
# A usage error: the arguments @p args (one string, split at spaces) exit 2 with @p message
# on stderr.
function(expect_usage_error args message)
  separate_arguments(list UNIX_COMMAND "${args}")
  execute_process(COMMAND ${EXE} --scene jolt_pyramid --quick ${list} --csv ${csv}
                  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
  if(NOT rc EQUAL 2 OR NOT err MATCHES "${message}")
    message(FATAL_ERROR "${args}: exit ${rc}, '${err}' (2 and '${message}' expected)")
  endif()
endfunction()
file(REMOVE ${csv})
execute_process(COMMAND ${EXE} --scene jolt_pyramid --quick --steps 10 --mode budget --tolerance 1e-4
                        --check-every 10 --budgets 10 --recovery off --csv ${csv}
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0 OR NOT EXISTS ${csv})
  message(FATAL_ERROR "--mode budget: exit ${rc}")
endif()
execute_process(COMMAND ${EXE} --scene jolt_pyramid --quick --steps 10 --budgets 1e-4 --csv ${csv}
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "--budgets 1e-4: exit ${rc}")
endif()
file(STRINGS ${csv} rows REGEX "^jolt_pyramid,nsdyn,nsgs,")
list(LENGTH rows n)
if(NOT n EQUAL 2)
  message(FATAL_ERROR "${n} rows, 2 expected: ${rows}")
endif()
list(GET rows 0 budget)
list(GET rows 1 tolerance)
# every step does 10 sweeps: the error is first tested after the 10th (check every 10)
if(NOT budget MATCHES "^jolt_pyramid,nsdyn,nsgs,iterations,10,30,[0-9.e-]+,10,[0-9.]+,10\\.0,"
   OR NOT budget MATCHES "budget mode; tolerance 1e-4; check every 10; recovery off")
  message(FATAL_ERROR "budget row: ${budget}")
endif()
if(NOT tolerance MATCHES "^jolt_pyramid,nsdyn,nsgs,tolerance,0\\.0001,30,"
   OR NOT tolerance MATCHES "max iterations 1000; recovery on \\(tolerance 1e-06; at most 100 sweeps\\)")
  message(FATAL_ERROR "tolerance row: ${tolerance}")
endif()
expect_usage_error("--mode fast" "--mode must be tolerance or budget, found fast")
file(REMOVE ${csv})
expect_usage_error("--mode budget --budgets 2.5" "sweep counts >= 1, found 2.5")
expect_usage_error("--recovery yes" "--recovery must be on or off, found yes")
file(REMOVE ${csv})
# --threads: the same trajectory (every measure of the row) on 1 and 2 threads; the recovery's
# tolerance in the settings; a bad --recovery-tolerance is a usage error
foreach(t 1 2)
  file(REMOVE ${csv}.${t})
  execute_process(COMMAND ${EXE} --scene jolt_pyramid --quick --steps 10 --mode budget --budgets 10
                          --recovery on --recovery-tolerance 1e-2 --threads ${t} --csv ${csv}.${t}
                  RESULT_VARIABLE rc OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "--threads ${t}: exit ${rc}")
  endif()
  file(STRINGS ${csv}.${t} row REGEX "^jolt_pyramid,nsdyn,")
  if(NOT row MATCHES "recovery on \\(tolerance 0.01[^)]*at most [0-9]+ sweeps\\)" OR NOT row MATCHES "warm start.* ${t} thread")
    message(FATAL_ERROR "--threads ${t} row: ${row}")
  endif()
  string(REPLACE "," ";" fields "${row}")
  list(SUBLIST fields 9 14 measures_${t})  # iterations_mean .. siconos_err_mean
  file(REMOVE ${csv}.${t})
endforeach()
if(NOT measures_1 STREQUAL measures_2)
  message(FATAL_ERROR "1 and 2 threads differ: ${measures_1} / ${measures_2}")
endif()
expect_usage_error("--recovery on --recovery-tolerance 0" "--recovery-tolerance must be a number > 0, found 0")
file(REMOVE ${csv})
# --speculative on: the landings of the 4-layer pyramid stop near the surface (largest overlap
# over the run, pen_max, at least 5 times smaller than without), said in the settings; a bad
# value is a usage error
foreach(s off on)
  file(REMOVE ${csv}.${s})
  execute_process(COMMAND ${EXE} --scene jolt_pyramid --quick --mode budget --budgets 5
                          --speculative ${s} --csv ${csv}.${s}
                  RESULT_VARIABLE rc OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "--speculative ${s}: exit ${rc}")
  endif()
  file(STRINGS ${csv}.${s} row REGEX "^jolt_pyramid,nsdyn,")
  if(NOT row MATCHES "speculative contacts ${s}")
    message(FATAL_ERROR "--speculative ${s} row: ${row}")
  endif()
  string(REPLACE "," ";" fields "${row}")
  list(GET fields 11 pen_${s})
  file(REMOVE ${csv}.${s})
endforeach()
if(NOT pen_off GREATER 0.05 OR NOT pen_on LESS 0.01)
  message(FATAL_ERROR "speculative contacts: pen_max ${pen_on} on, ${pen_off} off (< 0.01 and > 0.05 m expected)")
endif()
expect_usage_error("--speculative yes" "--speculative must be on or off, found yes")
file(REMOVE ${csv})

# --solver: any FC3D solver of the table (an assembled-W one runs: newton_ac on the quick
# pyramid, one row); a name outside the table is a usage error
file(REMOVE ${csv}.newton)
execute_process(COMMAND ${EXE} --scene jolt_pyramid --quick --steps 5 --solver newton_ac --budgets 1e-6
                        --csv ${csv}.newton
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "--solver newton_ac: exit ${rc}, ${err}")
endif()
file(STRINGS ${csv}.newton rows REGEX "^jolt_pyramid,nsdyn,newton_ac,")
list(LENGTH rows n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "--solver newton_ac: ${n} rows, 1 expected")
endif()
file(REMOVE ${csv}.newton)
expect_usage_error("--solver gauss" "--solver must be an FC3D solver .nsdyn solve --list-solvers., found gauss")
