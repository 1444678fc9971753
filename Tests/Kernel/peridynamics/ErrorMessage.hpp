// The message of the nsdyn::Error a call throws, for the peridynamic body and sheet tests.
#ifndef NSDYN_TESTS_PERIDYNAMICS_ERRORMESSAGE_HPP
#define NSDYN_TESTS_PERIDYNAMICS_ERRORMESSAGE_HPP

#include <functional>
#include <string>

#include <nsdyn/Error.hpp>

namespace pd_test {

/// The message of the nsdyn::Error thrown by @p f; @p none when it throws none.
inline std::string messageOf(const std::function<void()>& f,
                             const std::string& none = "(no error)") {
  try {
    f();
  } catch (const nsdyn::Error& e) {
    return e.what();
  }
  return none;
}

}  // namespace pd_test

#endif
