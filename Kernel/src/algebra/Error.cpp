// nsdyn::Error: message "<object>: expected <expected>, found <found>".
#include "nsdyn/Error.hpp"

namespace nsdyn {

Error::Error(const std::string& object, const std::string& expected, const std::string& found)
    : std::runtime_error(object + ": expected " + expected + ", found " + found), object_(object) {}

Error::Error(const std::string& message) : std::runtime_error(message) {}

}  // namespace nsdyn
