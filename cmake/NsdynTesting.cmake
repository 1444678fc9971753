# nsdyn_add_test(NAME <target> SOURCES <files...> [LIBS <libs...>] [NO_CTEST] [INTERNAL])
# Builds a CppUnit test executable (with the shared main in Tests/common) and
# registers one ctest per CppUnit test suite, named <target>.
# INTERNAL: the test calls functions of Numerics that the shared library does not
# export (it exports the NSD_API functions only); the executable gets the library's
# objects themselves and the private headers of Numerics/src (nsdyn_numerics_internal).
# nsdyn_add_test_case(<ctest name> <target> <args...>) adds a further ctest
# running the same executable with arguments (e.g. one per data file).
# The shared main is compiled once (an object library) for every test executable.
add_library(nsdyn_test_main OBJECT ${PROJECT_SOURCE_DIR}/Tests/common/test_main.cpp)
target_include_directories(nsdyn_test_main PRIVATE ${CPPUNIT_INCLUDE_DIR} ${PROJECT_SOURCE_DIR}/Tests/common)
nsdyn_target_warnings(nsdyn_test_main)

function(nsdyn_add_test)
  # NO_CTEST: build the executable only (its suites are registered one by one
  # with nsdyn_add_test_case, so the whole executable would run them twice).
  cmake_parse_arguments(T "NO_CTEST;INTERNAL" "NAME" "SOURCES;LIBS" ${ARGN})
  add_executable(${T_NAME} ${T_SOURCES} $<TARGET_OBJECTS:nsdyn_test_main>)
  set_target_properties(${T_NAME} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin/tests)
  target_include_directories(${T_NAME} PRIVATE ${CPPUNIT_INCLUDE_DIR} ${PROJECT_SOURCE_DIR}/Tests/common)
  target_link_libraries(${T_NAME} PRIVATE nsdyn::numerics ${T_LIBS} ${CPPUNIT_LIBRARY})
  target_compile_definitions(${T_NAME} PRIVATE NSDYN_SHARED_DIR="${NSDYN_SHARED_DIR}"
                             NSDYN_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
                             NSDYN_BINARY_DIR="${PROJECT_BINARY_DIR}")
  if(T_INTERNAL)
    target_link_libraries(${T_NAME} PRIVATE nsdyn_numerics_internal)
  endif()
  nsdyn_target_warnings(${T_NAME})
  if(NOT T_NO_CTEST)
    add_test(NAME ${T_NAME} COMMAND ${T_NAME})
  endif()
endfunction()

function(nsdyn_add_test_case name target)
  add_test(NAME ${name} COMMAND ${target} ${ARGN})
endfunction()
