# Large friction-contact problems and the friction benchmark programs.
# Included from Benchmarks/CMakeLists.txt:
#   include(${CMAKE_CURRENT_SOURCE_DIR}/granular.cmake)
#
# nsdyn_granular   static library: the granular problem generator (granular.h/.c),
#                  used by the programs below and by Tests/Numerics/granular
# make_granular_problem N OUT.dat   writes an FC3D problem with about N contacts
# bench_large N ...                 APGD (assembled, matrix-free; 1 and 2 threads),
#                                   NSGS, PSOR on it: time, iterations, peak memory
# fc_history FILE ...               residual per iteration of each friction solver (CSV)
set(_granular_dir ${CMAKE_CURRENT_LIST_DIR})

add_library(nsdyn_granular STATIC ${_granular_dir}/granular.c)
target_include_directories(nsdyn_granular PUBLIC ${_granular_dir})
target_link_libraries(nsdyn_granular PUBLIC nsdyn::numerics m)
nsdyn_target_warnings(nsdyn_granular)

add_executable(make_granular_problem ${_granular_dir}/make_granular_problem.c)
target_link_libraries(make_granular_problem PRIVATE nsdyn_granular)
nsdyn_target_warnings(make_granular_problem)

add_executable(bench_large ${_granular_dir}/bench_large.cpp)
target_link_libraries(bench_large PRIVATE nsdyn_granular)
nsdyn_target_warnings(bench_large)

add_executable(fc_history ${_granular_dir}/fc_history.cpp)
target_link_libraries(fc_history PRIVATE nsdyn::numerics)
nsdyn_target_warnings(fc_history)
