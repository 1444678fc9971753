// A read that a library may crash on, corrupt memory in, or hang on (libhdf5 on a damaged
// file), done in a child process: the interpreter never runs the library on the file, and the
// user gets an error instead of a dead Python.
#ifndef NSDYN_PYTHON_CHILD_READ_HPP
#define NSDYN_PYTHON_CHILD_READ_HPP

#include <functional>
#include <string>

namespace nsdpy {

/// Runs @p read in a forked child (no Python object may be touched there) and returns the
/// bytes it returned, sent back through a pipe. An nsdyn::Error thrown by @p read is thrown
/// again here with the same message. A child that crashes, or does not finish within
/// @p seconds (it is killed), is an nsdyn::Error "OBJECT: expected a file the LIBRARY can
/// read, found the LIBRARY crashed reading it (signal N) ..." naming @p object. Where fork or
/// pipe fails, @p read runs in this process.
std::string readInChild(const std::function<std::string()>& read, double seconds,
                        const std::string& object, const std::string& library);

}  // namespace nsdpy

#endif
