/// @file LoadError.hpp
/// @brief The error of the XML loader: file, line and what was expected.
#ifndef NSDYN_IO_LOADERROR_HPP
#define NSDYN_IO_LOADERROR_HPP

#include <string>

#include "nsdyn/Error.hpp"
#include "nsdyn/io/IoExport.hpp"

namespace nsdyn::io {

/// A model file that cannot be loaded. what() reads
/// "FILE:LINE: <element>: expected ..., found ..."; file() and line() give
/// the place (line 0 when the file could not be read at all).
class NSDYN_IO_API LoadError : public nsdyn::Error {
 public:
  LoadError(const std::string& file, long line, const std::string& message)
      : nsdyn::Error(file + ":" + std::to_string(line) + ": " + message),
        file_(file),
        line_(line) {}

  const std::string& file() const { return file_; }
  long line() const { return line_; }

 private:
  std::string file_;
  long line_;
};

}  // namespace nsdyn::io

#endif
