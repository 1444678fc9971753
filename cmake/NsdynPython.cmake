# Python bindings (python/, issue 14): option NSDYN_PYTHON, on by default when the system
# Python with its development files, pybind11 and NumPy are there (scripts/install-deps.sh
# installs python3-dev python3-pybind11 pybind11-dev python3-numpy python3-pytest).
# The Debian packages serve /usr/bin/python3: prefer it to another python3 first on PATH
# (pass -DPython3_EXECUTABLE=... to choose another interpreter). Off by default in sanitizer and
# fuzzing builds: a module built with ASan cannot be loaded by an uninstrumented python3.
if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
  set(Python3_EXECUTABLE /usr/bin/python3 CACHE FILEPATH "Python interpreter of the nsdyn module")
endif()
set(_nsd_py_missing "")
find_package(Python3 3.8 QUIET COMPONENTS Interpreter Development.Module)
if(NOT Python3_FOUND)
  list(APPEND _nsd_py_missing "Python 3 with its development files (python3-dev)")
else()
  find_package(pybind11 2.6 CONFIG QUIET)
  if(NOT pybind11_FOUND)
    list(APPEND _nsd_py_missing "pybind11 (pybind11-dev, python3-pybind11)")
  endif()
  execute_process(COMMAND ${Python3_EXECUTABLE} -c "import numpy"
                  RESULT_VARIABLE _nsd_numpy_rc OUTPUT_QUIET ERROR_QUIET)
  if(NOT _nsd_numpy_rc EQUAL 0)
    list(APPEND _nsd_py_missing "NumPy for ${Python3_EXECUTABLE} (python3-numpy)")
  endif()
endif()
if(_nsd_py_missing STREQUAL "" AND NOT NSDYN_SANITIZE AND NOT NSDYN_FUZZ)
  set(_nsd_py_default ON)
else()
  set(_nsd_py_default OFF)
endif()
option(NSDYN_PYTHON "Build the Python module nsdyn (pybind11, NumPy)" ${_nsd_py_default})
if(NSDYN_PYTHON AND NOT _nsd_py_missing STREQUAL "")
  list(JOIN _nsd_py_missing ", " _nsd_py_list)
  message(FATAL_ERROR "nsdyn: NSDYN_PYTHON=ON but missing: ${_nsd_py_list}; run scripts/install-deps.sh "
                      "or configure with -DNSDYN_PYTHON=OFF")
endif()
if(NSDYN_PYTHON)
  message(STATUS "nsdyn: Python module for ${Python3_EXECUTABLE} (${Python3_VERSION}), pybind11 ${pybind11_VERSION}")
elseif(NOT _nsd_py_missing STREQUAL "")
  list(JOIN _nsd_py_missing ", " _nsd_py_list)
  message(STATUS "nsdyn: Python module off (missing: ${_nsd_py_list})")
endif()
