# All nsdyn build options, in one place.
option(NSDYN_BUILD_TESTS "Build the CppUnit test suite (ctest)" ON)
option(NSDYN_SANITIZE "Build with AddressSanitizer + UndefinedBehaviorSanitizer" OFF)
option(NSDYN_WERROR "Treat compiler warnings as errors (CI)" OFF)
option(NSDYN_LONG_TESTS "Register the long checks too (label long: ctest -L long)" OFF)
option(NSDYN_OPENMP "Use OpenMP in the solvers that are parallel" ON)
set(NSDYN_SHARED_DIR "${PROJECT_SOURCE_DIR}/../shared" CACHE PATH
    "Folder holding data/, anchors/ and reference/ (tests read them in place)")
get_filename_component(NSDYN_SHARED_DIR "${NSDYN_SHARED_DIR}" ABSOLUTE)

if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type" FORCE)
endif()

if(NSDYN_SANITIZE)
  set(_nsd_san -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_compile_options(${_nsd_san})
  add_link_options(-fsanitize=address,undefined)
endif()
# MPI-parallel library nsdyn_parallel (Parallel/, doc/parallel.md): AUTO (default) builds it
# when MPI (C++) and Zoltan are both found and says why not otherwise; ON makes their
# absence a configure error; OFF never builds it. Resolved in NsdynDependencies.cmake.
set(NSDYN_MPI AUTO CACHE STRING "Build the MPI library nsdyn_parallel: AUTO (when MPI and Zoltan are found), ON, OFF")
set_property(CACHE NSDYN_MPI PROPERTY STRINGS AUTO ON OFF)
