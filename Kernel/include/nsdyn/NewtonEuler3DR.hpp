/// @file NewtonEuler3DR.hpp
/// @brief User point contact between one or two rigid bodies with friction rows.
#ifndef NSDYN_KERNEL_NEWTONEULER3DR_HPP
#define NSDYN_KERNEL_NEWTONEULER3DR_HPP

#include <memory>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/NewtonEuler1DR.hpp"

namespace nsdyn {

/// Point contact with a normal and two tangential rows (for NewtonImpactFrictionNSL
/// of size 3): y = (gap, 0, 0), H rows in the local frame [N; t1; t2] of the
/// normal (NewtonEuler1DR::localFrameOf), jachq only in row 0. Everything else
/// (the user geometry, the formulas of MECHANICS.md §0.6) is NewtonEuler1DR's.
/// Law size 3; 7 or 14 position coordinates.
class NSDYN_KERNEL_API NewtonEuler3DR : public NewtonEuler1DR {
 public:
  /// Contact of the geometry @p gap; nsdyn::Error if it is empty.
  explicit NewtonEuler3DR(GapFunction gap);

  std::string className() const override { return "NewtonEuler3DR"; }

 protected:
  /// For derived classes overriding computeGap().
  NewtonEuler3DR();
};

namespace SP {
using NewtonEuler3DR = std::shared_ptr<nsdyn::NewtonEuler3DR>;
}

}  // namespace nsdyn

#endif
