# Third-party libraries, all from Debian packages (scripts/install-deps.sh).
set(BLA_VENDOR OpenBLAS)
find_package(BLAS REQUIRED)
find_package(LAPACK REQUIRED)
find_package(HDF5 REQUIRED COMPONENTS C)
find_package(PkgConfig)
if(NSDYN_OPENMP)
  find_package(OpenMP REQUIRED COMPONENTS C CXX)
endif()

find_path(LAPACKE_INCLUDE_DIR lapacke.h REQUIRED)
find_library(LAPACKE_LIBRARY lapacke REQUIRED)
find_path(SUITESPARSE_INCLUDE_DIR cs.h PATH_SUFFIXES suitesparse REQUIRED)
find_library(CXSPARSE_LIBRARY cxsparse REQUIRED)
find_library(CHOLMOD_LIBRARY cholmod REQUIRED)
find_library(SUITESPARSECONFIG_LIBRARY suitesparseconfig REQUIRED)
find_library(MATH_LIBRARY m)

# CppUnit for the tests (headers + library).
if(NSDYN_BUILD_TESTS)
  find_path(CPPUNIT_INCLUDE_DIR cppunit/TestCase.h REQUIRED)
  find_library(CPPUNIT_LIBRARY cppunit REQUIRED)
endif()
