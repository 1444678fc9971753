/// @file Error.hpp
/// @brief nsdyn::Error, the one exception type of the Kernel.
#ifndef NSDYN_KERNEL_ERROR_HPP
#define NSDYN_KERNEL_ERROR_HPP

#include <stdexcept>
#include <string>

#include "nsdyn/KernelExport.hpp"

namespace nsdyn {

/// Exception thrown by the Kernel on invalid input or an inconsistent model.
/// The message names the object, what was expected and what was found:
/// "Interaction #2 (LagrangianLinearTIR): expected H with 3 columns (dof of linked systems), found
/// 2". A solver that does not converge is not an Error: it is recorded in the step statistics.
class NSDYN_KERNEL_API Error : public std::runtime_error {
 public:
  /// @param object   the object at fault, e.g. "TimeDiscretisation" or "Interaction #2"
  /// @param expected what was required
  /// @param found    what was given
  Error(const std::string& object, const std::string& expected, const std::string& found);

  /// Free-form message (for errors that have no expected/found pair).
  explicit Error(const std::string& message);

  /// The object named at construction ("" for a free-form message).
  const std::string& object() const { return object_; }

 private:
  std::string object_;
};

}  // namespace nsdyn

#endif
